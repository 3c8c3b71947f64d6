// Parquet LIST columns in the shapes DuckDB does not write: the legacy two-level forms, a bare
// repeated field, and rows that go on from one data page v1 into the next. Files are built
// here byte by byte (uncompressed, PLAIN INT32 values, levels as RLE runs of one).

#include <gtest/gtest.h>

#include <fstream>

#include "common/error.h"
#include "parquet_build_util.h"
#include "storage/parquet/column_reader.h"
#include "storage/parquet/column_writer.h"
#include "storage/parquet/parquet_reader.h"
#include "test_util.h"

namespace shears::parquet {
namespace {

using test::BuildFile;
using test::Entry;
using test::Group;
using test::Int32Leaf;
using test::ReadAll;
using test::Write;
using Rep = format::FieldRepetitionType;

TEST(ParquetListTest, ThreeLevelRowsSpanningPages) {
  // optional group l (LIST) { repeated group list { optional int32 element } }:
  // def 0 NULL list, 1 empty, 2 NULL element, 3 value. Row 1 starts in page 0 and ends in
  // page 2; page 1 holds nothing but the middle of it.
  const std::vector<format::SchemaElement> schema = {Group("l", Rep::OPTIONAL, 1, true),
                                                     Group("list", Rep::REPEATED, 1, false),
                                                     Int32Leaf("element", Rep::OPTIONAL)};
  const std::vector<std::vector<Entry>> pages = {{{0, 3, 1}, {1, 2}, {0, 3, 10}},
                                                 {{1, 3, 11}, {1, 3, 12}},
                                                 {{1, 2}, {0, 0}, {0, 1}, {0, 3, 5}}};
  test::TempDir dir;
  const std::string path = Write(dir, "three.parquet", BuildFile(schema, 3, pages, 5));
  auto file = ParquetFile::Open(path);
  EXPECT_EQ(file->columns()[0].type, LogicalType::List(LogicalType::Integer()));
  EXPECT_EQ(ReadAll(path),
            (std::vector<std::string>{"[1, NULL]", "[10, 11, 12, NULL]", "NULL", "[]", "[5]"}));

  // Reads of a few rows at a time, with skips, stay in step with the rows.
  ScanCounters counters;
  const auto& meta = file->chunk(0, 0).meta_data;
  std::string bytes(static_cast<size_t>(meta.total_compressed_size), '\0');
  file->file().ReadAt(static_cast<uint64_t>(meta.data_page_offset), bytes.size(),
                      reinterpret_cast<uint8_t*>(bytes.data()));
  auto buffer = std::make_shared_for_overwrite<uint8_t[]>(bytes.size());
  std::memcpy(buffer.get(), bytes.data(), bytes.size());
  ColumnChunkReader chunk(*file, 0, 0, {buffer, 0, bytes.size()}, &counters);
  Vector out(file->columns()[0].type);
  chunk.SkipTo(1);
  chunk.Read(1, out, 0);
  EXPECT_EQ(out.ValueToString(0), "[10, 11, 12, NULL]");
  chunk.SkipTo(3);
  chunk.Read(2, out, 1);
  EXPECT_EQ(out.ValueToString(1), "[]");
  EXPECT_EQ(out.ValueToString(2), "[5]");
}

TEST(ParquetListTest, LegacyTwoLevelAndBareRepeated) {
  test::TempDir dir;
  // optional group l (LIST) { repeated int32 element }: required elements.
  const std::vector<std::vector<Entry>> two_level_pages = {
      {{0, 2, 1}, {1, 2, 2}, {0, 0}, {0, 1}, {0, 2, 3}}};
  const std::string two_level =
      Write(dir, "two.parquet",
            BuildFile({Group("l", Rep::OPTIONAL, 1, true), Int32Leaf("element", Rep::REPEATED)}, 2,
                      two_level_pages, 4));
  EXPECT_EQ(ReadAll(two_level), (std::vector<std::string>{"[1, 2]", "NULL", "[]", "[3]"}));

  // repeated int32 l (no LIST annotation): a required list of required elements.
  const std::vector<std::vector<Entry>> bare_pages = {{{0, 1, 7}, {1, 1, 8}, {0, 0}, {0, 1, 9}}};
  const std::string bare =
      Write(dir, "bare.parquet", BuildFile({Int32Leaf("l", Rep::REPEATED)}, 1, bare_pages, 3));
  EXPECT_EQ(ReadAll(bare), (std::vector<std::string>{"[7, 8]", "[]", "[9]"}));

  // Rule 3: a repeated group named `array` is the element itself, a struct.
  const std::string array_struct =
      Write(dir, "array.parquet",
            BuildFile({Group("l", Rep::OPTIONAL, 1, true), Group("array", Rep::REPEATED, 1, false),
                       Int32Leaf("x", Rep::REQUIRED)},
                      2, two_level_pages, 4));
  EXPECT_EQ(ReadAll(array_struct),
            (std::vector<std::string>{"[{'x': 1}, {'x': 2}]", "NULL", "[]", "[{'x': 3}]"}));
  // Rule 4: a repeated group of one field not named so is a list of that field (here a
  // required LIST of a LIST: `repeated group list { repeated int32 element }`).
  const std::string list_of_lists =
      Write(dir, "lol.parquet",
            BuildFile({Group("l", Rep::REQUIRED, 1, true), Group("list", Rep::REPEATED, 1, false),
                       Int32Leaf("element", Rep::REPEATED)},
                      2, {{{0, 2, 1}, {2, 2, 2}, {1, 1}, {0, 0}}}, 2));
  EXPECT_EQ(ReadAll(list_of_lists), (std::vector<std::string>{"[[1, 2], []]", "[]"}));
}

TEST(ParquetListTest, MalformedLevelsAreCorruptFileErrors) {
  const std::vector<format::SchemaElement> schema = {Group("l", Rep::OPTIONAL, 1, true),
                                                     Group("list", Rep::REPEATED, 1, false),
                                                     Int32Leaf("element", Rep::OPTIONAL)};
  test::TempDir dir;
  // A chunk that starts inside a row; a NULL list with a second entry; fewer rows than said.
  for (const auto& [pages, rows] : std::vector<std::pair<std::vector<std::vector<Entry>>, int>>{
           {{{{1, 3, 1}}}, 1}, {{{{0, 0}, {1, 3, 2}}}, 1}, {{{{0, 3, 1}}}, 2}}) {
    const std::string path = Write(dir, "bad.parquet", BuildFile(schema, 3, pages, rows));
    EXPECT_THROW(ReadAll(path), CorruptFileError);
  }
}

}  // namespace
}  // namespace shears::parquet

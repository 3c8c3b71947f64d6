// Parquet LIST columns in the shapes DuckDB does not write: the legacy two-level forms, a bare
// repeated field, and rows that go on from one data page v1 into the next. Files are built
// here byte by byte (uncompressed, PLAIN INT32 values, levels as RLE runs of one).

#include <gtest/gtest.h>

#include <fstream>

#include "common/error.h"
#include "storage/parquet/column_reader.h"
#include "storage/parquet/column_writer.h"
#include "storage/parquet/parquet_reader.h"
#include "test_util.h"

namespace shears::parquet {
namespace {

using Rep = format::FieldRepetitionType;

format::SchemaElement Group(const std::string& name, Rep::type repetition, int children,
                            bool list_annotation) {
  format::SchemaElement element;
  element.__set_name(name);
  element.__set_repetition_type(repetition);
  element.__set_num_children(children);
  if (list_annotation) element.__set_converted_type(format::ConvertedType::LIST);
  return element;
}

format::SchemaElement Int32Leaf(const std::string& name, Rep::type repetition) {
  format::SchemaElement element;
  element.__set_name(name);
  element.__set_repetition_type(repetition);
  element.__set_type(format::Type::INT32);
  return element;
}

// One level entry: its repetition and definition level, and its value when defined fully.
struct Entry {
  int rep;
  int def;
  int32_t value = 0;
};

// Levels as RLE runs of one value each, with the four-byte length prefix of pages v1.
std::string Levels(const std::vector<Entry>& entries, bool repetition) {
  std::string runs;
  for (const Entry& e : entries) {
    runs.push_back(2);  // a run of one: (1 << 1)
    runs.push_back(static_cast<char>(repetition ? e.rep : e.def));
  }
  const auto size = static_cast<uint32_t>(runs.size());
  return std::string(reinterpret_cast<const char*>(&size), 4) + runs;
}

// A file of one LIST column of INT32 elements whose leaf has `max_def`; each inner vector of
// `pages` is one data page v1.
std::string BuildFile(const std::vector<format::SchemaElement>& column_schema, int max_def,
                      const std::vector<std::vector<Entry>>& pages, int64_t num_rows) {
  ThriftSerializer thrift;
  std::string file = "PAR1";
  const int64_t chunk_start = static_cast<int64_t>(file.size());
  int64_t entries = 0;
  for (const auto& page : pages) {
    std::string body = Levels(page, true);
    if (max_def > 0) body += Levels(page, false);
    for (const Entry& e : page) {
      if (e.def == max_def) body.append(reinterpret_cast<const char*>(&e.value), 4);
    }
    format::PageHeader header;
    header.__set_type(format::PageType::DATA_PAGE);
    header.__set_uncompressed_page_size(static_cast<int32_t>(body.size()));
    header.__set_compressed_page_size(static_cast<int32_t>(body.size()));
    format::DataPageHeader data;
    data.__set_num_values(static_cast<int32_t>(page.size()));
    data.__set_encoding(format::Encoding::PLAIN);
    data.__set_definition_level_encoding(format::Encoding::RLE);
    data.__set_repetition_level_encoding(format::Encoding::RLE);
    header.__set_data_page_header(data);
    thrift.Append(header, &file);
    file += body;
    entries += static_cast<int64_t>(page.size());
  }
  const int64_t chunk_size = static_cast<int64_t>(file.size()) - chunk_start;
  format::ColumnMetaData meta;
  meta.__set_type(format::Type::INT32);
  meta.__set_encodings({format::Encoding::PLAIN, format::Encoding::RLE});
  meta.__set_path_in_schema({"l"});
  meta.__set_codec(format::CompressionCodec::UNCOMPRESSED);
  meta.__set_num_values(entries);
  meta.__set_total_uncompressed_size(chunk_size);
  meta.__set_total_compressed_size(chunk_size);
  meta.__set_data_page_offset(chunk_start);
  format::ColumnChunk chunk;
  chunk.__set_file_offset(chunk_start);
  chunk.__set_meta_data(meta);
  format::RowGroup row_group;
  row_group.__set_columns({chunk});
  row_group.__set_total_byte_size(chunk_size);
  row_group.__set_num_rows(num_rows);
  format::FileMetaData metadata;
  metadata.__set_version(1);
  std::vector<format::SchemaElement> schema = {Group("schema", Rep::REQUIRED, 1, false)};
  schema.insert(schema.end(), column_schema.begin(), column_schema.end());
  schema[0].__isset.repetition_type = false;
  metadata.__set_schema(schema);
  metadata.__set_num_rows(num_rows);
  metadata.__set_row_groups({row_group});
  const std::string footer = thrift.ToString(metadata);
  const auto footer_size = static_cast<uint32_t>(footer.size());
  file += footer + std::string(reinterpret_cast<const char*>(&footer_size), 4) + "PAR1";
  return file;
}

// Every row of column 0 as text.
std::vector<std::string> ReadAll(const std::string& path) {
  auto file = ParquetFile::Open(path);
  ParquetReader reader(file, {0});
  Batch batch(reader.output_types());
  std::vector<std::string> rows;
  while (reader.Next(batch)) {
    for (idx_t r = 0; r < batch.size(); r++)
      rows.push_back(batch.column(0).ValueToString(r));
  }
  return rows;
}

std::string Write(const test::TempDir& dir, const std::string& name, const std::string& bytes) {
  const std::string path = dir.path() + "/" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

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

// Nested Parquet columns (STRUCT, MAP, LIST of a nested type): random values of several shapes,
// with NULLs at every level and empty lists, shredded into leaves by the writer and assembled
// again by the reader, whole and with rows skipped; DuckDB's files; levels that do not fit the
// schema.

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <random>

#include "common/error.h"
#include "common/list.h"
#include "parquet_build_util.h"
#include "storage/parquet/nested_schema.h"
#include "storage/parquet/nested_writer.h"
#include "storage/parquet/parquet_reader.h"
#include "storage/parquet/parquet_writer.h"
#include "test_util.h"

namespace shears::parquet {
namespace {

// The bytes of a random non-NULL value of `type`: fields, elements and values NULL one time
// in four, lists and maps of 0 to 3 elements (so empty ones are common).
std::string RandomNested(const LogicalType& type, std::mt19937& rng, int depth = 0) {
  std::string bytes;
  auto append = [&](const LogicalType& child) {
    if (rng() % 4 == 0) {
      bytes.push_back(ListWriter::kNullTag);
    } else if (child.IsNested()) {
      AppendEscapedElement(&bytes, RandomNested(child, rng, depth + 1));
    } else {
      ListWriter writer(child);
      switch (child.id()) {
        case TypeId::kVarchar:
          writer.AppendValue(Value::Varchar(std::string(rng() % 3, static_cast<char>(rng() % 3))));
          break;
        case TypeId::kDouble:
          writer.AppendValue(Value::Double(static_cast<double>(rng() % 100) / 4));
          break;
        default:
          writer.AppendValue(Value::Integer(static_cast<int32_t>(rng() % 1000) - 500));
      }
      bytes += writer.bytes();
    }
  };
  if (type.IsStruct()) {
    for (const auto& field : type.children())
      append(field);
  } else if (type.IsList()) {
    for (uint32_t n = rng() % 4; n > 0; n--)
      append(type.element());
  } else {
    // Distinct keys, never NULL.
    const uint32_t n = rng() % 4;
    for (uint32_t i = 0; i < n; i++) {
      ListWriter key(type.children()[0]);
      key.AppendValue(Value::Integer(static_cast<int32_t>(i * 7 + rng() % 7)));
      std::string entry = key.bytes();
      std::string value_bytes;
      std::swap(bytes, value_bytes);
      append(type.children()[1]);
      std::swap(bytes, value_bytes);
      entry += value_bytes;
      AppendEscapedElement(&bytes, entry);
    }
  }
  return bytes;
}

std::vector<LogicalType> Shapes() {
  const auto i = LogicalType::Integer();
  const auto v = LogicalType::Varchar();
  const auto ab = LogicalType::Struct({{"a", i}, {"b", v}});
  return {
      ab,
      LogicalType::List(LogicalType::List(i)),
      LogicalType::List(ab),
      LogicalType::Map(i, v),
      LogicalType::Struct({{"l", LogicalType::List(i)}, {"s", ab}}),
      LogicalType::Map(i, LogicalType::List(ab)),
      LogicalType::List(LogicalType::Struct(
          {{"x", LogicalType::Double()}, {"m", LogicalType::Map(i, LogicalType::List(v))}})),
      LogicalType::List(LogicalType::List(LogicalType::List(v))),
  };
}

// Writes `rows` random rows (id, one column per shape) with small pages and row groups, reads
// them back, whole and with rows skipped, and compares every value's bytes.
TEST(ParquetNestedTest, RandomValuesRoundTrip) {
  test::TempDir dir;
  const std::string path = dir.path() + "/nested.parquet";
  const auto shapes = Shapes();
  std::vector<std::string> names = {"id"};
  std::vector<LogicalType> types = {LogicalType::Integer()};
  for (size_t s = 0; s < shapes.size(); s++) {
    names.push_back("c" + std::to_string(s));
    types.push_back(shapes[s]);
  }
  constexpr idx_t kRows = 3000;
  std::mt19937 rng(7);
  std::vector<std::vector<std::optional<std::string>>> values(shapes.size());
  {
    WriterOptions options;
    options.row_group_rows = 1100;
    options.page_row_limit = 97;
    options.page_size_bytes = 2000;
    ParquetWriter writer(path, names, types, options);
    for (idx_t start = 0; start < kRows; start += 500) {
      Batch batch(types, 500);
      for (idx_t r = 0; r < 500; r++) {
        batch.column(0).data<int32_t>()[r] = static_cast<int32_t>(start + r);
        for (size_t s = 0; s < shapes.size(); s++) {
          Vector& column = batch.column(s + 1);
          if (rng() % 5 == 0) {
            column.validity().SetNull(r);
            values[s].push_back(std::nullopt);
          } else {
            std::string bytes = RandomNested(shapes[s], rng);
            column.data<StringRef>()[r] = column.AddString(bytes);
            values[s].push_back(std::move(bytes));
          }
        }
      }
      batch.SetSize(500);
      writer.Write(batch);
    }
    writer.Close();
  }
  auto file = ParquetFile::Open(path);
  for (size_t s = 0; s < shapes.size(); s++) {
    EXPECT_EQ(file->columns()[s + 1].type, shapes[s]) << shapes[s].ToString();
  }
  std::vector<int> all(names.size());
  for (size_t c = 0; c < all.size(); c++)
    all[c] = static_cast<int>(c);
  auto expect_row = [&](const Batch& batch, idx_t r) {
    const auto id = static_cast<size_t>(batch.column(0).data<int32_t>()[r]);
    for (size_t s = 0; s < shapes.size(); s++) {
      const Vector& column = batch.column(s + 1);
      const auto& want = values[s][id];
      ASSERT_EQ(column.IsNull(r), !want.has_value()) << "row " << id << " " << names[s + 1];
      if (want) {
        ASSERT_EQ(column.data<StringRef>()[r].view(), *want)
            << "row " << id << " " << names[s + 1] << ": "
            << NestedToString(shapes[s], column.data<StringRef>()[r].view()) << " vs "
            << NestedToString(shapes[s], *want);
      }
    }
  };
  {
    ParquetReader reader(file, all);
    Batch batch(reader.output_types());
    idx_t seen = 0;
    while (reader.Next(batch)) {
      for (idx_t r = 0; r < batch.size(); r++)
        expect_row(batch, r);
      seen += batch.size();
    }
    EXPECT_EQ(seen, kRows);
  }
  {
    // Late materialization: the nested columns read for every third row only (the others
    // skipped within and across pages).
    ParquetReader reader(file, all);
    Batch batch(reader.output_types());
    std::vector<bool> first(all.size(), false);
    first[0] = true;
    idx_t kept_total = 0;
    while (reader.NextFirst(batch, first)) {
      std::vector<uint32_t> sel;
      for (idx_t r = 0; r < batch.size(); r++) {
        if (batch.column(0).data<int32_t>()[r] % 3 == 0) sel.push_back(static_cast<uint32_t>(r));
      }
      reader.FinishSelected(batch, first, sel.data(), sel.size());
      for (idx_t r = 0; r < batch.size(); r++)
        expect_row(batch, r);
      kept_total += batch.size();
    }
    EXPECT_EQ(kept_total, kRows / 3);
  }
}

TEST(ParquetNestedTest, SchemaTreeLevels) {
  // STRUCT(l INTEGER[], s STRUCT(z VARCHAR)): s and its fields optional, the list three-level.
  const auto type =
      LogicalType::Struct({{"l", LogicalType::List(LogicalType::Integer())},
                           {"s", LogicalType::Struct({{"z", LogicalType::Varchar()}})}});
  const NestedColumn column = NestedColumnFor("c", type);
  ASSERT_EQ(column.leaves.size(), 2u);
  EXPECT_EQ(column.leaves[0].max_definition_level, 4);  // c, l, list, element
  EXPECT_EQ(column.leaves[0].max_repetition_level, 1);
  EXPECT_EQ(column.leaves[1].max_definition_level, 3);  // c, s, z
  EXPECT_EQ(column.leaves[1].max_repetition_level, 0);
  EXPECT_EQ(column.leaf_paths[0], (std::vector<std::string>{"c", "l", "list", "element"}));
  EXPECT_EQ(column.leaf_paths[1], (std::vector<std::string>{"c", "s", "z"}));
  // A NULL list inside a present struct: one entry per leaf.
  std::vector<std::string> rows(2);
  std::string bytes;
  bytes.push_back(ListWriter::kNullTag);                               // l NULL
  AppendEscapedElement(&bytes, std::string(1, ListWriter::kNullTag));  // s {z: NULL}
  ShredNestedValue(column, true, bytes, &rows);
  EXPECT_EQ(rows[0], std::string("\x00\x01", 2));
  EXPECT_EQ(rows[1], std::string("\x00\x02", 2));
}

TEST(ParquetNestedTest, ReadsDuckDBsNestedLists) {
  const std::string fixtures = test::SharedFixturesDir();
  if (fixtures.empty()) GTEST_SKIP() << "shared fixtures not present";
  auto file = ParquetFile::Open(fixtures + "/external/data/nested_lists.snappy.parquet");
  ParquetReader reader(file, {0});
  Batch batch(reader.output_types());
  ASSERT_TRUE(reader.Next(batch));
  ASSERT_EQ(batch.size(), 3u);
  // DuckDB 1.5 reads the same values.
  EXPECT_EQ(batch.column(0).ValueToString(0), "[[[a, b], [c]], [NULL, [d]]]");
  EXPECT_EQ(batch.column(0).ValueToString(1), "[[[a, b], [c, d]], [NULL, [e]]]");
  EXPECT_EQ(batch.column(0).ValueToString(2), "[[[a, b], [c, d], [e]], [NULL, [f]]]");
}

using test::BuildFile;
using test::Group;
using test::Int32Leaf;
using test::LeafPages;
using Rep = format::FieldRepetitionType;

// The nested files of tests/data/hostile/parquet (SHEARS_WRITE_HOSTILE=DIR writes them there
// again): levels that do not fit the schema or each other, a truncated page, a MAP group that is
// not one. Each: its bytes, the error kind and a part of its message.
struct HostileNested {
  std::string name;
  std::string bytes;
  ErrorKind kind;
  std::string message;
};

std::vector<HostileNested> HostileNestedFiles() {
  // optional group l (LIST) { repeated group list { optional group element { optional int32 a;
  // optional int32 b } } }: a list of structs, two leaves (max repetition 1, definition 4).
  const std::vector<format::SchemaElement> list_of_struct = {
      Group("l", Rep::OPTIONAL, 1, true), Group("list", Rep::REPEATED, 1, false),
      Group("element", Rep::OPTIONAL, 2, false), Int32Leaf("a", Rep::OPTIONAL),
      Int32Leaf("b", Rep::OPTIONAL)};
  // optional group s { optional int32 a; optional int32 b }.
  const std::vector<format::SchemaElement> two_fields = {Group("s", Rep::OPTIONAL, 2, false),
                                                         Int32Leaf("a", Rep::OPTIONAL),
                                                         Int32Leaf("b", Rep::OPTIONAL)};
  // optional group ll (LIST) { repeated group list { optional group element (LIST) { repeated
  // group list { optional int32 element } } } }: a LIST of LIST (repetition 2, definition 5).
  const std::vector<format::SchemaElement> list_of_list = {
      Group("ll", Rep::OPTIONAL, 1, true), Group("list", Rep::REPEATED, 1, false),
      Group("element", Rep::OPTIONAL, 1, true), Group("list", Rep::REPEATED, 1, false),
      Int32Leaf("element", Rep::OPTIONAL)};
  auto map_one_field = two_fields;
  map_one_field[0] = Group("m", Rep::OPTIONAL, 1, false);
  map_one_field[0].__set_converted_type(format::ConvertedType::MAP);
  map_one_field[1] = Group("key_value", Rep::REPEATED, 1, false);
  map_one_field.pop_back();
  map_one_field.push_back(Int32Leaf("key", Rep::REQUIRED));
  return {
      // Leaf a has two elements in the row, leaf b one.
      {"nested_repetition_disagrees.parquet",
       BuildFile(list_of_struct,
                 {LeafPages{1, 4, {{{0, 4, 1}, {1, 4, 2}}}}, LeafPages{1, 4, {{{0, 4, 3}}}}}, 1),
       ErrorKind::kCorruptFile, "the repetition levels of the leaves of 'l' disagree"},
      // Leaf a says the struct is NULL, leaf b that it holds 5.
      {"nested_definition_disagrees.parquet",
       BuildFile(two_fields, {LeafPages{0, 2, {{{0, 0}}}}, LeafPages{0, 2, {{{0, 2, 5}}}}}, 1),
       ErrorKind::kCorruptFile, "the levels of the leaves of 's' disagree"},
      // A NULL outer list followed by an element of an inner list in the same row.
      {"nested_entries_after_null.parquet",
       BuildFile(list_of_list, {LeafPages{2, 5, {{{0, 0}, {2, 5, 7}}}}}, 1),
       ErrorKind::kCorruptFile, "more level entries in a row than the schema needs"},
      // A repetition level above the leaf's maximum (2).
      {"nested_repetition_too_high.parquet",
       BuildFile(list_of_list, {LeafPages{2, 5, {{{0, 5, 1}, {3, 5, 2}}}}}, 1),
       ErrorKind::kCorruptFile, "repetition level 3 exceeds the maximum 2"},
      // The second leaf's page ends three bytes early.
      {"nested_truncated_page.parquet",
       BuildFile(two_fields,
                 {LeafPages{0, 2, {{{0, 2, 1}, {0, 2, 2}}}},
                  LeafPages{0, 2, {{{0, 2, 3}, {0, 2, 4}}}, 3}},
                 2),
       ErrorKind::kCorruptFile, "runs past the end of the column chunk"},
      // A MAP group whose repeated group has a key but no value.
      {"nested_map_without_value.parquet",
       BuildFile(map_one_field, {LeafPages{1, 2, {{{0, 2, 1}}}}}, 1), ErrorKind::kNotSupported,
       "is not a repeated group of a key and a value"},
  };
}

TEST(ParquetNestedTest, HostileFilesAreClearErrors) {
  test::TempDir dir;
  const char* out = std::getenv("SHEARS_WRITE_HOSTILE");
  for (const auto& hostile : HostileNestedFiles()) {
    SCOPED_TRACE(hostile.name);
    const std::string path = test::Write(dir, hostile.name, hostile.bytes);
    if (out != nullptr) {
      std::ofstream(std::string(out) + "/" + hostile.name, std::ios::binary) << hostile.bytes;
    }
    try {
      test::ReadAll(path);
      ADD_FAILURE() << "no error";
    } catch (const Error& error) {
      EXPECT_EQ(ErrorKindName(error.kind()), std::string(ErrorKindName(hostile.kind)))
          << error.what();
      EXPECT_NE(std::string(error.what()).find(hostile.message), std::string::npos) << error.what();
      EXPECT_NE(std::string(error.what()).find(hostile.name), std::string::npos) << error.what();
    }
    // The files replayed by HostileDataTest.ParquetInputs are these.
    const std::string kept = test::DataDir() + "/hostile/parquet/" + hostile.name;
    EXPECT_EQ(test::ReadFileToString(kept), hostile.bytes) << kept;
  }
}

}  // namespace
}  // namespace shears::parquet

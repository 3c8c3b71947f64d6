// The Parquet writer's LIST columns: the three-level schema, repetition and definition levels
// (NULL list, empty list, NULL element), pages that end with a row, dictionary and PLAIN
// values, and the round trip through shears' reader.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>

#include "common/error.h"
#include "common/list.h"
#include "storage/parquet/encoding.h"
#include "storage/parquet/parquet_file.h"
#include "storage/parquet/parquet_reader.h"
#include "storage/parquet/parquet_writer.h"
#include "test_util.h"

namespace shears::parquet {
namespace {

using Column = std::vector<Value>;

void Write(const std::string& path, const std::vector<std::string>& names,
           const std::vector<LogicalType>& types, const std::vector<Column>& columns,
           WriterOptions options = {}) {
  ParquetWriter writer(path, names, types, options);
  const size_t rows = columns[0].size();
  for (size_t start = 0; start < rows; start += kBatchSize) {
    const size_t count = std::min<size_t>(kBatchSize, rows - start);
    Batch batch(types);
    for (size_t c = 0; c < columns.size(); c++) {
      for (size_t r = 0; r < count; r++)
        WriteValue(batch.column(c), r, columns[c][start + r]);
    }
    batch.SetSize(count);
    writer.Write(batch);
  }
  writer.Close();
}

std::vector<Column> Read(const std::string& path) {
  auto file = ParquetFile::Open(path);
  std::vector<int> projection(file->columns().size());
  std::iota(projection.begin(), projection.end(), 0);
  ParquetReader reader(file, projection);
  Batch batch(reader.output_types());
  std::vector<Column> out(projection.size());
  while (reader.Next(batch)) {
    for (size_t c = 0; c < projection.size(); c++) {
      for (idx_t r = 0; r < batch.size(); r++)
        out[c].push_back(ReadValue(batch.column(c), r));
    }
  }
  return out;
}

void ExpectSame(const Column& expected, const Column& actual) {
  ASSERT_EQ(expected.size(), actual.size());
  for (size_t r = 0; r < expected.size(); r++) {
    ASSERT_EQ(expected[r].is_null(), actual[r].is_null()) << "row " << r;
    if (!expected[r].is_null()) {
      ASSERT_EQ(expected[r].ToString(), actual[r].ToString()) << "row " << r;
    }
  }
}

Value IntList(const std::vector<std::optional<int32_t>>& elements) {
  std::vector<Value> values;
  for (const auto& e : elements)
    values.push_back(e ? Value::Integer(*e) : Value::Null(LogicalType::Integer()));
  return Value::List(LogicalType::Integer(), values);
}

// A value of `type` made from `v`.
Value Element(const LogicalType& type, int64_t v) {
  switch (type.id()) {
    case TypeId::kBoolean:
      return Value::Boolean(v % 2 == 0);
    case TypeId::kInteger:
      return Value::Integer(static_cast<int32_t>(v));
    case TypeId::kBigint:
      return Value::Bigint(v * 1000003);
    case TypeId::kDouble:
      return Value::Double(static_cast<double>(v) / 7);
    case TypeId::kFloat:
      return Value::Float(static_cast<float>(v) / 4);
    case TypeId::kDecimal:
      return Value::Decimal(v, type.precision(), type.scale());
    case TypeId::kDate:
      return Value::Date(static_cast<int32_t>(v));
    case TypeId::kTimestamp:
      return Value::Timestamp(v * 1000000);
    case TypeId::kTime:
      return Value::Time((v + 500) * 1000);
    case TypeId::kVarchar:
      return Value::Varchar("v" + std::to_string(v));
    case TypeId::kBlob:
      return Value::Blob("b" + std::to_string(v));
    default:
      throw InternalError("no test value of {}", type.ToString());
  }
}

// The levels of one data page v1: repetition levels, definition levels (bit widths 1 and 2).
struct PageLevels {
  std::vector<uint32_t> reps, defs;
};

// Decodes the levels of every data page of the file's first column chunk (uncompressed).
std::vector<PageLevels> ReadLevels(const std::string& path) {
  auto file = ParquetFile::Open(path);
  const auto& meta = file->chunk(0, 0).meta_data;
  const std::string bytes = test::ReadFileToString(path);
  std::vector<PageLevels> pages;
  size_t pos = static_cast<size_t>(meta.data_page_offset);
  const size_t end = static_cast<size_t>(meta.data_page_offset + meta.total_compressed_size);
  while (pos < end) {
    format::PageHeader header;
    const auto* start = reinterpret_cast<const uint8_t*>(bytes.data()) + pos;
    const uint32_t header_size = DeserializeThrift(start, end - pos, &header, "page header");
    pos += header_size;
    if (header.type == format::PageType::DATA_PAGE) {
      const auto* body = reinterpret_cast<const uint8_t*>(bytes.data()) + pos;
      const auto n = static_cast<size_t>(header.data_page_header.num_values);
      PageLevels levels;
      size_t at = 0;
      for (auto [out, width] : {std::pair{&levels.reps, 1}, std::pair{&levels.defs, 2}}) {
        uint32_t length;
        std::memcpy(&length, body + at, 4);
        RleBitPackedDecoder decoder(body + at + 4, length, width);
        out->resize(n);
        decoder.GetBatch(out->data(), n);
        at += 4 + length;
      }
      pages.push_back(std::move(levels));
    }
    pos += static_cast<size_t>(header.compressed_page_size);
  }
  return pages;
}

TEST(ParquetListWriterTest, SchemaIsTheStandardThreeLevelForm) {
  test::TempDir dir;
  const std::string path = dir.path() + "/l.parquet";
  Write(path, {"l"}, {LogicalType::List(LogicalType::Varchar())},
        {{Value::List(LogicalType::Varchar(), {Value::Varchar("a")})}});
  auto file = ParquetFile::Open(path);
  const auto& schema = file->metadata().schema;
  ASSERT_EQ(schema.size(), 4u);
  EXPECT_EQ(schema[1].name, "l");
  EXPECT_EQ(schema[1].repetition_type, format::FieldRepetitionType::OPTIONAL);
  EXPECT_TRUE(schema[1].logicalType.__isset.LIST);
  EXPECT_EQ(schema[1].converted_type, format::ConvertedType::LIST);
  EXPECT_EQ(schema[2].name, "list");
  EXPECT_EQ(schema[2].repetition_type, format::FieldRepetitionType::REPEATED);
  EXPECT_EQ(schema[3].name, "element");
  EXPECT_EQ(schema[3].repetition_type, format::FieldRepetitionType::OPTIONAL);
  EXPECT_EQ(schema[3].type, format::Type::BYTE_ARRAY);
  const auto& meta = file->chunk(0, 0).meta_data;
  EXPECT_EQ(meta.path_in_schema, (std::vector<std::string>{"l", "list", "element"}));
  EXPECT_FALSE(meta.__isset.statistics);  // element bounds are no row's bounds
  EXPECT_EQ(file->columns()[0].max_repetition_level, 1);
  EXPECT_EQ(file->columns()[0].max_definition_level, 3);
}

TEST(ParquetListWriterTest, LevelsTellNullEmptyAndNullElementsApart) {
  test::TempDir dir;
  const std::string path = dir.path() + "/l.parquet";
  WriterOptions options;
  options.codec = format::CompressionCodec::UNCOMPRESSED;
  const Column rows = {IntList({1, 2}), Value::Null(LogicalType::List(LogicalType::Integer())),
                       IntList({}), IntList({std::nullopt}), IntList({3, std::nullopt, 4})};
  Write(path, {"l"}, {LogicalType::List(LogicalType::Integer())}, {rows}, options);
  const auto pages = ReadLevels(path);
  ASSERT_EQ(pages.size(), 1u);
  EXPECT_EQ(pages[0].reps, (std::vector<uint32_t>{0, 1, 0, 0, 0, 0, 1, 1}));
  EXPECT_EQ(pages[0].defs, (std::vector<uint32_t>{3, 3, 0, 1, 2, 3, 2, 3}));
  auto file = ParquetFile::Open(path);
  EXPECT_EQ(file->chunk(0, 0).meta_data.num_values, 8);  // level entries, not rows
  EXPECT_EQ(file->metadata().num_rows, 5);
  ExpectSame(rows, Read(path)[0]);
}

// Random lists of every writable element type, over many pages and row groups, dictionary
// and PLAIN: the reader gives back what was written; every page starts a row.
TEST(ParquetListWriterTest, RoundTripsEveryElementTypeOverPagesAndRowGroups) {
  const std::vector<LogicalType> elements = {
      LogicalType::Boolean(),      LogicalType::Integer(),      LogicalType::Bigint(),
      LogicalType::Double(),       LogicalType::Float(),        LogicalType::Decimal(9, 2),
      LogicalType::Decimal(18, 3), LogicalType::Decimal(38, 5), LogicalType::Date(),
      LogicalType::Timestamp(),    LogicalType::Time(),         LogicalType::Varchar(),
      LogicalType::Blob()};
  std::mt19937_64 rng(7);
  std::vector<std::string> names;
  std::vector<LogicalType> types;
  std::vector<Column> columns;
  const size_t rows = 6000;
  for (size_t c = 0; c < elements.size(); c++) {
    const LogicalType& element = elements[c];
    names.push_back("c" + std::to_string(c));
    types.push_back(LogicalType::List(element));
    Column column;
    for (size_t r = 0; r < rows; r++) {
      const auto kind = rng() % 10;
      if (kind == 0) {
        column.push_back(Value::Null(types.back()));
        continue;
      }
      std::vector<Value> list;
      // Mostly short lists, some long ones (a page of their own).
      const size_t n = kind == 1 ? 0 : kind == 2 ? 300 + rng() % 700 : rng() % 6;
      for (size_t i = 0; i < n; i++) {
        // Few distinct values in even columns (dictionary), many in odd ones (PLAIN).
        const int64_t v = static_cast<int64_t>(c % 2 == 0 ? rng() % 50 : rng() % 1000000);
        if (rng() % 8 == 0) {
          list.push_back(Value::Null(element));
        } else {
          list.push_back(Element(element, v - 500));
        }
      }
      column.push_back(Value::List(element, list));
    }
    columns.push_back(std::move(column));
  }
  test::TempDir dir;
  const std::string path = dir.path() + "/l.parquet";
  WriterOptions options;
  options.codec = format::CompressionCodec::UNCOMPRESSED;  // ReadLevels reads the pages
  options.row_group_rows = 2500;
  options.page_row_limit = 700;
  Write(path, names, types, columns, options);
  auto file = ParquetFile::Open(path);
  EXPECT_EQ(file->metadata().row_groups.size(), 3u);
  const auto read = Read(path);
  for (size_t c = 0; c < columns.size(); c++) {
    SCOPED_TRACE(names[c]);
    ExpectSame(columns[c], read[c]);
    // Every chunk has an offset index whose pages start at rows the reader agrees with.
    EXPECT_TRUE(file->chunk(0, static_cast<int>(c)).__isset.offset_index_offset);
    EXPECT_FALSE(file->chunk(0, static_cast<int>(c)).__isset.column_index_offset);
  }
  const auto& encodings = file->chunk(0, 0).meta_data.encodings;
  EXPECT_NE(std::find(encodings.begin(), encodings.end(), format::Encoding::PLAIN),
            encodings.end());                                         // BOOLEAN: PLAIN
  const auto& int_encodings = file->chunk(0, 2).meta_data.encodings;  // BIGINT, 50 values
  EXPECT_NE(std::find(int_encodings.begin(), int_encodings.end(), format::Encoding::RLE_DICTIONARY),
            int_encodings.end());
  const auto pages = ReadLevels(path);
  EXPECT_GT(pages.size(), 3u);
  for (const auto& page : pages)
    EXPECT_EQ(page.reps.at(0), 0u);  // a page starts a row
}

// A dictionary that fills up in the middle of a row goes on PLAIN in the same page.
TEST(ParquetListWriterTest, DictionaryOverflowInsideARow) {
  std::vector<Value> long_list;
  for (int i = 0; i < 5000; i++)
    long_list.push_back(Value::Varchar("value number " + std::to_string(i)));
  const Column rows = {Value::List(LogicalType::Varchar(), {Value::Varchar("x")}),
                       Value::List(LogicalType::Varchar(), long_list),
                       Value::List(LogicalType::Varchar(), {Value::Varchar("y")})};
  test::TempDir dir;
  const std::string path = dir.path() + "/l.parquet";
  WriterOptions options;
  options.dictionary_page_limit_bytes = 1000;
  Write(path, {"l"}, {LogicalType::List(LogicalType::Varchar())}, {rows}, options);
  ExpectSame(rows, Read(path)[0]);
}

TEST(ParquetListWriterTest, ChecksElementsAndRejectsWhatCannotBeWritten) {
  test::TempDir dir;
  const std::string path = dir.path() + "/l.parquet";
  const auto decimals = LogicalType::List(LogicalType::Decimal(4, 0));
  ParquetWriter writer(path, {"l"}, {decimals});
  Batch batch({decimals});
  // Bytes of a DECIMAL(18, 0) list hold 123456 where DECIMAL(4, 0) cannot.
  WriteValue(batch.column(0), 0,
             Value::ListFromBytes(decimals, EncodeList(LogicalType::Decimal(18, 0),
                                                       {Value::Decimal(123456, 18, 0)})));
  batch.SetSize(1);
  EXPECT_THROW(writer.Write(batch), InvalidInputError);

  EXPECT_THROW(
      ParquetWriter(dir.path() + "/i.parquet", {"l"}, {LogicalType::List(LogicalType::Interval())}),
      NotSupportedError);
  WriterOptions bloom;
  bloom.bloom_filter_columns = {"l"};
  EXPECT_THROW(ParquetWriter(dir.path() + "/b.parquet", {"l"},
                             {LogicalType::List(LogicalType::Integer())}, bloom),
               InvalidInputError);
}

}  // namespace
}  // namespace shears::parquet

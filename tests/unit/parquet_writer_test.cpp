// The Parquet writer, checked by reading its files back with our own reader: values of every
// type (NULLs, extremes, NaN/-0.0, empty strings), every codec, row groups and pages,
// dictionary fallback, statistics, page indexes and bloom filters. Also the RLE / boolean
// encoders against the reader's decoders.

#include "storage/parquet/parquet_writer.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>
#include <numeric>
#include <random>
#include <unordered_set>

#include "common/decimal.h"
#include "common/error.h"
#include "storage/parquet/bloom_filter.h"
#include "storage/parquet/compression.h"
#include "storage/parquet/encoder.h"
#include "storage/parquet/encoding.h"
#include "storage/parquet/parquet_reader.h"
#include "storage/parquet/value_conversion.h"

namespace shears::parquet {
namespace {

namespace fs = std::filesystem;
using Column = std::vector<Value>;

class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    std::random_device rd;
    path_ = fs::temp_directory_path() / ("shears_writer_test_" + std::to_string(::getpid()) + "_" +
                                         std::to_string(counter++) + "_" + std::to_string(rd()));
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  std::string File(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

std::vector<LogicalType> TypesOf(const std::vector<Column>& columns) {
  std::vector<LogicalType> types;
  for (const auto& column : columns)
    types.push_back(column.at(0).type());
  return types;
}

// Writes the columns in batches of `batch_rows` rows.
void WriteColumns(ParquetWriter& writer, const std::vector<LogicalType>& types,
                  const std::vector<Column>& columns, size_t batch_rows = kBatchSize) {
  const size_t rows = columns.empty() ? 0 : columns[0].size();
  for (size_t start = 0; start < rows; start += batch_rows) {
    const size_t count = std::min(batch_rows, rows - start);
    Batch batch(types);
    for (size_t c = 0; c < columns.size(); c++) {
      for (size_t r = 0; r < count; r++)
        WriteValue(batch.column(c), r, columns[c][start + r]);
    }
    batch.SetSize(count);
    writer.Write(batch);
  }
}

WrittenFile WriteFile(const std::string& path, const std::vector<std::string>& names,
                      const std::vector<LogicalType>& types, const std::vector<Column>& columns,
                      WriterOptions options = {}, size_t batch_rows = kBatchSize) {
  ParquetWriter writer(path, names, types, options);
  WriteColumns(writer, types, columns, batch_rows);
  return writer.Close();
}

std::vector<Column> ReadColumns(const std::string& path) {
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

// Exact equality: doubles by bits (NaN matches NaN, -0.0 does not match 0.0).
bool Same(const Value& a, const Value& b) {
  if (!(a.type() == b.type()) || a.is_null() != b.is_null()) return false;
  if (a.is_null()) return true;
  if (a.type().id() == TypeId::kDouble) {
    double x = a.GetDouble(), y = b.GetDouble();
    if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
    return std::memcmp(&x, &y, sizeof(double)) == 0;
  }
  return a == b;
}

void ExpectSameColumns(const std::vector<Column>& expected, const std::vector<Column>& actual,
                       const std::vector<std::string>& names) {
  ASSERT_EQ(expected.size(), actual.size());
  for (size_t c = 0; c < expected.size(); c++) {
    ASSERT_EQ(expected[c].size(), actual[c].size()) << names[c];
    for (size_t r = 0; r < expected[c].size(); r++) {
      ASSERT_TRUE(Same(expected[c][r], actual[c][r]))
          << names[c] << " row " << r << ": wrote " << expected[c][r].ToString() << ", read "
          << actual[c][r].ToString();
    }
  }
}

// Min/max of rows [begin, end) as the writer bounds them: NULLs skipped, none when a NaN is
// among them (bounds leaving it out would let `x > c` skip it).
std::pair<std::optional<Value>, std::optional<Value>> MinMax(const Column& column, size_t begin,
                                                             size_t end) {
  std::optional<Value> min, max;
  for (size_t r = begin; r < end; r++) {
    const Value& v = column[r];
    if (v.is_null()) continue;
    if (v.type().id() == TypeId::kDouble && std::isnan(v.GetDouble())) return {};
    if (!min || v.Compare(*min) < 0) min = v;
    if (!max || v.Compare(*max) > 0) max = v;
  }
  return {min, max};
}

int64_t NullCount(const Column& column, size_t begin, size_t end) {
  int64_t n = 0;
  for (size_t r = begin; r < end; r++)
    n += column[r].is_null();
  return n;
}

// ---- data -----------------------------------------------------------------------------------

const std::vector<std::string> kAllNames = {"b",   "i",  "big", "dbl", "dec9", "dec18",
                                            "d38", "dt", "ts",  "s",   "blob"};

// `rows` rows of every type: extremes first, then random values, ~10% NULL everywhere.
std::vector<Column> AllTypesData(size_t rows, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Column> cols(kAllNames.size());
  const auto dec9 = LogicalType::Decimal(9, 2);
  const auto dec18 = LogicalType::Decimal(18, 3);
  const auto dec38 = LogicalType::Decimal(38, 10);
  const int32_t min_date = DaysFromCivil(1, 1, 1), max_date = DaysFromCivil(9999, 12, 31);
  const int64_t min_ts = int64_t{min_date} * 86400000000LL;
  const int64_t max_ts = (int64_t{max_date} + 1) * 86400000000LL - 1;
  const double inf = std::numeric_limits<double>::infinity();
  const double extremes_d[] = {std::nan(""),
                               inf,
                               -inf,
                               -0.0,
                               0.0,
                               std::numeric_limits<double>::denorm_min(),
                               std::numeric_limits<double>::max(),
                               std::numeric_limits<double>::lowest()};
  const std::string extremes_s[] = {
      "", "a", "\xC3\xA9t\xC3\xA9", "\xF0\x9F\x98\x80", "z", std::string(300, 'x')};
  const std::string extremes_b[] = {std::string(), std::string("\0\0", 2), "\xFF\xFF\xFF",
                                    std::string("\x80\x00\x7F", 3)};
  for (size_t r = 0; r < rows; r++) {
    const bool null = r > 16 && rng() % 10 == 0;
    auto add = [&](size_t c, Value v, const LogicalType& type) {
      cols[c].push_back(null ? Value::Null(type) : std::move(v));
    };
    const size_t e = r;  // extremes take the first rows, one per row
    add(0, Value::Boolean(e < 2 ? e == 1 : rng() % 2), LogicalType::Boolean());
    add(1,
        Value::Integer(e == 0   ? INT32_MIN
                       : e == 1 ? INT32_MAX
                                : static_cast<int32_t>(rng())),
        LogicalType::Integer());
    add(2,
        Value::Bigint(e == 0   ? INT64_MIN
                      : e == 1 ? INT64_MAX
                               : static_cast<int64_t>(rng())),
        LogicalType::Bigint());
    double d = e < 8 ? extremes_d[e] : static_cast<double>(static_cast<int64_t>(rng())) / 1e6;
    add(3, Value::Double(d), LogicalType::Double());
    const int128_t max9 = Pow10(9) - 1, max18 = Pow10(18) - 1, max38 = Pow10(38) - 1;
    add(4,
        Value::Decimal(e == 0   ? -max9
                       : e == 1 ? max9
                                : static_cast<int64_t>(rng() % (2 * max9 + 1)) - max9,
                       9, 2),
        dec9);
    add(5,
        Value::Decimal(e == 0   ? -max18
                       : e == 1 ? max18
                                : static_cast<int64_t>(rng() % (2 * max18 + 1)) - max18,
                       18, 3),
        dec18);
    int128_t wide = (static_cast<int128_t>(rng() >> 2) << 62 | static_cast<int128_t>(rng() >> 2)) *
                    (rng() % 2 ? 1 : -1);
    add(6, Value::Decimal(e == 0 ? -max38 : e == 1 ? max38 : e == 2 ? 0 : wide, 38, 10), dec38);
    add(7,
        Value::Date(e == 0   ? min_date
                    : e == 1 ? max_date
                             : static_cast<int32_t>(rng() % 40000) - 10000),
        LogicalType::Date());
    add(8,
        Value::Timestamp(e == 0   ? min_ts
                         : e == 1 ? max_ts
                                  : static_cast<int64_t>(rng() % (int64_t{1} << 52))),
        LogicalType::Timestamp());
    std::string s =
        e < 6 ? extremes_s[e] : "v" + std::to_string(rng() % 500) + std::string(rng() % 20, 'q');
    add(9, Value::Varchar(s), LogicalType::Varchar());
    std::string blob = e < 4 ? extremes_b[e] : std::string(1 + rng() % 6, static_cast<char>(rng()));
    add(10, Value::Blob(blob), LogicalType::Blob());
  }
  return cols;
}

// ---- encoders -------------------------------------------------------------------------------

TEST(ParquetWriterEncoderTest, RleBitPackedRoundTrips) {
  std::mt19937_64 rng(1);
  for (int width : {0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 24, 31, 32}) {
    for (int pattern = 0; pattern < 4; pattern++) {
      const size_t n = 1 + rng() % 3000;
      const uint64_t mask = width == 32 ? 0xFFFFFFFFull : (uint64_t{1} << width) - 1;
      std::vector<uint32_t> values(n);
      for (size_t i = 0; i < n; i++) {
        switch (pattern) {
          case 0:  // random
            values[i] = static_cast<uint32_t>(rng() & mask);
            break;
          case 1:  // long runs
            values[i] = static_cast<uint32_t>((i / 100) & mask);
            break;
          case 2:  // short runs mixing with literals
            values[i] = static_cast<uint32_t>((rng() % 4 == 0 ? rng() : i / 9) & mask);
            break;
          default:  // constant
            values[i] = static_cast<uint32_t>(mask);
        }
      }
      std::string encoded;
      EncodeRleBitPacked(values.data(), n, width, &encoded);
      RleBitPackedDecoder decoder(reinterpret_cast<const uint8_t*>(encoded.data()), encoded.size(),
                                  width, n);
      std::vector<uint32_t> decoded(n + 8);
      ASSERT_EQ(decoder.GetBatch(decoded.data(), n), n) << "width " << width;
      decoded.resize(n);
      ASSERT_EQ(decoded, values) << "width " << width << " pattern " << pattern;
      if (pattern == 3) {
        EXPECT_LE(encoded.size(), 6u);  // one RLE run
      }
    }
  }
}

TEST(ParquetWriterEncoderTest, PlainBooleanRoundTrips) {
  std::mt19937_64 rng(2);
  for (size_t n : {0, 1, 7, 8, 9, 1000}) {
    std::vector<uint8_t> values(n);
    for (auto& v : values)
      v = rng() % 2;
    std::string encoded;
    EncodePlainBoolean(values.data(), n, &encoded);
    EXPECT_EQ(encoded.size(), (n + 7) / 8);
    std::vector<uint8_t> decoded(n);
    DecodePlainBoolean(reinterpret_cast<const uint8_t*>(encoded.data()), encoded.size(), 0, n,
                       decoded.data());
    EXPECT_EQ(decoded, values);
  }
}

// ---- round trips ----------------------------------------------------------------------------

class ParquetWriterCodecTest : public ::testing::TestWithParam<format::CompressionCodec::type> {};

TEST_P(ParquetWriterCodecTest, AllTypesRoundTrip) {
  TempDir dir;
  const std::string path = dir.File("all.parquet");
  auto data = AllTypesData(5000, 42);
  WriterOptions options;
  options.codec = GetParam();
  options.row_group_rows = 2000;
  options.page_row_limit = 700;
  auto written = WriteFile(path, kAllNames, TypesOf(data), data, options);
  EXPECT_EQ(written.rows, 5000);
  EXPECT_EQ(written.row_groups, 3);
  EXPECT_EQ(written.size, fs::file_size(path));
  ExpectSameColumns(data, ReadColumns(path), kAllNames);

  auto file = ParquetFile::Open(path);
  for (size_t c = 0; c < kAllNames.size(); c++) {
    EXPECT_EQ(file->columns()[c].name, kAllNames[c]);
    EXPECT_EQ(file->columns()[c].type, data[c][0].type()) << kAllNames[c];
    EXPECT_EQ(file->chunk(0, static_cast<int>(c)).meta_data.codec, GetParam());
  }
}

INSTANTIATE_TEST_SUITE_P(
    Codecs, ParquetWriterCodecTest,
    ::testing::Values(format::CompressionCodec::UNCOMPRESSED, format::CompressionCodec::SNAPPY,
                      format::CompressionCodec::GZIP, format::CompressionCodec::ZSTD,
                      format::CompressionCodec::LZ4_RAW, format::CompressionCodec::BROTLI),
    [](const auto& info) { return std::string(CodecName(info.param)); });

TEST(ParquetWriterTest, SchemaAnnotations) {
  TempDir dir;
  const std::string path = dir.File("schema.parquet");
  auto data = AllTypesData(20, 1);
  WriterOptions options;
  options.key_value_metadata = {{"origin", "test"}, {"k2", ""}};
  WriteFile(path, kAllNames, TypesOf(data), data, options);
  auto file = ParquetFile::Open(path);
  const std::vector<std::string> expected = {"BOOLEAN",
                                             "INT32 (INT32)",
                                             "INT64",
                                             "DOUBLE",
                                             "INT32 (DECIMAL(9,2))",
                                             "INT64 (DECIMAL(18,3))",
                                             "FIXED_LEN_BYTE_ARRAY(16) (DECIMAL(38,10))",
                                             "INT32 (DATE)",
                                             "INT64 (TIMESTAMP(MICROS))",
                                             "BYTE_ARRAY (STRING)",
                                             "BYTE_ARRAY"};
  for (size_t c = 0; c < expected.size(); c++) {
    EXPECT_EQ(file->columns()[c].parquet_type_name, expected[c]);
  }
  const auto& meta = file->metadata();
  EXPECT_EQ(meta.created_by, "shears version 0.1.0");
  ASSERT_EQ(meta.column_orders.size(), kAllNames.size());
  for (const auto& order : meta.column_orders)
    EXPECT_TRUE(order.__isset.TYPE_ORDER);
  // Both the logical and the converted annotation, where both exist.
  const auto& schema = meta.schema;
  ASSERT_EQ(schema.size(), kAllNames.size() + 1);
  for (size_t c = 1; c < schema.size(); c++) {
    EXPECT_EQ(schema[c].repetition_type, format::FieldRepetitionType::OPTIONAL);
  }
  EXPECT_EQ(schema[5].converted_type, format::ConvertedType::DECIMAL);
  EXPECT_EQ(schema[5].precision, 9);
  EXPECT_EQ(schema[5].scale, 2);
  EXPECT_EQ(schema[7].type_length, 16);
  EXPECT_EQ(schema[8].converted_type, format::ConvertedType::DATE);
  EXPECT_TRUE(schema[8].logicalType.__isset.DATE);
  EXPECT_EQ(schema[9].converted_type, format::ConvertedType::TIMESTAMP_MICROS);
  EXPECT_FALSE(schema[9].logicalType.TIMESTAMP.isAdjustedToUTC);
  EXPECT_TRUE(schema[9].logicalType.TIMESTAMP.unit.__isset.MICROS);
  EXPECT_EQ(schema[10].converted_type, format::ConvertedType::UTF8);
  EXPECT_TRUE(schema[10].logicalType.__isset.STRING);
  EXPECT_FALSE(schema[11].__isset.converted_type);
  EXPECT_FALSE(schema[11].__isset.logicalType);
  ASSERT_EQ(meta.key_value_metadata.size(), 3u);
  EXPECT_EQ(meta.key_value_metadata[0].key, "origin");
  EXPECT_EQ(meta.key_value_metadata[0].value, "test");
  // The writer's own entry: its FLOAT/DOUBLE bounds leave no NaN out.
  EXPECT_EQ(meta.key_value_metadata[2].key, kCompleteFloatBoundsKey);
  EXPECT_EQ(meta.key_value_metadata[2].value, "true");
  EXPECT_TRUE(ParquetFile::Open(path)->footer()->complete_float_bounds);
}

TEST(ParquetWriterTest, ZeroRows) {
  TempDir dir;
  const std::string path = dir.File("empty.parquet");
  const std::vector<LogicalType> types = {LogicalType::Integer(), LogicalType::Varchar()};
  ParquetWriter writer(path, {"a", "b"}, types);
  Batch empty(types);
  writer.Write(empty);
  auto written = writer.Close();
  EXPECT_EQ(written.rows, 0);
  EXPECT_EQ(written.row_groups, 0);
  ASSERT_EQ(written.columns.size(), 2u);
  EXPECT_FALSE(written.columns[0].min);
  auto file = ParquetFile::Open(path);
  EXPECT_EQ(file->num_rows(), 0);
  EXPECT_EQ(file->num_row_groups(), 0);
  ASSERT_EQ(file->columns().size(), 2u);
  EXPECT_EQ(file->columns()[1].type, LogicalType::Varchar());
  auto read = ReadColumns(path);
  EXPECT_TRUE(read[0].empty());
}

TEST(ParquetWriterTest, AllNullColumns) {
  TempDir dir;
  const std::string path = dir.File("nulls.parquet");
  const std::vector<LogicalType> types = {LogicalType::Varchar(), LogicalType::Bigint(),
                                          LogicalType::Boolean(), LogicalType::Decimal(30, 2)};
  std::vector<Column> data(types.size());
  for (size_t c = 0; c < types.size(); c++)
    data[c].assign(3000, Value::Null(types[c]));
  WriterOptions options;
  options.page_row_limit = 1000;
  options.bloom_filter_columns = {"s"};
  auto written = WriteFile(path, {"s", "n", "b", "d"}, types, data, options);
  ExpectSameColumns(data, ReadColumns(path), {"s", "n", "b", "d"});
  auto file = ParquetFile::Open(path);
  for (int c = 0; c < 4; c++) {
    auto stats = file->GetStatistics(0, c);
    EXPECT_EQ(stats.null_count, 3000);
    EXPECT_FALSE(stats.min);
    EXPECT_FALSE(file->chunk(0, c).meta_data.__isset.dictionary_page_offset);
    auto index = file->ReadColumnIndex(0, c);
    ASSERT_TRUE(index);
    EXPECT_EQ(index->null_pages, std::vector<bool>(3, true));
    EXPECT_EQ(index->null_counts, std::vector<int64_t>(3, 1000));
    EXPECT_EQ(written.columns[static_cast<size_t>(c)].null_count, 3000);
    EXPECT_FALSE(written.columns[static_cast<size_t>(c)].min);
  }
  auto bloom = file->ReadBloomFilter(0, 0);
  ASSERT_TRUE(bloom);
  EXPECT_FALSE(bloom->MightContainHash(SplitBlockBloomFilter::HashBytes("x", 1)));
}

// NULLs read back where they were written, whatever their pattern: the reader makes a bit per
// row from the definition levels eight at a time and moves values by 64-row words (all
// present, all NULL, mixed), so every pattern of nulls, at every residue mod 64, in pages of 61
// rows (page starts at every residue inside a batch) and of 1000, plain and dictionary encoded,
// for values of 1, 4, 8 and 16 bytes.
TEST(ParquetWriterTest, NullPatternsRoundTrip) {
  constexpr int64_t kRows = 5000;
  std::vector<std::function<bool(int64_t)>> patterns;
  for (int64_t residue = 0; residue < 64; residue++)
    patterns.push_back([residue](int64_t r) { return r % 64 == residue; });
  for (int64_t residue = 0; residue < 64; residue += 9)
    patterns.push_back([residue](int64_t r) { return r % 64 != residue; });
  for (int64_t k : {2, 3, 7, 63, 65, 127, 129})
    patterns.push_back([k](int64_t r) { return r % k == k / 3; });
  for (int64_t run : {1, 8, 63, 64, 65, 500})
    patterns.push_back([run](int64_t r) { return (r / run) % 2 == 1; });
  for (int percent : {10, 50, 90}) {
    patterns.push_back([percent](int64_t r) {
      return static_cast<int>((static_cast<uint64_t>(r) * 2654435761u >> 7) % 100) < percent;
    });
  }
  patterns.push_back([](int64_t) { return true; });
  patterns.push_back([](int64_t r) { return r != kRows - 1; });
  patterns.push_back([](int64_t r) { return r == 0 || r == kRows - 1; });
  const std::vector<LogicalType> value_types = {LogicalType::Boolean(), LogicalType::Integer(),
                                                LogicalType::Bigint(), LogicalType::Varchar(),
                                                LogicalType::Decimal(30, 2)};
  auto value = [](const LogicalType& type, int64_t v) {
    switch (type.id()) {
      case TypeId::kBoolean:
        return Value::Boolean(v % 3 == 0);
      case TypeId::kInteger:
        return Value::Integer(static_cast<int32_t>(v));
      case TypeId::kBigint:
        return Value::Bigint(v * 1000003);
      case TypeId::kVarchar:
        return Value::Varchar("text " + std::to_string(v));
      default:
        return Value::Decimal(static_cast<int128_t>(v) * 100000000000LL, 30, 2);
    }
  };
  std::vector<std::string> names;
  std::vector<LogicalType> types;
  std::vector<Column> data;
  for (size_t p = 0; p < patterns.size(); p++) {
    for (size_t t = 0; t < value_types.size(); t++) {
      // Alternately few distinct values (dictionary pages) and all distinct (PLAIN).
      const bool dictionary = (p + t) % 2 == 0;
      names.push_back("c" + std::to_string(p) + "_" + std::to_string(t));
      types.push_back(value_types[t]);
      Column column;
      for (int64_t r = 0; r < kRows; r++) {
        column.push_back(patterns[p](r) ? Value::Null(value_types[t])
                                        : value(value_types[t], dictionary ? r % 10 : r));
      }
      data.push_back(std::move(column));
    }
  }
  for (int64_t page_rows : {61, 1000}) {
    TempDir dir;
    const std::string path = dir.File("nulls.parquet");
    WriterOptions options;
    options.page_row_limit = page_rows;
    WriteFile(path, names, types, data, options);
    ExpectSameColumns(data, ReadColumns(path), names);
  }
}

TEST(ParquetWriterTest, RowGroupsSplitBatchesAndPages) {
  TempDir dir;
  const std::string path = dir.File("groups.parquet");
  Column ids, names;
  for (int64_t i = 0; i < 10007; i++) {
    ids.push_back(Value::Bigint(i));
    names.push_back(i % 13 == 0 ? Value::Null(LogicalType::Varchar())
                                : Value::Varchar("name" + std::to_string(i % 50)));
  }
  WriterOptions options;
  options.row_group_rows = 3000;
  options.page_row_limit = 512;
  auto written = WriteFile(path, {"id", "name"}, {LogicalType::Bigint(), LogicalType::Varchar()},
                           {ids, names}, options, 1000);
  EXPECT_EQ(written.row_groups, 4);
  ExpectSameColumns({ids, names}, ReadColumns(path), {"id", "name"});
  auto file = ParquetFile::Open(path);
  ASSERT_EQ(file->num_row_groups(), 4);
  const int64_t group_rows[] = {3000, 3000, 3000, 1007};
  for (int rg = 0; rg < 4; rg++) {
    EXPECT_EQ(file->row_group_num_rows(rg), group_rows[rg]);
    for (int c = 0; c < 2; c++) {
      auto offsets = file->ReadOffsetIndex(rg, c);
      ASSERT_TRUE(offsets);
      const size_t pages = static_cast<size_t>((group_rows[rg] + 511) / 512);
      ASSERT_EQ(offsets->page_locations.size(), pages);
      const auto& meta = file->chunk(rg, c).meta_data;
      int64_t expected_offset = meta.data_page_offset;
      for (size_t p = 0; p < pages; p++) {
        const auto& location = offsets->page_locations[p];
        EXPECT_EQ(location.first_row_index, static_cast<int64_t>(p * 512));
        EXPECT_EQ(location.offset, expected_offset);  // pages are contiguous
        expected_offset += location.compressed_page_size;
      }
      const int64_t chunk_start =
          meta.__isset.dictionary_page_offset ? meta.dictionary_page_offset : meta.data_page_offset;
      EXPECT_EQ(expected_offset, chunk_start + meta.total_compressed_size);
      EXPECT_EQ(meta.num_values, group_rows[rg]);
    }
  }
  // Small pages by size: 64 bytes of BIGINT is 8 values per page.
  const std::string small = dir.File("small_pages.parquet");
  options.page_size_bytes = 64;
  options.page_row_limit = 20000;
  options.dictionary = false;
  WriteFile(small, {"id", "name"}, {LogicalType::Bigint(), LogicalType::Varchar()}, {ids, names},
            options);
  ExpectSameColumns({ids, names}, ReadColumns(small), {"id", "name"});
  auto small_file = ParquetFile::Open(small);
  EXPECT_EQ(small_file->ReadOffsetIndex(0, 0)->page_locations.size(), 3000u / 8);
}

TEST(ParquetWriterTest, DictionaryChoiceAndFallbackMidColumn) {
  TempDir dir;
  const std::string path = dir.File("dict.parquet");
  Column s, low, unique;
  for (int i = 0; i < 6000; i++) {
    // Low cardinality first, then unique strings that overflow a 2 KB dictionary.
    s.push_back(Value::Varchar(i < 3000 ? "low" + std::to_string(i % 10)
                                        : "high-" + std::to_string(i * 7919)));
    low.push_back(Value::Integer(i % 7));
    unique.push_back(Value::Bigint(int64_t{i} * 1000003));
  }
  WriterOptions options;
  options.row_group_rows = 100000;
  options.page_row_limit = 500;
  options.dictionary_page_limit_bytes = 2000;
  options.bloom_filter_columns = {"s"};
  const std::vector<LogicalType> types = {LogicalType::Varchar(), LogicalType::Integer(),
                                          LogicalType::Bigint()};
  WriteFile(path, {"s", "low", "unique"}, types, {s, low, unique}, options);
  ExpectSameColumns({s, low, unique}, ReadColumns(path), {"s", "low", "unique"});

  auto file = ParquetFile::Open(path);
  auto has = [](const format::ColumnMetaData& meta, format::Encoding::type e) {
    return std::find(meta.encodings.begin(), meta.encodings.end(), e) != meta.encodings.end();
  };
  auto pages_with = [](const format::ColumnMetaData& meta, format::Encoding::type e) {
    for (const auto& stats : meta.encoding_stats) {
      if (stats.page_type == format::PageType::DATA_PAGE && stats.encoding == e) return stats.count;
    }
    return 0;
  };
  const auto& s_meta = file->chunk(0, 0).meta_data;
  EXPECT_TRUE(s_meta.__isset.dictionary_page_offset);
  EXPECT_TRUE(has(s_meta, format::Encoding::RLE_DICTIONARY));
  EXPECT_TRUE(has(s_meta, format::Encoding::PLAIN));
  EXPECT_GE(pages_with(s_meta, format::Encoding::RLE_DICTIONARY), 6);
  EXPECT_GE(pages_with(s_meta, format::Encoding::PLAIN), 5);
  EXPECT_EQ(pages_with(s_meta, format::Encoding::RLE_DICTIONARY) +
                pages_with(s_meta, format::Encoding::PLAIN),
            static_cast<int>(file->ReadOffsetIndex(0, 0)->page_locations.size()));
  // Every value, dictionary- or PLAIN-encoded, is in the bloom filter.
  auto bloom = file->ReadBloomFilter(0, 0);
  ASSERT_TRUE(bloom);
  for (const auto& v : s) {
    const auto& text = v.GetString();
    EXPECT_TRUE(
        bloom->MightContainHash(SplitBlockBloomFilter::HashBytes(text.data(), text.size())));
  }

  const auto& low_meta = file->chunk(0, 1).meta_data;
  EXPECT_TRUE(low_meta.__isset.dictionary_page_offset);
  EXPECT_FALSE(has(low_meta, format::Encoding::PLAIN) &&
               pages_with(low_meta, format::Encoding::PLAIN) > 0);
  // Unique values: the first page shows a dictionary does not pay, the chunk is PLAIN.
  const auto& unique_meta = file->chunk(0, 2).meta_data;
  EXPECT_FALSE(unique_meta.__isset.dictionary_page_offset);
  EXPECT_FALSE(has(unique_meta, format::Encoding::RLE_DICTIONARY));

  // dictionary = false: no dictionary anywhere.
  const std::string plain = dir.File("plain.parquet");
  options.dictionary = false;
  WriteFile(plain, {"s", "low", "unique"}, types, {s, low, unique}, options);
  ExpectSameColumns({s, low, unique}, ReadColumns(plain), {"s", "low", "unique"});
  auto plain_file = ParquetFile::Open(plain);
  for (int c = 0; c < 3; c++) {
    EXPECT_FALSE(plain_file->chunk(0, c).meta_data.__isset.dictionary_page_offset);
  }
}

TEST(ParquetWriterTest, DictionaryOverflowInsideTheFirstPage) {
  TempDir dir;
  // "unique": the dictionary fills up inside the first page, which then shows the dictionary
  // does not pay: the whole chunk is PLAIN. "repeats": the same cut, but values repeat a lot
  // before it, so the first page stays dictionary-encoded and the rest is PLAIN.
  Column unique, repeats;
  for (int i = 0; i < 3000; i++) {
    unique.push_back(Value::Varchar("unique-value-" + std::to_string(i)));
    repeats.push_back(Value::Varchar(i < 1500 ? "r" + std::to_string(i % 3)
                                              : "unique-value-" + std::to_string(i)));
  }
  WriterOptions options;
  options.dictionary_page_limit_bytes = 1000;
  const std::string path = dir.File("overflow.parquet");
  WriteFile(path, {"unique", "repeats"}, {LogicalType::Varchar(), LogicalType::Varchar()},
            {unique, repeats}, options);
  ExpectSameColumns({unique, repeats}, ReadColumns(path), {"unique", "repeats"});
  auto file = ParquetFile::Open(path);
  EXPECT_FALSE(file->chunk(0, 0).meta_data.__isset.dictionary_page_offset);
  const auto& meta = file->chunk(0, 1).meta_data;
  EXPECT_TRUE(meta.__isset.dictionary_page_offset);
  ASSERT_EQ(meta.encoding_stats.size(), 3u);  // dictionary page, one RLE_DICTIONARY, one PLAIN
  EXPECT_EQ(file->ReadOffsetIndex(0, 1)->page_locations.size(), 2u);
}

TEST(ParquetWriterTest, DictionaryOfEveryType) {
  // Few distinct values of every type, so every column is dictionary-encoded.
  TempDir dir;
  const std::string path = dir.File("dict_types.parquet");
  auto base = AllTypesData(40, 3);
  std::vector<Column> data(base.size());
  std::mt19937_64 rng(4);
  for (int r = 0; r < 4000; r++) {
    const size_t from = rng() % base[0].size();
    for (size_t c = 0; c < base.size(); c++)
      data[c].push_back(base[c][from]);
  }
  WriterOptions options;
  options.page_row_limit = 1000;
  WriteFile(path, kAllNames, TypesOf(data), data, options);
  ExpectSameColumns(data, ReadColumns(path), kAllNames);
  auto file = ParquetFile::Open(path);
  for (size_t c = 1; c < kAllNames.size(); c++) {
    EXPECT_TRUE(file->chunk(0, static_cast<int>(c)).meta_data.__isset.dictionary_page_offset)
        << kAllNames[c];
  }
}

TEST(ParquetWriterTest, DictionaryRunsGrowthAndSignedZeros) {
  // Runs of repeats (the previous-value shortcut), 1,500 or 5,000 distinct keys (the slot table
  // grows several times), -0.0 beside 0.0 and NaN (distinct keys by their bits), over two row
  // groups (each chunk starts a new dictionary).
  TempDir dir;
  const std::string path = dir.File("dict_runs.parquet");
  Column runs, many, zeros, text;
  const double special[] = {0.0, -0.0, std::nan(""), 1.5};
  for (int i = 0; i < 30000; i++) {
    runs.push_back(Value::Bigint(int64_t{i / 7} * 1000003));
    many.push_back(Value::Integer((i * 7919) % 1500));
    zeros.push_back(Value::Double(special[(i / 3) % 4]));
    text.push_back(i % 11 == 0 ? Value::Null(LogicalType::Varchar())
                               : Value::Varchar("k" + std::to_string((i / 2) % 5000)));
  }
  WriterOptions options;
  options.row_group_rows = 16000;
  options.page_row_limit = 4000;
  const std::vector<std::string> names = {"runs", "many", "zeros", "text"};
  WriteFile(path, names, TypesOf({runs, many, zeros, text}), {runs, many, zeros, text}, options);
  const auto read = ReadColumns(path);
  ExpectSameColumns({runs, many, text}, {read[0], read[1], read[3]}, {"runs", "many", "text"});
  ASSERT_EQ(read[2].size(), zeros.size());
  for (size_t i = 0; i < zeros.size(); i++) {
    const double want = zeros[i].GetDouble(), got = read[2][i].GetDouble();
    ASSERT_EQ(std::isnan(want), std::isnan(got)) << i;
    if (!std::isnan(want)) {
      ASSERT_EQ(want, got) << i;
      ASSERT_EQ(std::signbit(want), std::signbit(got)) << i;
    }
  }
  auto file = ParquetFile::Open(path);
  ASSERT_EQ(file->num_row_groups(), 2);
  for (int rg = 0; rg < 2; rg++) {
    for (int c = 0; c < 4; c++) {
      EXPECT_TRUE(file->chunk(rg, c).meta_data.__isset.dictionary_page_offset) << rg << " " << c;
    }
  }
}

TEST(ParquetWriterTest, PageChecksums) {
  TempDir dir;
  const std::string path = dir.File("crc.parquet");
  auto data = AllTypesData(3000, 5);
  WriterOptions options;
  options.page_checksums = true;
  options.page_row_limit = 1000;
  WriteFile(path, kAllNames, TypesOf(data), data, options);
  ExpectSameColumns(data, ReadColumns(path), kAllNames);
  // Flip one byte in the first data page body: the reader must notice.
  auto file = ParquetFile::Open(path);
  const auto offset = file->ReadOffsetIndex(0, 2)->page_locations[0];
  file.reset();
  {
    std::FILE* f = std::fopen(path.c_str(), "r+b");
    ASSERT_NE(f, nullptr);
    std::fseek(f, static_cast<long>(offset.offset + offset.compressed_page_size - 1), SEEK_SET);
    int c = std::fgetc(f);
    std::fseek(f, static_cast<long>(offset.offset + offset.compressed_page_size - 1), SEEK_SET);
    std::fputc(c ^ 0x55, f);
    std::fclose(f);
  }
  EXPECT_THROW(ReadColumns(path), CorruptFileError);
}

// ---- statistics and page index --------------------------------------------------------------

TEST(ParquetWriterTest, StatisticsAndColumnIndexMatchTheData) {
  TempDir dir;
  const std::string path = dir.File("stats.parquet");
  auto data = AllTypesData(6000, 7);
  WriterOptions options;
  options.row_group_rows = 2500;
  options.page_row_limit = 400;
  auto written = WriteFile(path, kAllNames, TypesOf(data), data, options);
  auto file = ParquetFile::Open(path);
  ASSERT_EQ(file->num_row_groups(), 3);
  int64_t group_start = 0;
  for (int rg = 0; rg < 3; rg++) {
    const auto group_rows = static_cast<size_t>(file->row_group_num_rows(rg));
    const auto begin = static_cast<size_t>(group_start);
    for (size_t c = 0; c < kAllNames.size(); c++) {
      SCOPED_TRACE(kAllNames[c] + " row group " + std::to_string(rg));
      const int column = static_cast<int>(c);
      auto stats = file->GetStatistics(rg, column);
      auto [min, max] = MinMax(data[c], begin, begin + group_rows);
      ASSERT_TRUE(stats.null_count);
      EXPECT_EQ(*stats.null_count, NullCount(data[c], begin, begin + group_rows));
      EXPECT_EQ(stats.num_values, static_cast<int64_t>(group_rows));
      auto offsets = file->ReadOffsetIndex(rg, column);
      auto index = file->ReadColumnIndex(rg, column);
      if (!min) {  // a NaN: no bounds for the chunk, nor for its page, so no column index
        EXPECT_FALSE(stats.min || stats.max);
        EXPECT_TRUE(offsets && !index);
        continue;
      }
      ASSERT_TRUE(stats.min && stats.max);
      EXPECT_TRUE(*stats.min == *min) << stats.min->ToString() << " vs " << min->ToString();
      EXPECT_TRUE(*stats.max == *max) << stats.max->ToString() << " vs " << max->ToString();
      ASSERT_TRUE(index);
      const size_t pages = offsets->page_locations.size();
      ASSERT_EQ(index->null_pages.size(), pages);
      ASSERT_EQ(index->null_counts.size(), pages);
      for (size_t p = 0; p < pages; p++) {
        const size_t first =
            begin + static_cast<size_t>(offsets->page_locations[p].first_row_index);
        const size_t last =
            p + 1 < pages
                ? begin + static_cast<size_t>(offsets->page_locations[p + 1].first_row_index)
                : begin + group_rows;
        auto [page_min, page_max] = MinMax(data[c], first, last);
        EXPECT_EQ(index->null_counts[p], NullCount(data[c], first, last));
        EXPECT_EQ(static_cast<bool>(index->null_pages[p]),
                  NullCount(data[c], first, last) == static_cast<int64_t>(last - first));
        if (!page_min) continue;
        ASSERT_TRUE(index->min_values[p] && index->max_values[p]) << "page " << p;
        if (data[c][0].type().id() == TypeId::kVarchar && page_max->GetString().size() > 64) {
          // Truncated bounds still bound the page.
          EXPECT_LE(index->min_values[p]->Compare(*page_min), 0);
          EXPECT_GE(index->max_values[p]->Compare(*page_max), 0);
          EXPECT_LE(index->max_values[p]->GetString().size(), 64u);
        } else {
          EXPECT_TRUE(*index->min_values[p] == *page_min) << "page " << p;
          EXPECT_TRUE(*index->max_values[p] == *page_max) << "page " << p;
        }
      }
    }
    group_start += static_cast<int64_t>(group_rows);
  }
  // File-wide stats returned by Close.
  for (size_t c = 0; c < kAllNames.size(); c++) {
    auto [min, max] = MinMax(data[c], 0, data[c].size());
    EXPECT_EQ(written.columns[c].min.has_value(), min.has_value()) << kAllNames[c];
    if (!min) continue;
    EXPECT_TRUE(*written.columns[c].min == *min) << kAllNames[c];
    EXPECT_TRUE(*written.columns[c].max == *max) << kAllNames[c];
    EXPECT_EQ(written.columns[c].null_count, NullCount(data[c], 0, data[c].size()));
  }
}

TEST(ParquetWriterTest, StatisticsOrderEdgeCases) {
  TempDir dir;
  const std::string path = dir.File("edges.parquet");
  const double nan = std::nan("");
  const auto dec = LogicalType::Decimal(38, 0);
  // Group 0: only NaN doubles; negative FLBA decimals; strings above 0x7F.
  // Group 1: zeros of both signs.
  Column d = {Value::Double(nan), Value::Double(nan), Value::Double(0.0), Value::Double(-0.0)};
  Column x = {Value::Decimal(-5, 38, 0), Value::Decimal(3, 38, 0),
              Value::Decimal(-Pow10(37), 38, 0), Value::Decimal(Pow10(37), 38, 0)};
  Column s = {Value::Varchar("\xC3\xA9"), Value::Varchar("z"), Value::Varchar("a"),
              Value::Varchar("")};
  WriterOptions options;
  options.row_group_rows = 2;
  auto written =
      WriteFile(path, {"d", "x", "s"}, {LogicalType::Double(), dec, LogicalType::Varchar()},
                {d, x, s}, options);
  auto file = ParquetFile::Open(path);
  auto d0 = file->GetStatistics(0, 0);
  EXPECT_FALSE(d0.min);                       // all NaN: no bounds
  EXPECT_FALSE(file->ReadColumnIndex(0, 0));  // and no honest column index
  EXPECT_TRUE(file->ReadOffsetIndex(0, 0));
  auto d1 = file->GetStatistics(1, 0);
  ASSERT_TRUE(d1.min && d1.max);
  EXPECT_TRUE(std::signbit(d1.min->GetDouble()));
  EXPECT_FALSE(std::signbit(d1.max->GetDouble()));
  EXPECT_EQ(file->chunk(1, 0).meta_data.statistics.min_value,
            std::string("\0\0\0\0\0\0\0\x80", 8));  // -0.0 as written
  EXPECT_EQ(file->chunk(1, 0).meta_data.statistics.max_value, std::string(8, '\0'));
  auto x0 = file->GetStatistics(0, 1);
  EXPECT_TRUE(*x0.min == Value::Decimal(-5, 38, 0));
  EXPECT_TRUE(*x0.max == Value::Decimal(3, 38, 0));
  auto x1 = file->GetStatistics(1, 1);
  EXPECT_TRUE(*x1.min == Value::Decimal(-Pow10(37), 38, 0));
  EXPECT_TRUE(*x1.max == Value::Decimal(Pow10(37), 38, 0));
  auto s0 = file->GetStatistics(0, 2);
  EXPECT_EQ(s0.min->GetString(), "z");
  EXPECT_EQ(s0.max->GetString(), "\xC3\xA9");
  EXPECT_FALSE(written.columns[0].min);  // the file holds a NaN: no file bounds either
  EXPECT_TRUE(*written.columns[1].min == Value::Decimal(-Pow10(37), 38, 0));
  EXPECT_EQ(written.columns[2].min->GetString(), "");
}

TEST(ParquetWriterTest, LongStringBoundsAreTruncated) {
  TempDir dir;
  const std::string path = dir.File("long.parquet");
  // 2000-byte values; one made of 2-byte characters so cuts must respect UTF-8, one of
  // U+10FFFF (cannot be incremented) and a BLOB of 0xFF bytes.
  std::string e_acute;
  for (int i = 0; i < 1000; i++)
    e_acute += "\xC3\xA9";
  std::string max_cp;
  for (int i = 0; i < 500; i++)
    max_cp += "\xF4\x8F\xBF\xBF";
  Column s = {Value::Varchar(std::string(2000, 'b') + "1"), Value::Varchar(e_acute),
              Value::Varchar("a" + std::string(1999, 'z')), Value::Varchar(max_cp)};
  Column blob = {Value::Blob(std::string(2000, '\xFF')), Value::Blob(std::string(2000, '\x01')),
                 Value::Blob("\x02"), Value::Blob(std::string(100, '\x7F'))};
  auto written =
      WriteFile(path, {"s", "blob"}, {LogicalType::Varchar(), LogicalType::Blob()}, {s, blob});
  ExpectSameColumns({s, blob}, ReadColumns(path), {"s", "blob"});
  auto file = ParquetFile::Open(path);
  for (int c = 0; c < 2; c++) {
    const Column& column = c == 0 ? s : blob;
    auto [min, max] = MinMax(column, 0, column.size());
    auto stats = file->GetStatistics(0, c);
    ASSERT_TRUE(stats.min && stats.max) << c;
    EXPECT_LE(stats.min->Compare(*min), 0);
    EXPECT_GE(stats.max->Compare(*max), 0);
    const auto& raw = file->chunk(0, c).meta_data.statistics;
    EXPECT_LE(raw.min_value.size(), 1024u);
    EXPECT_FALSE(raw.is_min_value_exact);
    auto index = file->ReadColumnIndex(0, c);
    ASSERT_TRUE(index && index->min_values[0] && index->max_values[0]);
    EXPECT_LE(index->min_values[0]->GetString().size(), 64u);
    EXPECT_LE(index->min_values[0]->Compare(*min), 0);
    EXPECT_GE(index->max_values[0]->Compare(*max), 0);
    EXPECT_TRUE(*written.columns[static_cast<size_t>(c)].max == *max);  // exact
  }
  // The VARCHAR max is U+10FFFF repeated: no shorter upper bound exists, it is kept whole.
  EXPECT_EQ(file->ReadColumnIndex(0, 0)->max_values[0]->GetString(), max_cp);
  // The BLOB max is 0xFF repeated, likewise.
  EXPECT_EQ(file->ReadColumnIndex(0, 1)->max_values[0]->GetString(), std::string(2000, '\xFF'));

  // An incremented prefix: a 2-byte character is incremented, not split.
  const std::string path2 = dir.File("long2.parquet");
  Column t = {Value::Varchar(e_acute), Value::Varchar("a")};
  WriteFile(path2, {"t"}, {LogicalType::Varchar()}, {t});
  auto file2 = ParquetFile::Open(path2);
  auto index = file2->ReadColumnIndex(0, 0);
  ASSERT_TRUE(index && index->max_values[0]);
  EXPECT_EQ(index->max_values[0]->GetString(), e_acute.substr(0, 62) + "\xC3\xAA");
  EXPECT_EQ(index->min_values[0]->GetString(), "a");
}

TEST(ParquetWriterTest, BoundaryOrder) {
  TempDir dir;
  const std::string path = dir.File("order.parquet");
  Column up, down, random, with_nulls, constant;
  std::mt19937_64 rng(9);
  for (int i = 0; i < 5000; i++) {
    up.push_back(Value::Bigint(i));
    down.push_back(Value::Varchar(std::to_string(900000 - i)));
    random.push_back(Value::Integer(static_cast<int32_t>(rng() % 1000)));
    with_nulls.push_back(i / 500 % 2 ? Value::Null(LogicalType::Date()) : Value::Date(i));
    constant.push_back(Value::Double(1.5));
  }
  WriterOptions options;
  options.page_row_limit = 500;
  WriteFile(path, {"up", "down", "random", "with_nulls", "constant"},
            {LogicalType::Bigint(), LogicalType::Varchar(), LogicalType::Integer(),
             LogicalType::Date(), LogicalType::Double()},
            {up, down, random, with_nulls, constant}, options);
  auto file = ParquetFile::Open(path);
  EXPECT_EQ(file->ReadColumnIndex(0, 0)->boundary_order, format::BoundaryOrder::ASCENDING);
  EXPECT_EQ(file->ReadColumnIndex(0, 1)->boundary_order, format::BoundaryOrder::DESCENDING);
  EXPECT_EQ(file->ReadColumnIndex(0, 2)->boundary_order, format::BoundaryOrder::UNORDERED);
  auto nulls = file->ReadColumnIndex(0, 3);
  EXPECT_EQ(nulls->boundary_order, format::BoundaryOrder::ASCENDING);  // null pages skipped
  EXPECT_EQ(nulls->null_pages,
            std::vector<bool>({false, true, false, true, false, true, false, true, false, true}));
  EXPECT_EQ(file->ReadColumnIndex(0, 4)->boundary_order, format::BoundaryOrder::ASCENDING);
}

TEST(ParquetWriterTest, NoStatisticsOrPageIndexWhenDisabled) {
  TempDir dir;
  const std::string path = dir.File("bare.parquet");
  WriterOptions options;
  options.write_statistics = false;
  options.write_page_index = false;
  Column a = {Value::Integer(1), Value::Integer(2)};
  auto written = WriteFile(path, {"a"}, {LogicalType::Integer()}, {a}, options);
  auto file = ParquetFile::Open(path);
  EXPECT_FALSE(file->chunk(0, 0).meta_data.__isset.statistics);
  EXPECT_FALSE(file->ReadColumnIndex(0, 0));
  EXPECT_FALSE(file->ReadOffsetIndex(0, 0));
  EXPECT_TRUE(*written.columns[0].max == Value::Integer(2));  // still reported
  ExpectSameColumns({a}, ReadColumns(path), {"a"});
}

// ---- bloom filters --------------------------------------------------------------------------

// The probe a reader computes for a value (see parquet_writer.h).
uint64_t ProbeHash(const Value& v) {
  const auto& type = v.type();
  switch (type.id()) {
    case TypeId::kInteger:
    case TypeId::kDate:
      return SplitBlockBloomFilter::HashInt32(static_cast<int32_t>(v.GetInt64()));
    case TypeId::kBigint:
    case TypeId::kTimestamp:
      return SplitBlockBloomFilter::HashInt64(v.GetInt64());
    case TypeId::kDouble:
      return SplitBlockBloomFilter::HashDouble(v.GetDouble());
    case TypeId::kDecimal: {
      if (type.precision() <= 9) {
        return SplitBlockBloomFilter::HashInt32(static_cast<int32_t>(v.GetInt64()));
      }
      if (type.precision() <= 18) return SplitBlockBloomFilter::HashInt64(v.GetInt64());
      auto u = static_cast<uint128_t>(v.GetInt128());
      char bytes[16];
      for (int i = 15; i >= 0; i--, u >>= 8)
        bytes[i] = static_cast<char>(u & 0xFF);
      return SplitBlockBloomFilter::HashBytes(bytes, 16);
    }
    case TypeId::kVarchar:
    case TypeId::kBlob:
      return SplitBlockBloomFilter::HashBytes(v.GetString().data(), v.GetString().size());
    default:
      ADD_FAILURE() << "no bloom hash for " << type.ToString();
      return 0;
  }
}

TEST(ParquetWriterTest, BloomFiltersFindEveryValueAndRejectMostOthers) {
  TempDir dir;
  const std::string path = dir.File("bloom.parquet");
  auto data = AllTypesData(4000, 11);
  WriterOptions options;
  options.row_group_rows = 2000;
  options.page_row_limit = 500;
  options.bloom_filter_columns = {"i",   "big", "dbl", "dec9", "dec18",
                                  "d38", "dt",  "ts",  "s",    "blob"};
  WriteFile(path, kAllNames, TypesOf(data), data, options);
  auto file = ParquetFile::Open(path);
  EXPECT_FALSE(file->ReadBloomFilter(0, 0));  // BOOLEAN "b" has none
  for (size_t c = 1; c < kAllNames.size(); c++) {
    SCOPED_TRACE(kAllNames[c]);
    for (int rg = 0; rg < 2; rg++) {
      auto bloom = file->ReadBloomFilter(rg, static_cast<int>(c));
      ASSERT_TRUE(bloom);
      EXPECT_TRUE(file->chunk(rg, static_cast<int>(c)).meta_data.__isset.bloom_filter_length);
      std::unordered_set<uint64_t> present;
      for (size_t r = static_cast<size_t>(rg) * 2000; r < static_cast<size_t>(rg + 1) * 2000; r++) {
        if (data[c][r].is_null()) continue;
        const uint64_t hash = ProbeHash(data[c][r]);
        present.insert(hash);
        ASSERT_TRUE(bloom->MightContainHash(hash)) << "row " << r << ": " << data[c][r].ToString();
      }
      // Values of the other row group that this one lacks are mostly rejected.
      int absent = 0, false_positives = 0;
      for (size_t r = static_cast<size_t>(1 - rg) * 2000; r < static_cast<size_t>(2 - rg) * 2000;
           r++) {
        if (data[c][r].is_null()) continue;
        const uint64_t hash = ProbeHash(data[c][r]);
        if (present.count(hash)) continue;
        absent++;
        false_positives += bloom->MightContainHash(hash);
      }
      if (absent > 500) {
        EXPECT_LT(false_positives, absent / 20) << absent;
      }
    }
  }
  // A zero double is findable whatever its sign.
  const std::string zeros = dir.File("zeros.parquet");
  WriterOptions zero_options;
  zero_options.bloom_filter_columns = {"d"};
  WriteFile(zeros, {"d"}, {LogicalType::Double()}, {{Value::Double(-0.0), Value::Double(2)}},
            zero_options);
  auto zero_bloom = ParquetFile::Open(zeros)->ReadBloomFilter(0, 0);
  EXPECT_TRUE(zero_bloom->MightContainHash(SplitBlockBloomFilter::HashDouble(0.0)));
  EXPECT_TRUE(zero_bloom->MightContainHash(SplitBlockBloomFilter::HashDouble(-0.0)));
}

TEST(ParquetWriterTest, BloomFilterFalsePositiveRate) {
  TempDir dir;
  const std::string path = dir.File("fpp.parquet");
  Column values;
  for (int i = 0; i < 20000; i++)
    values.push_back(Value::Bigint(int64_t{i} * 2));
  WriterOptions options;
  options.bloom_filter_columns = {"v"};
  options.bloom_filter_fpp = 0.01;
  WriteFile(path, {"v"}, {LogicalType::Bigint()}, {values}, options);
  auto bloom = ParquetFile::Open(path)->ReadBloomFilter(0, 0);
  ASSERT_TRUE(bloom);
  int false_positives = 0;
  for (int i = 0; i < 20000; i++) {
    ASSERT_TRUE(bloom->MightContainHash(SplitBlockBloomFilter::HashInt64(int64_t{i} * 2)));
    false_positives +=
        bloom->MightContainHash(SplitBlockBloomFilter::HashInt64(int64_t{i} * 2 + 1));
  }
  EXPECT_LT(false_positives, 20000 * 0.02);
}

// ---- errors ---------------------------------------------------------------------------------

void Create(const std::string& path, std::vector<std::string> names, std::vector<LogicalType> types,
            WriterOptions options = {}) {
  ParquetWriter writer(path, std::move(names), std::move(types), std::move(options));
}

TEST(ParquetWriterTest, RejectsBadArguments) {
  TempDir dir;
  const std::string path = dir.File("bad.parquet");
  const std::vector<LogicalType> one = {LogicalType::Integer()};
  EXPECT_THROW(Create(path, {"a", "b"}, one), InvalidInputError);
  EXPECT_THROW(Create(path, {""}, one), InvalidInputError);
  EXPECT_THROW(Create(path, {"a", "a"}, {LogicalType::Integer(), LogicalType::Integer()}),
               InvalidInputError);
  EXPECT_THROW(Create(path, {"a"}, {LogicalType()}), InvalidInputError);
  WriterOptions options;
  options.bloom_filter_columns = {"missing"};
  EXPECT_THROW(Create(path, {"a"}, one, options), InvalidInputError);
  options.bloom_filter_columns = {"a"};
  options.bloom_filter_fpp = 1.5;
  EXPECT_THROW(Create(path, {"a"}, one, options), InvalidInputError);
  options = {};
  options.bloom_filter_columns = {"flag"};
  EXPECT_THROW(Create(path, {"flag"}, {LogicalType::Boolean()}, options), InvalidInputError);
  options = {};
  options.row_group_rows = 0;
  EXPECT_THROW(Create(path, {"a"}, one, options), InvalidInputError);
  options = {};
  options.codec = format::CompressionCodec::LZO;
  EXPECT_THROW(Create(path, {"a"}, one, options), NotSupportedError);
  options.codec = format::CompressionCodec::GZIP;
  options.compression_level = 42;
  EXPECT_THROW(Create(path, {"a"}, one, options), InvalidInputError);
  EXPECT_FALSE(fs::exists(path));  // nothing created for bad arguments

  try {
    ParquetWriter writer(dir.File("no/such/dir/x.parquet"), {"a"}, one);
    FAIL() << "expected IOError";
  } catch (const IOError& e) {
    EXPECT_NE(std::string(e.what()).find("no/such/dir/x.parquet"), std::string::npos);
  }
}

TEST(ParquetWriterTest, RejectsBadBatchesAndStaysUsable) {
  TempDir dir;
  const std::string path = dir.File("batches.parquet");
  const std::vector<LogicalType> types = {LogicalType::Varchar(), LogicalType::Decimal(4, 1),
                                          LogicalType::Decimal(20, 0)};
  ParquetWriter writer(path, {"s", "d", "w"}, types);
  Batch wrong_count({LogicalType::Varchar()});
  EXPECT_THROW(writer.Write(wrong_count), InvalidInputError);
  Batch wrong_type(
      {LogicalType::Varchar(), LogicalType::Decimal(5, 1), LogicalType::Decimal(20, 0)});
  EXPECT_THROW(writer.Write(wrong_type), InvalidInputError);

  auto make = [&](std::string s, int64_t d, int128_t w) {
    Batch batch(types);
    WriteValue(batch.column(0), 0, Value::Varchar(std::move(s)));
    WriteValue(batch.column(1), 0, Value::Decimal(d, 4, 1));
    WriteValue(batch.column(2), 0, Value::Decimal(w, 20, 0));
    WriteValue(batch.column(0), 1, Value::Varchar("ok"));
    WriteValue(batch.column(1), 1, Value::Decimal(1, 4, 1));
    WriteValue(batch.column(2), 1, Value::Decimal(1, 20, 0));
    batch.SetSize(2);
    return batch;
  };
  EXPECT_THROW(writer.Write(make("\xC3(", 1, 1)), InvalidInputError);      // invalid UTF-8
  EXPECT_THROW(writer.Write(make("x", 10000, 1)), InvalidInputError);      // > DECIMAL(4,1)
  EXPECT_THROW(writer.Write(make("x", 1, Pow10(20))), InvalidInputError);  // > DECIMAL(20,0)
  writer.Write(make("fine", -9999, -(Pow10(20) - 1)));
  auto written = writer.Close();
  EXPECT_EQ(written.rows, 2);
  EXPECT_THROW(writer.Write(make("x", 1, 1)), InvalidInputError);  // closed
  EXPECT_THROW(writer.Close(), InvalidInputError);
  auto read = ReadColumns(path);
  EXPECT_EQ(read[0][0].GetString(), "fine");
  EXPECT_TRUE(read[1][0] == Value::Decimal(-9999, 4, 1));
  EXPECT_TRUE(read[2][0] == Value::Decimal(-(Pow10(20) - 1), 20, 0));
}

TEST(ParquetWriterTest, UnclosedWriterLeavesNoFooter) {
  TempDir dir;
  const std::string path = dir.File("partial.parquet");
  {
    ParquetWriter writer(path, {"a"}, {LogicalType::Integer()});
    Column a(100, Value::Integer(1));
    WriteColumns(writer, {LogicalType::Integer()}, {a});
  }
  ASSERT_TRUE(fs::exists(path));
  EXPECT_THROW(ParquetFile::Open(path), CorruptFileError);
}

}  // namespace
}  // namespace shears::parquet

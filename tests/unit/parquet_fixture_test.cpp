// Every Parquet fixture listed in tests/data/parquet/fixtures.tsv (from the shared fixture
// manifest): readable files must decode to exactly their expected CSV, broken files must fail
// with a typed shears error (never a crash; run under ASan/UBSan in `make test`).
// Generated fixtures are copied into tests/data; external ones are read from
// ../shared/fixtures/parquet and skipped with a message when that folder is absent.

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "common/error.h"
#include "storage/parquet/parquet_reader.h"
#include "test_util.h"

namespace shears::parquet {
namespace {

struct Fixture {
  std::string kind, path, name, expect;
};

void PrintTo(const Fixture& f, std::ostream* os) {
  *os << f.path << " (" << f.expect << ")";
}

std::vector<Fixture> LoadFixtures() {
  std::vector<Fixture> fixtures;
  std::ifstream in(test::DataDir() + "/parquet/fixtures.tsv");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::stringstream fields(line);
    Fixture f;
    std::getline(fields, f.kind, '\t');
    std::getline(fields, f.path, '\t');
    std::getline(fields, f.name, '\t');
    std::getline(fields, f.expect, '\t');
    fixtures.push_back(f);
  }
  return fixtures;
}

// Renders a decoded value as the fixture CSV would, for the given csv_format; floats are
// compared numerically by the caller instead.
std::string Render(const Vector& v, idx_t row) {
  return v.ValueToString(row);
}

bool FloatMatches(double actual, const std::string& expected, bool is_float32) {
  if (expected == "nan") return std::isnan(actual);
  double want = is_float32 ? static_cast<double>(std::strtof(expected.c_str(), nullptr))
                           : std::strtod(expected.c_str(), nullptr);
  if (expected == "inf") want = INFINITY;
  if (expected == "-inf") want = -INFINITY;
  if (std::isnan(want)) return std::isnan(actual);
  return std::memcmp(&want, &actual, sizeof(double)) == 0;
}

// The fixtures write six (nine) fraction digits; shears prints times as DuckDB does, without
// trailing zeros.
std::string TrimFraction(std::string text) {
  if (text.find('.') == std::string::npos) return text;
  while (text.back() == '0')
    text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text;
}

// A JSON array of scalars (a LIST column's fixture text, `["a",null,1]`) as a list prints:
// `[a, NULL, 1]`. Strings the fixtures hold need no quoting in the list text.
std::string JsonListAsListText(const std::string& json) {
  std::string out = "[";
  bool first = true;
  size_t i = 1;
  while (i + 1 < json.size()) {
    while (json[i] == ' ' || json[i] == ',')
      i++;
    if (i + 1 >= json.size()) break;
    std::string element;
    if (json[i] == '"') {
      for (i++; i < json.size() && json[i] != '"'; i++) {
        if (json[i] == '\\' && i + 1 < json.size()) i++;
        element += json[i];
      }
      i++;
    } else {
      while (i + 1 < json.size() && json[i] != ',')
        element += json[i++];
      if (element == "null") element = "NULL";
    }
    out += (first ? "" : ", ") + element;
    first = false;
  }
  return out + "]";
}

std::string Normalize(const std::string& expected, const std::string& csv_format) {
  if (csv_format == "json") return JsonListAsListText(expected);
  if (csv_format == "timestamp_ns" && expected.size() > 3) {
    return TrimFraction(expected.substr(0, expected.size() - 3));  // shears keeps microseconds
  }
  if (csv_format == "timestamptz_us" && expected.size() > 6 &&
      expected.compare(expected.size() - 6, 6, "+00:00") == 0) {
    return TrimFraction(expected.substr(0, expected.size() - 6));  // read as UTC TIMESTAMP
  }
  if (csv_format == "timestamp_us" || csv_format == "time_us") return TrimFraction(expected);
  return expected;
}

// Reads the whole file; for each column either the expected values must match, or (unsupported
// types) projecting it must be a NotSupportedError.
void CheckReadsAsExpected(const std::string& file_path, const std::string& expected_dir,
                          const std::string& name) {
  auto expected = test::ParseCsv(test::ReadFileToString(expected_dir + "/" + name + ".csv"));
  auto schema = test::ParseCsv(test::ReadFileToString(expected_dir + "/" + name + ".schema.csv"));
  ASSERT_FALSE(expected.empty());
  ASSERT_GE(schema.size(), 1u);
  const auto& header = expected[0];
  auto file = ParquetFile::Open(file_path);
  ASSERT_EQ(file->num_rows(), static_cast<int64_t>(expected.size() - 1));

  std::vector<int> readable;
  std::vector<size_t> expected_column;
  std::vector<std::string> formats;
  for (size_t c = 0; c < header.size(); c++) {
    int index = file->FindColumn(*header[c]);
    ASSERT_GE(index, 0) << "column " << *header[c] << " not found";
    const std::string& csv_format = *schema[c + 1][2];
    const auto& descriptor = file->columns()[static_cast<size_t>(index)];
    if (!descriptor.unsupported_reason.empty()) {
      // Columns shears cannot read: a clear error, not a crash.
      EXPECT_THROW(ParquetReader(file, {index}), NotSupportedError);
      continue;
    }
    readable.push_back(index);
    expected_column.push_back(c);
    formats.push_back(csv_format);
  }
  ParquetReader reader(file, readable);
  Batch batch(reader.output_types());
  size_t row = 1;
  while (reader.Next(batch)) {
    for (idx_t r = 0; r < batch.size(); r++, row++) {
      ASSERT_LT(row, expected.size()) << "more rows than expected";
      for (size_t i = 0; i < readable.size(); i++) {
        const auto& want = expected[row][expected_column[i]];
        const Vector& column = batch.column(i);
        const std::string& column_name = *header[expected_column[i]];
        if (!want) {
          EXPECT_TRUE(column.IsNull(r))
              << column_name << " row " << row - 1 << ": expected NULL, got " << Render(column, r);
          continue;
        }
        ASSERT_FALSE(column.IsNull(r))
            << column_name << " row " << row - 1 << ": expected " << *want;
        if (formats[i] == "json" && column.type().IsNested() &&
            !(column.type().IsList() && !column.type().element().IsNested())) {
          // A nested column's JSON text is not DuckDB's: its values are compared with DuckDB's
          // in parquet_nested_test.cpp; here it is read whole.
          continue;
        }
        if (formats[i] == "float64" || formats[i] == "float32") {
          double actual = column.data<double>()[r];
          EXPECT_TRUE(FloatMatches(actual, *want, formats[i] == "float32"))
              << column_name << " row " << row - 1 << ": expected " << *want << ", got " << actual;
        } else if (formats[i] == "hex") {
          EXPECT_EQ(FormatHex(column.data<StringRef>()[r].view()), *want)
              << column_name << " row " << row - 1;
        } else {
          EXPECT_EQ(Render(column, r), Normalize(*want, formats[i]))
              << column_name << " row " << row - 1;
        }
      }
    }
  }
  EXPECT_EQ(row, expected.size()) << "fewer rows than expected";
  EXPECT_EQ(reader.counters().rows_read, static_cast<uint64_t>(file->num_rows()));
}

// Tries to read every readable column; returns the error text, or "" on success.
std::string TryReadEverything(const std::string& file_path) {
  try {
    auto file = ParquetFile::Open(file_path);
    std::vector<int> columns;
    for (size_t i = 0; i < file->columns().size(); i++) {
      if (file->columns()[i].unsupported_reason.empty()) columns.push_back(static_cast<int>(i));
    }
    ParquetReader reader(file, columns);
    Batch batch(reader.output_types());
    while (reader.Next(batch)) {
    }
    // A column that cannot be read (nested, unsupported type) must fail cleanly and counts as
    // the file not being readable in full.
    for (size_t i = 0; i < file->columns().size(); i++) {
      if (!file->columns()[i].unsupported_reason.empty()) {
        ParquetReader nested(file, {static_cast<int>(i)});
        ADD_FAILURE() << "projecting unsupported column " << file->columns()[i].name << " worked";
      }
    }
    return "";
  } catch (const Error& e) {
    EXPECT_TRUE(e.IsUserError()) << "internal error: " << e.what();
    EXPECT_NE(std::string(e.what()).find(file_path.substr(file_path.rfind('/') + 1)),
              std::string::npos)
        << "error does not name the file: " << e.what();
    return e.what();
  }
}

class ParquetFixtureTest : public ::testing::TestWithParam<Fixture> {};

TEST_P(ParquetFixtureTest, ReadsOrFailsAsExpected) {
  const Fixture& f = GetParam();
  std::string file_path, expected_dir;
  if (f.kind == "generated") {
    file_path = test::DataDir() + "/parquet/generated/" + f.path.substr(f.path.rfind('/') + 1);
    expected_dir = test::DataDir() + "/parquet/expected";
  } else {
    std::string shared = test::SharedFixturesDir();
    if (shared.empty())
      GTEST_SKIP() << "../shared/fixtures/parquet is absent; external fixture skipped";
    file_path = shared + "/" + f.path;
    expected_dir = shared + "/expected";
  }
  if (f.expect == "read") {
    CheckReadsAsExpected(file_path, expected_dir, f.name);
  } else if (f.expect == "fail") {
    std::string error = TryReadEverything(file_path);
    EXPECT_FALSE(error.empty()) << f.name << " was read without error";
  } else {  // read-or-fail: a clean error, or exactly the expected rows
    std::string error = TryReadEverything(file_path);
    if (error.empty()) CheckReadsAsExpected(file_path, expected_dir, f.name);
  }
}

std::string FixtureName(const ::testing::TestParamInfo<Fixture>& info) {
  std::string name = info.param.name;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Fixtures, ParquetFixtureTest, ::testing::ValuesIn(LoadFixtures()),
                         FixtureName);

}  // namespace
}  // namespace shears::parquet

#include "storage/dataset.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <stdlib.h>
#include "test_util.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/error.h"
#include "main/connection.h"
#include "storage/hive/hive_partitioning.h"
#include "storage/parquet/parquet_file.h"

namespace shears {
namespace {

namespace fs = std::filesystem;

const std::string kHiveData = test::SourceDir() + "/tests/data/hive";
const std::string kYearMonth = kHiveData + "/hive_year_month";
const std::string kEscaping = kHiveData + "/hive_escaping";
// One file of each Hive fixture, for building other layouts at run time.
const std::string kYearMonthFile = kYearMonth + "/year=2022/month=1/data_0.parquet";
const std::string kEscapingFile = kEscaping + "/category=plain/data_0.parquet";

using CsvRow = std::vector<std::optional<std::string>>;

/// Reads the fixtures' CSV dialect: RFC 4180 quoting, unquoted \N is NULL.
std::vector<CsvRow> ReadCsv(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  std::vector<CsvRow> rows;
  CsvRow row;
  size_t i = 0;
  while (i < text.size()) {
    std::string field;
    bool quoted = false;
    if (text[i] == '"') {
      quoted = true;
      for (i++; i < text.size(); i++) {
        if (text[i] == '"') {
          if (i + 1 < text.size() && text[i + 1] == '"') {
            field.push_back('"');
            i++;
          } else {
            i++;
            break;
          }
        } else {
          field.push_back(text[i]);
        }
      }
    } else {
      while (i < text.size() && text[i] != ',' && text[i] != '\n')
        field.push_back(text[i++]);
    }
    if (!quoted && field == "\\N") {
      row.push_back(std::nullopt);
    } else {
      row.push_back(field);
    }
    if (i >= text.size() || text[i] == '\n') {
      rows.push_back(std::move(row));
      row.clear();
    }
    i++;  // the ',' or '\n'
  }
  return rows;
}

std::string Relative(const std::string& path, const std::string& root) {
  return fs::path(path).lexically_relative(root).generic_string();
}

using test::TempDir;

/// A fixture by file name: tests/data/parquet/ first, then the shared fixture collection when
/// this machine has it; empty when neither has it.
std::string FindFixture(const std::string& name) {
  std::error_code ec;
  fs::path repo_data = fs::path(test::SourceDir()) / "tests/data/parquet";
  if (fs::is_directory(repo_data, ec)) {
    for (auto it = fs::recursive_directory_iterator(repo_data, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (it->path().filename() == name) return it->path().string();
    }
  }
  const std::string shared = test::SharedFixturesDir();
  if (shared.empty()) return "";
  for (const char* dir : {"/generated", "/external/data"}) {
    fs::path candidate = fs::path(shared + dir) / name;
    if (fs::exists(candidate, ec)) return candidate.string();
  }
  return "";
}

#define REQUIRE_FIXTURE(var, name)                                                   \
  const std::string var = FindFixture(name);                                         \
  if (var.empty()) {                                                                 \
    GTEST_SKIP() << "fixture " << name                                               \
                 << " is neither in tests/data/parquet/ nor in the shared fixtures"; \
  }

/// Runs `fn`, expecting an error of type E whose message contains every one of `parts`.
template <typename E, typename Fn>
void ExpectError(Fn fn, const std::vector<std::string>& parts) {
  try {
    fn();
    ADD_FAILURE() << "no error was thrown";
  } catch (const E& e) {
    std::string message = e.what();
    for (const auto& part : parts) {
      EXPECT_NE(message.find(part), std::string::npos)
          << "message lacks '" << part << "': " << message;
    }
  }
}

void CheckAgainstFixture(const Dataset& dataset, const std::string& name) {
  const std::string expected_dir = kHiveData + "/expected/";
  auto schema = ReadCsv(expected_dir + name + ".schema.csv");
  ASSERT_GE(schema.size(), 2u);
  ASSERT_EQ(dataset.columns().size(), schema.size() - 1);
  for (size_t i = 1; i < schema.size(); i++) {
    const auto& column = dataset.columns()[i - 1];
    EXPECT_EQ(column.name, *schema[i][0]);
    EXPECT_EQ(column.type.ToString(), *schema[i][1]) << column.name;
    EXPECT_TRUE(column.unsupported_reason.empty());
  }

  auto files = ReadCsv(expected_dir + name + ".files.csv");
  ASSERT_GE(files.size(), 2u);
  const size_t num_partitions = files[0].size() - 2;  // relative_path, <keys>..., row_count
  ASSERT_EQ(dataset.num_partition_columns(), num_partitions);
  const size_t num_file_columns = dataset.columns().size() - num_partitions;
  for (size_t k = 0; k < num_partitions; k++) {
    const auto& column = dataset.columns()[num_file_columns + k];
    EXPECT_TRUE(column.is_partition);
    EXPECT_EQ(*files[0][k + 1], column.name + "_decoded");
  }
  ASSERT_EQ(dataset.files().size(), files.size() - 1);
  for (size_t f = 1; f < files.size(); f++) {
    const auto& file = dataset.files()[f - 1];
    SCOPED_TRACE(file.path);
    EXPECT_EQ(Relative(file.path, dataset.root()), *files[f][0]);
    EXPECT_EQ(file.num_rows, std::stoll(*files[f].back()));
    EXPECT_EQ(file.size, fs::file_size(file.path));
    ASSERT_EQ(file.partition_values.size(), num_partitions);
    for (size_t k = 0; k < num_partitions; k++) {
      const Value& value = file.partition_values[k];
      EXPECT_EQ(value.type(), dataset.columns()[num_file_columns + k].type);
      if (files[f][k + 1]) {
        EXPECT_FALSE(value.is_null());
        EXPECT_EQ(value.ToString(), *files[f][k + 1]);
      } else {
        EXPECT_TRUE(value.is_null());
      }
    }
    // Every file of these datasets has all file columns, in the same order.
    ASSERT_EQ(file.column_map.size(), num_file_columns);
    for (size_t c = 0; c < num_file_columns; c++)
      EXPECT_EQ(file.column_map[c], int(c));
  }
}

DatasetOptions AllFooters() {
  DatasetOptions options;
  options.read_all_footers = true;
  return options;
}

TEST(DatasetHiveTest, YearMonthMatchesDuckDB) {
  auto dataset = Dataset::Open(kYearMonth, AllFooters());
  EXPECT_EQ(dataset->root(), kYearMonth);
  CheckAgainstFixture(*dataset, "hive_year_month");
  EXPECT_EQ(dataset->total_rows(), 126);
  EXPECT_EQ(dataset->columns()[4].type, LogicalType::Bigint());  // year
  EXPECT_EQ(dataset->FindColumn("YEAR"), 4);
  EXPECT_EQ(dataset->FindColumn("Month"), 5);
  EXPECT_EQ(dataset->FindColumn("ID"), 0);
  EXPECT_EQ(dataset->FindColumn("nope"), -1);
  // The NULL partition sorts last and keeps the column's type.
  const auto& last = dataset->files().back().partition_values;
  EXPECT_TRUE(last[0].is_null());
  EXPECT_EQ(last[0].type(), LogicalType::Bigint());
  EXPECT_EQ(last[1], Value::Bigint(1));
}

TEST(DatasetHiveTest, EscapingMatchesDuckDB) {
  auto dataset = Dataset::Open(kEscaping + "/", AllFooters());  // a trailing slash changes nothing
  EXPECT_EQ(dataset->root(), kEscaping);
  CheckAgainstFixture(*dataset, "hive_escaping");
  EXPECT_EQ(dataset->columns().back().type, LogicalType::Varchar());
}

// By default only the first footer is read: the schema and partitions are the same, the other
// files' rows are estimated and their columns mapped when opened.
TEST(DatasetHiveTest, OpeningReadsOneFooter) {
  const uint64_t parsed_before = parquet::GetFooterCacheStats().footers_parsed;
  auto lazy = Dataset::Open(kYearMonth);
  auto all = Dataset::Open(kYearMonth, AllFooters());
  EXPECT_FALSE(lazy->all_footers_read());
  EXPECT_TRUE(all->all_footers_read());
  ASSERT_EQ(lazy->columns().size(), all->columns().size());
  for (size_t c = 0; c < all->columns().size(); c++) {
    EXPECT_EQ(lazy->columns()[c].name, all->columns()[c].name);
    EXPECT_EQ(lazy->columns()[c].type, all->columns()[c].type);
  }
  ASSERT_EQ(lazy->files().size(), all->files().size());
  EXPECT_EQ(lazy->files()[0].num_rows, all->files()[0].num_rows);
  for (size_t f = 1; f < lazy->files().size(); f++) {
    EXPECT_EQ(lazy->files()[f].num_rows, -1);
    EXPECT_TRUE(lazy->files()[f].column_map.empty());
    EXPECT_EQ(lazy->files()[f].size, all->files()[f].size);
    EXPECT_EQ(lazy->files()[f].partition_values, all->files()[f].partition_values);
    EXPECT_GE(lazy->estimated_rows(f), 0);
  }
  // Rows from sizes: the files are alike, so the estimate is close.
  EXPECT_NEAR(static_cast<double>(lazy->total_rows()), 126.0, 126.0 * 0.5);
  // The first footer is the only one read for the lazy dataset, if the cache did not have it.
  EXPECT_LE(parquet::GetFooterCacheStats().footers_parsed - parsed_before, 1 + all->files().size());
  const size_t last = lazy->files().size() - 1;
  lazy->OpenFile(last);
  EXPECT_EQ(lazy->files()[last].column_map, all->files()[last].column_map);
}

TEST(DatasetHiveTest, HivePartitioningOff) {
  DatasetOptions options;
  options.hive_partitioning = false;
  auto dataset = Dataset::Open(kYearMonth, options);
  EXPECT_EQ(dataset->num_partition_columns(), 0u);
  EXPECT_EQ(dataset->columns().size(), 4u);
  EXPECT_EQ(dataset->files().size(), 13u);
  for (const auto& file : dataset->files())
    EXPECT_TRUE(file.partition_values.empty());
}

TEST(DatasetHiveTest, TypeOverrides) {
  DatasetOptions options;
  options.partition_types["YEAR"] = LogicalType::Integer();  // names are case-insensitive
  options.partition_types["month"] = LogicalType::Varchar();
  auto dataset = Dataset::Open(kYearMonth, options);
  EXPECT_EQ(dataset->columns()[4].type, LogicalType::Integer());
  EXPECT_EQ(dataset->columns()[5].type, LogicalType::Varchar());
  EXPECT_EQ(dataset->files()[0].partition_values[0], Value::Integer(2022));
  EXPECT_EQ(dataset->files()[0].partition_values[1], Value::Varchar("1"));
  EXPECT_TRUE(dataset->files().back().partition_values[0].is_null());
}

TEST(DatasetHiveTest, TypeOverrideThatDoesNotConvert) {
  DatasetOptions options;
  options.partition_types["category"] = LogicalType::Bigint();
  ExpectError<InvalidInputError>([&] { Dataset::Open(kEscaping, options); },
                                 {"category", "BIGINT", "data_0.parquet"});
  options.partition_types.clear();
  options.partition_types["month"] = LogicalType::Date();
  ExpectError<InvalidInputError>([&] { Dataset::Open(kYearMonth, options); },
                                 {"'month'", "'1'", "DATE"});
}

TEST(DatasetHiveTest, TypeOverrideForUnknownColumn) {
  DatasetOptions options;
  options.partition_types["day"] = LogicalType::Bigint();
  ExpectError<InvalidInputError>([&] { Dataset::Open(kYearMonth, options); },
                                 {"'day'", "[year, month]"});
}

TEST(DatasetHiveTest, GlobUsesPrefixAsRoot) {
  auto dataset = Dataset::Open(kYearMonth + "/year=2023/*/*.parquet");
  EXPECT_EQ(dataset->root(), kYearMonth);
  ASSERT_EQ(dataset->files().size(), 4u);
  ASSERT_EQ(dataset->num_partition_columns(), 2u);
  for (const auto& file : dataset->files()) {
    EXPECT_EQ(file.partition_values[0], Value::Bigint(2023));
  }
  auto all = Dataset::Open(kYearMonth + "/**/*.parquet");
  EXPECT_EQ(all->files().size(), 13u);
  EXPECT_EQ(all->num_partition_columns(), 2u);
}

TEST(DatasetTest, SingleFile) {
  DatasetOptions options;
  options.hive_partitioning = false;
  auto dataset = Dataset::Open(kYearMonthFile, options);
  EXPECT_EQ(dataset->root(), kYearMonth + "/year=2022/month=1");
  ASSERT_EQ(dataset->files().size(), 1u);
  EXPECT_EQ(dataset->num_partition_columns(), 0u);
  EXPECT_EQ(dataset->files()[0].num_rows, 10);
  EXPECT_EQ(dataset->columns().size(), 4u);
}

TEST(DatasetHiveTest, PathNamingPartitionsKeepsThem) {
  // The key=value levels the path itself names still become partition columns.
  for (const std::string& path :
       {kYearMonthFile, kYearMonth + "/year=2022/month=1", kYearMonth + "/year=2022/month=1/"}) {
    SCOPED_TRACE(path);
    auto dataset = Dataset::Open(path);
    EXPECT_EQ(dataset->root(), kYearMonth);
    ASSERT_EQ(dataset->files().size(), 1u);
    ASSERT_EQ(dataset->num_partition_columns(), 2u);
    EXPECT_EQ(dataset->files()[0].partition_values[0], Value::Bigint(2022));
    EXPECT_EQ(dataset->files()[0].partition_values[1], Value::Bigint(1));
  }
  auto year = Dataset::Open(kYearMonth + "/year=2023");
  EXPECT_EQ(year->files().size(), 4u);
  EXPECT_EQ(year->columns()[4].name, "year");
}

TEST(DatasetTest, MissingPathsAreIOErrors) {
  ExpectError<IOError>([] { Dataset::Open(kHiveData + "/does_not_exist"); }, {"does_not_exist"});
  ExpectError<IOError>([] { Dataset::Open(kYearMonth + "/*/nothing_*.parquet"); },
                       {"nothing_*.parquet"});
  TempDir dir;
  ExpectError<IOError>([&] { Dataset::Open(dir.path()); }, {dir.path()});
  // Only files that are not data: still empty.
  dir.AddText("notes.txt", "x");
  dir.AddText("k=1/data.parquet.crc", "x");
  dir.AddText("_SUCCESS", "");
  ExpectError<IOError>([&] { Dataset::Open(dir.path()); }, {dir.path()});
}

TEST(DatasetTest, DirectoryKeepsOnlyDataFiles) {
  TempDir dir;
  dir.Add("k=1/a.parquet", kYearMonthFile);
  dir.Add("k=2/b.parq", kYearMonthFile);
  dir.Add("k=3/part-00000", kYearMonthFile);  // Spark/Hadoop files have no extension
  dir.AddText("k=1/a.parquet.crc", "not parquet");
  dir.AddText("k=1/README.md", "not parquet");
  dir.AddText("k=2/.hidden.parquet", "not parquet");
  dir.AddText("_SUCCESS", "");
  dir.AddText("_temporary/k=9/x.parquet", "not parquet");
  auto dataset = Dataset::Open(dir.path());
  ASSERT_EQ(dataset->files().size(), 3u);
  EXPECT_EQ(Relative(dataset->files()[0].path, dir.path()), "k=1/a.parquet");
  EXPECT_EQ(Relative(dataset->files()[1].path, dir.path()), "k=2/b.parq");
  EXPECT_EQ(Relative(dataset->files()[2].path, dir.path()), "k=3/part-00000");
  EXPECT_EQ(dataset->files()[2].partition_values[0], Value::Bigint(3));
}

TEST(DatasetTest, PartitionTypeInference) {
  TempDir dir;
  dir.Add("d=2024-01-31/n=-5/s=abc/x=__HIVE_DEFAULT_PARTITION__/f.parquet", kEscapingFile);
  dir.Add("d=2023-12-01/n=99999999999/s=12/x=__HIVE_DEFAULT_PARTITION__/f.parquet", kEscapingFile);
  dir.Add("d=__HIVE_DEFAULT_PARTITION__/n=0/s=/x=__HIVE_DEFAULT_PARTITION__/f.parquet",
          kEscapingFile);
  auto dataset = Dataset::Open(dir.path());
  ASSERT_EQ(dataset->num_partition_columns(), 4u);
  const auto& cols = dataset->columns();
  ASSERT_EQ(cols.size(), 6u);
  EXPECT_EQ(cols[2].name, "d");
  EXPECT_EQ(cols[2].type, LogicalType::Date());
  EXPECT_EQ(cols[3].type, LogicalType::Bigint());
  EXPECT_EQ(cols[4].type, LogicalType::Varchar());
  EXPECT_EQ(cols[5].type, LogicalType::Varchar());  // all NULL
  // Files sort by path: d=2023... first.
  const auto& first = dataset->files()[0].partition_values;
  EXPECT_EQ(first[0].ToString(), "2023-12-01");
  EXPECT_EQ(first[1], Value::Bigint(99999999999));
  EXPECT_EQ(first[2], Value::Varchar("12"));
  EXPECT_TRUE(first[3].is_null());
  const auto& last = dataset->files()[2].partition_values;
  EXPECT_TRUE(last[0].is_null());
  EXPECT_EQ(last[2], Value::Varchar(""));
}

TEST(DatasetTest, PlainDirectoriesAboveOrBelowPartitionsAreFine) {
  TempDir dir;
  dir.Add("batch1/year=2020/f.parquet", kYearMonthFile);
  dir.Add("batch2/year=2021/sub/f.parquet", kYearMonthFile);
  dir.Add("batch2/year=2022/f.parquet", kYearMonthFile);
  auto dataset = Dataset::Open(dir.path());
  ASSERT_EQ(dataset->num_partition_columns(), 1u);
  EXPECT_EQ(dataset->columns().back().name, "year");
  EXPECT_EQ(dataset->files()[1].partition_values[0], Value::Bigint(2021));
}

TEST(DatasetTest, MissingKeyIsALayoutError) {
  TempDir dir;
  dir.Add("year=2022/month=1/f.parquet", kYearMonthFile);
  std::string bad = dir.Add("year=2023/f.parquet", kYearMonthFile);
  ExpectError<InvalidInputError>([&] { Dataset::Open(dir.path()); }, {bad, "[year, month]"});
}

TEST(DatasetTest, KeyOrderIsALayoutError) {
  TempDir dir;
  std::string bad = dir.Add("month=1/year=2022/f.parquet", kYearMonthFile);
  dir.Add("year=2023/month=2/f.parquet", kYearMonthFile);
  // Sorted paths: the month=... file comes first and sets the expected layout.
  ExpectError<InvalidInputError>([&] { Dataset::Open(dir.path()); },
                                 {dir.path() + "/year=2023/month=2/f.parquet", "[month, year]"});
  (void)bad;
}

TEST(DatasetTest, FileOutsideThePartitionsIsALayoutError) {
  TempDir dir;
  dir.Add("year=2022/f.parquet", kYearMonthFile);
  std::string bad = dir.Add("other/f.parquet", kYearMonthFile);
  ExpectError<InvalidInputError>([&] { Dataset::Open(dir.path()); }, {bad, "[year]"});
  TempDir flat;
  flat.Add("year=2022/f.parquet", kYearMonthFile);
  std::string top = flat.Add("f.parquet", kYearMonthFile);
  ExpectError<InvalidInputError>([&] { Dataset::Open(flat.path()); }, {top, "[year]"});
}

TEST(DatasetTest, PlainAndKeyValueLevelsAtOneDepthAreAnError) {
  TempDir dir;
  dir.Add("extra/year=2022/f.parquet", kYearMonthFile);
  std::string bad = dir.Add("year=2023/sub/f.parquet", kYearMonthFile);
  ExpectError<InvalidInputError>([&] { Dataset::Open(dir.path()); },
                                 {bad, "[year]", "'extra'", "'year=2023'"});
}

TEST(DatasetTest, LayoutIsNotCheckedWithHiveOff) {
  TempDir dir;
  dir.Add("year=2022/month=1/f.parquet", kYearMonthFile);
  dir.Add("other/f.parquet", kYearMonthFile);
  DatasetOptions options;
  options.hive_partitioning = false;
  auto dataset = Dataset::Open(dir.path(), options);
  EXPECT_EQ(dataset->files().size(), 2u);
  EXPECT_EQ(dataset->num_partition_columns(), 0u);
}

TEST(DatasetTest, BadEscapeNamesTheFile) {
  TempDir dir;
  std::string bad = dir.Add("k=50%/f.parquet", kYearMonthFile);
  ExpectError<InvalidInputError>([&] { Dataset::Open(dir.path()); }, {bad, "'50%'"});
}

TEST(DatasetTest, PartitionKeyThatIsAlsoAFileColumn) {
  TempDir dir;
  std::string file = dir.Add("ID=1/f.parquet", kYearMonthFile);
  ExpectError<InvalidInputError>([&] { Dataset::Open(dir.path()); }, {"'ID'", "'id'", file});
}

TEST(DatasetTest, UnionByName) {
  TempDir dir;
  // a.parquet: id, region, amount, ts; b.parquet: id, payload.
  std::string a = dir.Add("a.parquet", kYearMonthFile);
  std::string b = dir.Add("b.parquet", kEscapingFile);
  DatasetOptions unify;
  unify.union_by_name = true;
  auto dataset = Dataset::Open(dir.path(), unify);
  std::vector<std::string> names;
  for (const auto& c : dataset->columns())
    names.push_back(c.name);
  EXPECT_EQ(names, (std::vector<std::string>{"id", "region", "amount", "ts", "payload"}));
  EXPECT_EQ(dataset->files()[0].column_map, (std::vector<int>{0, 1, 2, 3, -1}));
  EXPECT_EQ(dataset->files()[1].column_map, (std::vector<int>{0, -1, -1, -1, 1}));

  DatasetOptions strict_all = AllFooters();
  strict_all.union_by_name = false;
  ExpectError<InvalidInputError>([&] { Dataset::Open(dir.path(), strict_all); },
                                 {b, "'payload'", a});
  // Identical files are fine without union_by_name.
  auto same = Dataset::Open(kYearMonth, strict_all);
  EXPECT_EQ(same->files().size(), 13u);

  // By default the first file gives the schema: b's missing columns read as NULL, its extra
  // one is not seen; with union_by_name = false opening b is an error.
  auto first = Dataset::Open(dir.path());
  ASSERT_EQ(first->columns().size(), 4u);
  first->OpenFile(1);
  EXPECT_EQ(first->files()[1].column_map, (std::vector<int>{0, -1, -1, -1}));
  DatasetOptions strict;
  strict.union_by_name = false;
  auto checked = Dataset::Open(dir.path(), strict);
  ExpectError<InvalidInputError>([&] { checked->OpenFile(1); }, {b, "'region'", a});
}

TEST(DatasetTest, ColumnsMatchCaseInsensitively) {
  REQUIRE_FIXTURE(bloom, "bloom_filter.parquet");  // id BIGINT, city, code, big_code
  TempDir dir;
  dir.Add("a.parquet", kEscapingFile);  // id INTEGER, payload
  std::string b = dir.Add("b.parquet", bloom);
  DatasetOptions unify;
  unify.union_by_name = true;
  auto dataset = Dataset::Open(dir.path(), unify);
  // INTEGER + BIGINT widen; the first file's spelling and order lead.
  ASSERT_GE(dataset->columns().size(), 3u);
  EXPECT_EQ(dataset->columns()[0].name, "id");
  EXPECT_EQ(dataset->columns()[0].type, LogicalType::Bigint());
  EXPECT_EQ(dataset->columns()[1].name, "payload");
  EXPECT_EQ(dataset->files()[1].column_map[0], 0);
  EXPECT_EQ(dataset->files()[1].column_map[1], -1);
  // From the first file's schema alone, id is INTEGER, and b's BIGINT id does not fit it.
  auto first = Dataset::Open(dir.path());
  EXPECT_EQ(first->columns()[0].type, LogicalType::Integer());
  ExpectError<InvalidInputError>([&] { first->OpenFile(1); },
                                 {"'id'", "INTEGER", "BIGINT", b, "union_by_name = true"});
}

TEST(DatasetTest, DecimalsWiden) {
  REQUIRE_FIXTURE(narrow, "int32_decimal.parquet");  // value DECIMAL(4,2)
  REQUIRE_FIXTURE(wide, "int64_decimal.parquet");    // value DECIMAL(10,2)
  auto narrow_type = parquet::ParquetFile::Open(narrow)->columns()[0].type;
  auto wide_type = parquet::ParquetFile::Open(wide)->columns()[0].type;
  if (narrow_type.id() != TypeId::kDecimal || wide_type.id() != TypeId::kDecimal) {
    GTEST_SKIP() << "the decimal fixtures do not read as DECIMAL";
  }
  TempDir dir;
  dir.Add("a.parquet", narrow);
  dir.Add("b.parquet", wide);
  auto dataset = Dataset::Open(dir.path(), AllFooters());
  ASSERT_EQ(dataset->columns().size(), 1u);
  int scale = std::max(narrow_type.scale(), wide_type.scale());
  int digits = std::max(narrow_type.precision() - narrow_type.scale(),
                        wide_type.precision() - wide_type.scale());
  EXPECT_EQ(dataset->columns()[0].type, LogicalType::Decimal(digits + scale, scale));
}

TEST(DatasetTest, TypeMismatchNamesBothFilesAndTypes) {
  // Two fixtures with a column of the same name and incompatible types: string columns that
  // are BLOB (no UTF8 annotation) in one and VARCHAR in the other, or d BOOLEAN vs DATE.
  std::vector<std::pair<std::string, std::string>> pairs = {
      {"alltypes_plain.parquet", "alltypes_tiny_pages.parquet"},
      {"datapage_v2.snappy.parquet", "row_groups_sorted.parquet"},
  };
  std::string first, second;
  for (const auto& [x, y] : pairs) {
    first = FindFixture(x);
    second = FindFixture(y);
    if (!first.empty() && !second.empty()) break;
  }
  if (first.empty() || second.empty()) GTEST_SKIP() << "no fixture pair with a type mismatch";
  TempDir dir;
  std::string a = dir.Add("a.parquet", first);
  std::string b = dir.Add("b.parquet", second);
  // The expected conflict: the first column of b whose type does not combine with a's.
  auto fa = parquet::ParquetFile::Open(a);
  auto fb = parquet::ParquetFile::Open(b);
  std::string column, type_a, type_b;
  for (const auto& cb : fb->columns()) {
    int ia = fa->FindColumn(cb.name);
    if (ia < 0 || !cb.type.valid()) continue;
    const auto& ta = fa->columns()[ia].type;
    if (!ta.valid() || ta == cb.type || ta.id() == TypeId::kDecimal) continue;
    bool both_int = (ta.id() == TypeId::kInteger || ta.id() == TypeId::kBigint) &&
                    (cb.type.id() == TypeId::kInteger || cb.type.id() == TypeId::kBigint);
    if (both_int) continue;
    column = fa->columns()[ia].name;
    type_a = ta.ToString();
    type_b = cb.type.ToString();
    break;
  }
  if (column.empty()) GTEST_SKIP() << "the fixtures read with compatible types";
  ExpectError<InvalidInputError>([&] { Dataset::Open(dir.path(), AllFooters()); },
                                 {a, b, "'" + column + "'", type_a, type_b});
  // Reading only the first footer finds the conflict when the scan opens b.
  auto lazy = Dataset::Open(dir.path());
  ExpectError<InvalidInputError>([&] { lazy->OpenFile(1); },
                                 {a, b, "'" + column + "'", type_a, type_b});
}

TEST(DatasetTest, UnsupportedColumnsStayInTheSchema) {
  // A MAP group without its value: a nested shape shears does not read.
  const std::string nested = test::DataDir() + "/hostile/parquet/nested_map_without_value.parquet";
  auto file = parquet::ParquetFile::Open(nested);
  auto dataset = Dataset::Open(nested);
  ASSERT_EQ(dataset->columns().size(), file->columns().size());
  int unsupported = 0;
  for (size_t i = 0; i < file->columns().size(); i++) {
    const auto& column = dataset->columns()[i];
    EXPECT_EQ(column.name, file->columns()[i].name);
    EXPECT_EQ(column.type.valid(), file->columns()[i].type.valid());
    if (!column.type.valid()) {
      unsupported++;
      EXPECT_NE(column.unsupported_reason.find(nested), std::string::npos)
          << column.unsupported_reason;
    }
  }
  EXPECT_GT(unsupported, 0);
}

size_t OpenDescriptors() {
  size_t n = 0;
  for (auto it = fs::directory_iterator("/proc/self/fd"); it != fs::directory_iterator(); ++it)
    n++;
  return n;
}

TEST(DatasetTest, ManyFilesHoldNoDescriptors) {
  if (!fs::is_directory("/proc/self/fd")) GTEST_SKIP() << "no /proc/self/fd";
  TempDir dir;
  const int kFiles = 1500;
  std::string source = dir.Add("source.bin", kYearMonthFile);
  for (int i = 0; i < kFiles; i++) {
    fs::path target = fs::path(dir.path()) / "data" / fmt::format("part={}", i % 50) /
                      fmt::format("f{:05}.parquet", i);
    fs::create_directories(target.parent_path());
    std::error_code ec;
    fs::create_hard_link(source, target, ec);
    if (ec) fs::copy_file(source, target);
  }
  size_t before = OpenDescriptors();
  auto dataset = Dataset::Open(dir.path() + "/data");
  EXPECT_EQ(OpenDescriptors(), before);
  ASSERT_EQ(dataset->files().size(), size_t(kFiles));
  EXPECT_EQ(dataset->total_rows(), int64_t(kFiles) * 10);
  EXPECT_EQ(dataset->columns().back().type, LogicalType::Bigint());
  for (size_t i = 1; i < dataset->files().size(); i++) {
    EXPECT_LT(dataset->files()[i - 1].path, dataset->files()[i].path);
  }
}

// Lazy listing estimates rows from a few sampled directories. The NULL partition
// (`__HIVE_DEFAULT_PARTITION__`, the rows lacking the key) is often unlike the others: it counts
// as itself, not as the average of every directory.
TEST(DatasetHiveTest, LazyEstimateKeepsTheNullPartitionApart) {
  TempDir dir;
  const int kDays = 40, kNullFiles = 60;
  for (int d = 0; d < kDays; d++)
    dir.Add(fmt::format("data/day={:03d}/a.parquet", d), kYearMonthFile);
  for (int f = 0; f < kNullFiles; f++)
    dir.Add(fmt::format("data/day={}/f{:02d}.parquet", kHiveNullPartition, f), kYearMonthFile);
  DatasetOptions options;
  options.lazy_listing = true;
  auto lazy = Dataset::Open(dir.path() + "/data", options);
  ASSERT_FALSE(lazy->files_listed());
  const int64_t actual = Dataset::Open(dir.path() + "/data", AllFooters())->total_rows();
  // With the NULL directory as one of five samples the estimate was ~13x too large.
  EXPECT_NEAR(static_cast<double>(lazy->total_rows()), static_cast<double>(actual),
              0.25 * static_cast<double>(actual));
}

// A first partition of one row says little of the bytes a row takes (its data is mostly page
// headers, capped by the plain width of a row): when a sampled file is much larger, its footer
// calibrates the estimate. Dictionary-encoded columns make the rows of the large files a few
// bytes each; the first file alone put the estimate about 3x too low.
TEST(DatasetHiveTest, LazyEstimateCalibratesOnALargerFileWhenTheFirstIsTiny) {
  TempDir dir;
  Database database(dir.path() + "/db");
  Connection connection(database);
  // One writer thread: one file per partition, whatever the machine (files split between
  // threads vary in size from run to run, and so would the estimate).
  connection.Query("SET threads = 1");
  connection.Query(
      "COPY (SELECT CASE WHEN x = 0 THEN 0 ELSE 1 + x % 40 END AS day, x % 7 AS a, "
      "CAST(x % 5 AS VARCHAR) AS b, x % 11 AS c FROM range(80001) r(x)) TO '" +
      dir.path() + "/data' (FORMAT parquet, PARTITION_BY (day))");
  DatasetOptions options;
  options.lazy_listing = true;
  auto lazy = Dataset::Open(dir.path() + "/data", options);
  ASSERT_FALSE(lazy->files_listed());
  EXPECT_NEAR(static_cast<double>(lazy->total_rows()), 80001.0, 0.25 * 80001.0);
}

TEST(DatasetTest, CorruptFileIsNamed) {
  TempDir dir;
  dir.Add("a.parquet", kYearMonthFile);
  dir.AddText("b.parquet", "this is not parquet at all");
  auto first = Dataset::Open(dir.path());  // reads a's footer only
  for (int all = 0; all < 2; all++) {
    try {
      if (all) {
        Dataset::Open(dir.path(), AllFooters());
      } else {
        first->OpenFile(1);
      }
      FAIL() << "no error";
    } catch (const Error& e) {
      EXPECT_TRUE(e.IsUserError());
      EXPECT_NE(std::string(e.what()).find("b.parquet"), std::string::npos) << e.what();
    }
  }
}

// Hundreds of files are opened on several threads; the result and, on failure, the error are
// those of a serial pass in path order.
TEST(DatasetTest, ManyFilesOpenInParallelInPathOrder) {
  TempDir dir;
  for (int k = 0; k < 300; k++)
    dir.Add(fmt::format("k={:03d}/a.parquet", k), kYearMonthFile);
  auto dataset = Dataset::Open(dir.path(), AllFooters());
  ASSERT_EQ(dataset->files().size(), 300u);
  const int64_t rows = dataset->files()[0].num_rows;
  EXPECT_GT(rows, 0);
  for (size_t i = 0; i < 300; i++) {
    EXPECT_EQ(Relative(dataset->files()[i].path, dir.path()), fmt::format("k={:03d}/a.parquet", i));
    EXPECT_EQ(dataset->files()[i].num_rows, rows);
    EXPECT_EQ(dataset->files()[i].partition_values[0], Value::Bigint(static_cast<int64_t>(i)));
  }
  EXPECT_EQ(dataset->total_rows(), 300 * rows);
  // Partition statistics are computed once, with the partition index.
  const DatasetColumnStatistics& k = dataset->partition_statistics(0);
  EXPECT_EQ(k.distinct_count, 300);
  EXPECT_EQ(k.null_count, 0);
  EXPECT_EQ(k.min, Value::Bigint(0));
  EXPECT_EQ(k.max, Value::Bigint(299));

  dir.AddText("k=250/b.parquet", "not parquet at all");
  dir.AddText("k=120/b.parquet", "also not parquet");
  try {
    Dataset::Open(dir.path(), AllFooters());
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("k=120/b.parquet"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace shears

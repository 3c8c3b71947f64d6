// The catalog store and external tables: persistence across reopening, transactions, typed
// errors for bad definitions and damaged catalogs, and RECOVER PARTITIONS after the directory
// changed.

#include "catalog/catalog.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <xxhash.h>

#include <filesystem>
#include <fstream>

#include "catalog/hyperloglog.h"
#include "common/error.h"
#include "main/connection.h"
#include "storage/dataset.h"
#include "test_util.h"

namespace shears {
namespace {

namespace fs = std::filesystem;

const std::string kYearMonth = test::DataDir() + "/hive/hive_year_month";
const std::string kYearMonthFile = kYearMonth + "/year=2022/month=1/data_0.parquet";

/// Runs `fn`, expecting an error of type E whose message contains `part`.
template <typename E, typename Fn>
void ExpectError(Fn fn, const std::string& part) {
  try {
    fn();
    ADD_FAILURE() << "no error; expected one containing '" << part << "'";
  } catch (const E& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong error type: " << e.what();
  }
}

std::string Scalar(Connection& connection, const std::string& sql) {
  auto rows = connection.Query(sql).ToStrings();
  return rows.size() == 1 && rows[0].size() == 1 ? rows[0][0] : "<not one value>";
}

TEST(CatalogTest, TablesAndViewsPersistAcrossReopen) {
  test::TempDir dir;
  const std::string db_dir = dir.path() + "/db";
  {
    Database database(db_dir);
    Connection connection(database);
    connection.Query("CREATE EXTERNAL TABLE sales STORED AS PARQUET LOCATION '" + kYearMonth + "'");
    connection.Query("CREATE VIEW recent AS SELECT * FROM sales WHERE year >= 2023");
  }
  EXPECT_TRUE(fs::exists(db_dir + "/catalog.db"));
  Database database(db_dir);
  Connection connection(database);
  EXPECT_EQ(Scalar(connection, "SELECT count(*) FROM sales"), "126");
  EXPECT_EQ(Scalar(connection, "SELECT count(*) FROM recent"), "80");
  auto tables = connection.Query("SHOW TABLES").ToStrings();
  ASSERT_EQ(tables.size(), 2u);
  EXPECT_EQ(tables[0], (std::vector<std::string>{"recent", "view"}));
  EXPECT_EQ(tables[1], (std::vector<std::string>{"sales", "table"}));
  connection.Query("DROP VIEW recent; DROP TABLE sales");
  Database reopened(db_dir);
  Connection again(reopened);
  EXPECT_EQ(again.Query("SHOW TABLES").row_count(), 0u);
}

TEST(CatalogTest, StatisticsPersistPerLevel) {
  test::TempDir dir;
  {
    Database database(dir.path() + "/db");
    Connection connection(database);
    connection.Query("CREATE EXTERNAL TABLE sales STORED AS PARQUET LOCATION '" + kYearMonth +
                     "'; ANALYZE sales");
  }
  Database database(dir.path() + "/db");
  Connection connection(database);
  // 13 partitions x 6 columns (4 file columns, 2 partition columns); 13 files x 4 columns.
  EXPECT_EQ(connection.Query("SHOW STATS sales PARTITIONS").row_count(), 78u);
  EXPECT_EQ(connection.Query("SHOW STATS sales FILES").row_count(), 52u);
  auto table = database.catalog().FindTable("sales");
  ASSERT_TRUE(table && table->statistics);
  EXPECT_EQ(table->statistics->row_count, 126);
  EXPECT_EQ(table->statistics->columns[1].column, "region");
  EXPECT_EQ(table->statistics->columns[1].distinct_count, 4);
  auto files = database.catalog().GetStatistics("sales", "file");
  ASSERT_EQ(files.size(), 13u);
  EXPECT_EQ(files[0].path, "year=2022/month=1/data_0.parquet");
  EXPECT_EQ(files[0].row_count, 10);
  EXPECT_EQ(files[0].columns[0].min, "0");
  EXPECT_EQ(files[0].columns[0].max, "9");
}

TEST(CatalogTest, HyperLogLogEstimatesWithinAFewPercent) {
  for (int64_t n : {10, 1000, 100000}) {
    HyperLogLog sketch, half;
    for (int64_t i = 0; i < n; i++) {
      const uint64_t hash = XXH64(&i, sizeof(i), 0);
      sketch.AddHash(hash);
      sketch.AddHash(hash);  // duplicates do not count
      if (i % 2 == 0) half.AddHash(hash);
    }
    EXPECT_NEAR(static_cast<double>(sketch.Estimate()), static_cast<double>(n), n * 0.05 + 1);
    half.Merge(sketch);
    EXPECT_EQ(half.Estimate(), sketch.Estimate());
  }
}

TEST(CatalogTest, SecondConnectionSeesChangesOfTheFirst) {
  // Two Databases on one directory act like two processes: the cached partition list of one is
  // dropped when the other changes catalog.db.
  test::TempDir dir;
  dir.Add("t/year=2022/month=1/data_0.parquet", kYearMonthFile);
  Database first(dir.path() + "/db"), second(dir.path() + "/db");
  Connection a(first), b(second);
  a.Query("CREATE EXTERNAL TABLE t STORED AS PARQUET LOCATION '" + dir.path() + "/t'");
  EXPECT_EQ(Scalar(b, "SELECT count(*) FROM t"), "10");
  dir.Add("t/year=2022/month=4/data_0.parquet", kYearMonth + "/year=2022/month=4/data_0.parquet");
  a.Query("MSCK REPAIR TABLE t");
  EXPECT_EQ(Scalar(b, "SELECT count(*) FROM t"), "20");
  a.Query("DROP TABLE t");
  ExpectError<BinderError>([&] { b.Query("SELECT count(*) FROM t"); }, "does not exist");
}

TEST(CatalogTest, InMemoryCatalogIsPerDatabase) {
  Database first;
  Connection connection(first);
  connection.Query("CREATE EXTERNAL TABLE t STORED AS PARQUET LOCATION '" + kYearMonth + "'");
  Database second;
  Connection other(second);
  EXPECT_EQ(other.Query("SHOW TABLES").row_count(), 0u);
}

TEST(CatalogTest, DefinitionErrors) {
  Database database;
  Connection connection(database);
  const std::string create = "CREATE EXTERNAL TABLE t STORED AS PARQUET LOCATION '";
  connection.Query(create + kYearMonth + "'");
  ExpectError<BinderError>([&] { connection.Query(create + kYearMonth + "'"); },
                           "'t' already exists");
  // IF NOT EXISTS keeps the first.
  connection.Query("CREATE EXTERNAL TABLE IF NOT EXISTS t STORED AS PARQUET LOCATION '/nowhere'");
  ExpectError<IOError>(
      [&] {
        connection.Query("CREATE EXTERNAL TABLE u STORED AS PARQUET LOCATION '/no/such/dir'");
      },
      "LOCATION '/no/such/dir' does not exist");
  ExpectError<InvalidInputError>(
      [&] {
        connection.Query(create.substr(0, 22) + "u STORED AS PARQUET LOCATION '" + kYearMonthFile +
                         "'");
      },
      "is a file");
  ExpectError<InvalidInputError>(
      [&] {
        connection.Query(
            "CREATE EXTERNAL TABLE u (id INTEGER, nope VARCHAR) STORED AS PARQUET "
            "LOCATION '" +
            kYearMonth + "'");
      },
      "column 'nope' of table 'u' is not in the files");
  ExpectError<InvalidInputError>(
      [&] {
        connection.Query("CREATE EXTERNAL TABLE u (id VARCHAR) STORED AS PARQUET LOCATION '" +
                         kYearMonth + "'");
      },
      "declared as VARCHAR but the files under");
  ExpectError<InvalidInputError>(
      [&] {
        connection.Query(
            "CREATE EXTERNAL TABLE u STORED AS PARQUET PARTITIONED BY (month) "
            "LOCATION '" +
            kYearMonth + "'");
      },
      "PARTITIONED BY (month) does not match");
  ExpectError<BinderError>([&] { connection.Query("DESCRIBE nothing"); },
                           "table 'nothing' does not exist");
  ExpectError<BinderError>([&] { connection.Query("DROP TABLE nothing"); },
                           "table 'nothing' does not exist");
  connection.Query("DROP TABLE IF EXISTS nothing");
  ExpectError<ParseError>([&] { connection.Query("CREATE EXTERNAL TABLE u STORED AS PARQUET"); },
                          "needs LOCATION 'directory'");
  ExpectError<NotSupportedError>(
      [&] { connection.Query("CREATE EXTERNAL TABLE u STORED AS ORC LOCATION 'x'"); },
      "only STORED AS PARQUET");
  ExpectError<ParseError>([&] { connection.Query("SHOW PARTITIONS"); },
                          "expected a table name but found the end of the statement");
}

TEST(CatalogTest, DamagedCatalogIsATypedError) {
  test::TempDir dir;
  dir.AddText("db/catalog.db",
              "this is not an SQLite database, but it is long enough to look "
              "like one might be: 0123456789012345678901234567890123456789");
  ExpectError<CorruptFileError>([&] { Database database(dir.path() + "/db"); }, "catalog");
  dir.AddText("file", "x");
  ExpectError<IOError>([&] { Database database(dir.path() + "/file"); }, "is not a directory");
}

void ExecSqlite(const std::string& file, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
}

TEST(CatalogTest, ForeignOrNewerSqliteFileIsRefused) {
  test::TempDir dir;
  fs::create_directories(dir.path() + "/other");
  ExecSqlite(dir.path() + "/other/catalog.db", "CREATE TABLE t (x INTEGER)");
  ExpectError<CorruptFileError>([&] { Catalog::Open(dir.path() + "/other"); },
                                "not a shears catalog");
  Catalog::Open(dir.path() + "/db");
  ExecSqlite(dir.path() + "/db/catalog.db", "UPDATE meta SET value = '99'");
  ExpectError<NotSupportedError>([&] { Catalog::Open(dir.path() + "/db"); }, "schema version 99");
}

TEST(CatalogTest, SchemasPersistAcrossReopen) {
  test::TempDir dir;
  const std::string db_dir = dir.path() + "/db";
  std::string location;
  {
    Database database(db_dir);
    Connection connection(database);
    connection.Query(
        "CREATE TABLE t AS SELECT 1 AS a; CREATE SCHEMA s; CREATE TABLE s.t AS SELECT 2 AS a; "
        "CREATE VIEW s.v AS SELECT a + 1 AS b FROM s.t; CREATE SEQUENCE s.q START 10; "
        "CREATE MACRO s.m(x) AS x * 3; CREATE SCHEMA e");
    location = database.catalog().FindTable("s.t")->location;
  }
  Database database(db_dir);
  Connection connection(database);
  EXPECT_EQ(Scalar(connection, "SELECT a FROM t"), "1");
  EXPECT_EQ(Scalar(connection, "SELECT a FROM s.t"), "2");
  EXPECT_EQ(Scalar(connection, "SELECT b FROM s.v"), "3");
  EXPECT_EQ(Scalar(connection, "SELECT nextval('s.q')"), "10");
  EXPECT_EQ(Scalar(connection, "SELECT s.m(2)"), "6");
  EXPECT_EQ(database.catalog().ListSchemas(), (std::vector<std::string>{"main", "e", "s"}));
  // CASCADE drops the schema's objects and deletes its managed tables' files.
  ASSERT_TRUE(fs::exists(location));
  ExpectError<BinderError>([&] { connection.Query("DROP SCHEMA s"); }, "is not empty");
  connection.Query("DROP SCHEMA s CASCADE; DROP SCHEMA e");
  EXPECT_FALSE(fs::exists(location));
  Database reopened(db_dir);
  Connection again(reopened);
  EXPECT_EQ(reopened.catalog().ListSchemas(), (std::vector<std::string>{"main"}));
  EXPECT_EQ(Scalar(again, "SELECT a FROM t"), "1");
  ExpectError<BinderError>([&] { again.Query("SELECT * FROM s.t"); }, "schema 's' does not exist");
}

TEST(CatalogTest, CatalogWithoutSchemasOpens) {
  // A catalog written before schemas (version 8: no schemas table) opens, its objects in main.
  test::TempDir dir;
  const std::string db_dir = dir.path() + "/db";
  {
    Database database(db_dir);
    Connection connection(database);
    connection.Query("CREATE TABLE t AS SELECT 1 AS a");
  }
  ExecSqlite(db_dir + "/catalog.db",
             "DROP TABLE schemas; UPDATE meta SET value = '8' WHERE key = 'schema_version'");
  Database database(db_dir);
  Connection connection(database);
  EXPECT_EQ(Scalar(connection, "SELECT a FROM main.t"), "1");
  connection.Query("CREATE SCHEMA s; CREATE TABLE s.t AS SELECT 2 AS a");
  EXPECT_EQ(Scalar(connection, "SELECT a FROM s.t"), "2");
}

TEST(CatalogTest, AttachDatabaseDirectory) {
  test::TempDir dir;
  const std::string other = dir.path() + "/other";
  {
    Database database(dir.path() + "/db");
    Connection connection(database);
    connection.Query("ATTACH '" + other + "' AS o");
    connection.Query(
        "CREATE TABLE o.t AS SELECT 5 AS a; CREATE SCHEMA o.s; "
        "CREATE TABLE o.s.u AS SELECT 6 AS b; CREATE TABLE t AS SELECT 1 AS a");
    EXPECT_EQ(Scalar(connection, "SELECT a FROM o.t"), "5");
    // Its managed tables live in its own directory.
    EXPECT_TRUE(fs::exists(other + "/tables"));
    EXPECT_EQ(database.catalog().FindTable("o.t")->location.rfind(other, 0), 0u);
    ExpectError<TransactionError>([&] { connection.Query("BEGIN; INSERT INTO o.t VALUES (7)"); },
                                  "attached database 'o'");
    connection.Query("ROLLBACK; DETACH o");
    ExpectError<BinderError>([&] { connection.Query("SELECT * FROM o.t"); }, "does not exist");
  }
  // The attached directory is a database of its own: opened directly, or attached read-only.
  {
    Database database(other);
    Connection connection(database);
    EXPECT_EQ(Scalar(connection, "SELECT a FROM t"), "5");
    EXPECT_EQ(Scalar(connection, "SELECT b FROM s.u"), "6");
  }
  Database database(dir.path() + "/db");
  Connection connection(database);
  connection.Query("ATTACH '" + other + "' (READ_ONLY)");  // named after the directory
  EXPECT_EQ(Scalar(connection, "SELECT b FROM other.s.u"), "6");
  ExpectError<InvalidInputError>([&] { connection.Query("INSERT INTO other.t VALUES (1)"); },
                                 "READ_ONLY");
  ExpectError<InvalidInputError>([&] { connection.Query("DROP TABLE other.t"); }, "READ_ONLY");
  EXPECT_EQ(connection.Query("SHOW DATABASES").row_count(), 2u);
  // A path with nothing there is a new shears database (a directory), whatever its extension,
  // as DuckDB creates a new file; READ_ONLY of nothing is an error.
  ExpectError<IOError>([&] { connection.Query("ATTACH '" + dir.path() + "/ro.db' (READ_ONLY)"); },
                       "no database");
  EXPECT_FALSE(fs::exists(dir.path() + "/ro.db"));
  ExpectError<IOError>([&] { connection.Query("ATTACH '" + dir.path() + "/no/such/x.db'"); },
                       "does not exist");
  EXPECT_FALSE(fs::exists(dir.path() + "/no"));
  connection.Query("ATTACH '" + dir.path() + "/x.duckdb' AS x; CREATE TABLE x.t AS SELECT 7 AS c");
  EXPECT_TRUE(fs::is_directory(dir.path() + "/x.duckdb"));
  connection.Query("ATTACH OR REPLACE '" + dir.path() + "/x.duckdb' AS x");
  EXPECT_EQ(Scalar(connection, "SELECT c FROM x.t"), "7");
  connection.Query("CHECKPOINT x; FORCE CHECKPOINT; CHECKPOINT");
  // SHOW TABLES lists the current database's (USE).
  connection.Query("USE x");
  EXPECT_EQ(connection.Query("SHOW TABLES").ToStrings(),
            (std::vector<std::vector<std::string>>{{"t", "table"}}));
  connection.Query("USE db");
  ExpectError<BinderError>([&] { connection.Query("CHECKPOINT nope"); }, "does not exist");
  connection.Query("DETACH x");
  connection.Query("ATTACH '" + dir.path() + "/x.duckdb' (READ_WRITE)");  // named x again
  EXPECT_EQ(Scalar(connection, "SELECT c FROM x.t"), "7");
  // DuckDB's and SQLite's files are named as such, not opened.
  dir.AddText("real.db", "12345678DUCKxxxxxxxx");
  ExpectError<InvalidInputError>(
      [&] { connection.Query("ATTACH '" + dir.path() + "/real.db' AS r"); }, "DuckDB database");
  dir.AddText("duck.bin", "12345678DUCKxxxxxxxx");
  ExpectError<InvalidInputError>(
      [&] { connection.Query("ATTACH '" + dir.path() + "/duck.bin' AS d"); }, "DuckDB database");
}

TEST(CatalogTest, RecoverPartitionsFollowsTheDirectory) {
  test::TempDir dir;
  const std::string table_dir = dir.path() + "/sales";
  dir.Add("sales/year=2022/month=1/data_0.parquet", kYearMonthFile);
  Database database;
  Connection connection(database);
  connection.Query(
      "CREATE EXTERNAL TABLE s STORED AS PARQUET PARTITIONED BY (year BIGINT, month "
      "BIGINT) LOCATION '" +
      table_dir + "'");
  EXPECT_EQ(Scalar(connection, "SELECT count(*) FROM s"), "10");
  // A new partition is invisible until RECOVER PARTITIONS: planning lists no directories.
  dir.Add("sales/year=2022/month=4/data_0.parquet",
          kYearMonth + "/year=2022/month=4/data_0.parquet");
  EXPECT_EQ(Scalar(connection, "SELECT count(*) FROM s"), "10");
  auto recovered = connection.Query("ALTER TABLE s RECOVER PARTITIONS").ToStrings();
  EXPECT_EQ(recovered[0], (std::vector<std::string>{"2", "1", "0", "2"}));
  EXPECT_EQ(Scalar(connection, "SELECT count(*) FROM s"), "20");
  EXPECT_EQ(connection.Query("SHOW PARTITIONS s").row_count(), 2u);
  // A removed partition: MSCK REPAIR TABLE drops it.
  fs::remove_all(table_dir + "/year=2022/month=1");
  recovered = connection.Query("MSCK REPAIR TABLE s").ToStrings();
  EXPECT_EQ(recovered[0], (std::vector<std::string>{"1", "0", "1", "1"}));
  EXPECT_EQ(Scalar(connection, "SELECT count(*) FROM s"), "10");
  // A file replaced behind the catalog's back is an error naming the fix, not a misread.
  dir.AddText("sales/year=2022/month=4/data_0.parquet", "PAR1 garbage");
  ExpectError<Error>([&] { connection.Query("SELECT count(*) FROM s"); }, "");
  // All files gone: the table stays, empty.
  fs::remove_all(table_dir + "/year=2022");
  connection.Query("MSCK REPAIR TABLE s");
  EXPECT_EQ(Scalar(connection, "SELECT count(*) FROM s"), "0");
}

TEST(CatalogTest, ChangedFileAsksForRecover) {
  test::TempDir dir;
  dir.Add("t/year=2022/month=1/data_0.parquet", kYearMonthFile);
  Database database;
  Connection connection(database);
  connection.Query("CREATE EXTERNAL TABLE t STORED AS PARQUET LOCATION '" + dir.path() + "/t'");
  dir.Add("t/year=2022/month=1/data_0.parquet", kYearMonth + "/year=2024/month=10/data_0.parquet");
  if (fs::file_size(kYearMonthFile) ==
      fs::file_size(kYearMonth + "/year=2024/month=10/data_0.parquet")) {
    GTEST_SKIP() << "fixture files have the same size";
  }
  ExpectError<IOError>([&] { connection.Query("SELECT count(*) FROM t WHERE id > 0"); },
                       "ALTER TABLE t RECOVER PARTITIONS");
  // The old file's bounds in the catalog would skip it unopened; its size tells it changed.
  ExpectError<IOError>([&] { connection.Query("SELECT count(*) FROM t WHERE id > 1000000000"); },
                       "ALTER TABLE t RECOVER PARTITIONS");
}

// A table's file statistics are read from the catalog when a scan first tests a file's, not
// when a query binds the table: a query filtering on partitions alone never reads them.
TEST(CatalogTest, FileStatisticsAreReadWhenAScanFirstTestsAFile) {
  auto database = std::make_unique<Database>();
  Connection connection(*database);
  connection.Query("CREATE EXTERNAL TABLE sales STORED AS PARQUET LOCATION '" + kYearMonth + "'");
  const auto dataset = database->catalog().TableDataset("sales");
  ASSERT_TRUE(dataset);
  EXPECT_EQ(Scalar(connection, "SELECT count(*) FROM sales WHERE year = 2023"), "40");
  EXPECT_EQ(Scalar(connection, "SELECT count(*) FROM sales"), "126");
  EXPECT_FALSE(dataset->statistics_loaded());
  // ids 40..79 are in 2023's four files: the other files' bounds skip them unopened.
  const auto plan = connection.Query("EXPLAIN ANALYZE SELECT count(*) FROM sales WHERE id = 50");
  EXPECT_TRUE(dataset->statistics_loaded());
  std::string text;
  for (const auto& row : plan.ToStrings()) {
    for (const auto& cell : row)
      text += cell + "\n";
  }
  EXPECT_NE(text.find("files_read: 1\n"), std::string::npos) << text;
  EXPECT_EQ(Scalar(connection, "SELECT count(*) FROM sales WHERE id = 50"), "1");

  // A dataset held past its catalog loads no statistics (it does not reach a catalog gone).
  auto fresh = std::make_unique<Database>();
  Connection other(*fresh);
  other.Query("CREATE EXTERNAL TABLE sales STORED AS PARQUET LOCATION '" + kYearMonth + "'");
  const auto orphan = fresh->catalog().TableDataset("sales");
  fresh.reset();
  EXPECT_EQ(orphan->file_statistics(0), nullptr);
  EXPECT_TRUE(orphan->statistics_loaded());
}

TEST(CatalogTest, EmptyLocationWithDeclaredColumns) {
  test::TempDir dir;
  fs::create_directories(dir.path() + "/empty");
  Database database;
  Connection connection(database);
  ExpectError<InvalidInputError>(
      [&] {
        connection.Query("CREATE EXTERNAL TABLE e STORED AS PARQUET LOCATION '" + dir.path() +
                         "/empty'");
      },
      "holds no Parquet files");
  connection.Query(
      "CREATE EXTERNAL TABLE e (id INTEGER, region VARCHAR) STORED AS PARQUET "
      "PARTITIONED BY (year BIGINT, month BIGINT) LOCATION '" +
      dir.path() + "/empty'");
  EXPECT_EQ(Scalar(connection, "SELECT count(*) FROM e"), "0");
  dir.Add("empty/year=2022/month=1/data_0.parquet", kYearMonthFile);
  connection.Query("MSCK REPAIR TABLE e");
  EXPECT_EQ(Scalar(connection, "SELECT count(*) FROM e WHERE year = 2022"), "10");
  EXPECT_EQ(Scalar(connection, "SELECT count(DISTINCT region) FROM e"),
            Scalar(connection, "SELECT count(DISTINCT region) FROM '" + kYearMonthFile + "'"));
}

}  // namespace
}  // namespace shears

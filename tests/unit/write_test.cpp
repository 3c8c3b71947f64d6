// Writes to managed tables: what the catalog records at write time, atomicity when the writing
// process is killed (the shears CLI, SIGKILLed mid-write, then the database reopened),
// recovery of leftovers, and readers that run while a writer commits.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include "catalog/catalog.h"
#include "catalog/staged_write.h"
#include "common/error.h"
#include "main/connection.h"
#include "test_util.h"

extern char** environ;

namespace shears {
namespace {

namespace fs = std::filesystem;

std::string Scalar(Connection& connection, const std::string& sql) {
  auto rows = connection.Query(sql).ToStrings();
  return rows.size() == 1 && rows[0].size() == 1 ? rows[0][0] : "<not one value>";
}

/// Every regular file below `dir` (absolute paths).
std::set<std::string> FilesBelow(const fs::path& dir) {
  std::set<std::string> files;
  std::error_code ec;
  if (!fs::exists(dir, ec)) return files;
  for (const auto& entry : fs::recursive_directory_iterator(dir, ec)) {
    if (entry.is_regular_file()) files.insert(entry.path().lexically_normal().string());
  }
  return files;
}

/// The files the catalog lists for `table` (absolute paths).
std::set<std::string> ListedFiles(Catalog& catalog, const std::string& table) {
  std::set<std::string> files;
  auto definition = catalog.FindTable(table);
  if (!definition) return files;
  for (const auto& partition : definition->partitions) {
    for (const auto& file : partition.files) {
      files.insert((fs::path(definition->location) / file.path).lexically_normal().string());
    }
  }
  return files;
}

// 1000 rows x = 0..999 from VALUES (range() is not needed).
constexpr const char* kThousand =
    "SELECT a.d * 100 + b.d * 10 + c.d AS x FROM (VALUES (0), (1), (2), (3), (4), (5), (6), (7), "
    "(8), (9)) a(d), (VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)) b(d), (VALUES (0), "
    "(1), (2), (3), (4), (5), (6), (7), (8), (9)) c(d)";

TEST(WriteTest, CatalogRecordsFilesAndStatisticsAtWriteTime) {
  test::TempDir dir;
  Database database(dir.path() + "/db");
  Connection connection(database);
  connection.Query(std::string("CREATE TABLE t PARTITIONED BY (p) AS SELECT x, x % 3 AS p, ") +
                   "CASE WHEN x % 2 = 0 THEN NULL ELSE 'v' || CAST(x AS VARCHAR) END AS s FROM (" +
                   kThousand + ") q");
  auto table = database.catalog().FindTable("t");
  ASSERT_TRUE(table);
  EXPECT_TRUE(table->managed);
  EXPECT_EQ(table->location, ManagedTableLocation(dir.path() + "/db", "t"));
  ASSERT_EQ(table->partitions.size(), 3u);
  EXPECT_EQ(table->partitions[0].path, "p=0");
  int64_t rows = 0;
  for (const auto& partition : table->partitions) {
    for (const auto& file : partition.files) {
      rows += file.num_rows;
      EXPECT_EQ(file.size, fs::file_size(fs::path(table->location) / file.path));
    }
  }
  EXPECT_EQ(rows, 1000);
  // Per-file statistics: rows, bytes, min/max/null count of every stored column.
  auto stats = database.catalog().GetStatistics("t", "file");
  ASSERT_FALSE(stats.empty());
  int64_t null_s = 0, stats_rows = 0;
  for (const auto& entry : stats) {
    stats_rows += entry.row_count;
    ASSERT_EQ(entry.columns.size(), 2u);
    EXPECT_EQ(entry.columns[0].column, "x");
    EXPECT_EQ(entry.columns[0].null_count, 0);
    EXPECT_TRUE(entry.columns[0].min && entry.columns[0].max);
    null_s += entry.columns[1].null_count;
  }
  EXPECT_EQ(stats_rows, 1000);
  EXPECT_EQ(null_s, 500);
  auto p0 = database.catalog().GetStatistics("t", "file");
  EXPECT_EQ(p0[0].path.rfind("p=0/", 0), 0u) << p0[0].path;
  EXPECT_EQ(p0[0].columns[0].min, "0");
  EXPECT_EQ(p0[0].columns[0].max, "999");
  // Nothing but the committed files, nothing left in staging.
  EXPECT_EQ(FilesBelow(table->location), ListedFiles(database.catalog(), "t"));
  EXPECT_TRUE(FilesBelow(dir.path() + "/db/staging").empty());
  // A failed write leaves no file behind.
  connection.Query("SET partitioned_write_max_partitions = 5");
  EXPECT_THROW(
      connection.Query(std::string("INSERT INTO t SELECT x, NULL, x FROM (") + kThousand + ") q"),
      InvalidInputError);
  EXPECT_EQ(FilesBelow(table->location), ListedFiles(database.catalog(), "t"));
  EXPECT_TRUE(FilesBelow(dir.path() + "/db/staging").empty());
  // DROP TABLE deletes the files.
  connection.Query("DROP TABLE t");
  EXPECT_FALSE(fs::exists(table->location));
}

TEST(WriteTest, ConstraintViolationsWriteNothing) {
  test::TempDir dir;
  Database database(dir.path() + "/db");
  Connection connection(database);
  connection.Query("CREATE TABLE k (a INTEGER PRIMARY KEY, b VARCHAR NOT NULL) PARTITIONED BY (b)");
  connection.Query("INSERT INTO k VALUES (1, 'x'), (2, 'y')");
  const auto table = database.catalog().FindTable("k");
  const auto listed = ListedFiles(database.catalog(), "k");
  EXPECT_THROW(connection.Query("INSERT INTO k VALUES (3, 'z'), (1, 'x')"), ConstraintError);
  EXPECT_THROW(connection.Query("INSERT INTO k VALUES (4, NULL)"), ConstraintError);
  EXPECT_THROW(connection.Query("INSERT INTO k (a) VALUES (5)"), ConstraintError);
  EXPECT_EQ(FilesBelow(table->location), listed);
  EXPECT_TRUE(FilesBelow(dir.path() + "/db/staging").empty());
  EXPECT_EQ(Scalar(connection, "SELECT count(*) FROM k"), "2");
  // The constraints survive reopening the catalog.
  Database reopened(dir.path() + "/db");
  Connection again(reopened);
  EXPECT_THROW(again.Query("INSERT INTO k VALUES (2, 'q')"), ConstraintError);
}

TEST(WriteTest, InMemoryDatabaseKeepsTablesInATemporaryDirectory) {
  std::string data;
  {
    Database database;
    Connection connection(database);
    connection.Query("CREATE TABLE t AS SELECT 1 AS a");
    EXPECT_EQ(Scalar(connection, "SELECT a FROM t"), "1");
    data = database.catalog().DataDirectory();
    EXPECT_TRUE(fs::exists(fs::path(data) / "tables" / "t"));
  }
  EXPECT_FALSE(fs::exists(data));
}

// CREATE TEMP TABLE in a database directory: a managed table for the life of the Database,
// dropped with its files when it closes; a persistent table of the same name afterwards stays.
TEST(WriteTest, TemporaryTablesEndWithTheDatabase) {
  test::TempDir dir;
  std::string location;
  {
    Database database(dir.path() + "/db");
    Connection connection(database);
    connection.Query("CREATE TEMP TABLE t AS SELECT 1 AS a");
    connection.Query("CREATE TEMPORARY TABLE u (x INTEGER)");
    connection.Query("INSERT INTO u VALUES (7)");
    EXPECT_EQ(Scalar(connection, "SELECT a + (SELECT x FROM u) FROM t"), "8");
    location = database.catalog().FindTable("t")->location;
    EXPECT_TRUE(fs::exists(location));
    // Dropped and created again as a persistent table: not dropped at close.
    connection.Query("DROP TABLE u");
    connection.Query("CREATE TABLE u AS SELECT 2 AS x");
  }
  EXPECT_FALSE(fs::exists(location));
  {
    Database reopened(dir.path() + "/db");
    EXPECT_FALSE(reopened.catalog().FindTable("t"));
    Connection connection(reopened);
    EXPECT_EQ(Scalar(connection, "SELECT x FROM u"), "2");
    // Replaced by CREATE OR REPLACE TEMP TABLE: temporary from then on, gone at the close.
    connection.Query("CREATE OR REPLACE TEMP TABLE u AS SELECT 3 AS x");
    EXPECT_EQ(Scalar(connection, "SELECT x FROM u"), "3");
  }
  Database again(dir.path() + "/db");
  EXPECT_FALSE(again.catalog().FindTable("u"));
}

// currval is per connection (DuckDB's session rule): another connection's nextval does not
// set it.
TEST(WriteTest, CurrvalIsPerConnection) {
  Database database;
  Connection first(database), second(database);
  first.Query("CREATE SEQUENCE s");
  EXPECT_EQ(Scalar(first, "SELECT nextval('s')"), "1");
  EXPECT_THROW(second.Query("SELECT currval('s')"), InvalidInputError);
  EXPECT_EQ(Scalar(second, "SELECT nextval('s')"), "2");
  EXPECT_EQ(Scalar(first, "SELECT currval('s')"), "1");
  EXPECT_EQ(Scalar(second, "SELECT currval('s')"), "2");
}

TEST(WriteTest, RecoveryDeletesUncommittedFilesAndOrphanDirectories) {
  test::TempDir dir;
  const std::string db = dir.path() + "/db";
  std::string location;
  {
    Database database(db);
    Connection connection(database);
    connection.Query("CREATE TABLE t AS SELECT 1 AS a");
    location = database.catalog().FindTable("t")->location;
  }
  // What a crash between the renames and the catalog commit leaves: a staging directory (its
  // writer gone, so its lock is free) whose manifest names a published file, and a table
  // directory no table owns (a CREATE TABLE that never committed).
  const fs::path staging = fs::path(db) / "staging" / "dead-write";
  fs::create_directories(staging);
  const fs::path orphan = fs::path(location) / "part-dead-0.parquet";
  fs::copy_file(*FilesBelow(location).begin(), orphan);
  {
    std::ofstream manifest(staging / "manifest");
    manifest << "t\t" << orphan.string() << "\n";
  }
  fs::create_directories(fs::path(db) / "tables" / "never_committed" / "p=1");
  std::ofstream(fs::path(db) / "tables" / "never_committed" / "p=1" / "f.parquet") << "x";
  Database database(db);
  Connection connection(database);
  EXPECT_FALSE(fs::exists(orphan));
  EXPECT_FALSE(fs::exists(staging));
  EXPECT_FALSE(fs::exists(fs::path(db) / "tables" / "never_committed"));
  EXPECT_EQ(FilesBelow(location), ListedFiles(database.catalog(), "t"));
  EXPECT_EQ(Scalar(connection, "SELECT count(*) FROM t"), "1");
}

TEST(WriteTest, RecoveryLeavesWritesInProgressAlone) {
  test::TempDir dir;
  const std::string db = dir.path() + "/db";
  { Database database(db); }
  StagedWrite write(db);  // a writer, alive
  std::ofstream(fs::path(write.directory()) / "part-0.parquet") << "being written";
  fs::create_directories(fs::path(db) / "tables" / "being_created");
  Database other(db);  // opening runs recovery, which must wait for another time
  EXPECT_TRUE(fs::exists(fs::path(write.directory()) / "part-0.parquet"));
  EXPECT_TRUE(fs::exists(fs::path(db) / "tables" / "being_created"));
}

TEST(WriteTest, VersionOneCatalogIsUpgraded) {
  test::TempDir dir;
  const std::string db = dir.path() + "/db";
  const std::string data = test::DataDir() + "/hive/hive_year_month";
  {
    Database database(db);
    Connection(database).Query("CREATE EXTERNAL TABLE sales STORED AS PARQUET LOCATION '" + data +
                               "'");
  }
  // Turn it into what shears wrote before managed tables: no tables.managed, no constraints
  // (columns.not_null, table_keys), version 1.
  sqlite3* handle = nullptr;
  ASSERT_EQ(sqlite3_open((db + "/catalog.db").c_str(), &handle), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(handle,
                         "ALTER TABLE tables DROP COLUMN managed; ALTER TABLE columns DROP COLUMN "
                         "not_null; ALTER TABLE columns DROP COLUMN default_sql; ALTER TABLE "
                         "columns DROP COLUMN generated_sql; DROP TABLE table_foreign_keys; DROP "
                         "TABLE table_keys; DROP TABLE sequences; DROP TABLE macro_parameters; "
                         "DROP TABLE macros; UPDATE meta SET value = '1' WHERE key = "
                         "'schema_version'",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(handle);
  Database database(db);
  Connection connection(database);
  EXPECT_EQ(Scalar(connection, "SELECT count(*) FROM sales"), "126");
  EXPECT_FALSE(database.catalog().FindTable("sales")->managed);
  connection.Query("CREATE TABLE t AS SELECT 1 AS a");
  EXPECT_TRUE(database.catalog().FindTable("t")->managed);
  // The upgraded catalog keeps constraints.
  connection.Query("CREATE TABLE k (a INTEGER PRIMARY KEY, b VARCHAR NOT NULL)");
  EXPECT_EQ(database.catalog().FindTable("k")->keys.size(), 1u);
  EXPECT_TRUE(database.catalog().FindTable("k")->columns[1].not_null);
  // ... and DEFAULTs, sequences and macros (versions 6 to 8).
  connection.Query("CREATE SEQUENCE s START 5");
  connection.Query("CREATE MACRO plus(a, b := 1) AS a + b");
  connection.Query("CREATE TABLE d (id BIGINT DEFAULT nextval('s'), v INTEGER DEFAULT plus(1))");
  connection.Query("INSERT INTO d DEFAULT VALUES");
  EXPECT_EQ(Scalar(connection, "SELECT id * 10 + v FROM d"), "52");
  // ... and generated columns and foreign keys (version 10).
  connection.Query("CREATE TABLE g (a INTEGER REFERENCES k (a), b AS (a * 2))");
  connection.Query("INSERT INTO k VALUES (4, 'x')");
  connection.Query("INSERT INTO g VALUES (4)");
  EXPECT_EQ(Scalar(connection, "SELECT b FROM g"), "8");
  EXPECT_THROW(connection.Query("INSERT INTO g VALUES (5)"), ConstraintError);
  // DROP of the external table keeps its files.
  connection.Query("DROP TABLE sales");
  EXPECT_TRUE(fs::exists(data));
}

/// The shears executable next to this test binary.
std::string ShearsBinary() {
  return (fs::read_symlink("/proc/self/exe").parent_path() / "shears").string();
}

pid_t Spawn(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const auto& arg : args)
    argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  return rc == 0 ? pid : -1;
}

TEST(WriteTest, KilledWriterLeavesTheTableAsItWas) {
  const std::string shears = ShearsBinary();
  if (!fs::exists(shears)) GTEST_SKIP() << "no shears executable at " << shears;
  test::TempDir dir;
  const std::string db = dir.path() + "/db";
  {
    Database database(db);
    Connection connection(database);
    connection.Query(std::string("CREATE TABLE seed AS ") + kThousand);
    connection.Query("CREATE TABLE t (x BIGINT, y BIGINT, p INTEGER) PARTITIONED BY (p)");
  }
  // Each INSERT adds 300,000 rows in 20 partitions (sum of x: 300 * 499500).
  const std::string insert =
      "INSERT INTO t SELECT a.x, b.x, CAST(a.x % 20 AS INTEGER) FROM seed a, seed b WHERE b.x < "
      "300";
  int64_t committed = 0;
  int killed_mid_write = 0;
  // Kill points: as soon as the first staged file exists, a little later, and (last round) never.
  for (int round = 0; round < 6; round++) {
    const pid_t pid = Spawn({shears, db, "-c", insert});
    ASSERT_GT(pid, 0);
    const bool kill_it = round < 5;
    if (kill_it) {
      const fs::path staging = fs::path(db) / "staging";
      int status = 0;
      bool exited = false;
      // Wait until the writer has staged a file (or has finished).
      while (!exited) {
        bool staged = false;
        for (const auto& file : FilesBelow(staging))
          staged |= file.ends_with(".parquet");
        if (staged) break;
        exited = waitpid(pid, &status, WNOHANG) == pid;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
      if (!exited) {
        std::this_thread::sleep_for(std::chrono::milliseconds(round * 40));
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        killed_mid_write += WIFSIGNALED(status) ? 1 : 0;
      }
    } else {
      int status = 0;
      waitpid(pid, &status, 0);
      ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    // Reopening recovers; the table holds whole INSERTs only, and only the files it lists.
    Database database(db);
    Connection connection(database);
    const int64_t count = std::stoll(Scalar(connection, "SELECT count(*) FROM t"));
    ASSERT_EQ(count % 300000, 0) << "round " << round;
    const int64_t inserts = count / 300000;
    EXPECT_TRUE(inserts == committed || inserts == committed + 1) << "round " << round;
    if (!kill_it) EXPECT_EQ(inserts, committed + 1);
    committed = inserts;
    EXPECT_EQ(Scalar(connection, "SELECT coalesce(sum(x), 0) FROM t"),
              std::to_string(inserts * 300 * 499500));
    const std::string location = database.catalog().FindTable("t")->location;
    EXPECT_EQ(FilesBelow(location), ListedFiles(database.catalog(), "t")) << "round " << round;
    EXPECT_TRUE(FilesBelow(fs::path(db) / "staging").empty()) << "round " << round;
  }
  // The kills are meant to land mid-write; a machine too fast for that still checked the rest.
  std::cerr << "writers killed mid-write: " << killed_mid_write
            << " of 5, inserts committed: " << committed << "\n";
}

TEST(WriteTest, TwoProcessesInsertingLoseNoInsert) {
  const std::string shears = ShearsBinary();
  if (!fs::exists(shears)) GTEST_SKIP() << "no shears executable at " << shears;
  test::TempDir dir;
  const std::string db = dir.path() + "/db";
  {
    Database database(db);
    Connection connection(database);
    connection.Query(std::string("CREATE TABLE seed AS ") + kThousand);
    connection.Query("CREATE TABLE t (x BIGINT, w INTEGER, p INTEGER) PARTITIONED BY (p)");
  }
  // Two shears processes, each 12 INSERTs of 1000 rows (tagged with the writer), with queries
  // of the table between them; this process reads the table meanwhile from a Database of its
  // own: every count it sees is whole INSERTs, never fewer than before.
  constexpr int kInserts = 12;
  std::vector<pid_t> writers;
  for (int w = 1; w <= 2; w++) {
    std::string script;
    for (int i = 0; i < kInserts; i++) {
      script += "INSERT INTO t SELECT x, " + std::to_string(w) +
                ", CAST(x % 5 AS INTEGER) FROM seed; SELECT count(*) FROM t;\n";
    }
    const std::string file = dir.path() + "/writer" + std::to_string(w) + ".sql";
    std::ofstream(file) << script;
    writers.push_back(Spawn({shears, db, "-f", file}));
    ASSERT_GT(writers.back(), 0);
  }
  int bad = 0;
  int64_t last = 0;
  int running = 2;
  while (running > 0) {
    Database database(db);
    Connection connection(database);
    const int64_t count = std::stoll(Scalar(connection, "SELECT count(*) FROM t"));
    if (count % 1000 != 0 || count < last) bad++;
    last = count;
    running = 0;
    for (pid_t& pid : writers) {
      int status = 0;
      if (pid > 0 && waitpid(pid, &status, WNOHANG) == pid) {
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        pid = 0;
      }
      running += pid > 0;
    }
  }
  EXPECT_EQ(bad, 0);
  Database database(db);
  Connection connection(database);
  EXPECT_EQ(connection.Query("SELECT w, count(*), sum(x) FROM t GROUP BY w ORDER BY w").ToStrings(),
            (std::vector<std::vector<std::string>>{
                {"1", std::to_string(kInserts * 1000), std::to_string(kInserts * 499500)},
                {"2", std::to_string(kInserts * 1000), std::to_string(kInserts * 499500)}}));
  const std::string location = database.catalog().FindTable("t")->location;
  EXPECT_EQ(FilesBelow(location), ListedFiles(database.catalog(), "t"));
}

TEST(WriteTest, ReadersSeeWholeInsertsOnly) {
  Database database;
  Connection writer(database);
  writer.Query("CREATE TABLE t (x BIGINT, p INTEGER) PARTITIONED BY (p)");
  std::atomic<bool> done{false};
  std::atomic<int> bad{0};
  std::thread reader([&] {
    Connection connection(database);
    int64_t last = 0;
    while (!done.load()) {
      const int64_t count = std::stoll(Scalar(connection, "SELECT count(*) FROM t"));
      if (count % 1000 != 0 || count < last) bad++;
      last = count;
    }
  });
  for (int i = 0; i < 20; i++) {
    writer.Query(std::string("INSERT INTO t SELECT x, CAST(x % 7 AS INTEGER) FROM (") + kThousand +
                 ") q");
  }
  done = true;
  reader.join();
  EXPECT_EQ(bad.load(), 0);
  EXPECT_EQ(Scalar(writer, "SELECT count(*) FROM t"), "20000");
}

TEST(WriteTest, IndexesPersistAndGoWithTheirTable) {
  test::TempDir dir;
  const std::string db = dir.path() + "/db";
  {
    Database database(db);
    Connection connection(database);
    connection.Query("CREATE TABLE t (a INTEGER, b VARCHAR)");
    connection.Query("INSERT INTO t VALUES (1, 'x'), (2, 'y')");
    connection.Query("CREATE UNIQUE INDEX t_a ON t (a)");
    connection.Query("CREATE INDEX t_b ON t (b DESC)");
  }
  Database database(db);
  Connection connection(database);
  const auto indexes = database.catalog().ListIndexes("t");
  ASSERT_EQ(indexes.size(), 2u);
  EXPECT_EQ(indexes[0].name, "t_a");
  EXPECT_TRUE(indexes[0].unique);
  EXPECT_EQ(indexes[1].columns, std::vector<int>{1});
  EXPECT_THROW(connection.Query("INSERT INTO t VALUES (2, 'z')"), ConstraintError);
  EXPECT_THROW(connection.Query("CREATE INDEX t_a ON t (b)"), BinderError);
  connection.Query("DROP TABLE t");
  EXPECT_TRUE(database.catalog().ListIndexes("").empty());
  connection.Query("CREATE TABLE t (a INTEGER)");
  connection.Query("CREATE INDEX t_a ON t (a)");  // the name is free again
}

TEST(WriteTest, UpdateAndDeleteSwapTheFilesInTheCatalog) {
  test::TempDir dir;
  const std::string db = dir.path() + "/db";
  Database database(db);
  Connection connection(database);
  connection.Query(std::string("CREATE TABLE t PARTITIONED BY (p) AS SELECT x, x % 3 AS p FROM (") +
                   kThousand + ") q");
  const auto before = ListedFiles(database.catalog(), "t");
  EXPECT_EQ(Scalar(connection, "UPDATE t SET x = x + 1000 WHERE x < 10"), "10");
  EXPECT_EQ(Scalar(connection, "DELETE FROM t WHERE p = 0"), "334");
  const auto table = database.catalog().FindTable("t");
  const auto after = ListedFiles(database.catalog(), "t");
  for (const auto& file : after)
    EXPECT_EQ(before.count(file), 0u) << file;
  ASSERT_EQ(table->partitions.size(), 2u);  // p=0 has no rows left, so no partition
  EXPECT_EQ(table->partitions[0].path, "p=1");
  // Per-file statistics describe exactly the listed files.
  std::set<std::string> with_stats;
  for (const auto& entry : database.catalog().GetStatistics("t", "file"))
    with_stats.insert((fs::path(table->location) / entry.path).lexically_normal().string());
  EXPECT_EQ(with_stats, after);
  EXPECT_EQ(Scalar(connection,
                   "SELECT CAST(count(*) AS VARCHAR) || ' ' || CAST(sum(x) AS VARCHAR) FROM t"),
            "666 " + std::to_string(499500 - 166833 + 6 * 1000));
  // The replaced files stay a while for queries that planned on them, then go.
  EXPECT_TRUE(FilesBelow(dir.path() + "/db/staging").empty());
  RemoveRetiredFiles(db, 0);
  EXPECT_EQ(FilesBelow(table->location), after);
  // A rewrite that read another file list than the table has now changes nothing.
  EXPECT_THROW(database.catalog().SwapFiles("t", {"p=1/gone.parquet"}, {}), IOError);
  EXPECT_EQ(ListedFiles(database.catalog(), "t"), after);
}

TEST(WriteTest, RecoveryAfterACommittedRewriteDeletesTheReplacedFiles) {
  test::TempDir dir;
  const std::string db = dir.path() + "/db";
  std::string location;
  {
    Database database(db);
    Connection connection(database);
    connection.Query("CREATE TABLE t AS SELECT 1 AS a");
    location = database.catalog().FindTable("t")->location;
  }
  // A rewrite that crashed after its commit: its manifest names a file it retired (no longer
  // listed) and the one it published (listed, so kept).
  const std::string listed = *FilesBelow(location).begin();
  const fs::path retired = fs::path(location) / "part-retired-0.parquet";
  fs::copy_file(listed, retired);
  const fs::path staging = fs::path(db) / "staging" / "dead-rewrite";
  fs::create_directories(staging);
  {
    std::ofstream manifest(staging / "manifest");
    manifest << "t\t" << listed << "\n"
             << "t\t" << retired.string() << "\n";
  }
  Database database(db);
  Connection connection(database);
  EXPECT_FALSE(fs::exists(retired));
  EXPECT_TRUE(fs::exists(listed));
  EXPECT_EQ(Scalar(connection, "SELECT count(*) FROM t"), "1");
}

TEST(WriteTest, ReadersSeeWholeUpdatesOnly) {
  Database database;
  Connection writer(database);
  writer.Query(std::string("CREATE TABLE t PARTITIONED BY (p) AS SELECT x, x % 7 AS p FROM (") +
               kThousand + ") q");
  std::atomic<bool> done{false};
  std::atomic<int> bad{0};
  std::thread reader([&] {
    Connection connection(database);
    while (!done.load()) {
      // Every UPDATE adds 1 to every x: the sum moves by whole steps of 1000 only.
      const int64_t sum = std::stoll(Scalar(connection, "SELECT sum(x) FROM t"));
      if ((sum - 499500) % 1000 != 0) bad++;
    }
  });
  for (int i = 0; i < 10; i++)
    writer.Query("UPDATE t SET x = x + 1");
  done = true;
  reader.join();
  EXPECT_EQ(bad.load(), 0);
  EXPECT_EQ(Scalar(writer, "SELECT sum(x) FROM t"), "509500");
}

}  // namespace
}  // namespace shears

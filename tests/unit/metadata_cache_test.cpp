// Reading a Hive directory pays only for what survives: opening it reads one footer, the scan
// reads those of the partitions left after static and dynamic pruning, and the process's
// caches (footers, listings) serve later queries until the files change.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>

#include "common/clock.h"
#include "main/connection.h"
#include "storage/file_system.h"
#include "storage/parquet/parquet_file.h"
#include "test_util.h"

namespace shears {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

uint64_t FootersParsed() {
  return parquet::GetFooterCacheStats().footers_parsed;
}

/// `dir/fact`: 200 partitions k=0..199, one file each, v = 10 * k; `dir/dim.parquet`: d_key
/// 0..199 with d_flag = d_key % 50.
void WriteStar(Connection& con, const std::string& dir) {
  con.Query(
      fmt::format("COPY (SELECT i AS k, i * 10 AS v FROM range(200) t(i)) TO '{}/fact' "
                  "(FORMAT parquet, PARTITION_BY (k))",
                  dir));
  con.Query(fmt::format(
      "COPY (SELECT i AS d_key, i % 50 AS d_flag FROM range(200) t(i)) TO '{}/dim.parquet' "
      "(FORMAT parquet)",
      dir));
}

/// Sets the mtime of everything below `dir` (and of `dir`) to `age` ago, so the caches, which
/// do not keep what changed in the last seconds, take it.
void Age(const std::string& dir, std::chrono::seconds age) {
  const auto when = fs::file_time_type::clock::now() - age;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    fs::last_write_time(entry.path(), when);
  fs::last_write_time(dir, when);
}

/// Holds the engine's wall clock at the test's start (common/clock.h): the files a test writes
/// stay "just modified" however long a loaded machine takes, so the caches never take them
/// unless a test ages them, and every footer read is counted. With the real clock a run slower
/// than the caches' two-second window cached fresh files and the counts came out lower.
class MetadataTest : public ::testing::Test {
 protected:
  void SetUp() override { clock::UseDeterministicClock(clock::WallNanos()); }
  void TearDown() override { clock::UseRealClock(); }
};

/// The one file of partition k=`k`.
std::string PartitionFile(const std::string& dir, int k) {
  for (const auto& entry : fs::directory_iterator(fmt::format("{}/fact/k={}", dir, k)))
    return entry.path().string();
  return "";
}

/// The counter `name` of the scan of `table` in EXPLAIN ANALYZE of `sql`.
uint64_t ScanCounter(Connection& con, const std::string& sql, const std::string& table,
                     const std::string& name) {
  std::string plan;
  for (const auto& row : con.Query("EXPLAIN ANALYZE " + sql).ToStrings()) {
    for (const auto& cell : row)
      plan += cell + "\n";
  }
  const size_t scan = plan.find("TABLE_SCAN " + table);
  EXPECT_NE(scan, std::string::npos) << plan;
  const size_t at = plan.find(name + ":", scan);
  EXPECT_NE(at, std::string::npos) << plan;
  return std::stoull(plan.substr(plan.find_first_of("0123456789", at)));
}

/// The files_read of the scan of `table` in EXPLAIN ANALYZE of `sql`.
uint64_t FilesRead(Connection& con, const std::string& sql, const std::string& table) {
  return ScanCounter(con, sql, table, "files_read");
}

TEST_F(MetadataTest, StaticPartitionFilterOpensTwoFiles) {
  TempDir dir;
  Database db;
  Connection con(db);
  WriteStar(con, dir.path());
  const std::string sql =
      fmt::format("SELECT count(*), sum(v) FROM '{}/fact' WHERE k = 17", dir.path());
  // The files were just written: the footer cache keeps none of them, so every footer the
  // query needs is read from its file and counted.
  uint64_t before = FootersParsed();
  EXPECT_EQ(con.Query(sql).ToStrings(), (std::vector<std::vector<std::string>>{{"1", "170"}}));
  // The first file's, for the schema, and k=17's.
  EXPECT_EQ(FootersParsed() - before, 2u);
  EXPECT_EQ(FilesRead(con, sql, dir.path() + "/fact"), 1u);

  // Through read_parquet with a glob and through a view, the same.
  const std::string glob = fmt::format(
      "SELECT count(*), sum(v) FROM read_parquet('{}/fact/*/*.parquet', hive_partitioning = "
      "true) WHERE k = 17",
      dir.path());
  before = FootersParsed();
  EXPECT_EQ(con.Query(glob).ToStrings()[0][1], "170");
  EXPECT_EQ(FootersParsed() - before, 2u);
  before = FootersParsed();
  con.Query(fmt::format("CREATE VIEW fact_view AS SELECT * FROM '{}/fact'", dir.path()));
  EXPECT_LE(FootersParsed() - before, 1u);
  before = FootersParsed();
  EXPECT_EQ(con.Query("SELECT sum(v) FROM fact_view WHERE k = 17").ToStrings()[0][0], "170");
  EXPECT_EQ(FootersParsed() - before, 2u);

  // A path named twice in a statement is opened once (the fresh files are not cached): its
  // root and first partition's directory are read while opening, k=17's by each scan.
  const uint64_t listed = GetListingCacheStats().directories_read;
  before = FootersParsed();
  EXPECT_EQ(con.Query(fmt::format("SELECT count(*) FROM '{0}/fact' a JOIN '{0}/fact' b ON a.k = "
                                  "b.k JOIN fact_view c ON c.k = a.k WHERE a.k = 17",
                                  dir.path()))
                .ToStrings()[0][0],
            "1");
  // fact, k=0 (its names, then its files), four partitions sampled for the estimates (k=49,
  // 99, 149, 199), and k=17 in each of the three scans.
  EXPECT_EQ(GetListingCacheStats().directories_read - listed, 10u);
  EXPECT_LE(FootersParsed() - before, 4u);  // the schema's, then k=17's in each scan
}

TEST_F(MetadataTest, DynamicPartitionPruningOpensOnlySurvivors) {
  TempDir dir;
  Database db;
  Connection con(db);
  WriteStar(con, dir.path());
  // d_flag = 3 keeps d_key 3, 53, 103, 153: four partitions of 200.
  const std::string sql = fmt::format(
      "SELECT count(*), sum(v) FROM '{0}/fact' f JOIN '{0}/dim.parquet' d ON f.k = d.d_key "
      "WHERE d.d_flag = 3",
      dir.path());
  uint64_t before = FootersParsed();
  EXPECT_EQ(con.Query(sql).ToStrings(), (std::vector<std::vector<std::string>>{{"4", "3120"}}));
  // dim.parquet once (its scan reuses the footer opening read), the fact's first file for the
  // schema, and the four partitions that survived.
  EXPECT_EQ(FootersParsed() - before, 6u);
  EXPECT_EQ(FilesRead(con, sql, "f"), 4u);

  // Without dynamic filtering every partition is opened.
  con.Query("SET dynamic_filtering = false");
  before = FootersParsed();
  EXPECT_EQ(con.Query(sql).ToStrings()[0][1], "3120");
  EXPECT_EQ(FootersParsed() - before, 201u);
}

TEST_F(MetadataTest, CachesServeLaterQueriesUntilFilesChange) {
  TempDir dir;
  Database db;
  Connection con(db);
  WriteStar(con, dir.path());
  Age(dir.path(), std::chrono::hours(1));
  const std::string sql = fmt::format("SELECT count(*), sum(v) FROM '{}/fact'", dir.path());
  EXPECT_EQ(con.Query(sql).ToStrings()[0], (std::vector<std::string>{"200", "199000"}));

  // Unchanged files: no footer read again, no directory listed again.
  uint64_t parsed = FootersParsed();
  const ListingCacheStats listing = GetListingCacheStats();
  EXPECT_EQ(con.Query(sql).ToStrings()[0], (std::vector<std::string>{"200", "199000"}));
  EXPECT_EQ(FootersParsed(), parsed);
  EXPECT_EQ(GetListingCacheStats().directories_read, listing.directories_read);
  // The names of fact and of k=0, k=0's files and four sampled partitions' while opening,
  // each partition's by the scan.
  EXPECT_EQ(GetListingCacheStats().listings_reused, listing.listings_reused + 207);

  // A file rewritten in place (same name and directory): its new rows are read.
  const std::string file = PartitionFile(dir.path(), 17);
  con.Query(
      fmt::format("COPY (SELECT 1000 AS v UNION ALL SELECT 2000) TO '{}/new.parquet'", dir.path()));
  fs::copy_file(dir.path() + "/new.parquet", file, fs::copy_options::overwrite_existing);
  fs::last_write_time(file, fs::file_time_type::clock::now() - std::chrono::minutes(30));
  parsed = FootersParsed();
  EXPECT_EQ(con.Query(sql).ToStrings()[0], (std::vector<std::string>{"201", "201830"}));
  EXPECT_EQ(FootersParsed(), parsed + 1);  // only the rewritten file's

  // A new file in a partition and a removed partition: the listing is read again.
  fs::copy_file(dir.path() + "/new.parquet", fmt::format("{}/fact/k=5/more.parquet", dir.path()));
  fs::remove_all(fmt::format("{}/fact/k=6", dir.path()));
  EXPECT_EQ(con.Query(sql).ToStrings()[0], (std::vector<std::string>{"202", "204770"}));
}

// A Hive directory is listed one level at a time: opening reads the partition directories'
// names (the root) and the first partition's directory (for the schema's file); the scan lists
// only the partitions left after static and dynamic pruning.
TEST_F(MetadataTest, ListingReadsOnlySurvivingPartitions) {
  TempDir dir;
  Database db;
  Connection con(db);
  WriteStar(con, dir.path());
  const std::string fact = dir.path() + "/fact";
  const std::string one = fmt::format("SELECT count(*), sum(v) FROM '{}' WHERE k = 17", fact);
  // The files are fresh: the caches keep nothing, so every directory read counts.
  uint64_t before = GetListingCacheStats().directories_read;
  EXPECT_EQ(con.Query(one).ToStrings()[0], (std::vector<std::string>{"1", "170"}));
  // fact, k=0 (its names, which show it holds files, then its files), four partitions sampled
  // for the estimates (k=49, 99, 149, 199), k=17.
  EXPECT_EQ(GetListingCacheStats().directories_read - before, 8u);
  EXPECT_EQ(ScanCounter(con, one, fact, "directories_listed"), 8u);
  EXPECT_EQ(ScanCounter(con, one, fact, "files_total"), 1u);
  EXPECT_EQ(ScanCounter(con, one, fact, "partitions_total"), 200u);

  // A range keeps 10 partitions, a glob the same as the directory.
  const std::string glob = fact + "/*/*.parquet";
  const std::string range =
      fmt::format("SELECT count(*) FROM read_parquet('{}') WHERE k BETWEEN 20 AND 29", glob);
  EXPECT_EQ(con.Query(range).ToStrings()[0][0], "10");
  // fact, k=0's files (the glob says the level below holds them: its names are not read), the
  // four sampled, and the ten partitions.
  EXPECT_EQ(ScanCounter(con, range, glob, "directories_listed"), 1u + 1u + 4u + 10u);

  // Dynamic partition pruning: the four partitions d_flag = 3 keeps are the only ones listed.
  const std::string join = fmt::format(
      "SELECT count(*), sum(v) FROM '{0}/fact' f JOIN '{0}/dim.parquet' d ON f.k = d.d_key "
      "WHERE d.d_flag = 3",
      dir.path());
  EXPECT_EQ(con.Query(join).ToStrings()[0], (std::vector<std::string>{"4", "3120"}));
  EXPECT_EQ(ScanCounter(con, join, "f", "directories_listed"), 7u + 4u);
  con.Query("SET dynamic_filtering = false");
  EXPECT_EQ(ScanCounter(con, join, "f", "directories_listed"), 7u + 200u);
  con.Query("RESET dynamic_filtering");

  // Once the files are old enough for the caches, a later query reads no directory; the
  // caches serve it only while the directories are unchanged: a file added to a partition,
  // and a partition added, are seen by the next query.
  Age(dir.path(), std::chrono::hours(1));
  con.Query(one);
  EXPECT_EQ(ScanCounter(con, one, fact, "directories_listed"), 0u);
  const std::string sql = fmt::format("SELECT count(*), sum(v) FROM '{}' WHERE k >= 17", fact);
  EXPECT_EQ(con.Query(sql).ToStrings()[0], (std::vector<std::string>{"183", "197640"}));
  con.Query(fmt::format("COPY (SELECT 1000 AS v) TO '{}/new.parquet'", dir.path()));
  fs::copy_file(dir.path() + "/new.parquet", fact + "/k=17/more.parquet");
  EXPECT_EQ(con.Query(sql).ToStrings()[0], (std::vector<std::string>{"184", "198640"}));
  fs::create_directory(fact + "/k=500");
  fs::copy_file(dir.path() + "/new.parquet", fact + "/k=500/part.parquet");
  EXPECT_EQ(con.Query(sql).ToStrings()[0], (std::vector<std::string>{"185", "199640"}));
  EXPECT_EQ(con.Query(fmt::format("SELECT max(k) FROM '{}'", fact)).ToStrings()[0][0], "500");
}

// Two levels: opening reads the first level's directories for the second level's values (their
// types come from all of them); the partition directories are listed only when they survive.
TEST_F(MetadataTest, ListingTwoLevels) {
  TempDir dir;
  Database db;
  Connection con(db);
  con.Query(
      fmt::format("COPY (SELECT i % 4 AS y, i % 12 AS m, i AS v FROM range(48) t(i)) TO '{}/t' "
                  "(FORMAT parquet, PARTITION_BY (y, m))",
                  dir.path()));
  const std::string t = dir.path() + "/t";
  const std::string sql =
      fmt::format("SELECT count(*), sum(v) FROM read_parquet('{}/*/*/*.parquet') WHERE m = 5", t);
  EXPECT_EQ(con.Query(sql).ToStrings()[0], (std::vector<std::string>{"4", "92"}));
  // t and its four y= directories (the m values), y=0/m=0's files (the schema's) and four
  // sampled, then y=1/m=5's (the only partition with m = 5).
  EXPECT_EQ(ScanCounter(con, sql, t + "/*/*/*.parquet", "directories_listed"), 5u + 1u + 4u + 1u);
  EXPECT_EQ(
      con.Query(fmt::format("SELECT typeof(y), typeof(m), count(*) FROM '{}' GROUP BY ALL", t))
          .ToStrings()[0],
      (std::vector<std::string>{"BIGINT", "BIGINT", "48"}));
}

// What lazy listing does not take is listed whole, with the same answers and errors.
TEST_F(MetadataTest, ListingFallsBackForOtherLayouts) {
  TempDir dir;
  Database db;
  Connection con(db);
  con.Query(fmt::format(
      "COPY (SELECT CASE WHEN i < 3 THEN NULL ELSE i % 2 END AS k, i AS v FROM range(6) t(i)) "
      "TO '{}/t' (FORMAT parquet, PARTITION_BY (k))",
      dir.path()));
  const std::string t = dir.path() + "/t";
  // A NULL partition is a partition.
  EXPECT_EQ(
      con.Query(fmt::format("SELECT count(*), sum(v) FROM '{}' WHERE k IS NULL", t)).ToStrings()[0],
      (std::vector<std::string>{"3", "3"}));
  // `**` is listed whole.
  EXPECT_EQ(
      con.Query(fmt::format("SELECT count(*) FROM read_parquet('{}/**/*.parquet') WHERE k = 1", t))
          .ToStrings()[0][0],
      "2");
  // A glob matching nothing names it.
  try {
    con.Query(fmt::format("SELECT * FROM read_parquet('{}/*/*.csv')", t));
    FAIL() << "no error";
  } catch (const IOError& e) {
    EXPECT_NE(std::string(e.what()).find("/*/*.csv"), std::string::npos) << e.what();
  }
  // A key=value directory below a partition directory is a layout error when the scan lists
  // it, and a data file beside the partition directories when the dataset is opened.
  fs::create_directories(t + "/k=1/x=2");
  con.Query(fmt::format("COPY (SELECT 1 AS v) TO '{}/k=1/x=2/f.parquet'", t));
  EXPECT_THROW(con.Query(fmt::format("SELECT count(*) FROM '{}' WHERE k = 1", t)),
               InvalidInputError);
  EXPECT_EQ(con.Query(fmt::format("SELECT count(*) FROM '{}' WHERE k = 0", t)).ToStrings()[0][0],
            "1");
  fs::remove_all(t + "/k=1/x=2");
  con.Query(fmt::format("COPY (SELECT 1 AS v) TO '{}/loose.parquet'", t));
  EXPECT_THROW(con.Query(fmt::format("SELECT count(*) FROM '{}'", t)), InvalidInputError);
}

// A plain directory's files whose footers an earlier query read (unchanged since) are skipped
// unopened when their statistics rule out the scan's predicates or a runtime filter; a file
// changed since is opened again.
TEST_F(MetadataTest, CachedFootersSkipFilesUnopened) {
  TempDir dir;
  Database db;
  Connection con(db);
  WriteStar(con, dir.path());
  Age(dir.path(), std::chrono::hours(1));
  const std::string fact = dir.path() + "/fact";
  con.Query("SET runtime_filter.min_probe_size = 0");
  // The first query reads every footer but the first file's, whose footer opening the
  // directory read (for the schema) already rules it out.
  const std::string literal = fmt::format("SELECT count(*) FROM '{}' WHERE v = 170", fact);
  EXPECT_EQ(ScanCounter(con, literal, fact, "files_read"), 199u);
  EXPECT_EQ(ScanCounter(con, literal, fact, "files_read"), 1u);
  EXPECT_EQ(ScanCounter(con, literal, fact, "files_skipped_unopened"), 199u);
  EXPECT_EQ(con.Query(literal).ToStrings()[0][0], "1");

  // A runtime filter's exact set: only the files whose v range holds a key are opened.
  const std::string join = fmt::format(
      "SELECT count(*), sum(f.k) FROM '{}' f JOIN (VALUES (CAST(170 AS BIGINT)), (1500), (7)) "
      "d(x) ON f.v = d.x",
      fact);
  EXPECT_EQ(ScanCounter(con, join, "f", "files_read"), 2u);
  EXPECT_EQ(ScanCounter(con, join, "f", "files_skipped_unopened"), 198u);
  EXPECT_EQ(con.Query(join).ToStrings()[0], (std::vector<std::string>{"2", "167"}));

  // Off: every file is opened.
  con.Query("SET file_statistics_pruning = false");
  EXPECT_EQ(ScanCounter(con, literal, fact, "files_read"), 200u);
  EXPECT_EQ(ScanCounter(con, literal, fact, "files_skipped_unopened"), 0u);
  con.Query("RESET file_statistics_pruning");

  // A file rewritten since its footer was cached (k=5's, whose v was 50) is opened, and its new
  // rows found.
  const std::string file = PartitionFile(dir.path(), 5);
  con.Query(fmt::format(
      "COPY (SELECT CAST(170 AS BIGINT) AS v UNION ALL SELECT 9) TO '{}/new.parquet'", dir.path()));
  fs::copy_file(dir.path() + "/new.parquet", file, fs::copy_options::overwrite_existing);
  fs::last_write_time(file, fs::file_time_type::clock::now() - std::chrono::minutes(30));
  EXPECT_EQ(con.Query(literal).ToStrings()[0][0], "2");
}

// Files testing a runtime filter by their cached footers find the key column by name: where the
// files' schemas put it at other positions (the position found last is only a hint), and not at
// all where two columns share the name ignoring case.
TEST_F(MetadataTest, CachedFootersFindTheKeyColumnInEverySchema) {
  TempDir dir;
  Database db;
  Connection con(db);
  for (int i = 0; i < 6; i++) {
    // v first, second or third: each file's key range is [i * 10, i * 10 + 1].
    const std::string columns = i % 3 == 0   ? "x AS v, x + 1 AS w"
                                : i % 3 == 1 ? "x + 1 AS w, x AS v"
                                             : "x + 1 AS w, x + 2 AS y, x AS v";
    con.Query(fmt::format(
        "COPY (SELECT {} FROM (VALUES (CAST({} AS BIGINT)), ({})) t(x)) TO '{}/f{}.parquet'",
        columns, i * 10, i * 10 + 1, dir.path(), i));
  }
  Age(dir.path(), std::chrono::hours(1));
  con.Query("SET runtime_filter.min_probe_size = 0");
  const std::string join = fmt::format(
      "SELECT count(*), sum(f.v) FROM '{}' f JOIN "
      "(VALUES (CAST(20 AS BIGINT)), (41)) d(x) ON f.v = d.x",
      dir.path());
  EXPECT_EQ(con.Query(join).ToStrings()[0], (std::vector<std::string>{"2", "61"}));
  EXPECT_EQ(ScanCounter(con, join, "f", "files_skipped_unopened"), 4u);
  EXPECT_EQ(con.Query(join).ToStrings()[0], (std::vector<std::string>{"2", "61"}));

  parquet::ParquetFooter footer;
  footer.columns.resize(3);
  footer.columns[0].name = "a";
  footer.columns[1].name = "V";
  footer.columns[2].name = "b";
  EXPECT_TRUE(parquet::FooterNamesUnique(footer));
  parquet::ParquetFooter ambiguous;
  ambiguous.columns.resize(2);
  ambiguous.columns[0].name = "v";
  ambiguous.columns[1].name = "V";
  EXPECT_FALSE(parquet::FooterNamesUnique(ambiguous));
  EXPECT_FALSE(parquet::FooterNamesUnique(ambiguous));  // the answer kept
}

// A file whose footer the first query read and the footer cache kept is the same file only while
// its identity is: a same-size rewrite with another mtime is read anew.
TEST_F(MetadataTest, FooterCacheChecksIdentity) {
  TempDir dir;
  Database db;
  Connection con(db);
  con.Query(fmt::format("COPY (SELECT 1 AS x) TO '{}/a.parquet'", dir.path()));
  con.Query(fmt::format("COPY (SELECT 2 AS x) TO '{}/b.parquet'", dir.path()));
  ASSERT_EQ(fs::file_size(dir.path() + "/a.parquet"), fs::file_size(dir.path() + "/b.parquet"));
  const std::string a = dir.path() + "/a.parquet";
  fs::last_write_time(a, fs::file_time_type::clock::now() - std::chrono::hours(2));
  EXPECT_EQ(con.Query("SELECT x FROM '" + a + "'").ToStrings()[0][0], "1");
  fs::copy_file(dir.path() + "/b.parquet", a, fs::copy_options::overwrite_existing);
  fs::last_write_time(a, fs::file_time_type::clock::now() - std::chrono::hours(1));
  EXPECT_EQ(con.Query("SELECT x FROM '" + a + "'").ToStrings()[0][0], "2");
}

// Listing follows directory symlinks (a loop back to a directory above ends), leaves hidden
// names out for directories but not for globs, and lists many directories on several threads
// in path order.
TEST_F(MetadataTest, ListTree) {
  TempDir dir;
  for (int k = 0; k < 300; k++)
    dir.AddText(fmt::format("t/k={:03d}/f", k), "x");
  dir.AddText("t/_SUCCESS", "");
  dir.AddText("t/.hidden/g", "yy");
  fs::create_directory_symlink(dir.path() + "/t", dir.path() + "/t/k=000/loop");
  fs::create_directory_symlink(dir.path() + "/t/k=001", dir.path() + "/t/k=000/sibling");
  const auto files = ListTree(dir.path() + "/t", true);
  ASSERT_EQ(files.size(), 301u);  // each k=NNN/f, and k=000/sibling/f
  for (size_t i = 1; i < files.size(); i++)
    EXPECT_LT(files[i - 1].path, files[i].path);
  EXPECT_EQ(files.back().path, dir.path() + "/t/k=299/f");
  EXPECT_EQ(files.back().size, 1u);
  const auto all = ListTree(dir.path() + "/t", false);
  EXPECT_EQ(all.size(), files.size() + 2);  // _SUCCESS and .hidden/g
  const auto matched = ExpandGlob(dir.path() + "/t/.hidden/*");
  ASSERT_EQ(matched.size(), 1u);
  EXPECT_EQ(matched[0].size, 2u);
}

}  // namespace
}  // namespace shears

// Memory accounting beyond the operators' hash tables and sort buffers: the scans' read buffers
// and decoded pages, spill files' write buffers and Parquet writers' row groups count against
// memory_limit, so the limit holds for a scan-heavy query; limits below what the threads need
// at least fail with an error naming that minimum.

#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "common/error.h"
#include "execution/query_context.h"
#include "execution/spill.h"
#include "main/connection.h"
#include "test_util.h"

namespace shears {
namespace {

/// The peak memory EXPLAIN ANALYZE reports for `sql`.
int64_t PeakMemory(Connection& con, const std::string& sql) {
  auto result = con.Query("EXPLAIN ANALYZE " + sql);
  std::smatch match;
  for (const auto& row : result.ToStrings()) {
    for (const auto& cell : row) {
      static const std::regex peak("peak memory (\\d+) bytes");
      if (std::regex_search(cell, match, peak)) return std::stoll(match[1]);
    }
  }
  ADD_FAILURE() << "no peak memory in EXPLAIN ANALYZE";
  return -1;
}

/// A Parquet file of 400,000 rows in two row groups: 200,000 rows of three columns are
/// several MB per row group once read, more once decoded.
std::string WriteWideFile(Connection& con, const test::TempDir& tmp) {
  const std::string path = tmp.path() + "/wide.parquet";
  con.Query("COPY (SELECT x, x * 7 y, 'value-' || x::VARCHAR s FROM range(400000) t(x)) TO '" +
            path + "' (ROW_GROUP_SIZE 200000, COMPRESSION zstd)");
  return path;
}

TEST(MemoryAccountingTest, ScanBuffersCountAndTheLimitHolds) {
  test::TempDir tmp;
  Database db;
  Connection con(db);
  const std::string path = WriteWideFile(con, tmp);
  const std::string scan = "SELECT count(*), sum(y), max(s) FROM '" + path + "'";
  con.Query("SET threads = 2");
  // Without a limit: the scan's buffers are what the query holds (no operator keeps rows), at
  // least a row group's compressed chunks.
  const int64_t unlimited = PeakMemory(con, scan);
  EXPECT_GT(unlimited, 1 << 20);
  // Under a limit above that, the answer is the same and the peak stays under the limit.
  con.Query("SET memory_limit = '" + std::to_string(unlimited * 3) + "'");
  EXPECT_LE(PeakMemory(con, scan), unlimited * 3);
  EXPECT_EQ(con.Query(scan).ToStrings(),
            (std::vector<std::vector<std::string>>{{"400000", "559998600000", "value-99999"}}));
  // Under a limit the buffers alone pass, the scan stops with the memory error instead of
  // holding them unaccounted.
  con.Query("SET memory_limit = '" + std::to_string(unlimited / 4) + "'");
  EXPECT_THROW(con.Query(scan), OutOfMemoryError);
}

TEST(MemoryAccountingTest, SpillingUnderALimitCountsScansAndSpillBuffers) {
  test::TempDir tmp;
  Database db;
  Connection con(db);
  const std::string path = WriteWideFile(con, tmp);
  con.Query("SET threads = 2");
  con.Query("SET temp_directory = '" + tmp.path() + "/spill'");
  con.Query("SET memory_limit = '24MB'");
  // A GROUP BY with a group per row over the file: it spills, and the peak of everything the
  // query held (scan buffers, the aggregate's partitions, spill write buffers) is under the
  // limit.
  const std::string group =
      "SELECT count(*), sum(c), max(m) FROM (SELECT s, count(*) c, max(y) m FROM '" + path +
      "' GROUP BY s) t";
  const int64_t peak = PeakMemory(con, group);
  EXPECT_LE(peak, 24'000'000);
  EXPECT_GT(peak, 1 << 20);
  EXPECT_EQ(con.Query(group).ToStrings(),
            (std::vector<std::vector<std::string>>{{"400000", "400000", "2799993"}}));
}

TEST(MemoryAccountingTest, ParquetWritersCountTheirRowGroup) {
  test::TempDir tmp;
  Database db;
  Connection con(db);
  con.Query("SET threads = 1");
  const std::string write =
      "COPY (SELECT x, 'value-' || x::VARCHAR s FROM range(300000) t(x)) TO '" + tmp.path() +
      "/out.parquet' (ROW_GROUP_SIZE 300000)";
  // The row group is buffered encoded until it is complete: a few MB, past a 1MB limit.
  con.Query("SET memory_limit = '1MB'");
  EXPECT_THROW(con.Query(write), OutOfMemoryError);
  con.Query("RESET memory_limit");
  con.Query(write);
  EXPECT_EQ(con.Query("SELECT count(*) FROM '" + tmp.path() + "/out.parquet'").ToStrings(),
            (std::vector<std::vector<std::string>>{{"300000"}}));
}

TEST(MemoryAccountingTest, SpillWriteBuffersCountAndShrinkUnderSmallLimits) {
  test::TempDir tmp;
  MemoryTracker memory(4 << 20);
  SpillOptions options{tmp.path() + "/spill", 0, &memory};
  SpillFile file(options);
  file.Append("x", 1);
  // The buffer is reserved whole, 1/64 of the limit (at least 64 KiB).
  EXPECT_EQ(memory.used(), int64_t{64} << 10);
  std::string rows(200 << 10, 'r');
  file.Append(rows.data(), rows.size());
  file.Flush();
  EXPECT_EQ(memory.used(), 0);
  std::string back(rows.size(), '\0');
  file.Read(1, back.data(), back.size());
  EXPECT_EQ(back, rows);
  // A limit too small for even one buffer is the memory error.
  MemoryTracker tiny(32 << 10);
  SpillFile small(SpillOptions{tmp.path() + "/spill", 0, &tiny});
  EXPECT_THROW(small.Append("x", 1), OutOfMemoryError);
}

TEST(MemoryAccountingTest, LimitsBelowTheMinimumSayIt) {
  Database db;
  Connection con(db);
  con.Query("SET threads = 2");
  con.Query("SET memory_limit = '256KB'");
  // A query that holds little still runs.
  EXPECT_EQ(con.Query("SELECT count(*) FROM range(100000) t(x) WHERE x % 2 = 0").ToStrings(),
            (std::vector<std::vector<std::string>>{{"50000"}}));
  try {
    con.Query("SELECT x FROM range(300000) t(x) ORDER BY x DESC LIMIT 1 OFFSET 5");
    FAIL() << "expected the memory error";
  } catch (const OutOfMemoryError& e) {
    EXPECT_NE(std::string(e.what()).find("below the minimum of 2.0 MiB"), std::string::npos)
        << e.what();
  }
  // At the minimum the same query sorts (spilling).
  con.Query("SET memory_limit = '2MiB'");
  EXPECT_EQ(
      con.Query("SELECT x FROM range(300000) t(x) ORDER BY x DESC LIMIT 1 OFFSET 5").ToStrings(),
      (std::vector<std::vector<std::string>>{{"299994"}}));
}

}  // namespace
}  // namespace shears

// What the shell needs from a running query: Connection::Interrupt cancels it (from another
// thread), and Connection::Progress accounts for every planned file, read or pruned.

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "common/error.h"
#include "main/connection.h"
#include "test_util.h"

namespace shears {
namespace {

const std::string kYearMonth = test::DataDir() + "/hive/hive_year_month";

TEST(QueryProgressTest, InterruptCancelsTheRunningQueryOnly) {
  Database db;
  Connection con(db);
  std::string values;
  for (int i = 0; i < 1000; i++)
    values += (i ? ",(" : "(") + std::to_string(i) + ")";
  // 10^9 rows: it ends only by the interrupt.
  const std::string endless =
      "WITH t(x) AS (VALUES " + values + ") SELECT count(*) FROM t a, t b, t c";
  std::atomic<bool> done{false};
  std::thread interrupter([&] {
    while (!done.load()) {
      con.Interrupt();
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  });
  bool cancelled = false;
  try {
    con.Query(endless);
  } catch (const CancelledError& e) {
    cancelled = std::string(e.what()) == "the query was cancelled";
  }
  done.store(true);
  interrupter.join();
  EXPECT_TRUE(cancelled);
  // The interrupt does not outlive the statements it was meant for.
  con.ClearInterrupt();
  EXPECT_EQ(con.Query("SELECT 1 AS one").ToStrings()[0][0], "1");
  // An interrupt before a query cancels that query, then is cleared.
  con.Interrupt();
  EXPECT_THROW(con.Query("SELECT count(*) FROM '" + kYearMonth + "'"), CancelledError);
  EXPECT_EQ(con.Query("SELECT count(*) FROM '" + kYearMonth + "'").ToStrings()[0][0], "126");
}

TEST(QueryProgressTest, EveryPlannedFileIsCountedReadOrPruned) {
  Database db;
  Connection con(db);
  EXPECT_LT(con.Progress(), 0);  // no query yet
  con.Query("SELECT count(*) FROM '" + kYearMonth + "'");
  EXPECT_DOUBLE_EQ(con.Progress(), 1.0);
  // Partitions pruned statically and row groups pruned by statistics count as done too.
  auto result = con.Query("SELECT count(*) FROM '" + kYearMonth +
                          "' WHERE year = 2022 AND month = 1 AND id < 0");
  EXPECT_EQ(result.ToStrings()[0][0], "0");
  EXPECT_DOUBLE_EQ(con.Progress(), 1.0);
  con.Query("SELECT 1");
  EXPECT_LT(con.Progress(), 0);  // no files: no estimate
}

}  // namespace
}  // namespace shears

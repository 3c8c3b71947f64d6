// The deterministic clock (common/clock.h) is what lets the fuzz gate repeat itself: with it, a
// query's timings, and so the text of EXPLAIN ANALYZE, are the same in every run.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/clock.h"
#include "main/connection.h"

namespace shears {
namespace {

constexpr int64_t k2100 = int64_t{4102444800} * 1000000000;  // 2100-01-01T00:00:00Z

class DeterministicClockTest : public ::testing::Test {
 protected:
  void TearDown() override { clock::UseRealClock(); }
};

TEST_F(DeterministicClockTest, EachReadingAdvancesOneMicrosecond) {
  clock::UseDeterministicClock(k2100);
  const auto first = clock::Now();
  EXPECT_EQ(clock::NanosSince(first), 1000u);  // its own reading is the second
  EXPECT_EQ(clock::WallNanos(), k2100 + 2000);
  EXPECT_DOUBLE_EQ(clock::MillisSince(first), 0.003);
}

TEST_F(DeterministicClockTest, CurrentDateReadsIt) {
  clock::UseDeterministicClock(k2100);
  Database database;
  Connection connection(database);
  EXPECT_EQ(connection.Query("SELECT current_date").ToStrings(),
            (std::vector<std::vector<std::string>>{{"2100-01-01"}}));
}

TEST_F(DeterministicClockTest, ExplainAnalyzeRepeatsItself) {
  auto run = [] {
    clock::UseDeterministicClock(k2100);
    Database database;
    Connection connection(database);
    connection.Query("SET threads = 1");
    return connection
        .Query("EXPLAIN ANALYZE SELECT x % 7, count(*) FROM range(100000) t(x) GROUP BY 1")
        .ToStrings();
  };
  const auto first = run();
  EXPECT_EQ(first, run());
  clock::UseRealClock();
  // The real clock is back: wall time is now, not 2100.
  EXPECT_LT(clock::WallNanos(), k2100);
}

}  // namespace
}  // namespace shears

// The allocator policy (common/memory_policy.h): memory a statement freed stays with malloc for
// the next statement up to allocator_retain_limit, goes back to the kernel at once past it, and
// after allocator_release_delay without statements otherwise.

#include "common/memory_policy.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "common/error.h"
#include "main/connection.h"

namespace shears {
namespace {

// A GROUP BY of 3 million groups: a few hundred MB of hash tables, freed when it ends.
constexpr const char* kBigQuery =
    "SELECT count(*) FROM (SELECT x, count(*), sum(x) FROM range(3000000) t(x) GROUP BY x) s";
constexpr size_t kMiB = size_t{1} << 20;

// RetainedBytes also counts the test binary's code and stacks: measure from what is left after
// a release.
size_t Baseline() {
  memory_policy::Release();
  return memory_policy::RetainedBytes();
}

TEST(MemoryPolicy, KeepsUpToTheLimitAndReturnsPastIt) {
  if (!memory_policy::Tunes()) GTEST_SKIP() << "the allocator is not glibc's malloc";
  Database db;
  Connection con(db);
  con.Query("SET allocator_retain_limit = '64GB'");
  con.Query("SET allocator_release_delay = '1h'");
  const size_t base = Baseline();
  EXPECT_EQ(con.Query(kBigQuery).ToStrings()[0][0], "3000000");
  const size_t kept = memory_policy::RetainedBytes();
  EXPECT_GT(kept, base + 64 * kMiB);
  // The SET ends under the old limit; the next statement ends under the new one.
  con.Query("SET allocator_retain_limit = '32MB'");
  EXPECT_GT(memory_policy::RetainedBytes(), base + 64 * kMiB);
  con.Query("SELECT 1");
  EXPECT_LT(memory_policy::RetainedBytes(), base + (kept - base) / 2);
}

TEST(MemoryPolicy, ReturnsAfterTheDelay) {
  if (!memory_policy::Tunes()) GTEST_SKIP() << "the allocator is not glibc's malloc";
  Database db;
  Connection con(db);
  con.Query("SET allocator_retain_limit = '64GB'");
  con.Query("SET allocator_release_delay = '100ms'");
  const size_t base = Baseline();
  con.Query(kBigQuery);
  const size_t kept = memory_policy::RetainedBytes();
  EXPECT_GT(kept, base + 64 * kMiB);
  const size_t half = base + (kept - base) / 2;
  // Generous: the background thread needs only to run once after 100 ms.
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (memory_policy::RetainedBytes() >= half && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_LT(memory_policy::RetainedBytes(), half);
}

TEST(MemoryPolicy, ZeroDelayReturnsAtEachStatementsEnd) {
  if (!memory_policy::Tunes()) GTEST_SKIP() << "the allocator is not glibc's malloc";
  Database db;
  Connection con(db);
  con.Query("SET allocator_retain_limit = '64GB'");
  con.Query("SET allocator_release_delay = '1h'");
  const size_t base = Baseline();
  con.Query(kBigQuery);
  const size_t kept = memory_policy::RetainedBytes();
  EXPECT_GT(kept, base + 64 * kMiB);
  con.Query("SET allocator_release_delay = 0");
  Baseline();
  con.Query(kBigQuery);
  EXPECT_LT(memory_policy::RetainedBytes(), base + (kept - base) / 2);
}

TEST(MemoryPolicy, SettingsTakeSizesAndDurations) {
  Database db;
  Connection con(db);
  con.Query("SET allocator_retain_limit = '512MiB'");
  EXPECT_EQ(con.Query("SELECT current_setting('allocator_retain_limit')").ToStrings()[0][0],
            "536870912");
  con.Query("SET allocator_release_delay = '2s'");
  EXPECT_EQ(con.Query("SELECT current_setting('allocator_release_delay')").ToStrings()[0][0],
            "2000");
  EXPECT_THROW(con.Query("SET allocator_retain_limit = '-1'"), Error);
  EXPECT_THROW(con.Query("SET allocator_release_delay = 'soon'"), Error);
}

}  // namespace
}  // namespace shears

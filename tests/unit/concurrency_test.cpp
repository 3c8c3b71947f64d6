// Several queries at once on one Database, catalog statements interleaved with queries, a
// table whose partitions change while it is queried, and queries cancelled from another thread
// at random points. `make tsan` runs these tests (Concurrency*) under ThreadSanitizer; under
// ASan a cancelled query that kept memory shows up as a leak.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>
#include <thread>
#include <vector>

#include "common/error.h"
#include "main/connection.h"
#include "test_util.h"

namespace shears {
namespace {

namespace fs = std::filesystem;
using Rows = std::vector<std::vector<std::string>>;

std::string HiveDir() {
  return test::DataDir() + "/hive/hive_year_month";
}
std::string SortedFile() {
  return test::DataDir() + "/parquet/generated/row_groups_sorted.parquet";
}

// Queries that exercise the shared parts: DPP and runtime filters (join with a filtered
// dimension), aggregation, sorting, and a catalog table.
std::vector<std::string> Queries(const std::string& table) {
  const std::string hive = "'" + HiveDir() + "'";
  return {
      "SELECT year, count(*), sum(amount) FROM " + hive + " GROUP BY year ORDER BY year",
      "SELECT count(*), sum(f.amount) FROM " + hive + " f JOIN (SELECT DISTINCT year FROM " + hive +
          " WHERE region = 'north' AND month = 2) d ON f.year = d.year",
      "SELECT id, region FROM " + hive + " ORDER BY amount DESC, id LIMIT 3",
      "SELECT count(*) FROM " + table + " WHERE month > 2",
      "SELECT count(DISTINCT skey) FROM '" + SortedFile() + "' WHERE id % 3 = 0",
  };
}

class ConcurrencyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Connection setup(db_);
    setup.Query("CREATE EXTERNAL TABLE sales STORED AS PARQUET LOCATION '" + HiveDir() + "'");
    for (const auto& sql : Queries("sales"))
      expected_.push_back(setup.Query(sql).ToStrings());
  }

  Database db_;
  std::vector<Rows> expected_;
};

TEST_F(ConcurrencyTest, QueriesFromManyThreads) {
  const auto queries = Queries("sales");
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; t++) {
    threads.emplace_back([&, t] {
      Connection con(db_);
      con.Query("SET threads = 2");
      for (int i = 0; i < 6; i++) {
        const size_t q = static_cast<size_t>(t + i) % queries.size();
        try {
          if (con.Query(queries[q]).ToStrings() != expected_[q]) failures++;
        } catch (const std::exception& e) {
          std::fprintf(stderr, "thread %d: %s\n", t, e.what());
          failures++;
        }
      }
    });
  }
  for (auto& thread : threads)
    thread.join();
  EXPECT_EQ(failures.load(), 0);
}

TEST_F(ConcurrencyTest, CatalogStatementsInterleavedWithQueries) {
  const auto queries = Queries("sales");
  std::atomic<bool> done{false};
  std::atomic<int> failures{0};
  // Writers: each creates, analyzes, queries and drops its own tables and views, and replaces
  // a shared view, while readers query `sales`.
  std::vector<std::thread> threads;
  for (int w = 0; w < 2; w++) {
    threads.emplace_back([&, w] {
      Connection con(db_);
      const std::string table = "t" + std::to_string(w);
      try {
        for (int i = 0; i < 4; i++) {
          con.Query("CREATE EXTERNAL TABLE " + table + " STORED AS PARQUET LOCATION '" + HiveDir() +
                    "'");
          con.Query("ANALYZE " + table);
          if (con.Query("SELECT count(*) FROM " + table).ToStrings() != Rows{{"126"}}) failures++;
          con.Query("CREATE OR REPLACE VIEW shared_view AS SELECT " + std::to_string(w) + " AS w");
          con.Query("SHOW TABLES");
          con.Query("DROP TABLE " + table);
        }
      } catch (const std::exception& e) {
        std::fprintf(stderr, "writer %d: %s\n", w, e.what());
        failures++;
      }
    });
  }
  std::vector<std::thread> readers;
  for (int r = 0; r < 2; r++) {
    readers.emplace_back([&, r] {
      Connection con(db_);
      for (size_t i = 0; !done.load() || i < queries.size(); i++) {
        const size_t q = (i + static_cast<size_t>(r)) % queries.size();
        try {
          if (con.Query(queries[q]).ToStrings() != expected_[q]) failures++;
          // The shared view exists from the first writer's first loop on; before, it is a
          // binder error, never anything else.
          const auto view = con.Query("SELECT w FROM shared_view").ToStrings();
          if (view != Rows{{"0"}} && view != Rows{{"1"}}) failures++;
        } catch (const BinderError&) {
        } catch (const std::exception& e) {
          std::fprintf(stderr, "reader %d: %s\n", r, e.what());
          failures++;
        }
        if (i > 200) break;
      }
    });
  }
  for (auto& thread : threads)
    thread.join();
  done.store(true);
  for (auto& thread : readers)
    thread.join();
  EXPECT_EQ(failures.load(), 0);
  Connection con(db_);
  EXPECT_EQ(con.Query("SELECT count(*) FROM sales").ToStrings(), (Rows{{"126"}}));
}

// A table whose location gains partitions (RECOVER PARTITIONS) while other threads query it:
// every answer is the table before or after, never a mix or an error.
TEST_F(ConcurrencyTest, TableGrowingWhileQueried) {
  test::TempDir dir;
  const std::string first = HiveDir() + "/year=2022/month=1";
  for (const auto& entry : fs::directory_iterator(first)) {
    dir.Add("year=2022/month=1/" + entry.path().filename().string(), entry.path().string());
  }
  Connection setup(db_);
  setup.Query("CREATE EXTERNAL TABLE growing STORED AS PARQUET LOCATION '" + dir.path() + "'");
  const Rows before = setup.Query("SELECT count(*) FROM growing").ToStrings();
  ASSERT_EQ(before, (Rows{{"10"}}));
  std::atomic<bool> done{false};
  std::atomic<int> failures{0};
  std::vector<std::thread> readers;
  for (int r = 0; r < 2; r++) {
    readers.emplace_back([&] {
      Connection con(db_);
      while (!done.load()) {
        try {
          const Rows rows = con.Query("SELECT count(*) FROM growing").ToStrings();
          if (rows != before && rows != Rows{{"20"}}) failures++;
        } catch (const std::exception& e) {
          std::fprintf(stderr, "reader: %s\n", e.what());
          failures++;
        }
      }
    });
  }
  try {
    for (const auto& entry : fs::directory_iterator(HiveDir() + "/year=2022/month=4")) {
      dir.Add("year=2022/month=4/" + entry.path().filename().string(), entry.path().string());
    }
    setup.Query("ALTER TABLE growing RECOVER PARTITIONS");
  } catch (const std::exception& e) {
    ADD_FAILURE() << e.what();
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  done.store(true);
  for (auto& thread : readers)
    thread.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(setup.Query("SELECT count(*) FROM growing").ToStrings(), (Rows{{"20"}}));
}

// A managed table written (INSERT, parallel partitioned writes, staged commit) while other
// threads query it and another table is created and dropped: readers see whole INSERTs only.
TEST_F(ConcurrencyTest, ManagedTableWrittenWhileQueried) {
  Connection writer(db_);
  writer.Query("CREATE TABLE written (x BIGINT, p BIGINT) PARTITIONED BY (p)");
  constexpr int kInserts = 8;
  std::atomic<bool> done{false};
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int r = 0; r < 2; r++) {
    threads.emplace_back([&] {
      Connection con(db_);
      while (!done.load()) {
        try {
          // Every INSERT adds 1,000 rows whose x sum to 499,500.
          const Rows rows =
              con.Query("SELECT count(*), coalesce(sum(x), 0) FROM written").ToStrings();
          const int64_t count = std::stoll(rows[0][0]);
          const int64_t sum = std::stoll(rows[0][1]);
          if (count % 1000 != 0 || sum != count / 1000 * 499500) failures++;
        } catch (const std::exception& e) {
          std::fprintf(stderr, "reader: %s\n", e.what());
          failures++;
        }
      }
    });
  }
  threads.emplace_back([&] {
    Connection con(db_);
    try {
      for (int i = 0; i < 3; i++) {
        con.Query(
            "CREATE TABLE scratch PARTITIONED BY (k) AS SELECT id, id % 5 AS k FROM range(3000)");
        if (con.Query("SELECT count(*) FROM scratch").ToStrings() != Rows{{"3000"}}) failures++;
        con.Query("DROP TABLE scratch");
      }
    } catch (const std::exception& e) {
      std::fprintf(stderr, "scratch: %s\n", e.what());
      failures++;
    }
  });
  try {
    for (int i = 0; i < kInserts; i++)
      writer.Query("INSERT INTO written SELECT id, id % 13 FROM range(1000)");
  } catch (const std::exception& e) {
    ADD_FAILURE() << e.what();
  }
  done.store(true);
  for (auto& thread : threads)
    thread.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(writer.Query("SELECT count(*), sum(x) FROM written").ToStrings(),
            (Rows{{std::to_string(kInserts * 1000), std::to_string(kInserts * 499500)}}));
}

// Interrupt from another thread at a random moment: the query ends with CancelledError (or
// its answer, if it finished first), promptly, and the connection answers the next query.
TEST_F(ConcurrencyTest, InterruptAtRandomPoints) {
  const std::string file = "'" + SortedFile() + "'";
  const std::vector<std::string> long_queries = {
      // 42 million join rows: probing runs long.
      "SELECT count(*) FROM " + file + " a JOIN " + file + " b ON a.rg_const = b.rg_const",
      // Aggregate and sort over a join's output.
      "SELECT a.skey, count(*) FROM " + file + " a JOIN " + file +
          " b ON a.rg_const = b.rg_const GROUP BY a.skey ORDER BY 2 DESC LIMIT 1",
      "SELECT a.id, b.id FROM " + file + " a JOIN " + file +
          " b ON a.rg_const = b.rg_const ORDER BY a.unsorted_double, b.skey LIMIT 1",
  };
  Connection con(db_);
  con.Query("SET threads = 2");
  std::mt19937 random(42);
  double worst_ms = 0;
  int cancelled = 0;
  for (int i = 0; i < 9; i++) {
    const std::string& sql = long_queries[static_cast<size_t>(i) % long_queries.size()];
    // The first interrupt comes at once (while planning, which cancels the query at its first
    // check), so at least one query is cancelled however fast the machine.
    const auto delay = std::chrono::microseconds(i == 0 ? 0 : random() % 30000);
    std::atomic<bool> finished{false};
    std::atomic<int64_t> interrupted_at{0};
    std::thread canceller([&] {
      std::this_thread::sleep_for(delay);
      // Planning may not be over yet: keep interrupting until the query is gone.
      while (!finished.load()) {
        con.Interrupt();
        int64_t expected = 0;
        interrupted_at.compare_exchange_strong(
            expected, std::chrono::steady_clock::now().time_since_epoch().count());
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      }
    });
    try {
      con.Query(sql);
    } catch (const CancelledError& e) {
      cancelled++;
      EXPECT_NE(std::string(e.what()).find("cancelled"), std::string::npos) << e.what();
    }
    const int64_t now = std::chrono::steady_clock::now().time_since_epoch().count();
    finished.store(true);
    canceller.join();
    // An interrupt that arrived after the query ended would cancel the next statement.
    con.ClearInterrupt();
    if (interrupted_at.load() != 0) {
      worst_ms =
          std::max(worst_ms, std::chrono::duration<double, std::milli>(
                                 std::chrono::steady_clock::duration(now - interrupted_at.load()))
                                 .count());
    }
    EXPECT_EQ(con.Query("SELECT count(*) FROM " + file).ToStrings(), (Rows{{"20480"}}));
  }
  EXPECT_GT(cancelled, 0);
  std::printf("cancelled %d of 9 queries; slowest stop after interrupt: %.1f ms\n", cancelled,
              worst_ms);
}

}  // namespace
}  // namespace shears

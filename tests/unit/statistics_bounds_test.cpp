// Statistics bounds (storage/statistics_bounds.h): a key's range over a set of files from their
// statistics alone, and the judgement whether the key follows the partitioning.

#include "storage/statistics_bounds.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <limits>

#include "main/connection.h"
#include "test_util.h"

namespace shears {
namespace {

// Ten partitions p of 100 rows: t = x (partition p holds 100p .. 100p + 99, every 10th NULL),
// m = x % 7 (every partition spans 0..6), s a string; partition 9's t all NULL.
std::shared_ptr<const Dataset> Write(const test::TempDir& dir, bool read_all_footers) {
  const std::string copy =
      "COPY (SELECT CASE WHEN x % 10 = 3 OR x >= 900 THEN NULL ELSE x END AS t, x % 7 AS m, "
      "CAST(x AS VARCHAR) AS s, x // 100 AS p FROM range(1000) r(x)) TO '" +
      dir.path() + "/t' (FORMAT parquet, PARTITION_BY (p))";
  Database database(dir.path() + "/db");
  Connection(database).Query(copy);
  DatasetOptions options;
  options.read_all_footers = read_all_footers;
  return Dataset::Open(dir.path() + "/t", options);
}

std::vector<uint8_t> Keep(const Dataset& dataset, const std::vector<int64_t>& partitions) {
  std::vector<uint8_t> keep(dataset.num_partitions(), 0);
  for (size_t p = 0; p < keep.size(); p++) {
    for (int64_t value : partitions) {
      if (dataset.partition_values(p)[0].GetInt64() == value) keep[p] = 1;
    }
  }
  return keep;
}

TEST(StatisticsBoundsTest, RangeOverTheKeptFilesOnly) {
  test::TempDir dir;
  const auto dataset = Write(dir, false);
  const int t = dataset->FindColumn("t");
  KeyRange range = FilesKeyRange(dataset, Keep(*dataset, {3, 4}), t);
  EXPECT_TRUE(range.unknown.empty()) << range.unknown;
  EXPECT_EQ(range.files, 2u);
  ASSERT_TRUE(range.min && range.max);
  EXPECT_EQ(range.min->GetInt64(), 300);
  EXPECT_EQ(range.max->GetInt64(), 499);
  // Every file: the range of all.
  range = FilesKeyRange(dataset, std::vector<uint8_t>(dataset->num_partitions(), 1), t);
  EXPECT_EQ(range.files, 10u);
  EXPECT_EQ(range.min->GetInt64(), 0);
  EXPECT_EQ(range.max->GetInt64(), 899);
}

TEST(StatisticsBoundsTest, NoKeyWhenNothingIsKeptOrOnlyNulls) {
  test::TempDir dir;
  const auto dataset = Write(dir, true);
  const int t = dataset->FindColumn("t");
  KeyRange range = FilesKeyRange(dataset, Keep(*dataset, {}), t);
  EXPECT_TRUE(range.unknown.empty());
  EXPECT_EQ(range.files, 0u);
  EXPECT_FALSE(range.min || range.max);
  // Partition 9 holds NULL keys only: it covers no key.
  range = FilesKeyRange(dataset, Keep(*dataset, {9}), t);
  EXPECT_TRUE(range.unknown.empty());
  EXPECT_EQ(range.files, 1u);
  EXPECT_FALSE(range.min || range.max);
  range = FilesKeyRange(dataset, Keep(*dataset, {8, 9}), t);
  EXPECT_EQ(range.min->GetInt64(), 800);
  EXPECT_EQ(range.max->GetInt64(), 899);
}

TEST(StatisticsBoundsTest, OnlyIntegerKeys) {
  test::TempDir dir;
  const auto dataset = Write(dir, true);
  const KeyRange range = FilesKeyRange(dataset, Keep(*dataset, {1}), dataset->FindColumn("s"));
  EXPECT_FALSE(range.unknown.empty());
  EXPECT_FALSE(range.min || range.max);
  EXPECT_FALSE(KeySpreadPerFile(dataset, dataset->FindColumn("s")));
}

TEST(StatisticsBoundsTest, FarApartFilesGiveSeveralRanges) {
  test::TempDir dir;
  const auto dataset = Write(dir, false);
  const int t = dataset->FindColumn("t");
  // Partitions 1 and 2 touch (199, 200), as do 5 and 6: two ranges, not [100, 699].
  KeyRange range = FilesKeyRange(dataset, Keep(*dataset, {1, 2, 5, 6}), t);
  EXPECT_TRUE(range.unknown.empty()) << range.unknown;
  EXPECT_EQ(range.files, 4u);
  EXPECT_EQ(range.min->GetInt64(), 100);
  EXPECT_EQ(range.max->GetInt64(), 699);
  EXPECT_EQ(range.ranges, (std::vector<KeyInterval>{{100, 299}, {500, 699}}));
  // Partition 9 holds NULL keys only: no range of its own.
  range = FilesKeyRange(dataset, Keep(*dataset, {3, 9}), t);
  EXPECT_EQ(range.ranges, (std::vector<KeyInterval>{{300, 399}}));
  // Nothing kept: no range.
  range = FilesKeyRange(dataset, Keep(*dataset, {}), t);
  EXPECT_TRUE(range.ranges.empty());
}

// 130 partitions, their footers read by two threads (one per 64 footers): the same ranges as
// by one. Every third partition's keys are NULL, so the others give a range per run of them.
TEST(StatisticsBoundsTest, FootersReadInParallelGiveTheSameRanges) {
  test::TempDir dir;
  Database database(dir.path() + "/db");
  Connection(database).Query(
      "COPY (SELECT CASE WHEN (x // 100) % 3 = 1 THEN NULL ELSE x END AS t, x // 100 AS p FROM "
      "range(13000) r(x)) TO '" +
      dir.path() + "/t' (FORMAT parquet, PARTITION_BY (p))");
  const auto parallel = Dataset::Open(dir.path() + "/t", DatasetOptions{});
  const auto serial = Dataset::Open(dir.path() + "/t", DatasetOptions{});
  const std::vector<uint8_t> all(parallel->num_partitions(), 1);
  const KeyRange many = FilesKeyRange(parallel, all, parallel->FindColumn("t"), 4);
  const KeyRange one = FilesKeyRange(serial, all, serial->FindColumn("t"), 1);
  EXPECT_TRUE(many.unknown.empty()) << many.unknown;
  EXPECT_GE(many.files, 130u);  // the writer's threads may split a partition
  EXPECT_EQ(many.files, one.files);
  EXPECT_EQ(many.ranges, one.ranges);
  // Partitions 0, 2-3, 5-6, ..., 128-129: 44 ranges.
  ASSERT_EQ(many.ranges.size(), 44u);
  EXPECT_EQ(many.ranges[0], (KeyInterval{0, 99}));
  EXPECT_EQ(many.ranges[1], (KeyInterval{200, 399}));
  EXPECT_EQ(many.ranges.back(), (KeyInterval{12800, 12999}));
}

// A file whose bounds cannot be trusted for the dataset's type (INTEGER where the others widen
// it to BIGINT): no range, whatever the other files say.
TEST(StatisticsBoundsTest, UnknownBoundsGiveNoRanges) {
  test::TempDir dir;
  Database database(dir.path() + "/db");
  Connection connection(database);
  for (const char* partition : {"p=0", "p=1", "p=2"})
    std::filesystem::create_directories(dir.path() + "/t/" + partition);
  connection.Query("COPY (SELECT CAST(x AS INTEGER) AS t FROM range(10) r(x)) TO '" + dir.path() +
                   "/t/p=0/a.parquet' (FORMAT parquet)");
  connection.Query("COPY (SELECT x + 100 AS t FROM range(10) r(x)) TO '" + dir.path() +
                   "/t/p=1/a.parquet' (FORMAT parquet)");
  connection.Query("COPY (SELECT x + 200 AS t FROM range(10) r(x)) TO '" + dir.path() +
                   "/t/p=2/a.parquet' (FORMAT parquet)");
  DatasetOptions options;
  options.read_all_footers = true;
  const auto dataset = Dataset::Open(dir.path() + "/t", options);
  const int t = dataset->FindColumn("t");
  const KeyRange range =
      FilesKeyRange(dataset, std::vector<uint8_t>(dataset->num_partitions(), 1), t);
  EXPECT_FALSE(range.unknown.empty());
  EXPECT_FALSE(range.min || range.max);
  EXPECT_TRUE(range.ranges.empty());
  // Without that file: two ranges (100..109, 200..209).
  EXPECT_EQ(FilesKeyRange(dataset, Keep(*dataset, {1, 2}), t).ranges.size(), 2u);
}

TEST(MergeKeyIntervalsTest, EmptySet) {
  EXPECT_TRUE(MergeKeyIntervals({}, kMaxStatisticsRanges).empty());
}

TEST(MergeKeyIntervalsTest, OverlappingAndAdjacentIntervalsJoined) {
  // Unsorted; [1, 4] and [5, 9] touch (no integer between them); [3, 6] overlaps both;
  // [11, 12] is apart (10 between), [20, 20] and [20, 25] overlap.
  EXPECT_EQ(MergeKeyIntervals({{20, 25}, {5, 9}, {1, 4}, {11, 12}, {3, 6}, {20, 20}}, 64),
            (std::vector<KeyInterval>{{1, 9}, {11, 12}, {20, 25}}));
  // One inside another.
  EXPECT_EQ(MergeKeyIntervals({{0, 100}, {10, 20}}, 64), (std::vector<KeyInterval>{{0, 100}}));
}

TEST(MergeKeyIntervalsTest, BoundOnTheCountJoinsTheClosestFirst) {
  // Gaps: 9 keys between 0 and 10, 1 between 10 and 12, 17 between 12 and 30.
  const std::vector<KeyInterval> four = {{0, 0}, {10, 10}, {12, 12}, {30, 30}};
  EXPECT_EQ(MergeKeyIntervals(four, 4), four);
  EXPECT_EQ(MergeKeyIntervals(four, 3), (std::vector<KeyInterval>{{0, 0}, {10, 12}, {30, 30}}));
  EXPECT_EQ(MergeKeyIntervals(four, 2), (std::vector<KeyInterval>{{0, 12}, {30, 30}}));
  EXPECT_EQ(MergeKeyIntervals(four, 1), (std::vector<KeyInterval>{{0, 30}}));
  EXPECT_EQ(MergeKeyIntervals(four, 0), (std::vector<KeyInterval>{{0, 30}}));  // at least one
  // Equal gaps: the leftmost joined first, so every process gets the same ranges.
  EXPECT_EQ(MergeKeyIntervals({{0, 0}, {5, 5}, {10, 10}}, 2),
            (std::vector<KeyInterval>{{0, 5}, {10, 10}}));
  // Many: never more than the bound, every input value still covered.
  std::vector<KeyInterval> days;
  for (int64_t d = 0; d < 1000; d++)
    days.push_back({d * 1000 + (d % 7) * 10, d * 1000 + 500});
  const auto ranges = MergeKeyIntervals(days, kMaxStatisticsRanges);
  ASSERT_EQ(ranges.size(), kMaxStatisticsRanges);
  EXPECT_EQ(ranges.front().min, 0);
  EXPECT_EQ(ranges.back().max, 999500);
  for (size_t i = 0; i < days.size(); i++) {
    const auto covering = std::find_if(ranges.begin(), ranges.end(), [&](const KeyInterval& r) {
      return r.min <= days[i].min && days[i].max <= r.max;
    });
    EXPECT_NE(covering, ranges.end()) << i;
  }
}

TEST(MergeKeyIntervalsTest, ExtremeKeys) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(MergeKeyIntervals({{0, kMax}, {kMin, -1}}, 64),
            (std::vector<KeyInterval>{{kMin, kMax}}));
  EXPECT_EQ(MergeKeyIntervals({{kMax, kMax}, {kMax - 5, kMax}}, 64),
            (std::vector<KeyInterval>{{kMax - 5, kMax}}));
  // The widest gap there is: joined only when the bound asks.
  EXPECT_EQ(MergeKeyIntervals({{kMin, kMin}, {kMax, kMax}}, 2),
            (std::vector<KeyInterval>{{kMin, kMin}, {kMax, kMax}}));
  EXPECT_EQ(MergeKeyIntervals({{kMax, kMax}, {kMin, kMin}, {0, 0}}, 1),
            (std::vector<KeyInterval>{{kMin, kMax}}));
}

TEST(StatisticsBoundsTest, SpreadTellsAKeyFollowingThePartitioning) {
  test::TempDir dir;
  // Footers read while opening: every file's bounds are known.
  const auto dataset = Write(dir, true);
  const auto follows = KeySpreadPerFile(dataset, dataset->FindColumn("t"));
  ASSERT_TRUE(follows);
  EXPECT_LT(*follows, 0.2);
  const auto spread = KeySpreadPerFile(dataset, dataset->FindColumn("m"));
  ASSERT_TRUE(spread);
  EXPECT_GT(*spread, 0.9);
}

TEST(StatisticsBoundsTest, SpreadJudgedAlikeWhateverTheFooterCacheHolds) {
  test::TempDir dir;
  // Only the first footer read while opening, the files too new for the footer cache: the
  // sampled files' footers are read, so every process judges the same.
  const auto dataset = Write(dir, false);
  const auto follows = KeySpreadPerFile(dataset, dataset->FindColumn("t"));
  ASSERT_TRUE(follows);
  DatasetOptions every_footer;
  every_footer.read_all_footers = true;
  const auto all_read = Dataset::Open(dir.path() + "/t", every_footer);
  EXPECT_DOUBLE_EQ(*follows, *KeySpreadPerFile(all_read, all_read->FindColumn("t")));
}

}  // namespace
}  // namespace shears

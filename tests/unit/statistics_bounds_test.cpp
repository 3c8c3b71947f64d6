// Statistics bounds (storage/statistics_bounds.h): a key's range over a set of files from their
// statistics alone, and the judgement whether the key follows the partitioning.

#include "storage/statistics_bounds.h"

#include <gtest/gtest.h>

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

// The split enumerator: a dynamic filter published after the scan started still prunes every
// partition not yet opened; the splits handed out are exactly the row groups of the files kept.

#include "storage/split_enumerator.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "main/connection.h"
#include "storage/parquet/parquet_file.h"
#include "storage/scan_filter.h"
#include "storage/split_pruning.h"
#include "test_util.h"

namespace shears {
namespace {

// A pruner whose one filter (keep even partitions by index) is published when the test says.
class LatePruner : public PartitionPruner {
 public:
  bool published = false;
  size_t FiltersAvailable() override { return published ? 1 : 0; }
  bool PartitionMayMatch(size_t partition) override { return !published || partition % 2 == 0; }
};

TEST(SplitEnumeratorTest, AFilterPublishedLatePrunesThePartitionsNotYetOpened) {
  test::TempDir dir;
  Database database(dir.path() + "/db");
  Connection connection(database);
  connection.Query("COPY (SELECT x, x % 10 AS p FROM range(100) r(x)) TO '" + dir.path() +
                   "/t' (FORMAT parquet, PARTITION_BY (p))");
  auto dataset = Dataset::Open(dir.path() + "/t");
  ASSERT_EQ(dataset->num_partitions(), 10u);
  ScanMetrics metrics;
  LatePruner pruner;
  uint64_t done = 0;
  SplitEnumerator splits(dataset, std::vector<uint8_t>(10, 1), &pruner, metrics,
                         [&](uint64_t bytes) { done += bytes; });
  EXPECT_EQ(splits.files_at_start(), 10u);
  // Nothing published yet: the first file is opened.
  ScanSplit split;
  ASSERT_TRUE(splits.Next(split));
  std::set<uint32_t> partitions = {dataset->partition_of(split.file_index)};
  // Published now: of the nine files not yet opened only those of even partitions are.
  pruner.published = true;
  while (splits.Next(split))
    partitions.insert(dataset->partition_of(split.file_index));
  size_t late_pruned = 0;
  for (size_t p = 1; p < 10; p++) {
    if (p != *partitions.begin() && p % 2 == 1) late_pruned++;
  }
  EXPECT_EQ(metrics.partitions_pruned_late.load(), late_pruned);
  EXPECT_EQ(metrics.files_pruned_dynamic.load(), late_pruned);
  EXPECT_EQ(metrics.files_read.load(), 10u - late_pruned);
  for (uint32_t p : partitions) {
    if (p != dataset->partition_of(0)) EXPECT_EQ(p % 2, 0u) << p;
  }
  // Pruned files count as done for the progress estimate.
  uint64_t pruned_bytes = 0;
  for (size_t f = 0; f < dataset->files().size(); f++) {
    if (!partitions.count(dataset->partition_of(f)))
      pruned_bytes += SplitEnumerator::ProgressBytes(dataset->files()[f]);
  }
  EXPECT_EQ(done, pruned_bytes);
}

// A file checked before opening on its cached footer is opened with that footer, and its one
// row group carries the check: split pruning gives the same verdicts without repeating it.
TEST(SplitEnumeratorTest, AFileCheckedOnItsCachedFooterIsOpenedWithIt) {
  test::TempDir dir;
  Database database(dir.path() + "/db");
  Connection connection(database);
  connection.Query("COPY (SELECT x, x % 10 AS p FROM range(100) r(x)) TO '" + dir.path() +
                   "/t' (FORMAT parquet, PARTITION_BY (p))");
  // Files written in the last two seconds are not cached: make them older, then cache them.
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir.path() + "/t")) {
    if (entry.is_regular_file())
      std::filesystem::last_write_time(
          entry.path(), std::filesystem::last_write_time(entry.path()) - std::chrono::hours(1));
  }
  auto dataset = Dataset::Open(dir.path() + "/t");
  for (size_t f = 0; f < dataset->files().size(); f++)
    dataset->OpenFile(f);
  // x >= 95: the partitions 5 to 9 hold such an x, 0 to 4 do not.
  std::vector<BoundExprPtr> args;
  args.push_back(std::make_unique<BoundReference>(LogicalType::Bigint(), 0, "x"));
  args.push_back(std::make_unique<BoundConstant>(Value::Bigint(95)));
  BoundScalarFunction function;
  function.name = ">=";
  function.arg_types = {LogicalType::Bigint(), LogicalType::Bigint()};
  function.return_type = LogicalType::Boolean();
  BoundFunction filter(std::move(function), std::move(args));
  ScanMetrics metrics;
  SplitPruning pruning(dataset, {0}, {&filter}, metrics);
  SplitEnumerator splits(
      dataset, std::vector<uint8_t>(10, 1), nullptr, metrics, [](uint64_t) {},
      [&](size_t file_index, FileCheck& check) {
        return pruning.FileMayMatch(file_index, {}, &check);
      });
  const auto before = parquet::GetFooterCacheStats();
  ScanSplit split;
  size_t read = 0;
  while (splits.Next(split)) {
    read++;
    EXPECT_GE(dataset->partition_values(dataset->partition_of(split.file_index))[0].GetInt64(), 5);
    ASSERT_TRUE(split.file_check);
    EXPECT_TRUE(split.file_check->passed);
    EXPECT_EQ(split.file_check->footer, split.file->footer());
    EXPECT_EQ(pruning.Check(split, {}, false).kind, SplitVerdict::kReadAll);
    // Without the file check, the row group's own check agrees.
    split.file_check.reset();
    EXPECT_EQ(pruning.Check(split, {}, false).kind, SplitVerdict::kReadAll);
  }
  EXPECT_EQ(read, 5u);
  EXPECT_EQ(metrics.files_skipped_unopened.load(), 5u);
  EXPECT_EQ(parquet::GetFooterCacheStats().footers_parsed, before.footers_parsed);
}

// A dynamic partition filter is one more conjunct of the scan (BoundPartitionFilter), tested at
// the partition level only: each partition's value looked up in the published filter; the
// levels below never see it; its counters credit the partitions and files it removed.
TEST(SplitEnumeratorTest, APartitionFilterIsAConjunctTestedOnPartitionValues) {
  test::TempDir dir;
  Database database(dir.path() + "/db");
  Connection connection(database);
  connection.Query("COPY (SELECT x, x % 10 AS p FROM range(100) r(x)) TO '" + dir.path() +
                   "/t' (FORMAT parquet, PARTITION_BY (p))");
  auto dataset = Dataset::Open(dir.path() + "/t");
  const int p = static_cast<int>(dataset->num_file_columns());  // the partition column
  DynamicPartitionFilter partition_filter;
  partition_filter.filter_id = 7;
  partition_filter.column_id = p;
  const std::vector<int> column_ids = {0, p};
  const std::vector<BoundExprPtr> literal;
  const std::vector<RuntimeFilterTarget> runtime;
  ScanFilterSpec spec(*dataset, literal, column_ids, runtime, {partition_filter});
  ASSERT_EQ(spec.conjuncts().size(), 1u);
  EXPECT_TRUE(TestsPartitionsOnly(*spec.conjuncts()[0]));
  EXPECT_TRUE(spec.empty());  // no conjunct tests rows
  ScanMetrics metrics;
  metrics.dynamic_filters = std::make_unique<DynamicFilterScanCounters[]>(1);
  DynamicFilterRegistry registry;
  RuntimePartitionPruner pruner(*dataset, spec.conjuncts(), registry, metrics);
  EXPECT_EQ(pruner.FiltersAvailable(), 0u);  // not published: every partition may match
  EXPECT_TRUE(pruner.PartitionMayMatch(0));
  // The join's build keys 2 and 4, in the partition column's type.
  const LogicalType type = dataset->columns()[static_cast<size_t>(p)].type;
  auto filter = std::make_shared<RuntimeFilter>(std::vector<LogicalType>{type});
  Vector keys(type, 2);
  auto key = [&](int v) {
    return type.physical() == PhysicalType::kInt32 ? Value::Integer(v) : Value::Bigint(v);
  };
  WriteValue(keys, 0, key(2));
  WriteValue(keys, 1, key(4));
  filter->Add({&keys}, 2);
  filter->Finish({}, 2, 0);
  registry.PublishRuntime(7, filter);
  EXPECT_EQ(pruner.FiltersAvailable(), 1u);
  size_t kept = 0;
  for (size_t partition = 0; partition < dataset->num_partitions(); partition++) {
    const int64_t value = dataset->partition_values(partition)[0].GetInt64();
    EXPECT_EQ(pruner.PartitionMayMatch(partition), value == 2 || value == 4) << value;
    kept += pruner.PartitionMayMatch(partition) ? 1 : 0;
  }
  EXPECT_EQ(kept, 2u);
  EXPECT_EQ(metrics.dynamic_filters_not_ready.load(), 1u);
  EXPECT_EQ(metrics.dynamic_filters_ready_late.load(), 1u);
  EXPECT_EQ(metrics.dynamic_filters[0].keys.load(), 2u);
}

}  // namespace
}  // namespace shears

// EXPLAIN ANALYZE counters live in the execution, not in the operators: one physical plan run
// by two executions, one after the other or at once, gives each its own counts.

#include <gtest/gtest.h>

#include <string>
#include <thread>

#include "execution/operator/physical_result_collector.h"
#include "execution/operator/physical_table_scan.h"
#include "execution/pipeline.h"
#include "execution/query_context.h"
#include "storage/dataset.h"
#include "test_util.h"

namespace shears {
namespace {

// 126 rows in 13 files of year=/month= partitions.
const std::string kYearMonth = test::SourceDir() + "/tests/data/hive/hive_year_month";

std::unique_ptr<PhysicalResultCollector> ScanPlan() {
  auto scan = std::make_unique<PhysicalTableScan>(Dataset::Open(kYearMonth), std::vector<int>{0},
                                                  std::vector<BoundExprPtr>{}, "hive_year_month");
  auto root = std::make_unique<PhysicalResultCollector>(scan->types());
  root->AddChild(std::move(scan));
  return root;
}

std::string Detail(const PhysicalOperator& op, ExecutionContext& context, const std::string& name) {
  for (const auto& [key, value] : op.AnalyzeDetails(context)) {
    if (key == name) return value;
  }
  return "missing";
}

struct Counts {
  uint64_t rows_out = 0;
  std::string rows_scanned, files_read;
};

Counts Execute(PhysicalResultCollector& root, int threads) {
  QueryContext query{Settings()};
  ExecutionContext context(query, threads);
  Executor(context).Execute(root);
  const PhysicalOperator& scan = *root.children()[0];
  return {context.metrics(&scan).rows_out.load(), Detail(scan, context, "rows_scanned"),
          Detail(scan, context, "files_read")};
}

TEST(OperatorMetricsTest, EachExecutionCountsItsOwn) {
  auto root = ScanPlan();
  for (int round = 0; round < 2; round++) {
    const Counts run = Execute(*root, 2);
    EXPECT_EQ(run.rows_out, 126u) << "round " << round;
    EXPECT_EQ(run.rows_scanned, "126") << "round " << round;
    EXPECT_EQ(run.files_read, "13") << "round " << round;
  }
}

TEST(OperatorMetricsTest, ConcurrentExecutionsOfOnePlan) {
  auto root = ScanPlan();
  Counts a, b;
  std::thread other([&] { a = Execute(*root, 1); });
  b = Execute(*root, 1);
  other.join();
  for (const Counts* run : {&a, &b}) {
    EXPECT_EQ(run->rows_out, 126u);
    EXPECT_EQ(run->rows_scanned, "126");
  }
}

}  // namespace
}  // namespace shears

#pragma once
// Scans a CSV dataset (read_csv, FROM 'x.csv'). Partitions are pruned when the scan starts, by
// the filters on partition columns and by dynamic partition filters, as PhysicalTableScan does
// for Parquet; each remaining file is cut into byte ranges of csv_chunk_bytes that threads
// parse in parallel. A range starts at the first line boundary after its first byte where rows
// parse; when a range ends, the scan checks that the previous range stopped exactly there (a
// quoted newline could fool the guess) and fails the query rather than return wrong rows.
// Files whose sampled quoted fields hold line breaks are not split at all.

#include "dynfilter/dynamic_filter.h"
#include "execution/physical_operator.h"
#include "expression/expression.h"
#include "storage/dataset.h"

namespace shears {

class PhysicalCsvScan : public PhysicalOperator {
 public:
  /// As PhysicalTableScan's; `dataset` has csv() set. Runtime join filters are not applied
  /// (the join checks its keys anyway).
  PhysicalCsvScan(std::shared_ptr<const Dataset> dataset, std::vector<int> column_ids,
                  std::vector<BoundExprPtr> filters, std::string table_name,
                  std::vector<DynamicPartitionFilter> dynamic_filters);

  bool IsSource() const override { return true; }
  std::unique_ptr<GlobalSourceState> GetGlobalSourceState(ExecutionContext& context) const override;
  std::unique_ptr<LocalSourceState> GetLocalSourceState(ExecutionContext& context,
                                                        GlobalSourceState& global) const override;
  bool GetData(ExecutionContext& context, Batch& out, GlobalSourceState& global,
               LocalSourceState& local) const override;
  std::string Describe() const override;
  std::vector<std::pair<std::string, std::string>> AnalyzeDetails(
      ExecutionContext& context) const override;
  std::vector<int> ConsumedDynamicFilters() const override;
  std::unique_ptr<OperatorMetrics> MakeMetrics() const override;

 private:
  std::shared_ptr<const Dataset> dataset_;
  std::vector<int> column_ids_;
  std::vector<BoundExprPtr> filters_;
  std::string table_name_;
  std::vector<DynamicPartitionFilter> dynamic_filters_;
};

}  // namespace shears

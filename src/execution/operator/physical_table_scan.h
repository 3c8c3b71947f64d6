#pragma once
// Scans a dataset: a thin driver over the storage layer. The split enumerator
// (storage/split_enumerator.h) prunes partitions statically and by dynamic filters, also by
// those published after the scan started, opens files and hands out row groups; split pruning
// (storage/split_pruning.h) rules row groups and pages out by statistics, bloom filters,
// dictionaries and the page index; the reader decodes the rest, the literal filters and the
// runtime join filters (dynfilter/runtime_filter_probe.h, adaptive) drop rows right after they
// are read. docs/dynamic_filtering.md follows a filter through all of it.

#include <functional>
#include <memory>

#include "dynfilter/dynamic_filter.h"
#include "execution/physical_operator.h"
#include "expression/expression.h"
#include "storage/dataset.h"
#include "storage/scan_metrics.h"
#include "storage/split_enumerator.h"
#include "storage/split_pruning.h"
#include "storage/statistics_bounds.h"

namespace shears {

class ScanFilterSpec;  // storage/scan_filter.h

class PhysicalTableScan : public PhysicalOperator {
 public:
  /// Outputs dataset columns `column_ids` (in that order). `filters` are conjuncts over the
  /// output columns (BoundReference i = column_ids[i]).
  PhysicalTableScan(std::shared_ptr<const Dataset> dataset, std::vector<int> column_ids,
                    std::vector<BoundExprPtr> filters, std::string table_name,
                    std::vector<DynamicPartitionFilter> dynamic_filters = {},
                    std::vector<RuntimeFilterTarget> runtime_filters = {});
  ~PhysicalTableScan() override;

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
  const std::vector<int>& column_ids() const { return column_ids_; }
  const Dataset& dataset() const { return *dataset_; }
  /// The bytes this scan counts in its query's progress (QueryProgress): every file of the
  /// dataset, pruned or not (estimated for a dataset whose files are not listed).
  uint64_t PlannedBytes() const;
  /// Spreads the scan over several processes (src/distributed): each execution takes its files
  /// from a FileAssignment made by `make` instead of reading them all.
  using FileAssignmentFactory = std::function<std::unique_ptr<FileAssignment>()>;
  void SetFileAssignment(FileAssignmentFactory make) { make_assignment_ = std::move(make); }
  bool distributed() const { return static_cast<bool>(make_assignment_); }
  /// The statistics bounds this scan publishes when it starts (statistics_bounds.h), each
  /// among its runtime filters; and the scan's filters, for a scan whose kept files bound
  /// another (StatisticsBoundsSource).
  void SetStatisticsBounds(std::vector<StatisticsBoundsTarget> bounds) {
    statistics_bounds_ = std::move(bounds);
  }
  const ScanFilterSpec& filter_spec() const { return *filter_spec_; }

 private:
  /// Takes the next split that survives split pruning and starts the reader on it; false
  /// when the scan has nothing left.
  bool StartNextSplit(ExecutionContext& context, LocalSourceState& local,
                      GlobalSourceState& global) const;

  /// Publishes each statistics bound: the range of its key over the files its source keeps
  /// by the filters published by then (the executor runs their producers first).
  void PublishStatisticsBounds(ExecutionContext& context) const;
  /// EXPLAIN ANALYZE's line for statistics bound `filter_id` (`filter`: as published, or null).
  std::string StatisticsBoundsText(int filter_id, const RuntimeFilter* filter) const;

  std::shared_ptr<const Dataset> dataset_;
  std::vector<int> column_ids_;
  std::vector<BoundExprPtr> filters_;
  std::string table_name_;
  std::vector<DynamicPartitionFilter> dynamic_filters_;
  std::vector<RuntimeFilterTarget> runtime_filters_;
  // What rows are filtered by (storage/scan_filter.h), over filters_ and runtime_filters_.
  std::unique_ptr<ScanFilterSpec> filter_spec_;
  FileAssignmentFactory make_assignment_;
  std::vector<StatisticsBoundsTarget> statistics_bounds_;
};

}  // namespace shears

#pragma once
// Scans a dataset: files are pruned by static partition filters when the scan starts, then
// (file, row group) morsels are handed to the worker threads; each morsel's row groups are
// pruned by statistics, read, and filtered row by row. Runtime join filters, once their join's
// build side has published them, skip row groups by their key range and drop rows right after
// they are read; one that drops too little is paused and re-checked from time to time.

#include <atomic>

#include "dynfilter/dynamic_filter.h"
#include "execution/operator/stats_pruning.h"
#include "execution/physical_operator.h"
#include "planner/expression.h"
#include "storage/dataset.h"

namespace shears {

struct ScanMorsel;

/// Counters of one scan, for EXPLAIN ANALYZE (JSON names in docs/metrics.md).
struct ScanMetrics {
  std::atomic<uint64_t> files_total{0};
  std::atomic<uint64_t> files_pruned_static{0};
  std::atomic<uint64_t> files_read{0};
  std::atomic<uint64_t> footers_cached{0};  // files_read whose footer was not read again
  std::atomic<uint64_t> partitions_total{0};
  std::atomic<uint64_t> partitions_pruned_static{0};
  std::atomic<uint64_t> partitions_pruned_dynamic{0};
  std::atomic<uint64_t> files_pruned_dynamic{0};
  std::atomic<uint64_t> dynamic_filters_ready{0};
  std::atomic<uint64_t> dynamic_filters_not_ready{0};
  std::atomic<uint64_t> dynamic_filter_keys{0};
  std::atomic<uint64_t> dynamic_pruning_nanos{0};
  std::atomic<uint64_t> row_groups_total{0};
  std::atomic<uint64_t> row_groups_pruned{0};
  std::atomic<uint64_t> row_groups_read{0};
  std::atomic<uint64_t> rows_scanned{0};
  std::atomic<uint64_t> rows_filtered{0};
  std::atomic<uint64_t> bytes_read{0};
  std::atomic<uint64_t> row_groups_pruned_runtime{0};
  std::atomic<uint64_t> runtime_filter_rows_dropped{0};
  std::atomic<uint64_t> row_groups_pruned_dictionary{0};
  std::atomic<uint64_t> pages_read{0};
  std::atomic<uint64_t> pages_skipped{0};
  std::atomic<uint64_t> pages_skipped_runtime{0};
  std::atomic<uint64_t> page_indexes_invalid{0};
};

class PhysicalTableScan : public PhysicalOperator {
 public:
  /// Outputs dataset columns `column_ids` (in that order). `filters` are conjuncts over the
  /// output columns (BoundReference i = column_ids[i]).
  PhysicalTableScan(std::shared_ptr<const Dataset> dataset, std::vector<int> column_ids,
                    std::vector<BoundExprPtr> filters, std::string table_name,
                    std::vector<DynamicPartitionFilter> dynamic_filters = {},
                    std::vector<RuntimeFilterTarget> runtime_filters = {});

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
  const ScanMetrics& scan_metrics() const { return scan_metrics_; }
  const std::vector<int>& column_ids() const { return column_ids_; }
  const Dataset& dataset() const { return *dataset_; }
  /// The bytes this scan counts in its query's progress (QueryProgress): every file of the
  /// dataset, pruned or not.
  uint64_t PlannedBytes() const;

 private:
  /// The next morsel (one row group) into `morsel`, opening files as needed; false when the
  /// scan has nothing left.
  bool NextMorsel(ExecutionContext& context, GlobalSourceState& global, ScanMorsel& morsel) const;
  /// False when a published runtime filter shows the row group (statistics via `lookup`)
  /// holds no row that can join.
  bool RuntimeFiltersMayMatch(ExecutionContext& context, LocalSourceState& local,
                              const StatsLookup& lookup, const parquet::ParquetFile& file,
                              const DatasetFile& dataset_file, int row_group) const;
  /// A file's weight in the progress estimate: its size (at least 1, so empty files count).
  static uint64_t ProgressBytes(const DatasetFile& file);
  /// What the page index says about a row group about to be read.
  enum class PagePruning { kReadAll, kStarted, kNoRows, kNoRowsRuntime };
  /// Page pruning of `row_group` of `file` by the literal predicates and published runtime
  /// filters: kStarted when the reader was set up to read only the pages that can match,
  /// kNoRows(Runtime) when no page can (by the literal predicates / only with the runtime
  /// filters), kReadAll when the page index rules out nothing (or there is none).
  PagePruning PrunePages(LocalSourceState& local, size_t file_index,
                         const std::shared_ptr<parquet::ParquetFile>& file, int row_group) const;
  /// False when a single-column exact set `filter` shares no key with the dictionary of
  /// file column `in_file`, whose every data page is dictionary encoded.
  bool DictionaryMayMatch(const RuntimeFilter& filter, const parquet::ParquetFile& file,
                          int in_file, int row_group) const;
  /// Applies the filters, then the runtime filters, to `batch`, compacting it; returns the
  /// rows left. `alive` (optional) maps the rows to the original ones and is kept in step.
  idx_t FilterRows(LocalSourceState& local, Batch& batch,
                   std::vector<uint32_t>* alive = nullptr) const;
  /// Drops the rows of `batch` that no runtime filter lets through; returns the rows left.
  idx_t ApplyRuntimeFilters(LocalSourceState& local, Batch& batch,
                            std::vector<uint32_t>* alive = nullptr) const;

  std::shared_ptr<const Dataset> dataset_;
  std::vector<int> column_ids_;
  std::vector<BoundExprPtr> filters_;
  std::string table_name_;
  std::vector<DynamicPartitionFilter> dynamic_filters_;
  std::vector<RuntimeFilterTarget> runtime_filters_;
  // Scan columns the literal filters read (candidates for page pruning).
  std::vector<idx_t> filter_columns_;
  // Scan columns read before the others under late materialization: filter and runtime
  // filter key columns.
  std::vector<bool> first_columns_;
  // For each runtime filter: the scan output positions of its key columns.
  std::vector<std::vector<idx_t>> runtime_filter_columns_;
  mutable ScanMetrics scan_metrics_;
};

}  // namespace shears

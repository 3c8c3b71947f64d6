#pragma once
// Row filtering of a table scan: what the scan's filters do to the rows a DatasetReader reads
// from a split that pruning let through. Conjuncts over dictionary-encoded columns run first,
// once per dictionary entry (dictionary_filter.h), then the `column OP constant` terms, selected
// straight into one selection vector (constant_comparison.h); then the others one at a time,
// literal ones by the executor and the published runtime join filters
// (dynfilter/runtime_filter_probe.h, adaptive), in an order each scan thread measures
// (OrderRowConjuncts): a runtime filter that drops more rows per nanosecond than a literal
// conjunct runs before it. Under late materialization the filters' columns are read first and
// the other columns only for the rows left.

#include <algorithm>
#include <memory>
#include <vector>

#include "dynfilter/dynamic_filter.h"
#include "dynfilter/runtime_filter_probe.h"
#include "expression/constant_comparison.h"
#include "expression/expression.h"
#include "storage/dataset_reader.h"
#include "storage/dictionary_filter.h"
#include "storage/parquet/minmax_pruning.h"
#include "storage/scan_metrics.h"

namespace shears {

/// What a scan filters by, derived once per scan; shared by the scan's threads. Its conjuncts
/// are one list, the literal predicates first, then one BoundRuntimeFilter per runtime filter
/// (`key IN runtime_filter #n`, slot i for runtime filter i), then one per dynamic partition
/// filter (BoundPartitionFilter, slot i for partition filter i): partition pruning,
/// split pruning and row filtering check them in one loop each, every level the conjuncts that
/// tell it something (a partition filter only partitions).
class ScanFilterSpec {
 public:
  /// `filters`: literal conjuncts over the scan's output columns, dataset columns `column_ids`;
  /// `runtime`: the runtime filters whose key columns (dataset column ids) are among them;
  /// `partitions`: the dynamic partition filters on the dataset's partition columns.
  ScanFilterSpec(const Dataset& dataset, const std::vector<BoundExprPtr>& filters,
                 const std::vector<int>& column_ids,
                 const std::vector<RuntimeFilterTarget>& runtime,
                 const std::vector<DynamicPartitionFilter>& partitions = {});

  /// Every conjunct, literal ones first, then the runtime ones in slot order, then the partition
  /// filters in slot order.
  const std::vector<const BoundExpr*>& conjuncts() const { return conjuncts_; }
  const std::vector<RuntimeFilterTarget>& runtime() const { return *runtime_; }
  /// For each runtime filter: the output positions of its key columns.
  const std::vector<std::vector<idx_t>>& runtime_columns() const { return runtime_columns_; }
  /// For each runtime filter: its key computed from its one column, if it is.
  const std::vector<ComputedRuntimeKey>& runtime_keys() const { return runtime_keys_; }
  /// Output columns a filter or runtime filter reads: read first under late materialization.
  const std::vector<bool>& first_columns() const { return first_columns_; }
  /// Whether late materialization can pay: some filter, and some column no filter reads.
  bool LateMaterializationPays() const;
  /// Whether no conjunct tests rows (partition filters do not).
  bool empty() const { return !tests_rows_; }
  /// Whether some conjunct is a literal one.
  bool any_literal() const { return any_literal_; }

 private:
  friend class ScanRowFilter;
  const std::vector<RuntimeFilterTarget>* runtime_;
  // The BoundRuntimeFilters, by slot, then the partition filters' by slot.
  std::vector<BoundExprPtr> runtime_conjuncts_;
  bool tests_rows_ = false;
  bool any_literal_ = false;
  std::vector<const BoundExpr*> conjuncts_;
  // The `column OP constant` conjuncts, prepared once (a BETWEEN's bounds as one range).
  ConstantComparisons constant_comparisons_;
  std::vector<std::vector<idx_t>> runtime_columns_;
  std::vector<ComputedRuntimeKey> runtime_keys_;
  std::vector<bool> first_columns_;
};

/// What a conjunct tested one at a time cost a scan thread recently.
struct ConjunctCost {
  double rows_in = 0, rows_out = 0, nanos = 0;
  /// Rows dropped per nanosecond: the higher, the earlier it should run.
  double Rank() const { return (rows_in - rows_out) / std::max(nanos, 1.0); }
};

/// The order to test conjuncts `order` in (indexes into `costs`; `runtime[c]`: conjunct c is a
/// runtime one): the literal ones keep their order (one may guard another that fails on some
/// rows), and each runtime one, by rank, goes before the first literal one it outranks. A
/// runtime conjunct only drops rows that cannot join, so running it earlier changes no answer.
std::vector<size_t> OrderRowConjuncts(const std::vector<size_t>& order,
                                      const std::vector<bool>& runtime,
                                      const std::vector<ConjunctCost>& costs);

struct ScanFilterOptions {
  bool dictionary_filters = true;    // setting dictionary_filters
  bool late_materialization = true;  // setting late_materialization
  RuntimeFilterAdaptivity adaptivity;
};

/// One scan thread's row filtering over its reader.
class ScanRowFilter {
 public:
  /// `spec` and `reader` outlive this.
  ScanRowFilter(const ScanFilterSpec& spec, DatasetReader& reader,
                const ScanFilterOptions& options);

  /// The runtime filters published so far (null where not yet), by runtime filter.
  const std::vector<const RuntimeFilter*>& Refresh(DynamicFilterRegistry& registry) {
    return runtime_->Refresh(registry);
  }

  enum class Read { kRows, kNone, kEnd };
  /// Reads the next batch of the reader's split into `out` and filters it: kRows when rows are
  /// left, kNone when the filters left none (read on), kEnd at the end of the split. Counts rows
  /// scanned, rows runtime filters dropped and the reader's bytes and pages in `metrics`.
  Read Next(Batch& out, ScanMetrics& metrics);

 private:
  /// Applies the conjuncts to `batch` (those over dictionary codes and the `column OP
  /// constant` terms first, then the others in order_), compacting it; returns the rows left.
  /// `alive` (optional) maps the rows to the original ones and is kept in step.
  idx_t FilterRows(Batch& batch, std::vector<uint32_t>* alive, ScanMetrics& metrics);

  /// Applies the filters that can be evaluated once per dictionary entry of their columns in
  /// this batch (marked in by_dictionary_), compacting it; returns the rows left.
  idx_t FilterByDictionary(Batch& batch, std::vector<uint32_t>* alive);

  const ScanFilterSpec& spec_;
  DatasetReader& reader_;
  bool late_materialization_ = false;
  std::unique_ptr<RuntimeFilterProbes> runtime_;
  Batch scratch_;
  SelectionVector late_sel_{kBatchSize};
  std::vector<uint32_t> alive_;  // original rows of the batch still selected
  SelectionVector sel_;
  // By conjunct: evaluated per dictionary entry when its columns' codes allow (null: never).
  std::vector<std::unique_ptr<DictionaryFilter>> dictionary_;
  std::vector<const parquet::DictionaryCodes*> codes_;
  std::vector<uint32_t> rows_;       // rows as read kept by the dictionary filters
  std::vector<bool> by_dictionary_;  // by conjunct: applied by its dictionary in this batch
  // The conjuncts tested one at a time, in the order they run, and what each cost since the
  // last reordering (every kReorderBatches batches; halved then, so the order follows the data).
  // A selective runtime filter so runs before an expensive literal conjunct (a LIKE), a paused
  // one (which drops nothing) after.
  static constexpr uint32_t kReorderBatches = 16;
  std::vector<size_t> order_;
  std::vector<bool> is_runtime_;     // by conjunct
  std::vector<ConjunctCost> costs_;  // by conjunct
  uint32_t batches_ = 0;
};

}  // namespace shears

#pragma once
// Partition pruning: the partition level of a scan's conjuncts (storage/scan_filter.h), which
// partitions of a dataset can hold rows the query keeps, decided from their values alone (no
// file opened). Literal conjuncts reading partition columns only are evaluated once on a batch
// of partition values; runtime conjuncts (BoundRuntimeFilter) per partition as their filters are
// published: a dynamic partition filter looks the partition's value up in its join's filter (one
// hash lookup), a runtime filter on file columns rules every partition out when its build side
// produced no key. The split enumerator asks again for the partitions not yet opened when a
// filter arrives late.

#include <memory>
#include <optional>
#include <vector>

#include "common/value.h"
#include "dynfilter/dynamic_filter.h"
#include "expression/expression.h"
#include "storage/dataset.h"
#include "storage/scan_metrics.h"

namespace shears {

/// For each partition of `dataset`: whether its values can satisfy the literal `conjuncts`
/// (over the scan's output columns `column_ids`) that only read partition columns; the others
/// are left to the other levels. Evaluated on batches of partitions (one row each, file columns
/// NULL and never read), so every predicate form works and 2,000 partitions cost one batch, not
/// 2,000.
std::vector<uint8_t> PartitionsMayMatch(const std::vector<const BoundExpr*>& conjuncts,
                                        const std::vector<int>& column_ids, const Dataset& dataset);

/// A partition value mapped through the join key's expression of it (a cast, p + 1); nullopt
/// when evaluating it fails (overflow, a failed cast): then nothing can be concluded.
std::optional<Value> MapPartitionValue(const BoundExpr& key_expr, const Value& value);

/// A join's dynamic partition filter as a conjunct of its scan: a runtime conjunct on partition
/// column `partition_column` (a dataset column id; `columns` is empty), tested on partition
/// values only, with `mode` (keep, skip, bounds: join_legality.h), so it says nothing at the
/// levels below partitions. `slot` is its place among the scan's partition filters.
struct BoundPartitionFilter : BoundRuntimeFilter {
  BoundPartitionFilter(int id, int column, DynamicFilterMode m,
                       std::shared_ptr<const BoundExpr> key, size_t s)
      : BoundRuntimeFilter(id, {}, std::move(key), 0, s), partition_column(column), mode(m) {}
  int partition_column;
  DynamicFilterMode mode;
  /// Non-empty: the OR of these, one per reference of a materialized CTE whose scan this is;
  /// `filter_id` names the OR, which no join fills.
  std::vector<std::unique_ptr<BoundPartitionFilter>> any_of;
  std::string ToString() const override;
  BoundExprPtr Copy() const override;
};

/// Whether `conjunct` is a partition filter (BoundPartitionFilter).
inline bool TestsPartitionsOnly(const BoundExpr& conjunct) {
  return conjunct.kind == BoundExprKind::kRuntimeFilter &&
         dynamic_cast<const BoundPartitionFilter*>(&conjunct) != nullptr;
}

/// Dynamic partition filter `filter` as a conjunct of its scan, the `slot`-th of its partition
/// filters.
std::unique_ptr<BoundPartitionFilter> PartitionConjunct(const DynamicPartitionFilter& filter,
                                                        size_t slot);

/// The filters the producers of partition conjunct `conjunct` published (its own, or each
/// alternative's of an OR), when every one is; empty while one is not (then it prunes nothing
/// yet).
std::vector<const RuntimeFilter*> PublishedFilters(const BoundPartitionFilter& conjunct,
                                                   DynamicFilterRegistry& registry);

/// Whether a partition whose values are `partition_values` may hold rows the query keeps by
/// partition conjunct `conjunct`, whose published filters (PublishedFilters) are `data`: its
/// value, mapped through the key expression, tested. An OR keeps the partition when any
/// alternative does.
bool PartitionConjunctMayMatch(const BoundPartitionFilter& conjunct,
                               const std::vector<const RuntimeFilter*>& data,
                               const std::vector<Value>& partition_values, size_t file_columns);

/// Filters that may rule partitions out while a scan runs (the split enumerator's view).
class PartitionPruner {
 public:
  virtual ~PartitionPruner() = default;
  /// How many filters are usable now (looking up those not yet published); partitions decided
  /// with fewer are decided again before they are opened.
  virtual size_t FiltersAvailable() = 0;
  /// False when partition `partition` holds no row the query keeps, by the usable filters.
  virtual bool PartitionMayMatch(size_t partition) = 0;
  /// Told the dataset the scan reads once its files are listed (Dataset::ListPartitions).
  virtual void CountFiles(const Dataset& /*listed*/) {}
};

/// The runtime conjuncts of a scan at the partition level, as their filters are published in
/// `registry`: a partition is pruned when its value (mapped through the key expression) is not
/// a build key of a keep filter, or is one of a skip filter (join_legality.h), or when a runtime
/// filter's build side produced no key. Each partition conjunct's counters
/// (metrics.dynamic_filters[slot], allocated by the caller) credit it with the partitions it
/// ruled out. Not thread-safe: the split enumerator calls it under its lock.
class RuntimePartitionPruner : public PartitionPruner {
 public:
  /// `conjuncts`: the scan's (ScanFilterSpec::conjuncts); the runtime ones are used.
  RuntimePartitionPruner(const Dataset& dataset, const std::vector<const BoundExpr*>& conjuncts,
                         DynamicFilterRegistry& registry, ScanMetrics& metrics);
  size_t FiltersAvailable() override;
  bool PartitionMayMatch(size_t partition) override;
  /// Counts the files of each partition in `listed` (the dataset the scan reads, see
  /// Dataset::ListPartitions), credited to the filter that prunes their partition later.
  void CountFiles(const Dataset& listed) override;

 private:
  const Dataset& dataset_;
  DynamicFilterRegistry& registry_;
  ScanMetrics& metrics_;
  /// A runtime conjunct, in the scan's order, with its filters once published (a partition
  /// filter's: PublishedFilters).
  struct Conjunct {
    const BoundRuntimeFilter* conjunct;
    const BoundPartitionFilter* partition;  // null: a runtime filter on file columns
    std::vector<const RuntimeFilter*> data;
    DynamicFilterScanCounters* counters = nullptr;  // a partition filter's
  };
  std::vector<Conjunct> conjuncts_;
  bool runtime_empty_ = false;  // a published runtime filter holds no key: nothing joins
  size_t available_ = 0;
  bool started_ = false;            // the first look (at scan start) counts ready / not ready
  std::vector<uint32_t> files_in_;  // files of each partition, when listed
};

/// `key IN keys from JOIN ...` for EXPLAIN, `key` being the partition column of `dataset` or
/// the key expression; an OR lists its alternatives.
std::string DescribeDynamicPartitionFilter(const DynamicPartitionFilter& filter,
                                           const Dataset& dataset);

}  // namespace shears

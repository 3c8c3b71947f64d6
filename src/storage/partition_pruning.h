#pragma once
// Partition pruning: which partitions of a dataset can hold rows the query keeps, decided from
// their values alone (no file opened). Static filters (conjuncts over partition columns only)
// are evaluated once on a batch of partition values; dynamic filters (a join's build keys,
// dynfilter/dynamic_filter.h) are looked up per partition as they are published, so the split
// enumerator asks again for the partitions not yet opened when a filter arrives late.

#include <memory>
#include <optional>
#include <vector>

#include "common/value.h"
#include "dynfilter/dynamic_filter.h"
#include "expression/expression.h"
#include "storage/dataset.h"
#include "storage/scan_metrics.h"

namespace shears {

/// For each partition of `dataset`: whether its values can satisfy `partition_filters`
/// (conjuncts over the scan's output columns `column_ids` that only read partition columns).
/// Evaluated on batches of partitions (one row each, file columns NULL and never read), so
/// every predicate form works and 2,000 partitions cost one batch, not 2,000.
std::vector<uint8_t> PartitionsMayMatch(const std::vector<const BoundExpr*>& partition_filters,
                                        const std::vector<int>& column_ids, const Dataset& dataset);

/// A partition value mapped through the join key's expression of it (a cast, p + 1); nullopt
/// when evaluating it fails (overflow, a failed cast): then nothing can be concluded.
std::optional<Value> MapPartitionValue(const BoundExpr& key_expr, const Value& value);

/// The filters the producers of `filter` built (its own, or each alternative's of an OR), when
/// every one is published; empty while one is not (then the filter prunes nothing yet).
std::vector<const RuntimeFilter*> PublishedFilters(const DynamicPartitionFilter& filter,
                                                   DynamicFilterRegistry& registry);

/// Whether the partition holding `file` may hold rows the query keeps by `filter`, whose
/// published filters (PublishedFilters) are `data`: its value, mapped through the key
/// expression, tested.
/// An OR keeps the partition when any alternative does.
bool PartitionMayMatchFilter(const DynamicPartitionFilter& filter,
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

/// A scan's dynamic partition filters and runtime join filters, as published in `registry`:
/// a partition is pruned when its value (mapped through the key expression) is not a build key
/// of a keep filter, or is one of a skip filter (join_legality.h), or when a runtime filter's
/// build side produced no key. Each filter's counters (metrics.dynamic_filters[i], allocated by
/// the caller) credit it with the partitions it ruled out. Not thread-safe: the split
/// enumerator calls it under its lock.
class DynamicPartitionPruner : public PartitionPruner {
 public:
  DynamicPartitionPruner(const Dataset& dataset, const std::vector<DynamicPartitionFilter>& filters,
                         const std::vector<RuntimeFilterTarget>& runtime_filters,
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
  struct Source {
    const DynamicPartitionFilter* filter;
    std::vector<const RuntimeFilter*> data;  // once published (PublishedFilters)
    DynamicFilterScanCounters* counters;
  };
  std::vector<Source> sources_;
  std::vector<int> runtime_ids_;
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

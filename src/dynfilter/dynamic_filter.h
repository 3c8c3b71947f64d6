#pragma once
// Dynamic filters: decided by the optimizer, filled at run time by the build side of a join,
// read by the scans on the other side before they enumerate their splits.
//
//   planning rule         optimizer/dynamic_partition_pruning.cpp (who produces, who consumes)
//   build side            execution/operator/physical_hash_join.cpp BuildRuntimeFilters (from
//                         the hash table's build rows; a nested loop join publishes bounds)
//   filter object         dynfilter/runtime_filter.h (one kind for partitions and for rows)
//   registry              this file (publish, look up by id)
//   legality              join_legality.h (which join may filter which side)
//   consumer              the scan's conjuncts (storage/scan_filter.h): each filter is a
//                         BoundRuntimeFilter, tested at partitions (storage/partition_pruning.cpp,
//                         asked by storage/split_enumerator.cpp, also for filters published
//                         late), files, row groups, pages (storage/split_pruning.cpp) and rows
//
// Invariants: a filter only ever drops rows that cannot join; a consumer never waits for a
// producer that has not finished: if the filter is not ready when the scan starts, the scan
// starts without it and prunes with it every partition not yet opened once it is published
// (EXPLAIN ANALYZE counts both).

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/value.h"
#include "dynfilter/runtime_filter.h"

namespace shears {

/// Per-query registry of the filters joins build (RuntimeFilter): each published whole, by
/// filter id, once the join's build side finished; consumers look them up by id. A dynamic
/// partition filter (DynamicPartitionFilter) and a runtime filter on rows
/// (RuntimeFilterTarget) name the same kind of object: the first tests partition values
/// (RuntimeFilter::ValueMayMatch, or its bounds), the second files, row groups, pages and rows.
class DynamicFilterRegistry {
 public:
  /// One filter may be published under several ids (a join's runtime filter that is also
  /// its dynamic partition filter on the same key): each consumer looks up its own.
  void PublishRuntime(int filter_id, std::shared_ptr<RuntimeFilter> filter);
  /// The published filter, or nullptr before its join's build side finished (or when none was
  /// built): then the consumer reads what it would have pruned.
  const RuntimeFilter* FindRuntime(int filter_id);
  /// Drops filter `filter_id`: a plan run again (a recursive CTE's iterations) must not find
  /// the filters of its previous run ready.
  void Forget(int filter_id);
  /// Unites `build` (a join's filter before RuntimeFilter::Finish, of key types `types`) into
  /// union `target`; null, with `reason`, when that join has no keys to give (the union is
  /// then published disabled: without them it could drop rows a reference needs). The last
  /// of target.contributors finishes the union with `limits` (disabled past limits.max_keys
  /// keys, or, unless `always`, when it would keep more than 1 - `min_filter_ratio` of
  /// target.probe_rows) and publishes it under target.filter_id.
  void ContributeToUnion(const RuntimeFilterUnion& target, const std::vector<LogicalType>& types,
                         const RuntimeFilter* build, const std::string& reason,
                         const RuntimeFilterLimits& limits, bool always, double min_filter_ratio,
                         uint64_t build_rows, double build_ms);

 private:
  struct UnionState {
    size_t received = 0;
    std::unique_ptr<RuntimeFilter> filter;
    std::string disabled;
    uint64_t build_rows = 0;
    double build_ms = 0;
  };
  std::mutex mutex_;
  std::map<int, std::shared_ptr<RuntimeFilter>> runtime_filters_;
  std::map<int, UnionState> unions_;
};

/// How a scan uses a dynamic filter on one of its partition columns.
enum class DynamicFilterMode {
  kKeep,  // keep partitions whose value is in the key set (inner, semi, right-outer probe)
  kSkip,  // skip partitions whose value is in the key set (anti join: NOT EXISTS)
  // keep partitions whose value is in the key set or NULL (a mark join under a filter
  // `mark OR key IS NULL`: `k IN (SELECT ...) OR k IS NULL`)
  kKeepOrNull,
  // a nested loop join's `key >= build` (kAtLeast), `>` (kAbove), `<=` (kAtMost), `<` (kBelow):
  // keep partitions whose value compares so with the build side's smallest (>=, >) or largest
  // (<=, <) value
  kAtLeast,
  kAbove,
  kAtMost,
  kBelow,
};

/// Whether `mode` compares with the build side's bounds rather than looking up its key set.
inline bool IsBoundMode(DynamicFilterMode mode) {
  return mode == DynamicFilterMode::kAtLeast || mode == DynamicFilterMode::kAbove ||
         mode == DynamicFilterMode::kAtMost || mode == DynamicFilterMode::kBelow;
}

/// Whether a partition whose value, mapped through the filter's key expression, is `value` may
/// hold rows the join keeps, by what the build side produced (`filter`, published).
bool PartitionMayJoin(DynamicFilterMode mode, const Value& value, const RuntimeFilter& filter);

struct BoundExpr;

struct DynamicPartitionFilter {
  int filter_id = 0;
  int column_id = 0;  // dataset column (a partition column)
  DynamicFilterMode mode = DynamicFilterMode::kKeep;
  /// When the join key is an expression of the partition column (`CAST(p AS BIGINT)`,
  /// `p + 1`): that expression over one BoundReference (#0, the partition value), mapping each
  /// partition value into the key space. Null: the key is the column itself.
  std::shared_ptr<const BoundExpr> key_expr;
  std::string description;  // "from JOIN INNER (ss_sold_date_sk = d_date_sk)"
  /// Non-empty: the filter is the OR of these (a scan inside a materialized CTE, one per
  /// reference of the CTE, each filled by a join above that reference): a partition may hold
  /// rows the query keeps when any of them keeps it, and nothing is pruned until all are ready.
  /// `filter_id` then names the OR itself (EXPLAIN ANALYZE); no producer fills it.
  std::vector<DynamicPartitionFilter> any_of;

  /// The ids of the filters producers fill for this one: its own, or each alternative's.
  std::vector<int> ProducerIds() const;
};

/// A runtime join filter a scan applies to its rows: the combined key of `column_ids`
/// (dataset columns the scan outputs) may only hold values the producing join's build side
/// produced.
struct RuntimeFilterTarget {
  int filter_id = 0;
  std::vector<int> column_ids;
  std::string description;  // "from JOIN INNER (ss_item_sk = i_item_sk)"
  /// When the (one) key is computed from the column by an expression the join cannot map its
  /// keys back through (`k * 2`, `CAST(k AS VARCHAR)`): that expression over one
  /// BoundReference #0 (the column). Rows are tested on its value. Statistics (files, row
  /// groups, pages) only when `monotone` is +1 (non-decreasing) or -1 (non-increasing) and
  /// the expression is strict (NULL only from NULL): a column's [min, max] maps to the keys
  /// between its bounds' images. Null: the filter holds column values.
  std::shared_ptr<const BoundExpr> key_expr;
  int monotone = 0;
  /// A range the scan publishes itself from another scan's file statistics (a statistics
  /// transfer, storage/statistics_bounds.h), not a join's keys: EXPLAIN calls it
  /// `statistics_bounds #n`.
  bool statistics_bounds = false;
};

}  // namespace shears

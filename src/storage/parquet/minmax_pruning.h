#pragma once
// Deciding from metadata alone that rows cannot match a filter: partitions by their values,
// row groups by their min/max/null-count statistics. One predicate form (bound expressions
// over the scan's columns) serves every level, so a new filter kind prunes everywhere.

#include <functional>
#include <optional>

#include "dynfilter/runtime_filter.h"
#include "expression/expression.h"
#include "storage/parquet/parquet_file.h"

namespace shears {

/// Statistics of one scan column for one row group (or page, or file); nullptr when unknown.
using StatsLookup = std::function<const parquet::ColumnChunkStatistics*(idx_t column)>;

/// False only when `predicate` (over BoundReferences to scan columns) is certainly not TRUE for
/// any row whose columns lie within `stats`. Unknown shapes return true (no pruning).
bool StatsMayMatch(const BoundExpr& predicate, const StatsLookup& stats);

/// A runtime filter's key computed from its scan column (RuntimeFilterTarget::key_expr).
struct ComputedRuntimeKey {
  const BoundExpr* expr = nullptr;  // over #0, the column; null: the key is the column itself
  int monotone = 0;                 // +1 non-decreasing, -1 non-increasing, 0 neither
};

/// The statistics of a computed key from those of its column: for a monotone, strict
/// expression its null counts, with the images of the column's bounds as its bounds (ordered;
/// unknown when an image fails or is NULL); nullopt when nothing can be told (not monotone).
std::optional<parquet::ColumnChunkStatistics> ComputedKeyStatistics(
    const parquet::ColumnChunkStatistics& column, const ComputedRuntimeKey& key);

/// The statistics check of a runtime conjunct (BoundRuntimeFilter): false when, for some key
/// column, `lookup`'s statistics hold only NULLs (none can join) or bounds (of the computed key,
/// for a computed one) that `filter`'s key ranges, or a one-column exact set, exclude. `columns`
/// are the scan columns of its key, `computed` its key computed from its one column. Unknown
/// statistics return true.
bool RuntimeFilterMayMatch(const RuntimeFilter& filter, const std::vector<idx_t>& columns,
                           const ComputedRuntimeKey& computed, const StatsLookup& lookup);

/// The scan columns of a runtime conjunct's key, and its computed key.
std::vector<idx_t> RuntimeKeyColumns(const BoundRuntimeFilter& conjunct);
ComputedRuntimeKey RuntimeComputedKey(const BoundRuntimeFilter& conjunct);

}  // namespace shears

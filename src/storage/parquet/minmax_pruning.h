#pragma once
// Deciding from metadata alone that rows cannot match a filter: partitions by their values,
// row groups by their min/max/null-count statistics. One predicate form (bound expressions
// over the scan's columns) serves every level, so a new filter kind prunes everywhere.

#include <functional>
#include <optional>

#include "planner/expression.h"
#include "storage/parquet/parquet_file.h"

namespace shears {

/// Statistics of one scan column for one row group (or page, or file); nullptr when unknown.
using StatsLookup = std::function<const parquet::ColumnChunkStatistics*(idx_t column)>;

/// False only when `predicate` (over BoundReferences to scan columns) is certainly not TRUE for
/// any row whose columns lie within `stats`. Unknown shapes return true (no pruning).
bool StatsMayMatch(const BoundExpr& predicate, const StatsLookup& stats);

}  // namespace shears

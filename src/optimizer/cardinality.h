#pragma once
// Cardinality estimation shared by the rules that need it: cardinality_estimation stores rows
// per operator, join_order costs join orders with the same formulas, dynamic partition pruning
// weighs its benefit with the same distinct counts.

#include "planner/logical_plan.h"

namespace shears {

/// Estimates rows of every operator below and including `op`, bottom-up, and stores them in
/// estimated_rows (at least 1 where an operator may produce rows). Returns `op`'s estimate.
double EstimateSubtree(LogicalOperator& op);

/// Distinct non-NULL values of `key` (an expression over `op`'s output; a column, or an
/// expression of one column) in `op`'s output: the statistics of the scan column it traces to
/// (ANALYZE's NDV, or the partition values a partition column takes), capped by `op`'s
/// estimated rows. -1 when unknown.
double EstimateDistinct(LogicalOperator& op, const BoundExpr& key);

/// The fraction of the rows of `input` for which all of `conjuncts` hold (each over `input`'s
/// columns): 1/NDV for equalities, min/max interpolation for ranges (conjuncts on one column
/// make one range), IN lists, IS [NOT] NULL from null counts, AND/OR/NOT combined; fixed
/// defaults where statistics say nothing.
double EstimateSelectivity(LogicalOperator& input, const std::vector<const BoundExpr*>& conjuncts);

/// The fraction of the pairs of rows of `left` and `right` that `left_key = right_key` keeps:
/// 1 / max(NDV left, NDV right), each NDV capped by its side's estimated rows. A side whose NDV
/// is unknown counts its rows as distinct keys; with neither known, the side whose scans are
/// smaller before filters is taken for the dimension whose base table holds each key once (a
/// foreign-key join keeps the fact side's rows times the fraction of the dimension left).
double EstimateKeySelectivity(LogicalOperator& left, const BoundExpr& left_key,
                              LogicalOperator& right, const BoundExpr& right_key);

/// Distinct non-NULL values of a scan's dataset column (ANALYZE's NDV; the partition values for
/// a partition column), or -1 when unknown.
double ScanColumnDistinct(const LogicalGet& get, int column_id);

/// Appends the conjuncts of `expr` (nested ANDs taken apart) to `out`, without copying them.
void FlattenConjunction(const BoundExpr& expr, std::vector<const BoundExpr*>& out);

/// Rows of the scans below `op` before any filter (the largest one's), or -1.
double BaseRows(const LogicalOperator& op);

}  // namespace shears

#pragma once
// General decorrelation of subqueries ("Unnesting Arbitrary Queries", Neumann and Kemper,
// BTW 2015): a dependent join of the outer plan with a subquery is pushed down through the
// subquery's operators until no operator refers to the outer query any more. The outer
// query's distinct correlated values (the domain) join in where the outer columns were used,
// and every operator on the way carries the domain columns up: aggregates group by them,
// LIMIT becomes a row_number per domain value, joins match them. The subquery then is an
// ordinary plan that joins the outer plan on its correlated columns (IS NOT DISTINCT FROM).

#include <functional>
#include <set>
#include <vector>

#include "planner/logical_plan.h"

namespace shears {

class Binder;

struct FlattenedSubquery {
  /// The subquery's columns (under their bindings), then more (the domain columns among them).
  LogicalOperatorPtr plan;
  /// outer column IS NOT DISTINCT FROM its domain column of `plan` (left: over the outer
  /// plan, right: over `plan`); empty when the subquery uses no column of the outer plan (it
  /// may use columns of queries further out, which stay in it).
  std::vector<JoinCondition> keys;
};

/// Decorrelates `subquery` from `outer`, the plan whose columns it uses; `to_outer` (may be
/// empty) maps those columns to columns of `outer` (GROUP BY columns above an aggregate).
/// NotSupportedError for the few shapes it cannot rewrite. `domain_source` (null: `outer`) is
/// a plan with the same rows of the correlated columns that the domain is computed from: the
/// outer plan before the clause's earlier subqueries joined it one to one, so that each
/// subquery of a select list does not compute the domain of all earlier ones. `only_matched`: an
/// aggregate without GROUP BY of `subquery` that gets no row for domain values no row matched (the
/// caller supplies their value), saving the join with the domain that would add them.
FlattenedSubquery FlattenDependentJoin(Binder& binder, const LogicalOperator& outer,
                                       LogicalOperatorPtr subquery,
                                       const std::function<BoundExprPtr(BoundExprPtr)>& to_outer,
                                       const LogicalAggregate* only_matched = nullptr,
                                       const LogicalOperator* domain_source = nullptr);

/// The tables (operator indices) whose columns `op` or one of its descendants produces.
std::set<uint32_t> ProducedTables(const LogicalOperator& op);
/// Whether `expr` uses a column of a table not in `tables`.
bool ReferencesOutside(const BoundExpr& expr, const std::set<uint32_t>& tables);
/// Whether an expression of `op` or of its descendants uses a column of a table not in
/// `tables` (with `tables` = ProducedTables(op): whether `op` is correlated).
bool SubtreeReferencesOutside(LogicalOperator& op, const std::set<uint32_t>& tables);

}  // namespace shears

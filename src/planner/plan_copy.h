#pragma once
// Deep copies of logical plans, for a plan that must be computed twice (the domain of a
// dependent join, see dependent_join.cpp).

#include <functional>
#include <map>

#include "planner/logical_plan.h"

namespace shears {

class Binder;

/// A copy of `op` whose operators produce their columns under new table indices (from
/// `binder`), so that it can stand in the same plan as `op`. `remap` receives old -> new
/// index of every operator copied; columns of enclosing queries stay as they are.
LogicalOperatorPtr CopyPlan(const LogicalOperator& op, Binder& binder,
                            std::map<uint32_t, uint32_t>& remap);

/// The same with table indices from `new_index` (the optimizer, which has no binder, hands out
/// indices above every one the plan uses).
using NewTableIndexFn = std::function<uint32_t()>;
LogicalOperatorPtr CopyPlan(const LogicalOperator& op, const NewTableIndexFn& new_index,
                            std::map<uint32_t, uint32_t>& remap);

/// A copy of `op` with the same table indices: a template for CopyPlan, never to stand in the
/// same plan as `op`.
LogicalOperatorPtr CopyPlanAsIs(const LogicalOperator& op);

/// Rewrites every column of `expr` produced by a table in `remap` to its new table index.
void RemapBindings(BoundExpr& expr, const std::map<uint32_t, uint32_t>& remap);

}  // namespace shears

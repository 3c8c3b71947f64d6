#pragma once
// Logical plan -> physical operators. Column bindings become positions in each operator's
// input batch; logical operators map to the physical algorithms that run them.

#include <map>

#include "execution/physical_operator.h"
#include "planner/logical_plan.h"

namespace shears {

class PhysicalMaterializedCte;

class PhysicalPlanner {
 public:
  PhysicalOperatorPtr Plan(LogicalOperator& op);

 private:
  // The materialized CTEs around the operator being planned, by cte_index.
  std::map<uint32_t, const PhysicalMaterializedCte*> ctes_;
};

}  // namespace shears

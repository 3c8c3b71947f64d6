#pragma once
// Logical plan -> physical operators. Column bindings become positions in each operator's
// input batch; logical operators map to the physical algorithms that run them.

#include "execution/physical_operator.h"
#include "planner/logical_plan.h"

namespace shears {

class PhysicalPlanner {
 public:
  PhysicalOperatorPtr Plan(LogicalOperator& op);
};

}  // namespace shears

#pragma once
// Logical plan -> physical operators. Column bindings become positions in each operator's
// input batch; logical operators map to the physical algorithms that run them.

#include <map>
#include <memory>

#include "execution/physical_operator.h"
#include "planner/logical_plan.h"

namespace shears {

class PhysicalMaterializedCte;
struct WorkingTable;

class PhysicalPlanner {
 public:
  PhysicalOperatorPtr Plan(LogicalOperator& op);

 private:
  // The materialized CTEs around the operator being planned, by cte_index.
  std::map<uint32_t, const PhysicalMaterializedCte*> ctes_;
  /// Of the recursive CTEs being planned, by cte_id: their WORKING_TABLE scans share it.
  std::map<int, std::shared_ptr<WorkingTable>> working_tables_;
};

}  // namespace shears

#pragma once
// The FILTER operator.

#include "execution/physical_operator.h"
#include "expression/expression.h"

namespace shears {

/// Keeps the rows where every condition is TRUE.
class PhysicalFilter : public PhysicalOperator {
 public:
  PhysicalFilter(std::vector<LogicalType> types, std::vector<BoundExprPtr> conditions)
      : PhysicalOperator("FILTER", std::move(types)), conditions_(std::move(conditions)) {}
  OperatorResult Execute(ExecutionContext& context, Batch& input, Batch& output,
                         OperatorState& state) const override;
  std::string Describe() const override;

 private:
  std::vector<BoundExprPtr> conditions_;
};

}  // namespace shears

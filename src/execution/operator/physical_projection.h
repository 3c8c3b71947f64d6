#pragma once
// The PROJECTION operator.

#include "execution/physical_operator.h"
#include "expression/expression.h"

namespace shears {

/// Computes one output column per expression.
class PhysicalProjection : public PhysicalOperator {
 public:
  PhysicalProjection(std::vector<LogicalType> types, std::vector<BoundExprPtr> expressions)
      : PhysicalOperator("PROJECTION", std::move(types)), expressions_(std::move(expressions)) {}
  OperatorResult Execute(ExecutionContext& context, Batch& input, Batch& output,
                         OperatorState& state) const override;
  std::string Describe() const override;

 private:
  std::vector<BoundExprPtr> expressions_;
};

}  // namespace shears

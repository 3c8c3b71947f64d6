#pragma once
// The PROJECTION operator.

#include "execution/physical_operator.h"
#include "expression/expression.h"

namespace shears {

/// Computes one output column per expression. A column passed on as it is keeps its pending
/// selection (Batch::SetSelection); only the columns a computed expression reads are copied.
class PhysicalProjection : public PhysicalOperator {
 public:
  PhysicalProjection(std::vector<LogicalType> types, std::vector<BoundExprPtr> expressions);
  OperatorResult Execute(ExecutionContext& context, Batch& input, Batch& output,
                         OperatorState& state) const override;
  bool AcceptsSelection() const override { return true; }
  std::string Describe() const override;

 private:
  std::vector<BoundExprPtr> expressions_;
  std::vector<idx_t> computed_columns_;  // the columns the expressions other than references read
};

}  // namespace shears

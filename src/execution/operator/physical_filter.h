#pragma once
// The FILTER operator.

#include "execution/physical_operator.h"
#include "expression/expression.h"

namespace shears {

/// Keeps the rows where every condition is TRUE. It copies no column: its output shows the
/// input's columns with the surviving rows as pending selections (Batch::SetSelection), and
/// only the columns a condition reads are copied (flattened) to evaluate it.
class PhysicalFilter : public PhysicalOperator {
 public:
  PhysicalFilter(std::vector<LogicalType> types, std::vector<BoundExprPtr> conditions);
  std::unique_ptr<OperatorState> GetOperatorState(ExecutionContext& context) const override;
  OperatorResult Execute(ExecutionContext& context, Batch& input, Batch& output,
                         OperatorState& state) const override;
  bool AcceptsSelection() const override { return true; }
  std::string Describe() const override;

 private:
  std::vector<BoundExprPtr> conditions_;
  std::vector<std::vector<idx_t>> condition_columns_;  // the columns each condition reads
};

}  // namespace shears

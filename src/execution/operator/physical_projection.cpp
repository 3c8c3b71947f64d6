#include "execution/operator/physical_projection.h"

#include "execution/operator/join_exprs.h"
#include "expression/expression_executor.h"

namespace shears {

OperatorResult PhysicalProjection::Execute(ExecutionContext&, Batch& input, Batch& output,
                                           OperatorState&) const {
  for (size_t i = 0; i < expressions_.size(); i++) {
    ExpressionExecutor::Execute(*expressions_[i], input, output.column(i));
  }
  output.SetSize(input.size());
  return OperatorResult::kNeedMoreInput;
}

std::string PhysicalProjection::Describe() const {
  return "PROJECTION " + JoinExprs(expressions_, ", ");
}

}  // namespace shears

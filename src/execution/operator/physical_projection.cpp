#include "execution/operator/physical_projection.h"

#include "common/batch_selection.h"
#include "execution/operator/join_exprs.h"
#include "expression/expression_executor.h"

namespace shears {

PhysicalProjection::PhysicalProjection(std::vector<LogicalType> types,
                                       std::vector<BoundExprPtr> expressions)
    : PhysicalOperator("PROJECTION", std::move(types)), expressions_(std::move(expressions)) {
  std::vector<const BoundExpr*> computed;
  for (const auto& expr : expressions_) {
    if (expr->kind != BoundExprKind::kReference) computed.push_back(expr.get());
  }
  computed_columns_ = ReferencedColumns(computed);
}

OperatorResult PhysicalProjection::Execute(ExecutionContext&, Batch& input, Batch& output,
                                           OperatorState&) const {
  FlattenColumns(input, computed_columns_);
  for (size_t i = 0; i < expressions_.size(); i++) {
    const BoundExpr& expr = *expressions_[i];
    if (expr.kind == BoundExprKind::kReference) {
      const idx_t column = static_cast<const BoundReference&>(expr).index;
      output.column(i).Reference(input.column(column));
      output.SetSelection(i, input.selection(column));
      continue;
    }
    ExpressionExecutor::Execute(expr, input, output.column(i));
  }
  output.SetSize(input.size());
  return OperatorResult::kNeedMoreInput;
}

std::string PhysicalProjection::Describe() const {
  return "PROJECTION " + JoinExprs(expressions_, ", ");
}

}  // namespace shears

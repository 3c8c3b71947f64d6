#include "execution/operator/physical_filter.h"

#include "execution/operator/join_exprs.h"
#include "expression/expression_executor.h"

namespace shears {

OperatorResult PhysicalFilter::Execute(ExecutionContext&, Batch& input, Batch& output,
                                       OperatorState&) const {
  SelectionVector sel(input.size());
  // Evaluate each conjunct on the rows that passed the previous ones.
  Batch* current = &input;
  Batch narrowed;
  for (const auto& condition : conditions_) {
    idx_t count = ExpressionExecutor::Select(*condition, *current, sel);
    if (count == current->size()) continue;
    if (current == &input) {
      narrowed = Batch(input.types(), std::max<idx_t>(input.size(), 1));
      for (idx_t c = 0; c < input.column_count(); c++)
        narrowed.column(c).Reference(input.column(c));
      narrowed.SetSize(input.size());
      current = &narrowed;
    }
    current->Select(sel.data(), count);
    if (count == 0) break;
  }
  for (idx_t c = 0; c < output.column_count(); c++)
    output.column(c).Reference(current->column(c));
  output.SetSize(current->size());
  return OperatorResult::kNeedMoreInput;
}

std::string PhysicalFilter::Describe() const {
  return "FILTER " + JoinExprs(conditions_, " AND ");
}

}  // namespace shears

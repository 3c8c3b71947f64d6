#include "execution/operator/physical_filter.h"

#include "common/batch_selection.h"
#include "execution/operator/join_exprs.h"
#include "expression/expression_executor.h"

namespace shears {

namespace {

struct FilterState : OperatorState {
  SelectionVector sel{kBatchSize};
  SelectionPool selections;
  Batch survivors;  // the rows that passed the conditions so far, when some did not
};

}  // namespace

PhysicalFilter::PhysicalFilter(std::vector<LogicalType> types, std::vector<BoundExprPtr> conditions)
    : PhysicalOperator("FILTER", std::move(types)), conditions_(std::move(conditions)) {
  for (const auto& condition : conditions_)
    condition_columns_.push_back(ReferencedColumns({condition.get()}));
}

std::unique_ptr<OperatorState> PhysicalFilter::GetOperatorState(ExecutionContext&) const {
  auto state = std::make_unique<FilterState>();
  state->survivors = Batch(types());
  return state;
}

OperatorResult PhysicalFilter::Execute(ExecutionContext&, Batch& input, Batch& output,
                                       OperatorState& op_state) const {
  auto& state = static_cast<FilterState&>(op_state);
  if (state.sel.capacity() < input.size()) state.sel = SelectionVector(input.size());
  // Each condition is evaluated on the rows that passed the previous ones; `current` shows
  // them, the columns the next condition reads copied (flattened), the others pending.
  Batch* current = &input;
  for (idx_t k = 0; k < conditions_.size(); k++) {
    FlattenColumns(*current, condition_columns_[k]);
    const idx_t count = ExpressionExecutor::Select(*conditions_[k], *current, state.sel);
    if (count == current->size()) continue;
    Batch& next = current == &output ? state.survivors : output;
    next.Reset();
    ReferenceSelected(*current, state.sel.data(), count, next, state.selections);
    current = &next;
    if (count == 0) break;
  }
  if (current != &output) {
    output.Reset();
    ReferenceSelected(*current, nullptr, current->size(), output, state.selections);
  }
  return OperatorResult::kNeedMoreInput;
}

std::string PhysicalFilter::Describe() const {
  return "FILTER " + JoinExprs(conditions_, " AND ");
}

}  // namespace shears

#include "execution/operator/physical_simple.h"

#include "execution/expression_executor.h"

namespace shears {

namespace {
std::string JoinExprs(const std::vector<BoundExprPtr>& exprs, const char* sep) {
  std::string out;
  for (size_t i = 0; i < exprs.size(); i++)
    out += (i ? sep : "") + exprs[i]->ToString();
  return out;
}
}  // namespace

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

std::unique_ptr<OperatorState> PhysicalLimit::GetOperatorState(ExecutionContext&) const {
  // seen_ is shared by all threads of the one execution a physical plan gets.
  return std::make_unique<OperatorState>();
}

OperatorResult PhysicalLimit::Execute(ExecutionContext&, Batch& input, Batch& output,
                                      OperatorState&) const {
  const int64_t n = static_cast<int64_t>(input.size());
  const int64_t start = seen_.fetch_add(n);
  const int64_t end_wanted = limit_ < 0 ? INT64_MAX : offset_ + limit_;
  // This batch covers rows [start, start + n) of the stream.
  const int64_t from = std::max<int64_t>(start, offset_);
  const int64_t to = std::min<int64_t>(start + n, end_wanted);
  if (to > from) {
    std::vector<uint32_t> rows;
    for (int64_t r = from; r < to; r++)
      rows.push_back(static_cast<uint32_t>(r - start));
    for (idx_t c = 0; c < input.column_count(); c++) {
      output.column(c).CopyRows(input.column(c), rows.data(), rows.size());
    }
    output.SetSize(rows.size());
  }
  return start + n >= end_wanted ? OperatorResult::kFinished : OperatorResult::kNeedMoreInput;
}

std::string PhysicalLimit::Describe() const {
  return "LIMIT " + (limit_ < 0 ? std::string("ALL") : std::to_string(limit_)) +
         (offset_ ? " OFFSET " + std::to_string(offset_) : "");
}

namespace {
struct ValuesState : GlobalSourceState {
  bool done = false;
};
}  // namespace

std::unique_ptr<GlobalSourceState> PhysicalValues::GetGlobalSourceState(ExecutionContext&) const {
  return std::make_unique<ValuesState>();
}

bool PhysicalValues::GetData(ExecutionContext&, Batch& out, GlobalSourceState& global,
                             LocalSourceState&) const {
  auto& state = static_cast<ValuesState&>(global);
  if (state.done) return false;
  state.done = true;
  // VALUES lists are small: evaluate row by row.
  for (idx_t c = 0; c < out.column_count(); c++) {
    if (out.column(c).capacity() < rows_.size()) out.column(c).Reserve(rows_.size());
  }
  for (size_t r = 0; r < rows_.size(); r++) {
    for (size_t c = 0; c < rows_[r].size(); c++) {
      WriteValue(out.column(c), r, ExpressionExecutor::EvaluateConstant(*rows_[r][c]));
    }
  }
  out.SetSize(rows_.size());
  return true;
}

}  // namespace shears

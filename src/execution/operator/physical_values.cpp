#include "execution/operator/physical_values.h"

#include "expression/expression_executor.h"

namespace shears {

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

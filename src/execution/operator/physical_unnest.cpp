#include "execution/operator/physical_unnest.h"

#include "common/list.h"
#include "execution/operator/join_exprs.h"
#include "expression/expression_executor.h"

namespace shears {

namespace {

// Where the operator is in its current input batch: the lists it evaluated, the row and the
// element it continues from when a row's elements filled the previous output batch.
struct UnnestState : OperatorState {
  bool evaluated = false;
  std::vector<Vector> lists;
  // Per input row, the elements' raw bytes of each list (decoded once per row).
  idx_t row = 0;
  idx_t element = 0;
  std::vector<std::vector<std::string_view>> elements;
  idx_t row_length = 0;
  bool row_decoded = false;
};

}  // namespace

std::unique_ptr<OperatorState> PhysicalUnnest::GetOperatorState(ExecutionContext&) const {
  return std::make_unique<UnnestState>();
}

OperatorResult PhysicalUnnest::Execute(ExecutionContext&, Batch& input, Batch& output,
                                       OperatorState& base) const {
  auto& state = static_cast<UnnestState&>(base);
  const size_t input_columns = input.column_count();
  if (!state.evaluated) {
    state.lists.clear();
    for (const auto& list : lists_) {
      state.lists.emplace_back(list->type, std::max<idx_t>(input.size(), 1));
      ExpressionExecutor::Execute(*list, input, state.lists.back());
    }
    state.evaluated = true;
    state.row = 0;
    state.element = 0;
    state.row_decoded = false;
  }
  std::vector<uint32_t> sel;
  sel.reserve(kBatchSize);
  // Elements go straight into the output's list columns; the input columns are gathered
  // once at the end by the selection of their rows.
  while (state.row < input.size() && sel.size() < kBatchSize) {
    if (!state.row_decoded) {
      state.elements.assign(lists_.size(), {});
      state.row_length = 0;
      for (size_t l = 0; l < lists_.size(); l++) {
        const Vector& list = state.lists[l];
        if (list.IsNull(state.row) || !list.type().IsList()) continue;
        ListReader reader(list.type().element(), list.data<StringRef>()[state.row].view());
        while (reader.Next())
          state.elements[l].push_back(reader.raw());
        state.row_length = std::max<idx_t>(state.row_length, state.elements[l].size());
      }
      state.row_decoded = true;
      state.element = 0;
    }
    while (state.element < state.row_length && sel.size() < kBatchSize) {
      const idx_t out_row = sel.size();
      for (size_t l = 0; l < lists_.size(); l++) {
        Vector& out = output.column(input_columns + l);
        const auto& elements = state.elements[l];
        if (state.element >= elements.size()) {
          out.validity().SetNull(out_row);
          continue;
        }
        ListReader reader(state.lists[l].type().element(), elements[state.element]);
        reader.Next();
        reader.WriteTo(out, out_row);
      }
      sel.push_back(static_cast<uint32_t>(state.row));
      state.element++;
    }
    if (state.element >= state.row_length) {
      state.row++;
      state.row_decoded = false;
    }
  }
  for (size_t c = 0; c < input_columns; c++)
    output.column(c).CopyRows(input.column(c), sel.data(), sel.size());
  output.SetSize(sel.size());
  if (state.row < input.size()) return OperatorResult::kHaveMoreOutput;
  state.evaluated = false;
  return OperatorResult::kNeedMoreInput;
}

std::string PhysicalUnnest::Describe() const {
  return "UNNEST " + JoinExprs(lists_, ", ");
}

}  // namespace shears

#include "distributed/physical_join_side.h"

#include <fmt/format.h>

#include <algorithm>

#include "distributed/physical_shuffle.h"
#include "execution/operator/join_exprs.h"

namespace shears {

namespace {

struct HashSelectState : OperatorState {
  std::vector<Vector> key_values;
  std::vector<uint32_t> rank_of;
  std::vector<uint32_t> sel;
  Batch narrowed;  // the input's columns, narrowed (the input batch stays the source's)
};

void PassThrough(const Batch& input, Batch& output) {
  for (idx_t c = 0; c < output.column_count(); c++)
    output.column(c).Reference(input.column(c));
  output.SetSize(input.size());
}

}  // namespace

OperatorResult PhysicalBroadcast::Execute(ExecutionContext&, Batch& input, Batch& output,
                                          OperatorState&) const {
  PassThrough(input, output);
  return OperatorResult::kNeedMoreInput;
}

std::string PhysicalBroadcast::Describe() const {
  return fmt::format("BROADCAST (every rank builds all of it: {})", why_);
}

PhysicalHashSelect::PhysicalHashSelect(std::vector<LogicalType> types,
                                       std::vector<BoundExprPtr> keys,
                                       std::shared_ptr<MpiQueryShare> share, std::string purpose)
    : PhysicalOperator("HASH_SELECT", std::move(types)),
      keys_(std::move(keys)),
      share_(std::move(share)),
      purpose_(std::move(purpose)) {}

std::unique_ptr<OperatorState> PhysicalHashSelect::GetOperatorState(ExecutionContext&) const {
  return std::make_unique<HashSelectState>();
}

OperatorResult PhysicalHashSelect::Execute(ExecutionContext&, Batch& input, Batch& output,
                                           OperatorState& state_base) const {
  auto& state = static_cast<HashSelectState&>(state_base);
  PhysicalShuffle::RanksOf(PhysicalShuffle::EvaluateKeys(keys_, input, state.key_values),
                           input.size(), share_->size, state.rank_of);
  state.sel.clear();
  for (idx_t r = 0; r < input.size(); r++) {
    if (state.rank_of[r] == static_cast<uint32_t>(share_->rank))
      state.sel.push_back(static_cast<uint32_t>(r));
  }
  if (state.sel.size() == input.size()) {
    PassThrough(input, output);
    return OperatorResult::kNeedMoreInput;
  }
  state.narrowed = Batch(input.types(), std::max<idx_t>(input.size(), 1));
  for (idx_t c = 0; c < input.column_count(); c++)
    state.narrowed.column(c).Reference(input.column(c));
  state.narrowed.SetSize(input.size());
  state.narrowed.Select(state.sel.data(), state.sel.size());
  PassThrough(state.narrowed, output);
  return OperatorResult::kNeedMoreInput;
}

std::string PhysicalHashSelect::Describe() const {
  return fmt::format("HASH_SELECT {}: the rows whose {} hash to this rank of {}", purpose_,
                     JoinExprs(keys_, ", "), share_->size);
}

}  // namespace shears

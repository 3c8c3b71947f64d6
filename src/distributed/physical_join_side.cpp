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
  Batch narrowed;         // the input's columns, narrowed (the input batch stays the source's)
  bool kept_any = false;  // for a MARK join: this thread kept a row
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
                                       std::shared_ptr<MpiQueryShare> share, std::string purpose,
                                       bool for_mark)
    : PhysicalOperator("HASH_SELECT", std::move(types)),
      keys_(std::move(keys)),
      share_(std::move(share)),
      purpose_(std::move(purpose)),
      for_mark_(for_mark) {}

std::unique_ptr<OperatorState> PhysicalHashSelect::GetOperatorState(ExecutionContext&) const {
  return std::make_unique<HashSelectState>();
}

OperatorResult PhysicalHashSelect::Execute(ExecutionContext&, Batch& input, Batch& output,
                                           OperatorState& state_base) const {
  auto& state = static_cast<HashSelectState&>(state_base);
  const auto keys = PhysicalShuffle::EvaluateKeys(keys_, input, state.key_values);
  PhysicalShuffle::RanksOf(keys, input.size(), share_->size, state.rank_of);
  state.sel.clear();
  for (idx_t r = 0; r < input.size(); r++) {
    bool keep = state.rank_of[r] == static_cast<uint32_t>(share_->rank);
    if (for_mark_ && !keep) {
      // A MARK join's NULL rule: every NULL-key row, and one row per thread (each rank
      // computes the whole side, so its build side is empty only when the whole one is).
      for (const Vector* key : keys)
        keep = keep || key->IsNull(r);
      keep = keep || !state.kept_any;
    }
    if (keep) {
      state.sel.push_back(static_cast<uint32_t>(r));
      state.kept_any = true;
    }
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
  return fmt::format("HASH_SELECT {}: the rows whose {} hash to this rank of {}{}", purpose_,
                     JoinExprs(keys_, ", "), share_->size,
                     for_mark_ ? ", those with a NULL key and one more (for the MARK join)" : "");
}

}  // namespace shears

#include "execution/operator/physical_limit.h"

#include <algorithm>
#include <atomic>
#include <string>
#include <vector>

#include "execution/pipeline.h"

namespace shears {

namespace {

// Rows seen by all threads of one execution: parallel pipelines stop at the limit together.
struct LimitGlobalState : GlobalOperatorState {
  std::atomic<int64_t> seen{0};
};

struct LimitState : OperatorState {
  std::atomic<int64_t>* seen = nullptr;
};

}  // namespace

std::unique_ptr<GlobalOperatorState> PhysicalLimit::GetGlobalOperatorState(
    ExecutionContext&) const {
  return std::make_unique<LimitGlobalState>();
}

std::unique_ptr<OperatorState> PhysicalLimit::GetOperatorState(ExecutionContext& context) const {
  auto state = std::make_unique<LimitState>();
  state->seen = &static_cast<LimitGlobalState&>(context.operator_state(this)).seen;
  return state;
}

OperatorResult PhysicalLimit::Execute(ExecutionContext&, Batch& input, Batch& output,
                                      OperatorState& op_state) const {
  const int64_t n = static_cast<int64_t>(input.size());
  const int64_t start = static_cast<LimitState&>(op_state).seen->fetch_add(n);
  // Saturated: LIMIT and OFFSET may each be as large as BIGINT allows.
  const int64_t end_wanted =
      limit_ < 0 || limit_ > INT64_MAX - offset_ ? INT64_MAX : offset_ + limit_;
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

}  // namespace shears

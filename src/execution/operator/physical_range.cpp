#include "execution/operator/physical_range.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>

namespace shears {

namespace {
struct RangeState : GlobalSourceState {
  explicit RangeState(int64_t count) : batches((count + kBatchSize - 1) / kBatchSize) {}
  idx_t MaxThreads() const override { return static_cast<idx_t>(std::max<int64_t>(1, batches)); }
  const int64_t batches;
  std::atomic<int64_t> next{0};
};
}  // namespace

PhysicalRange::PhysicalRange(std::string function, int64_t start, int64_t step, int64_t count)
    : PhysicalOperator("RANGE", {LogicalType::Bigint()}),
      function_(std::move(function)),
      start_(start),
      step_(step),
      count_(count) {}

std::unique_ptr<GlobalSourceState> PhysicalRange::GetGlobalSourceState(ExecutionContext&) const {
  return std::make_unique<RangeState>(count_);
}

bool PhysicalRange::GetData(ExecutionContext&, Batch& out, GlobalSourceState& global,
                            LocalSourceState&) const {
  auto& state = static_cast<RangeState&>(global);
  const int64_t batch = state.next.fetch_add(1, std::memory_order_relaxed);
  if (batch >= state.batches) return false;
  const int64_t first = batch * static_cast<int64_t>(kBatchSize);
  const int64_t n = std::min<int64_t>(kBatchSize, count_ - first);
  // Unsigned arithmetic: every produced value fits in BIGINT (checked when binding), but
  // start + first * step may pass through values that do not in signed terms.
  uint64_t value =
      static_cast<uint64_t>(start_) + static_cast<uint64_t>(first) * static_cast<uint64_t>(step_);
  int64_t* data = out.column(0).data<int64_t>();
  for (int64_t i = 0; i < n; i++) {
    data[i] = static_cast<int64_t>(value);
    value += static_cast<uint64_t>(step_);
  }
  out.SetSize(static_cast<idx_t>(n));
  return true;
}

std::string PhysicalRange::Describe() const {
  return fmt::format("RANGE {} (start {}, step {}, {} rows)", function_, start_, step_, count_);
}

}  // namespace shears

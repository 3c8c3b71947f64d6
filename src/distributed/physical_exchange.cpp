#include "distributed/physical_exchange.h"

#include <atomic>

namespace shears {

namespace {
struct ExchangeSourceState : GlobalSourceState {
  std::atomic<size_t> next{0};
  idx_t MaxThreads() const override { return 64; }
};
}  // namespace

std::unique_ptr<GlobalSourceState> PhysicalExchange::GetGlobalSourceState(ExecutionContext&) const {
  return std::make_unique<ExchangeSourceState>();
}

bool PhysicalExchange::GetData(ExecutionContext& context, Batch& out, GlobalSourceState& global,
                               LocalSourceState&) const {
  const ColumnDataCollection* rows = Output(context);
  if (!rows) return false;
  const size_t index = static_cast<ExchangeSourceState&>(global).next.fetch_add(1);
  if (index >= rows->batch_count()) return false;
  const Batch& batch = rows->batch(index);
  for (idx_t c = 0; c < batch.column_count(); c++)
    out.column(c).Reference(batch.column(c));
  out.SetSize(batch.size());
  return true;
}

}  // namespace shears

#include "execution/operator/physical_result_collector.h"

#include "execution/pipeline.h"
#include "execution/query_context.h"

namespace shears {

namespace {
struct CollectorLocalState : LocalSinkState {
  explicit CollectorLocalState(ColumnDataCollection c) : rows(std::move(c)) {}
  ColumnDataCollection rows;
};

struct ScanState : GlobalSourceState {
  std::atomic<size_t> next{0};
  idx_t MaxThreads() const override { return 64; }
};
}  // namespace

std::unique_ptr<GlobalSinkState> PhysicalResultCollector::GetGlobalSinkState(
    ExecutionContext& context) const {
  return std::make_unique<ResultCollectorState>(
      ColumnDataCollection(types_, &context.query().memory()));
}

std::unique_ptr<LocalSinkState> PhysicalResultCollector::GetLocalSinkState(
    ExecutionContext& context) const {
  return std::make_unique<CollectorLocalState>(
      ColumnDataCollection(types_, &context.query().memory()));
}

bool PhysicalResultCollector::Sink(ExecutionContext&, Batch& input, GlobalSinkState&,
                                   LocalSinkState& local) const {
  static_cast<CollectorLocalState&>(local).rows.Append(input);
  return true;
}

void PhysicalResultCollector::Combine(ExecutionContext&, GlobalSinkState& global,
                                      LocalSinkState& local) const {
  auto& state = static_cast<ResultCollectorState&>(global);
  std::lock_guard<std::mutex> lock(state.mutex);
  state.result.Combine(static_cast<CollectorLocalState&>(local).rows);
}

ColumnDataCollection& PhysicalResultCollector::Result(ExecutionContext& context,
                                                      const PhysicalOperator& op) {
  return static_cast<ResultCollectorState&>(context.sink_state(&op)).result;
}

std::unique_ptr<GlobalSourceState> PhysicalColumnDataScan::GetGlobalSourceState(
    ExecutionContext&) const {
  return std::make_unique<ScanState>();
}

bool PhysicalColumnDataScan::GetData(ExecutionContext&, Batch& out, GlobalSourceState& global,
                                     LocalSourceState&) const {
  auto& state = static_cast<ScanState&>(global);
  size_t index = state.next.fetch_add(1);
  if (index >= data_->batch_count()) return false;
  const Batch& batch = data_->batch(index);
  for (idx_t c = 0; c < batch.column_count(); c++)
    out.column(c).Reference(batch.column(c));
  out.SetSize(batch.size());
  return true;
}

}  // namespace shears

#include "execution/operator/physical_cte.h"

#include <atomic>
#include <mutex>

#include "common/error.h"
#include "execution/pipeline.h"
#include "execution/query_context.h"

namespace shears {

namespace {

struct CteGlobalState : GlobalSinkState {
  explicit CteGlobalState(ColumnDataCollection c) : rows(std::move(c)) {}
  std::mutex mutex;
  ColumnDataCollection rows;
};

struct CteLocalState : LocalSinkState {
  explicit CteLocalState(ColumnDataCollection c) : rows(std::move(c)) {}
  ColumnDataCollection rows;
};

struct CteScanState : GlobalSourceState {
  std::atomic<size_t> next{0};
  size_t batches = 0;
  idx_t MaxThreads() const override { return std::max<size_t>(1, batches); }
};

}  // namespace

std::unique_ptr<GlobalSinkState> PhysicalMaterializedCte::GetGlobalSinkState(
    ExecutionContext& context) const {
  return std::make_unique<CteGlobalState>(
      ColumnDataCollection(cte_types_, &context.query().memory()));
}

std::unique_ptr<LocalSinkState> PhysicalMaterializedCte::GetLocalSinkState(
    ExecutionContext& context) const {
  return std::make_unique<CteLocalState>(
      ColumnDataCollection(cte_types_, &context.query().memory()));
}

bool PhysicalMaterializedCte::Sink(ExecutionContext&, Batch& input, GlobalSinkState&,
                                   LocalSinkState& local) const {
  static_cast<CteLocalState&>(local).rows.Append(input);
  return true;
}

void PhysicalMaterializedCte::Combine(ExecutionContext&, GlobalSinkState& global,
                                      LocalSinkState& local) const {
  auto& state = static_cast<CteGlobalState&>(global);
  std::lock_guard<std::mutex> lock(state.mutex);
  state.rows.Combine(static_cast<CteLocalState&>(local).rows);
}

const ColumnDataCollection& PhysicalMaterializedCte::rows(ExecutionContext& context) const {
  return static_cast<CteGlobalState&>(context.sink_state(this)).rows;
}

std::vector<std::pair<std::string, std::string>> PhysicalMaterializedCte::AnalyzeDetails(
    ExecutionContext& context) const {
  const auto& collected = rows(context);
  return {{"rows", std::to_string(collected.row_count())},
          {"bytes", std::to_string(collected.bytes())}};
}

void PhysicalMaterializedCte::BuildPipelines(Pipeline& current, PipelineBuilder& builder) {
  SHEARS_CHECK(children_.size() == 2);
  definition_pipeline_ = builder.NewPipeline(this);
  children_[0]->BuildPipelines(*definition_pipeline_, builder);
  current.dependencies.push_back(definition_pipeline_);
  children_[1]->BuildPipelines(current, builder);
}

std::unique_ptr<GlobalSourceState> PhysicalCteScan::GetGlobalSourceState(
    ExecutionContext& context) const {
  auto state = std::make_unique<CteScanState>();
  state->batches = cte_.rows(context).batch_count();
  return state;
}

bool PhysicalCteScan::GetData(ExecutionContext& context, Batch& out, GlobalSourceState& global,
                              LocalSourceState&) const {
  auto& source = static_cast<CteScanState&>(global);
  const size_t index = source.next.fetch_add(1);
  if (index >= source.batches) return false;
  const Batch& batch = cte_.rows(context).batch(index);
  for (idx_t c = 0; c < batch.column_count(); c++)
    out.column(c).Reference(batch.column(c));
  out.SetSize(batch.size());
  return true;
}

void PhysicalCteScan::BuildPipelines(Pipeline& current, PipelineBuilder&) {
  // Whatever pipeline reads the CTE runs after the one that computes it.
  SHEARS_CHECK(cte_.definition_pipeline() != nullptr);
  current.source = this;
  current.dependencies.push_back(cte_.definition_pipeline());
}

}  // namespace shears

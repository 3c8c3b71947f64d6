#include "execution/operator/physical_union.h"

#include <atomic>

#include "common/error.h"
#include "execution/pipeline.h"
#include "execution/query_context.h"

namespace shears {

namespace {

struct UnionGlobalState : GlobalSinkState {
  explicit UnionGlobalState(ColumnDataCollection c) : rows(std::move(c)) {}
  std::mutex mutex;
  ColumnDataCollection rows;
};

struct UnionLocalState : LocalSinkState {
  explicit UnionLocalState(ColumnDataCollection c) : rows(std::move(c)) {}
  ColumnDataCollection rows;
};

struct UnionSourceState : GlobalSourceState {
  std::atomic<size_t> next{0};
  size_t batches = 0;
  idx_t MaxThreads() const override { return std::max<size_t>(1, batches); }
};

}  // namespace

std::unique_ptr<GlobalSinkState> PhysicalUnionAll::GetGlobalSinkState(
    ExecutionContext& context) const {
  return std::make_unique<UnionGlobalState>(
      ColumnDataCollection(types_, &context.query().memory()));
}

std::unique_ptr<LocalSinkState> PhysicalUnionAll::GetLocalSinkState(
    ExecutionContext& context) const {
  return std::make_unique<UnionLocalState>(ColumnDataCollection(types_, &context.query().memory()));
}

bool PhysicalUnionAll::Sink(ExecutionContext&, Batch& input, GlobalSinkState&,
                            LocalSinkState& local) const {
  static_cast<UnionLocalState&>(local).rows.Append(input);
  return true;
}

void PhysicalUnionAll::Combine(ExecutionContext&, GlobalSinkState& global,
                               LocalSinkState& local) const {
  auto& state = static_cast<UnionGlobalState&>(global);
  std::lock_guard<std::mutex> lock(state.mutex);
  state.rows.Combine(static_cast<UnionLocalState&>(local).rows);
}

std::unique_ptr<GlobalSourceState> PhysicalUnionAll::GetGlobalSourceState(
    ExecutionContext& context) const {
  auto state = std::make_unique<UnionSourceState>();
  state->batches = static_cast<UnionGlobalState&>(context.sink_state(this)).rows.batch_count();
  return state;
}

bool PhysicalUnionAll::GetData(ExecutionContext& context, Batch& out, GlobalSourceState& global,
                               LocalSourceState&) const {
  auto& source = static_cast<UnionSourceState&>(global);
  const size_t index = source.next.fetch_add(1);
  if (index >= source.batches) return false;
  const Batch& batch = static_cast<UnionGlobalState&>(context.sink_state(this)).rows.batch(index);
  for (idx_t c = 0; c < batch.column_count(); c++)
    out.column(c).Reference(batch.column(c));
  out.SetSize(batch.size());
  return true;
}

void PhysicalUnionAll::BuildPipelines(Pipeline& current, PipelineBuilder& builder) {
  SHEARS_CHECK(children_.size() == 2);
  current.source = this;
  // Both inputs feed this sink; the executor finalizes it after the last of them.
  Pipeline* first = builder.NewPipeline(this);
  Pipeline* second = builder.NewPipeline(this);
  current.dependencies.push_back(first);
  current.dependencies.push_back(second);
  children_[0]->BuildPipelines(*first, builder);
  children_[1]->BuildPipelines(*second, builder);
}

}  // namespace shears

#include "execution/physical_operator.h"

#include "common/error.h"
#include "execution/pipeline.h"

namespace shears {

std::unique_ptr<GlobalSourceState> PhysicalOperator::GetGlobalSourceState(ExecutionContext&) const {
  return std::make_unique<GlobalSourceState>();
}

std::unique_ptr<LocalSourceState> PhysicalOperator::GetLocalSourceState(ExecutionContext&,
                                                                        GlobalSourceState&) const {
  return std::make_unique<LocalSourceState>();
}

bool PhysicalOperator::GetData(ExecutionContext&, Batch&, GlobalSourceState&,
                               LocalSourceState&) const {
  throw InternalError("{} is not a source", name_);
}

std::unique_ptr<OperatorMetrics> PhysicalOperator::MakeMetrics() const {
  return std::make_unique<OperatorMetrics>();
}

std::unique_ptr<OperatorState> PhysicalOperator::GetOperatorState(ExecutionContext&) const {
  return std::make_unique<OperatorState>();
}

OperatorResult PhysicalOperator::Execute(ExecutionContext&, Batch&, Batch&, OperatorState&) const {
  throw InternalError("{} is not a streaming operator", name_);
}

std::unique_ptr<GlobalSinkState> PhysicalOperator::GetGlobalSinkState(ExecutionContext&) const {
  return std::make_unique<GlobalSinkState>();
}

std::unique_ptr<LocalSinkState> PhysicalOperator::GetLocalSinkState(ExecutionContext&) const {
  return std::make_unique<LocalSinkState>();
}

bool PhysicalOperator::Sink(ExecutionContext&, Batch&, GlobalSinkState&, LocalSinkState&) const {
  throw InternalError("{} is not a sink", name_);
}

void PhysicalOperator::Combine(ExecutionContext&, GlobalSinkState&, LocalSinkState&) const {}

void PhysicalOperator::Finalize(ExecutionContext&, GlobalSinkState&) const {}

void PhysicalOperator::BuildPipelines(Pipeline& current, PipelineBuilder& builder) {
  if (IsSink()) {
    // This operator ends a pipeline below it and is the source of `current`.
    SHEARS_CHECK(children_.size() == 1);
    current.source = this;
    Pipeline* below = builder.NewPipeline(this);
    current.dependencies.push_back(below);
    children_[0]->BuildPipelines(*below, builder);
    return;
  }
  if (IsSource()) {
    SHEARS_CHECK(children_.empty());
    current.source = this;
    return;
  }
  SHEARS_CHECK(children_.size() == 1);
  children_[0]->BuildPipelines(current, builder);
  current.operators.push_back(this);
}

}  // namespace shears

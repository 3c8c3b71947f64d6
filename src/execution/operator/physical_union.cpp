#include "execution/operator/physical_union.h"

#include "common/error.h"
#include "execution/pipeline.h"

namespace shears {

OperatorResult PhysicalUnionAll::Execute(ExecutionContext&, Batch& input, Batch& output,
                                         OperatorState&) const {
  for (idx_t c = 0; c < input.column_count(); c++)
    output.column(c).Reference(input.column(c));
  output.SetSize(input.size());
  return OperatorResult::kNeedMoreInput;
}

void PhysicalUnionAll::BuildPipelines(Pipeline& current, PipelineBuilder& builder) {
  SHEARS_CHECK(children_.size() == 2);
  children_[0]->BuildPipelines(current, builder);
  current.operators.push_back(this);
  Pipeline* second = builder.NewPipeline(current.sink);
  second->continues = &current;
  second->continue_from = current.operators.size();
  children_[1]->BuildPipelines(*second, builder);
  second->operators.push_back(this);
}

}  // namespace shears

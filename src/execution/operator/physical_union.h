#pragma once
// UNION_ALL: the rows of both children, streamed. The first child continues the current
// pipeline through this operator; the second gets a pipeline of its own that passes this
// operator and then the same operators above it into the same sink (Pipeline::continues), so
// neither input is collected in between.

#include "execution/physical_operator.h"

namespace shears {

class PhysicalUnionAll : public PhysicalOperator {
 public:
  /// Children (added with AddChild): the two inputs, both of `types`.
  explicit PhysicalUnionAll(std::vector<LogicalType> types)
      : PhysicalOperator("UNION_ALL", std::move(types)) {}

  /// Passes its input on (columns referenced, not copied).
  OperatorResult Execute(ExecutionContext& context, Batch& input, Batch& output,
                         OperatorState& state) const override;

  void BuildPipelines(Pipeline& current, PipelineBuilder& builder) override;
};

}  // namespace shears

#pragma once
// UNION_ALL: the rows of both children. Each child runs as its own pipeline sinking into the
// union (two pipelines, one sink); the pipeline above reads the collected rows as its source,
// in parallel morsels of a batch.

#include <mutex>

#include "execution/column_data.h"
#include "execution/physical_operator.h"

namespace shears {

class PhysicalUnionAll : public PhysicalOperator {
 public:
  /// Children (added with AddChild): the two inputs, both of `types`.
  explicit PhysicalUnionAll(std::vector<LogicalType> types)
      : PhysicalOperator("UNION_ALL", std::move(types)) {}

  bool IsSink() const override { return true; }
  bool IsSource() const override { return true; }
  std::unique_ptr<GlobalSinkState> GetGlobalSinkState(ExecutionContext& context) const override;
  std::unique_ptr<LocalSinkState> GetLocalSinkState(ExecutionContext& context) const override;
  bool Sink(ExecutionContext& context, Batch& input, GlobalSinkState& global,
            LocalSinkState& local) const override;
  void Combine(ExecutionContext& context, GlobalSinkState& global,
               LocalSinkState& local) const override;

  std::unique_ptr<GlobalSourceState> GetGlobalSourceState(ExecutionContext& context) const override;
  bool GetData(ExecutionContext& context, Batch& out, GlobalSourceState& global,
               LocalSourceState& local) const override;

  void BuildPipelines(Pipeline& current, PipelineBuilder& builder) override;
};

}  // namespace shears

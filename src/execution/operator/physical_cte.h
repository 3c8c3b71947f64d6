#pragma once
// MATERIALIZED_CTE and CTE_SCAN: a common table expression computed once (bind_cte.cpp).
// The CTE's query (children[0]) runs as its own pipeline sinking into MATERIALIZED_CTE, which
// keeps its rows in memory (counted against memory_limit); the query (children[1]) continues
// the current pipeline. Every pipeline whose source is a CTE_SCAN of it depends on that
// pipeline, and reads the rows in parallel morsels of a batch without copying them. A CTE_SCAN
// may drop the rows the join above it would drop, by that join's runtime filters (planned by
// optimizer/runtime_filter.cpp on the reference's columns), before they reach the operators
// between it and that join.

#include "dynfilter/dynamic_filter.h"
#include "execution/column_data.h"
#include "execution/physical_operator.h"

namespace shears {

class PhysicalMaterializedCte : public PhysicalOperator {
 public:
  /// `types`: the query's (this operator's output); `cte_types`: the CTE's rows.
  PhysicalMaterializedCte(std::string cte_name, std::vector<LogicalType> types,
                          std::vector<LogicalType> cte_types)
      : PhysicalOperator("MATERIALIZED_CTE", std::move(types)),
        cte_name_(std::move(cte_name)),
        cte_types_(std::move(cte_types)) {}

  bool IsSink() const override { return true; }
  std::unique_ptr<GlobalSinkState> GetGlobalSinkState(ExecutionContext& context) const override;
  std::unique_ptr<LocalSinkState> GetLocalSinkState(ExecutionContext& context) const override;
  bool Sink(ExecutionContext& context, Batch& input, GlobalSinkState& global,
            LocalSinkState& local) const override;
  void Combine(ExecutionContext& context, GlobalSinkState& global,
               LocalSinkState& local) const override;
  void BuildPipelines(Pipeline& current, PipelineBuilder& builder) override;
  std::string Describe() const override { return "MATERIALIZED_CTE " + cte_name_; }
  std::vector<std::pair<std::string, std::string>> AnalyzeDetails(
      ExecutionContext& context) const override;

  /// The pipeline that computes the CTE (set by BuildPipelines, before the query's).
  Pipeline* definition_pipeline() const { return definition_pipeline_; }
  const ColumnDataCollection& rows(ExecutionContext& context) const;

 private:
  std::string cte_name_;
  std::vector<LogicalType> cte_types_;
  Pipeline* definition_pipeline_ = nullptr;
};

class PhysicalCteScan : public PhysicalOperator {
 public:
  /// `runtime_filters`: column_ids are positions in this reference's output.
  PhysicalCteScan(const PhysicalMaterializedCte& cte, std::string cte_name,
                  std::vector<LogicalType> types,
                  std::vector<RuntimeFilterTarget> runtime_filters = {});

  bool IsSource() const override { return true; }
  std::unique_ptr<GlobalSourceState> GetGlobalSourceState(ExecutionContext& context) const override;
  std::unique_ptr<LocalSourceState> GetLocalSourceState(ExecutionContext& context,
                                                        GlobalSourceState& global) const override;
  std::vector<int> ConsumedDynamicFilters() const override;
  std::unique_ptr<OperatorMetrics> MakeMetrics() const override;
  std::vector<std::pair<std::string, std::string>> AnalyzeDetails(
      ExecutionContext& context) const override;
  bool GetData(ExecutionContext& context, Batch& out, GlobalSourceState& global,
               LocalSourceState& local) const override;
  void BuildPipelines(Pipeline& current, PipelineBuilder& builder) override;
  std::string Describe() const override;
  const PhysicalMaterializedCte& cte() const { return cte_; }

 private:
  const PhysicalMaterializedCte& cte_;
  std::string cte_name_;
  std::vector<RuntimeFilterTarget> runtime_filters_;
  std::vector<std::vector<idx_t>> key_columns_;  // by runtime filter: its key positions
};

}  // namespace shears

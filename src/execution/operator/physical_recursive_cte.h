#pragma once
// RECURSIVE_CTE: WITH RECURSIVE's iteration (planner/bind_cte.cpp). Its children are two
// collectors: the anchor's and the recursive term's. When its pipeline starts (as the source
// of the plan above) it runs the anchor to completion, then the recursive term again and
// again, each run reading the rows the previous one added through WORKING_TABLE scans, until
// a run adds no row; with UNION (not ALL) rows seen before are not added. More than
// max_recursive_iterations runs is an error. All rows are kept (counted against memory_limit)
// and emitted a batch at a time.

#include <memory>

#include "execution/column_data.h"
#include "execution/physical_operator.h"

namespace shears {

/// The rows a recursive CTE's working table holds in the current iteration; shared by the
/// RECURSIVE_CTE (which fills it) and its WORKING_TABLE scans.
struct WorkingTable {
  std::unique_ptr<ColumnDataCollection> rows;
};

class PhysicalWorkingTableScan : public PhysicalOperator {
 public:
  PhysicalWorkingTableScan(std::vector<LogicalType> types, std::shared_ptr<WorkingTable> table,
                           std::string cte_name)
      : PhysicalOperator("WORKING_TABLE", std::move(types)),
        table_(std::move(table)),
        cte_name_(std::move(cte_name)) {}
  bool IsSource() const override { return true; }
  std::unique_ptr<GlobalSourceState> GetGlobalSourceState(ExecutionContext& context) const override;
  bool GetData(ExecutionContext& context, Batch& out, GlobalSourceState& global,
               LocalSourceState& local) const override;
  std::string Describe() const override { return name_ + " " + cte_name_; }

 private:
  std::shared_ptr<WorkingTable> table_;
  std::string cte_name_;
};

class PhysicalRecursiveCte : public PhysicalOperator {
 public:
  /// `anchor` and `recursive`: the two terms' plans (the recursive one's WORKING_TABLE scans
  /// share `table`), of `types`.
  PhysicalRecursiveCte(std::vector<LogicalType> types, PhysicalOperatorPtr anchor,
                       PhysicalOperatorPtr recursive, std::shared_ptr<WorkingTable> table,
                       bool union_all, std::string cte_name);

  bool IsSource() const override { return true; }
  /// A source of the pipeline above: its children run in executions of their own.
  void BuildPipelines(Pipeline& current, PipelineBuilder& builder) override;
  std::unique_ptr<GlobalSourceState> GetGlobalSourceState(ExecutionContext& context) const override;
  bool GetData(ExecutionContext& context, Batch& out, GlobalSourceState& global,
               LocalSourceState& local) const override;
  std::string Describe() const override;

 private:
  std::shared_ptr<WorkingTable> table_;
  bool union_all_;
  std::string cte_name_;
};

}  // namespace shears

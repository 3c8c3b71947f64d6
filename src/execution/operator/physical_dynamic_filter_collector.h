#pragma once
// Sits on the build side of a join, in the build pipeline, and collects the distinct join key
// values that flow past into dynamic filters (Flink's DynamicFilteringDataCollector). The rows
// pass through unchanged to the join: the build side is computed once and feeds both.

#include "execution/physical_operator.h"
#include "planner/expression.h"

namespace shears {

class PhysicalDynamicFilterCollector : public PhysicalOperator {
 public:
  struct Key {
    int filter_id;
    BoundExprPtr expr;  // over the input
    /// Collect the smallest and largest value instead of the distinct values (a bound filter).
    bool bounds = false;
  };
  PhysicalDynamicFilterCollector(std::vector<LogicalType> types, std::vector<Key> keys);

  OperatorResult Execute(ExecutionContext& context, Batch& input, Batch& output,
                         OperatorState& state) const override;
  std::string Describe() const override;
  std::vector<int> ProducedDynamicFilters() const override;
  std::vector<std::pair<std::string, std::string>> AnalyzeDetails(
      ExecutionContext& context) const override;

 private:
  std::vector<Key> keys_;
};

}  // namespace shears

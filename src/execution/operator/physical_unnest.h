#pragma once
// The UNNEST operator: unnest(list) in a select list.

#include "execution/physical_operator.h"
#include "expression/expression.h"

namespace shears {

/// Repeats each input row once per element of the longest of its lists (not at all when every
/// one is NULL or empty): the input columns, then element i of each list, NULL past the end
/// of a shorter one (DuckDB's). A row with many elements spans several output batches.
class PhysicalUnnest : public PhysicalOperator {
 public:
  PhysicalUnnest(std::vector<LogicalType> types, std::vector<BoundExprPtr> lists)
      : PhysicalOperator("UNNEST", std::move(types)), lists_(std::move(lists)) {}
  std::unique_ptr<OperatorState> GetOperatorState(ExecutionContext& context) const override;
  OperatorResult Execute(ExecutionContext& context, Batch& input, Batch& output,
                         OperatorState& state) const override;
  std::string Describe() const override;

 private:
  std::vector<BoundExprPtr> lists_;
};

}  // namespace shears

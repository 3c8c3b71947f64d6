#pragma once
// The VALUES and DUMMY_SCAN source.

#include "execution/physical_operator.h"
#include "expression/expression.h"

namespace shears {

/// Rows of constants (VALUES), or one row without columns (DUMMY_SCAN) when `rows` is one
/// empty row.
class PhysicalValues : public PhysicalOperator {
 public:
  PhysicalValues(std::vector<LogicalType> types, std::vector<std::vector<BoundExprPtr>> rows)
      : PhysicalOperator(rows.size() == 1 && rows[0].empty() ? "DUMMY_SCAN" : "VALUES",
                         std::move(types)),
        rows_(std::move(rows)) {}
  bool IsSource() const override { return true; }
  std::unique_ptr<GlobalSourceState> GetGlobalSourceState(ExecutionContext& context) const override;
  bool GetData(ExecutionContext& context, Batch& out, GlobalSourceState& global,
               LocalSourceState& local) const override;

 private:
  std::vector<std::vector<BoundExprPtr>> rows_;
};

}  // namespace shears

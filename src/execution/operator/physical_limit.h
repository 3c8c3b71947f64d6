#pragma once
// The LIMIT operator (with OFFSET).

#include "execution/physical_operator.h"

namespace shears {

/// LIMIT/OFFSET over a stream (any rows when the input has no order; the planner puts it
/// above a single-threaded ordered source when order matters).
class PhysicalLimit : public PhysicalOperator {
 public:
  PhysicalLimit(std::vector<LogicalType> types, int64_t limit, int64_t offset)
      : PhysicalOperator("LIMIT", std::move(types)), limit_(limit), offset_(offset) {}
  std::unique_ptr<GlobalOperatorState> GetGlobalOperatorState(
      ExecutionContext& context) const override;
  std::unique_ptr<OperatorState> GetOperatorState(ExecutionContext& context) const override;
  OperatorResult Execute(ExecutionContext& context, Batch& input, Batch& output,
                         OperatorState& state) const override;
  std::string Describe() const override;
  int64_t limit() const { return limit_; }  // -1: none (OFFSET only)
  int64_t offset() const { return offset_; }

 private:
  int64_t limit_;
  int64_t offset_;
};

}  // namespace shears

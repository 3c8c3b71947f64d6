#pragma once
// The small streaming operators and sources: FILTER, PROJECTION, LIMIT, VALUES, DUMMY_SCAN.

#include <atomic>

#include "execution/physical_operator.h"
#include "planner/expression.h"

namespace shears {

/// Keeps the rows where every condition is TRUE.
class PhysicalFilter : public PhysicalOperator {
 public:
  PhysicalFilter(std::vector<LogicalType> types, std::vector<BoundExprPtr> conditions)
      : PhysicalOperator("FILTER", std::move(types)), conditions_(std::move(conditions)) {}
  OperatorResult Execute(ExecutionContext& context, Batch& input, Batch& output,
                         OperatorState& state) const override;
  std::string Describe() const override;

 private:
  std::vector<BoundExprPtr> conditions_;
};

/// Computes one output column per expression.
class PhysicalProjection : public PhysicalOperator {
 public:
  PhysicalProjection(std::vector<LogicalType> types, std::vector<BoundExprPtr> expressions)
      : PhysicalOperator("PROJECTION", std::move(types)), expressions_(std::move(expressions)) {}
  OperatorResult Execute(ExecutionContext& context, Batch& input, Batch& output,
                         OperatorState& state) const override;
  std::string Describe() const override;

 private:
  std::vector<BoundExprPtr> expressions_;
};

/// LIMIT/OFFSET over a stream (any rows when the input has no order; the planner puts it
/// above a single-threaded ordered source when order matters).
class PhysicalLimit : public PhysicalOperator {
 public:
  PhysicalLimit(std::vector<LogicalType> types, int64_t limit, int64_t offset)
      : PhysicalOperator("LIMIT", std::move(types)), limit_(limit), offset_(offset) {}
  std::unique_ptr<OperatorState> GetOperatorState(ExecutionContext& context) const override;
  OperatorResult Execute(ExecutionContext& context, Batch& input, Batch& output,
                         OperatorState& state) const override;
  std::string Describe() const override;
  int64_t limit() const { return limit_; }  // -1: none (OFFSET only)
  int64_t offset() const { return offset_; }

 private:
  int64_t limit_;
  int64_t offset_;
  // Rows seen by all threads; shared so parallel pipelines stop at the limit together.
  mutable std::atomic<int64_t> seen_{0};
};

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

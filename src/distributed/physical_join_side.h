#pragma once
// The side of a distributed join that every rank computes in full (distribute_plan.h):
//
//   BROADCAST    the build side of a broadcast join: each rank builds the whole of it (rows pass
//                through; the operator is there so EXPLAIN says which joins are broadcast);
//   HASH_SELECT  a side of a shuffle join: each rank keeps the rows whose key hashes to it (the
//                hash PhysicalShuffle sends the other side's rows by), so both sides' rows of
//                one key meet on one rank and nothing of this side is sent.

#include <memory>

#include "distributed/mpi_runtime.h"
#include "execution/physical_operator.h"
#include "planner/expression.h"

namespace shears {

class PhysicalBroadcast : public PhysicalOperator {
 public:
  explicit PhysicalBroadcast(std::vector<LogicalType> types, std::string why)
      : PhysicalOperator("BROADCAST", std::move(types)), why_(std::move(why)) {}
  OperatorResult Execute(ExecutionContext& context, Batch& input, Batch& output,
                         OperatorState& state) const override;
  std::string Describe() const override;

 private:
  std::string why_;
};

class PhysicalHashSelect : public PhysicalOperator {
 public:
  PhysicalHashSelect(std::vector<LogicalType> types, std::vector<BoundExprPtr> keys,
                     std::shared_ptr<MpiQueryShare> share, std::string purpose);
  std::unique_ptr<OperatorState> GetOperatorState(ExecutionContext& context) const override;
  OperatorResult Execute(ExecutionContext& context, Batch& input, Batch& output,
                         OperatorState& state) const override;
  std::string Describe() const override;

 private:
  std::vector<BoundExprPtr> keys_;
  std::shared_ptr<MpiQueryShare> share_;
  std::string purpose_;
};

}  // namespace shears

#pragma once
// The side of a distributed join that every rank computes in full (distribute_plan.h):
//
//   BROADCAST    the build side of a broadcast join: each rank builds the whole of it (rows pass
//                through; the operator is there so EXPLAIN says which joins are broadcast);
//   HASH_SELECT  a side of a shuffle join: each rank keeps the rows whose key hashes to it (the
//                hash PhysicalShuffle sends the other side's rows by), so both sides' rows of
//                one key meet on one rank and nothing of this side is sent. The build side of
//                a MARK join also keeps, on every rank, the rows with a NULL key and one row
//                besides: its NULL rule asks whether the whole build side is empty or has a
//                NULL key, and a row kept on a rank its key does not hash to meets no probe row
//                with that key (they are all on the key's rank).

#include <memory>

#include "distributed/mpi_runtime.h"
#include "execution/physical_operator.h"
#include "expression/expression.h"

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
  /// `for_mark`: the build side of a MARK join (above).
  PhysicalHashSelect(std::vector<LogicalType> types, std::vector<BoundExprPtr> keys,
                     std::shared_ptr<MpiQueryShare> share, std::string purpose,
                     bool for_mark = false);
  std::unique_ptr<OperatorState> GetOperatorState(ExecutionContext& context) const override;
  OperatorResult Execute(ExecutionContext& context, Batch& input, Batch& output,
                         OperatorState& state) const override;
  std::string Describe() const override;

 private:
  std::vector<BoundExprPtr> keys_;
  std::shared_ptr<MpiQueryShare> share_;
  std::string purpose_;
  bool for_mark_ = false;
};

}  // namespace shears

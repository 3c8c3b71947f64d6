#pragma once
// GATHER: the exchange where a distributed plan meets again at rank 0 (distribute_plan.h).
// As a sink it collects this rank's rows; Finalize sends them to rank 0 (every other rank), or
// receives every rank's (rank 0), with each rank's counters for EXPLAIN ANALYZE. As a source
// it emits all ranks' rows on rank 0 and none elsewhere, so what lies above runs on rank 0's
// complete input (and on nothing on the other ranks, whose results nobody prints).

#include <memory>

#include "distributed/mpi_runtime.h"
#include "distributed/physical_exchange.h"
#include "distributed/split_coordinator.h"

namespace shears {

class PhysicalGather : public PhysicalExchange {
 public:
  /// `scan`: the counters of the distributed scan below.
  PhysicalGather(std::vector<LogicalType> types, std::shared_ptr<MpiQueryShare> share,
                 std::shared_ptr<DistributedScanStats> scan);

  std::unique_ptr<GlobalSinkState> GetGlobalSinkState(ExecutionContext& context) const override;
  void Finalize(ExecutionContext& context, GlobalSinkState& global) const override;

  std::string Describe() const override;
  /// One line per rank: rows, bytes sent, files read and their bytes.
  std::vector<std::pair<std::string, std::string>> AnalyzeDetails(
      ExecutionContext& context) const override;

 protected:
  const ColumnDataCollection* Output(ExecutionContext& context) const override;

 private:
  std::shared_ptr<MpiQueryShare> share_;
  std::shared_ptr<DistributedScanStats> scan_;
};

/// What a rank other than 0 runs above its GATHER: nothing reaches it, and it gives no rows of
/// the query's result types, so the operators above the gather (and the scans beside them)
/// run on rank 0 alone.
class PhysicalNoRows : public PhysicalOperator {
 public:
  explicit PhysicalNoRows(std::vector<LogicalType> types)
      : PhysicalOperator("NO_ROWS", std::move(types)) {}
  bool IsSink() const override { return true; }
  bool Sink(ExecutionContext&, Batch&, GlobalSinkState&, LocalSinkState&) const override {
    return false;
  }
  bool GetData(ExecutionContext&, Batch&, GlobalSourceState&, LocalSourceState&) const override {
    return false;
  }
  std::string Describe() const override { return "NO_ROWS (the rest of the plan runs on rank 0)"; }
};

}  // namespace shears

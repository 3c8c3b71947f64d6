#pragma once
// SHUFFLE: an all-to-all exchange by key (distribute_plan.h puts one between a partial and a
// final aggregate with many groups). As a sink it collects this rank's rows; Finalize sends
// each row to the rank its key hashes to (MPI_Alltoall of the sizes, then MPI_Alltoallv of the
// rows); as a source it emits the rows this rank received, every key's rows on one rank.

#include <memory>

#include "distributed/mpi_runtime.h"
#include "distributed/physical_exchange.h"

namespace shears {

class PhysicalShuffle : public PhysicalExchange {
 public:
  /// `keys`: the columns whose values decide a row's rank.
  PhysicalShuffle(std::vector<LogicalType> types, std::vector<idx_t> keys,
                  std::shared_ptr<MpiQueryShare> share);

  std::unique_ptr<GlobalSinkState> GetGlobalSinkState(ExecutionContext& context) const override;
  void Finalize(ExecutionContext& context, GlobalSinkState& global) const override;

  std::string Describe() const override;
  /// This rank's rows kept, sent and received, bytes sent and the exchange's time.
  std::vector<std::pair<std::string, std::string>> AnalyzeDetails(
      ExecutionContext& context) const override;

  /// The rank of each of `batch`'s rows among `ranks`: a hash of the key columns' values
  /// that is the same on every rank (equal values, -0.0 and 0.0 too, hash alike).
  static void RanksOf(const Batch& batch, const std::vector<idx_t>& keys, int ranks,
                      std::vector<uint32_t>& out);

 protected:
  const ColumnDataCollection* Output(ExecutionContext& context) const override;

 private:
  std::vector<idx_t> keys_;
  std::shared_ptr<MpiQueryShare> share_;
};

}  // namespace shears

#pragma once
// SHUFFLE: an all-to-all exchange by key (distribute_plan.h puts one between a partial and a
// final aggregate with many groups, and below each side of a shuffle join whose rows are split
// over the ranks). As a sink each thread sorts its rows by the rank their key hashes to,
// encoding the other ranks' rows at once; Finalize sends them (MPI_Alltoall of the sizes, then
// MPI_Alltoallv of the rows); as a source it emits the rows this rank received and kept, every
// key's rows on one rank.

#include <memory>

#include "distributed/mpi_runtime.h"
#include "distributed/physical_exchange.h"
#include "expression/expression.h"

namespace shears {

class PhysicalShuffle : public PhysicalExchange {
 public:
  /// `keys`: expressions over the input whose values decide a row's rank; `purpose` follows
  /// the operator's name in EXPLAIN ("of partial groups", "probe side of a shuffle join ...").
  PhysicalShuffle(std::vector<LogicalType> types, std::vector<BoundExprPtr> keys,
                  std::shared_ptr<MpiQueryShare> share, std::string purpose);

  std::unique_ptr<GlobalSinkState> GetGlobalSinkState(ExecutionContext& context) const override;
  std::unique_ptr<LocalSinkState> GetLocalSinkState(ExecutionContext& context) const override;
  bool Sink(ExecutionContext& context, Batch& input, GlobalSinkState& global,
            LocalSinkState& local) const override;
  void Combine(ExecutionContext& context, GlobalSinkState& global,
               LocalSinkState& local) const override;
  void Finalize(ExecutionContext& context, GlobalSinkState& global) const override;

  std::string Describe() const override;
  /// This rank's rows kept, sent and received, bytes sent and the exchange's time.
  std::vector<std::pair<std::string, std::string>> AnalyzeDetails(
      ExecutionContext& context) const override;

  /// The rank of each of the `count` rows of `keys` among `ranks`: a hash of the key values
  /// that is the same on every rank (equal values, -0.0 and 0.0 too, hash alike; NULLs hash
  /// alike, so IS NOT DISTINCT FROM keys meet too).
  static void RanksOf(const std::vector<const Vector*>& keys, idx_t count, int ranks,
                      std::vector<uint32_t>& out);
  /// Evaluates `keys` over `batch` into `values` and returns pointers to them.
  static std::vector<const Vector*> EvaluateKeys(const std::vector<BoundExprPtr>& keys,
                                                 const Batch& batch, std::vector<Vector>& values);

 protected:
  const ColumnDataCollection* Output(ExecutionContext& context) const override;

 private:
  std::vector<BoundExprPtr> keys_;
  std::shared_ptr<MpiQueryShare> share_;
  std::string purpose_;
};

}  // namespace shears

#pragma once
// The global runtime filter of a shuffle join (distribute_plan.h): each rank builds the join's
// filter from its share of the build side (the keys hashing to it), and the ranks unite them
// before any probe-side scan uses one, so every rank's filter is the whole build side's.
//
//   1. sizes: MPI_Allreduce sums the build rows, the distinct keys (exact: the shares hold
//      disjoint keys) and the exact sets' keys; past the filter's max_keys every rank disables
//      it, nothing more is sent;
//   2. unless the union is surely an exact set, each rank builds the bloom filter of its keys
//      at the size Finish gives the union's distinct count, and MPI_Allreduce with MPI_BOR
//      ORs them: bit for bit the bloom filter of all keys (RuntimeFilter::BloomBits);
//   3. MPI_Allgatherv of what is left of each part (RuntimeFilter::EncodeBuild without the key
//      hashes: the exact set while every rank keeps one and the union may use it, as an exact
//      set or a bitmap of integer keys, whose span a MAX all-reduce tells; min and max per key
//      column), which each rank merges in rank order;
//   then every rank chooses the same kind (exact set, bloom, range) from the same union in
//   RuntimeFilter::Finish: identical filters, so rank 0 prunes the fact's files as every rank
//   would.

#include <atomic>
#include <memory>

#include "distributed/mpi_runtime.h"
#include "execution/operator/physical_hash_join.h"

namespace shears {

class MpiFilterMerge : public PartialFilterMerge {
 public:
  explicit MpiFilterMerge(std::shared_ptr<MpiQueryShare> share) : share_(std::move(share)) {}
  std::string Merge(RuntimeFilter& filter, const RuntimeFilterLimits& limits, uint64_t& build_rows,
                    uint64_t& distinct_keys) override;
  std::string Describe() const override;

 private:
  /// Whether the union of single integer keys spans at most limits.max_bitmap_bits values
  /// (a collective: every rank calls it alike).
  bool IntegerSpanFitsBitmap(const RuntimeFilter& filter, const RuntimeFilterLimits& limits,
                             size_t ranks);
  /// Adds to this merge's and the rank's byte counters.
  void Count(uint64_t sent, uint64_t received);

  std::shared_ptr<MpiQueryShare> share_;
  std::atomic<uint64_t> merges_{0}, past_limit_{0}, bytes_sent_{0}, bytes_received_{0}, nanos_{0};
  std::atomic<uint64_t> bloom_bytes_{0};
};

}  // namespace shears

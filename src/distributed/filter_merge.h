#pragma once
// The global runtime filter of a shuffle join (distribute_plan.h): each rank builds the join's
// filter from its share of the build side (the keys hashing to it), and the ranks unite them
// before any probe-side scan uses one, so every rank's filter is the whole build side's.
//
//   1. sizes: MPI_Allreduce sums the build rows and the distinct keys (exact: the shares hold
//      disjoint keys); past the filter's max_keys every rank disables it, nothing more is sent;
//      else MPI_Allgather gives every rank the size of every rank's part;
//   2. MPI_Allgatherv of the parts (RuntimeFilter::EncodeBuild: the key hashes, the exact set
//      while it is one, min and max per key column), which each rank merges in rank order;
//   3. every rank then chooses the same kind (exact set, bloom, range) from the same union in
//      RuntimeFilter::Finish: identical filters, so rank 0 prunes the fact's files as every
//      rank would.

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
  std::shared_ptr<MpiQueryShare> share_;
  std::atomic<uint64_t> merges_{0}, past_limit_{0}, bytes_sent_{0}, bytes_received_{0}, nanos_{0};
};

}  // namespace shears

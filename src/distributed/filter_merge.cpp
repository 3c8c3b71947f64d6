#include "distributed/filter_merge.h"

#include <fmt/format.h>

#include <climits>

#include "common/clock.h"
#include "common/error.h"

namespace shears {

std::string MpiFilterMerge::Merge(RuntimeFilter& filter, const RuntimeFilterLimits& limits,
                                  uint64_t& build_rows, uint64_t& distinct_keys) {
  const auto started = clock::Now();
  const auto ranks = static_cast<size_t>(share_->size);
  // Totals; a distinct count unknown on some rank (0) stays unknown: Finish counts the hashes,
  // and the build rows bound it.
  uint64_t local[4] = {build_rows, distinct_keys, distinct_keys == 0 ? 1u : 0u,
                       distinct_keys == 0 ? build_rows : distinct_keys};
  uint64_t total[4];
  MPI_Allreduce(local, total, 4, MPI_UINT64_T, MPI_SUM, share_->shuffle);
  build_rows = total[0];
  distinct_keys = total[2] > 0 ? 0 : total[1];
  share_->bytes_sent += sizeof(local);
  bytes_sent_ += sizeof(local);
  if (total[3] > limits.max_keys) {
    // Every rank sees the same totals, so all skip the gather alike.
    past_limit_++;
    nanos_ += clock::NanosSince(started);
    return fmt::format("the build side has up to {} distinct keys across {} ranks, more than {}",
                       total[3], ranks, limits.max_keys);
  }
  // Agree on sizes, then gather every rank's part.
  const std::string mine = filter.EncodeBuild();
  uint64_t size = mine.size();
  std::vector<uint64_t> sizes(ranks);
  MPI_Allgather(&size, 1, MPI_UINT64_T, sizes.data(), 1, MPI_UINT64_T, share_->shuffle);
  std::vector<int> counts(ranks), displs(ranks);
  uint64_t all = 0;
  for (size_t r = 0; r < ranks; r++) {
    if (all + sizes[r] > static_cast<uint64_t>(INT_MAX))
      throw NotSupportedError("a runtime filter of more than 2 GiB cannot be merged across ranks");
    counts[r] = static_cast<int>(sizes[r]);
    displs[r] = static_cast<int>(all);
    all += sizes[r];
  }
  std::string parts(all, '\0');
  MPI_Allgatherv(mine.data(), static_cast<int>(mine.size()), MPI_BYTE, parts.data(), counts.data(),
                 displs.data(), MPI_BYTE, share_->shuffle);
  for (size_t r = 0; r < ranks; r++) {
    if (static_cast<int>(r) == share_->rank) continue;
    filter.MergeEncoded(std::string_view(parts).substr(static_cast<size_t>(displs[r]), sizes[r]));
  }
  // Allgatherv hands this rank's part to every other rank.
  const uint64_t sent = (mine.size() + sizeof(size)) * (ranks - 1);
  share_->bytes_sent += sent;
  bytes_sent_ += sent;
  bytes_received_ += all - mine.size();
  merges_++;
  nanos_ += clock::NanosSince(started);
  return "";
}

std::string MpiFilterMerge::Describe() const {
  std::string what = fmt::format("{} partial filters merged", merges_.load());
  if (past_limit_ > 0) what += fmt::format(", {} past the key limit (not gathered)", past_limit_.load());
  return fmt::format("{} across {} ranks in {:.3f} ms; {} bytes sent, {} received", what,
                     share_->size, nanos_.load() / 1e6, bytes_sent_.load(), bytes_received_.load());
}

}  // namespace shears

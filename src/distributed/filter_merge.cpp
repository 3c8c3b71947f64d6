#include "distributed/filter_merge.h"

#include <fmt/format.h>

#include <climits>

#include "common/clock.h"
#include "common/error.h"
#include "distributed/watchdog.h"

namespace shears {

bool MpiFilterMerge::IntegerSpanFitsBitmap(const RuntimeFilter& filter,
                                           const RuntimeFilterLimits& limits, size_t ranks) {
  const auto& types = filter.key_types();
  const PhysicalType physical = types[0].physical();
  if (types.size() != 1 || (physical != PhysicalType::kInt32 && physical != PhysicalType::kInt64))
    return false;
  // The union's min and max in one MAX all-reduce: of the values as order-preserving unsigned
  // integers, and of the minimum's complement (a rank without keys adds nothing).
  constexpr uint64_t kSign = uint64_t{1} << 63;
  uint64_t local[2] = {0, 0};
  if (filter.min(0) && filter.max(0)) {
    local[0] = static_cast<uint64_t>(filter.max(0)->GetInt64()) ^ kSign;
    local[1] = ~(static_cast<uint64_t>(filter.min(0)->GetInt64()) ^ kSign);
  }
  uint64_t total[2];
  MPI_Allreduce(local, total, 2, MPI_UINT64_T, MPI_MAX, share_->shuffle);
  Count(sizeof(local), sizeof(local) * (ranks - 1));
  const uint64_t span = total[0] - ~total[1] + 1;
  return span != 0 && span <= limits.max_bitmap_bits;
}

std::string MpiFilterMerge::Merge(RuntimeFilter& filter, const RuntimeFilterLimits& limits,
                                  uint64_t& build_rows, uint64_t& distinct_keys) {
  const auto started = clock::Now();
  const auto ranks = static_cast<size_t>(share_->size);
  FaultPoint("filter_merge", share_->rank);
  // 1. Sizes. Each rank's distinct keys: its hash table's count when that counts the filter's
  // keys, else its distinct key hashes. The shares hold disjoint join keys, so the sum is the
  // union's (an upper bound for a filter on part of a multi-column key).
  const uint64_t distinct = distinct_keys > 0 ? distinct_keys : filter.CountDistinctHashes();
  const std::optional<uint64_t> set_keys = filter.exact_set_keys();
  uint64_t local[4] = {build_rows, distinct, set_keys ? 0u : 1u, set_keys.value_or(0)};
  uint64_t total[4];
  MPI_Allreduce(local, total, 4, MPI_UINT64_T, MPI_SUM, share_->shuffle);
  build_rows = total[0];
  distinct_keys = total[1];
  Count(sizeof(local), sizeof(local) * (ranks - 1));
  if (total[1] > limits.max_keys) {
    // Every rank sees the same totals, so all skip the rest alike.
    past_limit_++;
    nanos_ += clock::NanosSince(started);
    return fmt::format("the build side has up to {} distinct keys across {} ranks, more than {}",
                       total[1], ranks, limits.max_keys);
  }
  // 2. Unless the union is surely an exact set (every rank kept one, at most max_exact_keys
  // keys in all), the bloom filter Finish would build for the union's distinct count, built
  // by each rank from its keys at that one size and OR-ed: the union's bits.
  const bool sets = total[2] == 0;
  std::string bits;
  if (!sets || total[3] > limits.max_exact_keys) {
    bits = filter.BloomBits(total[1], limits.bloom_fpp);
    // Whole 32-byte blocks: OR-ed as 64-bit words.
    const uint64_t words = bits.size() / sizeof(uint64_t);
    if (words > static_cast<uint64_t>(INT_MAX))
      throw NotSupportedError("a bloom filter of {} bytes cannot be merged across ranks",
                              bits.size());
    MPI_Allreduce(MPI_IN_PLACE, bits.data(), static_cast<int>(words), MPI_UINT64_T, MPI_BOR,
                  share_->shuffle);
    // A ring all-reduce (bandwidth-optimal) sends and receives 2 (N - 1) / N of it per rank.
    const uint64_t ring = bits.size() * 2 * (ranks - 1) / ranks;
    Count(ring, ring);
    bloom_bytes_ += bits.size();
  }
  // The sets serve an exact set, or past that a bitmap of integer keys (RuntimeFilter::
  // ChooseProbeForm) when their span allows one; else they would be gathered for nothing.
  const bool keep_sets =
      sets && (total[3] <= limits.max_exact_keys || IntegerSpanFitsBitmap(filter, limits, ranks));
  filter.ReplaceHashes(std::move(bits), keep_sets);
  // 3. The sets (while kept) and ranges: sizes, then every rank's part.
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
  // Allgather(v) hands this rank's size and part to every other rank.
  Count((mine.size() + sizeof(size)) * (ranks - 1), all - mine.size() + sizeof(size) * (ranks - 1));
  merges_++;
  nanos_ += clock::NanosSince(started);
  return "";
}

void MpiFilterMerge::Count(uint64_t sent, uint64_t received) {
  share_->bytes_sent += sent;
  bytes_sent_ += sent;
  bytes_received_ += received;
}

std::string MpiFilterMerge::Describe() const {
  std::string what = fmt::format("{} partial filters merged", merges_.load());
  if (bloom_bytes_ > 0)
    what += fmt::format(" ({} bytes of bloom filter OR-ed by MPI_Allreduce)", bloom_bytes_.load());
  if (past_limit_ > 0)
    what += fmt::format(", {} past the key limit (not gathered)", past_limit_.load());
  return fmt::format("{} across {} ranks in {:.3f} ms; {} bytes sent, {} received", what,
                     share_->size, nanos_.load() / 1e6, bytes_sent_.load(), bytes_received_.load());
}

}  // namespace shears

#include "dynfilter/dynamic_filter.h"

#include <fmt/format.h>

namespace shears {

void DynamicFilterRegistry::PublishRuntime(int filter_id, std::shared_ptr<RuntimeFilter> filter) {
  std::lock_guard<std::mutex> lock(mutex_);
  runtime_filters_[filter_id] = std::move(filter);
}

void DynamicFilterRegistry::Forget(int filter_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  runtime_filters_.erase(filter_id);
}

void DynamicFilterRegistry::ContributeToUnion(const RuntimeFilterUnion& target,
                                              const std::vector<LogicalType>& types,
                                              const RuntimeFilter* build, const std::string& reason,
                                              const RuntimeFilterLimits& limits, bool always,
                                              double min_filter_ratio, uint64_t build_rows,
                                              double build_ms) {
  // Encoded outside the lock: a large build's keys take a while to copy.
  const std::string encoded = build ? build->EncodeBuild() : std::string();
  std::unique_ptr<RuntimeFilter> finished;
  std::string disabled;
  uint64_t rows = 0;
  double ms = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    UnionState& state = unions_[target.filter_id];
    if (!state.filter) state.filter = std::make_unique<RuntimeFilter>(types);
    if (build) {
      state.filter->MergeEncoded(encoded);
    } else if (state.disabled.empty()) {
      state.disabled = reason.empty() ? "a reference's join built no keys" : reason;
    }
    state.build_rows += build_rows;
    state.build_ms += build_ms;
    if (++state.received < target.contributors) return;
    finished = std::move(state.filter);
    disabled = std::move(state.disabled);
    rows = state.build_rows;
    ms = state.build_ms;
    unions_.erase(target.filter_id);
  }
  finished->Finish(limits, rows, ms);
  if (disabled.empty() && finished->enabled() && finished->distinct_keys() > limits.max_keys) {
    disabled = fmt::format("the union holds {} distinct keys, more than {}",
                           finished->distinct_keys(), limits.max_keys);
  }
  if (disabled.empty() && finished->enabled() && !always && target.probe_rows > 0) {
    const double ratio = 1 - static_cast<double>(finished->distinct_keys()) / target.probe_rows;
    if (ratio < min_filter_ratio) {
      disabled = fmt::format(
          "estimated filter ratio {:.2f} (1 - {} distinct keys of the union / {:.0f} scan rows) "
          "below runtime_filter.min_filter_ratio {:.2f}",
          ratio, finished->distinct_keys(), target.probe_rows, min_filter_ratio);
    }
  }
  // Published disabled rather than not at all: EXPLAIN ANALYZE then says why.
  if (!disabled.empty()) finished->Disable(std::move(disabled));
  PublishRuntime(target.filter_id, std::move(finished));
}

const RuntimeFilter* DynamicFilterRegistry::FindRuntime(int filter_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = runtime_filters_.find(filter_id);
  return it == runtime_filters_.end() ? nullptr : it->second.get();
}

std::vector<int> DynamicPartitionFilter::ProducerIds() const {
  if (any_of.empty()) return {filter_id};
  std::vector<int> ids;
  for (const auto& alternative : any_of)
    ids.push_back(alternative.filter_id);
  return ids;
}

bool PartitionMayJoin(DynamicFilterMode mode, const Value& value, const RuntimeFilter& filter) {
  const bool is_null = value.is_null();
  if (IsBoundMode(mode)) {
    // NULL compares with nothing; without a non-NULL build value nothing joins.
    const auto& bound = mode == DynamicFilterMode::kAtLeast || mode == DynamicFilterMode::kAbove
                            ? filter.min()
                            : filter.max();
    if (!filter.bounds_only()) return true;  // not a bound producer's filter: cannot tell
    if (is_null || !bound) return false;
    const int c = value.Compare(*bound);
    switch (mode) {
      case DynamicFilterMode::kAtLeast:
        return c >= 0;
      case DynamicFilterMode::kAbove:
        return c > 0;
      case DynamicFilterMode::kAtMost:
        return c <= 0;
      default:
        return c < 0;
    }
  }
  const bool may_match = filter.ValueMayMatch(value);  // NULL never equals a key
  switch (mode) {
    case DynamicFilterMode::kSkip:
      // Only a key known to be built removes the partition: a bloom filter's false positive
      // must not (nor can a disabled filter tell).
      return !(may_match && filter.prunes_partitions() && filter.values_exact());
    case DynamicFilterMode::kKeepOrNull:
      return may_match || is_null;
    default:
      return may_match;
  }
}

}  // namespace shears

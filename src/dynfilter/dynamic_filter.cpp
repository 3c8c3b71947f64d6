#include "dynfilter/dynamic_filter.h"

namespace shears {

void DynamicFilterRegistry::PublishRuntime(int filter_id, std::shared_ptr<RuntimeFilter> filter) {
  std::lock_guard<std::mutex> lock(mutex_);
  runtime_filters_[filter_id] = std::move(filter);
}

void DynamicFilterRegistry::Forget(int filter_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  runtime_filters_.erase(filter_id);
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

#include "dynfilter/dynamic_filter.h"

#include <iterator>

#include "planner/expression.h"

namespace shears {

void DynamicFilterData::InsertAll(std::unordered_set<std::string>& keys) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (keys_.empty()) {
    keys_.swap(keys);
    return;
  }
  keys_.merge(keys);
}

void DynamicFilterData::Widen(const Value& min, const Value& max) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!min_ || min.Compare(*min_) < 0) min_ = min;
  if (!max_ || max.Compare(*max_) > 0) max_ = max;
}

DynamicFilterData& DynamicFilterRegistry::GetOrCreate(int filter_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto& slot = filters_[filter_id];
  if (!slot) slot = std::make_unique<DynamicFilterData>();
  return *slot;
}

DynamicFilterData* DynamicFilterRegistry::Find(int filter_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = filters_.find(filter_id);
  return it == filters_.end() ? nullptr : it->second.get();
}

void DynamicFilterRegistry::PublishRuntime(int filter_id, std::unique_ptr<RuntimeFilter> filter) {
  std::lock_guard<std::mutex> lock(mutex_);
  runtime_filters_[filter_id] = std::move(filter);
}

void DynamicFilterRegistry::Forget(int filter_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  filters_.erase(filter_id);
  runtime_filters_.erase(filter_id);
}

const RuntimeFilter* DynamicFilterRegistry::FindRuntime(int filter_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = runtime_filters_.find(filter_id);
  return it == runtime_filters_.end() ? nullptr : it->second.get();
}

std::string DescribeDynamicPartitionFilter(const DynamicPartitionFilter& filter,
                                           const std::string& column_name) {
  // Indexed by DynamicFilterMode, in its order.
  static constexpr const char* kTests[] = {
      " IN keys ",       " NOT IN keys ",    " IS NULL OR IN keys ", " >= min of keys ",
      " > min of keys ", " <= max of keys ", " < max of keys "};
  static_assert(std::size(kTests) == static_cast<size_t>(DynamicFilterMode::kBelow) + 1);
  const char* test = kTests[static_cast<size_t>(filter.mode)];
  return "dynamic_partition_filter #" + std::to_string(filter.filter_id) + ": " +
         (filter.key_expr ? filter.key_expr->ToString() : column_name) + test + filter.description;
}

}  // namespace shears

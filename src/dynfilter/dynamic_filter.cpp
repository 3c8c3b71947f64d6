#include "dynfilter/dynamic_filter.h"

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
  const char* test = filter.mode == DynamicFilterMode::kSkip         ? " NOT IN keys "
                     : filter.mode == DynamicFilterMode::kKeepOrNull ? " IS NULL OR IN keys "
                                                                     : " IN keys ";
  return "dynamic_partition_filter #" + std::to_string(filter.filter_id) + ": " +
         (filter.key_expr ? filter.key_expr->ToString() : column_name) + test + filter.description;
}

}  // namespace shears

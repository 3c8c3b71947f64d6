#include "dynfilter/dynamic_filter.h"

#include <iterator>

#include "expression/expression.h"

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

namespace {

std::string DescribeTest(const DynamicPartitionFilter& filter, const Dataset& dataset) {
  // Indexed by DynamicFilterMode, in its order.
  static constexpr const char* kTests[] = {
      " IN keys ",       " NOT IN keys ",    " IS NULL OR IN keys ", " >= min of keys ",
      " > min of keys ", " <= max of keys ", " < max of keys "};
  static_assert(std::size(kTests) == static_cast<size_t>(DynamicFilterMode::kBelow) + 1);
  const char* test = kTests[static_cast<size_t>(filter.mode)];
  const std::string key = filter.key_expr
                              ? filter.key_expr->ToString()
                              : dataset.columns()[static_cast<size_t>(filter.column_id)].name;
  return key + test + filter.description;
}

}  // namespace

std::string DescribeDynamicPartitionFilter(const DynamicPartitionFilter& filter,
                                           const Dataset& dataset) {
  std::string out = "dynamic_partition_filter #" + std::to_string(filter.filter_id) + ": ";
  if (filter.any_of.empty()) return out + DescribeTest(filter, dataset);
  out += filter.description + ": ";
  for (size_t i = 0; i < filter.any_of.size(); i++) {
    const auto& alternative = filter.any_of[i];
    out += (i ? " OR #" : "#") + std::to_string(alternative.filter_id) + " " +
           DescribeTest(alternative, dataset);
  }
  return out;
}

}  // namespace shears

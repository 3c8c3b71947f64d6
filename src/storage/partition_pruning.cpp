#include "storage/partition_pruning.h"

#include <algorithm>
#include <iterator>

#include "common/error.h"
#include "expression/expression_executor.h"

namespace shears {

std::vector<uint8_t> PartitionsMayMatch(const std::vector<const BoundExpr*>& partition_filters,
                                        const std::vector<int>& column_ids,
                                        const Dataset& dataset) {
  const size_t partitions = dataset.num_partitions();
  std::vector<uint8_t> keep(partitions, 1);
  if (partition_filters.empty() || partitions == 0) return keep;
  std::vector<LogicalType> types;
  for (int id : column_ids)
    types.push_back(dataset.columns()[static_cast<size_t>(id)].type);
  const size_t file_columns = dataset.num_file_columns();
  SelectionVector sel(kBatchSize);
  for (size_t start = 0; start < partitions; start += kBatchSize) {
    const idx_t count = static_cast<idx_t>(std::min<size_t>(kBatchSize, partitions - start));
    Batch rows(types, kBatchSize);
    for (size_t c = 0; c < column_ids.size(); c++) {
      const size_t id = static_cast<size_t>(column_ids[c]);
      for (idx_t r = 0; r < count; r++) {
        if (id >= file_columns) {
          WriteValue(rows.column(c), r, dataset.partition_values(start + r)[id - file_columns]);
        } else {
          rows.column(c).validity().SetNull(r);
        }
      }
    }
    rows.SetSize(count);
    std::vector<uint32_t> alive(count);
    for (idx_t r = 0; r < count; r++)
      alive[r] = static_cast<uint32_t>(r);
    for (const BoundExpr* filter : partition_filters) {
      const idx_t kept = ExpressionExecutor::Select(*filter, rows, sel);
      if (kept < rows.size()) {
        for (idx_t k = 0; k < kept; k++)
          alive[k] = alive[sel[k]];
        alive.resize(kept);
        rows.Select(sel.data(), kept);
      }
      if (kept == 0) break;
    }
    for (idx_t r = 0; r < count; r++)
      keep[start + r] = 0;
    for (uint32_t r : alive)
      keep[start + r] = 1;
  }
  return keep;
}

std::optional<Value> MapPartitionValue(const BoundExpr& key_expr, const Value& value) {
  Batch row({value.type()}, 1);
  WriteValue(row.column(0), 0, value);
  row.SetSize(1);
  Vector out(key_expr.type, 1);
  try {
    ExpressionExecutor::Execute(key_expr, row, out);
  } catch (const Error&) {
    return std::nullopt;
  }
  return ReadValue(out, 0);
}

std::vector<const RuntimeFilter*> PublishedFilters(const DynamicPartitionFilter& filter,
                                                   DynamicFilterRegistry& registry) {
  std::vector<const RuntimeFilter*> out;
  for (int id : filter.ProducerIds()) {
    const RuntimeFilter* published = registry.FindRuntime(id);
    if (!published) return {};
    out.push_back(published);
  }
  return out;
}

namespace {

bool AlternativeMayMatch(const DynamicPartitionFilter& filter, const RuntimeFilter& data,
                         const std::vector<Value>& partition_values, size_t file_columns) {
  Value value = partition_values[static_cast<size_t>(filter.column_id) - file_columns];
  if (filter.key_expr) {
    auto mapped = MapPartitionValue(*filter.key_expr, value);
    if (!mapped) return true;  // cannot tell (the expression failed): keep
    value = std::move(*mapped);
  }
  return PartitionMayJoin(filter.mode, value, data);
}

}  // namespace

bool PartitionMayMatchFilter(const DynamicPartitionFilter& filter,
                             const std::vector<const RuntimeFilter*>& data,
                             const std::vector<Value>& partition_values, size_t file_columns) {
  if (filter.any_of.empty())
    return AlternativeMayMatch(filter, *data[0], partition_values, file_columns);
  for (size_t i = 0; i < filter.any_of.size(); i++) {
    if (AlternativeMayMatch(filter.any_of[i], *data[i], partition_values, file_columns))
      return true;
  }
  return false;
}

DynamicPartitionPruner::DynamicPartitionPruner(
    const Dataset& dataset, const std::vector<DynamicPartitionFilter>& filters,
    const std::vector<RuntimeFilterTarget>& runtime_filters, DynamicFilterRegistry& registry,
    ScanMetrics& metrics)
    : dataset_(dataset), registry_(registry), metrics_(metrics) {
  for (size_t i = 0; i < filters.size(); i++)
    sources_.push_back({&filters[i], {}, &metrics.dynamic_filters[i]});
  for (const auto& f : runtime_filters)
    runtime_ids_.push_back(f.filter_id);
  CountFiles(dataset);
}

void DynamicPartitionPruner::CountFiles(const Dataset& listed) {
  files_in_.assign(listed.num_partitions(), 0);
  for (size_t f = 0; f < listed.files().size(); f++)
    files_in_[listed.partition_of(f)]++;
}

size_t DynamicPartitionPruner::FiltersAvailable() {
  for (auto& source : sources_) {
    if (!source.data.empty()) continue;
    source.data = PublishedFilters(*source.filter, registry_);
    if (!source.data.empty()) {
      available_++;
      (started_ ? metrics_.dynamic_filters_ready_late : metrics_.dynamic_filters_ready)++;
      uint64_t keys = 0;
      for (const RuntimeFilter* data : source.data)
        keys += data->distinct_keys();
      metrics_.dynamic_filter_keys += keys;
      source.counters->state = started_ ? DynamicFilterScanCounters::kReadyLate
                                        : DynamicFilterScanCounters::kReadyAtStart;
      source.counters->keys = keys;
    } else if (!started_) {
      metrics_.dynamic_filters_not_ready++;
    }
  }
  if (!runtime_empty_) {
    for (int id : runtime_ids_) {
      const RuntimeFilter* filter = registry_.FindRuntime(id);
      if (filter && filter->enabled() && filter->empty()) {
        runtime_empty_ = true;
        available_++;
        break;
      }
    }
  }
  started_ = true;
  return available_;
}

bool DynamicPartitionPruner::PartitionMayMatch(size_t partition) {
  if (runtime_empty_) return false;
  const std::vector<Value>& values = dataset_.partition_values(partition);
  const size_t file_columns = dataset_.num_file_columns();
  for (const auto& source : sources_) {
    if (source.data.empty()) continue;
    if (!PartitionMayMatchFilter(*source.filter, source.data, values, file_columns)) {
      source.counters->partitions_pruned++;
      source.counters->files_pruned += files_in_[partition];
      return false;
    }
  }
  return true;
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

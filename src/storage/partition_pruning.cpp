#include "storage/partition_pruning.h"

#include <algorithm>
#include <iterator>

#include "common/error.h"
#include "expression/expression_executor.h"

namespace shears {

std::vector<uint8_t> PartitionsMayMatch(const std::vector<const BoundExpr*>& conjuncts,
                                        const std::vector<int>& column_ids,
                                        const Dataset& dataset) {
  const size_t partitions = dataset.num_partitions();
  std::vector<uint8_t> keep(partitions, 1);
  const size_t file_columns = dataset.num_file_columns();
  // The literal conjuncts that read partition columns only.
  std::vector<const BoundExpr*> partition_filters;
  for (const BoundExpr* conjunct : conjuncts) {
    if (conjunct->kind == BoundExprKind::kRuntimeFilter) continue;
    bool partition_only = true;
    VisitExpression(const_cast<BoundExpr&>(*conjunct), [&](BoundExpr& e) {
      if (e.kind == BoundExprKind::kReference &&
          static_cast<size_t>(column_ids[static_cast<BoundReference&>(e).index]) < file_columns) {
        partition_only = false;
      }
    });
    if (partition_only) partition_filters.push_back(conjunct);
  }
  if (partition_filters.empty() || partitions == 0) return keep;
  std::vector<LogicalType> types;
  for (int id : column_ids)
    types.push_back(dataset.columns()[static_cast<size_t>(id)].type);
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

std::string BoundPartitionFilter::ToString() const {
  if (any_of.empty()) {
    const std::string key =
        key_expr ? key_expr->ToString() : "partition column #" + std::to_string(partition_column);
    return key + " IN runtime_filter #" + std::to_string(filter_id);
  }
  std::string out;
  for (size_t i = 0; i < any_of.size(); i++)
    out += (i ? " OR " : "") + any_of[i]->ToString();
  return "(" + out + ")";
}

BoundExprPtr BoundPartitionFilter::Copy() const {
  auto copy =
      std::make_unique<BoundPartitionFilter>(filter_id, partition_column, mode, key_expr, slot);
  for (const auto& alternative : any_of)
    copy->any_of.emplace_back(static_cast<BoundPartitionFilter*>(alternative->Copy().release()));
  copy->alias = alias;
  return copy;
}

std::unique_ptr<BoundPartitionFilter> PartitionConjunct(const DynamicPartitionFilter& filter,
                                                        size_t slot) {
  auto conjunct = std::make_unique<BoundPartitionFilter>(filter.filter_id, filter.column_id,
                                                         filter.mode, filter.key_expr, slot);
  for (const auto& alternative : filter.any_of)
    conjunct->any_of.push_back(PartitionConjunct(alternative, slot));
  return conjunct;
}

std::vector<const RuntimeFilter*> PublishedFilters(const BoundPartitionFilter& conjunct,
                                                   DynamicFilterRegistry& registry) {
  std::vector<const RuntimeFilter*> out;
  auto find = [&](int id) {
    const RuntimeFilter* published = registry.FindRuntime(id);
    if (published) out.push_back(published);
    return published != nullptr;
  };
  if (conjunct.any_of.empty()) {
    if (!find(conjunct.filter_id)) return {};
    return out;
  }
  for (const auto& alternative : conjunct.any_of) {
    if (!find(alternative->filter_id)) return {};
  }
  return out;
}

namespace {

bool AlternativeMayMatch(const BoundPartitionFilter& conjunct, const RuntimeFilter& data,
                         const std::vector<Value>& partition_values, size_t file_columns) {
  Value value = partition_values[static_cast<size_t>(conjunct.partition_column) - file_columns];
  if (conjunct.key_expr) {
    auto mapped = MapPartitionValue(*conjunct.key_expr, value);
    if (!mapped) return true;  // cannot tell (the expression failed): keep
    value = std::move(*mapped);
  }
  return PartitionMayJoin(conjunct.mode, value, data);
}

}  // namespace

bool PartitionConjunctMayMatch(const BoundPartitionFilter& conjunct,
                               const std::vector<const RuntimeFilter*>& data,
                               const std::vector<Value>& partition_values, size_t file_columns) {
  if (conjunct.any_of.empty())
    return AlternativeMayMatch(conjunct, *data[0], partition_values, file_columns);
  for (size_t i = 0; i < conjunct.any_of.size(); i++) {
    if (AlternativeMayMatch(*conjunct.any_of[i], *data[i], partition_values, file_columns))
      return true;
  }
  return false;
}

RuntimePartitionPruner::RuntimePartitionPruner(const Dataset& dataset,
                                               const std::vector<const BoundExpr*>& conjuncts,
                                               DynamicFilterRegistry& registry,
                                               ScanMetrics& metrics)
    : dataset_(dataset), registry_(registry), metrics_(metrics) {
  for (const BoundExpr* conjunct : conjuncts) {
    if (conjunct->kind != BoundExprKind::kRuntimeFilter) continue;
    const auto& runtime = static_cast<const BoundRuntimeFilter&>(*conjunct);
    const auto* partition = dynamic_cast<const BoundPartitionFilter*>(&runtime);
    conjuncts_.push_back(
        {&runtime, partition, {}, partition ? &metrics.dynamic_filters[runtime.slot] : nullptr});
  }
  CountFiles(dataset);
}

void RuntimePartitionPruner::CountFiles(const Dataset& listed) {
  files_in_.assign(listed.num_partitions(), 0);
  for (size_t f = 0; f < listed.files().size(); f++)
    files_in_[listed.partition_of(f)]++;
}

size_t RuntimePartitionPruner::FiltersAvailable() {
  for (auto& c : conjuncts_) {
    if (!c.partition) {
      // A runtime filter on file columns: at this level, only its build side producing no key
      // tells (nothing joins), once for the scan.
      if (runtime_empty_) continue;
      const RuntimeFilter* filter = registry_.FindRuntime(c.conjunct->filter_id);
      if (filter && filter->enabled() && filter->empty()) {
        runtime_empty_ = true;
        available_++;
      }
      continue;
    }
    if (!c.data.empty()) continue;
    c.data = PublishedFilters(*c.partition, registry_);
    if (!c.data.empty()) {
      available_++;
      (started_ ? metrics_.dynamic_filters_ready_late : metrics_.dynamic_filters_ready)++;
      uint64_t keys = 0;
      for (const RuntimeFilter* data : c.data)
        keys += data->distinct_keys();
      metrics_.dynamic_filter_keys += keys;
      c.counters->state = started_ ? DynamicFilterScanCounters::kReadyLate
                                   : DynamicFilterScanCounters::kReadyAtStart;
      c.counters->keys = keys;
    } else if (!started_) {
      metrics_.dynamic_filters_not_ready++;
    }
  }
  started_ = true;
  return available_;
}

bool RuntimePartitionPruner::PartitionMayMatch(size_t partition) {
  if (runtime_empty_) return false;
  const std::vector<Value>& values = dataset_.partition_values(partition);
  const size_t file_columns = dataset_.num_file_columns();
  for (const auto& c : conjuncts_) {
    if (c.data.empty()) continue;  // not a partition filter, or not published yet
    if (!PartitionConjunctMayMatch(*c.partition, c.data, values, file_columns)) {
      c.counters->partitions_pruned++;
      c.counters->files_pruned += files_in_[partition];
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

#include "execution/operator/physical_dynamic_filter_collector.h"

#include <optional>
#include <unordered_set>

#include "execution/expression_executor.h"
#include "execution/pipeline.h"

namespace shears {

PhysicalDynamicFilterCollector::PhysicalDynamicFilterCollector(std::vector<LogicalType> types,
                                                               std::vector<Key> keys)
    : PhysicalOperator("DYNAMIC_FILTER_COLLECTOR", std::move(types)), keys_(std::move(keys)) {}

OperatorResult PhysicalDynamicFilterCollector::Execute(ExecutionContext& context, Batch& input,
                                                       Batch& output, OperatorState&) const {
  for (const auto& key : keys_) {
    DynamicFilterData& data = context.dynamic_filters().GetOrCreate(key.filter_id);
    Vector values(key.expr->type, std::max<idx_t>(input.size(), 1));
    ExpressionExecutor::Execute(*key.expr, input, values);
    data.AddRows(input.size());
    if (key.bounds) {
      std::optional<Value> min, max;
      for (idx_t row = 0; row < input.size(); row++) {
        if (values.IsNull(row)) continue;
        Value value = ReadValue(values, row);
        if (!min || value.Compare(*min) < 0) min = value;
        if (!max || value.Compare(*max) > 0) max = std::move(value);
      }
      if (min) data.Widen(*min, *max);
      continue;
    }
    // Dedupe locally first: the shared set takes its lock once per batch.
    std::unordered_set<std::string> local;
    for (idx_t row = 0; row < input.size(); row++) {
      if (values.IsNull(row)) {
        data.NoteNull();
        continue;
      }
      local.insert(values.ValueToString(row));
    }
    data.InsertAll(local);
  }
  for (idx_t c = 0; c < input.column_count(); c++)
    output.column(c).Reference(input.column(c));
  output.SetSize(input.size());
  return OperatorResult::kNeedMoreInput;
}

std::string PhysicalDynamicFilterCollector::Describe() const {
  std::string out = "DYNAMIC_FILTER_COLLECTOR";
  for (size_t i = 0; i < keys_.size(); i++) {
    out += (i ? ", " : " ") + std::string("#") + std::to_string(keys_[i].filter_id) + " = " +
           keys_[i].expr->ToString();
  }
  return out;
}

std::vector<int> PhysicalDynamicFilterCollector::ProducedDynamicFilters() const {
  std::vector<int> ids;
  for (const auto& key : keys_)
    ids.push_back(key.filter_id);
  return ids;
}

std::vector<std::pair<std::string, std::string>> PhysicalDynamicFilterCollector::AnalyzeDetails(
    ExecutionContext& context) const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& key : keys_) {
    DynamicFilterData* data = context.dynamic_filters().Find(key.filter_id);
    if (!data) continue;
    const std::string rows = " from " + std::to_string(data->rows_seen()) + " rows";
    if (key.bounds) {
      out.emplace_back("filter #" + std::to_string(key.filter_id),
                       data->min() ? "range [" + data->min()->ToString() + ", " +
                                         data->max()->ToString() + "]" + rows
                                   : "no value" + rows);
      continue;
    }
    out.emplace_back("filter #" + std::to_string(key.filter_id),
                     std::to_string(data->size()) + " distinct keys" + rows);
  }
  return out;
}

}  // namespace shears

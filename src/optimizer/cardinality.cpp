// cardinality_estimation: rows per operator, bottom-up, from what file metadata says (row
// counts in footers) and fixed selectivities where nothing better is known yet. For catalog
// tables analyzed with ANALYZE, `column = constant` on a scan selects 1/NDV of the rows.

#include <algorithm>
#include <set>
#include <string>

#include "optimizer/optimizer.h"

namespace shears {

namespace {

constexpr double kFilterSelectivity = 0.2;

// Rows of the scans below `op` before any filter (the largest one's), or -1.
double BaseRows(const LogicalOperator& op) {
  if (op.type == LogicalOperatorType::kGet)
    return static_cast<double>(static_cast<const LogicalGet&>(op).dataset->total_rows());
  double rows = -1;
  for (const auto& child : op.children)
    rows = std::max(rows, BaseRows(*child));
  return rows;
}

// The fraction of its base rows `op` is estimated to keep (1 when unknown).
double KeptFraction(const LogicalOperator& op) {
  const double base = BaseRows(op);
  if (base <= 0 || op.estimated_rows < 0) return 1;
  return std::clamp(op.estimated_rows / base, 0.0, 1.0);
}

// The number of distinct partition-value combinations when every group of `agg` traces to a
// partition column of one scan, else -1.
double PartitionGroups(LogicalAggregate& agg) {
  if (agg.groups.empty()) return -1;
  const LogicalGet* get = nullptr;
  std::vector<size_t> columns;
  for (const auto& group : agg.groups) {
    if (group->kind != BoundExprKind::kColumnRef) return -1;
    const auto traced =
        TraceToScans(*agg.children[0], static_cast<BoundColumnRef&>(*group).binding);
    if (traced.empty()) return -1;
    const auto& dataset = *traced[0].get->dataset;
    if (static_cast<size_t>(traced[0].column_id) < dataset.num_file_columns()) return -1;
    if (get && get != traced[0].get) return -1;
    get = traced[0].get;
    columns.push_back(static_cast<size_t>(traced[0].column_id) - dataset.num_file_columns());
  }
  std::set<std::vector<std::string>> distinct;
  for (const auto& file : get->dataset->files()) {
    std::vector<std::string> key;
    for (size_t c : columns)
      key.push_back(file.partition_values[c].ToString());
    distinct.insert(std::move(key));
  }
  return static_cast<double>(distinct.size());
}

/// 1/NDV for `column = constant` when ANALYZE counted the column's distinct values, else the
/// fixed selectivity.
double ScanFilterSelectivity(const LogicalGet& get, const BoundExpr& filter) {
  if (filter.kind != BoundExprKind::kFunction) return kFilterSelectivity;
  const auto& function = static_cast<const BoundFunction&>(filter);
  if (function.function.name != "=" || function.args.size() != 2) return kFilterSelectivity;
  for (size_t side = 0; side < 2; side++) {
    const BoundExpr& column = *function.args[side];
    if (column.kind != BoundExprKind::kColumnRef ||
        function.args[1 - side]->kind != BoundExprKind::kConstant) {
      continue;
    }
    const auto& binding = static_cast<const BoundColumnRef&>(column).binding;
    // Scan bindings name dataset columns.
    if (binding.table_index != get.table_index ||
        binding.column_index >= get.dataset->columns().size()) {
      continue;
    }
    const int64_t distinct = get.dataset->distinct_count(binding.column_index);
    if (distinct > 0) return 1.0 / static_cast<double>(distinct);
  }
  return kFilterSelectivity;
}

double Estimate(LogicalOperator& op) {
  std::vector<double> child_rows;
  for (auto& child : op.children)
    child_rows.push_back(Estimate(*child));
  double rows = 1;
  switch (op.type) {
    case LogicalOperatorType::kGet: {
      auto& get = static_cast<LogicalGet&>(op);
      rows = static_cast<double>(get.dataset->total_rows());
      for (const auto& filter : get.filters)
        rows *= ScanFilterSelectivity(get, *filter);
      break;
    }
    case LogicalOperatorType::kDummyScan:
      rows = 1;
      break;
    case LogicalOperatorType::kValues:
      rows = static_cast<double>(static_cast<LogicalValues&>(op).rows.size());
      break;
    case LogicalOperatorType::kRange:
      rows = static_cast<double>(static_cast<LogicalRange&>(op).count);
      break;
    case LogicalOperatorType::kFilter:
      rows = child_rows[0] * kFilterSelectivity;
      break;
    case LogicalOperatorType::kAggregate: {
      auto& agg = static_cast<LogicalAggregate&>(op);
      rows = agg.groups.empty() ? 1 : std::max(1.0, child_rows[0] / 10);
      // Grouping on partition columns: at most as many groups as their distinct values.
      const double groups = PartitionGroups(agg);
      if (groups > 0) rows = std::min(rows, groups);
      break;
    }
    case LogicalOperatorType::kJoin: {
      auto& join = static_cast<LogicalJoin&>(op);
      switch (join.join_kind) {
        case JoinKind::kSemi:
        case JoinKind::kAnti:
        case JoinKind::kMark:
          rows = child_rows[0];
          break;
        case JoinKind::kCross:
          rows = child_rows[0] * child_rows[1];
          break;
        default: {
          // A foreign-key join keeps about the larger side's rows, times the fraction of the
          // smaller (dimension) side its filters kept.
          const bool left_larger = child_rows[0] >= child_rows[1];
          const LogicalOperator& smaller = *op.children[left_larger ? 1 : 0];
          rows = std::max(child_rows[0], child_rows[1]);
          if (join.join_kind == JoinKind::kInner) rows *= KeptFraction(smaller);
        }
      }
      if (join.join_kind == JoinKind::kSemi) rows = child_rows[0] * KeptFraction(*op.children[1]);
      rows = std::max(rows, 1.0);
      break;
    }
    case LogicalOperatorType::kLimit: {
      auto& limit = static_cast<LogicalLimit&>(op);
      rows = limit.limit < 0 ? child_rows[0]
                             : std::min<double>(child_rows[0], static_cast<double>(limit.limit));
      break;
    }
    case LogicalOperatorType::kSetOperation:
      rows = child_rows[0] + child_rows[1];
      break;
    default:
      rows = child_rows.empty() ? 1 : child_rows[0];
  }
  op.estimated_rows = rows;
  return rows;
}

}  // namespace

void EstimateCardinalities(LogicalOperatorPtr& plan, const Settings&) {
  Estimate(*plan);
}

}  // namespace shears

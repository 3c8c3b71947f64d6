// cardinality_estimation: rows per operator, bottom-up, from what file metadata says (row
// counts in footers) and fixed selectivities where nothing better is known yet. For catalog
// tables analyzed with ANALYZE, `column = constant` on a scan selects 1/NDV of the rows.

#include <algorithm>

#include "optimizer/optimizer.h"

namespace shears {

namespace {

constexpr double kFilterSelectivity = 0.2;

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
    if (binding.table_index != get.table_index || binding.column_index >= get.column_ids.size()) {
      continue;
    }
    const int64_t distinct =
        get.dataset->distinct_count(static_cast<size_t>(get.column_ids[binding.column_index]));
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
    case LogicalOperatorType::kFilter:
      rows = child_rows[0] * kFilterSelectivity;
      break;
    case LogicalOperatorType::kAggregate: {
      auto& agg = static_cast<LogicalAggregate&>(op);
      rows = agg.groups.empty() ? 1 : std::max(1.0, child_rows[0] / 10);
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
        default:
          // A foreign-key join keeps about the larger side's rows.
          rows = std::max(child_rows[0], child_rows[1]);
      }
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

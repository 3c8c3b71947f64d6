// cardinality_estimation: rows per operator, bottom-up, from what file metadata says (row
// counts in footers) and fixed selectivities where nothing better is known yet. The ANALYZE
// statistics of the catalog will refine this.

#include <algorithm>

#include "optimizer/optimizer.h"

namespace shears {

namespace {

constexpr double kFilterSelectivity = 0.2;

double Estimate(LogicalOperator& op) {
  std::vector<double> child_rows;
  for (auto& child : op.children)
    child_rows.push_back(Estimate(*child));
  double rows = 1;
  switch (op.type) {
    case LogicalOperatorType::kGet: {
      auto& get = static_cast<LogicalGet&>(op);
      rows = static_cast<double>(get.dataset->total_rows());
      for (size_t i = 0; i < get.filters.size(); i++)
        rows *= kFilterSelectivity;
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

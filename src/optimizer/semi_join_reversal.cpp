// semi_join_reversal: a semi join (`IN (SELECT ...)`, `EXISTS`) builds its hash table on the
// subquery side, which therefore runs first and whole. When that side is the big one (a fact
// below a filtered dimension), the dimension's keys could prune it, but only if the dimension
// ran first. So the semi join becomes an inner join with the subquery's distinct keys:
//
//   JOIN SEMI ON d_date_sk = ss_sold_date_sk       JOIN INNER ON d_date_sk = #k
//     FILTER d_year = 2000                   =>      FILTER d_year = 2000
//       GET date_dim                                   GET date_dim
//     GET store_sales                                AGGREGATE groups: #k = ss_sold_date_sk
//                                                      GET store_sales
//
// Equal answers: each outer row meets each distinct key tuple at most once, so it comes out
// once when some subquery row matches and not at all otherwise, as from the semi join; NULL
// keys match nothing either way. Only the outer side's columns are used above (a semi join
// outputs nothing else), so the extra key columns change no reference. build_side then builds
// on the smaller side (the dimension) and dynamic_partition_pruning / runtime_filter trace the
// probe key through the aggregate, which groups on it, down to the fact's scan.
//
// Planned only when it can pay off: dynamic filtering on, `=` keys without a residual, the
// subquery side estimated larger than the outer side and one of its keys reaching a scan. Not
// below a set operation (its inputs are matched by position, and the join now has more
// columns).

#include <algorithm>

#include "optimizer/cardinality.h"
#include "optimizer/optimizer.h"

namespace shears {

namespace {

uint32_t MaxTableIndex(LogicalOperator& op) {
  uint32_t max_index = 0;
  switch (op.type) {
    case LogicalOperatorType::kGet:
      max_index = static_cast<LogicalGet&>(op).table_index;
      break;
    case LogicalOperatorType::kValues:
      max_index = static_cast<LogicalValues&>(op).table_index;
      break;
    case LogicalOperatorType::kRange:
      max_index = static_cast<LogicalRange&>(op).table_index;
      break;
    case LogicalOperatorType::kProjection:
      max_index = static_cast<LogicalProjection&>(op).table_index;
      break;
    case LogicalOperatorType::kAggregate: {
      auto& agg = static_cast<LogicalAggregate&>(op);
      max_index = std::max(agg.group_index, agg.aggregate_index);
      break;
    }
    case LogicalOperatorType::kJoin:
      max_index = static_cast<LogicalJoin&>(op).mark_index;
      break;
    case LogicalOperatorType::kSetOperation:
      max_index = static_cast<LogicalSetOperation&>(op).table_index;
      break;
    case LogicalOperatorType::kWorkingTable:
      max_index = static_cast<LogicalWorkingTable&>(op).table_index;
      break;
    default:
      break;
  }
  for (BoundExprPtr* expr : op.Expressions()) {
    for (const auto& b : ReferencedBindings(**expr))
      max_index = std::max(max_index, b.table_index);
  }
  for (auto& child : op.children)
    max_index = std::max(max_index, MaxTableIndex(*child));
  return max_index;
}

bool Reversible(LogicalJoin& join) {
  if (join.join_kind != JoinKind::kSemi || join.residual || join.conditions.empty()) return false;
  const double outer_rows = join.children[0]->estimated_rows;
  const double subquery_rows = join.children[1]->estimated_rows;
  if (outer_rows < 0 || subquery_rows < 0 || !(outer_rows < subquery_rows)) return false;
  bool reaches_scan = false;
  for (const auto& condition : join.conditions) {
    if (condition.null_equal) return false;
    const auto referenced = ReferencedBindings(*condition.right);
    if (referenced.size() == 1 && !TraceToScans(*join.children[1], referenced[0]).empty())
      reaches_scan = true;
  }
  return reaches_scan;
}

void Reverse(LogicalJoin& join, uint32_t& next_index) {
  auto agg = std::make_unique<LogicalAggregate>();
  agg->group_index = next_index++;
  agg->aggregate_index = next_index++;
  for (size_t i = 0; i < join.conditions.size(); i++) {
    auto& condition = join.conditions[i];
    const LogicalType type = condition.right->type;
    const std::string name = condition.right->ToString();
    agg->groups.push_back(std::move(condition.right));
    condition.right = std::make_unique<BoundColumnRef>(
        type, ColumnBinding{agg->group_index, static_cast<uint32_t>(i)}, name);
  }
  agg->children.push_back(std::move(join.children[1]));
  join.children[1] = std::move(agg);
  join.join_kind = JoinKind::kInner;
  EstimateSubtree(join);
}

bool Visit(LogicalOperator& op, bool positional, uint32_t& next_index) {
  bool changed = false;
  for (auto& child : op.children)
    changed = Visit(*child, op.type == LogicalOperatorType::kSetOperation, next_index) || changed;
  if (positional || op.type != LogicalOperatorType::kJoin) return changed;
  auto& join = static_cast<LogicalJoin&>(op);
  if (!Reversible(join)) return changed;
  Reverse(join, next_index);
  return true;
}

}  // namespace

void ReverseSemiJoins(LogicalOperatorPtr& plan, const Settings& settings) {
  if (!settings.GetBool("dynamic_filtering")) return;
  uint32_t next_index = MaxTableIndex(*plan) + 1;
  // The plan's own output is matched by position too.
  if (Visit(*plan, true, next_index)) EstimateSubtree(*plan);  // above the rewritten joins
}

}  // namespace shears

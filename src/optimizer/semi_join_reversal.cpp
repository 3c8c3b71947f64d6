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
// An anti join (`NOT EXISTS`, correlated on `=` keys) over a larger subquery side becomes a
// right anti join made of a LEFT join and a filter keeping the outer rows without a match:
//
//   JOIN ANTI ON d_date_sk = ss_sold_date_sk       FILTER (ss_sold_date_sk IS NULL)
//     FILTER d_year = 2000                   =>      JOIN LEFT ON d_date_sk = ss_sold_date_sk
//       GET date_dim                                   FILTER d_year = 2000 ...
//     GET store_sales                                  GET store_sales
//
// Equal answers: a matched outer row comes out with a non-NULL subquery key (equality never
// holds for NULL) and is dropped, each outer row without a match (NULL keys included: they
// match nothing, as NOT EXISTS wants) comes out once with NULLs; a residual stays the join's,
// deciding what a match is in both. build_side swaps the LEFT join into a RIGHT join building
// on the outer side, whose keys then prune the fact on the probe side (join_legality.h: a
// RIGHT join drops probe rows without a match). `x NOT IN (SELECT ...)` stays a mark join:
// its NULL answers depend on the whole subquery (is it empty, does it hold a NULL), which
// pruning it would change.
//
// Planned only when it can pay off: dynamic filtering on, `=` keys (semi joins: without a
// residual), the subquery side estimated larger than the outer side and one of its keys
// reaching a scan. Not below a set operation (its inputs are matched by position, and the
// join now has more columns).

#include <algorithm>

#include "dynfilter/join_legality.h"
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
    case LogicalOperatorType::kCteScan:
      for (const auto& b : static_cast<LogicalCteScan&>(op).bindings)
        max_index = std::max(max_index, b.table_index);
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

// Whether the subquery side is the larger and one of its keys reaches a scan there.
bool SubqueryPrunable(LogicalJoin& join) {
  if (join.conditions.empty()) return false;
  const double outer_rows = join.children[0]->estimated_rows;
  const double subquery_rows = join.children[1]->estimated_rows;
  if (outer_rows < 0 || subquery_rows < 0 || !(outer_rows < subquery_rows)) return false;
  bool reaches_scan = false;
  for (const auto& condition : join.conditions) {
    if (!ConditionFiltersKeys(condition)) return false;
    const auto referenced = ReferencedBindings(*condition.right);
    if (referenced.size() == 1 && !TraceToScans(*join.children[1], referenced[0]).empty())
      reaches_scan = true;
  }
  return reaches_scan;
}

bool Reversible(LogicalJoin& join) {
  return join.join_kind == JoinKind::kSemi && !join.residual && SubqueryPrunable(join);
}

// The subquery side's key column of a condition: NULL on the rows a LEFT join adds for outer
// rows without a match, never NULL on a match.
const BoundExpr* AntiMarker(LogicalJoin& join) {
  if (join.join_kind != JoinKind::kAnti || !SubqueryPrunable(join)) return nullptr;
  for (const auto& condition : join.conditions) {
    if (condition.right->kind == BoundExprKind::kColumnRef) return condition.right.get();
  }
  return nullptr;
}

// `slot` (an anti join) becomes FILTER (marker IS NULL) over it as a LEFT join.
void ReverseAnti(LogicalOperatorPtr& slot, const BoundExpr& marker) {
  auto filter = std::make_unique<LogicalFilter>();
  filter->conditions.push_back(std::make_unique<BoundIsNull>(marker.Copy(), false));
  static_cast<LogicalJoin&>(*slot).join_kind = JoinKind::kLeft;
  EstimateSubtree(*slot);
  filter->children.push_back(std::move(slot));
  slot = std::move(filter);
  EstimateSubtree(*slot);
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

bool Visit(LogicalOperatorPtr& slot, bool positional, uint32_t& next_index) {
  LogicalOperator& op = *slot;
  bool changed = false;
  for (auto& child : op.children)
    changed = Visit(child, op.type == LogicalOperatorType::kSetOperation, next_index) || changed;
  if (positional || op.type != LogicalOperatorType::kJoin) return changed;
  auto& join = static_cast<LogicalJoin&>(op);
  if (Reversible(join)) {
    Reverse(join, next_index);
    return true;
  }
  if (const BoundExpr* marker = AntiMarker(join)) {
    ReverseAnti(slot, *marker);
    return true;
  }
  return changed;
}

}  // namespace

void ReverseSemiJoins(LogicalOperatorPtr& plan, const Settings& settings) {
  if (!settings.GetBool("dynamic_filtering")) return;
  uint32_t next_index = MaxTableIndex(*plan) + 1;
  // The plan's own output is matched by position too.
  if (Visit(plan, true, next_index)) EstimateSubtree(*plan);  // above the rewritten joins
}

}  // namespace shears

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
// RIGHT join drops probe rows without a match).
//
// `x NOT IN (S)` kept by a WHERE (a filter `NOT mark` over a mark join on x = s) keeps an outer
// row when S is empty, or when x is not NULL, no s equals x and S holds no NULL: its NULL
// answers depend on the whole subquery, so only the match itself may be pruned. It becomes the
// right anti join above for the match, and two one-row checks over copies of S, each reading
// until its first row (a LIMIT 1), that are never pruned by the outer keys:
//
//   FILTER NOT mark                FILTER s IS NULL AND #nulls = 0 AND
//     JOIN MARK ON x = s    =>            (x IS NOT NULL OR #rows = 0)
//       outer                        JOIN CROSS
//       S                              JOIN CROSS
//                                        JOIN LEFT ON x = s (outer, S)
//                                        AGGREGATE #nulls = count(*) (LIMIT 1 (S' WHERE s IS NULL))
//                                      AGGREGATE #rows = count(*) (LIMIT 1 (S''))
//
// Equal answers: a row the LEFT join matched has s = x, not NULL, and is dropped (NOT IN is
// FALSE); an unmatched row comes out once and is kept exactly when the mark join's mark would
// be FALSE (no NULL in S, and x not NULL unless S is empty); when S is empty nothing matches
// and both counts are 0.
//
// With the outer side the larger (the fact outside: `ss_sold_date_sk NOT IN (SELECT d_date_sk
// FROM date_dim WHERE d_year < 2002)`) the same checks go above an anti join instead of the
// LEFT join and its `s IS NULL` (the anti join drops the matched rows itself): the dimension
// builds, and the fact's partitions whose key it holds (only rows NOT IN removes) are skipped.
//
// Planned only when it can pay off: dynamic filtering on, `=` keys (semi joins: without a
// residual, over a subquery without a join), the subquery side estimated larger than the
// outer side and one of its keys reaching a scan (for NOT IN, or the other way round). The
// semi joins left build_side makes RIGHT_SEMI joins when their outer side is the smaller. Not below
// a set operation (its inputs are matched by position, and the join now has more columns).

#include <algorithm>
#include <map>
#include <optional>

#include "dynfilter/join_legality.h"
#include "optimizer/cardinality.h"
#include "optimizer/optimizer.h"
#include "planner/bind_context.h"
#include "planner/plan_copy.h"

namespace shears {

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

namespace {

// Whether the subquery side is the larger and one of its keys reaches a scan there.
bool SubqueryPrunable(LogicalJoin& join) {
  if (join.conditions.empty()) return false;
  const double outer_rows = join.children[0]->estimated_rows;
  const double subquery_rows = join.children[1]->estimated_rows;
  if (outer_rows < 0 || subquery_rows < 0 || !(outer_rows < subquery_rows)) return false;
  bool reaches_scan = false;
  for (const auto& condition : join.conditions) {
    if (!ConditionFiltersKeys(condition.null_equal)) return false;
    const auto referenced = ReferencedBindings(*condition.right);
    if (referenced.size() == 1 && !TraceToScans(*join.children[1], referenced[0]).empty())
      reaches_scan = true;
  }
  return reaches_scan;
}

// Whether the outer side is the larger and its key (the one condition's) reaches a scan there:
// a NOT IN kept by a WHERE then prunes it by the complement (an anti join).
bool OuterPrunable(LogicalJoin& join) {
  if (join.conditions.size() != 1 || !ConditionFiltersKeys(join.conditions[0].null_equal))
    return false;
  const double outer_rows = join.children[0]->estimated_rows;
  const double subquery_rows = join.children[1]->estimated_rows;
  if (outer_rows < 0 || subquery_rows < 0 || !(subquery_rows < outer_rows)) return false;
  const auto referenced = ReferencedBindings(*join.conditions[0].left);
  return referenced.size() == 1 && !TraceToScans(*join.children[0], referenced[0]).empty();
}

bool ContainsJoin(const LogicalOperator& op) {
  if (op.type == LogicalOperatorType::kJoin) return true;
  for (const auto& child : op.children) {
    if (ContainsJoin(*child)) return true;
  }
  return false;
}

// Not over a subquery that joins: its distinct keys would be aggregated from the whole join
// (TPC-DS q95's self-join of web_sales, 6.6 million rows) wherever join_order puts the inner
// join; build_side instead makes the semi join a RIGHT_SEMI join whose outer keys filter the
// subquery's scans below its join.
bool Reversible(LogicalJoin& join) {
  return join.join_kind == JoinKind::kSemi && !join.residual && !ContainsJoin(*join.children[1]) &&
         SubqueryPrunable(join);
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

// References to table `index`'s columns anywhere in the plan.
size_t CountReferences(LogicalOperator& op, uint32_t index) {
  size_t count = 0;
  for (BoundExprPtr* expr : op.Expressions()) {
    VisitExpression(**expr, [&](BoundExpr& e) {
      if (e.kind == BoundExprKind::kColumnRef &&
          static_cast<BoundColumnRef&>(e).binding.table_index == index)
        count++;
    });
  }
  for (auto& child : op.children)
    count += CountReferences(*child, index);
  return count;
}

// Whether every expression of the plan gives the same result each time and it reads no
// recursive CTE's working table (the copies of a subquery must see the rows it sees).
bool Deterministic(LogicalOperator& op) {
  if (op.type == LogicalOperatorType::kWorkingTable) return false;
  bool deterministic = true;
  for (BoundExprPtr* expr : op.Expressions()) {
    VisitExpression(**expr, [&](BoundExpr& e) {
      if (e.kind == BoundExprKind::kFunction &&
          !static_cast<BoundFunction&>(e).function.deterministic)
        deterministic = false;
    });
  }
  for (auto& child : op.children)
    deterministic = deterministic && Deterministic(*child);
  return deterministic;
}

// Which side a NOT IN rewrite prunes: the subquery's (a right anti join) or the outer one's (an
// anti join skipping the partitions whose key the subquery holds).
enum class NotInPruned { kSubquery, kOuter };

struct NotInShape {
  size_t conjunct = 0;
  NotInPruned pruned = NotInPruned::kSubquery;
};

// The conjunct of `filter` that is `NOT mark` of the mark join below it (NOT IN kept by a
// WHERE), when the mark is used nowhere else in `root` and one side can be pruned.
std::optional<NotInShape> NotInConjunct(LogicalFilter& filter, LogicalOperator& root) {
  if (filter.children[0]->type != LogicalOperatorType::kJoin) return std::nullopt;
  auto& join = static_cast<LogicalJoin&>(*filter.children[0]);
  if (join.join_kind != JoinKind::kMark || join.conditions.size() != 1 || join.residual ||
      !Deterministic(*join.children[1])) {
    return std::nullopt;
  }
  NotInShape shape;
  if (SubqueryPrunable(join)) {
    shape.pruned = NotInPruned::kSubquery;
  } else if (OuterPrunable(join)) {
    shape.pruned = NotInPruned::kOuter;
  } else {
    return std::nullopt;
  }
  for (size_t i = 0; i < filter.conditions.size(); i++) {
    const BoundExpr& c = *filter.conditions[i];
    if (c.kind != BoundExprKind::kNot) continue;
    const BoundExpr& child = *static_cast<const BoundNot&>(c).child;
    if (child.kind == BoundExprKind::kColumnRef &&
        static_cast<const BoundColumnRef&>(child).binding.table_index == join.mark_index &&
        CountReferences(root, join.mark_index) == 1) {
      shape.conjunct = i;
      return shape;
    }
  }
  return std::nullopt;
}

// One row: how many rows (0 or 1) of a copy of `subquery` pass `keep` (all when null).
LogicalOperatorPtr CountFirstRow(const LogicalOperator& subquery, const BoundExpr* keep,
                                 const Settings& settings, uint32_t& next_index,
                                 BoundExprPtr& count) {
  std::map<uint32_t, uint32_t> remap;
  LogicalOperatorPtr input = CopyPlan(
      subquery, [&next_index] { return next_index++; }, remap);
  if (keep) {
    auto filter = std::make_unique<LogicalFilter>();
    BoundExprPtr condition = keep->Copy();
    RemapBindings(*condition, remap);
    filter->conditions.push_back(std::move(condition));
    filter->children.push_back(std::move(input));
    input = std::move(filter);
    // Into the scan, where `s IS NULL` on a partition key leaves the NULL partition alone.
    PushDownFilters(input, settings);
  }
  auto limit = std::make_unique<LogicalLimit>();
  limit->limit = 1;
  limit->children.push_back(std::move(input));
  auto agg = std::make_unique<LogicalAggregate>();
  agg->group_index = next_index++;
  agg->aggregate_index = next_index++;
  agg->aggregates.push_back(std::make_unique<BoundAggregate>(
      AggregateKind::kCountStar, LogicalType::Bigint(), nullptr, false));
  agg->children.push_back(std::move(limit));
  count = std::make_unique<BoundColumnRef>(LogicalType::Bigint(),
                                           ColumnBinding{agg->aggregate_index, 0}, "count_star()");
  return agg;
}

BoundExprPtr IsZero(BoundExprPtr count) {
  std::vector<BoundExprPtr> args;
  args.push_back(std::move(count));
  args.push_back(std::make_unique<BoundConstant>(Value::Bigint(0)));
  return BindFunctionCall("=", std::move(args));
}

LogicalOperatorPtr CrossJoin(LogicalOperatorPtr left, LogicalOperatorPtr right) {
  auto join = std::make_unique<LogicalJoin>();
  join->join_kind = JoinKind::kCross;
  join->children.push_back(std::move(left));
  join->children.push_back(std::move(right));
  return join;
}

// `filter` (over a mark join, `shape.conjunct` its NOT mark) as the header comment shows.
void ReverseNotIn(LogicalFilter& filter, NotInShape shape, const Settings& settings,
                  uint32_t& next_index) {
  auto& join = static_cast<LogicalJoin&>(*filter.children[0]);
  const JoinCondition& condition = join.conditions[0];
  BoundExprPtr nulls, rows;
  auto null_check = std::make_unique<BoundIsNull>(condition.right->Copy(), false);
  LogicalOperatorPtr with_null =
      CountFirstRow(*join.children[1], null_check.get(), settings, next_index, nulls);
  LogicalOperatorPtr any_row =
      CountFirstRow(*join.children[1], nullptr, settings, next_index, rows);
  std::vector<BoundExprPtr> either;
  either.push_back(std::make_unique<BoundIsNull>(condition.left->Copy(), true));
  either.push_back(IsZero(std::move(rows)));
  filter.conditions.erase(filter.conditions.begin() + static_cast<std::ptrdiff_t>(shape.conjunct));
  if (shape.pruned == NotInPruned::kSubquery) {
    filter.conditions.push_back(std::make_unique<BoundIsNull>(condition.right->Copy(), false));
  }
  filter.conditions.push_back(IsZero(std::move(nulls)));
  filter.conditions.push_back(std::make_unique<BoundConjunction>(false, std::move(either)));
  join.join_kind = shape.pruned == NotInPruned::kSubquery ? JoinKind::kLeft : JoinKind::kAnti;
  join.mark_index = 0;
  EstimateSubtree(join);
  LogicalOperatorPtr input = std::move(filter.children[0]);
  input = CrossJoin(std::move(input), std::move(with_null));
  input = CrossJoin(std::move(input), std::move(any_row));
  filter.children[0] = std::move(input);
  EstimateSubtree(filter);
}

bool Visit(LogicalOperatorPtr& slot, bool positional, const Settings& settings,
           uint32_t& next_index, LogicalOperator& root) {
  LogicalOperator& op = *slot;
  bool changed = false;
  for (auto& child : op.children) {
    changed =
        Visit(child, op.type == LogicalOperatorType::kSetOperation, settings, next_index, root) ||
        changed;
  }
  if (positional) return changed;
  if (op.type == LogicalOperatorType::kFilter) {
    auto& filter = static_cast<LogicalFilter&>(op);
    if (auto shape = NotInConjunct(filter, root)) {
      ReverseNotIn(filter, *shape, settings, next_index);
      return true;
    }
  }
  if (op.type != LogicalOperatorType::kJoin) return changed;
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
  if (Visit(plan, true, settings, next_index, *plan))
    EstimateSubtree(*plan);  // above the rewritten joins
}

}  // namespace shears

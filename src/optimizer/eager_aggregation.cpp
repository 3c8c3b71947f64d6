// eager_aggregation: an aggregate over inner joins that groups by a dimension's columns first
// aggregates the other inputs (the fact side) by that dimension's join key, so the join with
// the dimension and the final grouping see one row per key instead of one per fact row:
//
//   AGGREGATE c_name, d_year: sum(ss_net_paid)       AGGREGATE c_name, #year: sum(#sum)
//     JOIN ss_customer_sk = c_customer_sk      =>      JOIN #cust = c_customer_sk
//       JOIN ss_sold_date_sk = d_date_sk                 AGGREGATE #cust = ss_customer_sk,
//         GET store_sales                                          #year = d_year:
//         GET date_dim                                             #sum = sum(ss_net_paid)
//       GET customer                                       JOIN ss_sold_date_sk = d_date_sk
//                                                            GET store_sales
//                                                            GET date_dim
//                                                        GET customer
//
// Equal answers: the partial aggregate groups on every column of the fact side used above it
// (its share of the groups and the join keys), so each (fact row, dimension row) pair of the
// original join becomes a (partial group, dimension row) pair, and the final aggregate
// combines the partial results of exactly the rows it combined before: sum of sums, sum of
// counts, min of mins, max of maxes, any of anys, bool_and / bool_or of theirs, and avg of an
// integer or DECIMAL as the sum of partial sums over the sum of partial counts
// (avg_of_partials). That holds
// whether or not the dimension's key is unique: a partial group joined with two dimension rows
// counts twice, as each of its fact rows did. NULL keys form a partial group that the join
// drops, as it dropped their rows. The final sum keeps the original result type; a partial sum
// of integers is a DECIMAL(38,0), so no partial total overflows where the whole does not.
//
// Planned for aggregates with groups (an aggregate without groups answers an empty input with
// a row, which a sum of counts would get wrong), whose aggregates are all of the kinds above
// without DISTINCT, over a tree of inner joins in which one input (the dimension) is joined by
// equalities at one join only, gives at least one group and none of the aggregates' inputs;
// only when the partial groups are estimated at most half the rows they group (statistics, or
// cardinality estimation's default of a tenth when there are none). Of several such inputs the
// one with the fewest partial groups per row wins, then the one giving most groups. Before
// join_order, which then orders the joins inside the partial aggregate on their own. The
// partial aggregate is marked `partial`: at run time it passes rows through unaggregated when
// they turn out not to reduce (PhysicalHashAggregate::AllowPassThrough), so a wrong estimate
// costs little.

#include <set>

#include "optimizer/cardinality.h"
#include "optimizer/optimizer.h"
#include "planner/plan_copy.h"

namespace shears {

namespace {

using BindingSet = std::set<ColumnBinding>;

bool Decomposable(const BoundAggregate& aggregate) {
  if (aggregate.distinct || !aggregate.extra_args.empty()) return false;
  switch (aggregate.aggregate) {
    case AggregateKind::kCountStar:
    case AggregateKind::kCount:
    case AggregateKind::kSum:
    case AggregateKind::kMin:
    case AggregateKind::kMax:
    case AggregateKind::kAny:
    case AggregateKind::kBoolAnd:
    case AggregateKind::kBoolOr:
      return true;
    case AggregateKind::kAvg: {
      // Exact arguments only: partial sums of doubles would round in another order.
      const TypeId id = aggregate.arg->type.id();
      return id == TypeId::kInteger || id == TypeId::kBigint || id == TypeId::kDecimal;
    }
    default:
      return false;
  }
}

bool References(const BoundExpr& expr, const BindingSet& bindings) {
  for (const auto& binding : ReferencedBindings(expr)) {
    if (bindings.count(binding)) return true;
  }
  return false;
}

bool Within(const BoundExpr& expr, const BindingSet& bindings) {
  const auto referenced = ReferencedBindings(expr);
  if (referenced.empty()) return false;
  for (const auto& binding : referenced) {
    if (!bindings.count(binding)) return false;
  }
  return true;
}

// An input of the tree of inner joins below the aggregate, and the join that takes it.
struct JoinInput {
  LogicalOperatorPtr* slot = nullptr;
  LogicalOperatorPtr* join_slot = nullptr;
  size_t side = 0;  // which child of that join
};

void CollectInputs(LogicalOperatorPtr& slot, std::vector<JoinInput>& inputs,
                   std::vector<LogicalJoin*>& joins) {
  auto& join = static_cast<LogicalJoin&>(*slot);
  joins.push_back(&join);
  for (size_t side = 0; side < 2; side++) {
    LogicalOperatorPtr& child = join.children[side];
    if (child->type == LogicalOperatorType::kJoin &&
        static_cast<LogicalJoin&>(*child).join_kind == JoinKind::kInner) {
      CollectInputs(child, inputs, joins);
    } else {
      inputs.push_back({&child, &slot, side});
    }
  }
}

bool IsInnerJoin(const LogicalOperator& op) {
  return op.type == LogicalOperatorType::kJoin &&
         static_cast<const LogicalJoin&>(op).join_kind == JoinKind::kInner;
}

// How many groups the input gives when it may be the dimension, or 0 when it may not.
size_t DimensionGroups(LogicalAggregate& agg, const JoinInput& input,
                       const std::vector<LogicalJoin*>& joins) {
  const auto outputs = (*input.slot)->GetColumnBindings();
  const BindingSet dimension(outputs.begin(), outputs.end());
  for (const auto& expr : agg.aggregates) {
    if (References(*expr, dimension)) return 0;
  }
  size_t groups = 0;
  for (const auto& group : agg.groups) {
    if (Within(*group, dimension)) {
      groups++;
    } else if (References(*group, dimension)) {
      return 0;
    }
  }
  const auto* taking = static_cast<const LogicalJoin*>(input.join_slot->get());
  if (taking->conditions.empty() || taking->residual) return 0;
  for (const LogicalJoin* join : joins) {
    if (join == taking) continue;
    if (join->residual && References(*join->residual, dimension)) return 0;
    for (const auto& condition : join->conditions) {
      if (References(*condition.left, dimension) || References(*condition.right, dimension))
        return 0;
    }
  }
  return groups;
}

BoundExprPtr ColumnOf(const LogicalAggregate& agg, bool group, size_t i) {
  const BoundExpr& expr = group ? *agg.groups[i] : *agg.aggregates[i];
  return std::make_unique<BoundColumnRef>(
      expr.type,
      ColumnBinding{group ? agg.group_index : agg.aggregate_index, static_cast<uint32_t>(i)},
      expr.ToString());
}

// `expr` as a column of the partial aggregate's groups (added when new).
BoundExprPtr PartialGroup(LogicalAggregate& partial, BoundExprPtr expr) {
  for (size_t i = 0; i < partial.groups.size(); i++) {
    if (ExpressionsEqual(*partial.groups[i], *expr)) return ColumnOf(partial, true, i);
  }
  partial.groups.push_back(std::move(expr));
  return ColumnOf(partial, true, partial.groups.size() - 1);
}

// Splits `aggregate` into its partial form (added to `partial`) and the final one over it.
void SplitAggregate(BoundAggregate& aggregate, LogicalAggregate& partial) {
  AggregateKind partial_kind = aggregate.aggregate;
  LogicalType partial_type = aggregate.type;
  switch (aggregate.aggregate) {
    case AggregateKind::kCountStar:
    case AggregateKind::kCount:
      aggregate.aggregate = AggregateKind::kSum;  // of the counts, still a BIGINT
      break;
    case AggregateKind::kSum:
      if (aggregate.type.id() == TypeId::kBigint) partial_type = LogicalType::Decimal(38, 0);
      break;
    case AggregateKind::kAvg: {
      // avg(x) -> avg_of_partials(#sum, #count) over sum(x) and count(x), the sum exact at
      // x's scale (no partial sum overflows), so the final division sees the same total.
      const LogicalType& arg_type = aggregate.arg->type;
      const int scale = arg_type.id() == TypeId::kDecimal ? arg_type.scale() : 0;
      BoundExprPtr counted = aggregate.arg->Copy();
      partial.aggregates.push_back(std::make_unique<BoundAggregate>(
          AggregateKind::kSum, LogicalType::Decimal(38, scale), std::move(aggregate.arg), false));
      aggregate.arg = ColumnOf(partial, false, partial.aggregates.size() - 1);
      partial.aggregates.push_back(std::make_unique<BoundAggregate>(
          AggregateKind::kCount, LogicalType::Bigint(), std::move(counted), false));
      aggregate.extra_args.push_back(ColumnOf(partial, false, partial.aggregates.size() - 1));
      aggregate.aggregate = AggregateKind::kAvgOfPartials;
      return;
    }
    default:
      break;
  }
  partial.aggregates.push_back(std::make_unique<BoundAggregate>(partial_kind, partial_type,
                                                                std::move(aggregate.arg), false));
  aggregate.arg = ColumnOf(partial, false, partial.aggregates.size() - 1);
}

// Rewrites `agg` (a copy) with input `input_index` of its join tree as the dimension; returns
// the partial aggregate's estimated groups per row it groups.
double Rewrite(LogicalAggregate& agg, size_t input_index, uint32_t& next_index) {
  std::vector<JoinInput> inputs;
  std::vector<LogicalJoin*> joins;
  CollectInputs(agg.children[0], inputs, joins);
  const JoinInput input = inputs[input_index];
  LogicalOperatorPtr taking = std::move(*input.join_slot);
  auto& taking_join = static_cast<LogicalJoin&>(*taking);
  LogicalOperatorPtr dimension = std::move(taking_join.children[input.side]);
  *input.join_slot = std::move(taking_join.children[1 - input.side]);
  const auto outputs = dimension->GetColumnBindings();
  const BindingSet dimension_bindings(outputs.begin(), outputs.end());

  auto partial = std::make_unique<LogicalAggregate>();
  partial->group_index = next_index++;
  partial->aggregate_index = next_index++;
  partial->partial = true;
  for (auto& group : agg.groups) {
    if (!Within(*group, dimension_bindings)) group = PartialGroup(*partial, std::move(group));
  }
  auto join = std::make_unique<LogicalJoin>();
  join->join_kind = JoinKind::kInner;
  for (auto& condition : taking_join.conditions) {
    // The dimension's key goes right (it is the build side until build_side decides).
    if (input.side == 0) std::swap(condition.left, condition.right);
    condition.left = PartialGroup(*partial, std::move(condition.left));
    join->conditions.push_back(std::move(condition));
  }
  for (auto& expr : agg.aggregates)
    SplitAggregate(static_cast<BoundAggregate&>(*expr), *partial);
  partial->children.push_back(std::move(agg.children[0]));
  auto* partial_ptr = partial.get();
  join->children.push_back(std::move(partial));
  join->children.push_back(std::move(dimension));
  agg.children[0] = std::move(join);
  EstimateSubtree(agg);
  return partial_ptr->estimated_rows / std::max(1.0, partial_ptr->children[0]->estimated_rows);
}

void Visit(LogicalOperatorPtr& slot, uint32_t& next_index) {
  for (auto& child : slot->children)
    Visit(child, next_index);
  if (slot->type != LogicalOperatorType::kAggregate) return;
  auto& agg = static_cast<LogicalAggregate&>(*slot);
  if (agg.groups.empty() || !agg.empty_input_groups.empty() || !IsInnerJoin(*agg.children[0]))
    return;
  for (const auto& expr : agg.aggregates) {
    if (expr->kind != BoundExprKind::kAggregate ||
        !Decomposable(static_cast<const BoundAggregate&>(*expr)) || CallsVolatile(*expr))
      return;
  }
  std::vector<JoinInput> inputs;
  std::vector<LogicalJoin*> joins;
  CollectInputs(agg.children[0], inputs, joins);
  LogicalOperatorPtr best;
  double best_ratio = 0.5;  // at most half the rows, or not at all
  size_t best_groups = 0;
  for (size_t i = 0; i < inputs.size(); i++) {
    const size_t groups = DimensionGroups(agg, inputs[i], joins);
    if (groups == 0) continue;
    LogicalOperatorPtr copy = CopyPlanAsIs(agg);
    const double ratio = Rewrite(static_cast<LogicalAggregate&>(*copy), i, next_index);
    const bool tie = best && ratio == best_ratio;
    if (ratio < best_ratio || (!best && ratio == best_ratio) || (tie && groups > best_groups)) {
      best = std::move(copy);
      best_ratio = ratio;
      best_groups = groups;
    }
  }
  if (best) slot = std::move(best);
}

}  // namespace

void AggregateEagerly(LogicalOperatorPtr& plan, const Settings&) {
  uint32_t next_index = MaxTableIndex(*plan) + 1;
  Visit(plan, next_index);
}

}  // namespace shears

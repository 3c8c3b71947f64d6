#include "distributed/split_aggregate.h"

#include <string>
#include <vector>

namespace shears {

namespace {

BoundExprPtr Column(const LogicalType& type, size_t index) {
  return std::make_unique<BoundReference>(type, index, "#" + std::to_string(index));
}

/// The key columns of the aggregate's rows: its groups, or with GROUPING SETS the keys of the
/// sets it folds its finest groups into (each set's keys and its id, so grouping by them again
/// keeps the sets apart).
size_t ResultKeys(const PhysicalHashAggregate& agg) {
  return agg.types().size() - agg.aggregates().size();
}

const BoundAggregate& AggregateAt(const PhysicalHashAggregate& agg, size_t a) {
  return static_cast<const BoundAggregate&>(*agg.aggregates()[a]);
}

/// avg over an exact argument combines as a DECIMAL sum and a count (eager aggregation's
/// avg_of_partials); over doubles the sums would round in another order than alone.
bool ExactAvg(const BoundAggregate& aggregate) {
  if (aggregate.aggregate != AggregateKind::kAvg || !aggregate.arg) return false;
  const TypeId id = aggregate.arg->type.id();
  return id == TypeId::kInteger || id == TypeId::kBigint || id == TypeId::kDecimal;
}

/// Every aggregate DISTINCT over one argument (a single aggregate, or references to one input
/// column): their result depends only on the set of (groups, argument) pairs.
bool DistinctOfOneArgument(const PhysicalHashAggregate& agg) {
  if (agg.aggregates().empty() || agg.has_grouping_sets()) return false;
  const BoundReference* column = nullptr;
  for (size_t a = 0; a < agg.aggregates().size(); a++) {
    const BoundAggregate& aggregate = AggregateAt(agg, a);
    if (!aggregate.distinct || !aggregate.arg || !aggregate.extra_args.empty()) return false;
    if (agg.aggregates().size() == 1) return true;
    const auto* ref = dynamic_cast<const BoundReference*>(aggregate.arg.get());
    if (!ref || (column && (ref->index != column->index || ref->type != column->type)))
      return false;
    column = ref;
  }
  return true;
}

AggregateSplit SplitDistinct(const PhysicalHashAggregate& agg) {
  // Partial: GROUP BY groups, argument (no aggregates); final: the original over those pairs.
  const size_t groups = agg.groups().size();
  const BoundExpr& arg = *AggregateAt(agg, 0).arg;
  std::vector<LogicalType> pair_types;
  std::vector<BoundExprPtr> pair_keys, final_groups, final_aggregates;
  for (size_t g = 0; g < groups; g++) {
    pair_types.push_back(agg.groups()[g]->type);
    pair_keys.push_back(agg.groups()[g]->Copy());
    final_groups.push_back(Column(pair_types.back(), g));
  }
  pair_types.push_back(arg.type);
  pair_keys.push_back(arg.Copy());
  for (size_t a = 0; a < agg.aggregates().size(); a++) {
    const BoundAggregate& aggregate = AggregateAt(agg, a);
    auto final_aggregate = std::make_unique<BoundAggregate>(aggregate.aggregate, aggregate.type,
                                                            Column(arg.type, groups), true);
    final_aggregate->params = aggregate.params;
    final_aggregates.push_back(std::move(final_aggregate));
  }
  AggregateSplit split;
  split.partial = std::make_unique<PhysicalHashAggregate>(pair_types, std::move(pair_keys),
                                                          std::vector<BoundExprPtr>{});
  split.final_aggregate = std::make_unique<PhysicalHashAggregate>(
      agg.types(), std::move(final_groups), std::move(final_aggregates), agg.empty_input_groups());
  split.keys = groups;
  return split;
}

}  // namespace

AggregateSplit SplitAggregate(const PhysicalHashAggregate& agg) {
  if (DistinctOfOneArgument(agg)) return SplitDistinct(agg);
  AggregateSplit none;
  if (!agg.empty_input_groups().empty()) return none;
  const size_t keys = ResultKeys(agg);
  const auto& types = agg.types();
  bool averages = false;
  // The partial aggregate's columns: the keys, then per aggregate its partial state (two
  // columns for an avg).
  std::vector<LogicalType> partial_types(types.begin(), types.begin() + static_cast<long>(keys));
  std::vector<BoundExprPtr> partial_aggregates, final_groups, final_aggregates;
  for (size_t g = 0; g < keys; g++)
    final_groups.push_back(Column(types[g], g));
  for (size_t a = 0; a < agg.aggregates().size(); a++) {
    const BoundAggregate& aggregate = AggregateAt(agg, a);
    if (aggregate.distinct || !aggregate.extra_args.empty()) return none;
    const size_t column = partial_types.size();
    if (ExactAvg(aggregate)) {
      // sum at the argument's scale, exact in 38 digits, and count.
      averages = true;
      const LogicalType& arg_type = aggregate.arg->type;
      const LogicalType sum_type =
          LogicalType::Decimal(38, arg_type.id() == TypeId::kDecimal ? arg_type.scale() : 0);
      partial_aggregates.push_back(std::make_unique<BoundAggregate>(AggregateKind::kSum, sum_type,
                                                                    aggregate.arg->Copy(), false));
      partial_aggregates.push_back(std::make_unique<BoundAggregate>(
          AggregateKind::kCount, LogicalType::Bigint(), aggregate.arg->Copy(), false));
      partial_types.push_back(sum_type);
      partial_types.push_back(LogicalType::Bigint());
      auto final_aggregate = std::make_unique<BoundAggregate>(
          AggregateKind::kAvgOfPartials, aggregate.type, Column(sum_type, column), false);
      final_aggregate->extra_args.push_back(Column(LogicalType::Bigint(), column + 1));
      final_aggregates.push_back(std::move(final_aggregate));
      continue;
    }
    AggregateKind kind;
    switch (aggregate.aggregate) {
      case AggregateKind::kCountStar:
      case AggregateKind::kCount:
        kind = AggregateKind::kSum;  // of the ranks' counts
        break;
      case AggregateKind::kSum:
      case AggregateKind::kMin:
      case AggregateKind::kMax:
      case AggregateKind::kBoolAnd:
      case AggregateKind::kBoolOr:
      case AggregateKind::kAny:
        kind = aggregate.aggregate;
        break;
      default:
        return none;
    }
    // The partial aggregate's column has the final one's type: a count is a BIGINT, a sum,
    // min or max has its result's type.
    partial_aggregates.push_back(aggregate.Copy());
    partial_types.push_back(types[keys + a]);
    final_aggregates.push_back(std::make_unique<BoundAggregate>(
        kind, aggregate.type, Column(types[keys + a], column), false));
  }
  AggregateSplit split;
  split.keys = keys;
  if (averages) {
    // A partial aggregate of its own (sums and counts for the averages); GROUPING SETS would
    // need their fold copied too, so they keep gathering rows.
    if (agg.has_grouping_sets()) return none;
    std::vector<BoundExprPtr> groups;
    for (const auto& group : agg.groups())
      groups.push_back(group->Copy());
    split.partial = std::make_unique<PhysicalHashAggregate>(partial_types, std::move(groups),
                                                            std::move(partial_aggregates));
  }
  split.final_aggregate = std::make_unique<PhysicalHashAggregate>(types, std::move(final_groups),
                                                                  std::move(final_aggregates));
  return split;
}

}  // namespace shears

#include "optimizer/optimizer.h"

#include <set>

#include "common/error.h"

namespace shears {

const std::vector<OptimizerRule>& OptimizerRules() {
  static const std::vector<OptimizerRule> kRules = {
      // Before pushdown, so the join keys and single-table filters hidden in ORs are found.
      {"or_factoring",
       "take conjuncts common to every OR branch out of it; derive per-table filters from the "
       "branches",
       FactorOrPredicates},
      // Before pushdown: an outer join a filter above it makes inner lets that filter go into
      // the null-supplying side (and the join prune it).
      {"outer_join_simplification",
       "an outer join whose NULL-extended rows a condition above rejects becomes an inner (or "
       "one-sided) join",
       SimplifyOuterJoins},
      // Then: filters move as deep as they can go, into scans (where they prune partitions and
      // row groups) and into joins (where equalities become hash-join keys).
      {"filter_pushdown", "push filters into scans and joins; equalities become join keys",
       PushDownFilters},
      // After pushdown, which leaves each reference's filters right above its CTE_SCAN.
      {"cte_filter_pushdown",
       "push the OR of the filters of every reference of a materialized CTE into its definition",
       PushFiltersIntoCtes},
      // After pushdown, so columns used only by pushed filters are still known to be needed.
      {"column_pruning", "read only the columns the query uses", PruneColumns},
      // After pushdown, which leaves the filters on window results right above their window.
      {"window_limit",
       "a filter keeping rows with row_number/rank/dense_rank <= N lets the window drop the rest "
       "of each partition (top-N per group)",
       LimitWindows},
      // Estimates feed the join order and the build-side choice below.
      {"cardinality_estimation", "estimate rows per operator from statistics",
       EstimateCardinalities},
      // Needs the estimates (does the inner join keep the rows?); before join_order, which
      // then orders the joins moved below a LEFT join as one cluster.
      {"outer_join_pullup",
       "an inner (or semi/anti) join above a LEFT join, reading only its preserved side, moves "
       "below it, so the LEFT join sees the filtered rows",
       PullUpOuterJoins},
      // Needs the estimates (is the subquery side the larger?); before join_order, which may
      // then order the inner join it makes like any other.
      {"semi_join_reversal",
       "a semi join whose subquery side is larger becomes an inner join with its distinct keys, "
       "so the outer side builds first and prunes it",
       ReverseSemiJoins},
      // Needs the estimates (partial groups per row); before join_order, which then orders the
      // joins inside the partial aggregate and the join with the dimension on their own.
      {"eager_aggregation",
       "aggregate the fact side by a dimension's join key before joining it, when that groups "
       "at least two rows into one",
       AggregateEagerly},
      // Before build_side (which then only confirms or flips each join's sides) and before the
      // dynamic filter rules, which plan their filters on the final joins.
      {"join_order", "order inner joins by estimated cost (sum of intermediate result rows)",
       ReorderJoins},
      {"build_side", "build hash tables on the smaller input", ChooseBuildSides},
      // After build_side (which side builds is known) and before the dynamic filter rules,
      // which then plan the transferred keys' filters like any semi join's.
      {"predicate_transfer",
       "a build side reading a fact broadly is semi-joined with a copy of a narrow probe "
       "side's keys, so those keys prune it (backward transfer)",
       TransferPredicatesBackward},
      // Last: needs the final join sides (the build side runs first and produces the keys).
      {"dynamic_partition_pruning",
       "prune probe-side partitions with the join keys the build side produced",
       PlanDynamicPartitionPruning},
      // After partition pruning: a key pruned by partition needs no runtime filter.
      {"runtime_filter",
       "filter probe-side scans with the keys a join's build side produced (set, bloom, range)",
       PlanRuntimeFilters},
      // Last: its filter ids follow every join's, and no rule copies the scans afterwards
      // (their statistics bounds are linked by pointer); predicate_transfer already left the
      // joins whose probe key follows its partitioning to it.
      {"statistics_transfer",
       "a join of two facts whose probe key follows the probe fact's partitioning bounds the "
       "build fact's scan by the key's ranges over the probe fact's kept files (their "
       "statistics)",
       TransferStatistics},
  };
  return kRules;
}

std::set<std::string> DisabledOptimizers(const std::string& list) {
  std::set<std::string> disabled;
  size_t start = 0;
  while (start < list.size()) {
    size_t comma = list.find(',', start);
    if (comma == std::string::npos) comma = list.size();
    std::string name = list.substr(start, comma - start);
    while (!name.empty() && name.front() == ' ')
      name.erase(name.begin());
    while (!name.empty() && name.back() == ' ')
      name.pop_back();
    if (!name.empty()) {
      bool known = false;
      for (const auto& rule : OptimizerRules())
        known = known || name == rule.name;
      if (!known) {
        std::string names;
        for (const auto& rule : OptimizerRules())
          names += (names.empty() ? "" : ", ") + std::string(rule.name);
        throw InvalidInputError("unknown optimizer rule '{}' in disabled_optimizers (rules: {})",
                                name, names);
      }
      disabled.insert(name);
    }
    start = comma + 1;
  }
  return disabled;
}

void Optimize(LogicalOperatorPtr& plan, const Settings& settings) {
  const std::set<std::string> disabled =
      DisabledOptimizers(settings.GetString("disabled_optimizers"));
  for (const auto& rule : OptimizerRules()) {
    if (!disabled.count(rule.name)) rule.apply(plan, settings);
  }
}

}  // namespace shears

// dynamic_partition_pruning: for a hash join whose probe-side key is a partition column of a
// scan below it, the build side's distinct keys decide at run time which partitions the scan
// reads (FLIP-248 / Spark's PartitionPruning, planned here and executed by the scan's split
// enumeration).
//
//   JOIN INNER ON ss_sold_date_sk = d_date_sk         produces #1 from d_date_sk
//     GET store_sales  dynamic_partition_filter #1: ss_sold_date_sk IN keys
//     FILTER d_year = 2000                              (build side, runs first)
//       GET date_dim
//
// The probe key may also be a deterministic expression of the partition column
// (`CAST(p AS BIGINT) = key`, `p + 1 = key`, or computed below: `SELECT p + 1 AS k ...`,
// a UNION input cast to the common type): each partition value is mapped through it, then
// looked up.
//
// Legality (dynfilter/join_legality.h): legal when the join drops probe rows without a match:
// INNER, SEMI, RIGHT (probe = left side here). ANTI joins prune the other way (a partition whose
// value is in the key set holds only rows the anti join removes) when the key is the only condition
// and there is no residual. A join without an equality key (nested loop) prunes by the bounds of
// its build side: a conjunct `key >= build_expr` of its residual keeps the partitions whose key is
// at least the smallest build_expr produced (`BETWEEN (SELECT min ...) AND (SELECT max ...)`).
// LEFT, FULL and MARK joins keep unmatched probe rows: never pruned, except a MARK join under a
// filter `mark OR key IS NULL`, which keeps only partitions whose key is NULL or a build key. The
// key is traced through filters, projections of plain columns, aggregates grouping on it, inner
// joins (either side), the kept side of other joins and into every input of a set operation (each
// branch of a UNION ALL prunes on its own column), and transitively through inner and semi join
// conditions `key = other` to `other`'s scan (one dimension prunes several facts), and through a
// CTE_SCAN into a materialized CTE's query, whose scans get the OR of every reference's filter
// (ResolveCteFilters). NULL keys never match: NULL partitions are dropped by IN filters and kept
// by NOT IN filters.

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "common/numeric_cast.h"
#include "dynfilter/join_legality.h"
#include "optimizer/cardinality.h"
#include "optimizer/optimizer.h"

namespace shears {

namespace {

bool HasFilter(const LogicalOperator& op) {
  if (op.type == LogicalOperatorType::kFilter) return true;
  if (op.type == LogicalOperatorType::kGet && !static_cast<const LogicalGet&>(op).filters.empty()) {
    return true;
  }
  if (op.type == LogicalOperatorType::kJoin) return true;  // a join can only narrow keys
  for (const auto& child : op.children) {
    if (HasFilter(*child)) return true;
  }
  return false;
}

/// Spark's pruningHasBenefit: the bytes of the pruned scans a filter is expected to save
/// against the bytes the filtering side reads.
struct PruningBenefit {
  double filter_ratio = 0;  // estimated fraction of partitions pruned
  bool from_statistics = false;
  double probe_bytes = 0;     // bytes of the partitioned scans the key reaches
  double pruned_bytes = 0;    // filter_ratio * probe_bytes
  double overhead_bytes = 0;  // bytes the filtering side's scans read

  std::string ToString() const {
    return fmt::format("filter ratio {:.2f} ({}) x {} probe bytes = {} vs {} build bytes",
                       filter_ratio, from_statistics ? "from NDV" : "fallback_filter_ratio",
                       FormatEstimate(probe_bytes), FormatEstimate(pruned_bytes),
                       FormatEstimate(overhead_bytes));
  }
};

double ScanBytes(const LogicalOperator& op) {
  double bytes = 0;
  if (op.type == LogicalOperatorType::kGet) {
    bytes += static_cast<double>(static_cast<const LogicalGet&>(op).dataset->estimated_bytes());
  }
  for (const auto& child : op.children)
    bytes += ScanBytes(*child);
  return bytes;
}

// The ratio is 1 - NDV(build key) / NDV(partition column) when both are known and the build
// side has fewer distinct keys than the scan has partition values; else the fallback ratio
// (as Spark, which also falls back when the estimate says every partition is hit: NDVs of
// two tables need not overlap). Partition columns always know their NDV (the partitions).
PruningBenefit EstimateBenefit(const std::vector<TracedColumn>& targets, LogicalOperator& build,
                               const BoundExpr& build_key, double fallback_ratio) {
  PruningBenefit benefit;
  benefit.filter_ratio = fallback_ratio;
  double partitions = -1;
  for (const TracedColumn& traced : targets) {
    const auto& dataset = *traced.get->dataset;
    if (static_cast<size_t>(traced.column_id) < dataset.num_file_columns()) continue;
    benefit.probe_bytes += ScanBytes(*traced.get);
    if (partitions < 0) partitions = ScanColumnDistinct(*traced.get, traced.column_id);
  }
  const double keys = EstimateDistinct(build, build_key);
  if (partitions > 0 && keys >= 0 && keys < partitions) {
    benefit.filter_ratio = 1 - keys / partitions;
    benefit.from_statistics = true;
  }
  benefit.pruned_bytes = benefit.filter_ratio * benefit.probe_bytes;
  benefit.overhead_bytes = ScanBytes(build);
  return benefit;
}

// The mode of a bound filter on `probe` from a conjunct `probe op build` (`probe_first`) or
// `build op probe`; nullopt for an operator that bounds nothing.
std::optional<DynamicFilterMode> BoundMode(const std::string& op, bool probe_first) {
  if (op == ">=") return probe_first ? DynamicFilterMode::kAtLeast : DynamicFilterMode::kAtMost;
  if (op == ">") return probe_first ? DynamicFilterMode::kAbove : DynamicFilterMode::kBelow;
  if (op == "<=") return probe_first ? DynamicFilterMode::kAtMost : DynamicFilterMode::kAtLeast;
  if (op == "<") return probe_first ? DynamicFilterMode::kBelow : DynamicFilterMode::kAbove;
  return std::nullopt;
}

// A filter on a scan inside a materialized CTE's query, reached from a join above one
// reference: the scan serves every reference, so it becomes one alternative of an OR, planned
// once every reference has one (ResolveCteFilters). Its id is assigned then.
struct CteTarget {
  LogicalJoin* join = nullptr;
  const LogicalCteScan* reference = nullptr;
  LogicalGet* get = nullptr;
  DynamicPartitionFilter filter;
  /// The join's equality condition producing the keys or, with `bound`, the comparison
  /// (2 * conjunct + operand) whose bound of the build-side expression `bound` is collected.
  size_t producer = 0;
  std::shared_ptr<BoundExpr> bound;
  std::string benefit;
};

struct Planning {
  int next_id = 1;
  double fallback_ratio = 0;
  CteDefinitions ctes;
  std::vector<CteTarget> cte_targets;
  /// The bound filters' producer ids, by join and comparison (CteTarget::producer).
  std::map<std::pair<const LogicalJoin*, size_t>, int> bound_ids;
};

// The id of the key set `join` produces from its condition `condition` (a new one the first
// time), noting the estimated benefit that justified it.
int ProducerId(LogicalJoin& join, size_t condition, const std::string& benefit,
               Planning& planning) {
  for (const auto& [id, produced] : join.dynamic_filter_producers) {
    if (produced == condition) return id;
  }
  const int id = planning.next_id++;
  join.dynamic_filter_producers.emplace_back(id, condition);
  if (!benefit.empty()) {
    join.dynamic_filter_benefit += (join.dynamic_filter_benefit.empty() ? "" : "; ") + benefit;
  }
  return id;
}

// A join without an equality key (a nested loop join, which materializes its build side
// first): each conjunct of its residual comparing a probe key with an expression of the build
// side (`ss_sold_date_sk >= (SELECT min(d_date_sk) ...)`) bounds the keys that can join by the
// build side's smallest or largest value of that expression, collected as it is built.
void PlanBoundFilters(LogicalJoin& join, Planning& planning, const CteDefinitions* ctes) {
  join.dynamic_filter_note = BoundFilterLegality(join.join_kind, join.residual != nullptr);
  if (!join.dynamic_filter_note.empty()) return;
  if (!HasFilter(*join.children[1])) {
    join.dynamic_filter_note = "build side has no filter";
    return;
  }
  std::set<ColumnBinding> left, right;
  for (const auto& b : join.children[0]->GetColumnBindings())
    left.insert(b);
  for (const auto& b : join.children[1]->GetColumnBindings())
    right.insert(b);
  std::string reason = "no <, <=, > or >= comparison of a probe key with the build side";
  std::vector<BoundExprPtr> conjuncts;
  SplitConjunction(join.residual->Copy(), conjuncts);
  for (size_t conjunct_index = 0; conjunct_index < conjuncts.size(); conjunct_index++) {
    auto& conjunct = conjuncts[conjunct_index];
    if (conjunct->kind != BoundExprKind::kFunction) continue;
    auto& comparison = static_cast<BoundFunction&>(*conjunct);
    if (comparison.args.size() != 2 || CallsVolatile(comparison)) continue;
    for (size_t side = 0; side < 2; side++) {
      const BoundExpr& probe = *comparison.args[side];
      const BoundExpr& build = *comparison.args[1 - side];
      const auto mode = BoundMode(comparison.function.name, side == 0);
      const auto probe_columns = ReferencedBindings(probe);
      const auto build_columns = ReferencedBindings(build);
      if (!mode || probe_columns.size() != 1 || !left.count(probe_columns[0]) ||
          build_columns.empty()) {
        continue;
      }
      bool on_build = true;
      for (const auto& b : build_columns)
        on_build = on_build && right.count(b);
      if (!on_build) continue;
      if (!(probe.type == build.type) || !BoundsOrderLikeSql(build.type)) {
        reason = "bounds of " + build.ToString() + " do not order like SQL or differ in type";
        continue;
      }
      const size_t producer = 2 * conjunct_index + side;
      int id = -1;
      bool reached = false;
      for (const TracedColumn& traced :
           TraceToScans(*join.children[0], probe_columns[0], &probe, ctes)) {
        const auto& dataset = *traced.get->dataset;
        const auto column = static_cast<size_t>(traced.column_id);
        if (column < dataset.num_file_columns()) continue;
        const LogicalType key_type =
            traced.key_expr ? traced.key_expr->type : dataset.columns()[column].type;
        if (!(key_type == build.type)) continue;
        reached = true;
        DynamicPartitionFilter filter;
        filter.column_id = traced.column_id;
        filter.mode = *mode;
        filter.key_expr = traced.key_expr;
        filter.description = std::string("from JOIN ") + JoinKindName(join.join_kind) + " (" +
                             conjunct->ToString() + ")";
        if (traced.cte_scan) {
          planning.cte_targets.push_back(
              {&join, traced.cte_scan, traced.get, std::move(filter), producer, build.Copy(), ""});
          continue;
        }
        if (id < 0) {
          id = planning.next_id++;
          join.dynamic_bound_producers.emplace_back(id, build.Copy());
          planning.bound_ids[{&join, producer}] = id;
        }
        filter.filter_id = id;
        traced.get->dynamic_filters.push_back(std::move(filter));
      }
      if (!reached) reason = "probe key " + probe.ToString() + " does not reach a partition column";
    }
  }
  if (join.dynamic_bound_producers.empty()) join.dynamic_filter_note = reason;
}

// `in_recursive`: inside a recursive CTE, whose terms run in executions of their own, where a
// CTE materialized outside them cannot wait for their joins: they do not filter CTEs.
void Visit(LogicalOperator& op, Planning& planning, bool in_recursive = false,
           const LogicalFilter* above = nullptr) {
  const LogicalFilter* filter =
      op.type == LogicalOperatorType::kFilter ? static_cast<const LogicalFilter*>(&op) : nullptr;
  const bool recursive = in_recursive || (op.type == LogicalOperatorType::kSetOperation &&
                                          static_cast<LogicalSetOperation&>(op).kind ==
                                              SetOperationKind::kRecursiveUnion);
  for (auto& child : op.children)
    Visit(*child, planning, recursive, filter);
  if (op.type != LogicalOperatorType::kJoin) return;
  auto& join = static_cast<LogicalJoin&>(op);
  const CteDefinitions* ctes = recursive ? nullptr : &planning.ctes;
  if (join.conditions.empty()) return PlanBoundFilters(join, planning, ctes);
  const ProbeFilterLegality legality =
      ProbeSideFilterLegality(join.FilterShape(), true, above ? &above->conditions : nullptr);
  if (!legality.any()) {
    join.dynamic_filter_note = legality.reason;
    return;
  }
  const bool skip_mode = legality.skip;
  // A build side with a filter is selective (Spark's hasPartitionPruningFilter); one without
  // must be estimated to pay for itself (see Benefit).
  LogicalOperator& build = *join.children[1];
  const bool filtered = HasFilter(build);
  std::string reasons;
  for (size_t i = 0; i < join.conditions.size(); i++) {
    const auto& condition = join.conditions[i];
    if (!ConditionFiltersKeys(condition.null_equal)) {
      reasons = "keys compared with IS NOT DISTINCT FROM (NULL matches NULL)";
      continue;
    }
    DynamicFilterMode mode = skip_mode ? DynamicFilterMode::kSkip : DynamicFilterMode::kKeep;
    if (!legality.keep_or_null.empty()) {
      if (!legality.keep_or_null[i]) {
        reasons = "MARK join keeps probe rows without a match on " + condition.left->ToString();
        continue;
      }
      mode = DynamicFilterMode::kKeepOrNull;
    }
    // The key is a column, or a deterministic expression of one column (a cast, p + 1):
    // then each partition value is mapped through it before the lookup.
    const auto referenced = ReferencedBindings(*condition.left);
    bool deterministic = true;
    VisitExpression(*condition.left, [&](BoundExpr& e) {
      if (e.kind == BoundExprKind::kFunction &&
          !static_cast<BoundFunction&>(e).function.deterministic) {
        deterministic = false;
      }
    });
    if (referenced.size() != 1 || !deterministic) {
      reasons = "probe key " + condition.left->ToString() +
                " is not a column or a deterministic expression of one column";
      continue;
    }
    // Each target says how the key is computed from its partition column (this expression,
    // and what projections and groups below compute on the way).
    const auto targets = TraceToScans(*join.children[0], referenced[0], condition.left.get(), ctes);
    if (targets.empty()) {
      reasons = "probe key " + condition.left->ToString() + " does not reach a scan";
      continue;
    }
    bool partitioned = false;
    for (const TracedColumn& traced : targets) {
      partitioned = partitioned || static_cast<size_t>(traced.column_id) >=
                                       traced.get->dataset->num_file_columns();
    }
    if (!partitioned) {
      reasons = "probe key " + condition.left->ToString() + " is not a partition column";
      continue;
    }
    const PruningBenefit benefit =
        EstimateBenefit(targets, build, *condition.right, planning.fallback_ratio);
    if (!filtered && !skip_mode && !(benefit.pruned_bytes > benefit.overhead_bytes)) {
      reasons =
          "build side has no filter and the estimated benefit is too small: " + benefit.ToString();
      continue;
    }
    // One key set, read by every partitioned scan the key reaches (transitively).
    int id = -1;
    for (const TracedColumn& traced : targets) {
      const auto& dataset = *traced.get->dataset;
      if (static_cast<size_t>(traced.column_id) < dataset.num_file_columns()) {
        reasons = "probe key " + condition.left->ToString() + " is not a partition column";
        continue;
      }
      const auto& key_expr = traced.key_expr;
      const LogicalType key_type =
          key_expr ? key_expr->type : dataset.columns()[static_cast<size_t>(traced.column_id)].type;
      if (key_type != condition.right->type) {
        reasons = "key types differ: partition key is " + key_type.ToString() + ", build key " +
                  condition.right->ToString() + " " + condition.right->type.ToString();
        continue;
      }
      DynamicPartitionFilter filter;
      filter.column_id = traced.column_id;
      filter.mode = mode;
      filter.key_expr = key_expr;
      filter.description = std::string("from JOIN ") + JoinKindName(join.join_kind) + " (" +
                           condition.left->ToString() + " = " + condition.right->ToString() + ")";
      const std::string benefit_text = skip_mode ? "" : benefit.ToString();
      if (traced.cte_scan) {
        planning.cte_targets.push_back(
            {&join, traced.cte_scan, traced.get, std::move(filter), i, nullptr, benefit_text});
        continue;
      }
      if (id < 0) id = ProducerId(join, i, benefit_text, planning);
      filter.filter_id = id;
      traced.get->dynamic_filters.push_back(std::move(filter));
    }
  }
  if (join.dynamic_filter_producers.empty()) join.dynamic_filter_note = reasons;
}

void CollectCteScans(LogicalOperator& op,
                     std::map<uint32_t, std::vector<const LogicalCteScan*>>& out) {
  if (op.type == LogicalOperatorType::kCteScan) {
    const auto& scan = static_cast<const LogicalCteScan&>(op);
    out[scan.cte_index].push_back(&scan);
  }
  for (auto& child : op.children)
    CollectCteScans(*child, out);
}

// The id `target`'s join produces for its keys: the one it already has for the same
// condition (or bound expression), else a new one.
int TargetProducerId(const CteTarget& target, Planning& planning) {
  LogicalJoin& join = *target.join;
  if (!target.bound) return ProducerId(join, target.producer, target.benefit, planning);
  int& id = planning.bound_ids[{&join, target.producer}];
  if (id == 0) {
    id = planning.next_id++;
    join.dynamic_bound_producers.emplace_back(id, target.bound->Copy());
  }
  return id;
}

// A scan inside a materialized CTE's query is read once for every reference: it may skip a
// partition only when no reference needs it. When each reference has a filter on the scan
// (from a join above it), the scan gets their OR and the joins produce their keys; the
// executor runs those joins' build sides before the CTE's query (each is a producer the scan
// consumes), or, when one cannot run first (its build side reads the CTE), the OR is never
// complete and prunes nothing. A reference without a filter needs every row: nothing is
// planned.
void ResolveCteFilters(LogicalOperator& plan, Planning& planning) {
  if (planning.cte_targets.empty()) return;
  std::map<uint32_t, std::vector<const LogicalCteScan*>> references;
  CollectCteScans(plan, references);
  std::vector<LogicalGet*> gets;
  for (const auto& target : planning.cte_targets) {
    if (std::find(gets.begin(), gets.end(), target.get) == gets.end()) gets.push_back(target.get);
  }
  for (LogicalGet* get : gets) {
    const LogicalCteScan* some_reference = nullptr;
    for (const auto& target : planning.cte_targets) {
      if (target.get == get) some_reference = target.reference;
    }
    const auto& cte_references = references[some_reference->cte_index];
    // Each reference's filters on the scan, in plan order.
    std::vector<std::vector<const CteTarget*>> per_reference(cte_references.size());
    size_t filtered = 0, most = 0;
    for (size_t r = 0; r < cte_references.size(); r++) {
      for (const auto& target : planning.cte_targets) {
        if (target.get == get && target.reference == cte_references[r])
          per_reference[r].push_back(&target);
      }
      filtered += per_reference[r].empty() ? 0 : 1;
      most = std::max(most, per_reference[r].size());
    }
    if (filtered < cte_references.size()) {
      for (const auto& target : planning.cte_targets) {
        if (target.get != get || !target.join->dynamic_filter_producers.empty() ||
            !target.join->dynamic_bound_producers.empty()) {
          continue;
        }
        target.join->dynamic_filter_note =
            fmt::format("{} of {} references to CTE {} filter its scan of {}", filtered,
                        cte_references.size(), some_reference->name, get->table_name);
      }
      continue;
    }
    // A reference with several filters (a join on two keys, BETWEEN's two bounds) needs rows
    // that pass all of them, so ORs taking a different one of each reference are all valid;
    // together they prune more (the OR of the lower bounds and the OR of the upper ones).
    constexpr size_t kMaxOrs = 4;
    for (size_t j = 0; j < std::min(most, kMaxOrs); j++) {
      DynamicPartitionFilter any;
      any.description = "OR of the " + std::to_string(cte_references.size()) +
                        " references to CTE " + some_reference->name;
      for (const auto& targets : per_reference) {
        const CteTarget& target = *targets[std::min(j, targets.size() - 1)];
        DynamicPartitionFilter alternative = target.filter;
        alternative.filter_id = TargetProducerId(target, planning);
        target.join->dynamic_filter_note.clear();
        any.any_of.push_back(std::move(alternative));
      }
      any.column_id = any.any_of[0].column_id;
      any.filter_id = planning.next_id++;
      get->dynamic_filters.push_back(std::move(any));
    }
  }
}

}  // namespace

void PlanDynamicPartitionPruning(LogicalOperatorPtr& plan, const Settings& settings) {
  if (!settings.GetBool("dynamic_filtering") || !settings.GetBool("dynamic_partition_pruning"))
    return;
  Planning planning;
  planning.fallback_ratio = settings.GetDouble("dynamic_partition_pruning.fallback_filter_ratio");
  planning.ctes = FindCteDefinitions(*plan);
  Visit(*plan, planning);
  ResolveCteFilters(*plan, planning);
}

}  // namespace shears

// predicate_transfer: backward transfer. A hash join's build side runs first, so its keys
// filter the probe side (forward: dynamic_partition_pruning, runtime_filter). A probe side
// that keeps a small share of its fact (a month of sales, by its date dimension) holds keys
// that would prune the build side's fact too, but the build side runs before them. When that
// fact is read broadly (no partition filter of its own: every file), and building on the
// narrow side was not chosen (build_side: it is too large, or more than 16 times the other
// side), the probe side is computed first, once, into memory (a materialized CTE), and the
// build side becomes a semi join with its keys:
//
//   JOIN INNER ON p = b               MATERIALIZED_CTE t
//     P                                 P  (reduced by the dimensions joined above)
//     B                         =>      JOIN INNER ON p = b
//                                         CTE_SCAN t
//                                         JOIN SEMI ON b = p'     (backward transfer)
//                                           B
//                                           PROJECTION p'
//                                             CTE_SCAN t
//
// Equal answers: P JOIN B on p = b keeps only B rows whose key equals some P row's, which is
// what B SEMI JOIN P on b = p keeps (NULL keys match neither; IS NOT DISTINCT FROM conditions
// are not transferred). A dimension D joined above on P's columns by an inner join (or as a
// semi join's left side) drops every row of P without a match, so P is first semi joined with
// a copy of D: P's fact is pruned by D's keys as the join above would have pruned it. The
// semi join's build side (P's keys) runs first, and the two rules after this one plan its keys'
// filters on B's scan (files skipped by their key bounds, row groups, rows). P's fact is read
// once (its pipeline runs before B's), where a copy of P's keys read it twice. The price: P's
// rows are held in memory and their keys hashed once more; and the join's probe of P is no
// longer pruned by B's keys at the scan (the rows are in memory already). The rule weighs it
// against the reads it may spare, from the estimates: B's fact rows are expected to survive in
// P's kept share of its fact, and every other row spares the columns B's scan reads beyond the
// keys, and a probe. It transfers only when P's fact is read narrowly once reduced (its
// partitions pruned): else P would read every file. Nor when P's key is known to follow its
// partitioning (statistics_transfer.h): then the range of the key over P's kept files, from
// their statistics, bounds B without holding P in memory, and the join keeps its shape, so
// B's keys still prune P's files at the scan. A join considered and left alone says why
// in EXPLAIN (`no backward transfer: ...`).

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include <fmt/format.h>

#include "dynfilter/join_legality.h"
#include "optimizer/optimizer.h"
#include "optimizer/statistics_transfer.h"
#include "planner/plan_copy.h"

namespace shears {

namespace {

// The reads spared must exceed the copy's cost this many times: the estimates are rough, and a
// copy that spares nothing still costs its reads.
constexpr double kMinTransferGain = 2;
// A dimension joined above is copied to reduce the copy only when it is this small.
constexpr double kMaxReducerRows = 100000;

// Whether `op` may be computed twice with the same rows: scans, filters, projections and
// joins of deterministic expressions (no LIMIT or sample choosing rows, no CTE reference
// sharing one computation).
bool Repeatable(LogicalOperator& op) {
  switch (op.type) {
    case LogicalOperatorType::kGet:
    case LogicalOperatorType::kFilter:
    case LogicalOperatorType::kProjection:
    case LogicalOperatorType::kJoin:
      break;
    default:
      return false;
  }
  bool deterministic = true;
  for (BoundExprPtr* expr : op.Expressions()) {
    VisitExpression(**expr, [&](BoundExpr& e) {
      if (e.kind == BoundExprKind::kFunction &&
          !static_cast<BoundFunction&>(e).function.deterministic) {
        deterministic = false;
      }
      if (e.kind == BoundExprKind::kSubquery) deterministic = false;
    });
  }
  if (!deterministic) return false;
  for (auto& child : op.children) {
    if (!Repeatable(*child)) return false;
  }
  return true;
}

// The partitioned fact scan a key of `side` comes from directly (its own values, not through
// a join equality or one input of a set operation), or null.
LogicalGet* DirectFact(LogicalOperator& side, const BoundExpr& key) {
  const auto referenced = ReferencedBindings(key);
  if (referenced.size() != 1) return nullptr;
  for (const TracedColumn& traced : TraceToScans(side, referenced[0])) {
    if (traced.direct && !traced.branch && traced.get->dataset->num_partition_columns() > 0)
      return traced.get;
  }
  return nullptr;
}

struct Context {
  const Settings* settings = nullptr;
  uint32_t next_index = 0;
  uint32_t max_cte_index = 0;
  double max_build_rows = 0;
};

// A join above whose condition every output row of the join being rewritten must still
// satisfy: an inner join (either side) or a semi join (its left side), reached through
// filters, projections and the same joins only.
struct Ancestor {
  LogicalJoin* join;
  size_t side;  // the child the rewritten join is below
};

// A dimension's keys joined above reduce the copy as they reduce the probe side: a copy of
// the dimension (its other side) as a semi join on the copy, when every key of its condition
// is a column the probe side outputs. `share` is multiplied by the dimension's kept share of
// its table (the keys it keeps of those the fact may hold).
LogicalOperatorPtr Reduce(LogicalOperatorPtr copy, LogicalOperator& probe,
                          const std::map<uint32_t, uint32_t>& probe_remap,
                          const std::vector<Ancestor>& ancestors, Context& context, double& share) {
  const auto outputs = probe.GetColumnBindings();
  for (const Ancestor& ancestor : ancestors) {
    LogicalJoin& above = *ancestor.join;
    LogicalOperator& other = *above.children[1 - ancestor.side];
    if (other.estimated_rows < 0 || other.estimated_rows > kMaxReducerRows || !Repeatable(other))
      continue;
    std::vector<const JoinCondition*> conditions;
    for (const auto& c : above.conditions) {
      const BoundExpr& ours = ancestor.side == 0 ? *c.left : *c.right;
      bool produced = ConditionFiltersKeys(c.null_equal);
      for (const auto& b : ReferencedBindings(ours))
        produced = produced && std::find(outputs.begin(), outputs.end(), b) != outputs.end();
      if (produced) conditions.push_back(&c);
    }
    if (conditions.empty()) continue;
    std::map<uint32_t, uint32_t> remap;
    LogicalOperatorPtr reducer = CopyPlan(
        other, [&context] { return context.next_index++; }, remap);
    auto semi = std::make_unique<LogicalJoin>();
    semi->join_kind = JoinKind::kSemi;
    double kept = 1;
    for (const JoinCondition* c : conditions) {
      JoinCondition condition;
      condition.left = (ancestor.side == 0 ? c->left : c->right)->Copy();
      RemapBindings(*condition.left, probe_remap);
      condition.right = (ancestor.side == 0 ? c->right : c->left)->Copy();
      const auto referenced = ReferencedBindings(*condition.right);
      if (referenced.size() == 1) {
        if (const auto source = TraceToSource(other, referenced[0])) {
          const double rows = static_cast<double>(source->get->dataset->total_rows());
          if (rows > 0) kept = std::min(kept, other.estimated_rows / rows);
        }
      }
      RemapBindings(*condition.right, remap);
      semi->conditions.push_back(std::move(condition));
    }
    share *= kept;
    semi->estimated_rows = copy->estimated_rows * kept;
    semi->children.push_back(std::move(copy));
    semi->children.push_back(std::move(reducer));
    copy = std::move(semi);
  }
  return copy;
}

// The largest CTE index in `op` (a transfer's CTE takes the next one).
uint32_t MaxCteIndex(LogicalOperator& op) {
  uint32_t max = 0;
  if (op.type == LogicalOperatorType::kMaterializedCte)
    max = static_cast<LogicalMaterializedCte&>(op).cte_index;
  if (op.type == LogicalOperatorType::kCteScan) max = static_cast<LogicalCteScan&>(op).cte_index;
  for (auto& child : op.children)
    max = std::max(max, MaxCteIndex(*child));
  return max;
}

std::unique_ptr<LogicalCteScan> TransferScan(const LogicalOperator& definition, uint32_t cte_index,
                                             const std::string& name,
                                             std::vector<ColumnBinding> bindings) {
  auto scan = std::make_unique<LogicalCteScan>();
  scan->cte_index = cte_index;
  scan->name = name;
  scan->bindings = std::move(bindings);
  scan->types = definition.GetTypes();
  scan->definition_rows = definition.estimated_rows;
  scan->estimated_rows = definition.estimated_rows;
  return scan;
}

// Rewrites `slot` (the join) when the transfer pays.
void Transfer(LogicalOperatorPtr& slot, const std::vector<Ancestor>& ancestors, Context& context) {
  auto& join = static_cast<LogicalJoin&>(*slot);
  LogicalOperator& probe = *join.children[0];
  LogicalOperator& build = *join.children[1];
  if (probe.estimated_rows < 0 || !Repeatable(probe)) return;
  std::vector<size_t> keys;
  LogicalGet* probe_fact = nullptr;
  LogicalGet* build_fact = nullptr;
  for (size_t i = 0; i < join.conditions.size(); i++) {
    const JoinCondition& c = join.conditions[i];
    if (!ConditionFiltersKeys(c.null_equal)) continue;
    keys.push_back(i);
    if (!probe_fact) probe_fact = DirectFact(probe, *c.left);
    if (!build_fact) build_fact = DirectFact(build, *c.right);
  }
  if (keys.empty() || !probe_fact || !build_fact || probe_fact->dataset == build_fact->dataset)
    return;

  const std::string& build_name = build_fact->table_name;
  if (PartitionsFiltered(build, *build_fact)) {
    join.transfer_note = build_name + "'s partitions are filtered on the build side already";
    return;
  }

  // Decided on a copy of the probe side reduced by the dimensions above (dropped unless it
  // pays); the rewrite then reduces the probe side itself the same way.
  std::map<uint32_t, uint32_t> remap;
  const uint32_t first_index = context.next_index;
  LogicalOperatorPtr copy = CopyPlan(
      probe, [&context] { return context.next_index++; }, remap);
  const double probe_fact_rows =
      static_cast<double>(std::max<int64_t>(1, probe_fact->dataset->total_rows()));
  double share = probe.estimated_rows / probe_fact_rows;
  copy = Reduce(std::move(copy), probe, remap, ancestors, context, share);
  const double rows = copy->estimated_rows;
  const double build_fact_rows = static_cast<double>(build_fact->dataset->total_rows());
  // Whether the probe side's fact is read narrowly once reduced (its partitions pruned by its
  // own filters or the dimensions reducing it): else materializing it reads it whole, where
  // the join's own scan of it would have been pruned by the build side's keys.
  bool narrow = false;
  std::function<void(LogicalOperator&)> visit = [&](LogicalOperator& op) {
    if (op.type == LogicalOperatorType::kGet) {
      auto& get = static_cast<LogicalGet&>(op);
      if (get.dataset == probe_fact->dataset && PartitionsFiltered(*copy, get)) narrow = true;
    }
    for (auto& child : op.children)
      visit(*child);
  };
  visit(*copy);
  context.next_index = first_index;
  copy.reset();
  // The price: the probe side's rows are kept in memory (each of its columns) and their keys
  // hashed once more; its fact is read once, as before.
  const double columns = static_cast<double>(probe.GetColumnBindings().size());
  const double cost = rows * (columns + 1);
  const double other_columns =
      static_cast<double>(build_fact->column_ids.size()) - static_cast<double>(keys.size());
  const double spared =
      build_fact_rows * std::max(0.0, 1 - share) * (std::max(0.0, other_columns) + 1);
  std::string note;
  // A probe key known to follow its partitioning bounds the build fact by the statistics of
  // its kept files instead (statistics_transfer), with no probe row held in memory.
  const auto bounds = narrow ? FindStatisticsTransfer(join, *context.settings) : std::nullopt;
  if (bounds && bounds->spread) {
    note = "the statistics bounds of " + bounds->probe->table_name + "'s " +
           bounds->probe->dataset->columns()[static_cast<size_t>(bounds->probe_column)].name +
           " apply instead";
  } else if (rows > context.max_build_rows) {
    note = fmt::format(
        "the probe side is estimated at {:.0f} rows, above runtime_filter.max_build_size", rows);
  } else if (!narrow) {
    note = fmt::format("the probe side would read every partition of {}", probe_fact->table_name);
  } else if (spared < kMinTransferGain * cost) {
    note = fmt::format(
        "keeping the probe side's {:.0f} rows would cost about {:.0f} values to spare about "
        "{:.0f} values of {} (the probe side keeps {:.2g} of its fact)",
        rows, cost, spared, build_name, share);
  }
  if (!note.empty()) {
    join.transfer_note = std::move(note);
    return;
  }

  // The probe side, reduced, computed once: the join probes its rows under their own
  // bindings, and the semi join on the build side builds on their keys, read by a second scan
  // of the same rows under fresh bindings.
  const std::vector<ColumnBinding> probe_bindings = probe.GetColumnBindings();
  double reduced_share = share;
  LogicalOperatorPtr definition =
      Reduce(std::move(join.children[0]), probe, {}, ancestors, context, reduced_share);
  const uint32_t cte_index = ++context.max_cte_index;
  const std::string name =
      "transfer " + std::to_string(cte_index) + " of " + probe_fact->table_name;
  join.children[0] = TransferScan(*definition, cte_index, name, probe_bindings);
  const uint32_t keys_scan_index = context.next_index++;
  std::vector<ColumnBinding> keys_bindings;
  std::map<ColumnBinding, ColumnBinding> to_keys_scan;
  for (size_t i = 0; i < probe_bindings.size(); i++) {
    keys_bindings.push_back({keys_scan_index, static_cast<uint32_t>(i)});
    to_keys_scan[probe_bindings[i]] = keys_bindings.back();
  }
  auto keys_projection = std::make_unique<LogicalProjection>();
  keys_projection->table_index = context.next_index++;
  auto semi = std::make_unique<LogicalJoin>();
  semi->join_kind = JoinKind::kSemi;
  for (size_t i : keys) {
    const JoinCondition& c = join.conditions[i];
    BoundExprPtr key = c.left->Copy();
    VisitExpression(*key, [&](BoundExpr& e) {
      if (e.kind != BoundExprKind::kColumnRef) return;
      auto& ref = static_cast<BoundColumnRef&>(e);
      ref.binding = to_keys_scan.at(ref.binding);
    });
    const LogicalType type = key->type;
    keys_projection->expressions.push_back(std::move(key));
    JoinCondition condition;
    condition.left = c.right->Copy();
    condition.right = std::make_unique<BoundColumnRef>(
        type,
        ColumnBinding{keys_projection->table_index,
                      static_cast<uint32_t>(keys_projection->expressions.size() - 1)},
        "transferred " + c.left->ToString());
    semi->conditions.push_back(std::move(condition));
  }
  keys_projection->children.push_back(
      TransferScan(*definition, cte_index, name, std::move(keys_bindings)));
  keys_projection->estimated_rows = definition->estimated_rows;
  semi->estimated_rows = build.estimated_rows;
  semi->children.push_back(std::move(join.children[1]));
  semi->children.push_back(std::move(keys_projection));
  join.children[1] = std::move(semi);

  auto materialized = std::make_unique<LogicalMaterializedCte>();
  materialized->cte_index = cte_index;
  materialized->name = name;
  materialized->estimated_rows = join.estimated_rows;
  materialized->children.push_back(std::move(definition));
  materialized->children.push_back(std::move(slot));
  slot = std::move(materialized);
}

void Visit(LogicalOperatorPtr& slot, std::vector<Ancestor>& ancestors, Context& context) {
  LogicalOperator& op = *slot;
  auto* join = op.type == LogicalOperatorType::kJoin ? static_cast<LogicalJoin*>(&op) : nullptr;
  const bool passes =
      op.type == LogicalOperatorType::kFilter || op.type == LogicalOperatorType::kProjection ||
      (join && (join->join_kind == JoinKind::kInner || join->join_kind == JoinKind::kSemi));
  for (size_t i = 0; i < op.children.size(); i++) {
    std::vector<Ancestor> below;
    if (passes) {
      below = ancestors;
      if (join && !join->conditions.empty() && (i == 0 || join->join_kind == JoinKind::kInner))
        below.push_back({join, i});
      if (join && i == 1 && join->join_kind == JoinKind::kSemi) below.clear();
    }
    Visit(op.children[i], below, context);
  }
  // Ancestors of the join itself only (not the join: its probe side is what gets reduced).
  if (join && join->join_kind == JoinKind::kInner && !join->conditions.empty())
    Transfer(slot, ancestors, context);
}

}  // namespace

void TransferPredicatesBackward(LogicalOperatorPtr& plan, const Settings& settings) {
  if (!settings.GetBool("dynamic_filtering")) return;
  Context context;
  context.settings = &settings;
  context.next_index = MaxTableIndex(*plan) + 1;
  context.max_build_rows = static_cast<double>(settings.GetInt("runtime_filter.max_build_size"));
  context.max_cte_index = MaxCteIndex(*plan);
  std::vector<Ancestor> none;
  Visit(plan, none, context);
}

}  // namespace shears

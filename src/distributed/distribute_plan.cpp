#include "distributed/distribute_plan.h"

#include <fmt/format.h>

#include <functional>

#include "distributed/filter_merge.h"
#include "distributed/physical_gather.h"
#include "distributed/physical_join_side.h"
#include "distributed/physical_shuffle.h"
#include "distributed/split_coordinator.h"
#include "execution/operator/physical_filter.h"
#include "execution/operator/physical_hash_aggregate.h"
#include "execution/operator/physical_hash_join.h"
#include "execution/operator/physical_limit.h"
#include "execution/operator/physical_order.h"
#include "execution/operator/physical_projection.h"
#include "execution/operator/physical_recursive_cte.h"
#include "execution/operator/physical_table_scan.h"

namespace shears {

namespace {

/// limit + offset, the rows a rank keeps for a LIMIT above it, without overflowing.
int64_t RowsToKeep(int64_t limit, int64_t offset) {
  return limit > INT64_MAX - offset ? INT64_MAX : limit + offset;
}

/// A step of the path from the root to the fact scan: `op`'s child `child` continues it.
struct Step {
  PhysicalOperator* op;
  size_t child;
};

/// Whether `op` treats each row of its child `child` by itself, so running it on each rank's
/// share of that child and concatenating gives what it gives on all rows.
bool RowByRow(const PhysicalOperator& op, size_t child) {
  if (dynamic_cast<const PhysicalFilter*>(&op) || dynamic_cast<const PhysicalProjection*>(&op))
    return true;
  if (auto* join = dynamic_cast<const PhysicalHashJoin*>(&op)) {
    // The probe side; RIGHT and FULL joins also emit the build rows no probe row matched,
    // which only all probe rows together decide.
    const JoinKind kind = join->join_kind();
    return child == 0 &&
           (kind == JoinKind::kInner || kind == JoinKind::kLeft || kind == JoinKind::kSemi ||
            kind == JoinKind::kAnti || kind == JoinKind::kMark);
  }
  return false;
}

/// The key columns of the aggregate's rows: its groups, or with GROUPING SETS the keys of the
/// sets it folds its finest groups into (each set's keys and its id, so grouping by them again
/// keeps the sets apart).
size_t ResultKeys(const PhysicalHashAggregate& agg) {
  return agg.types().size() - agg.aggregates().size();
}

/// The aggregate as partial (per rank) and final (at rank 0) aggregates, or null when one of
/// its aggregates does not combine that way.
std::unique_ptr<PhysicalHashAggregate> FinalAggregate(const PhysicalHashAggregate& agg) {
  if (!agg.empty_input_groups().empty()) return nullptr;
  const size_t groups = ResultKeys(agg);
  const auto& types = agg.types();
  std::vector<BoundExprPtr> final_groups, final_aggregates;
  for (size_t g = 0; g < groups; g++)
    final_groups.push_back(std::make_unique<BoundReference>(types[g], g, "#" + std::to_string(g)));
  for (size_t a = 0; a < agg.aggregates().size(); a++) {
    const auto& aggregate = static_cast<const BoundAggregate&>(*agg.aggregates()[a]);
    if (aggregate.distinct || !aggregate.extra_args.empty()) return nullptr;
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
        return nullptr;
    }
    const size_t column = groups + a;
    auto final_aggregate = std::make_unique<BoundAggregate>(
        kind, aggregate.type,
        std::make_unique<BoundReference>(types[column], column, "#" + std::to_string(column)),
        false);
    final_aggregates.push_back(std::move(final_aggregate));
  }
  // The partial aggregate's columns have the final one's types: a count is a BIGINT, a sum,
  // min or max has its result's type.
  return std::make_unique<PhysicalHashAggregate>(types, std::move(final_groups),
                                                 std::move(final_aggregates));
}

enum class JoinChoice { kBroadcast, kShuffle, kNone };

/// How the hash join `join` over the split share at its child `child` runs on the ranks:
/// broadcast (every rank builds the whole build side; the probe side must be the share), shuffle
/// (both sides partitioned by key hash; a MARK join only with the share on its probe side: its
/// NULL rule asks about the whole build side, which HASH_SELECT keeps enough of on every rank),
/// or neither (its rows meet at rank 0).
JoinChoice ChooseJoin(const PhysicalHashJoin& join, size_t child, const DistributeOptions& options,
                      int ranks, bool share_fills_filters) {
  const bool can_broadcast = RowByRow(join, child);
  const bool can_shuffle = ranks > 1 && (join.join_kind() != JoinKind::kMark || child == 0) &&
                           !join.left_keys().empty() && !share_fills_filters;
  if (options.join == "broadcast") return can_broadcast ? JoinChoice::kBroadcast : JoinChoice::kNone;
  if (options.join == "shuffle" || !can_broadcast) {
    if (can_shuffle) return JoinChoice::kShuffle;
    return can_broadcast ? JoinChoice::kBroadcast : JoinChoice::kNone;
  }
  // auto: a build side too large to build on every rank is partitioned instead, unless the
  // probe rows a shuffle moves outnumber the build rows a broadcast repeats on every rank
  // (a star join's fact usually does).
  const double build = join.children()[1]->estimated_rows;
  const double probe = join.children()[0]->estimated_rows;
  return can_shuffle && build >= static_cast<double>(options.shuffle_join_rows) &&
                 build * ranks >= probe
             ? JoinChoice::kShuffle
             : JoinChoice::kBroadcast;
}

std::vector<BoundExprPtr> CopyExprs(const std::vector<BoundExprPtr>& exprs) {
  std::vector<BoundExprPtr> out;
  for (const auto& expr : exprs)
    out.push_back(expr->Copy());
  return out;
}

/// Makes `join` a shuffle join: its child `child` (the split share) is shuffled by its keys,
/// and each rank keeps of the other side (computed in full by every rank) the rows whose keys
/// hash to it, so both sides' rows of a key meet on one rank, which joins them as shears alone
/// would: every join kind, RIGHT and FULL ones too (MARK ones with the share as their probe
/// side).
void ShuffleJoin(PhysicalHashJoin& join, size_t child, const std::shared_ptr<MpiQueryShare>& share) {
  const bool probe_split = child == 0;
  const std::string split_side = probe_split ? "probe" : "build";
  const std::string whole_side = probe_split ? "build" : "probe";
  PhysicalOperatorPtr& split = join.children()[child];
  PhysicalOperatorPtr& whole = join.children()[1 - child];
  auto exchange = std::make_unique<PhysicalShuffle>(
      split->types(), CopyExprs(probe_split ? join.left_keys() : join.right_keys()), share,
      "the " + split_side + " side of a shuffle join");
  exchange->estimated_rows = split->estimated_rows;
  exchange->AddChild(std::move(split));
  split = std::move(exchange);
  auto select = std::make_unique<PhysicalHashSelect>(
      whole->types(), CopyExprs(probe_split ? join.right_keys() : join.left_keys()), share,
      "the " + whole_side + " side of a shuffle join", join.join_kind() == JoinKind::kMark);
  select->estimated_rows = whole->estimated_rows / share->size;
  select->AddChild(std::move(whole));
  whole = std::move(select);
  // Each rank's build side holds the keys hashing to it: its runtime filters are merged into
  // the whole build side's before a scan uses them.
  if (!join.SinkProducedDynamicFilters().empty())
    join.SetPartialFilterMerge(std::make_shared<MpiFilterMerge>(share));
}

void Describe(const PhysicalOperator& op, std::string& out) {
  out += op.Describe();
  out += '|' + std::to_string(op.estimated_rows) + '(';
  for (const auto& child : op.children())
    Describe(*child, out);
  out += ')';
}

}  // namespace

PhysicalOperatorPtr RankShare(PhysicalOperatorPtr plan, int rank) {
  if (rank == 0) return plan;
  // The gather's slot in its parent (or the root).
  std::function<PhysicalOperatorPtr*(PhysicalOperatorPtr&)> find = [&](PhysicalOperatorPtr& op) {
    if (dynamic_cast<PhysicalGather*>(op.get())) return &op;
    for (auto& child : op->children()) {
      if (auto* found = find(child)) return found;
    }
    return static_cast<PhysicalOperatorPtr*>(nullptr);
  };
  PhysicalOperatorPtr* gather = find(plan);
  if (!gather) return plan;
  auto share = std::make_unique<PhysicalNoRows>(plan->types());
  share->AddChild(std::move(*gather));
  return share;
}

uint64_t TextFingerprint(std::string_view text) {
  // FNV-1a: the same on every rank (std::hash need not be).
  uint64_t hash = 1469598103934665603ull;
  for (unsigned char c : text)
    hash = (hash ^ c) * 1099511628211ull;
  return hash;
}

uint64_t PlanFingerprint(const PhysicalOperator& plan) {
  std::string text;
  Describe(plan, text);
  return TextFingerprint(text);
}

namespace {

/// The table scan over the most bytes (the first such in plan order), with the path to it.
PhysicalTableScan* FindFact(PhysicalOperator& plan, std::vector<Step>& best_path) {
  std::vector<Step> path;
  PhysicalTableScan* fact = nullptr;
  uint64_t fact_bytes = 0;
  std::function<void(PhysicalOperator&)> find = [&](PhysicalOperator& op) {
    if (auto* scan = dynamic_cast<PhysicalTableScan*>(&op)) {
      if (!fact || scan->PlannedBytes() > fact_bytes) {
        fact = scan;
        fact_bytes = scan->PlannedBytes();
        best_path = path;
      }
    }
    // A recursive CTE runs its terms once per iteration, each time over what the last one
    // produced: not a plan to split.
    if (dynamic_cast<PhysicalRecursiveCte*>(&op)) return;
    for (size_t i = 0; i < op.children().size(); i++) {
      path.push_back({&op, i});
      find(*op.children()[i]);
      path.pop_back();
    }
  };
  find(plan);
  return fact;
}

}  // namespace

const PhysicalTableScan* FactScan(PhysicalOperator& plan) {
  std::vector<Step> path;
  return FindFact(plan, path);
}

PhysicalOperatorPtr DistributePlan(PhysicalOperatorPtr plan, std::shared_ptr<MpiQueryShare> share,
                                   const DistributeOptions& options) {
  if (!options.split_fact) return plan;
  std::vector<Step> best_path;
  PhysicalTableScan* fact = FindFact(*plan, best_path);
  if (!fact) return plan;

  auto scan_stats = std::make_shared<DistributedScanStats>();
  fact->SetFileAssignment([share, scan_stats] { return MakeFileAssignment(share, scan_stats); });
  // Up from the scan while operators treat rows one by one: the first that does not is where
  // the ranks' rows meet.
  size_t top = best_path.size();  // best_path[top - 1].op is the first not row-by-row, if any
  while (top > 0) {
    auto [op, child] = best_path[top - 1];
    auto* join = dynamic_cast<PhysicalHashJoin*>(op);
    if (!join) {
      if (!RowByRow(*op, child)) break;
      top--;
      continue;
    }
    // A filter filled from the rows of this rank's share holds only this rank's keys: a
    // shuffle would carry rows away from the ranks it was applied on.
    bool share_fills_filters = !fact->ProducedDynamicFilters().empty();
    for (size_t i = top; i < best_path.size(); i++)
      share_fills_filters = share_fills_filters || !best_path[i].op->ProducedDynamicFilters().empty();
    const JoinChoice choice = ChooseJoin(*join, child, options, share->size, share_fills_filters);
    if (choice == JoinChoice::kNone) break;
    if (choice == JoinChoice::kShuffle) {
      ShuffleJoin(*join, child, share);
    } else if (child == 0) {
      PhysicalOperatorPtr& build = join->children()[1];
      auto broadcast = std::make_unique<PhysicalBroadcast>(
          build->types(), fmt::format("estimated {:.0f} rows", build->estimated_rows));
      broadcast->estimated_rows = build->estimated_rows;
      broadcast->AddChild(std::move(build));
      build = std::move(broadcast);
    }
    top--;
  }
  auto gather_of = [&](PhysicalOperatorPtr input) {
    auto gather = std::make_unique<PhysicalGather>(input->types(), share, scan_stats);
    gather->estimated_rows = input->estimated_rows;
    gather->AddChild(std::move(input));
    return gather;
  };
  if (top == 0) return gather_of(std::move(plan));  // the whole plan is row by row

  // `slot` holds the breaker; its child `child` is the share every rank computes.
  PhysicalOperatorPtr* slot =
      top == 1 ? &plan : &best_path[top - 2].op->children()[best_path[top - 2].child];
  PhysicalOperator& breaker = **slot;
  const size_t child = best_path[top - 1].child;
  PhysicalOperatorPtr share_plan = std::move(breaker.children()[child]);

  if (auto* agg = dynamic_cast<PhysicalHashAggregate*>(&breaker)) {
    if (auto final_agg = FinalAggregate(*agg)) {
      // The breaker becomes the partial aggregate, under the final one.
      breaker.children()[child] = std::move(share_plan);
      final_agg->estimated_rows = breaker.estimated_rows;
      const size_t groups = ResultKeys(*agg);
      const bool shuffle =
          groups > 0 && (options.shuffle_groups == 0 ||
                         breaker.estimated_rows >= static_cast<double>(options.shuffle_groups));
      if (!shuffle) {  // partial, gather, final at rank 0
        final_agg->AddChild(gather_of(std::move(*slot)));
        *slot = std::move(final_agg);
        return plan;
      }
      // Partial, shuffle by the group keys, final on every rank, gather of the groups.
      std::vector<BoundExprPtr> keys;
      for (size_t g = 0; g < groups; g++) {
        keys.push_back(std::make_unique<BoundReference>(breaker.types()[g], g,
                                                        "#" + std::to_string(g)));
      }
      auto exchange = std::make_unique<PhysicalShuffle>(breaker.types(), std::move(keys), share,
                                                        "of partial groups");
      exchange->estimated_rows = breaker.estimated_rows;
      exchange->AddChild(std::move(*slot));
      final_agg->AddChild(std::move(exchange));
      *slot = gather_of(std::move(final_agg));
      return plan;
    }
  }
  if (auto* top_n = dynamic_cast<PhysicalTopN*>(&breaker)) {
    // Each rank's first limit + offset rows, merged at rank 0.
    std::vector<BoundOrderBy> orders;
    for (const auto& o : top_n->orders())
      orders.push_back(o.Copy());
    auto local = std::make_unique<PhysicalTopN>(share_plan->types(), std::move(orders),
                                                RowsToKeep(top_n->limit(), top_n->offset()), 0);
    local->estimated_rows = top_n->estimated_rows;
    local->AddChild(std::move(share_plan));
    share_plan = std::move(local);
  } else if (auto* limit = dynamic_cast<PhysicalLimit*>(&breaker); limit && limit->limit() >= 0) {
    auto local = std::make_unique<PhysicalLimit>(share_plan->types(),
                                                 RowsToKeep(limit->limit(), limit->offset()), 0);
    local->estimated_rows = limit->estimated_rows;
    local->AddChild(std::move(share_plan));
    share_plan = std::move(local);
  }
  breaker.children()[child] = gather_of(std::move(share_plan));
  return plan;
}

}  // namespace shears

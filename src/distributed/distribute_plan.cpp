#include "distributed/distribute_plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "distributed/filter_merge.h"
#include "distributed/physical_gather.h"
#include "distributed/physical_join_side.h"
#include "distributed/physical_shuffle.h"
#include "distributed/split_aggregate.h"
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
  // Eager aggregation's partial aggregate below a join: the final aggregate above combines its
  // groups whatever rows they come from (it may pass rows through unaggregated as it is), so
  // each rank's partial groups will do, and the join above runs on every rank.
  if (auto* agg = dynamic_cast<const PhysicalHashAggregate*>(&op)) return agg->reaggregated_above();
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
  if (options.join == "broadcast")
    return can_broadcast ? JoinChoice::kBroadcast : JoinChoice::kNone;
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

/// The table scan at the bottom of `side` when only filters and projections lie between
/// (each rank may then read a share of its files), else null.
PhysicalTableScan* PlainScan(PhysicalOperator& side, const DistributeOptions& options) {
  PhysicalOperator* op = &side;
  while (dynamic_cast<PhysicalFilter*>(op) || dynamic_cast<PhysicalProjection*>(op)) {
    if (op->children().size() != 1) return nullptr;
    op = op->children()[0].get();
  }
  auto* scan = dynamic_cast<PhysicalTableScan*>(op);
  const auto& shared = options.shared_scans;
  return scan && !scan->distributed() &&
                 std::find(shared.begin(), shared.end(), scan) != shared.end()
             ? scan
             : nullptr;
}

/// Makes `join` a shuffle join: its child `child` (the split share) is shuffled by its keys.
/// The other side, when it is a large scan (estimated at distributed.shuffle_join_rows rows
/// or more, or any scan when every join is shuffled) under filters and projections, is split
/// over the ranks too and shuffled by its keys; otherwise every rank computes it in full and
/// keeps the rows whose keys hash to it (HASH_SELECT: nothing of it crosses the network, but
/// every rank reads it all). Either way both sides' rows of a key meet on one rank, which
/// joins them as shears alone would: every join kind, RIGHT and FULL ones too (MARK ones with
/// the share as their probe side, and that side always selected: its NULL rule asks about the
/// whole build side, which HASH_SELECT keeps enough of on every rank).
void ShuffleJoin(PhysicalHashJoin& join, size_t child, const std::shared_ptr<MpiQueryShare>& share,
                 const DistributeOptions& options, int& scans) {
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
  const auto& whole_keys = probe_split ? join.right_keys() : join.left_keys();
  PhysicalTableScan* other_scan =
      join.join_kind() == JoinKind::kMark ? nullptr : PlainScan(*whole, options);
  if (other_scan &&
      (options.join == "shuffle" ||
       other_scan->estimated_rows >= static_cast<double>(options.shuffle_join_rows))) {
    const int scan = scans++;
    auto stats = std::make_shared<DistributedScanStats>();
    other_scan->SetFileAssignment(
        [share, stats, scan] { return MakeFileAssignment(share, stats, scan); });
    auto other = std::make_unique<PhysicalShuffle>(whole->types(), CopyExprs(whole_keys), share,
                                                   "the " + whole_side + " side of a shuffle join");
    other->estimated_rows = whole->estimated_rows;
    other->AddChild(std::move(whole));
    whole = std::move(other);
  } else {
    auto select = std::make_unique<PhysicalHashSelect>(
        whole->types(), CopyExprs(whole_keys), share,
        "the " + whole_side + " side of a shuffle join", join.join_kind() == JoinKind::kMark);
    select->estimated_rows = whole->estimated_rows / share->size;
    select->AddChild(std::move(whole));
    whole = std::move(select);
  }
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

std::vector<const PhysicalTableScan*> TableScans(const PhysicalOperator& plan) {
  std::vector<const PhysicalTableScan*> scans;
  std::function<void(const PhysicalOperator&)> find = [&](const PhysicalOperator& op) {
    if (auto* scan = dynamic_cast<const PhysicalTableScan*>(&op)) scans.push_back(scan);
    for (const auto& child : op.children())
      find(*child);
  };
  find(plan);
  return scans;
}

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
  fact->SetFileAssignment([share, scan_stats] { return MakeFileAssignment(share, scan_stats, 0); });
  int scans = 1;  // distributed scans so far
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
    // A partition filter built from the rows of this rank's share (the share on the build side
    // of this join or one below) holds only this rank's keys: a shuffle would carry rows away
    // from the ranks it was applied on.
    bool share_fills_filters = false;
    for (size_t i = top - 1; i < best_path.size(); i++) {
      share_fills_filters =
          share_fills_filters ||
          (best_path[i].child == 1 && best_path[i].op->SinkProducesPartitionFilters());
    }
    const JoinChoice choice = ChooseJoin(*join, child, options, share->size, share_fills_filters);
    if (choice == JoinChoice::kNone) break;
    if (choice == JoinChoice::kShuffle) {
      ShuffleJoin(*join, child, share, options, scans);
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
    AggregateSplit split = SplitAggregate(*agg);
    if (auto final_agg = std::move(split.final_aggregate)) {
      const double groups_estimate = breaker.estimated_rows;
      final_agg->estimated_rows = groups_estimate;
      if (split.partial) {  // a partial aggregate of its own replaces the breaker
        split.partial->estimated_rows = groups_estimate;
        split.partial->AddChild(std::move(share_plan));
        *slot = std::move(split.partial);
      } else {  // the breaker becomes the partial aggregate
        breaker.children()[child] = std::move(share_plan);
      }
      PhysicalOperator& partial = **slot;
      const bool shuffle =
          split.keys > 0 && (options.shuffle_groups == 0 ||
                             groups_estimate >= static_cast<double>(options.shuffle_groups));
      if (!shuffle) {  // partial, gather, final at rank 0
        final_agg->AddChild(gather_of(std::move(*slot)));
        *slot = std::move(final_agg);
        return plan;
      }
      // Partial, shuffle by the group keys, final on every rank, gather of the groups.
      std::vector<BoundExprPtr> keys;
      for (size_t g = 0; g < split.keys; g++) {
        keys.push_back(
            std::make_unique<BoundReference>(partial.types()[g], g, "#" + std::to_string(g)));
      }
      auto exchange = std::make_unique<PhysicalShuffle>(partial.types(), std::move(keys), share,
                                                        "of partial groups");
      exchange->estimated_rows = groups_estimate;
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

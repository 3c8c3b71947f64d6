// build_side: hash joins build on their right child; make that the input estimated to be
// smaller (the dimension side of a star join), so the hash table is small and the big side
// streams through it. Inner and full joins swap as they are; a LEFT join swapped is a RIGHT
// join (and back), which also puts a fact on the NULL-extended side of `dim LEFT JOIN fact`
// on the probe side, where dynamic filters may prune it. Semi and anti joins whose outer side
// is the smaller become RIGHT_SEMI / RIGHT_ANTI joins (see SwapExistenceJoin); mark joins keep
// their sides. With dynamic filtering on, a build side whose keys reach a large scan on the
// probe side (and would filter it) stays, and an aggregate over a large scan its keys reach
// goes to the probe side of a smaller dimension (see Visit). When both sides
// are pruned facts (fact to fact), the side its own filters pruned to the smaller share of
// its fact builds, so its narrower keys prune the other fact (see PrunedFactShare).

#include <algorithm>

#include "optimizer/optimizer.h"

namespace shears {

namespace {

// The rows of the largest scan the join keys of one side come from directly: what a dynamic
// filter built from the other side could prune. Scans reached only transitively (through a
// join below on the same key) are left out: that join already filters them.
double FilterableRows(LogicalOperator& side, const LogicalJoin& join, bool left) {
  double rows = 0;
  for (const auto& condition : join.conditions) {
    const auto referenced = ReferencedBindings(left ? *condition.left : *condition.right);
    if (referenced.size() != 1) continue;
    // Through a UNION every input's scan is filtered: their rows add up.
    double key_rows = 0;
    for (const TracedColumn& traced : TraceToScans(side, referenced[0])) {
      if (traced.direct) key_rows += static_cast<double>(traced.get->dataset->total_rows());
    }
    rows = std::max(rows, key_rows);
  }
  return rows;
}

// Whether a join key of one side comes directly from a partition column of a scan there: the
// other side's keys would prune whole files.
bool KeysReachPartitions(LogicalOperator& side, const LogicalJoin& join, bool left) {
  for (const auto& condition : join.conditions) {
    const auto referenced = ReferencedBindings(left ? *condition.left : *condition.right);
    if (referenced.size() != 1) continue;
    for (const TracedColumn& traced : TraceToScans(side, referenced[0])) {
      if (traced.direct &&
          static_cast<size_t>(traced.column_id) >= traced.get->dataset->num_file_columns())
        return true;
    }
  }
  return false;
}

bool Contains(const LogicalOperator& op, LogicalOperatorType type) {
  if (op.type == type) return true;
  for (const auto& child : op.children) {
    if (Contains(*child, type)) return true;
  }
  return false;
}

// For a side of a fact-to-fact join: the share of its partitioned fact its own filters and
// joins keep (estimated rows / the fact's rows), or -1 when its keys reach no partitioned
// scan directly, or when an aggregate or set operation makes its rows no measure of that.
// The side keeping the smaller share builds: its keys cover less of the key domain the two
// facts share, and where keys follow the partitioning (tickets numbered by sale date, returns
// carrying their sale's ticket) they prune whole files of the other fact, which the other
// way round they would not. Returns of the second half of 2001 joined to their sales of July
// 2001: the sales (1.5% of their fact) build, and their tickets skip 65 of the 184 return
// partitions by the files' ticket bounds.
double PrunedFactShare(LogicalOperator& side, const LogicalJoin& join, bool left) {
  if (side.estimated_rows < 0 || Contains(side, LogicalOperatorType::kAggregate) ||
      Contains(side, LogicalOperatorType::kSetOperation)) {
    return -1;
  }
  double fact_rows = 0;
  for (const auto& condition : join.conditions) {
    const auto referenced = ReferencedBindings(left ? *condition.left : *condition.right);
    if (referenced.size() != 1) continue;
    for (const TracedColumn& traced : TraceToScans(side, referenced[0])) {
      const Dataset& dataset = *traced.get->dataset;
      if (traced.direct && !traced.branch && dataset.num_partition_columns() > 0)
        fact_rows = std::max(fact_rows, static_cast<double>(dataset.total_rows()));
    }
  }
  if (fact_rows <= 0) return -1;
  return side.estimated_rows / fact_rows;
}

// How much larger (estimated rows) the narrower fact side may be and still build. The hash
// table is built by one thread after the build side finished, so each extra build row costs
// more than a probe-side row its keys skip in a file: returns of the second half of 2001
// joined to their sales of July 2001 (430,000 sales, 268,000 returns at scale 10, estimated
// 4.2 times as many sales) took a median 188 ms with the sales building (119 return files
// read) and 154 ms with the returns building (184 files), under the same load.
constexpr double kMaxNarrowBuildRatio = 2;

// A SEMI or ANTI join builds on its subquery side. When the outer side is estimated smaller
// it becomes a RIGHT_SEMI / RIGHT_ANTI join building on the outer rows instead: the subquery's
// rows probe, each (with its residual) marking the outer rows it matches, and the join emits
// the marked (unmarked) outer rows at the end. The hash table is then the small side, and its
// keys filter the subquery's scan at run time: `EXISTS (SELECT * FROM web_sales ws2 WHERE
// ws1.ws_order_number = ws2.ws_order_number AND ws1.ws_warehouse_sk <> ws2.ws_warehouse_sk)`
// below filtered orders no longer hashes all of web_sales. (MARK joins keep their sides.)
void SwapExistenceJoin(LogicalJoin& join) {
  const double outer = join.children[0]->estimated_rows;
  const double subquery = join.children[1]->estimated_rows;
  if (outer < 0 || subquery < 0 || !(outer < subquery)) return;
  std::swap(join.children[0], join.children[1]);
  for (auto& c : join.conditions)
    std::swap(c.left, c.right);
  join.join_kind = join.join_kind == JoinKind::kSemi ? JoinKind::kRightSemi : JoinKind::kRightAnti;
}

struct Options {
  bool dynamic_filtering = false;
  double max_build_rows = 0;
  double min_filter_ratio = 0;
};

void Visit(LogicalOperator& op, const Options& options) {
  const bool dynamic_filtering = options.dynamic_filtering;
  for (auto& child : op.children)
    Visit(*child, options);
  if (op.type != LogicalOperatorType::kJoin) return;
  auto& join = static_cast<LogicalJoin&>(op);
  if (join.conditions.empty()) {
    // A nested loop join materializes its right input: make that the smaller one (the one-row
    // side of uncorrelated scalar subqueries), which also lets its bounds prune the other.
    if ((join.join_kind == JoinKind::kInner || join.join_kind == JoinKind::kCross) &&
        join.children[0]->estimated_rows >= 0 &&
        join.children[0]->estimated_rows < join.children[1]->estimated_rows) {
      std::swap(join.children[0], join.children[1]);
    }
    return;
  }
  if (join.join_kind == JoinKind::kSemi || join.join_kind == JoinKind::kAnti) {
    SwapExistenceJoin(join);
    return;
  }
  if (join.join_kind != JoinKind::kInner && join.join_kind != JoinKind::kFull &&
      join.join_kind != JoinKind::kLeft && join.join_kind != JoinKind::kRight) {
    return;
  }
  const double left = join.children[0]->estimated_rows;
  const double right = join.children[1]->estimated_rows;
  if (left < 0 || right < 0) return;
  bool swap = left < right;
  if (dynamic_filtering && join.join_kind == JoinKind::kInner) {
    // A dimension joined above a fact that other joins made small stays the build side when its
    // keys reach a larger scan on the probe side than the swapped sides would: it runs first and
    // its keys prune that scan (partitions, row groups, rows), which the estimate of the probe
    // side's output does not count.
    const double left_scan = FilterableRows(*join.children[0], join, true);
    const double right_scan = FilterableRows(*join.children[1], join, false);
    // Only keys that would filter (runtime_filter's estimate, 1 - build rows / scan rows, at
    // least runtime_filter.min_filter_ratio) pay for the larger build: all 1.9 million
    // customer_demographics rows built for 45 rows of TPC-DS q64 prune nothing.
    const bool right_keys_filter = right <= left_scan * (1 - options.min_filter_ratio);
    if (swap && left_scan > right && left_scan > right_scan && right_keys_filter) swap = false;
    // Fact to fact: the side keeping the smaller share of its fact builds, when that share is
    // clearly smaller (half) and its hash table stays small enough for a runtime filter and at
    // most kMaxNarrowBuildRatio times the other side's.
    const double left_share = PrunedFactShare(*join.children[0], join, true);
    const double right_share = PrunedFactShare(*join.children[1], join, false);
    if (left_share >= 0 && right_share >= 0) {
      if (left_share * 2 < right_share && left <= options.max_build_rows &&
          left <= kMaxNarrowBuildRatio * right) {
        swap = true;
      } else if (right_share * 2 < left_share && right <= options.max_build_rows &&
                 right <= kMaxNarrowBuildRatio * left) {
        swap = false;
      }
    }
    // Likewise an aggregate over a fact (eager_aggregation's partial aggregate, a reversed semi
    // join's keys) estimated below the dimension it joins goes to the probe side when its keys
    // reach a larger scan, or partitions the dimension's keys cannot reach on its side.
    const size_t build = swap ? 0 : 1;
    LogicalOperator& build_side = *join.children[build];
    LogicalOperator& probe_side = *join.children[1 - build];
    const double build_scan = build == 0 ? left_scan : right_scan;
    const double probe_scan = build == 0 ? right_scan : left_scan;
    if (build_side.type == LogicalOperatorType::kAggregate &&
        build_scan > probe_side.estimated_rows &&
        (build_scan > probe_scan || (KeysReachPartitions(build_side, join, build == 0) &&
                                     !KeysReachPartitions(probe_side, join, build == 1))))
      swap = !swap;
  }
  if (!swap) return;
  std::swap(join.children[0], join.children[1]);
  for (auto& c : join.conditions)
    std::swap(c.left, c.right);
  if (join.join_kind == JoinKind::kLeft) {
    join.join_kind = JoinKind::kRight;
  } else if (join.join_kind == JoinKind::kRight) {
    join.join_kind = JoinKind::kLeft;
  }
  // Output column order changes; a projection above keeps the original order.
}

}  // namespace

void ChooseBuildSides(LogicalOperatorPtr& plan, const Settings& settings) {
  Options options;
  options.dynamic_filtering = settings.GetBool("dynamic_filtering");
  options.max_build_rows = static_cast<double>(settings.GetInt("runtime_filter.max_build_size"));
  options.min_filter_ratio = settings.GetDouble("runtime_filter.min_filter_ratio");
  Visit(*plan, options);
}

}  // namespace shears

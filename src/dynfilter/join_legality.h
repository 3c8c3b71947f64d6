#pragma once
// Join-type legality of dynamic filters, in one place: which side of which join a filter built
// from the other side may prune, how NULL keys behave, and when an anti join prunes by the
// complement. The planning rules (dynamic_partition_pruning, runtime_filter, trace_key,
// semi_join_reversal, predicate_transfer) ask here about a join described without its plan
// (JoinFilterShape; planner/logical_plan.h's LogicalJoin::FilterShape makes one), so this sits
// with the filters, below storage; at run time the scan's partition check applies the mode
// they chose (PartitionMayJoin in dynamic_filter.h).
//
//   join        filter on the probe (left) side    a key filter above     transfers a = b
//                                                  passes into
//   INNER       keep keys in the build set         either side            yes
//   SEMI        keep                               left                   yes
//   RIGHT       keep (only unmatched build rows)   right (kept side)      no
//   ANTI        skip partitions whose key is in    left                   no
//               the set (one condition, no residual: such rows all go)
//   LEFT        none: unmatched probe rows stay    left (kept side)       no
//   FULL        none                               neither                no
//   MARK        none: every probe row stays,       left                   no
//               unless a filter above keeps only
//               `mark OR key IS NULL`: keep keys
//               in the build set, and NULL keys
//
// NULL keys never match an equality (IS NOT DISTINCT FROM conditions are never filtered): a
// keep filter drops NULL partitions and rows, a skip filter keeps them.

#include <string>
#include <vector>

#include "common/join_kind.h"
#include "common/types.h"
#include "expression/expression.h"

namespace shears {

/// A join as legality sees it: its kind, its equality conditions and whether it has a residual.
struct JoinFilterShape {
  JoinKind kind = JoinKind::kInner;
  std::vector<const BoundExpr*> probe_keys;  // each equality condition's left (probe) side
  std::vector<bool> null_equal;              // each condition: IS NOT DISTINCT FROM
  bool residual = false;                     // other predicates over both sides
  ColumnBinding mark;                        // a mark join's mark column
};

/// What a join's build side may do to its probe side's scans.
struct ProbeFilterLegality {
  bool keep = false;  // drop what holds no build key (partitions, row groups, pages, rows)
  bool skip = false;  // drop partitions whose key is a build key (the anti join's complement)
  /// A mark join under a filter that needs `mark OR key IS NULL`: per condition, whether
  /// partitions whose key is neither NULL nor a build key may be dropped.
  std::vector<bool> keep_or_null;
  std::string reason;  // when none: why, for EXPLAIN

  bool any() const {
    bool or_null = false;
    for (bool c : keep_or_null)
      or_null = or_null || c;
    return keep || skip || or_null;
  }
};

/// For partition pruning (`partitions` true: the anti join's complement is allowed) or row-level
/// runtime filters (only keep). `above`: the conjuncts of the filter directly above the join, if
/// any (partition pruning of a mark join whose mark it tests).
ProbeFilterLegality ProbeSideFilterLegality(const JoinFilterShape& join, bool partitions,
                                            const std::vector<BoundExprPtr>* above = nullptr);

/// Whether a filter on a column of the join's output that comes from its left (`on_left`) or
/// right input commutes with the join (may be pushed into that input): false for the
/// NULL-extended side of an outer join and for the right side of a semi / anti / mark join
/// (which outputs none of it).
bool FilterPassesJoin(JoinKind kind, bool on_left);

/// Whether rows leaving the join satisfy its conditions `left = right`, so a filter on one key
/// also applies to the other side's key (transitive transfer): INNER, CROSS, SEMI.
bool JoinEquatesKeys(JoinKind kind);

/// Whether a condition can carry a filter at all (IS NOT DISTINCT FROM, `null_equal`, matches
/// NULLs).
inline bool ConditionFiltersKeys(bool null_equal) {
  return !null_equal;
}

/// Whether a join may filter its probe (left) side by the bounds of a build-side expression
/// compared with a probe key in a conjunct of its residual (a nested loop join has no equality
/// key): the joins that drop probe rows without a match. Empty when it may, else why not.
std::string BoundFilterLegality(JoinKind kind, bool residual);

/// Whether a join's build (right) side may be filtered by what its probe side's keys may hold
/// (the statistics transfer: the range of a probe key over the files its scan keeps): the joins
/// whose output does not depend on build rows matching no probe row. Inner, left, semi and anti
/// joins (a build row without a match adds nothing) and right semi joins (it is not output);
/// not right, full and right anti joins (they output it NULL-extended or as the answer), nor a
/// mark join (a NULL build key makes an unmatched probe row's mark NULL, not FALSE). Empty when
/// it may, else why not.
std::string BuildSideFilterLegality(JoinKind kind);

/// Whether comparing values of `type` by Value::Compare orders them as SQL's `<` does (not for
/// floating point, whose NaN and -0.0 it orders differently).
bool BoundsOrderLikeSql(const LogicalType& type);

}  // namespace shears

#include "dynfilter/join_legality.h"

namespace shears {

ProbeFilterLegality ProbeSideFilterLegality(const LogicalJoin& join, bool partitions) {
  ProbeFilterLegality legality;
  if (join.conditions.empty()) {
    // A cross product, or a join whose condition has no equality: no key to filter by.
    legality.reason = "no equality key to prune by";
    return legality;
  }
  switch (join.join_kind) {
    case JoinKind::kInner:
    case JoinKind::kSemi:
    case JoinKind::kRight:  // the probe is the left side: only unmatched build rows are kept
      legality.keep = true;
      return legality;
    case JoinKind::kAnti:
      // A probe row whose key is a build key is removed when that key is the whole condition;
      // rows are not dropped (a filter may have false positives), whole partitions are.
      if (partitions && join.conditions.size() == 1 && !join.residual) {
        legality.skip = true;
      } else {
        legality.reason = partitions ? "anti join with several conditions or a residual"
                                     : "ANTI join keeps probe rows without a match";
      }
      return legality;
    default:
      legality.reason = std::string(JoinKindName(join.join_kind)) +
                        (partitions ? " join keeps unmatched probe rows"
                                    : " join keeps probe rows without a match");
      return legality;
  }
}

bool FilterPassesJoin(JoinKind kind, bool on_left) {
  if (on_left) return kind != JoinKind::kRight && kind != JoinKind::kFull;
  // Each output row comes from one row of the kept side: a filter on its columns commutes.
  return kind == JoinKind::kInner || kind == JoinKind::kCross || kind == JoinKind::kRight;
}

bool JoinEquatesKeys(JoinKind kind) {
  return kind == JoinKind::kInner || kind == JoinKind::kCross || kind == JoinKind::kSemi;
}

}  // namespace shears

namespace shears {

std::string NoDynamicFilterReason(const LogicalJoin& join) {
  const std::string partitions = join.dynamic_filter_note.empty()
                                     ? "not planned (dynamic partition pruning is off)"
                                     : join.dynamic_filter_note;
  std::string rows = join.runtime_filter_note;
  if (rows.empty()) {
    rows = join.conditions.empty() ? "no equality key"
                                   : "not planned (runtime_filter or dynamic_filtering is off)";
  }
  return "partitions: " + partitions + "; rows: " + rows;
}

}  // namespace shears

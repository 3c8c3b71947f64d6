#include "dynfilter/join_legality.h"

namespace shears {

namespace {

// Per condition of a mark join: whether `filter` drops every probe row whose key (that
// condition's left side) is not NULL and matches no build key. Such a row's mark is FALSE, or
// NULL when other build rows or conditions are NULL, never TRUE; a conjunct that is an OR of
// the mark and `key IS NULL` branches is then FALSE or NULL too, so the filter drops it.
std::vector<bool> MarkKeysOrNullNeeded(const std::vector<BoundExprPtr>& filter,
                                       const JoinFilterShape& join) {
  std::vector<bool> needed(join.probe_keys.size(), false);
  const ColumnBinding& mark = join.mark;
  for (const auto& conjunct : filter) {
    std::vector<const BoundExpr*> branches{conjunct.get()};
    if (conjunct->kind == BoundExprKind::kConjunction &&
        !static_cast<const BoundConjunction&>(*conjunct).is_and) {
      branches.clear();
      for (const auto& child : static_cast<const BoundConjunction&>(*conjunct).children)
        branches.push_back(child.get());
    }
    bool tests_mark = false;
    std::vector<bool> only_null_of(join.probe_keys.size(), true);
    for (const BoundExpr* branch : branches) {
      if (branch->kind == BoundExprKind::kColumnRef &&
          static_cast<const BoundColumnRef&>(*branch).binding == mark) {
        tests_mark = true;
        continue;
      }
      const bool is_null = branch->kind == BoundExprKind::kIsNull &&
                           !static_cast<const BoundIsNull&>(*branch).negated;
      for (size_t i = 0; i < join.probe_keys.size(); i++) {
        only_null_of[i] =
            only_null_of[i] && is_null &&
            ExpressionsEqual(*static_cast<const BoundIsNull&>(*branch).child, *join.probe_keys[i]);
      }
    }
    if (!tests_mark) continue;
    for (size_t i = 0; i < join.probe_keys.size(); i++) {
      if (only_null_of[i] && ConditionFiltersKeys(join.null_equal[i])) needed[i] = true;
    }
  }
  return needed;
}

}  // namespace

ProbeFilterLegality ProbeSideFilterLegality(const JoinFilterShape& join, bool partitions,
                                            const std::vector<BoundExprPtr>* above) {
  ProbeFilterLegality legality;
  if (join.probe_keys.empty()) {
    // A cross product, or a join whose condition has no equality: no key to filter by.
    legality.reason = "no equality key to prune by";
    return legality;
  }
  switch (join.kind) {
    case JoinKind::kInner:
    case JoinKind::kSemi:
    case JoinKind::kRight:      // the probe is the left side: only unmatched build rows are kept
    case JoinKind::kRightSemi:  // probe rows are never output: one without a match marks nothing
    case JoinKind::kRightAnti:
      legality.keep = true;
      return legality;
    case JoinKind::kAnti:
      // A probe row whose key is a build key is removed when that key is the whole condition;
      // rows are not dropped (a filter may have false positives), whole partitions are.
      if (partitions && join.probe_keys.size() == 1 && !join.residual) {
        legality.skip = true;
      } else {
        legality.reason = partitions ? "anti join with several conditions or a residual"
                                     : "ANTI join keeps probe rows without a match";
      }
      return legality;
    case JoinKind::kMark:
      if (partitions && above) {
        legality.keep_or_null = MarkKeysOrNullNeeded(*above, join);
        if (legality.any()) return legality;
        legality.keep_or_null.clear();
      }
      [[fallthrough]];
    default:
      legality.reason = std::string(JoinKindName(join.kind)) +
                        (partitions ? " join keeps unmatched probe rows"
                                    : " join keeps probe rows without a match");
      return legality;
  }
}

std::string BoundFilterLegality(JoinKind kind, bool residual) {
  switch (kind) {
    case JoinKind::kInner:
    case JoinKind::kCross:
    case JoinKind::kSemi:
    case JoinKind::kRight:
    case JoinKind::kRightSemi:
    case JoinKind::kRightAnti:
      return residual ? "" : "no equality key to prune by";
    default:
      return std::string(JoinKindName(kind)) + " join keeps unmatched probe rows";
  }
}

std::string BuildSideFilterLegality(JoinKind kind) {
  switch (kind) {
    case JoinKind::kInner:
    case JoinKind::kLeft:
    case JoinKind::kSemi:
    case JoinKind::kAnti:
    case JoinKind::kRightSemi:
      return "";
    case JoinKind::kMark:
      return "a MARK join's NULL build keys decide its unmatched rows' marks";
    case JoinKind::kCross:
      return "no equality key";
    default:
      return std::string(JoinKindName(kind)) + " join keeps unmatched build rows";
  }
}

bool BoundsOrderLikeSql(const LogicalType& type) {
  switch (type.physical()) {
    case PhysicalType::kInt32:
    case PhysicalType::kInt64:
    case PhysicalType::kInt128:
      return true;
    case PhysicalType::kString:
      return type.id() == TypeId::kVarchar;
    default:
      return false;
  }
}

bool FilterPassesJoin(JoinKind kind, bool on_left) {
  const bool right_kept = kind == JoinKind::kRightSemi || kind == JoinKind::kRightAnti;
  if (on_left) return kind != JoinKind::kRight && kind != JoinKind::kFull && !right_kept;
  // Each output row comes from one row of the kept side: a filter on its columns commutes.
  return kind == JoinKind::kInner || kind == JoinKind::kCross || kind == JoinKind::kRight ||
         right_kept;
}

bool JoinEquatesKeys(JoinKind kind) {
  return kind == JoinKind::kInner || kind == JoinKind::kCross || kind == JoinKind::kSemi ||
         kind == JoinKind::kRightSemi;
}

}  // namespace shears

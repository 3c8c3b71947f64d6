// build_side: hash joins build on their right child; make that the input estimated to be
// smaller (the dimension side of a star join), so the hash table is small and the big side
// streams through it. Inner and full joins swap as they are; a LEFT join swapped is a RIGHT
// join (and back), which also puts a fact on the NULL-extended side of `dim LEFT JOIN fact`
// on the probe side, where dynamic filters may prune it. Semi, anti and mark joins keep
// their sides (their output is the left side's rows).

#include "optimizer/optimizer.h"

namespace shears {

namespace {

void Visit(LogicalOperator& op) {
  for (auto& child : op.children)
    Visit(*child);
  if (op.type != LogicalOperatorType::kJoin) return;
  auto& join = static_cast<LogicalJoin&>(op);
  if (join.conditions.empty()) return;
  if (join.join_kind != JoinKind::kInner && join.join_kind != JoinKind::kFull &&
      join.join_kind != JoinKind::kLeft && join.join_kind != JoinKind::kRight) {
    return;
  }
  const double left = join.children[0]->estimated_rows;
  const double right = join.children[1]->estimated_rows;
  if (left < 0 || right < 0 || left >= right) return;
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

void ChooseBuildSides(LogicalOperatorPtr& plan, const Settings&) {
  Visit(*plan);
}

}  // namespace shears

// build_side: hash joins build on their right child; for inner joins, make that the input
// estimated to be smaller (the dimension side of a star join), so the hash table is small
// and the big side streams through it.

#include "optimizer/optimizer.h"

namespace shears {

namespace {

void Visit(LogicalOperator& op) {
  for (auto& child : op.children)
    Visit(*child);
  if (op.type != LogicalOperatorType::kJoin) return;
  auto& join = static_cast<LogicalJoin&>(op);
  if (join.join_kind != JoinKind::kInner || join.conditions.empty()) return;
  const double left = join.children[0]->estimated_rows;
  const double right = join.children[1]->estimated_rows;
  if (left < 0 || right < 0 || left >= right) return;
  std::swap(join.children[0], join.children[1]);
  for (auto& c : join.conditions)
    std::swap(c.left, c.right);
  // Output column order changes; a projection above keeps the original order.
}

}  // namespace

void ChooseBuildSides(LogicalOperatorPtr& plan, const Settings&) {
  Visit(*plan);
}

}  // namespace shears

// outer_join_pullup: an inner join above a LEFT join whose condition reads only the LEFT join's
// preserved side moves below it:
//
//   JOIN INNER ON ss.item = i.item              JOIN LEFT ON ss.item = sr.item AND ...
//     JOIN LEFT ON ss.item = sr.item AND ...  ==>  JOIN INNER ON ss.item = i.item
//       GET store_sales ss                           GET store_sales ss
//       GET store_returns sr                         GET item i (price > 50)
//     GET item i (price > 50)                      GET store_returns sr
//
// (A LEFT JOIN B ON p) JOIN C ON q equals (A JOIN C ON q) LEFT JOIN B ON p when q does not read
// B: a row of A meets C the same whether or not B extended it, and B extends the rows of A
// that survive C the same either way. The filtering joins then run first and the LEFT join
// sees their (estimated) output, so build_side can make the preserved side, small after them,
// the hash table (a RIGHT join), and runtime filters from its keys reach B's scan. TPC-DS q80
// at scale 5: store_sales filtered by item, date and promotion to 13,000 rows, joined LEFT to
// all 1.44 million store_returns, built the returns; pulled up, the 13,000 sales build and
// their tickets filter the returns.
//
// Also for semi and anti joins of A (they only drop A's rows). Only when the inner join is
// estimated not to multiply A's rows (a dimension, not a fact joined to A's key), so the LEFT
// join never probes more rows than it did. Runs after the estimates and before join_order,
// which then orders the joins below the LEFT join as one cluster.

#include <set>

#include "optimizer/optimizer.h"

namespace shears {

namespace {

std::set<ColumnBinding> Produced(const LogicalOperator& op) {
  const auto bindings = op.GetColumnBindings();
  return {bindings.begin(), bindings.end()};
}

bool Reads(const BoundExpr* expr, const std::set<ColumnBinding>& columns) {
  if (!expr) return false;
  for (const ColumnBinding& b : ReferencedBindings(*expr)) {
    if (columns.count(b)) return true;
  }
  return false;
}

// Whether `join` (inner, or semi/anti with the LEFT join as its outer side) may move below
// the LEFT join that is its child `index`.
bool CanPullUp(const LogicalJoin& join, size_t index, const LogicalJoin& left_join) {
  if (left_join.join_kind != JoinKind::kLeft || left_join.conditions.empty()) return false;
  const bool filtering = join.join_kind == JoinKind::kSemi || join.join_kind == JoinKind::kAnti;
  if (join.join_kind != JoinKind::kInner && !(filtering && index == 0)) return false;
  if (join.conditions.empty()) return false;
  // Not when the join multiplies the LEFT join's rows (estimates from cardinality_estimation).
  if (join.estimated_rows < 0 || left_join.estimated_rows < 0 ||
      join.estimated_rows > left_join.estimated_rows) {
    return false;
  }
  const auto b_columns = Produced(*left_join.children[1]);
  for (const auto& c : join.conditions) {
    if (Reads(index == 0 ? c.left.get() : c.right.get(), b_columns)) return false;
  }
  return !Reads(join.residual.get(), b_columns);
}

// Moves the join `op` below a LEFT join among its children, if it may; `op` is then that
// LEFT join, with the moved join as its first child.
bool PullUp(LogicalOperatorPtr& op) {
  if (op->type != LogicalOperatorType::kJoin) return false;
  auto& join = static_cast<LogicalJoin&>(*op);
  for (size_t index = 0; index < 2; index++) {
    if (join.children[index]->type != LogicalOperatorType::kJoin) continue;
    auto& left_join = static_cast<LogicalJoin&>(*join.children[index]);
    if (!CanPullUp(join, index, left_join)) continue;
    // join(L(A, B), C) -> L(join(A, C), B); join(C, L(A, B)) -> L(join(C, A), B).
    LogicalOperatorPtr left_join_ptr = std::move(join.children[index]);
    join.children[index] = std::move(left_join_ptr->children[0]);
    const double rows = join.estimated_rows;
    left_join_ptr->children[0] = std::move(op);
    left_join_ptr->estimated_rows = rows;
    op = std::move(left_join_ptr);
    return true;
  }
  return false;
}

void Visit(LogicalOperatorPtr& op) {
  for (auto& child : op->children)
    Visit(child);
  // The moved join may now sit on another LEFT join (a chain of them): move it again.
  LogicalOperatorPtr* at = &op;
  while (PullUp(*at))
    at = &(*at)->children[0];
}

}  // namespace

void PullUpOuterJoins(LogicalOperatorPtr& plan, const Settings&) {
  Visit(plan);
}

}  // namespace shears

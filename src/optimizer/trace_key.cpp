// TraceToScans: follows a join key down to the scan columns it comes from (see optimizer.h).

#include "optimizer/optimizer.h"

namespace shears {

namespace {

// `direct`: no join equality passed yet; `branch`: inside a set operation's input.
void TraceAll(LogicalOperator& op, const ColumnBinding& binding, bool direct, bool branch,
              std::vector<TracedColumn>& out) {
  switch (op.type) {
    case LogicalOperatorType::kGet: {
      auto& get = static_cast<LogicalGet&>(op);
      if (get.table_index == binding.table_index)
        out.push_back({&get, static_cast<int>(binding.column_index), direct, branch});
      return;
    }
    case LogicalOperatorType::kFilter:
    case LogicalOperatorType::kOrderBy:
      return TraceAll(*op.children[0], binding, direct, branch, out);
    case LogicalOperatorType::kSetOperation: {
      // A row of any set operation's output is a row of its inputs with the same values
      // (UNION keeps it from either, INTERSECT from both, EXCEPT from the left), so a filter
      // on column i commutes with it: sigma(A op B) = sigma(A) op sigma(B). Each input is
      // traced on its own column i (positional).
      auto& set = static_cast<LogicalSetOperation&>(op);
      if (set.table_index != binding.table_index) return;
      for (auto& child : op.children) {
        const auto bindings = child->GetColumnBindings();
        if (binding.column_index < bindings.size())
          TraceAll(*child, bindings[binding.column_index], direct, true, out);
      }
      return;
    }
    case LogicalOperatorType::kProjection: {
      auto& projection = static_cast<LogicalProjection&>(op);
      if (projection.table_index != binding.table_index) return;
      const auto& expr = projection.expressions[binding.column_index];
      if (expr->kind != BoundExprKind::kColumnRef) return;
      return TraceAll(*op.children[0], static_cast<BoundColumnRef&>(*expr).binding, direct, branch,
                      out);
    }
    case LogicalOperatorType::kAggregate: {
      auto& agg = static_cast<LogicalAggregate&>(op);
      if (agg.group_index != binding.table_index) return;
      const auto& expr = agg.groups[binding.column_index];
      if (expr->kind != BoundExprKind::kColumnRef) return;
      return TraceAll(*op.children[0], static_cast<BoundColumnRef&>(*expr).binding, direct, branch,
                      out);
    }
    case LogicalOperatorType::kJoin: {
      auto& join = static_cast<LogicalJoin&>(op);
      const bool inner = join.join_kind == JoinKind::kInner || join.join_kind == JoinKind::kCross;
      const bool equates = inner || join.join_kind == JoinKind::kSemi;
      const size_t before = out.size();
      bool on_left = false;
      for (const auto& b : op.children[0]->GetColumnBindings())
        on_left = on_left || b == binding;
      if (on_left) {
        if (join.join_kind == JoinKind::kRight || join.join_kind == JoinKind::kFull) return;
        TraceAll(*op.children[0], binding, direct, branch, out);
      } else if (inner) {
        TraceAll(*op.children[1], binding, direct, branch, out);
      } else {
        return;
      }
      if (!equates || out.size() == before) return;
      // The other side of `binding = other`: filtered by the same keys.
      for (const auto& c : join.conditions) {
        if (c.null_equal || c.left->kind != BoundExprKind::kColumnRef ||
            c.right->kind != BoundExprKind::kColumnRef) {
          continue;
        }
        const auto& l = static_cast<BoundColumnRef&>(*c.left).binding;
        const auto& r = static_cast<BoundColumnRef&>(*c.right).binding;
        if (on_left && l == binding) TraceAll(*op.children[1], r, false, branch, out);
        if (!on_left && r == binding) TraceAll(*op.children[0], l, false, branch, out);
      }
      return;
    }
    default:
      return;
  }
}

}  // namespace

std::vector<TracedColumn> TraceToScans(LogicalOperator& op, const ColumnBinding& binding) {
  std::vector<TracedColumn> out;
  TraceAll(op, binding, true, false, out);
  // A scan reached twice (a self-join on the key) is filtered once.
  std::vector<TracedColumn> unique;
  for (const auto& t : out) {
    bool seen = false;
    for (const auto& u : unique)
      seen = seen || (u.get == t.get && u.column_id == t.column_id);
    if (!seen) unique.push_back(t);
  }
  return unique;
}

std::optional<TracedColumn> TraceToSource(LogicalOperator& op, const ColumnBinding& binding) {
  const auto traced = TraceToScans(op, binding);
  if (traced.empty() || !traced[0].direct || traced[0].branch) return std::nullopt;
  return traced[0];
}

}  // namespace shears

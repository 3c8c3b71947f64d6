// column_pruning: a scan reads only the columns some expression of the plan references, and
// projections (of views and subqueries: SELECT * FROM ...) compute only the columns used above
// them, which in turn frees the columns below. Scan bindings name dataset columns, so removing
// a column id changes no other binding; projection bindings are positions, so removing one
// renumbers the references to that projection everywhere.

#include <optional>
#include <set>

#include "optimizer/optimizer.h"

namespace shears {

namespace {

void Collect(LogicalOperator& op, std::set<ColumnBinding>& used) {
  for (BoundExprPtr* expr : op.Expressions()) {
    for (const auto& b : ReferencedBindings(**expr))
      used.insert(b);
  }
  for (auto& child : op.children)
    Collect(*child, used);
}

void Renumber(LogicalOperator& op, uint32_t table_index, const std::vector<int>& new_index) {
  for (BoundExprPtr* expr : op.Expressions()) {
    VisitExpression(**expr, [&](BoundExpr& e) {
      if (e.kind != BoundExprKind::kColumnRef) return;
      auto& binding = static_cast<BoundColumnRef&>(e).binding;
      if (binding.table_index == table_index) {
        binding.column_index = static_cast<uint32_t>(new_index[binding.column_index]);
      }
    });
  }
  for (auto& child : op.children)
    Renumber(*child, table_index, new_index);
}

// Which expression a projection whose outputs nobody reads keeps for its row count: a column
// its input computes anyway (a scan's filter column, a join key), so that `count(*) ... WHERE
// x < 5` decodes x alone; else the first fixed-width column; else the first expression.
size_t CheapestPlaceholder(LogicalProjection& projection) {
  std::set<ColumnBinding> below;
  for (auto& child : projection.children) {
    std::set<ColumnBinding> child_used;
    Collect(*child, child_used);
    below.insert(child_used.begin(), child_used.end());
  }
  std::optional<size_t> fixed_width;
  for (size_t i = 0; i < projection.expressions.size(); i++) {
    const BoundExpr& e = *projection.expressions[i];
    if (e.kind != BoundExprKind::kColumnRef) continue;
    if (below.count(static_cast<const BoundColumnRef&>(e).binding)) return i;
    if (!fixed_width && !e.type.IsString()) fixed_width = i;
  }
  return fixed_width.value_or(0);
}

// Drops the unused expressions of projections whose output positions do not matter (not the
// plan's output, not an input of a set operation or a materialized CTE, read by position).
bool PruneProjections(LogicalOperator& root, LogicalOperator& op,
                      const std::set<ColumnBinding>& used, bool positional) {
  bool changed = false;
  // A materialized CTE's references read its columns by position (bind_cte.cpp).
  const bool children_positional = op.type == LogicalOperatorType::kSetOperation ||
                                   op.type == LogicalOperatorType::kMaterializedCte;
  for (auto& child : op.children)
    changed = PruneProjections(root, *child, used, children_positional) || changed;
  if (op.type != LogicalOperatorType::kProjection || positional) return changed;
  auto& projection = static_cast<LogicalProjection&>(op);
  std::vector<int> new_index(projection.expressions.size(), -1);
  std::vector<BoundExprPtr> kept;
  for (size_t i = 0; i < projection.expressions.size(); i++) {
    if (used.count({projection.table_index, static_cast<uint32_t>(i)})) {
      new_index[i] = static_cast<int>(kept.size());
      kept.push_back(std::move(projection.expressions[i]));
    }
  }
  // Keep one column even when none is used: the row count still matters (count(*)).
  if (kept.empty() && !projection.expressions.empty()) {
    const size_t i = CheapestPlaceholder(projection);
    new_index[i] = 0;
    kept.push_back(std::move(projection.expressions[i]));
  }
  if (kept.size() == projection.expressions.size()) {
    for (size_t i = 0; i < kept.size(); i++)
      projection.expressions[i] = std::move(kept[i]);
    return changed;
  }
  projection.expressions = std::move(kept);
  Renumber(root, projection.table_index, new_index);
  return true;
}

void Prune(LogicalOperator& op, const std::set<ColumnBinding>& used, bool is_root_output) {
  if (op.type == LogicalOperatorType::kGet) {
    auto& get = static_cast<LogicalGet&>(op);
    std::vector<int> kept;
    for (int id : get.column_ids) {
      if (used.count({get.table_index, static_cast<uint32_t>(id)})) kept.push_back(id);
    }
    get.column_ids = std::move(kept);
    return;
  }
  for (auto& child : op.children)
    Prune(*child, used, false);
}

}  // namespace

void PruneColumns(LogicalOperatorPtr& plan, const Settings&) {
  std::set<ColumnBinding> used;
  auto collect = [&] {
    used.clear();
    Collect(*plan, used);
    // The plan's own output columns are used by the client.
    for (const auto& b : plan->GetColumnBindings())
      used.insert(b);
  };
  // Each pruned projection may free columns below it: repeat until nothing changes.
  collect();
  while (PruneProjections(*plan, *plan, used, true))
    collect();
  Prune(*plan, used, true);
}

}  // namespace shears

// column_pruning: a scan reads only the columns some expression of the plan references.
// Bindings name dataset columns, so removing a column id changes no other binding.

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
  Collect(*plan, used);
  // The plan's own output columns are used by the client.
  for (const auto& b : plan->GetColumnBindings())
    used.insert(b);
  Prune(*plan, used, true);
}

}  // namespace shears

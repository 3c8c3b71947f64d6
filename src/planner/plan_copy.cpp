#include "planner/plan_copy.h"

#include <set>

#include "common/error.h"
#include "planner/binder.h"

namespace shears {

void RemapBindings(BoundExpr& expr, const std::map<uint32_t, uint32_t>& remap) {
  VisitExpression(expr, [&](BoundExpr& e) {
    if (e.kind != BoundExprKind::kColumnRef) return;
    auto& ref = static_cast<BoundColumnRef&>(e);
    auto it = remap.find(ref.binding.table_index);
    if (it != remap.end()) ref.binding.table_index = it->second;
  });
}

namespace {

std::vector<BoundExprPtr> CopyExprs(const std::vector<BoundExprPtr>& exprs) {
  std::vector<BoundExprPtr> out;
  for (const auto& e : exprs)
    out.push_back(e->Copy());
  return out;
}

// `new_index` empty: the copy keeps the table indices (CopyPlanAsIs).
LogicalOperatorPtr CopyNode(const LogicalOperator& op, const NewTableIndexFn& new_index,
                            std::map<uint32_t, uint32_t>& remap) {
  auto fresh = [&](uint32_t index) {
    if (!new_index) return index;
    const uint32_t copy = new_index();
    remap[index] = copy;
    return copy;
  };
  switch (op.type) {
    case LogicalOperatorType::kGet: {
      const auto& get = static_cast<const LogicalGet&>(op);
      // Dynamic and runtime filters are planned by the optimizer, after binding.
      SHEARS_CHECK(get.dynamic_filters.empty() && get.runtime_filters.empty());
      auto copy = std::make_unique<LogicalGet>();
      copy->table_index = fresh(get.table_index);
      copy->table_name = get.table_name;
      copy->dataset = get.dataset;
      copy->column_ids = get.column_ids;
      copy->filters = CopyExprs(get.filters);
      return copy;
    }
    case LogicalOperatorType::kDummyScan:
      return std::make_unique<LogicalDummyScan>();
    case LogicalOperatorType::kValues: {
      const auto& values = static_cast<const LogicalValues&>(op);
      auto copy = std::make_unique<LogicalValues>();
      copy->table_index = fresh(values.table_index);
      copy->types = values.types;
      copy->names = values.names;
      for (const auto& row : values.rows)
        copy->rows.push_back(CopyExprs(row));
      return copy;
    }
    case LogicalOperatorType::kRange: {
      const auto& range = static_cast<const LogicalRange&>(op);
      auto copy = std::make_unique<LogicalRange>();
      copy->table_index = fresh(range.table_index);
      copy->function = range.function;
      copy->column_name = range.column_name;
      copy->start = range.start;
      copy->step = range.step;
      copy->count = range.count;
      return copy;
    }
    case LogicalOperatorType::kFilter: {
      auto copy = std::make_unique<LogicalFilter>();
      copy->conditions = CopyExprs(static_cast<const LogicalFilter&>(op).conditions);
      return copy;
    }
    case LogicalOperatorType::kProjection: {
      const auto& projection = static_cast<const LogicalProjection&>(op);
      auto copy = std::make_unique<LogicalProjection>();
      copy->table_index = fresh(projection.table_index);
      copy->expressions = CopyExprs(projection.expressions);
      return copy;
    }
    case LogicalOperatorType::kAggregate: {
      const auto& aggregate = static_cast<const LogicalAggregate&>(op);
      auto copy = std::make_unique<LogicalAggregate>();
      copy->group_index = fresh(aggregate.group_index);
      copy->aggregate_index = fresh(aggregate.aggregate_index);
      copy->groups = CopyExprs(aggregate.groups);
      copy->aggregates = CopyExprs(aggregate.aggregates);
      copy->empty_input_groups = aggregate.empty_input_groups;
      copy->partial = aggregate.partial;
      return copy;
    }
    case LogicalOperatorType::kJoin: {
      const auto& join = static_cast<const LogicalJoin&>(op);
      SHEARS_CHECK(join.dynamic_filter_producers.empty() && join.runtime_filter_producers.empty());
      auto copy = std::make_unique<LogicalJoin>();
      copy->join_kind = join.join_kind;
      for (const auto& c : join.conditions) {
        JoinCondition condition;
        condition.left = c.left->Copy();
        condition.right = c.right->Copy();
        condition.null_equal = c.null_equal;
        copy->conditions.push_back(std::move(condition));
      }
      if (join.residual) copy->residual = join.residual->Copy();
      if (join.join_kind == JoinKind::kMark) copy->mark_index = fresh(join.mark_index);
      return copy;
    }
    case LogicalOperatorType::kOrderBy: {
      auto copy = std::make_unique<LogicalOrderBy>();
      for (const auto& o : static_cast<const LogicalOrderBy&>(op).orders)
        copy->orders.push_back(o.Copy());
      return copy;
    }
    case LogicalOperatorType::kLimit: {
      const auto& limit = static_cast<const LogicalLimit&>(op);
      auto copy = std::make_unique<LogicalLimit>();
      copy->limit = limit.limit;
      copy->offset = limit.offset;
      return copy;
    }
    case LogicalOperatorType::kWindow: {
      const auto& window = static_cast<const LogicalWindow&>(op);
      auto copy = std::make_unique<LogicalWindow>();
      copy->window_index = fresh(window.window_index);
      copy->windows = CopyExprs(window.windows);
      copy->row_limit = window.row_limit;
      copy->limit_window = window.limit_window;
      return copy;
    }
    case LogicalOperatorType::kUnnest: {
      const auto& unnest = static_cast<const LogicalUnnest&>(op);
      auto copy = std::make_unique<LogicalUnnest>();
      copy->table_index = fresh(unnest.table_index);
      copy->lists = CopyExprs(unnest.lists);
      return copy;
    }
    case LogicalOperatorType::kSetOperation: {
      const auto& set = static_cast<const LogicalSetOperation&>(op);
      auto copy = std::make_unique<LogicalSetOperation>();
      copy->table_index = fresh(set.table_index);
      copy->kind = set.kind;
      copy->all = set.all;
      copy->cte_id = set.cte_id;
      copy->cte_name = set.cte_name;
      copy->types = set.types;
      return copy;
    }
    case LogicalOperatorType::kWorkingTable: {
      // The copy reads the working table of its own recursive union's copy: the physical
      // planner binds cte_id to the union it is planning at the time.
      const auto& working = static_cast<const LogicalWorkingTable&>(op);
      auto copy = std::make_unique<LogicalWorkingTable>();
      copy->table_index = fresh(working.table_index);
      copy->cte_id = working.cte_id;
      copy->cte_name = working.cte_name;
      copy->types = working.types;
      return copy;
    }
    case LogicalOperatorType::kMaterializedCte: {
      const auto& cte = static_cast<const LogicalMaterializedCte&>(op);
      auto copy = std::make_unique<LogicalMaterializedCte>();
      copy->cte_index = cte.cte_index;
      copy->name = cte.name;
      return copy;
    }
    case LogicalOperatorType::kCteScan: {
      const auto& scan = static_cast<const LogicalCteScan&>(op);
      SHEARS_CHECK(scan.runtime_filters.empty());  // copies are made before filters are planned
      auto copy = std::make_unique<LogicalCteScan>();
      copy->cte_index = scan.cte_index;
      copy->name = scan.name;
      // A reference still holding its query outputs that query's columns, remapped by
      // CopyPlan once the child is copied; one scanning materialized rows gets fresh indexes.
      copy->bindings = scan.bindings;
      copy->types = scan.types;
      if (op.children.empty()) {
        std::set<uint32_t> seen;
        for (const auto& b : scan.bindings) {
          if (seen.insert(b.table_index).second) fresh(b.table_index);
        }
      }
      return copy;
    }
  }
  throw InternalError("CopyPlan: unknown logical operator");
}

LogicalOperatorPtr CopyTree(const LogicalOperator& op, const NewTableIndexFn& new_index,
                            std::map<uint32_t, uint32_t>& remap) {
  LogicalOperatorPtr copy = CopyNode(op, new_index, remap);
  copy->estimated_rows = op.estimated_rows;
  for (const auto& child : op.children)
    copy->children.push_back(CopyTree(*child, new_index, remap));
  return copy;
}

}  // namespace

LogicalOperatorPtr CopyPlan(const LogicalOperator& op, Binder& binder,
                            std::map<uint32_t, uint32_t>& remap) {
  return CopyPlan(
      op, [&binder] { return binder.NewTableIndex(); }, remap);
}

LogicalOperatorPtr CopyPlan(const LogicalOperator& op, const NewTableIndexFn& new_index,
                            std::map<uint32_t, uint32_t>& remap) {
  LogicalOperatorPtr copy = CopyTree(op, new_index, remap);
  // Children are copied after their parents: rewrite the columns once every index is known.
  std::function<void(LogicalOperator&)> rewrite = [&](LogicalOperator& node) {
    for (BoundExprPtr* e : node.Expressions())
      RemapBindings(**e, remap);
    if (node.type == LogicalOperatorType::kCteScan) {
      for (auto& b : static_cast<LogicalCteScan&>(node).bindings)
        b.table_index = remap.at(b.table_index);
    }
    for (auto& child : node.children)
      rewrite(*child);
  };
  rewrite(*copy);
  return copy;
}

LogicalOperatorPtr CopyPlanAsIs(const LogicalOperator& op) {
  std::map<uint32_t, uint32_t> none;
  return CopyTree(op, NewTableIndexFn(), none);
}

}  // namespace shears

// TraceToScans: follows a join key down to the scan columns it comes from (see optimizer.h).

#include <algorithm>
#include <functional>

#include "dynfilter/join_legality.h"
#include "optimizer/optimizer.h"

namespace shears {

namespace {

// Where the trace stands: the binding it follows and how the key is computed from it.
struct Path {
  ColumnBinding binding;
  /// The key as an expression over `binding` (one column), or null: the key is the column.
  std::shared_ptr<const BoundExpr> key;
  bool direct = true;                        // no join equality passed yet
  bool branch = false;                       // inside an input of a set operation
  const LogicalCteScan* cte_scan = nullptr;  // inside the query of the CTE it references
};

// `path` continued below an operator that computes its column as `expr` (over the input):
// a plain column moves the trace to it; a deterministic expression of one column is folded
// into the key (key(expr(column))). Nullopt when the trace ends here.
std::optional<Path> Through(const Path& path, const BoundExpr& expr) {
  const auto referenced = ReferencedBindings(expr);
  if (referenced.size() != 1) return std::nullopt;
  Path next = path;
  next.binding = referenced[0];
  if (expr.kind == BoundExprKind::kColumnRef && !path.key) return next;
  BoundExprPtr copy = expr.Copy();
  if (CallsVolatile(*copy)) return std::nullopt;
  if (!path.key) {
    next.key = std::move(copy);
    return next;
  }
  // Substitutes `expr` for the followed column in the key.
  BoundExprPtr key = path.key->Copy();
  std::function<void(BoundExprPtr&)> substitute = [&](BoundExprPtr& e) {
    if (e->kind == BoundExprKind::kColumnRef &&
        static_cast<BoundColumnRef&>(*e).binding == path.binding) {
      e = copy->Copy();
      return;
    }
    for (BoundExprPtr* child : e->Children())
      substitute(*child);
  };
  substitute(key);
  next.key = std::move(key);
  return next;
}

// The same key, over another column of equal values (a join equality, a set operation input).
Path Renamed(const Path& path, const ColumnBinding& binding, const LogicalType& type) {
  if (!path.key) {
    Path next = path;
    next.binding = binding;
    return next;
  }
  auto next = Through(path, BoundColumnRef(type, binding, ""));
  return *next;
}

// Whether `binding` is a column a CTE scan below `op` outputs (bindings are unique in a plan).
bool FromCteScan(LogicalOperator& op, const ColumnBinding& binding) {
  if (op.type == LogicalOperatorType::kCteScan) {
    const auto& bindings = static_cast<LogicalCteScan&>(op).bindings;
    return std::find(bindings.begin(), bindings.end(), binding) != bindings.end();
  }
  for (auto& child : op.children) {
    if (FromCteScan(*child, binding)) return true;
  }
  return false;
}

// `cte_out`: where a trace without `ctes` meets a CTE_SCAN outputting its column, noted there.
void TraceAll(LogicalOperator& op, const Path& path, const CteDefinitions* ctes,
              std::vector<TracedColumn>& out, std::vector<TracedCteColumn>* cte_out = nullptr) {
  const ColumnBinding& binding = path.binding;
  switch (op.type) {
    case LogicalOperatorType::kGet: {
      auto& get = static_cast<LogicalGet&>(op);
      if (get.table_index != binding.table_index) return;
      TracedColumn traced{&get, static_cast<int>(binding.column_index), path.direct, path.branch};
      if (path.key) traced.key_expr = ResolveBindings(*path.key, {binding});
      traced.cte_scan = path.cte_scan;
      out.push_back(std::move(traced));
      return;
    }
    case LogicalOperatorType::kCteScan: {
      // The reference reads the CTE's rows positionally: column i is the query's column i.
      auto& scan = static_cast<LogicalCteScan&>(op);
      if (!ctes && cte_out) {
        for (size_t i = 0; i < scan.bindings.size(); i++) {
          if (!(scan.bindings[i] == binding)) continue;
          TracedCteColumn traced{&scan, static_cast<int>(i), path.direct, nullptr};
          if (path.key) traced.key_expr = ResolveBindings(*path.key, {binding});
          cte_out->push_back(std::move(traced));
        }
      }
      if (!ctes || path.cte_scan) return;
      const auto definition = ctes->find(scan.cte_index);
      if (definition == ctes->end()) return;
      LogicalOperator& query = *definition->second;
      const auto bindings = query.GetColumnBindings();
      for (size_t i = 0; i < scan.bindings.size() && i < bindings.size(); i++) {
        if (!(scan.bindings[i] == binding)) continue;
        Path next = Renamed(path, bindings[i], query.GetTypes()[i]);
        next.cte_scan = &scan;
        TraceAll(query, next, ctes, out, cte_out);
      }
      return;
    }
    case LogicalOperatorType::kFilter:
    case LogicalOperatorType::kOrderBy:
      return TraceAll(*op.children[0], path, ctes, out, cte_out);
    case LogicalOperatorType::kMaterializedCte:
      // Its rows are the query's (children[1]); the CTE itself is reached through its scans.
      return TraceAll(*op.children[1], path, ctes, out, cte_out);
    case LogicalOperatorType::kSetOperation: {
      // A row of any set operation's output is a row of its inputs with the same values
      // (UNION keeps it from either, INTERSECT from both, EXCEPT from the left), so a filter
      // on column i commutes with it: sigma(A op B) = sigma(A) op sigma(B). Each input is
      // traced on its own column i (positional).
      auto& set = static_cast<LogicalSetOperation&>(op);
      if (set.table_index != binding.table_index) return;
      // Not into a recursive CTE: its later rows grow from its earlier ones, so filtering the
      // anchor would lose rows the filter keeps.
      if (set.kind == SetOperationKind::kRecursiveUnion) return;
      for (auto& child : op.children) {
        const auto bindings = child->GetColumnBindings();
        if (binding.column_index >= bindings.size()) continue;
        Path next =
            Renamed(path, bindings[binding.column_index], child->GetTypes()[binding.column_index]);
        next.branch = true;
        TraceAll(*child, next, ctes, out, cte_out);
      }
      return;
    }
    case LogicalOperatorType::kProjection: {
      auto& projection = static_cast<LogicalProjection&>(op);
      if (projection.table_index != binding.table_index) return;
      if (auto next = Through(path, *projection.expressions[binding.column_index]))
        TraceAll(*op.children[0], *next, ctes, out, cte_out);
      return;
    }
    case LogicalOperatorType::kAggregate: {
      auto& agg = static_cast<LogicalAggregate&>(op);
      if (agg.group_index != binding.table_index) return;
      if (auto next = Through(path, *agg.groups[binding.column_index]))
        TraceAll(*op.children[0], *next, ctes, out, cte_out);
      return;
    }
    case LogicalOperatorType::kWindow: {
      // A PARTITION BY column passes through: filtering on it drops whole partitions, which
      // leaves the windows of the others as they were. Other columns stop here.
      auto& window = static_cast<LogicalWindow&>(op);
      for (const auto& p : static_cast<BoundWindow&>(*window.windows[0]).partitions) {
        if (p->kind == BoundExprKind::kColumnRef &&
            static_cast<BoundColumnRef&>(*p).binding == binding) {
          return TraceAll(*op.children[0], path, ctes, out, cte_out);
        }
      }
      return;
    }
    case LogicalOperatorType::kJoin: {
      auto& join = static_cast<LogicalJoin&>(op);
      const size_t before = out.size();
      bool on_left = false;
      for (const auto& b : op.children[0]->GetColumnBindings())
        on_left = on_left || b == binding;
      if (!FilterPassesJoin(join.join_kind, on_left)) return;
      TraceAll(*op.children[on_left ? 0 : 1], path, ctes, out, cte_out);
      // A column of a materialized CTE's rows (not traced into it without `ctes`) is a column
      // of this side all the same: its equality still filters the other side.
      if (!JoinEquatesKeys(join.join_kind) ||
          (out.size() == before && !FromCteScan(*op.children[on_left ? 0 : 1], binding)))
        return;
      // The other side of `binding = other`: filtered by the same keys.
      for (const auto& c : join.conditions) {
        if (!ConditionFiltersKeys(c.null_equal) || c.left->kind != BoundExprKind::kColumnRef ||
            c.right->kind != BoundExprKind::kColumnRef) {
          continue;
        }
        const auto& l = static_cast<BoundColumnRef&>(*c.left).binding;
        const auto& r = static_cast<BoundColumnRef&>(*c.right).binding;
        if (on_left && l == binding) {
          Path next = Renamed(path, r, c.right->type);
          next.direct = false;
          TraceAll(*op.children[1], next, ctes, out, cte_out);
        }
        if (!on_left && r == binding) {
          Path next = Renamed(path, l, c.left->type);
          next.direct = false;
          TraceAll(*op.children[0], next, ctes, out, cte_out);
        }
      }
      return;
    }
    default:
      return;
  }
}

}  // namespace

CteDefinitions FindCteDefinitions(LogicalOperator& plan) {
  CteDefinitions out;
  std::function<void(LogicalOperator&)> visit = [&](LogicalOperator& op) {
    if (op.type == LogicalOperatorType::kMaterializedCte) {
      out[static_cast<LogicalMaterializedCte&>(op).cte_index] = op.children[0].get();
    }
    for (auto& child : op.children)
      visit(*child);
  };
  visit(plan);
  return out;
}

std::vector<TracedColumn> TraceToScans(LogicalOperator& op, const ColumnBinding& binding,
                                       const BoundExpr* key, const CteDefinitions* ctes) {
  std::vector<TracedColumn> out;
  Path path;
  path.binding = binding;
  if (key && key->kind != BoundExprKind::kColumnRef) path.key = key->Copy();
  TraceAll(op, path, ctes, out);
  // A scan reached twice (a self-join on the key) is filtered once.
  std::vector<TracedColumn> unique;
  for (const auto& t : out) {
    bool seen = false;
    for (const auto& u : unique)
      seen = seen || (u.get == t.get && u.column_id == t.column_id && u.cte_scan == t.cte_scan &&
                      (u.key_expr ? u.key_expr->ToString() : "") ==
                          (t.key_expr ? t.key_expr->ToString() : ""));
    if (!seen) unique.push_back(t);
  }
  return unique;
}

std::vector<TracedCteColumn> TraceToCteScans(LogicalOperator& op, const ColumnBinding& binding,
                                             const BoundExpr* key) {
  std::vector<TracedColumn> scans;
  std::vector<TracedCteColumn> out;
  Path path;
  path.binding = binding;
  if (key && key->kind != BoundExprKind::kColumnRef) path.key = key->Copy();
  TraceAll(op, path, nullptr, scans, &out);
  // A reference reached twice (a self-join on the key) is filtered once.
  std::vector<TracedCteColumn> unique;
  for (auto& t : out) {
    bool seen = false;
    for (const auto& u : unique)
      seen = seen || (u.scan == t.scan && u.column == t.column &&
                      (u.key_expr ? u.key_expr->ToString() : "") ==
                          (t.key_expr ? t.key_expr->ToString() : ""));
    if (!seen) unique.push_back(std::move(t));
  }
  return unique;
}

std::optional<TracedColumn> TraceToSource(LogicalOperator& op, const ColumnBinding& binding) {
  const auto traced = TraceToScans(op, binding);
  if (traced.empty() || !traced[0].direct || traced[0].branch || traced[0].key_expr)
    return std::nullopt;
  return traced[0];
}

bool PartitionsFiltered(LogicalOperator& side, const LogicalGet& fact) {
  auto is_partition_column = [&fact](int column_id) {
    return static_cast<size_t>(column_id) >= fact.dataset->num_file_columns();
  };
  for (const auto& filter : fact.filters) {
    for (const auto& b : ReferencedBindings(*filter)) {
      // A scan's binding names the dataset column (LogicalGet::GetColumnBindings).
      if (b.table_index == fact.table_index &&
          is_partition_column(static_cast<int>(b.column_index)))
        return true;
    }
  }
  bool filtered = false;
  std::function<void(LogicalOperator&)> visit = [&](LogicalOperator& op) {
    if (filtered) return;
    if (op.type == LogicalOperatorType::kJoin) {
      for (const auto& c : static_cast<LogicalJoin&>(op).conditions) {
        for (const BoundExpr* key : {c.left.get(), c.right.get()}) {
          const auto referenced = ReferencedBindings(*key);
          if (referenced.size() != 1) continue;
          for (const TracedColumn& traced : TraceToScans(op, referenced[0])) {
            if (traced.get == &fact && is_partition_column(traced.column_id)) filtered = true;
          }
        }
      }
    }
    for (auto& child : op.children)
      visit(*child);
  };
  visit(side);
  return filtered;
}

}  // namespace shears

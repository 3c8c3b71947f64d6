// WITH RECURSIVE, as PostgreSQL runs it: the anchor (the non-recursive term, left of the
// UNION [ALL]) gives the first rows; the recursive term, reading the rows the previous
// iteration added through a working table, runs until it adds none. With UNION, rows already
// produced are dropped (from the anchor too), which is what ends a traversal of a cyclic graph.
// The anchor's column types (and names, unless the CTE lists its own) are the CTE's; the
// recursive term's columns are cast to them. The plan is a LogicalSetOperation of kind
// kRecursiveUnion (execution/operator/physical_recursive_cte.h runs it).

#include "common/error.h"
#include "common/string_util.h"
#include "planner/bind_context.h"
#include "planner/binder.h"

namespace shears {

std::optional<BoundQuery> Binder::BindWorkingTable(const std::string& name) {
  for (auto it = recursive_ctes_.rbegin(); it != recursive_ctes_.rend(); ++it) {
    if (it->name != name) continue;
    if (it->in_anchor) {
      throw BinderError(
          "recursive reference to query \"{}\" must not appear within its non-recursive term",
          name);
    }
    it->references++;
    auto table = std::make_unique<LogicalWorkingTable>();
    table->table_index = NewTableIndex();
    table->cte_id = it->id;
    table->cte_name = name;
    table->types = it->types;
    BoundQuery query;
    query.names = it->names;
    query.types = it->types;
    query.plan = std::move(table);
    return query;
  }
  return std::nullopt;
}

BoundQuery Binder::BindRecursiveCte(const ast::CommonTableExpr& cte) {
  const std::string name = AsciiLower(cte.name);
  if (cte.query->kind != ast::QueryNodeKind::kSetOperation ||
      static_cast<const ast::SetOperationNode&>(*cte.query).op != ast::SetOperationType::kUnion) {
    // WITH RECURSIVE of a query that cannot name itself: an ordinary CTE (as PostgreSQL),
    // but naming itself is an error rather than an endless recursion.
    recursive_ctes_.push_back({name, true, next_cte_id_++, {}, {}, 0});
    BoundQuery q;
    try {
      q = BindQueryNode(*cte.query, nullptr);
    } catch (...) {
      recursive_ctes_.pop_back();
      throw;
    }
    recursive_ctes_.pop_back();
    return q;
  }
  const auto& node = static_cast<const ast::SetOperationNode&>(*cte.query);
  if (!node.order_by.empty() || node.limit || node.offset || !node.ctes.empty()) {
    throw NotSupportedError(
        "WITH, ORDER BY, LIMIT and OFFSET on a recursive CTE's UNION are "
        "not supported");
  }
  const size_t depth = recursive_ctes_.size();
  recursive_ctes_.push_back({name, true, next_cte_id_++, {}, {}, 0});
  struct Pop {
    std::vector<RecursiveCte>& stack;
    size_t depth;
    ~Pop() { stack.resize(depth); }
  } pop{recursive_ctes_, depth};

  BoundQuery anchor = BindQueryNode(*node.left, nullptr);
  std::vector<std::string> names = anchor.names;
  if (cte.column_aliases.size() > names.size()) {
    throw BinderError("recursive query \"{}\" has {} columns but {} column aliases were given",
                      name, names.size(), cte.column_aliases.size());
  }
  for (size_t i = 0; i < cte.column_aliases.size(); i++)
    names[i] = cte.column_aliases[i];
  RecursiveCte& self = recursive_ctes_[depth];
  self.in_anchor = false;
  self.types = anchor.types;
  self.names = names;
  const int id = self.id;

  BoundQuery recursive = BindQueryNode(*node.right, nullptr);
  if (recursive_ctes_[depth].references == 0) {
    // Never names itself: the UNION as written.
    recursive_ctes_.resize(depth);
    return BindQueryNode(*cte.query, nullptr);
  }
  if (recursive.types.size() != anchor.types.size()) {
    throw BinderError(
        "each side of the recursive query \"{}\" must have the same number of columns ({} vs {})",
        name, anchor.types.size(), recursive.types.size());
  }
  // The recursive term's columns take the anchor's types (PostgreSQL requires them equal).
  LogicalOperatorPtr recursive_plan = std::move(recursive.plan);
  if (recursive.types != anchor.types) {
    auto projection = std::make_unique<LogicalProjection>();
    projection->table_index = NewTableIndex();
    const auto bindings = recursive_plan->GetColumnBindings();
    for (size_t i = 0; i < anchor.types.size(); i++) {
      projection->expressions.push_back(CastTo(
          std::make_unique<BoundColumnRef>(recursive.types[i], bindings[i], recursive.names[i]),
          anchor.types[i]));
    }
    projection->children.push_back(std::move(recursive_plan));
    recursive_plan = std::move(projection);
  }
  auto op = std::make_unique<LogicalSetOperation>();
  op->table_index = NewTableIndex();
  op->kind = SetOperationKind::kRecursiveUnion;
  op->all = node.all;
  op->cte_id = id;
  op->cte_name = name;
  op->types = anchor.types;
  op->children.push_back(std::move(anchor.plan));
  op->children.push_back(std::move(recursive_plan));
  BoundQuery result;
  result.names = names;
  result.types = op->types;
  result.plan = std::move(op);
  return result;
}

}  // namespace shears

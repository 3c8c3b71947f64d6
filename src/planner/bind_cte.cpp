// Common table expressions: inlined or materialized. Each reference to a CTE is bound on its
// own (as if the CTE's query were written there) and wrapped in a LogicalCteScan holding that
// binding. Once the query that declares the CTEs is bound, each CTE is decided on, much as
// DuckDB does (see MaterializeByDefault):
//  - inlined: every reference is replaced by its own query, so filters and dynamic filters
//    reach the CTE's scans as if it were written out;
//  - materialized: the first reference's query becomes the CTE's definition under a
//    LogicalMaterializedCte above the declaring query, and every reference scans its rows
//    (computed once, with one value of random() per row for all references). Filters every
//    reference applies reach into the definition as their OR (optimizer/cte_filter_pushdown);
//    dynamic filters from joins above a reference do not (docs/dynamic_filtering.md), but joins
//    inside the CTE still prune its own scans.
//
// WITH RECURSIVE, as PostgreSQL runs it: the anchor (the non-recursive term, left of the
// UNION [ALL]) gives the first rows; the recursive term, reading the rows the previous
// iteration added through a working table, runs until it adds none. With UNION, rows already
// produced are dropped (from the anchor too), which is what ends a traversal of a cyclic graph.
// The anchor's column types (and names, unless the CTE lists its own) are the CTE's; the
// recursive term's columns are cast to them. The plan is a LogicalSetOperation of kind
// kRecursiveUnion (execution/operator/physical_recursive_cte.h runs it).

#include <map>

#include "common/error.h"
#include "common/string_util.h"
#include "parser/ast.h"
#include "planner/bind_context.h"
#include "planner/binder.h"
#include "planner/plan_copy.h"

namespace shears {

namespace {

bool TriviallyCheap(const LogicalOperator& op) {
  switch (op.type) {
    case LogicalOperatorType::kJoin:
    case LogicalOperatorType::kAggregate:
    case LogicalOperatorType::kWindow:
    case LogicalOperatorType::kOrderBy:
    case LogicalOperatorType::kSetOperation:
    case LogicalOperatorType::kMaterializedCte:
      return false;
    default:
      break;
  }
  for (const auto& child : op.children) {
    if (!TriviallyCheap(*child)) return false;
  }
  return true;
}

/// Whether the query's rows come out of an aggregate, DISTINCT, window, a set operation
/// removing duplicates or a recursive CTE (through operators of one input each): work that
/// pays to do once, and whose result is usually smaller than what it reads.
bool EndsInAggregate(const LogicalOperator& op) {
  switch (op.type) {
    case LogicalOperatorType::kAggregate:
    case LogicalOperatorType::kWindow:
      return true;
    case LogicalOperatorType::kSetOperation: {
      const auto& set = static_cast<const LogicalSetOperation&>(op);
      if (set.kind == SetOperationKind::kRecursiveUnion || !set.all) return true;
      for (const auto& child : op.children) {
        if (!EndsInAggregate(*child)) return false;
      }
      return true;
    }
    default:
      break;
  }
  return op.children.size() == 1 && EndsInAggregate(*op.children[0]);
}

bool HasVolatile(LogicalOperator& op) {
  for (BoundExprPtr* e : op.Expressions()) {
    if (CallsVolatile(**e)) return true;
  }
  for (auto& child : op.children) {
    if (HasVolatile(*child)) return true;
  }
  return false;
}

size_t CountScans(const LogicalOperator& op) {
  size_t scans = op.type == LogicalOperatorType::kGet ? 1 : 0;
  for (const auto& child : op.children)
    scans += CountScans(*child);
  return scans;
}

/// Without MATERIALIZED / NOT MATERIALIZED: a CTE referenced `references` times is computed
/// once when its query has random() or the like (every reference then sees the same values,
/// as in DuckDB and PostgreSQL), when it ends in an aggregate (or window, DISTINCT, recursive
/// CTE), or when copying it would repeat many scans (more than two, and more than ten in all,
/// DuckDB's bound). Otherwise, a scan with filters or joins of one or two tables, each
/// reference gets its own copy: filters and dynamic filters of each reference then reach its
/// scans, which here beats reading the rows once without them (TPC-DS q95: its CTE self-joins
/// web_sales, and the outer joins cut it to a few orders).
bool MaterializeByDefault(LogicalOperator& query, size_t references) {
  if (references < 2) return false;
  if (HasVolatile(query)) return true;
  if (TriviallyCheap(query)) return false;
  if (EndsInAggregate(query)) return true;
  const size_t scans = CountScans(query);
  return scans > 2 && scans * references > 10;
}

void CollectReferences(LogicalOperatorPtr& op, uint32_t cte_index,
                       std::vector<LogicalOperatorPtr*>& out) {
  if (op->type == LogicalOperatorType::kCteScan &&
      static_cast<LogicalCteScan&>(*op).cte_index == cte_index) {
    out.push_back(&op);
    return;  // a CTE does not refer to itself
  }
  for (auto& child : op->children)
    CollectReferences(child, cte_index, out);
}

void RemapAll(LogicalOperator& op, const std::map<uint32_t, uint32_t>& remap) {
  for (BoundExprPtr* e : op.Expressions())
    RemapBindings(**e, remap);
  if (op.type == LogicalOperatorType::kCteScan) {
    for (auto& b : static_cast<LogicalCteScan&>(op).bindings) {
      auto found = remap.find(b.table_index);
      if (found != remap.end()) b.table_index = found->second;
    }
  }
  for (auto& child : op.children)
    RemapAll(*child, remap);
}

}  // namespace

LogicalOperatorPtr Binder::BindCteReference(const ast::CommonTableExpr& cte, BoundQuery query) {
  auto scan = std::make_unique<LogicalCteScan>();
  scan->cte_index = cte_indexes_.at(&cte);
  scan->name = cte.name;
  scan->bindings = query.plan->GetColumnBindings();
  scan->types = query.plan->GetTypes();
  scan->children.push_back(std::move(query.plan));
  return scan;
}

LogicalOperatorPtr Binder::ResolveCtes(const ast::QueryNode& node, LogicalOperatorPtr plan) {
  // Later CTEs may refer to earlier ones, not the other way: deciding from the last one first
  // counts only the references that remain (those in an inlined CTE count once per inlining,
  // those in a materialized one once).
  for (size_t i = node.ctes.size(); i-- > 0;) {
    const ast::CommonTableExpr& cte = node.ctes[i];
    const uint32_t cte_index = cte_indexes_.at(&cte);
    std::vector<LogicalOperatorPtr*> references;
    CollectReferences(plan, cte_index, references);
    if (references.empty()) continue;
    LogicalOperator& first_query = *(*references[0])->children[0];
    bool materialize = MaterializeByDefault(first_query, references.size());
    if (cte.materialize == ast::CteMaterialize::kAlways) materialize = true;
    if (cte.materialize == ast::CteMaterialize::kNever) materialize = false;
    if (!materialize) {
      for (LogicalOperatorPtr* reference : references) {
        LogicalOperatorPtr query = std::move((*reference)->children[0]);
        *reference = std::move(query);
      }
      continue;
    }
    LogicalOperatorPtr definition = std::move((*references[0])->children[0]);
    if (definition->type != LogicalOperatorType::kProjection) {
      // Column pruning keeps every column of a projection the references read by position
      // (see column_pruning.cpp); a projection on top makes that hold for any query.
      auto projection = std::make_unique<LogicalProjection>();
      projection->table_index = NewTableIndex();
      const auto bindings = definition->GetColumnBindings();
      const auto types = definition->GetTypes();
      for (size_t c = 0; c < bindings.size(); c++) {
        projection->expressions.push_back(
            std::make_unique<BoundColumnRef>(types[c], bindings[c], "#" + std::to_string(c)));
      }
      projection->children.push_back(std::move(definition));
      definition = std::move(projection);
    }
    for (LogicalOperatorPtr* reference : references)
      (*reference)->children.clear();
    // The first reference output its query's columns, which now belong to the definition:
    // give it columns of its own so that no binding names two operators.
    std::map<uint32_t, uint32_t> remap;
    for (const auto& b : static_cast<LogicalCteScan&>(**references[0]).bindings) {
      if (!remap.count(b.table_index)) remap[b.table_index] = NewTableIndex();
    }
    RemapAll(*plan, remap);
    auto materialized = std::make_unique<LogicalMaterializedCte>();
    materialized->cte_index = cte_index;
    materialized->name = cte.name;
    materialized->children.push_back(std::move(definition));
    materialized->children.push_back(std::move(plan));
    plan = std::move(materialized);
  }
  return plan;
}

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
  if (node.by_name) throw NotSupportedError("UNION BY NAME in a recursive CTE is not supported");
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

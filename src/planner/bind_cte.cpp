// Common table expressions: inlined or materialized. Each reference to a CTE is bound on its
// own (as if the CTE's query were written there) and wrapped in a LogicalCteScan holding that
// binding. Once the query that declares the CTEs is bound, each CTE is decided on:
//  - referenced once, NOT MATERIALIZED, or trivially cheap (no join, aggregate, window, sort
//    or set operation): every reference is replaced by its own query (inlined), so filters
//    and dynamic partition pruning reach the CTE's scans as if it were written out;
//  - otherwise (referenced twice or more, or MATERIALIZED): the first reference's query
//    becomes the CTE's definition under a LogicalMaterializedCte above the declaring query,
//    and every reference scans its rows. Filters and dynamic filters from above a reference
//    then cannot reach into the CTE (it is computed once for all references), but joins inside
//    the CTE still prune its own scans.

#include <map>

#include "parser/ast.h"
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
    bool materialize = references.size() > 1 && !TriviallyCheap(first_query);
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

}  // namespace shears

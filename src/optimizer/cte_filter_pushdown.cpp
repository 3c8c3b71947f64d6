// cte_filter_pushdown: a materialized CTE computes its rows once for all its references, so
// filter_pushdown stops at each CTE_SCAN. When every reference filters its rows, the OR of the
// references' filters holds for every row any reference keeps: it goes on top of the CTE's
// definition, and filter pushdown takes it down from there (into the aggregate's input, the
// scans, partition pruning). Each reference keeps its own filter.
//
//   MATERIALIZED_CTE inv                        MATERIALIZED_CTE inv
//     AGGREGATE groups: d_moy, ...                AGGREGATE groups: d_moy, ...
//       ...                             ==>         ... date_dim filters: d_moy = 1 OR d_moy = 2
//     JOIN                                        JOIN
//       FILTER d_moy = 1  CTE_SCAN inv              FILTER d_moy = 1  CTE_SCAN inv
//       FILTER d_moy = 2  CTE_SCAN inv              FILTER d_moy = 2  CTE_SCAN inv
//
// A reference without a filter (or with one only of random() and the like) needs all rows: then
// nothing is pushed. Inner CTEs go first, so a CTE scanned only inside another CTE's definition
// sees the filters that definition received.

#include <map>
#include <optional>

#include "optimizer/optimizer.h"

namespace shears {

namespace {

struct Reference {
  LogicalFilter* filter = nullptr;  // directly above the scan, or null
  LogicalCteScan* scan = nullptr;
};

void CollectReferences(LogicalOperator& op, uint32_t cte_index, LogicalFilter* parent_filter,
                       std::vector<Reference>& out) {
  if (op.type == LogicalOperatorType::kCteScan &&
      static_cast<LogicalCteScan&>(op).cte_index == cte_index) {
    out.push_back({parent_filter, &static_cast<LogicalCteScan&>(op)});
    return;
  }
  if (op.type == LogicalOperatorType::kMaterializedCte &&
      static_cast<LogicalMaterializedCte&>(op).cte_index == cte_index) {
    return;  // a copy (decorrelation) of the CTE: its scans are its own
  }
  LogicalFilter* filter =
      op.type == LogicalOperatorType::kFilter ? static_cast<LogicalFilter*>(&op) : nullptr;
  for (auto& child : op.children)
    CollectReferences(*child, cte_index, filter, out);
}

bool Pushable(BoundExpr& expr) {
  bool pushable = !CallsVolatile(expr);
  VisitExpression(expr, [&](BoundExpr& e) {
    pushable = pushable && e.kind != BoundExprKind::kSubquery &&
               e.kind != BoundExprKind::kAggregate && e.kind != BoundExprKind::kWindow;
  });
  return pushable;
}

/// The reference's filter conjuncts over the definition's columns (`definition`, by position);
/// none when it keeps every row as far as can be pushed.
std::vector<BoundExprPtr> ReferenceFilter(const Reference& ref,
                                          const std::vector<ColumnBinding>& definition,
                                          const std::vector<LogicalType>& types) {
  if (!ref.filter) return {};
  std::map<ColumnBinding, size_t> position;
  for (size_t i = 0; i < ref.scan->bindings.size(); i++)
    position[ref.scan->bindings[i]] = i;
  std::vector<BoundExprPtr> conjuncts;
  for (const auto& condition : ref.filter->conditions) {
    if (!Pushable(*condition)) continue;
    bool over_scan = true;
    for (const auto& b : ReferencedBindings(*condition))
      over_scan = over_scan && position.count(b);
    if (!over_scan) continue;
    BoundExprPtr copy = condition->Copy();
    std::function<void(BoundExprPtr&)> remap = [&](BoundExprPtr& e) {
      if (e->kind == BoundExprKind::kColumnRef) {
        auto& ref_expr = static_cast<BoundColumnRef&>(*e);
        const size_t i = position.at(ref_expr.binding);
        ref_expr.binding = definition[i];
        ref_expr.type = types[i];
        return;
      }
      for (BoundExprPtr* child : e->Children())
        remap(*child);
    };
    remap(copy);
    conjuncts.push_back(std::move(copy));
  }
  return conjuncts;
}

/// The column `expr` reads when it reads exactly one.
std::optional<ColumnBinding> SingleColumn(const BoundExpr& expr) {
  const auto referenced = ReferencedBindings(expr);
  if (referenced.empty()) return std::nullopt;
  for (const auto& b : referenced) {
    if (!(b == referenced[0])) return std::nullopt;
  }
  return referenced[0];
}

void PushIntoCtes(LogicalOperatorPtr& op, const Settings& settings) {
  for (auto& child : op->children)
    PushIntoCtes(child, settings);
  if (op->type != LogicalOperatorType::kMaterializedCte) return;
  auto& cte = static_cast<LogicalMaterializedCte&>(*op);
  std::vector<Reference> references;
  CollectReferences(*op->children[1], cte.cte_index, nullptr, references);
  if (references.empty()) return;
  LogicalOperatorPtr& definition = op->children[0];
  const auto bindings = definition->GetColumnBindings();
  const auto types = definition->GetTypes();
  std::vector<std::vector<BoundExprPtr>> per_reference;
  for (const auto& ref : references) {
    if (ref.scan->bindings.size() != bindings.size()) return;
    per_reference.push_back(ReferenceFilter(ref, bindings, types));
    if (per_reference.back().empty()) return;  // this reference reads every row
  }
  auto filter = std::make_unique<LogicalFilter>();
  // Per column: the OR over the references of their conjuncts over that column alone, when
  // each has some, is implied too, and goes further down than the whole OR (below an aggregate
  // on that column, into a scan): (moy = 1 AND q > 50) OR (moy = 2 AND q > 60) implies
  // moy = 1 OR moy = 2.
  if (per_reference.size() > 1) {
    for (const ColumnBinding& column : bindings) {
      std::vector<BoundExprPtr> disjuncts;
      bool every = true, only_this_column = true;
      for (const auto& conjuncts : per_reference) {
        std::vector<BoundExprPtr> on_column;
        for (const auto& c : conjuncts) {
          if (SingleColumn(*c) == column) {
            on_column.push_back(c->Copy());
          } else {
            only_this_column = false;
          }
        }
        every = every && !on_column.empty();
        if (!every) break;
        disjuncts.push_back(MakeConjunction(std::move(on_column)));
      }
      // When every conjunct is over this column, this is the whole OR below.
      if (!every || only_this_column) continue;
      filter->conditions.push_back(
          FactorOrBranches(CombineConnective(false, std::move(disjuncts))));
    }
  }
  std::vector<BoundExprPtr> disjuncts;
  for (auto& conjuncts : per_reference)
    disjuncts.push_back(MakeConjunction(std::move(conjuncts)));
  SplitConjunction(FactorOrBranches(CombineConnective(false, std::move(disjuncts))),
                   filter->conditions);
  filter->children.push_back(std::move(definition));
  definition = std::move(filter);
  // As for the query's own filters: per-table filters out of the OR's branches, then down.
  FactorOrPredicates(definition, settings);
  PushDownFilters(definition, settings);
}

}  // namespace

void PushFiltersIntoCtes(LogicalOperatorPtr& plan, const Settings& settings) {
  PushIntoCtes(plan, settings);
}

}  // namespace shears

// Subqueries in a join's ON condition. Each conjunct of the condition that holds a subquery is
// planned by what its subqueries and columns use:
//
//   one side only (or neither)  the subquery joins that side before the join (PlanSubqueries:
//                               a column added to each of its rows, none added or lost), and
//                               the conjunct stays in the join's condition over that column:
//                               exact for every join kind
//   both sides (pair-dependent):
//     INNER / CROSS             a filter above the join, its subqueries joined below it
//     LEFT / SEMI / ANTI        a lateral join: L LEFT JOIN R ON c AND rest is
//                               L LEFT JOIN LATERAL (SELECT * FROM R WHERE c) ON rest, the
//                               filtered R decorrelated on L's columns it uses (dependent_join.h)
//     RIGHT                     the same with the sides' roles swapped
//     FULL                      the LEFT form's rows UNION ALL the right rows that match no
//                               left row (the ANTI form with the sides swapped, over copies of
//                               both sides and the condition bound again), padded with NULLs
//
// The lateral form keeps outer-join semantics exact: for each left row, the right rows its
// pairs match are those passing c (filtered per left-side value) and then `rest`; a left row
// with none is padded with NULLs.

#include <algorithm>

#include "common/error.h"
#include "planner/bind_context.h"
#include "planner/dependent_join.h"
#include "planner/plan_copy.h"

namespace shears {

namespace {

bool HoldsSubquery(BoundExpr& expr) {
  bool found = false;
  VisitExpression(expr, [&](BoundExpr& e) { found = found || e.kind == BoundExprKind::kSubquery; });
  return found;
}

void CollectTables(BoundExpr& expr, std::set<uint32_t>& tables);

void CollectTables(LogicalOperator& op, std::set<uint32_t>& tables) {
  for (BoundExprPtr* e : op.Expressions())
    CollectTables(**e, tables);
  for (auto& child : op.children)
    CollectTables(*child, tables);
}

/// The tables whose columns `expr` uses, its subqueries' correlated columns included.
void CollectTables(BoundExpr& expr, std::set<uint32_t>& tables) {
  VisitExpression(expr, [&](BoundExpr& e) {
    if (e.kind == BoundExprKind::kColumnRef) {
      tables.insert(static_cast<BoundColumnRef&>(e).binding.table_index);
    } else if (e.kind == BoundExprKind::kSubquery) {
      CollectTables(*static_cast<BoundSubquery&>(e).info->plan, tables);
    }
  });
}

bool UsesAny(const std::set<uint32_t>& used, const std::set<uint32_t>& tables) {
  for (uint32_t t : used) {
    if (tables.count(t)) return true;
  }
  return false;
}

bool CallsVolatile(LogicalOperator& op);

/// Whether `expr` or its subqueries call a volatile function (nextval, random): how often it
/// runs would change with the plan (DuckDB runs it once per pair of rows). The planned
/// subqueries' single_row_check is not one: it only raises an error.
bool CallsVolatileWithin(BoundExpr& expr) {
  bool found = false;
  VisitExpression(expr, [&](BoundExpr& e) {
    if (e.kind == BoundExprKind::kFunction) {
      const auto& fn = static_cast<BoundFunction&>(e).function;
      found = found || (!fn.deterministic && fn.name != "single_row_check");
    } else if (e.kind == BoundExprKind::kSubquery) {
      found = found || CallsVolatile(*static_cast<BoundSubquery&>(e).info->plan);
    }
  });
  return found;
}

bool CallsVolatile(LogicalOperator& op) {
  for (BoundExprPtr* e : op.Expressions()) {
    if (CallsVolatileWithin(**e)) return true;
  }
  for (auto& child : op.children) {
    if (CallsVolatile(*child)) return true;
  }
  return false;
}

std::vector<BoundExprPtr*> Pointers(std::vector<BoundExprPtr>& exprs) {
  std::vector<BoundExprPtr*> targets(exprs.size());
  std::transform(exprs.begin(), exprs.end(), targets.begin(), [](BoundExprPtr& e) { return &e; });
  return targets;
}

}  // namespace

bool SplitSubqueryConjuncts(std::vector<BoundExprPtr>& conjuncts,
                            std::vector<BoundExprPtr>& with_subqueries) {
  std::vector<BoundExprPtr> kept;
  for (auto& c : conjuncts) {
    if (HoldsSubquery(*c)) {
      with_subqueries.push_back(std::move(c));
    } else {
      kept.push_back(std::move(c));
    }
  }
  conjuncts = std::move(kept);
  return !with_subqueries.empty();
}

LogicalOperatorPtr Binder::PlanJoinSubqueries(std::unique_ptr<LogicalJoin> join,
                                              std::vector<BoundExprPtr> conjuncts,
                                              const RebindCondition& rebind,
                                              std::map<ColumnBinding, ColumnBinding>* remap) {
  LogicalOperatorPtr& left = join->children[0];
  LogicalOperatorPtr& right = join->children[1];
  const std::set<uint32_t> left_tables = ProducedTables(*left);
  const std::set<uint32_t> right_tables = ProducedTables(*right);
  std::vector<BoundExprPtr> on_left, on_right, on_pairs;
  bool pairs = false;
  for (auto& c : conjuncts) {
    if (CallsVolatileWithin(*c)) {
      throw NotSupportedError(
          "a subquery calling a volatile function (nextval, random, ...) in a JOIN condition is "
          "not supported");
    }
    std::set<uint32_t> used;
    CollectTables(*c, used);
    pairs = pairs || (UsesAny(used, left_tables) && UsesAny(used, right_tables));
  }
  if (pairs && join->join_kind == JoinKind::kFull) {
    return PlanFullJoinPairs(std::move(join), std::move(conjuncts), rebind, remap);
  }
  for (auto& c : conjuncts) {
    std::set<uint32_t> used;
    CollectTables(*c, used);
    const bool uses_left = UsesAny(used, left_tables);
    const bool uses_right = UsesAny(used, right_tables);
    if (uses_left && uses_right) {
      on_pairs.push_back(std::move(c));
    } else if (uses_left) {
      on_left.push_back(std::move(c));
    } else {
      on_right.push_back(std::move(c));  // an uncorrelated one too: one value for all rows
    }
  }
  std::vector<BoundExprPtr> residual;
  if (join->residual) SplitConjunction(std::move(join->residual), residual);
  auto on_side = [&](LogicalOperatorPtr& side, std::vector<BoundExprPtr>& side_conjuncts) {
    if (side_conjuncts.empty()) return;
    side = PlanSubqueries(std::move(side), Pointers(side_conjuncts));
    for (auto& c : side_conjuncts)
      residual.push_back(std::move(c));
  };
  on_side(left, on_left);
  on_side(right, on_right);
  const JoinKind kind = join->join_kind;
  if (kind == JoinKind::kCross) join->join_kind = JoinKind::kInner;
  if (on_pairs.empty() || kind == JoinKind::kInner || kind == JoinKind::kCross) {
    if (!residual.empty()) join->residual = MakeConjunction(std::move(residual));
    if (on_pairs.empty()) return join;
    // Inner: the pairs the rest of the condition keeps, filtered by the subqueries' conjuncts.
    LogicalOperatorPtr plan = PlanSubqueries(std::move(join), Pointers(on_pairs));
    auto filter = std::make_unique<LogicalFilter>();
    filter->conditions = std::move(on_pairs);
    filter->children.push_back(std::move(plan));
    return filter;
  }
  if (kind != JoinKind::kLeft && kind != JoinKind::kSemi && kind != JoinKind::kAnti &&
      kind != JoinKind::kRight) {
    throw NotSupportedError("a subquery in the condition of a {} join is not supported",
                            JoinKindName(kind));
  }
  // The side whose rows are filtered per value of the other (preserved) side's columns.
  const bool swapped = kind == JoinKind::kRight;
  LogicalOperatorPtr& filtered = swapped ? left : right;
  LogicalOperator& preserved = swapped ? *right : *left;
  if (CallsVolatile(*left) || CallsVolatile(*right)) {
    // The preserved side's values are computed from a copy of it, and the filtered side runs
    // once per value of the other's: volatile values would differ.
    throw NotSupportedError(
        "a subquery in a JOIN condition using columns of both sides, one of which calls a "
        "volatile function (nextval, random, ...), is not supported");
  }
  filtered = PlanSubqueries(std::move(filtered), Pointers(on_pairs));
  auto filter = std::make_unique<LogicalFilter>();
  filter->conditions = std::move(on_pairs);
  filter->children.push_back(std::move(filtered));
  FlattenedSubquery flat = FlattenDependentJoin(*this, preserved, std::move(filter), nullptr);
  filtered = std::move(flat.plan);
  for (auto& key : flat.keys) {
    if (swapped) std::swap(key.left, key.right);
    join->conditions.push_back(std::move(key));
  }
  if (!residual.empty()) join->residual = MakeConjunction(std::move(residual));
  return join;
}

LogicalOperatorPtr Binder::PlanFullJoinPairs(std::unique_ptr<LogicalJoin> join,
                                             std::vector<BoundExprPtr> conjuncts,
                                             const RebindCondition& rebind,
                                             std::map<ColumnBinding, ColumnBinding>* remap) {
  if (!rebind || !remap) {
    throw NotSupportedError(
        "a subquery in a FULL JOIN condition that uses columns of both sides is not supported "
        "here");
  }
  LogicalOperator& left = *join->children[0];
  LogicalOperator& right = *join->children[1];
  if (CallsVolatile(left) || CallsVolatile(right)) {
    throw NotSupportedError(
        "a subquery in a FULL JOIN condition using columns of both sides, with a side that "
        "calls a volatile function (nextval, random, ...), is not supported");
  }
  // The unmatched right rows come from copies of both sides, made before the left form below
  // joins the subqueries into the originals.
  std::map<uint32_t, uint32_t> tables;
  auto anti = std::make_unique<LogicalJoin>();
  anti->join_kind = JoinKind::kAnti;
  anti->children.push_back(CopyPlan(right, *this, tables));
  anti->children.push_back(CopyPlan(left, *this, tables));
  std::vector<BoundExprPtr> anti_conjuncts = rebind(tables);
  std::vector<BoundExprPtr> anti_subqueries;
  SplitSubqueryConjuncts(anti_conjuncts, anti_subqueries);
  if (!anti_conjuncts.empty()) anti->residual = MakeConjunction(std::move(anti_conjuncts));

  const std::vector<ColumnBinding> left_bindings = left.GetColumnBindings();
  const std::vector<LogicalType> left_types = left.GetTypes();
  const std::vector<ColumnBinding> right_bindings = right.GetColumnBindings();
  const std::vector<LogicalType> right_types = right.GetTypes();
  join->join_kind = JoinKind::kLeft;
  LogicalOperatorPtr matched = PlanJoinSubqueries(std::move(join), std::move(conjuncts));
  LogicalOperatorPtr unmatched = PlanJoinSubqueries(std::move(anti), std::move(anti_subqueries));

  // Both as the left columns then the right ones (the unmatched rows' left columns NULL).
  auto matched_columns = std::make_unique<LogicalProjection>();
  matched_columns->table_index = NewTableIndex();
  auto unmatched_columns = std::make_unique<LogicalProjection>();
  unmatched_columns->table_index = NewTableIndex();
  auto set = std::make_unique<LogicalSetOperation>();
  set->table_index = NewTableIndex();
  set->kind = SetOperationKind::kUnion;
  set->all = true;
  auto add = [&](const ColumnBinding& binding, const LogicalType& type, bool from_left) {
    const auto index = static_cast<uint32_t>(set->types.size());
    matched_columns->expressions.push_back(std::make_unique<BoundColumnRef>(type, binding, "c"));
    if (from_left) {
      unmatched_columns->expressions.push_back(std::make_unique<BoundConstant>(Value::Null(type)));
    } else {
      auto copied = std::make_unique<BoundColumnRef>(type, binding, "c");
      RemapBindings(*copied, tables);
      unmatched_columns->expressions.push_back(std::move(copied));
    }
    set->types.push_back(type);
    (*remap)[binding] = ColumnBinding{set->table_index, index};
  };
  for (size_t i = 0; i < left_bindings.size(); i++)
    add(left_bindings[i], left_types[i], true);
  for (size_t i = 0; i < right_bindings.size(); i++)
    add(right_bindings[i], right_types[i], false);
  matched_columns->children.push_back(std::move(matched));
  unmatched_columns->children.push_back(std::move(unmatched));
  set->children.push_back(std::move(matched_columns));
  set->children.push_back(std::move(unmatched_columns));
  return set;
}

}  // namespace shears

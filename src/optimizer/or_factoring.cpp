// or_factoring: takes what every branch of an OR shares out of it, and derives from the
// branches a filter per table, so that filter_pushdown (which runs next) finds join keys and
// scan filters in predicates written as a disjunction of complete cases (TPC-DS q13, q48):
//
//   FILTER((ss.k = d.k AND d.y = 1 AND ss.p < 5)    FILTER(ss.k = d.k,
//       OR (ss.k = d.k AND d.y = 2 AND ss.p > 9))  ==>       (d.y = 1 AND ss.p < 5) OR (d.y = 2 AND
//       ss.p > 9),
//                                                          d.y = 1 OR d.y = 2,
//                                                          ss.p < 5 OR ss.p > 9)
//
// Factoring is an equivalence ((A AND B) OR (A AND C) = A AND (B OR C) holds in three-valued
// logic too), so it applies anywhere. A derived filter is only implied by the OR (each branch
// implies its own part over the table), so it is added beside the OR, which stays, and only
// where rows for which a condition is not TRUE are dropped: filters, and the ON conditions of
// joins other than mark joins (whose result tells FALSE from NULL). Derivation is skipped for
// an OR over a single table (it would only repeat it) and for parts that are not
// deterministic.

#include <map>

#include "optimizer/optimizer.h"

namespace shears {

namespace {

// The disjuncts of an OR (nested ORs flattened) or the conjuncts of an AND.
void Flatten(BoundExprPtr expr, bool is_and, std::vector<BoundExprPtr>& out) {
  if (expr->kind == BoundExprKind::kConjunction &&
      static_cast<BoundConjunction&>(*expr).is_and == is_and) {
    for (auto& child : static_cast<BoundConjunction&>(*expr).children)
      Flatten(std::move(child), is_and, out);
    return;
  }
  out.push_back(std::move(expr));
}

BoundExprPtr Combine(bool is_and, std::vector<BoundExprPtr> parts) {
  if (parts.size() == 1) return std::move(parts[0]);
  return std::make_unique<BoundConjunction>(is_and, std::move(parts));
}

// Rewrites ORs inside `expr` (bottom-up) with their common conjuncts factored out.
BoundExprPtr Factor(BoundExprPtr expr) {
  if (expr->kind != BoundExprKind::kConjunction) return expr;
  auto& conjunction = static_cast<BoundConjunction&>(*expr);
  for (auto& child : conjunction.children)
    child = Factor(std::move(child));
  if (conjunction.is_and) return expr;
  std::vector<BoundExprPtr> disjuncts;
  Flatten(std::move(expr), false, disjuncts);
  std::vector<std::vector<BoundExprPtr>> branches(disjuncts.size());
  for (size_t i = 0; i < disjuncts.size(); i++)
    Flatten(std::move(disjuncts[i]), true, branches[i]);
  std::vector<BoundExprPtr> common;
  for (size_t c = 0; c < branches[0].size();) {
    // Where the candidate occurs in each other branch.
    std::vector<size_t> at(branches.size(), 0);
    bool everywhere = true;
    for (size_t b = 1; b < branches.size() && everywhere; b++) {
      everywhere = false;
      for (size_t i = 0; i < branches[b].size(); i++) {
        if (ExpressionsEqual(*branches[0][c], *branches[b][i])) {
          at[b] = i;
          everywhere = true;
          break;
        }
      }
    }
    if (!everywhere) {
      c++;
      continue;
    }
    common.push_back(std::move(branches[0][c]));
    branches[0].erase(branches[0].begin() + static_cast<long>(c));
    for (size_t b = 1; b < branches.size(); b++)
      branches[b].erase(branches[b].begin() + static_cast<long>(at[b]));
  }
  bool some_branch_true = false;
  std::vector<BoundExprPtr> rest;
  for (auto& branch : branches) {
    if (branch.empty()) {
      some_branch_true = true;  // that branch was all common: the OR of the rest adds nothing
    } else {
      rest.push_back(Combine(true, std::move(branch)));
    }
  }
  if (!some_branch_true) common.push_back(Combine(false, std::move(rest)));
  return Combine(true, std::move(common));
}

bool Deterministic(BoundExpr& expr) {
  bool deterministic = true;
  VisitExpression(expr, [&](BoundExpr& e) {
    if (e.kind == BoundExprKind::kFunction &&
        !static_cast<BoundFunction&>(e).function.deterministic)
      deterministic = false;
    if (e.kind == BoundExprKind::kSubquery || e.kind == BoundExprKind::kAggregate)
      deterministic = false;
  });
  return deterministic;
}

// The one table (binding table index) `expr` reads, or -1 when it reads none or several.
int64_t SingleTable(const BoundExpr& expr) {
  int64_t table = -1;
  for (const auto& b : ReferencedBindings(expr)) {
    if (table >= 0 && table != b.table_index) return -1;
    table = b.table_index;
  }
  return table;
}

// For an OR over several tables: per table, the OR of each branch's conjuncts over that table
// alone, when every branch has some.
void Derive(BoundExpr& expr, std::vector<BoundExprPtr>& out) {
  if (expr.kind != BoundExprKind::kConjunction || static_cast<BoundConjunction&>(expr).is_and)
    return;
  auto copy = expr.Copy();
  std::vector<BoundExprPtr> disjuncts;
  Flatten(std::move(copy), false, disjuncts);
  // table -> per branch, its conjuncts over that table alone.
  std::map<int64_t, std::vector<std::vector<BoundExprPtr>>> per_table;
  for (size_t b = 0; b < disjuncts.size(); b++) {
    std::vector<BoundExprPtr> conjuncts;
    Flatten(std::move(disjuncts[b]), true, conjuncts);
    for (auto& c : conjuncts) {
      const int64_t table = SingleTable(*c);
      if (table < 0 || !Deterministic(*c)) continue;
      auto& branches = per_table[table];
      branches.resize(disjuncts.size());
      branches[b].push_back(std::move(c));
    }
  }
  if (per_table.size() < 2 && SingleTable(expr) >= 0) return;  // over one table already
  for (auto& [table, branches] : per_table) {
    bool all = true;
    for (const auto& branch : branches)
      all = all && !branch.empty();
    if (!all) continue;
    std::vector<BoundExprPtr> parts;
    for (auto& branch : branches)
      parts.push_back(Combine(true, std::move(branch)));
    out.push_back(Combine(false, std::move(parts)));
  }
}

// Factors and derives over a list of conjuncts, in place.
void Rewrite(std::vector<BoundExprPtr>& conjuncts, bool derive) {
  std::vector<BoundExprPtr> out;
  for (auto& c : conjuncts) {
    std::vector<BoundExprPtr> parts;
    Flatten(Factor(std::move(c)), true, parts);
    for (auto& p : parts) {
      if (derive) Derive(*p, out);
      out.push_back(std::move(p));
    }
  }
  conjuncts = std::move(out);
}

void Visit(LogicalOperator& op) {
  for (auto& child : op.children)
    Visit(*child);
  if (op.type == LogicalOperatorType::kFilter) {
    Rewrite(static_cast<LogicalFilter&>(op).conditions, true);
  } else if (op.type == LogicalOperatorType::kJoin) {
    auto& join = static_cast<LogicalJoin&>(op);
    if (!join.residual) return;
    std::vector<BoundExprPtr> conjuncts;
    SplitConjunction(std::move(join.residual), conjuncts);
    Rewrite(conjuncts, join.join_kind != JoinKind::kMark);
    join.residual = MakeConjunction(std::move(conjuncts));
  } else if (op.type == LogicalOperatorType::kGet) {
    Rewrite(static_cast<LogicalGet&>(op).filters, false);
  }
}

}  // namespace

void FactorOrPredicates(LogicalOperatorPtr& plan, const Settings&) {
  Visit(*plan);
}

}  // namespace shears

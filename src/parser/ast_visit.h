#pragma once
// Walking an expression's children, for the passes over ASTs outside the binder (DEFAULTs,
// macro bodies).

#include "parser/ast.h"

namespace shears::ast {

/// Calls `visit` on each direct child expression of `expr` (not into subqueries).
template <typename Visit>
void ForEachChild(const Expr& expr, Visit&& visit) {
  auto each = [&visit](const auto&... children) { ((children ? visit(*children) : void()), ...); };
  switch (expr.kind) {
    case ExprKind::kFunction: {
      const auto& f = static_cast<const FunctionExpr&>(expr);
      for (const auto& arg : f.args)
        each(arg);
      for (const auto& named : f.named_args)
        each(named.second);
      each(f.filter);
      break;
    }
    case ExprKind::kOperator:
      for (const auto& child : static_cast<const OperatorExpr&>(expr).children)
        each(child);
      break;
    case ExprKind::kCast:
      each(static_cast<const CastExpr&>(expr).child);
      break;
    case ExprKind::kCase: {
      const auto& c = static_cast<const CaseExpr&>(expr);
      each(c.operand, c.else_expr);
      for (const auto& [when, then] : c.when_then)
        each(when, then);
      break;
    }
    case ExprKind::kInList: {
      const auto& in = static_cast<const InListExpr&>(expr);
      each(in.value);
      for (const auto& item : in.list)
        each(item);
      break;
    }
    case ExprKind::kBetween: {
      const auto& b = static_cast<const BetweenExpr&>(expr);
      each(b.value, b.low, b.high);
      break;
    }
    case ExprKind::kLike: {
      const auto& l = static_cast<const LikeExpr&>(expr);
      each(l.value, l.pattern, l.escape);
      break;
    }
    case ExprKind::kIsNull:
      each(static_cast<const IsNullExpr&>(expr).child);
      break;
    case ExprKind::kIsBool:
      each(static_cast<const IsBoolExpr&>(expr).child);
      break;
    case ExprKind::kSubquery:
      each(static_cast<const SubqueryExpr&>(expr).left);
      break;
    case ExprKind::kColumnRef:
    case ExprKind::kStar:
    case ExprKind::kConstant:
    case ExprKind::kInterval:
    case ExprKind::kParameter:
    case ExprKind::kDefault:
      break;
  }
}

/// Whether `expr` reads a column or holds a subquery: what may make it differ row by row.
inline bool MentionsColumns(const Expr& expr) {
  if (expr.kind == ExprKind::kColumnRef || expr.kind == ExprKind::kStar ||
      expr.kind == ExprKind::kSubquery) {
    return true;
  }
  bool found = false;
  ForEachChild(expr, [&found](const Expr& child) { found = found || MentionsColumns(child); });
  return found;
}

/// Whether `expr` is or holds a subquery (LIMIT (SELECT ...), a CHECK that may not have one).
inline bool HasSubquery(const Expr& expr) {
  if (expr.kind == ExprKind::kSubquery) return true;
  bool found = false;
  ForEachChild(expr, [&found](const Expr& child) { found = found || HasSubquery(child); });
  return found;
}

/// The lateral form of `unnest(x)` in FROM when x reads columns (`FROM t, unnest(t.l)`), else
/// null: a constant list stays the VALUES of its elements.
inline const TableRef* LateralUnnest(const TableRef& ref) {
  if (ref.kind != TableRefKind::kTableFunction) return nullptr;
  const auto& fn = static_cast<const TableFunctionRef&>(ref);
  if (!fn.lateral_unnest || fn.args.size() != 1 || !MentionsColumns(*fn.args[0])) return nullptr;
  return fn.lateral_unnest.get();
}

}  // namespace shears::ast

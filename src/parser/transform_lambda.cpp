// DuckDB's lambdas as PostgreSQL's grammar delivers them: the argument of list_transform & co.
// made one "lambda" operator (parameters, then body).

#include <memory>

#include "parser/transformer.h"

namespace shears::parser_internal {

namespace {

/// The slot on `root`'s leftmost operand chain holding a lambda arrow (`x -> body`, or an
/// already made (x, i) lambda), or null. PostgreSQL's grammar binds `->` tighter than
/// comparisons, IN, LIKE, BETWEEN, IS and AND / OR, so `x -> x > 1 AND x < 5` arrives as
/// `((x -> x) > 1) AND (x < 5)`; DuckDB's lambda takes everything to its right.
ast::ExprPtr* FindLambdaArrow(ast::ExprPtr& root) {
  ast::ExprPtr* slot = &root;
  while (*slot) {
    ast::Expr& e = **slot;
    ast::ExprPtr* next = nullptr;
    switch (e.kind) {
      case ast::ExprKind::kOperator: {
        auto& op = static_cast<ast::OperatorExpr&>(e);
        if (op.op == "lambda") return slot;
        if (op.op == "->" && op.children.size() == 2 &&
            op.children[0]->kind == ast::ExprKind::kColumnRef &&
            static_cast<const ast::ColumnRefExpr&>(*op.children[0]).names.size() == 1) {
          return slot;
        }
        if (op.children.size() >= 2) next = &op.children[0];
        break;
      }
      case ast::ExprKind::kInList:
        next = &static_cast<ast::InListExpr&>(e).value;
        break;
      case ast::ExprKind::kBetween:
        next = &static_cast<ast::BetweenExpr&>(e).value;
        break;
      case ast::ExprKind::kLike:
        next = &static_cast<ast::LikeExpr&>(e).value;
        break;
      case ast::ExprKind::kIsNull:
        next = &static_cast<ast::IsNullExpr&>(e).child;
        break;
      case ast::ExprKind::kIsBool:
        next = &static_cast<ast::IsBoolExpr&>(e).child;
        break;
      default:
        break;
    }
    if (next == nullptr) return nullptr;
    slot = next;
  }
  return nullptr;
}

}  // namespace

// Without an arrow `arg` stays as it is: the binder then says a lambda is needed.

ast::ExprPtr MakeLambda(ast::ExprPtr arg) {
  ast::ExprPtr* slot = FindLambdaArrow(arg);
  if (slot == nullptr) return arg;
  auto& arrow = static_cast<ast::OperatorExpr&>(**slot);
  auto lambda = std::make_unique<ast::OperatorExpr>();
  lambda->location = arrow.location;
  lambda->op = "lambda";
  for (size_t i = 0; i + 1 < arrow.children.size(); i++)
    lambda->children.push_back(std::move(arrow.children[i]));
  ast::ExprPtr body = std::move(arrow.children.back());
  if (slot == &arg) {
    lambda->children.push_back(std::move(body));
  } else {
    *slot = std::move(body);
    lambda->children.push_back(std::move(arg));
  }
  return lambda;
}

}  // namespace shears::parser_internal

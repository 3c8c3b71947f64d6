#pragma once
// What the expression transformers (transform_expression.cpp, transform_subquery.cpp) share.

#include <memory>
#include <string>
#include <vector>

#include "parser/transformer.h"

namespace shears::parser_internal {

template <typename T>
std::unique_ptr<T> MakeExpr(int location) {
  auto expr = std::make_unique<T>();
  expr->location = location;
  return expr;
}

std::unique_ptr<ast::ConstantExpr> MakeConstant(Value value, int location);

/// The operator of an A_Expr or SubLink name list (the last String; OPERATOR(schema.op) has
/// the schema first).
std::string OperatorName(PgQuery__Node** names, size_t n);

bool IsSupportedOperator(const std::string& op);

bool IsRow(const PgQuery__Node* node);

/// The AND / OR of `parts`, or the one part.
ast::ExprPtr Junction(const char* op, std::vector<ast::ExprPtr> parts, int location);

}  // namespace shears::parser_internal

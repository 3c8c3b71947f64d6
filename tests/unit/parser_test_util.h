#pragma once
// Helpers of the parser tests (parser_test.cpp, parser_query_test.cpp,
// parser_statement_test.cpp): parse one statement, its query, an expression, an error.

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "common/error.h"
#include "parser/parser.h"
#include "parser/transformer.h"

namespace shears::parser_test_util {

using namespace ast;  // NOLINT: the tests name many AST types

inline std::unique_ptr<Statement> ParseOne(const std::string& sql) {
  auto statements = Parser::Parse(sql);
  EXPECT_EQ(statements.size(), 1u) << sql;
  if (statements.empty()) return nullptr;
  return std::move(statements[0]);
}

/// The query of a single SELECT statement (kept alive by the returned statement).
struct ParsedQuery {
  std::unique_ptr<Statement> statement;
  QueryNode* query = nullptr;
};

inline ParsedQuery ParseQuery(const std::string& sql) {
  ParsedQuery result;
  result.statement = ParseOne(sql);
  EXPECT_TRUE(result.statement != nullptr);
  if (!result.statement) return result;
  EXPECT_EQ(result.statement->kind, StatementKind::kSelect) << sql;
  result.query = static_cast<SelectStatement&>(*result.statement).query.get();
  return result;
}

inline std::string QueryText(const std::string& sql) {
  ParsedQuery parsed = ParseQuery(sql);
  return parsed.query ? parsed.query->ToString() : "";
}

inline SelectNode& AsSelect(QueryNode* node) {
  EXPECT_EQ(node->kind, QueryNodeKind::kSelect);
  return static_cast<SelectNode&>(*node);
}

/// ToString of the first select-list expression of `SELECT <expr>`.
inline std::string ExprText(const std::string& expr) {
  ParsedQuery parsed = ParseQuery("SELECT " + expr);
  return AsSelect(parsed.query).select_list.at(0).expr->ToString();
}

/// Holds a parsed `SELECT <expr>` and gives its first expression.
struct ParsedExpr {
  ParsedQuery parsed;
  Expr* expr = nullptr;
  explicit ParsedExpr(const std::string& text) : parsed(ParseQuery("SELECT " + text)) {
    expr = AsSelect(parsed.query).select_list.at(0).expr.get();
  }
  template <typename T>
  T& As() {
    return static_cast<T&>(*expr);
  }
};

template <typename ErrorType>
inline std::string ErrorOf(const std::string& sql) {
  try {
    Parser::Parse(sql);
  } catch (const ErrorType& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "unexpected exception type for: " << sql << "\n" << e.what();
    return "";
  }
  ADD_FAILURE() << "no error for: " << sql;
  return "";
}

inline std::string ParseErrorOf(const std::string& sql) {
  return ErrorOf<ParseError>(sql);
}
inline std::string NotSupportedOf(const std::string& sql) {
  return ErrorOf<NotSupportedError>(sql);
}

inline void ExpectNotSupported(const std::string& sql, const std::string& fragment) {
  std::string message = NotSupportedOf(sql);
  EXPECT_NE(message.find(fragment), std::string::npos) << sql << "\n" << message;
}

inline Value ConstantOf(const std::string& literal) {
  ParsedExpr e(literal);
  EXPECT_EQ(e.expr->kind, ExprKind::kConstant) << literal;
  return e.As<ConstantExpr>().value;
}

inline const TableRef& FromOf(const ParsedQuery& parsed) {
  const TableRef* from = AsSelect(parsed.query).from.get();
  EXPECT_NE(from, nullptr);
  return *from;
}

}  // namespace shears::parser_test_util

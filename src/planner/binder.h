#pragma once
// The binder: AST -> logical plan. Resolves names against the FROM clause (and enclosing
// queries, for correlated subqueries), types every expression, picks functions and implicit
// casts, expands *, checks GROUP BY rules, and turns IN/EXISTS subqueries into semi, anti and
// mark joins. Errors are BinderErrors that name the column, table or function.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "parser/ast.h"
#include "planner/logical_plan.h"

namespace shears {

struct BoundQuery {
  LogicalOperatorPtr plan;
  std::vector<std::string> names;
  std::vector<LogicalType> types;
};

class Binder {
 public:
  /// Names in FROM are looked up as CTEs, then views and tables of `catalog`.
  explicit Binder(const Catalog& catalog);
  BoundQuery Bind(const ast::QueryNode& query);

  struct Scope;
  struct ExprContext;

 private:
  BoundQuery BindQueryNode(const ast::QueryNode& node, Scope* outer);
  BoundQuery BindSelect(const ast::SelectNode& node, Scope* outer);
  BoundQuery BindSetOperation(const ast::SetOperationNode& node, Scope* outer);
  BoundQuery BindValues(const ast::ValuesNode& node);
  BoundQuery ApplyOrderLimit(const ast::QueryNode& node, BoundQuery query);
  LogicalOperatorPtr BindTableRef(const ast::TableRef& ref, Scope& scope);
  LogicalOperatorPtr BindDataset(std::shared_ptr<const Dataset> dataset,
                                 const std::string& table_name, const std::string& alias,
                                 const ast::TableRef& ref, Scope& scope);
  LogicalOperatorPtr BindWhere(const ast::Expr& where, LogicalOperatorPtr plan, Scope& scope);

 public:
  // Used by the expression binding helpers.
  BoundExprPtr BindExpr(const ast::Expr& expr, ExprContext& ctx);
  uint32_t NewTableIndex() { return next_table_index_++; }

 private:
  const Catalog& catalog_;
  uint32_t next_table_index_ = 1;
  std::vector<std::map<std::string, const ast::CommonTableExpr*>> cte_stack_;
  int depth_ = 0;  // view / subquery nesting, to stop runaway recursion
};

/// Resolves a type name as written ("int4", "numeric", "varchar") to a shears type.
LogicalType ResolveTypeName(const ast::TypeName& type);

/// Casts `expr` to `type` (folding constants); no-op when already of that type.
BoundExprPtr CastTo(BoundExprPtr expr, const LogicalType& type);

}  // namespace shears

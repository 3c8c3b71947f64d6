// Subqueries in expressions (EXISTS, IN, ANY / ALL, scalar), row IN and row comparisons,
// and comparisons with an ARRAY (x = ANY (ARRAY[...])).

#include <fmt/format.h>

#include <functional>

#include "common/error.h"
#include "parser/sql_rewrite_internal.h"
#include "parser/transform_internal.h"
#include "parser/transformer.h"

namespace shears::parser_internal {

namespace {

/// EXISTS (SELECT 1 FROM `from` WHERE `where`).
ast::ExprPtr ExistsOver(std::unique_ptr<ast::SubqueryRef> from, ast::ExprPtr where, int location) {
  auto select = std::make_unique<ast::SelectNode>();
  select->select_list.push_back({MakeConstant(Value::Integer(1), location), ""});
  select->from = std::move(from);
  select->where = std::move(where);
  auto sub = MakeExpr<ast::SubqueryExpr>(location);
  sub->subquery_kind = ast::SubqueryKind::kExists;
  sub->query = std::move(select);
  return sub;
}

/// CASE WHEN found THEN TRUE WHEN unknown THEN NULL ELSE FALSE END: a quantified comparison
/// under SQL's three-valued logic.
ast::ExprPtr FoundOrUnknown(ast::ExprPtr found, ast::ExprPtr unknown, int location) {
  auto result = MakeExpr<ast::CaseExpr>(location);
  result->when_then.emplace_back(std::move(found), MakeConstant(Value::Boolean(true), location));
  result->when_then.emplace_back(std::move(unknown), MakeConstant(Value(), location));
  result->else_expr = MakeConstant(Value::Boolean(false), location);
  return result;
}

}  // namespace

// (a, b) IN (SELECT x, y ...): TRUE when a row equals, else NULL when a row might (no pair
// definitely unequal: each pair equal or with a NULL), else FALSE; NOT IN is its negation.
// Written as two EXISTS over the subquery, each transformed afresh from the parse tree:
//   CASE WHEN EXISTS (SELECT 1 FROM (q) r(c1, c2) WHERE r.c1 = a AND r.c2 = b) THEN TRUE
//        WHEN EXISTS (... WHERE (r.c1 = a OR r.c1 IS NULL OR a IS NULL) AND ...) THEN NULL
//        ELSE FALSE END
ast::ExprPtr Transformer::TransformRowIn(const PgQuery__SubLink* link) {
  const int location = Loc(link->location);
  const PgQuery__RowExpr* row = link->testexpr->row_expr;
  const char* alias = ast::kRowInAlias;
  auto column = [&](size_t i) {
    auto ref = MakeExpr<ast::ColumnRefExpr>(location);
    ref->names = {alias, fmt::format("__shears_c{}", i + 1)};
    return ref;
  };
  auto is_null = [&](ast::ExprPtr child) {
    auto test = MakeExpr<ast::IsNullExpr>(location);
    test->child = std::move(child);
    return test;
  };
  auto exists = [&](bool maybe) {
    auto ref = std::make_unique<ast::SubqueryRef>();
    ref->query = TransformQuery(link->subselect);
    ref->alias = alias;
    for (size_t i = 0; i < row->n_args; i++)
      ref->column_aliases.push_back(fmt::format("__shears_c{}", i + 1));
    auto where = MakeExpr<ast::OperatorExpr>(location);
    where->op = "AND";
    for (size_t i = 0; i < row->n_args; i++) {
      auto equal = MakeExpr<ast::OperatorExpr>(location);
      equal->op = "=";
      equal->children.push_back(column(i));
      equal->children.push_back(TransformExpr(row->args[i]));
      if (!maybe) {
        where->children.push_back(std::move(equal));
        continue;
      }
      auto either = MakeExpr<ast::OperatorExpr>(location);
      either->op = "OR";
      either->children.push_back(std::move(equal));
      either->children.push_back(is_null(column(i)));
      either->children.push_back(is_null(TransformExpr(row->args[i])));
      where->children.push_back(std::move(either));
    }
    return ExistsOver(std::move(ref), std::move(where), location);
  };
  return FoundOrUnknown(exists(false), exists(true), location);
}

ast::ExprPtr Transformer::TransformSubLink(const PgQuery__SubLink* link) {
  auto result = MakeExpr<ast::SubqueryExpr>(Loc(link->location));
  switch (link->sub_link_type) {
    case PG_QUERY__SUB_LINK_TYPE__EXISTS_SUBLINK:
      result->subquery_kind = ast::SubqueryKind::kExists;
      break;
    case PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK:
      result->subquery_kind = ast::SubqueryKind::kScalar;
      break;
    case PG_QUERY__SUB_LINK_TYPE__ANY_SUBLINK:
    case PG_QUERY__SUB_LINK_TYPE__ALL_SUBLINK: {
      bool any = link->sub_link_type == PG_QUERY__SUB_LINK_TYPE__ANY_SUBLINK;
      result->subquery_kind = any ? ast::SubqueryKind::kAny : ast::SubqueryKind::kAll;
      // x IN (SELECT ...) has no operator name: it is = ANY.
      result->op = link->n_oper_name > 0 ? OperatorName(link->oper_name, link->n_oper_name) : "=";
      if (!IsSupportedOperator(result->op)) {
        ThrowNotSupported(fmt::format("operator {} is not supported", result->op), link->location);
      }
      if (!IsNull(link->testexpr) && link->testexpr->node_case == PG_QUERY__NODE__NODE_ROW_EXPR) {
        return TransformRowQuantified(link, result->op, any);
      }
      result->left = TransformExpr(link->testexpr);
      break;
    }
    case PG_QUERY__SUB_LINK_TYPE__ARRAY_SUBLINK:
      return TransformArraySubquery(link);
    default:
      ThrowNotSupported("row comparisons with subqueries are not supported", link->location);
  }
  result->query = TransformQuery(link->subselect);
  return result;
}

namespace {

/// SQL's row comparison `op` of n fields, `field(i, left)` giving a fresh tree of field i of
/// the left or right row: = is the AND of the fields' =, <> the OR of their <>, and the
/// ordered ones lexicographic, (a, b) < (c, d) being a < c OR (a = c AND b < d). A NULL field
/// makes the comparison unknown unless the fields before it or a field after it decide
/// (PostgreSQL's and newer DuckDB's rule for rows beside a subquery).
ast::ExprPtr SqlRowComparison(const std::string& op, size_t n,
                              const std::function<ast::ExprPtr(size_t, bool)>& field,
                              int location) {
  auto binary = [&](const std::string& field_op, size_t i) {
    auto compare = MakeExpr<ast::OperatorExpr>(location);
    compare->op = field_op;
    compare->children.push_back(field(i, true));
    compare->children.push_back(field(i, false));
    return compare;
  };
  std::vector<ast::ExprPtr> parts;
  if (op == "=" || op == "<>" || op == "!=") {
    for (size_t i = 0; i < n; i++)
      parts.push_back(binary(op == "=" ? "=" : "<>", i));
    return Junction(op == "=" ? "AND" : "OR", std::move(parts), location);
  }
  const std::string strict = op.substr(0, 1);
  ast::ExprPtr result = binary(op, n - 1);
  for (size_t i = n - 1; i-- > 0;) {
    std::vector<ast::ExprPtr> tie;
    tie.push_back(binary("=", i));
    tie.push_back(std::move(result));
    std::vector<ast::ExprPtr> either;
    either.push_back(binary(strict, i));
    either.push_back(Junction("AND", std::move(tie), location));
    result = Junction("OR", std::move(either), location);
  }
  return result;
}

bool IsRowComparisonOperator(const std::string& op) {
  return op == "=" || op == "<>" || op == "!=" || op == "<" || op == "<=" || op == ">" ||
         op == ">=";
}

std::string NegatedRowOperator(const std::string& op) {
  if (op == "=") return "<>";
  if (op == "<>" || op == "!=") return "=";
  if (op == "<") return ">=";
  if (op == "<=") return ">";
  if (op == ">") return "<=";
  return "<";
}

}  // namespace

// ARRAY(q): a scalar subquery over q's rows numbered in the order they come (q's ORDER BY),
// empty, not NULL, for no rows:
//   (SELECT coalesce(list(v ORDER BY n), []) FROM
//      (SELECT v, row_number() OVER () AS n FROM (q) AS __shears_array(v)) AS rows)
ast::ExprPtr Transformer::TransformArraySubquery(const PgQuery__SubLink* link) {
  const int location = Loc(link->location);
  auto name = [&](const char* column) {
    auto ref = MakeExpr<ast::ColumnRefExpr>(location);
    ref->names = {column};
    return ref;
  };
  auto values = std::make_unique<ast::SubqueryRef>();
  values->query = TransformQuery(link->subselect);
  values->alias = ast::kArraySubqueryAlias;
  values->column_aliases.push_back("__shears_v");
  auto row_number = MakeExpr<ast::FunctionExpr>(location);
  row_number->name = "row_number";
  row_number->over = std::make_unique<ast::WindowSpec>();
  auto numbered = std::make_unique<ast::SelectNode>();
  numbered->select_list.push_back({name("__shears_v"), ""});
  numbered->select_list.push_back({std::move(row_number), "__shears_n"});
  numbered->from = std::move(values);
  auto rows = std::make_unique<ast::SubqueryRef>();
  rows->query = std::move(numbered);
  rows->alias = "__shears_array_rows";
  auto list = MakeExpr<ast::FunctionExpr>(location);
  list->name = "list";
  list->args.push_back(name("__shears_v"));
  ast::OrderByItem order;
  order.expr = name("__shears_n");
  list->order_by.push_back(std::move(order));
  auto empty = MakeExpr<ast::FunctionExpr>(location);
  empty->name = "list_value";
  auto coalesce = MakeExpr<ast::FunctionExpr>(location);
  coalesce->name = "coalesce";
  coalesce->args.push_back(std::move(list));
  coalesce->args.push_back(std::move(empty));
  auto select = std::make_unique<ast::SelectNode>();
  select->select_list.push_back({std::move(coalesce), "array"});
  select->from = std::move(rows);
  auto sub = MakeExpr<ast::SubqueryExpr>(location);
  sub->subquery_kind = ast::SubqueryKind::kScalar;
  sub->query = std::move(select);
  return sub;
}

// (a, b) op ANY (q): TRUE when the comparison is TRUE for some row of q, else NULL when it is
// unknown for some row, else FALSE:
//   CASE WHEN EXISTS (SELECT 1 FROM (q) r(c1, c2) WHERE cmp) THEN TRUE
//        WHEN EXISTS (... WHERE (cmp) IS NULL) THEN NULL ELSE FALSE END
// and (a, b) op ALL (q) is NOT ((a, b) negated-op ANY (q)). = ANY is row IN (TransformRowIn).
ast::ExprPtr Transformer::TransformRowQuantified(const PgQuery__SubLink* link,
                                                 const std::string& op, bool any) {
  const int location = Loc(link->location);
  if (!IsRowComparisonOperator(op)) {
    ThrowNotSupported(fmt::format("operator {} is not supported for a row beside a subquery", op),
                      link->location);
  }
  if (!any) {
    auto negated = MakeExpr<ast::OperatorExpr>(location);
    negated->op = "NOT";
    negated->children.push_back(TransformRowQuantified(link, NegatedRowOperator(op), true));
    return negated;
  }
  if (op == "=") return TransformRowIn(link);
  const PgQuery__RowExpr* row = link->testexpr->row_expr;
  const char* alias = ast::kRowInAlias;
  auto field = [&](size_t i, bool left) -> ast::ExprPtr {
    if (left) return TransformExpr(row->args[i]);
    auto ref = MakeExpr<ast::ColumnRefExpr>(location);
    ref->names = {alias, fmt::format("__shears_c{}", i + 1)};
    return ref;
  };
  auto exists = [&](bool unknown) {
    auto ref = std::make_unique<ast::SubqueryRef>();
    ref->query = TransformQuery(link->subselect);
    ref->alias = alias;
    for (size_t i = 0; i < row->n_args; i++)
      ref->column_aliases.push_back(fmt::format("__shears_c{}", i + 1));
    ast::ExprPtr where = SqlRowComparison(op, row->n_args, field, location);
    if (unknown) {
      auto test = MakeExpr<ast::IsNullExpr>(location);
      test->child = std::move(where);
      where = std::move(test);
    }
    return ExistsOver(std::move(ref), std::move(where), location);
  };
  return FoundOrUnknown(exists(false), exists(true), location);
}

ast::ExprPtr Transformer::TransformRowComparison(const std::string& op,
                                                 const PgQuery__RowExpr* left,
                                                 const PgQuery__RowExpr* right, int location) {
  if (left->n_args != right->n_args) {
    ThrowParseError(fmt::format("unequal number of entries in row expressions ({} and {})",
                                left->n_args, right->n_args),
                    location);
  }
  if (left->n_args == 0) ThrowNotSupported("comparison of empty rows is not supported", location);
  if (op != "=" && op != "<>" && op != "!=" && op != "<" && op != "<=" && op != ">" && op != ">=" &&
      op != "IS DISTINCT FROM" && op != "IS NOT DISTINCT FROM") {
    ThrowNotSupported(fmt::format("operator {} is not supported for rows", op), location);
  }
  // Rows compare as values, as DuckDB compares them (its STRUCTs): a NULL field equals NULL
  // and sorts above every value, so the result is never NULL. (PostgreSQL instead gives NULL
  // when a NULL field is reached before the fields differ.) Each field's expressions are
  // transformed once per use, so every comparison owns its trees.
  const int loc = Loc(location);
  auto binary = [&](const std::string& field_op, size_t i) {
    auto compare = MakeExpr<ast::OperatorExpr>(loc);
    compare->op = field_op;
    compare->children.push_back(TransformExpr(left->args[i]));
    compare->children.push_back(TransformExpr(right->args[i]));
    return compare;
  };
  auto is_null = [&](const PgQuery__Node* node, bool negated) {
    auto test = MakeExpr<ast::IsNullExpr>(loc);
    test->child = TransformExpr(node);
    test->negated = negated;
    return test;
  };
  // Field i strictly below (or above) its counterpart: coalesce(l < r, l IS NOT NULL AND r IS
  // NULL), NULL being the largest.
  auto strictly = [&](bool below, size_t i) -> ast::ExprPtr {
    std::vector<ast::ExprPtr> nulls;
    nulls.push_back(is_null(below ? left->args[i] : right->args[i], true));
    nulls.push_back(is_null(below ? right->args[i] : left->args[i], false));
    auto call = MakeExpr<ast::FunctionExpr>(loc);
    call->name = "coalesce";
    call->args.push_back(binary(below ? "<" : ">", i));
    call->args.push_back(Junction("AND", std::move(nulls), loc));
    return call;
  };
  const size_t n = left->n_args;
  std::vector<ast::ExprPtr> parts;
  if (op == "=" || op == "IS NOT DISTINCT FROM") {
    for (size_t i = 0; i < n; i++)
      parts.push_back(binary("IS NOT DISTINCT FROM", i));
    return Junction("AND", std::move(parts), loc);
  }
  if (op == "<>" || op == "!=" || op == "IS DISTINCT FROM") {
    for (size_t i = 0; i < n; i++)
      parts.push_back(binary("IS DISTINCT FROM", i));
    return Junction("OR", std::move(parts), loc);
  }
  // Lexicographic: the first field that differs decides. (a, b) < (c, d) is a < c OR (a = c
  // AND b < d); the last field is b <= d for <=.
  const bool below = op[0] == '<';
  ast::ExprPtr result = strictly(below, n - 1);
  if (op.size() == 2) {
    std::vector<ast::ExprPtr> last;
    last.push_back(std::move(result));
    last.push_back(binary("IS NOT DISTINCT FROM", n - 1));
    result = Junction("OR", std::move(last), loc);
  }
  for (size_t i = n - 1; i-- > 0;) {
    std::vector<ast::ExprPtr> tie;
    tie.push_back(binary("IS NOT DISTINCT FROM", i));
    tie.push_back(std::move(result));
    std::vector<ast::ExprPtr> either;
    either.push_back(strictly(below, i));
    either.push_back(Junction("AND", std::move(tie), loc));
    result = Junction("OR", std::move(either), loc);
  }
  return result;
}

ast::ExprPtr Transformer::TransformArrayComparison(const PgQuery__AExpr* expr,
                                                   const std::string& op, bool any) {
  const int loc = Loc(expr->location);
  const PgQuery__AArrayExpr* array = expr->rexpr->a_array_expr;
  if (!IsSupportedOperator(op) || op == "||" || op == "AND" || op == "OR") {
    ThrowNotSupported(fmt::format("operator {} is not supported with {}", op, any ? "ANY" : "ALL"),
                      expr->location);
  }
  for (size_t i = 0; i < array->n_elements; i++) {
    if (!IsNull(array->elements[i]) &&
        array->elements[i]->node_case == PG_QUERY__NODE__NODE_A_ARRAY_EXPR) {
      ThrowNotSupported("nested arrays are not supported", NodeLocation(array->elements[i]));
    }
  }
  // Of no elements: ANY is FALSE and ALL TRUE, whatever x is.
  if (array->n_elements == 0) return MakeConstant(Value::Boolean(!any), loc);
  if ((any && op == "=") || (!any && (op == "<>" || op == "!="))) {
    auto in = MakeExpr<ast::InListExpr>(loc);
    in->value = TransformExpr(expr->lexpr);
    in->negated = !any;
    in->list = TransformExprList(array->elements, array->n_elements);
    return in;
  }
  // x is transformed once per element: each comparison gets its own tree.
  std::vector<ast::ExprPtr> parts;
  for (size_t i = 0; i < array->n_elements; i++) {
    auto compare = MakeExpr<ast::OperatorExpr>(loc);
    compare->op = op;
    compare->children.push_back(TransformExpr(expr->lexpr));
    compare->children.push_back(TransformExpr(array->elements[i]));
    parts.push_back(std::move(compare));
  }
  return Junction(any ? "OR" : "AND", std::move(parts), loc);
}

}  // namespace shears::parser_internal

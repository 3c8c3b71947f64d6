// Expressions: constants, operators, functions, casts, CASE, INTERVAL literals (subqueries and
// row comparisons: transform_subquery.cpp).

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "common/error.h"
#include "common/interval.h"
#include "parser/sql_rewrite_internal.h"
#include "parser/transform_internal.h"
#include "parser/transformer.h"
#include "parser/type_text.h"

namespace shears::parser_internal {

namespace {

bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}

bool IsStringConstant(const PgQuery__Node* node) {
  return !Transformer::IsNull(node) && node->node_case == PG_QUERY__NODE__NODE_A_CONST &&
         node->a_const->val_case == PG_QUERY__A__CONST__VAL_SVAL;
}

}  // namespace

std::string OperatorName(PgQuery__Node** names, size_t n) {
  if (n == 0 || Transformer::IsNull(names[n - 1]) ||
      names[n - 1]->node_case != PG_QUERY__NODE__NODE_STRING) {
    return "";
  }
  return names[n - 1]->string->sval;
}

bool IsSupportedOperator(const std::string& op) {
  static const char* const kOperators[] = {
      "+",  "-", "*",  "/", "%",  "||", "//", "^", "~",  "!~", "~*", "!~*", "=",
      "<>", "<", "<=", ">", ">=", "&",  "|",  "#", "<<", ">>", "^@", "->",  "->>"};
  for (const char* candidate : kOperators) {
    if (op == candidate) return true;
  }
  return false;
}

std::unique_ptr<ast::ConstantExpr> MakeConstant(Value value, int location) {
  auto constant = MakeExpr<ast::ConstantExpr>(location);
  constant->value = std::move(value);
  return constant;
}

bool IsRow(const PgQuery__Node* node) {
  return !Transformer::IsNull(node) && node->node_case == PG_QUERY__NODE__NODE_ROW_EXPR;
}

ast::ExprPtr Junction(const char* op, std::vector<ast::ExprPtr> parts, int location) {
  if (parts.size() == 1) return std::move(parts[0]);
  auto result = MakeExpr<ast::OperatorExpr>(location);
  result->op = op;
  result->children = std::move(parts);
  return result;
}

// ---------------------------------------------------------------- numbers

bool ParseNumericLiteral(std::string_view text, Value* value) {
  std::string_view body = text;
  bool negative = false;
  if (!body.empty() && (body[0] == '-' || body[0] == '+')) {
    negative = body[0] == '-';
    body.remove_prefix(1);
  }
  size_t exponent = body.find_first_of("eE");
  size_t point = body.find('.');
  std::string_view mantissa = body.substr(0, exponent);
  std::string_view int_part = mantissa.substr(0, point);
  std::string_view frac_part =
      point == std::string_view::npos ? std::string_view() : mantissa.substr(point + 1);
  for (std::string_view part : {int_part, frac_part}) {
    for (char c : part) {
      if (!IsDigit(c)) return false;
    }
  }
  if (int_part.empty() && frac_part.empty()) return false;

  if (exponent != std::string_view::npos) {
    std::string copy(text);
    errno = 0;
    char* end = nullptr;
    double d = std::strtod(copy.c_str(), &end);
    if (end != copy.c_str() + copy.size()) return false;
    if (errno == ERANGE && std::isinf(d)) {
      throw OutOfRangeError("numeric constant {} is out of range for DOUBLE", text);
    }
    *value = Value::Double(d);
    return true;
  }

  while (!int_part.empty() && int_part[0] == '0')
    int_part.remove_prefix(1);
  size_t digits = int_part.size() + frac_part.size();
  if (digits > static_cast<size_t>(LogicalType::kMaxDecimalPrecision)) {
    *value = Value::Double(std::strtod(std::string(text).c_str(), nullptr));
    return true;
  }
  int128_t unscaled = 0;
  for (std::string_view part : {int_part, frac_part}) {
    for (char c : part)
      unscaled = unscaled * 10 + (c - '0');
  }
  if (negative) unscaled = -unscaled;
  if (point != std::string_view::npos) {
    int scale = static_cast<int>(frac_part.size());
    int precision = std::max<int>({1, static_cast<int>(digits), scale});
    *value = Value::Decimal(unscaled, precision, scale);
  } else if (unscaled >= std::numeric_limits<int32_t>::min() &&
             unscaled <= std::numeric_limits<int32_t>::max()) {
    *value = Value::Integer(static_cast<int32_t>(unscaled));
  } else if (unscaled >= std::numeric_limits<int64_t>::min() &&
             unscaled <= std::numeric_limits<int64_t>::max()) {
    *value = Value::Bigint(static_cast<int64_t>(unscaled));
  } else {
    *value = Value::Decimal(unscaled, LogicalType::kMaxDecimalPrecision, 0);
  }
  return true;
}

ast::ExprPtr Transformer::TransformConstant(const PgQuery__AConst* constant) {
  int location = Loc(constant->location);
  if (constant->isnull) return MakeConstant(Value(), location);
  switch (constant->val_case) {
    case PG_QUERY__A__CONST__VAL_IVAL:
      return MakeConstant(Value::Integer(constant->ival->ival), location);
    case PG_QUERY__A__CONST__VAL_FVAL: {
      Value value;
      if (!ParseNumericLiteral(constant->fval->fval, &value)) {
        ThrowParseError(fmt::format("invalid numeric constant {}", constant->fval->fval),
                        constant->location);
      }
      return MakeConstant(std::move(value), location);
    }
    case PG_QUERY__A__CONST__VAL_BOOLVAL:
      return MakeConstant(Value::Boolean(constant->boolval->boolval), location);
    case PG_QUERY__A__CONST__VAL_SVAL:
      return MakeConstant(Value::Varchar(constant->sval->sval), location);
    case PG_QUERY__A__CONST__VAL_BSVAL: {
      // x'4142' is a BLOB (SQLite's and MySQL's hex literal); PostgreSQL's scanner marks it with
      // a leading 'x'. Binary bit strings (b'101') have no type here.
      std::string_view text = constant->bsval->bsval;
      if (text.empty() || (text[0] != 'x' && text[0] != 'X')) {
        ThrowNotSupported("bit string constants are not supported", constant->location);
      }
      text.remove_prefix(1);
      if (text.size() % 2 != 0) {
        ThrowParseError("a hexadecimal BLOB literal needs an even number of digits",
                        constant->location);
      }
      std::string bytes;
      auto digit = [&](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        ThrowParseError(fmt::format("'{}' is not a hexadecimal digit", c), constant->location);
      };
      for (size_t i = 0; i < text.size(); i += 2)
        bytes.push_back(static_cast<char>(digit(text[i]) * 16 + digit(text[i + 1])));
      return MakeConstant(Value::Blob(std::move(bytes)), location);
    }
    default:
      throw InternalError("A_Const without a value");
  }
}

ast::ExprPtr Transformer::TransformInterval(const PgQuery__TypeCast* cast, const std::string& text,
                                            int location) {
  const PgQuery__TypeName* type = cast->type_name;
  int mask = -1;
  if (type->n_typmods > 0) {
    const PgQuery__Node* first = type->typmods[0];
    if (!IsNull(first) && first->node_case == PG_QUERY__NODE__NODE_A_CONST &&
        first->a_const->val_case == PG_QUERY__A__CONST__VAL_IVAL) {
      mask = first->a_const->ival->ival;
    }
  }
  auto interval = MakeExpr<ast::IntervalExpr>(Loc(location));
  std::string error;
  Interval value;
  if (!ParseIntervalText(text, mask, &value, &error)) {
    ThrowParseError(fmt::format("invalid INTERVAL '{}': {}", text, error), location);
  }
  interval->months = value.months;
  interval->days = value.days;
  interval->micros = value.micros;
  return interval;
}

// ---------------------------------------------------------------- expressions

std::vector<ast::ExprPtr> Transformer::TransformExprList(PgQuery__Node** items, size_t n) {
  std::vector<ast::ExprPtr> out;
  out.reserve(n);
  for (size_t i = 0; i < n; i++)
    out.push_back(TransformExpr(items[i]));
  return out;
}

ast::ExprPtr Transformer::TransformExpr(const PgQuery__Node* node) {
  if (IsNull(node)) throw InternalError("missing expression in libpg_query's tree");
  switch (node->node_case) {
    case PG_QUERY__NODE__NODE_A_CONST:
      return TransformConstant(node->a_const);
    case PG_QUERY__NODE__NODE_COLUMN_REF:
      return TransformColumnRef(node->column_ref);
    case PG_QUERY__NODE__NODE_A_EXPR:
      return TransformAExpr(node->a_expr);
    case PG_QUERY__NODE__NODE_BOOL_EXPR:
      return TransformBoolExpr(node->bool_expr);
    case PG_QUERY__NODE__NODE_FUNC_CALL:
      return TransformFuncCall(node->func_call);
    case PG_QUERY__NODE__NODE_TYPE_CAST:
      return TransformTypeCast(node->type_cast);
    case PG_QUERY__NODE__NODE_SUB_LINK:
      return TransformSubLink(node->sub_link);
    case PG_QUERY__NODE__NODE_CASE_EXPR:
      return TransformCase(node->case_expr);
    case PG_QUERY__NODE__NODE_NULL_TEST: {
      const PgQuery__NullTest* test = node->null_test;
      auto expr = MakeExpr<ast::IsNullExpr>(Loc(test->location));
      expr->child = TransformExpr(test->arg);
      expr->negated = test->nulltesttype == PG_QUERY__NULL_TEST_TYPE__IS_NOT_NULL;
      return expr;
    }
    case PG_QUERY__NODE__NODE_BOOLEAN_TEST: {
      const PgQuery__BooleanTest* test = node->boolean_test;
      int location = Loc(test->location);
      switch (test->booltesttype) {
        case PG_QUERY__BOOL_TEST_TYPE__IS_UNKNOWN:
        case PG_QUERY__BOOL_TEST_TYPE__IS_NOT_UNKNOWN: {
          // For a boolean, UNKNOWN is NULL.
          auto expr = MakeExpr<ast::IsNullExpr>(location);
          expr->child = TransformExpr(test->arg);
          expr->negated = test->booltesttype == PG_QUERY__BOOL_TEST_TYPE__IS_NOT_UNKNOWN;
          return expr;
        }
        default: {
          auto expr = MakeExpr<ast::IsBoolExpr>(location);
          expr->child = TransformExpr(test->arg);
          expr->value = test->booltesttype == PG_QUERY__BOOL_TEST_TYPE__IS_TRUE ||
                        test->booltesttype == PG_QUERY__BOOL_TEST_TYPE__IS_NOT_TRUE;
          expr->negated = test->booltesttype == PG_QUERY__BOOL_TEST_TYPE__IS_NOT_TRUE ||
                          test->booltesttype == PG_QUERY__BOOL_TEST_TYPE__IS_NOT_FALSE;
          return expr;
        }
      }
    }
    case PG_QUERY__NODE__NODE_COALESCE_EXPR: {
      auto function = MakeExpr<ast::FunctionExpr>(Loc(node->coalesce_expr->location));
      function->name = "coalesce";
      function->args = TransformExprList(node->coalesce_expr->args, node->coalesce_expr->n_args);
      return function;
    }
    case PG_QUERY__NODE__NODE_MIN_MAX_EXPR: {
      const PgQuery__MinMaxExpr* minmax = node->min_max_expr;
      auto function = MakeExpr<ast::FunctionExpr>(Loc(minmax->location));
      function->name = minmax->op == PG_QUERY__MIN_MAX_OP__IS_GREATEST ? "greatest" : "least";
      function->args = TransformExprList(minmax->args, minmax->n_args);
      return function;
    }
    case PG_QUERY__NODE__NODE_SQLVALUE_FUNCTION: {
      const PgQuery__SQLValueFunction* svf = node->sqlvalue_function;
      auto function = MakeExpr<ast::FunctionExpr>(Loc(svf->location));
      switch (svf->op) {
        case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_DATE:
          function->name = "current_date";
          break;
        case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIMESTAMP:
          function->name = "current_timestamp";
          break;
        case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIME:
          function->name = "current_time";
          break;
        default:
          ThrowNotSupported(
              "this SQL value function is not supported (only CURRENT_DATE, CURRENT_TIME and "
              "CURRENT_TIMESTAMP are)",
              svf->location);
      }
      return function;
    }
    case PG_QUERY__NODE__NODE_PARAM_REF: {
      auto parameter = MakeExpr<ast::ParameterExpr>(Loc(node->param_ref->location));
      parameter->index = node->param_ref->number;
      if (parameter->index < 1) {
        ThrowParseError("query parameters are numbered from $1", node->param_ref->location);
      }
      parameter_count_ = std::max(parameter_count_, parameter->index);
      return parameter;
    }
    case PG_QUERY__NODE__NODE_A_ARRAY_EXPR: {
      // ARRAY[a, b] (and DuckDB's [a, b], which RewriteSql turns into it): a LIST value.
      const PgQuery__AArrayExpr* array = node->a_array_expr;
      auto function = MakeExpr<ast::FunctionExpr>(Loc(array->location));
      function->name = "list_value";
      function->args = TransformExprList(array->elements, array->n_elements);
      return function;
    }
    case PG_QUERY__NODE__NODE_A_INDIRECTION:
      return TransformSubscripts(
          TransformExpr(node->a_indirection->arg), node->a_indirection->indirection,
          node->a_indirection->n_indirection, NodeLocation(node->a_indirection->arg));
    case PG_QUERY__NODE__NODE_ROW_EXPR: {
      // ROW(a, b) / (a, b) outside a row comparison: DuckDB's STRUCT of unnamed fields.
      auto function = MakeExpr<ast::FunctionExpr>(Loc(node->row_expr->location));
      function->name = "row";
      function->args = TransformExprList(node->row_expr->args, node->row_expr->n_args);
      return function;
    }
    case PG_QUERY__NODE__NODE_COLLATE_CLAUSE:
      ThrowNotSupported("COLLATE is not supported", node->collate_clause->location);
    case PG_QUERY__NODE__NODE_GROUPING_FUNC: {
      // GROUPING(a, b): the binder computes it from the grouping set of each row.
      auto function = MakeExpr<ast::FunctionExpr>(Loc(node->grouping_func->location));
      function->name = "grouping";
      function->args = TransformExprList(node->grouping_func->args, node->grouping_func->n_args);
      return function;
    }
    case PG_QUERY__NODE__NODE_NAMED_ARG_EXPR:
      ThrowNotSupported("named arguments are only supported in table functions",
                        node->named_arg_expr->location);
    case PG_QUERY__NODE__NODE_SET_TO_DEFAULT:
      // Only INSERT ... VALUES and UPDATE ... SET give it a meaning; the binder rejects the rest.
      return MakeExpr<ast::DefaultExpr>(Loc(NodeLocation(node)));
    default:
      ThrowNotSupported(fmt::format("{} expressions are not supported", NodeTypeName(node)),
                        NodeLocation(node));
  }
}

ast::ExprPtr Transformer::TransformColumnRef(const PgQuery__ColumnRef* ref) {
  int location = Loc(ref->location);
  std::vector<std::string> names;
  for (size_t i = 0; i < ref->n_fields; i++) {
    const PgQuery__Node* field = ref->fields[i];
    if (!IsNull(field) && field->node_case == PG_QUERY__NODE__NODE_A_STAR) {
      if (i + 1 != ref->n_fields) throw InternalError("* is not the last field of a ColumnRef");
      // s.t.*: a FROM item's name is its table's (the schema names no FROM item).
      auto star = MakeExpr<ast::StarExpr>(location);
      if (!names.empty()) star->relation = names.back();
      return star;
    }
    if (!IsNull(field) && field->node_case == PG_QUERY__NODE__NODE_A_INDICES && !names.empty()) {
      // c[1], t.c[2:3]: subscripts of the column.
      auto column = MakeExpr<ast::ColumnRefExpr>(location);
      column->names = std::move(names);
      return TransformSubscripts(std::move(column), ref->fields + i, ref->n_fields - i,
                                 ref->location);
    }
    if (IsNull(field) || field->node_case != PG_QUERY__NODE__NODE_STRING) {
      ThrowNotSupported("this column reference is not supported", ref->location);
    }
    names.emplace_back(field->string->sval);
  }
  auto column = MakeExpr<ast::ColumnRefExpr>(location);
  column->names = std::move(names);
  return column;
}

// x[i] is list_extract(x, i) (1-based, negative from the end); x[a:b] list_slice(x, a, b),
// a bound left out is 0 (from the first) or -1 (to the last element), as in DuckDB.
ast::ExprPtr Transformer::TransformSubscripts(ast::ExprPtr base, PgQuery__Node* const* items,
                                              size_t count, int location) {
  for (size_t i = 0; i < count; i++) {
    const PgQuery__Node* item = items[i];
    if (!IsNull(item) && item->node_case == PG_QUERY__NODE__NODE_STRING) {
      // (x).field: a STRUCT's field (DuckDB's).
      auto call = MakeExpr<ast::FunctionExpr>(base->location);
      call->name = "struct_extract";
      call->args.push_back(std::move(base));
      call->args.push_back(MakeConstant(Value::Varchar(item->string->sval), location));
      base = std::move(call);
      continue;
    }
    if (IsNull(item) || item->node_case != PG_QUERY__NODE__NODE_A_INDICES) {
      ThrowNotSupported("field selection (x.*) is not supported", location);
    }
    const PgQuery__AIndices* indices = item->a_indices;
    auto call = MakeExpr<ast::FunctionExpr>(base->location);
    call->args.push_back(std::move(base));
    auto bound = [&](const PgQuery__Node* n, int missing) -> ast::ExprPtr {
      return IsNull(n) ? MakeConstant(Value::Bigint(missing), location) : TransformExpr(n);
    };
    if (indices->is_slice) {
      call->name = "list_slice";
      call->args.push_back(bound(indices->lidx, 0));
      call->args.push_back(bound(indices->uidx, -1));
    } else {
      call->name = "list_extract";
      call->args.push_back(bound(indices->uidx, 0));
    }
    base = std::move(call);
  }
  return base;
}

ast::ExprPtr Transformer::TransformAExpr(const PgQuery__AExpr* expr) {
  int location = Loc(expr->location);
  std::string op = OperatorName(expr->name, expr->n_name);
  if (op == "**") op = "^";  // DuckDB's (and Python's) spelling of power
  if (op == "==") op = "=";  // DuckDB's (and C's) spelling of equality
  switch (expr->kind) {
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP: {
      // Explicit ~~ / !~~ / ~~* / !~~* are LIKE operators too.
      if (op == "~~" || op == "!~~" || op == "~~*" || op == "!~~*") break;
      if ((op == "~~~" || op == "!~~~") && !IsNull(expr->lexpr)) {
        // x [NOT] GLOB p (RewriteSql): a full match of the pattern made a regular expression.
        auto pattern = MakeExpr<ast::FunctionExpr>(location);
        pattern->name = "glob_to_regex";
        pattern->args.push_back(TransformExpr(expr->rexpr));
        auto match = MakeExpr<ast::OperatorExpr>(location);
        match->op = op == "~~~" ? "~" : "!~";
        match->children.push_back(TransformExpr(expr->lexpr));
        match->children.push_back(std::move(pattern));
        return match;
      }
      if (IsRow(expr->lexpr) && IsRow(expr->rexpr)) {
        return TransformRowComparison(op, expr->lexpr->row_expr, expr->rexpr->row_expr,
                                      expr->location);
      }
      if (op == "->" && IsRow(expr->lexpr)) {
        // (x, i) -> body: only a lambda (a JSON path has one operand on the left).
        auto lambda = MakeExpr<ast::OperatorExpr>(location);
        lambda->op = "lambda";
        const PgQuery__RowExpr* row = expr->lexpr->row_expr;
        for (size_t i = 0; i < row->n_args; i++) {
          ast::ExprPtr param = TransformExpr(row->args[i]);
          if (param->kind != ast::ExprKind::kColumnRef ||
              static_cast<const ast::ColumnRefExpr&>(*param).names.size() != 1) {
            ThrowNotSupported("a lambda's parameters must be plain names", expr->location);
          }
          lambda->children.push_back(std::move(param));
        }
        lambda->children.push_back(TransformExpr(expr->rexpr));
        return lambda;
      }
      if (!IsSupportedOperator(op)) {
        ThrowNotSupported(fmt::format("operator {} is not supported", op), expr->location);
      }
      auto result = MakeExpr<ast::OperatorExpr>(location);
      result->op = op;
      if (!IsNull(expr->lexpr)) result->children.push_back(TransformExpr(expr->lexpr));
      result->children.push_back(TransformExpr(expr->rexpr));
      if (result->children.size() == 1 && op != "-" && op != "+" && op != "~") {
        ThrowNotSupported(fmt::format("prefix operator {} is not supported", op), expr->location);
      }
      if (op == "//") return BindIntegerDivisionLikeDuckDB(std::move(result));
      return result;
    }
    case PG_QUERY__A__EXPR__KIND__AEXPR_LIKE:
    case PG_QUERY__A__EXPR__KIND__AEXPR_ILIKE:
      break;
    case PG_QUERY__A__EXPR__KIND__AEXPR_IN: {
      if (IsRow(expr->lexpr)) {
        // (a, b) IN ((1, 2), (3, 4)): an OR of row equalities (NOT IN: its negation).
        if (IsNull(expr->rexpr) || expr->rexpr->node_case != PG_QUERY__NODE__NODE_LIST) {
          throw InternalError("IN without a list");
        }
        auto any = MakeExpr<ast::OperatorExpr>(location);
        any->op = "OR";
        for (size_t i = 0; i < expr->rexpr->list->n_items; i++) {
          const PgQuery__Node* item = expr->rexpr->list->items[i];
          if (!IsRow(item)) {
            ThrowNotSupported("IN of a row needs a list of rows", NodeLocation(item));
          }
          any->children.push_back(
              TransformRowComparison("=", expr->lexpr->row_expr, item->row_expr, expr->location));
        }
        if (op != "<>") return any;
        auto negated = MakeExpr<ast::OperatorExpr>(location);
        negated->op = "NOT";
        negated->children.push_back(std::move(any));
        return negated;
      }
      auto result = MakeExpr<ast::InListExpr>(location);
      result->value = TransformExpr(expr->lexpr);
      result->negated = op == "<>";
      if (IsNull(expr->rexpr) || expr->rexpr->node_case != PG_QUERY__NODE__NODE_LIST) {
        throw InternalError("IN without a list");
      }
      result->list = TransformExprList(expr->rexpr->list->items, expr->rexpr->list->n_items);
      if (result->list.size() == 1 && result->list[0]->kind == ast::ExprKind::kColumnRef) {
        const auto& names = static_cast<const ast::ColumnRefExpr&>(*result->list[0]).names;
        if (names.size() == 1 && names[0] == kEmptyInListMarker) result->list.clear();
      }
      return result;
    }
    case PG_QUERY__A__EXPR__KIND__AEXPR_BETWEEN:
    case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN: {
      if (IsNull(expr->rexpr) || expr->rexpr->node_case != PG_QUERY__NODE__NODE_LIST ||
          expr->rexpr->list->n_items != 2) {
        throw InternalError("BETWEEN without two bounds");
      }
      auto result = MakeExpr<ast::BetweenExpr>(location);
      result->value = TransformExpr(expr->lexpr);
      result->low = TransformExpr(expr->rexpr->list->items[0]);
      result->high = TransformExpr(expr->rexpr->list->items[1]);
      result->negated = expr->kind == PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN;
      return result;
    }
    case PG_QUERY__A__EXPR__KIND__AEXPR_BETWEEN_SYM:
    case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN_SYM: {
      // As PostgreSQL: (x BETWEEN a AND b) OR (x BETWEEN b AND a), so a NULL bound gives NULL
      // (least/greatest would skip it); NOT negates the whole.
      if (IsNull(expr->rexpr) || expr->rexpr->node_case != PG_QUERY__NODE__NODE_LIST ||
          expr->rexpr->list->n_items != 2) {
        throw InternalError("BETWEEN SYMMETRIC without two bounds");
      }
      auto either = MakeExpr<ast::OperatorExpr>(location);
      either->op = "OR";
      for (int order = 0; order < 2; order++) {
        auto between = MakeExpr<ast::BetweenExpr>(location);
        between->value = TransformExpr(expr->lexpr);
        between->low = TransformExpr(expr->rexpr->list->items[order]);
        between->high = TransformExpr(expr->rexpr->list->items[1 - order]);
        either->children.push_back(std::move(between));
      }
      if (expr->kind == PG_QUERY__A__EXPR__KIND__AEXPR_BETWEEN_SYM) return either;
      auto negated = MakeExpr<ast::OperatorExpr>(location);
      negated->op = "NOT";
      negated->children.push_back(std::move(either));
      return negated;
    }
    case PG_QUERY__A__EXPR__KIND__AEXPR_NULLIF: {
      auto result = MakeExpr<ast::FunctionExpr>(location);
      result->name = "nullif";
      result->args.push_back(TransformExpr(expr->lexpr));
      result->args.push_back(TransformExpr(expr->rexpr));
      return result;
    }
    case PG_QUERY__A__EXPR__KIND__AEXPR_DISTINCT:
    case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_DISTINCT: {
      auto result = MakeExpr<ast::OperatorExpr>(location);
      result->op = expr->kind == PG_QUERY__A__EXPR__KIND__AEXPR_DISTINCT ? "IS DISTINCT FROM"
                                                                         : "IS NOT DISTINCT FROM";
      if (IsRow(expr->lexpr) && IsRow(expr->rexpr)) {
        return TransformRowComparison(result->op, expr->lexpr->row_expr, expr->rexpr->row_expr,
                                      expr->location);
      }
      result->children.push_back(TransformExpr(expr->lexpr));
      result->children.push_back(TransformExpr(expr->rexpr));
      return result;
    }
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP_ANY:
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP_ALL:
      if (!IsNull(expr->rexpr) && expr->rexpr->node_case == PG_QUERY__NODE__NODE_A_ARRAY_EXPR) {
        return TransformArrayComparison(expr, op,
                                        expr->kind == PG_QUERY__A__EXPR__KIND__AEXPR_OP_ANY);
      }
      ThrowNotSupported(
          fmt::format("{} with an array is not supported (use a subquery or IN (...))",
                      expr->kind == PG_QUERY__A__EXPR__KIND__AEXPR_OP_ANY ? "ANY" : "ALL"),
          expr->location);
    case PG_QUERY__A__EXPR__KIND__AEXPR_SIMILAR: {
      // x [NOT] SIMILAR TO p [ESCAPE e]: the grammar gives x ~ similar_to_escape(p [, e]) (!~
      // when negated); similar_to_escape turns the SQL pattern into an anchored regular
      // expression, as PostgreSQL does.
      auto result = MakeExpr<ast::OperatorExpr>(location);
      result->op = op == "!~" ? "!~" : "~";
      result->children.push_back(TransformExpr(expr->lexpr));
      auto pattern = TransformExpr(expr->rexpr);
      if (pattern->kind == ast::ExprKind::kFunction) {
        static_cast<ast::FunctionExpr&>(*pattern).name = "similar_to_escape";
      }
      result->children.push_back(std::move(pattern));
      return result;
    }
    default:
      ThrowNotSupported("this operator expression is not supported", expr->location);
  }

  // LIKE family: ~~ LIKE, !~~ NOT LIKE, ~~* ILIKE, !~~* NOT ILIKE.
  if (op != "~~" && op != "!~~" && op != "~~*" && op != "!~~*") {
    ThrowNotSupported(fmt::format("operator {} is not supported", op), expr->location);
  }
  // `~~5` parses as a prefix operator: LIKE needs a left operand.
  if (IsNull(expr->lexpr) || IsNull(expr->rexpr)) {
    ThrowNotSupported(fmt::format("operator {} needs a left and a right operand", op),
                      expr->location);
  }
  auto like = MakeExpr<ast::LikeExpr>(location);
  like->negated = op[0] == '!';
  like->case_insensitive = op.back() == '*';
  like->value = TransformExpr(expr->lexpr);
  // `x LIKE p ESCAPE e` arrives as x ~~ like_escape(p, e).
  const PgQuery__Node* pattern = expr->rexpr;
  if (!IsNull(pattern) && pattern->node_case == PG_QUERY__NODE__NODE_FUNC_CALL &&
      pattern->func_call->n_args == 2 &&
      OperatorName(pattern->func_call->funcname, pattern->func_call->n_funcname) == "like_escape" &&
      pattern->func_call->n_funcname == 2) {
    like->pattern = TransformExpr(pattern->func_call->args[0]);
    like->escape = TransformExpr(pattern->func_call->args[1]);
  } else {
    like->pattern = TransformExpr(pattern);
  }
  return like;
}

ast::ExprPtr Transformer::TransformBoolExpr(const PgQuery__BoolExpr* expr) {
  auto result = MakeExpr<ast::OperatorExpr>(Loc(expr->location));
  switch (expr->boolop) {
    case PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR:
      result->op = "AND";
      break;
    case PG_QUERY__BOOL_EXPR_TYPE__OR_EXPR:
      result->op = "OR";
      break;
    default:
      result->op = "NOT";
      break;
  }
  for (size_t i = 0; i < expr->n_args; i++) {
    ast::ExprPtr child = TransformExpr(expr->args[i]);
    // Flatten AND(AND(a, b), c) into AND(a, b, c).
    if (result->op != "NOT" && child->kind == ast::ExprKind::kOperator) {
      auto& inner = static_cast<ast::OperatorExpr&>(*child);
      if (inner.op == result->op) {
        for (auto& grandchild : inner.children)
          result->children.push_back(std::move(grandchild));
        continue;
      }
    }
    result->children.push_back(std::move(child));
  }
  return result;
}

ast::ExprPtr Transformer::TransformFuncCall(const PgQuery__FuncCall* call) {
  if (call->func_variadic) ThrowNotSupported("VARIADIC is not supported", call->location);

  auto function = MakeExpr<ast::FunctionExpr>(Loc(call->location));
  function->name = FunctionName(StringList(call->funcname, call->n_funcname, call->location));
  function->star = call->agg_star;
  function->distinct = call->agg_distinct;
  for (size_t i = 0; i < call->n_args; i++) {
    const PgQuery__Node* arg = call->args[i];
    if (!IsNull(arg) && arg->node_case == PG_QUERY__NODE__NODE_NAMED_ARG_EXPR) {
      // f(x, name := value): a macro's named argument (the binder rejects it elsewhere).
      function->named_args.emplace_back(Lower(arg->named_arg_expr->name),
                                        TransformExpr(arg->named_arg_expr->arg));
    } else if (!function->named_args.empty()) {
      ThrowNotSupported("a positional argument cannot follow a named one", NodeLocation(arg));
    } else {
      function->args.push_back(TransformExpr(arg));
    }
  }
  if (call->agg_filter != nullptr) function->filter = TransformExpr(call->agg_filter);
  for (size_t i = 0; i < call->n_agg_order; i++)
    function->order_by.push_back(TransformSortBy(call->agg_order[i]));
  function->within_group = call->agg_within_group;
  function->ignore_nulls = CallIgnoresNulls(function->location);
  if (call->over != nullptr) {
    function->over = std::make_unique<ast::WindowSpec>(TransformWindowDef(call->over));
  }

  if (function->name == kListComprehension &&
      (function->args.size() == 2 || function->args.size() == 3)) {
    // [e FOR x IN l IF c] (sql_rewrite_lists.cpp): list_transform(list_filter(l, x -> c), x -> e).
    ast::ExprPtr list = std::move(function->args[1]);
    if (function->args.size() == 3) {
      auto filter = MakeExpr<ast::FunctionExpr>(function->location);
      filter->name = "list_filter";
      filter->args.push_back(std::move(list));
      filter->args.push_back(MakeLambda(std::move(function->args[2])));
      list = std::move(filter);
    }
    auto transform = MakeExpr<ast::FunctionExpr>(function->location);
    transform->name = "list_transform";
    transform->args.push_back(std::move(list));
    transform->args.push_back(MakeLambda(std::move(function->args[0])));
    return transform;
  }
  if (ast::IsLambdaFunction(function->name) && function->args.size() >= 2) {
    function->args[1] = MakeLambda(std::move(function->args[1]));
  }
  // Normalize PostgreSQL's spellings of SQL-syntax functions.
  if (function->name == "btrim") function->name = "trim";
  // Other engines' names for expressions shears has (DuckDB, SQLite, MySQL): ifnull / nvl are
  // coalesce, mod is %, if / iif a CASE (whose branches only the rows that need them evaluate).
  const bool plain = !function->over && !function->filter && !function->distinct &&
                     !function->star && function->order_by.empty() && !function->ignore_nulls;
  if (plain && (function->name == "ifnull" || function->name == "nvl") &&
      function->args.size() == 2) {
    function->name = "coalesce";
  }
  // count_if(c) / countif(c) (DuckDB): the rows where c is true, count(*) FILTER (WHERE c).
  if ((function->name == "count_if" || function->name == "countif") && function->args.size() == 1 &&
      !function->over && !function->distinct && !function->ignore_nulls) {
    ast::ExprPtr condition = std::move(function->args[0]);
    function->args.clear();
    function->name = "count";
    function->star = true;
    if (function->filter) {
      auto both = MakeExpr<ast::OperatorExpr>(function->location);
      both->op = "AND";
      both->children.push_back(std::move(function->filter));
      both->children.push_back(std::move(condition));
      condition = std::move(both);
    }
    function->filter = std::move(condition);
    return function;
  }
  if (plain && function->name == "mod" && function->args.size() == 2) {
    auto op = MakeExpr<ast::OperatorExpr>(function->location);
    op->op = "%";
    op->children = std::move(function->args);
    return op;
  }
  if (plain && (function->name == "if" || function->name == "iif") && function->args.size() == 3) {
    auto result = MakeExpr<ast::CaseExpr>(function->location);
    result->when_then.emplace_back(std::move(function->args[0]), std::move(function->args[1]));
    result->else_expr = std::move(function->args[2]);
    return result;
  }
  if ((function->name == "extract" || function->name == "date_part") && !function->args.empty() &&
      IsStringConstant(call->args[0])) {
    function->name = "extract";
    auto& field = static_cast<ast::ConstantExpr&>(*function->args[0]);
    field.value = Value::Varchar(Lower(field.value.GetString()));
  }
  // SUBSTRING(s FOR n) gets an implicit `1` and `n::int4` (no location) from the grammar.
  if (function->name == "substring" && function->args.size() == 3 && call->n_args == 3 &&
      call->args[2]->node_case == PG_QUERY__NODE__NODE_TYPE_CAST &&
      call->args[2]->type_cast->location < 0) {
    auto& cast = static_cast<ast::CastExpr&>(*function->args[2]);
    ast::ExprPtr inner = std::move(cast.child);
    function->args[2] = std::move(inner);
  }
  return function;
}

ast::TypeName Transformer::TransformTypeName(const PgQuery__TypeName* type_name) {
  ast::TypeName type;
  type.location = Loc(type_name->location);
  if (type_name->setof || type_name->pct_type) {
    ThrowNotSupported("SETOF and %TYPE are not supported", type_name->location);
  }
  std::vector<std::string> names =
      StringList(type_name->names, type_name->n_names, type_name->location);
  if (names.empty()) throw InternalError("type without a name");
  // STRUCT(...) / MAP(...) as the SQL rewrite passes them (FindNestedTypeNames): their text.
  if (names.back() == kNestedTypeMarker && type_name->n_typmods == 1 &&
      type_name->typmods[0]->node_case == PG_QUERY__NODE__NODE_A_CONST &&
      type_name->typmods[0]->a_const->val_case == PG_QUERY__A__CONST__VAL_SVAL) {
    type = ParseTypeText(type_name->typmods[0]->a_const->sval->sval);
    type.location = Loc(type_name->location);
    type.array_depth += static_cast<int>(type_name->n_array_bounds);
    return type;
  }
  type.array_depth = static_cast<int>(type_name->n_array_bounds);
  type.name = Lower(names.back());
  for (size_t i = 0; i < type_name->n_typmods; i++) {
    const PgQuery__Node* mod = type_name->typmods[i];
    if (IsNull(mod) || mod->node_case != PG_QUERY__NODE__NODE_A_CONST ||
        mod->a_const->val_case != PG_QUERY__A__CONST__VAL_IVAL) {
      ThrowNotSupported("type modifiers must be integer constants",
                        NodeLocation(mod) >= 0 ? NodeLocation(mod) : type_name->location);
    }
    type.modifiers.push_back(mod->a_const->ival->ival);
  }
  return type;
}

ast::ExprPtr Transformer::TransformTypeCast(const PgQuery__TypeCast* cast) {
  int location = cast->location >= 0              ? cast->location
                 : cast->type_name->location >= 0 ? cast->type_name->location
                                                  : NodeLocation(cast->arg);
  const PgQuery__TypeName* type_name = cast->type_name;
  // INTERVAL 'text' (and 'text'::interval) is a literal, evaluated here.
  if (type_name->n_names >= 1 && type_name->n_array_bounds == 0 &&
      type_name->names[type_name->n_names - 1]->node_case == PG_QUERY__NODE__NODE_STRING &&
      Lower(type_name->names[type_name->n_names - 1]->string->sval) == "interval" &&
      IsStringConstant(cast->arg)) {
    return TransformInterval(cast, cast->arg->a_const->sval->sval, location);
  }
  auto result = MakeExpr<ast::CastExpr>(Loc(location));
  const PgQuery__Node* arg = cast->arg;
  // TRY_CAST, as sql_rewrite passes it (FindTryCasts).
  if (!IsNull(arg) && arg->node_case == PG_QUERY__NODE__NODE_FUNC_CALL &&
      arg->func_call->n_funcname == 1 && arg->func_call->n_args == 1 &&
      arg->func_call->funcname[0]->node_case == PG_QUERY__NODE__NODE_STRING &&
      std::string_view(arg->func_call->funcname[0]->string->sval) == kTryCastMarker) {
    result->try_cast = true;
    arg = arg->func_call->args[0];
  }
  result->child = TransformExpr(arg);
  result->type = TransformTypeName(type_name);
  return result;
}

ast::ExprPtr Transformer::TransformCase(const PgQuery__CaseExpr* expr) {
  auto result = MakeExpr<ast::CaseExpr>(Loc(expr->location));
  if (!IsNull(expr->arg)) result->operand = TransformExpr(expr->arg);
  for (size_t i = 0; i < expr->n_args; i++) {
    const PgQuery__Node* item = expr->args[i];
    if (IsNull(item) || item->node_case != PG_QUERY__NODE__NODE_CASE_WHEN) {
      throw InternalError("CASE item is not a CaseWhen");
    }
    result->when_then.emplace_back(TransformExpr(item->case_when->expr),
                                   TransformExpr(item->case_when->result));
  }
  if (!IsNull(expr->defresult)) result->else_expr = TransformExpr(expr->defresult);
  return result;
}

}  // namespace shears::parser_internal

// ToString of AST nodes: a canonical SQL rendering, used for column names, error messages and
// tests. Binary operators are parenthesized, so the text never depends on precedence; names
// are printed as stored (no quoting), so a column reference renders as its name.

#include "parser/ast.h"

#include "common/interval.h"

#include <fmt/format.h>

namespace shears::ast {

namespace {

std::string Quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += '\'';
    out += c;
  }
  out += '\'';
  return out;
}

std::string Join(const std::vector<std::string>& parts, const char* separator) {
  std::string out;
  for (size_t i = 0; i < parts.size(); i++) {
    if (i > 0) out += separator;
    out += parts[i];
  }
  return out;
}

std::string JoinExprs(const std::vector<ExprPtr>& exprs) {
  std::string out;
  for (size_t i = 0; i < exprs.size(); i++) {
    if (i > 0) out += ", ";
    out += exprs[i]->ToString();
  }
  return out;
}

/// Predicates render without outer parentheses (`x IN (1, 2)`); as an operand of another
/// operator or predicate they get them, so `(x IS NULL) = TRUE` keeps its meaning.
bool IsBarePredicate(const Expr& e) {
  switch (e.kind) {
    case ExprKind::kInList:
    case ExprKind::kBetween:
    case ExprKind::kLike:
    case ExprKind::kIsNull:
    case ExprKind::kIsBool:
      return true;
    case ExprKind::kSubquery:
      return static_cast<const SubqueryExpr&>(e).subquery_kind == SubqueryKind::kAny ||
             static_cast<const SubqueryExpr&>(e).subquery_kind == SubqueryKind::kAll ||
             static_cast<const SubqueryExpr&>(e).negated;
    default:
      return false;
  }
}

std::string Operand(const ExprPtr& e) {
  if (!e) return "NULL";
  std::string s = e->ToString();
  return IsBarePredicate(*e) ? "(" + s + ")" : s;
}

std::string AliasSuffix(const TableRef& ref) {
  std::string out;
  if (!ref.alias.empty()) out += " AS " + ref.alias;
  if (!ref.column_aliases.empty()) out += "(" + Join(ref.column_aliases, ", ") + ")";
  return out;
}

std::string OrderByList(const std::vector<OrderByItem>& order_by) {
  std::string out;
  for (size_t i = 0; i < order_by.size(); i++) {
    const OrderByItem& item = order_by[i];
    if (i > 0) out += ", ";
    out += item.expr->ToString();
    if (item.descending) out += " DESC";
    if (item.nulls_first.has_value()) {
      out += *item.nulls_first ? " NULLS FIRST" : " NULLS LAST";
    }
  }
  return out;
}

std::string FrameBoundText(FrameBoundKind kind, const ExprPtr& offset) {
  switch (kind) {
    case FrameBoundKind::kUnboundedPreceding:
      return "UNBOUNDED PRECEDING";
    case FrameBoundKind::kOffsetPreceding:
      return offset->ToString() + " PRECEDING";
    case FrameBoundKind::kCurrentRow:
      return "CURRENT ROW";
    case FrameBoundKind::kOffsetFollowing:
      return offset->ToString() + " FOLLOWING";
    case FrameBoundKind::kUnboundedFollowing:
      return "UNBOUNDED FOLLOWING";
  }
  return "";
}

std::string QueryModifiersSuffix(const QueryNode& node) {
  std::string out;
  if (!node.order_by.empty()) out += " ORDER BY " + OrderByList(node.order_by);
  if (node.limit) out += " LIMIT " + node.limit->ToString();
  if (node.offset) out += " OFFSET " + node.offset->ToString();
  return out;
}

std::string WithPrefix(const QueryNode& node) {
  if (node.ctes.empty()) return "";
  std::string out = "WITH ";
  for (size_t i = 0; i < node.ctes.size(); i++) {
    const CommonTableExpr& cte = node.ctes[i];
    if (i > 0) out += ", ";
    out += cte.name;
    if (!cte.column_aliases.empty()) out += "(" + Join(cte.column_aliases, ", ") + ")";
    out += " AS ";
    if (cte.materialize == CteMaterialize::kAlways) out += "MATERIALIZED ";
    if (cte.materialize == CteMaterialize::kNever) out += "NOT MATERIALIZED ";
    out += "(" + cte.query->ToString() + ")";
  }
  return out + " ";
}

}  // namespace

// ---------------------------------------------------------------- expressions

std::string ColumnRefExpr::ToString() const {
  return Join(names, ".");
}

std::string StarExpr::ToString() const {
  std::string out = relation.empty() ? "*" : relation + ".*";
  if (!exclude.empty()) {
    out += " EXCLUDE (";
    for (size_t i = 0; i < exclude.size(); i++)
      out += (i ? ", " : "") + exclude[i];
    out += ")";
  }
  if (!replace.empty()) {
    out += " REPLACE (";
    for (size_t i = 0; i < replace.size(); i++) {
      out += (i ? ", " : "") + replace[i].second->ToString() + " AS " + replace[i].first;
    }
    out += ")";
  }
  return out;
}

std::string ConstantExpr::ToString() const {
  if (value.is_null()) return "NULL";
  switch (value.type().id()) {
    case TypeId::kBoolean:
      return value.GetBoolean() ? "TRUE" : "FALSE";
    case TypeId::kVarchar:
      return Quote(value.GetString());
    case TypeId::kDate:
      return "DATE " + Quote(value.ToString());
    case TypeId::kTimestamp:
      return "TIMESTAMP " + Quote(value.ToString());
    case TypeId::kTime:
      return "TIME " + Quote(value.ToString());
    case TypeId::kBlob:
      // FormatBlob escapes quotes and backslashes: the text reads back as the same bytes.
      return "'" + FormatBlob(value.GetString()) + "'::BLOB";
    default:
      return value.ToString();
  }
}

bool IsLambdaFunction(const std::string& name) {
  static const char* const kNames[] = {
      "list_transform", "array_transform", "list_apply",  "array_apply",  "apply", "list_filter",
      "array_filter",   "filter",          "list_reduce", "array_reduce", "reduce"};
  for (const char* candidate : kNames) {
    if (name == candidate) return true;
  }
  return false;
}

std::string OperatorExpr::ToString() const {
  if (op == "lambda" && children.size() >= 2) {
    std::string params;
    for (size_t i = 0; i + 1 < children.size(); i++)
      params += (i > 0 ? ", " : "") + children[i]->ToString();
    if (children.size() > 2) params = "(" + params + ")";
    return "(" + params + " -> " + children.back()->ToString() + ")";
  }
  if (children.size() == 1) {
    std::string child = op == "NOT" ? children[0]->ToString() : Operand(children[0]);
    // "(- -1)" rather than "(--1)", which would start a comment.
    const char* space = op == "NOT" || (!child.empty() && child[0] == '-') ? " " : "";
    return "(" + op + space + child + ")";
  }
  bool connective = op == "AND" || op == "OR";
  std::string out = "(";
  for (size_t i = 0; i < children.size(); i++) {
    if (i > 0) out += " " + op + " ";
    out += connective ? children[i]->ToString() : Operand(children[i]);
  }
  return out + ")";
}

FunctionExpr::FunctionExpr() : Expr(ExprKind::kFunction) {}
FunctionExpr::~FunctionExpr() = default;

std::string WindowSpec::ToString() const {
  std::string out;
  auto add = [&](const std::string& part) { out += (out.empty() ? "" : " ") + part; };
  if (!refname.empty()) add(refname);
  if (!partition_by.empty()) add("PARTITION BY " + JoinExprs(partition_by));
  if (!order_by.empty()) add("ORDER BY " + OrderByList(order_by));
  if (has_frame) {
    const char* units[] = {"ROWS", "RANGE", "GROUPS"};
    add(std::string(units[static_cast<int>(unit)]) + " BETWEEN " +
        FrameBoundText(start, start_offset) + " AND " + FrameBoundText(end, end_offset));
    const char* excludes[] = {"", "EXCLUDE CURRENT ROW", "EXCLUDE GROUP", "EXCLUDE TIES"};
    if (exclude != FrameExclude::kNoOthers) add(excludes[static_cast<int>(exclude)]);
  }
  return "(" + out + ")";
}

std::string FunctionExpr::ToString() const {
  std::string text = CallText();
  if (filter) text += " FILTER (WHERE " + filter->ToString() + ")";
  if (over) {
    text +=
        " OVER " + (over->name.empty() || !over->refname.empty() ? over->ToString() : over->name);
  }
  return text;
}

std::string FunctionExpr::CallText() const {
  if (star) return name + "(*)";
  // Functions with SQL syntax of their own render in it, so the text parses back.
  if (!distinct) {
    if ((name == "current_date" || name == "current_timestamp" || name == "current_time") &&
        args.empty()) {
      return name;
    }
    if (name == "extract" && args.size() == 2 && args[0]->kind == ExprKind::kConstant) {
      const Value& field = static_cast<const ConstantExpr&>(*args[0]).value;
      if (!field.is_null() && field.type().id() == TypeId::kVarchar) {
        return "extract(" + field.GetString() + " FROM " + args[1]->ToString() + ")";
      }
    }
    if (name == "position" && args.size() == 2) {
      return "position(" + Operand(args[1]) + " IN " + Operand(args[0]) + ")";
    }
  }
  if (within_group) {
    return name + "(" + JoinExprs(args) + ") WITHIN GROUP (ORDER BY " + OrderByList(order_by) + ")";
  }
  std::string arguments = JoinExprs(args);
  for (const auto& [arg_name, value] : named_args)
    arguments += (arguments.empty() ? "" : ", ") + arg_name + " := " + value->ToString();
  return name + "(" + (distinct ? "DISTINCT " : "") + arguments +
         (order_by.empty() ? "" : " ORDER BY " + OrderByList(order_by)) +
         (ignore_nulls ? " IGNORE NULLS" : "") + ")";
}

std::string TypeName::ToString() const {
  static const std::pair<const char*, const char*> kSpellings[] = {
      {"int2", "SMALLINT"},   {"int4", "INTEGER"},
      {"int", "INTEGER"},     {"int8", "BIGINT"},
      {"float4", "REAL"},     {"float8", "DOUBLE"},
      {"numeric", "DECIMAL"}, {"bool", "BOOLEAN"},
      {"bpchar", "CHAR"},     {"timestamptz", "TIMESTAMP WITH TIME ZONE"},
      {"bytea", "BLOB"},
  };
  std::string out;
  for (const auto& [from, to] : kSpellings) {
    if (name == from) out = to;
  }
  if (out.empty()) {
    for (char c : name)
      out += (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
  }
  if (!modifiers.empty()) {
    out += "(";
    for (size_t i = 0; i < modifiers.size(); i++) {
      if (i > 0) out += ",";
      out += std::to_string(modifiers[i]);
    }
    out += ")";
  }
  if (!children.empty()) {
    out += "(";
    for (size_t i = 0; i < children.size(); i++) {
      if (i > 0) out += ", ";
      if (i < field_names.size()) out += "\"" + field_names[i] + "\" ";
      out += children[i].ToString();
    }
    out += ")";
  }
  for (int i = 0; i < array_depth; i++)
    out += "[]";
  return out;
}

std::string CastExpr::ToString() const {
  return std::string(try_cast ? "TRY_CAST(" : "CAST(") + child->ToString() + " AS " +
         type.ToString() + ")";
}

std::string CaseExpr::ToString() const {
  std::string out = "CASE";
  if (operand) out += " " + operand->ToString();
  for (const auto& [when, then] : when_then) {
    out += " WHEN " + when->ToString() + " THEN " + then->ToString();
  }
  if (else_expr) out += " ELSE " + else_expr->ToString();
  return out + " END";
}

std::string SubqueryExpr::ToString() const {
  std::string query_text = "(" + (query ? query->ToString() : std::string()) + ")";
  std::string out;
  switch (subquery_kind) {
    case SubqueryKind::kScalar:
      out = query_text;
      break;
    case SubqueryKind::kExists:
      out = "EXISTS " + query_text;
      break;
    case SubqueryKind::kAny:
      out = op == "=" ? Operand(left) + " IN " + query_text
                      : Operand(left) + " " + op + " ANY " + query_text;
      break;
    case SubqueryKind::kAll:
      out = Operand(left) + " " + op + " ALL " + query_text;
      break;
  }
  return negated ? "NOT " + out : out;
}

std::string InListExpr::ToString() const {
  return Operand(value) + (negated ? " NOT IN (" : " IN (") + JoinExprs(list) + ")";
}

std::string BetweenExpr::ToString() const {
  return Operand(value) + (negated ? " NOT BETWEEN " : " BETWEEN ") + Operand(low) + " AND " +
         Operand(high);
}

std::string LikeExpr::ToString() const {
  std::string out = Operand(value) + (negated ? " NOT" : "") +
                    (case_insensitive ? " ILIKE " : " LIKE ") + Operand(pattern);
  if (escape) out += " ESCAPE " + Operand(escape);
  return out;
}

std::string IsNullExpr::ToString() const {
  return Operand(child) + (negated ? " IS NOT NULL" : " IS NULL");
}

std::string IsBoolExpr::ToString() const {
  return Operand(child) + (negated ? " IS NOT " : " IS ") + (value ? "TRUE" : "FALSE");
}

std::string IntervalExpr::ToString() const {
  return "INTERVAL " + Quote(FormatInterval(Interval{months, days, micros}));
}

// ---------------------------------------------------------------- FROM

std::string BaseTableRef::ToString() const {
  return Join(name, ".") + AliasSuffix(*this);
}

std::string TableFunctionRef::ToString() const {
  std::string out = name + "(" + JoinExprs(args);
  for (size_t i = 0; i < named_args.size(); i++) {
    if (i > 0 || !args.empty()) out += ", ";
    out += named_args[i].first + " => " + named_args[i].second->ToString();
  }
  return out + ")" + AliasSuffix(*this);
}

std::string JoinRef::ToString() const {
  std::string out = "(" + left->ToString();
  if (natural) out += " NATURAL";
  if (asof) out += " ASOF";
  switch (join_type) {
    case JoinType::kInner:
      out += " JOIN ";
      break;
    case JoinType::kLeft:
      out += " LEFT JOIN ";
      break;
    case JoinType::kRight:
      out += " RIGHT JOIN ";
      break;
    case JoinType::kFull:
      out += " FULL JOIN ";
      break;
    case JoinType::kCross:
      out += " CROSS JOIN ";
      break;
    case JoinType::kSemi:
      out += " SEMI JOIN ";
      break;
    case JoinType::kAnti:
      out += " ANTI JOIN ";
      break;
  }
  out += right->ToString();
  if (condition) out += " ON " + condition->ToString();
  if (!using_columns.empty()) out += " USING (" + Join(using_columns, ", ") + ")";
  return out + ")" + AliasSuffix(*this);
}

std::string SubqueryRef::ToString() const {
  return std::string(lateral ? "LATERAL " : "") + "(" + query->ToString() + ")" +
         AliasSuffix(*this);
}

// ---------------------------------------------------------------- queries

std::string SelectNode::ToString() const {
  std::string out = WithPrefix(*this) + "SELECT";
  if (distinct) out += " DISTINCT";
  for (size_t i = 0; i < select_list.size(); i++) {
    out += i > 0 ? ", " : " ";
    out += select_list[i].expr->ToString();
    if (!select_list[i].alias.empty()) out += " AS " + select_list[i].alias;
  }
  if (from) out += " FROM " + from->ToString();
  if (sample) {
    out += fmt::format(" USING SAMPLE {}{}", FormatDouble(sample->amount),
                       sample->percent ? "%" : " ROWS");
    if (sample->seed) out += fmt::format(" REPEATABLE ({})", *sample->seed);
  }
  if (where) out += " WHERE " + where->ToString();
  if (!grouping_sets.empty()) {
    out += " GROUP BY GROUPING SETS (";
    for (size_t s = 0; s < grouping_sets.size(); s++) {
      out += s ? ", (" : "(";
      for (size_t i = 0; i < grouping_sets[s].size(); i++)
        out += (i ? ", " : "") + group_by[grouping_sets[s][i]]->ToString();
      out += ")";
    }
    out += ")";
  } else if (!group_by.empty()) {
    out += " GROUP BY " + JoinExprs(group_by);
  } else if (group_by_all) {
    out += " GROUP BY ALL";
  }
  if (having) out += " HAVING " + having->ToString();
  return out + QueryModifiersSuffix(*this);
}

std::string SetOperationNode::ToString() const {
  const char* name = op == SetOperationType::kUnion       ? "UNION"
                     : op == SetOperationType::kIntersect ? "INTERSECT"
                                                          : "EXCEPT";
  return WithPrefix(*this) + "(" + left->ToString() + ") " + name + (all ? " ALL" : "") +
         (by_name ? " BY NAME" : "") + " (" + right->ToString() + ")" + QueryModifiersSuffix(*this);
}

std::string ValuesNode::ToString() const {
  std::string out = WithPrefix(*this) + "VALUES ";
  for (size_t i = 0; i < rows.size(); i++) {
    if (i > 0) out += ", ";
    out += "(" + JoinExprs(rows[i]) + ")";
  }
  return out + QueryModifiersSuffix(*this);
}

}  // namespace shears::ast

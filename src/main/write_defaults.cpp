// Column DEFAULTs of managed tables. A default is kept as the text of its expression and
// substituted into the statement's AST before binding, so it is evaluated per written row
// like any other expression of the query (nextval() and random() give each row its own
// value; now() is the statement's time): INSERT with a column list that leaves columns out,
// DEFAULT in INSERT ... VALUES, INSERT ... DEFAULT VALUES, UPDATE ... SET c = DEFAULT, and
// the rows INSERT ... ON CONFLICT adds (its statement copies go through ApplyInsertDefaults).

#include <fmt/format.h>

#include "common/error.h"
#include "common/string_util.h"
#include "main/write_internal.h"
#include "parser/ast_visit.h"
#include "parser/parser.h"
#include "planner/bind_context.h"

namespace shears::write_internal {

namespace {

/// The default's expression, parsed from its text.
ast::ExprPtr ParseDefault(const std::string& text) {
  auto statements = Parser::Parse("SELECT " + text);
  if (statements.size() != 1 || statements[0]->kind != ast::StatementKind::kSelect)
    throw ParseError("DEFAULT {} is not one expression", text);
  auto& query = static_cast<ast::SelectStatement&>(*statements[0]).query;
  if (query->kind != ast::QueryNodeKind::kSelect)
    throw ParseError("DEFAULT {} is not one expression", text);
  auto& select = static_cast<ast::SelectNode&>(*query);
  if (select.select_list.size() != 1 || select.from || select.where || select.distinct)
    throw ParseError("DEFAULT {} is not one expression", text);
  return std::move(select.select_list[0].expr);
}

}  // namespace

std::string ForbiddenInColumnExpression(const ast::Expr& expr, bool generated) {
  switch (expr.kind) {
    case ast::ExprKind::kColumnRef:
      if (generated) break;
      return "column names";
    case ast::ExprKind::kStar:
      return generated ? "*" : "column names";
    case ast::ExprKind::kSubquery:
      return "subqueries";
    case ast::ExprKind::kDefault:
      return "DEFAULT";
    case ast::ExprKind::kParameter:
      return "parameters";
    case ast::ExprKind::kFunction: {
      const auto& f = static_cast<const ast::FunctionExpr&>(expr);
      const std::string name = AsciiLower(f.name);
      if (f.over) return "window functions";
      if (IsAggregateFunction(name)) return "aggregates";
      // A generated column computes the same value on every read.
      if (generated &&
          (name == "nextval" || name == "random" || name == "uuid" || name == "gen_random_uuid"))
        return fmt::format("the volatile function {}()", name);
      break;
    }
    default:
      break;
  }
  std::string found;
  ast::ForEachChild(expr, [&found, generated](const ast::Expr& child) {
    if (found.empty()) found = ForbiddenInColumnExpression(child, generated);
  });
  return found;
}

namespace {

/// Whether `expr` calls a function (whose value may change from call to call: nextval, now).
bool CallsFunction(const ast::Expr& expr) {
  bool calls = expr.kind == ast::ExprKind::kFunction;
  ast::ForEachChild(expr,
                    [&calls](const ast::Expr& child) { calls = calls || CallsFunction(child); });
  return calls;
}

bool HasDefaultItem(const ast::InsertStatement& insert) {
  if (!insert.query || insert.query->kind != ast::QueryNodeKind::kValues) return false;
  for (const auto& row : static_cast<const ast::ValuesNode&>(*insert.query).rows)
    for (const auto& item : row)
      if (item->kind == ast::ExprKind::kDefault) return true;
  return false;
}

/// The table columns an INSERT's column list names (all, without a list); nullopt when a name
/// is unknown or repeated (RunInsert reports it).
std::optional<std::vector<size_t>> InsertTargets(const TableDefinition& table,
                                                 const ast::InsertStatement& insert) {
  std::vector<std::string> names;
  for (const auto& c : table.columns)
    names.push_back(c.name);
  std::vector<size_t> targets;
  if (insert.columns.empty()) {
    for (size_t c = 0; c < names.size(); c++)
      targets.push_back(c);
    return targets;
  }
  for (const auto& column : insert.columns) {
    const int index = FindName(names, column);
    if (index < 0 ||
        std::find(targets.begin(), targets.end(), static_cast<size_t>(index)) != targets.end())
      return std::nullopt;
    targets.push_back(static_cast<size_t>(index));
  }
  return targets;
}

/// Columns with a DEFAULT that the INSERT's column list leaves out.
std::vector<size_t> OmittedDefaults(const TableDefinition& table,
                                    const std::vector<size_t>& targets) {
  std::vector<size_t> omitted;
  for (size_t c = 0; c < table.columns.size(); c++) {
    if (table.columns[c].default_sql &&
        std::find(targets.begin(), targets.end(), c) == targets.end())
      omitted.push_back(c);
  }
  return omitted;
}

}  // namespace

ast::ExprPtr DefaultValueAst(const TableDefinition& table, size_t column) {
  const CatalogColumn& c = table.columns[column];
  return CastAst(c.default_sql ? ParseDefault(*c.default_sql) : Constant(Value::Null(c.type)),
                 c.type);
}

bool InsertNeedsDefaults(const TableDefinition& table, const ast::InsertStatement& insert) {
  if (insert.default_values || HasDefaultItem(insert)) return true;
  if (insert.columns.empty()) return false;
  auto targets = InsertTargets(table, insert);
  return targets && !OmittedDefaults(table, *targets).empty();
}

void ApplyInsertDefaults(const Catalog& catalog, const Settings& settings, const std::string& sql,
                         const TableDefinition& table, ast::InsertStatement& insert) {
  if (insert.default_values) {
    // One row of every column's default (PostgreSQL's and DuckDB's DEFAULT VALUES).
    auto row = std::make_unique<ast::SelectNode>();
    insert.columns.clear();
    for (size_t c = 0; c < table.columns.size(); c++) {
      row->select_list.push_back({DefaultValueAst(table, c), table.columns[c].name});
      insert.columns.push_back(table.columns[c].name);
    }
    insert.query = std::move(row);
    insert.default_values = false;
    return;
  }
  auto targets = InsertTargets(table, insert);
  if (!targets) return;
  if (HasDefaultItem(insert)) {
    for (auto& row : static_cast<ast::ValuesNode&>(*insert.query).rows) {
      if (row.size() != targets->size()) {
        throw BinderError("the query gives {} columns but {} are written", row.size(),
                          targets->size());
      }
      for (size_t i = 0; i < row.size(); i++)
        if (row[i]->kind == ast::ExprKind::kDefault) row[i] = DefaultValueAst(table, (*targets)[i]);
    }
  }
  if (insert.columns.empty()) return;
  const std::vector<size_t> omitted = OmittedDefaults(table, *targets);
  if (omitted.empty()) return;
  // SELECT given.*, default... FROM (query) AS given(listed columns): each row computes them.
  CheckInsertWidth(catalog, settings, sql, insert, insert.columns);
  auto select = std::make_unique<ast::SelectNode>();
  select->select_list.push_back({std::make_unique<ast::StarExpr>(), ""});
  for (size_t c : omitted) {
    select->select_list.push_back({DefaultValueAst(table, c), table.columns[c].name});
    insert.columns.push_back(table.columns[c].name);
    insert.default_columns.push_back(table.columns[c].name);
  }
  select->from = DerivedAst(
      std::move(insert.query), "__shears_given",
      std::vector<std::string>(insert.columns.begin(), insert.columns.end() - omitted.size()));
  insert.query = std::move(select);
}

void ValidateDefaults(Database& database, const Settings& settings, const TableDefinition& table) {
  for (const auto& column : table.columns) {
    if (!column.default_sql) continue;
    const std::string& text = *column.default_sql;
    ast::ExprPtr expr = ParseDefault(text);
    const std::string forbidden = ForbiddenInColumnExpression(*expr, /*generated=*/false);
    if (!forbidden.empty()) {
      throw BinderError("the DEFAULT of column '{}' ({}) cannot contain {}", column.name, text,
                        forbidden);
    }
    // Bound as CAST(default AS type): an expression of a type that does not cast fails here.
    // A constant one is computed too, so that a value that does not convert ('abc' for an
    // INTEGER) fails now rather than at the first INSERT; calls are not made here (nextval
    // would use up a value).
    const std::string cast_sql =
        fmt::format("SELECT CAST(({}) AS {})", text, column.type.ToString());
    try {
      if (!CallsFunction(*expr)) {
        Connection(database).Query(cast_sql);
      } else {
        auto statements = Parser::Parse(cast_sql);
        BindWrite(database.catalog(), settings, cast_sql,
                  *static_cast<ast::SelectStatement&>(*statements.at(0)).query);
      }
    } catch (const Error& e) {
      if (!e.IsUserError()) throw;
      throw BinderError("the DEFAULT of column '{}' ({}) is not a value of type {}: {}",
                        column.name, text, column.type.ToString(), e.what());
    }
  }
}

}  // namespace shears::write_internal

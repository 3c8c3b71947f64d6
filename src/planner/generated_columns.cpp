#include "planner/generated_columns.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <set>

#include "common/error.h"
#include "common/string_util.h"
#include "parser/ast_visit.h"
#include "parser/parser.h"

namespace shears {

std::string QuotedIdentifier(const std::string& name) {
  std::string out = "\"";
  for (char c : name) {
    out += c;
    if (c == '"') out += c;
  }
  return out + "\"";
}

std::vector<std::string> ReferencedColumns(const std::string& sql) {
  auto statements = Parser::Parse("SELECT " + sql);
  std::vector<std::string> names;
  std::function<void(const ast::Expr&)> visit = [&](const ast::Expr& e) {
    if (e.kind == ast::ExprKind::kColumnRef) {
      names.push_back(AsciiLower(static_cast<const ast::ColumnRefExpr&>(e).names.back()));
    }
    ast::ForEachChild(e, visit);
  };
  for (const auto& statement : statements) {
    if (statement->kind != ast::StatementKind::kSelect) continue;
    const auto& query = *static_cast<const ast::SelectStatement&>(*statement).query;
    if (query.kind != ast::QueryNodeKind::kSelect) continue;
    for (const auto& item : static_cast<const ast::SelectNode&>(query).select_list)
      visit(*item.expr);
  }
  return names;
}

std::string GeneratedColumnsQuery(const TableDefinition& table, const std::string& from,
                                  const std::string& alias) {
  std::set<std::string> available, generated_names;
  for (const auto& c : table.columns)
    available.insert(AsciiLower(c.name));
  for (const auto& g : table.generated)
    generated_names.insert(AsciiLower(g.name));
  // Layer by layer: a generated column is computed once every generated column it reads is
  // (names that are no column are left for the binder to report).
  std::string query = "SELECT * FROM " + from;
  std::vector<bool> done(table.generated.size(), false);
  for (size_t left = table.generated.size(); left > 0;) {
    std::vector<std::string> items;
    std::vector<size_t> ready;
    for (size_t i = 0; i < table.generated.size(); i++) {
      if (done[i]) continue;
      const auto refs = ReferencedColumns(table.generated[i].sql);
      if (std::all_of(refs.begin(), refs.end(), [&](const std::string& name) {
            return available.count(name) || !generated_names.count(name);
          })) {
        ready.push_back(i);
      }
    }
    if (ready.empty()) {
      throw BinderError(
          "Circular dependency encountered when resolving generated column expressions of "
          "table '{}'",
          table.name);
    }
    for (size_t i : ready) {
      const auto& g = table.generated[i];
      items.push_back(g.type.valid() ? fmt::format("CAST(({}) AS {}) AS {}", g.sql,
                                                   g.type.ToString(), QuotedIdentifier(g.name))
                                     : fmt::format("({}) AS {}", g.sql, QuotedIdentifier(g.name)));
      done[i] = true;
      left--;
    }
    for (size_t i : ready)
      available.insert(AsciiLower(table.generated[i].name));
    query = fmt::format("SELECT *, {} FROM ({}) AS {}", fmt::join(items, ", "), query,
                        QuotedIdentifier(alias));
  }
  std::vector<std::string> names;
  for (const auto& [generated, i] : table.VisibleColumns())
    names.push_back(QuotedIdentifier(generated ? table.generated[i].name : table.columns[i].name));
  return fmt::format("SELECT {} FROM ({}) AS {}", fmt::join(names, ", "), query,
                     QuotedIdentifier(alias));
}

}  // namespace shears

// Generated columns of managed tables (DuckDB's `g [type] [GENERATED ALWAYS] AS (expr)
// [VIRTUAL]`): kept in the catalog as their expression's text and computed whenever the table is
// read (planner/generated_columns.h); never written to the files. Here: CREATE TABLE's checks and
// type inference, and what INSERT, UPDATE and ALTER TABLE may do with them.

#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "common/error.h"
#include "common/string_util.h"
#include "main/write_internal.h"
#include "parser/ast_visit.h"
#include "parser/parser.h"
#include "planner/bind_context.h"
#include "planner/generated_columns.h"

namespace shears::write_internal {

namespace {

/// The first generated column (other than `except`) whose expression reads column `name`.
const GeneratedColumn* DependentOf(const TableDefinition& table, const std::string& name,
                                   int except = -1) {
  for (size_t i = 0; i < table.generated.size(); i++) {
    if (static_cast<int>(i) == except) continue;
    for (const auto& ref : ReferencedColumns(table.generated[i].sql)) {
      if (ref == AsciiLower(name)) return &table.generated[i];
    }
  }
  return nullptr;
}

/// After the column at visible position `position` is gone: the later generated columns move
/// up one.
void ClosePosition(TableDefinition& table, size_t position) {
  for (auto& g : table.generated) {
    if (g.position > position) g.position--;
  }
}

}  // namespace

int FindGenerated(const TableDefinition& table, const std::string& name) {
  for (size_t i = 0; i < table.generated.size(); i++) {
    if (EqualsAsciiLower(table.generated[i].name, AsciiLower(name))) return static_cast<int>(i);
  }
  return -1;
}

void CloseStoredPosition(TableDefinition& table, size_t column) {
  const auto visible = table.VisibleColumns();
  for (size_t p = 0; p < visible.size(); p++) {
    if (!visible[p].first && visible[p].second == column) {
      ClosePosition(table, p);
      return;
    }
  }
}

void ResolveGeneratedColumns(Database& database, const Settings& settings, TableDefinition& table) {
  if (table.generated.empty()) return;
  std::vector<std::string> nulls;
  for (const auto& c : table.columns) {
    nulls.push_back(
        fmt::format("CAST(NULL AS {}) AS {}", c.type.ToString(), QuotedIdentifier(c.name)));
  }
  for (const auto& g : table.generated) {
    auto statements = Parser::Parse("SELECT " + g.sql);
    const auto& select = static_cast<const ast::SelectNode&>(
        *static_cast<const ast::SelectStatement&>(*statements.at(0)).query);
    if (statements.size() != 1 || select.select_list.size() != 1 || select.from) {
      throw ParseError("the expression of generated column '{}' ({}) is not one expression", g.name,
                       g.sql);
    }
    const std::string forbidden =
        ForbiddenInColumnExpression(*select.select_list[0].expr, /*generated=*/true);
    if (!forbidden.empty()) {
      throw BinderError("the expression of generated column '{}' ({}) cannot contain {}", g.name,
                        g.sql, forbidden);
    }
  }
  // Bound over a row of typed NULLs: unknown columns, impossible casts and circles fail here,
  // and a column without a type takes its expression's.
  const std::string query = GeneratedColumnsQuery(
      table, fmt::format("(SELECT {}) AS {}", fmt::join(nulls, ", "), QuotedIdentifier("t")), "t");
  auto statements = Parser::Parse(query);
  BoundWrite bound = BindWrite(database.catalog(), settings, query,
                               *static_cast<ast::SelectStatement&>(*statements.at(0)).query);
  for (auto& g : table.generated) {
    if (g.type.valid()) continue;
    const int index = FindName(bound.query.names, g.name);
    g.type = bound.query.types.at(static_cast<size_t>(index));
  }
}

void RejectGeneratedInsert(const TableDefinition& table, const std::vector<std::string>& columns) {
  for (const auto& name : columns) {
    const int index = FindGenerated(table, name);
    if (index >= 0) {
      throw BinderError("Cannot insert into a generated column: '{}' of table '{}'",
                        table.generated[static_cast<size_t>(index)].name, table.name);
    }
  }
}

void RejectGeneratedUpdate(const TableDefinition& table, const std::string& column) {
  const int index = FindGenerated(table, column);
  if (index >= 0) {
    throw BinderError("Cannot update generated column '{}' of table '{}' (it is computed)",
                      table.generated[static_cast<size_t>(index)].name, table.name);
  }
}

void RenameInGenerated(TableDefinition& table, const std::string& from, const std::string& to) {
  for (auto& g : table.generated) {
    const std::string select = "SELECT " + g.sql;
    auto statements = Parser::Parse(select);
    // Each reference's place in the text, last first so earlier offsets stay valid.
    std::vector<std::pair<size_t, size_t>> spans;
    std::function<void(const ast::Expr&)> visit = [&](const ast::Expr& e) {
      if (e.kind == ast::ExprKind::kColumnRef) {
        const auto& ref = static_cast<const ast::ColumnRefExpr&>(e);
        if (EqualsAsciiLower(ref.names.back(), AsciiLower(from))) {
          const size_t at = static_cast<size_t>(e.location);
          const bool quoted = ref.names.size() == 1 && at < select.size() && select[at] == '"';
          const size_t length = from.size() + (quoted ? 2 : 0);
          if (ref.names.size() != 1 || e.location < 0 || at + length > select.size() ||
              !EqualsAsciiLower(select.substr(at + (quoted ? 1 : 0), from.size()),
                                AsciiLower(from))) {
            throw NotSupportedError(
                "cannot rename column '{}': the generated column '{}' reads it as {} (AS ({}))",
                from, g.name, ref.ToString(), g.sql);
          }
          spans.emplace_back(at, length);
        }
      }
      ast::ForEachChild(e, visit);
    };
    const auto& query = static_cast<const ast::SelectNode&>(
        *static_cast<const ast::SelectStatement&>(*statements.at(0)).query);
    visit(*query.select_list.at(0).expr);
    std::sort(spans.rbegin(), spans.rend());
    std::string text = select;
    for (const auto& [at, length] : spans)
      text.replace(at, length, QuotedIdentifier(to));
    g.sql = text.substr(7);  // without "SELECT "
  }
}

std::optional<TableDefinition> AlterGenerated(const TableDefinition& table,
                                              const ast::AlterTableStatement& alter,
                                              const std::string& at) {
  using Action = ast::AlterTableStatement::Action;
  const int index = FindGenerated(table, alter.column);
  TableDefinition next = table;
  if (index < 0) {
    // A stored column: generated columns reading it keep it from being dropped, renamed or
    // retyped (DuckDB renames it in their expressions; shears keeps them as written).
    const GeneratedColumn* dependent = DependentOf(table, alter.column);
    if (dependent == nullptr) return std::nullopt;
    switch (alter.action) {
      case Action::kDropColumn:
        throw BinderError(
            "Cannot drop column '{}' because there is a generated column that depends on it "
            "('{}' AS ({}))\n{}",
            alter.column, dependent->name, dependent->sql, at);
      case Action::kRenameColumn:
        return std::nullopt;  // RenameInGenerated follows the new name
      case Action::kAlterType:
        throw BinderError(
            "Cannot change the type of column '{}': the generated column '{}' reads it\n{}",
            alter.column, dependent->name, at);
      default:
        return std::nullopt;
    }
  }
  const auto& g = table.generated[static_cast<size_t>(index)];
  switch (alter.action) {
    case Action::kDropColumn:
    case Action::kRenameColumn: {
      if (const GeneratedColumn* dependent = DependentOf(table, g.name, index)) {
        throw BinderError("Cannot {} column '{}' because the generated column '{}' reads it\n{}",
                          alter.action == Action::kDropColumn ? "drop" : "rename", g.name,
                          dependent->name, at);
      }
      if (alter.action == Action::kRenameColumn) {
        for (const auto& c : table.columns) {
          if (EqualsAsciiLower(c.name, AsciiLower(alter.new_name)))
            throw BinderError("column '{}' already exists in table '{}'\n{}", alter.new_name,
                              table.name, at);
        }
        if (FindGenerated(table, alter.new_name) >= 0 &&
            FindGenerated(table, alter.new_name) != index) {
          throw BinderError("column '{}' already exists in table '{}'\n{}", alter.new_name,
                            table.name, at);
        }
        next.generated[static_cast<size_t>(index)].name = alter.new_name;
        return next;
      }
      next.generated.erase(next.generated.begin() + index);
      ClosePosition(next, g.position);
      return next;
    }
    case Action::kAlterType:
      throw BinderError(
          "Cannot change the type of generated columns in alter statement: '{}' takes its "
          "expression's\n{}",
          g.name, at);
    default:
      throw BinderError("column '{}' is a generated column: ALTER TABLE cannot change its {}\n{}",
                        g.name, alter.action == Action::kSetNotNull ? "NOT NULL" : "DEFAULT", at);
  }
}

}  // namespace shears::write_internal

// ALTER TABLE and ALTER VIEW. Renames and DEFAULT / DROP NOT NULL change the catalog only; the
// column changes of a managed table (ADD, DROP, RENAME, ALTER TYPE, SET NOT NULL) rewrite it as
// UPDATE does: a query over the table computes the rows in the new layout, they are written
// as a staged write checked against the new definition's constraints, and one catalog
// transaction swaps both the definition and the file list (readers see the old table or the
// new one, never a mix). External tables' columns are their files': only RENAME TO applies.

#include <fmt/format.h>

#include "common/error.h"
#include "common/string_util.h"
#include "main/write_internal.h"
#include "parser/parser.h"

namespace shears::write_internal {

namespace {

using Action = ast::AlterTableStatement::Action;

const char* ActionName(Action action) {
  switch (action) {
    case Action::kAddColumn:
      return "ADD COLUMN";
    case Action::kDropColumn:
      return "DROP COLUMN";
    case Action::kRenameColumn:
      return "RENAME COLUMN";
    case Action::kRenameTable:
      return "RENAME TO";
    case Action::kAlterType:
      return "ALTER COLUMN ... TYPE";
    case Action::kSetDefault:
      return "ALTER COLUMN ... SET DEFAULT";
    case Action::kDropDefault:
      return "ALTER COLUMN ... DROP DEFAULT";
    case Action::kSetNotNull:
      return "ALTER COLUMN ... SET NOT NULL";
    case Action::kDropNotNull:
      return "ALTER COLUMN ... DROP NOT NULL";
  }
  return "ALTER TABLE";
}

/// One expression of the user's (USING), parsed on its own.
ast::ExprPtr ParseExpression(const std::string& text, const char* what) {
  auto statements = Parser::Parse("SELECT " + text);
  if (statements.size() == 1 && statements[0]->kind == ast::StatementKind::kSelect) {
    auto& query = static_cast<ast::SelectStatement&>(*statements[0]).query;
    if (query->kind == ast::QueryNodeKind::kSelect) {
      auto& select = static_cast<ast::SelectNode&>(*query);
      if (select.select_list.size() == 1 && !select.from && !select.where && !select.distinct)
        return std::move(select.select_list[0].expr);
    }
  }
  throw ParseError("{} {} is not one expression", what, text);
}

std::vector<std::string> FilePaths(const TableDefinition& table) {
  std::vector<std::string> paths;
  for (const auto& partition : table.partitions)
    for (const auto& file : partition.files)
      paths.push_back(file.path);
  return paths;
}

/// Writes `select_list` over the table (the columns of `next`, in order) as its content, and
/// makes `next` its definition in the same catalog transaction.
void RewriteAs(Database& database, const Settings& settings, const std::string& sql,
               const TableDefinition& table, const TableDefinition& next,
               std::vector<ast::SelectItem> select_list) {
  auto query = std::make_unique<ast::SelectNode>();
  query->select_list = std::move(select_list);
  auto from = std::make_unique<ast::BaseTableRef>();
  from->name.push_back(table.name);
  query->from = std::move(from);
  std::vector<LogicalType> types;
  std::vector<std::string> names;
  for (const auto& c : next.columns) {
    types.push_back(c.type);
    names.push_back(c.name);
  }
  const std::vector<std::string> old_files = FilePaths(table);
  Catalog& catalog = database.catalog();
  BoundWrite bound = BindWrite(catalog, settings, sql, *query);
  CastForWrite(bound, types, names);
  ProjectNotNullChecks(bound, next);
  WriteManaged(
      database, settings, std::move(bound.query), next, "ALTER TABLE",
      [&](std::vector<CatalogPartition> partitions) {
        catalog.SwapFiles(table.name, old_files, partitions, &next);
      },
      &old_files);
}

/// The table's columns as they are, for a rewrite's select list.
std::vector<ast::SelectItem> SameColumns(const TableDefinition& table) {
  std::vector<ast::SelectItem> items;
  for (const auto& c : table.columns)
    items.push_back({ColumnRef(table.name, c.name), c.name});
  return items;
}

/// Key and index column numbers after column `dropped` is gone.
std::vector<int> WithoutColumn(const std::vector<int>& columns, int dropped) {
  std::vector<int> out;
  for (int c : columns)
    out.push_back(c > dropped ? c - 1 : c);
  return out;
}

}  // namespace

QueryResult RunAlterTable(Database& database, const Settings& settings, const std::string& sql,
                          const ast::AlterTableStatement& alter) {
  Catalog& catalog = database.catalog();
  const std::string at = FormatErrorPosition(sql, alter.name_location);
  if (alter.view) {
    if (!catalog.FindView(alter.name)) {
      if (alter.if_exists) return QueryResult();
      throw BinderError(
          "{}\n{}",
          catalog.FindTable(alter.name)
              ? fmt::format("'{}' is a table, not a view (use ALTER TABLE)", alter.name)
              : fmt::format("view '{}' does not exist", alter.name),
          at);
    }
    catalog.RenameView(alter.name, alter.new_name);
    return QueryResult();
  }
  if (!catalog.FindTable(alter.name)) {
    if (alter.if_exists) return QueryResult();
    if (catalog.FindView(alter.name)) {
      throw BinderError("'{}' is a view, not a table (use ALTER VIEW)\n{}", alter.name, at);
    }
  }
  const TableDefinition table =
      RequireTable(catalog, sql, alter.name, alter.name_location, "ALTER TABLE");
  // Foreign keys name their tables and columns as they are: both ends stay unchanged.
  if (!table.foreign_keys.empty() || !catalog.ReferencingTables(table.name).empty()) {
    throw NotSupportedError(
        "Cannot alter entry '{}' because there are entries that depend on it (a FOREIGN KEY "
        "{})\n{}",
        table.name, table.foreign_keys.empty() ? "references it" : "of it references another table",
        at);
  }
  if (alter.action == Action::kRenameTable) {
    catalog.RenameTable(table.name, alter.new_name);
    database.RenameTemporaryTable(table.name, alter.new_name);
    return QueryResult();
  }
  if (!table.managed) {
    throw NotSupportedError(
        "ALTER TABLE ... {} on the external table '{}' is not supported (its columns are its "
        "files'; shears changes only tables it created)\n{}",
        ActionName(alter.action), table.name, at);
  }
  std::vector<std::string> names;
  for (const auto& c : table.columns)
    names.push_back(c.name);
  const int index = FindName(names, alter.column);
  const std::string column_at = FormatErrorPosition(sql, alter.column_location);
  if (alter.action != Action::kAddColumn) {
    if (auto changed = AlterGenerated(table, alter, column_at)) {
      catalog.ReplaceDefinition(table.name, *changed);
      return QueryResult();
    }
  }
  if (alter.action == Action::kAddColumn) {
    if (index >= 0 || FindGenerated(table, alter.column) >= 0) {
      if (alter.column_if) return QueryResult();
      throw BinderError("column '{}' already exists in table '{}'\n{}", alter.column, table.name,
                        column_at);
    }
  } else if (index < 0) {
    if (alter.action == Action::kDropColumn && alter.column_if) return QueryResult();
    throw BinderError("table '{}' has no column '{}'\n{}", table.name, alter.column, column_at);
  }
  const size_t column = static_cast<size_t>(index);
  TableDefinition next = table;
  switch (alter.action) {
    case Action::kAddColumn: {
      // Before the partition columns, which stay last.
      const size_t position = table.columns.size() - table.num_partition_columns();
      CatalogColumn added{alter.column, ResolveTypeName(*alter.type)};
      added.default_sql = alter.expression_sql;
      next.columns.insert(next.columns.begin() + static_cast<std::ptrdiff_t>(position), added);
      auto shift = [&](std::vector<int>& columns) {
        for (int& c : columns)
          if (c >= static_cast<int>(position)) c++;
      };
      for (auto& key : next.keys)
        shift(key.columns);
      for (auto& i : next.indexes)
        shift(i.columns);
      ValidateDefaults(database, settings, next);
      auto items = SameColumns(table);
      // Existing rows get the DEFAULT (computed per row, as INSERT does), else NULL.
      items.insert(items.begin() + static_cast<std::ptrdiff_t>(position),
                   {DefaultValueAst(next, position), alter.column});
      RewriteAs(database, settings, sql, table, next, std::move(items));
      return QueryResult();
    }
    case Action::kDropColumn: {
      for (const auto& key : table.keys) {
        for (int c : key.columns) {
          if (c == index) {
            throw BinderError("cannot drop column '{}': the {} of table '{}' uses it\n{}",
                              alter.column, key.primary ? "PRIMARY KEY" : "UNIQUE constraint",
                              table.name, column_at);
          }
        }
      }
      for (const auto& i : table.indexes) {
        for (int c : i.columns) {
          if (c == index) {
            throw BinderError(
                "cannot drop column '{}': index '{}' uses it (DROP INDEX {} first)\n{}",
                alter.column, i.name, i.name, column_at);
          }
        }
      }
      if (!table.columns[column].is_partition &&
          table.columns.size() - table.num_partition_columns() == 1) {
        throw BinderError(
            "cannot drop column '{}': it is the only column of table '{}' that is not a "
            "partition column\n{}",
            alter.column, table.name, column_at);
      }
      CloseStoredPosition(next, column);
      next.columns.erase(next.columns.begin() + index);
      for (auto& key : next.keys)
        key.columns = WithoutColumn(key.columns, index);
      for (auto& i : next.indexes)
        i.columns = WithoutColumn(i.columns, index);
      try {
        ValidateChecks(database, next);
      } catch (const BinderError&) {
        throw BinderError("cannot drop column '{}': a CHECK constraint of table '{}' uses it\n{}",
                          alter.column, table.name, column_at);
      }
      auto items = SameColumns(table);
      items.erase(items.begin() + index);
      RewriteAs(database, settings, sql, table, next, std::move(items));
      return QueryResult();
    }
    case Action::kRenameColumn: {
      const int taken = FindName(names, alter.new_name);
      if ((taken >= 0 && taken != index) || FindGenerated(table, alter.new_name) >= 0) {
        throw BinderError("column '{}' already exists in table '{}'\n{}", alter.new_name,
                          table.name, column_at);
      }
      next.columns[column].name = alter.new_name;
      RenameInGenerated(next, table.columns[column].name, alter.new_name);
      try {
        ValidateChecks(database, next);
      } catch (const BinderError&) {
        throw NotSupportedError(
            "cannot rename column '{}': a CHECK constraint of table '{}' uses it\n{}", alter.column,
            table.name, column_at);
      }
      auto items = SameColumns(table);
      items[column].alias = alter.new_name;
      RewriteAs(database, settings, sql, table, next, std::move(items));
      return QueryResult();
    }
    case Action::kAlterType: {
      next.columns[column].type = ResolveTypeName(*alter.type);
      if (next.columns[column].default_sql) ValidateDefaults(database, settings, next);
      ValidateChecks(database, next);
      auto items = SameColumns(table);
      ast::ExprPtr value = alter.expression_sql ? ParseExpression(*alter.expression_sql, "USING")
                                                : ColumnRef(table.name, table.columns[column].name);
      items[column].expr = CastAst(std::move(value), next.columns[column].type);
      RewriteAs(database, settings, sql, table, next, std::move(items));
      return QueryResult();
    }
    case Action::kSetNotNull: {
      next.columns[column].not_null = true;
      // The rewrite's NOT NULL check fails on a NULL already there (nothing changes then).
      RewriteAs(database, settings, sql, table, next, SameColumns(table));
      return QueryResult();
    }
    case Action::kDropNotNull:
      for (const auto& key : table.keys) {
        for (int c : key.columns) {
          if (key.primary && c == index) {
            throw BinderError(
                "column '{}' is in the PRIMARY KEY of table '{}': it stays NOT NULL\n{}",
                alter.column, table.name, column_at);
          }
        }
      }
      next.columns[column].not_null = false;
      break;
    case Action::kSetDefault:
      next.columns[column].default_sql = alter.expression_sql;
      ValidateDefaults(database, settings, next);
      break;
    case Action::kDropDefault:
      next.columns[column].default_sql.reset();
      break;
    case Action::kRenameTable:
      break;
  }
  // The definition alone changes; the files stay (SwapFiles of the same list).
  catalog.ReplaceDefinition(table.name, next);
  return QueryResult();
}

}  // namespace shears::write_internal

// FOREIGN KEYs of managed tables (DuckDB's: NO ACTION only, no cascades). Checked on every
// write as queries over the staged rows, before the commit: a new child row needs its parent
// row; a rewrite of a parent table (UPDATE, DELETE) may not take away a row a child row
// references. DROP TABLE of a referenced table is refused by the catalog.

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "common/error.h"
#include "common/string_util.h"
#include "main/write_internal.h"
#include "parser/parser.h"

namespace shears::write_internal {

namespace {

std::vector<std::string> ColumnNames(const TableDefinition& table,
                                     const std::vector<int>& columns) {
  std::vector<std::string> names;
  for (int c : columns)
    names.push_back(table.columns[static_cast<size_t>(c)].name);
  return names;
}

/// The first row of `child_rows` (columns `child_columns`, no NULL among them) without a row
/// of `parent_rows` holding the same values in `parent_columns`: its values as "a: 1, b: 2"
/// with the names of `labels` (DuckDB names the parent's columns for a missing parent, the
/// child's for a parent still referenced).
std::optional<std::string> Orphan(Database& database, const Settings& settings,
                                  const std::string& child_rows,
                                  const std::vector<std::string>& child_columns,
                                  const std::string& parent_rows,
                                  const std::vector<std::string>& parent_columns,
                                  const std::vector<std::string>& labels) {
  std::vector<std::string> selected, not_null, match;
  for (size_t i = 0; i < child_columns.size(); i++) {
    const std::string c = "c." + QuoteIdentifier(child_columns[i]);
    selected.push_back(fmt::format("CAST({} AS VARCHAR)", c));
    not_null.push_back(c + " IS NOT NULL");
    match.push_back(fmt::format("p.{} = {}", QuoteIdentifier(parent_columns[i]), c));
  }
  const std::string sql = fmt::format(
      "SELECT {} FROM ({}) AS c WHERE {} AND NOT EXISTS (SELECT 1 FROM ({}) AS p WHERE {}) "
      "LIMIT 1",
      fmt::join(selected, ", "), child_rows, fmt::join(not_null, " AND "), parent_rows,
      fmt::join(match, " AND "));
  Connection connection(database);
  connection.settings() = settings;
  auto rows = connection.Query(sql).ToStrings();
  if (rows.empty()) return std::nullopt;
  std::vector<std::string> parts;
  for (size_t i = 0; i < child_columns.size(); i++)
    parts.push_back(fmt::format("{}: {}", labels[i], rows[0][i]));
  return fmt::format("{}", fmt::join(parts, ", "));
}

}  // namespace

void ResolveForeignKeys(Catalog& catalog, const std::string& sql,
                        const ast::CreateTableStatement& create, TableDefinition& table) {
  std::vector<std::string> names;
  for (const auto& c : table.columns)
    names.push_back(c.name);
  for (const auto& key : create.foreign_keys) {
    const std::string at = FormatErrorPosition(sql, key.location);
    ForeignKey resolved;
    for (const auto& name : key.columns) {
      const int index = FindName(names, name);
      if (index < 0) {
        throw BinderError("foreign key column '{}' is not a column of table '{}'\n{}", name,
                          create.name, at);
      }
      resolved.columns.push_back(index);
    }
    // The table itself (a self-reference) or another managed table of this database.
    const bool self = EqualsAsciiLower(key.table, AsciiLower(create.name));
    std::optional<TableDefinition> found;
    if (!self) {
      if (&catalog.CatalogOf(key.table) != &catalog) {
        throw NotSupportedError("a foreign key cannot reference table '{}' of another database\n{}",
                                key.table, at);
      }
      found = catalog.FindTable(key.table);
      if (!found || !found->managed) {
        throw BinderError("foreign key references table '{}', which does not exist{}\n{}",
                          key.table, found ? " as a table shears manages" : "", at);
      }
    }
    const TableDefinition& parent = self ? table : *found;
    resolved.parent = self ? catalog.Resolve(table.name, CatalogNamespace::kRelation, true)
                           : catalog.Resolve(found->name, CatalogNamespace::kRelation);
    std::vector<std::string> parent_names;
    for (const auto& c : parent.columns)
      parent_names.push_back(c.name);
    std::vector<int> referenced;
    if (key.referenced.empty()) {
      for (const auto& k : parent.keys)
        if (k.primary) referenced = k.columns;
      if (referenced.empty()) {
        throw BinderError(
            "Failed to create foreign key: there is no primary key for referenced table \"{}\"\n{}",
            key.table, at);
      }
    }
    for (const auto& name : key.referenced) {
      const int index = FindName(parent_names, name);
      if (index < 0) {
        throw BinderError(
            "Failed to create foreign key: referenced table \"{}\" has no column "
            "\"{}\"\n{}",
            key.table, name, at);
      }
      referenced.push_back(index);
    }
    if (referenced.size() != resolved.columns.size()) {
      throw BinderError(
          "The number of referencing and referenced columns for foreign keys must be the same "
          "({} and {})\n{}",
          resolved.columns.size(), referenced.size(), at);
    }
    // Parent rows must be unique on the referenced columns (DuckDB's rule).
    auto sorted = referenced;
    std::sort(sorted.begin(), sorted.end());
    const bool is_key = std::any_of(parent.keys.begin(), parent.keys.end(), [&](const TableKey& k) {
      auto columns = k.columns;
      std::sort(columns.begin(), columns.end());
      return columns == sorted;
    });
    if (!is_key) {
      throw BinderError(
          "Failed to create foreign key: referenced table \"{}\" does not have a primary key or "
          "unique constraint on the columns {}\n{}",
          key.table, fmt::join(ColumnNames(parent, referenced), ", "), at);
    }
    resolved.parent_columns = ColumnNames(parent, referenced);
    table.foreign_keys.push_back(std::move(resolved));
  }
}

void CheckForeignKeys(Database& database, const Settings& settings, const TableDefinition& table,
                      const std::string& staged_directory, bool replacing) {
  Catalog& catalog = database.catalog();
  const std::string staged = StagedRows(table, staged_directory);
  const std::string self_key = catalog.Resolve(table.name, CatalogNamespace::kRelation);
  // The new rows' parents: rows of the parent table as it is (a row of the same INSERT does not
  // count, as in DuckDB), or, when a rewrite of a self-referencing table, of the new rows.
  for (const auto& fk : table.foreign_keys) {
    const auto [schema, name] = Catalog::SplitKey(fk.parent);
    const std::string parents =
        fk.parent == self_key && replacing
            ? staged
            : fmt::format("SELECT * FROM {}.{}", QuoteIdentifier(schema), QuoteIdentifier(name));
    if (auto orphan = Orphan(database, settings, staged, ColumnNames(table, fk.columns), parents,
                             fk.parent_columns, fk.parent_columns)) {
      throw ConstraintError(
          "Violates foreign key constraint because key \"{}\" does not exist in the referenced "
          "table",
          *orphan);
    }
  }
  if (!replacing) return;
  // A rewrite (UPDATE, DELETE) of a referenced table keeps every referenced row.
  std::vector<std::string> children = catalog.ReferencingTables(table.name);
  for (const auto& child_name : children) {
    const auto child = catalog.FindTable(child_name);
    if (!child) continue;
    for (const auto& fk : child->foreign_keys) {
      if (fk.parent != self_key) continue;
      const auto [schema, name] = Catalog::SplitKey(child_name);
      const std::string child_rows =
          fmt::format("SELECT * FROM {}.{}", QuoteIdentifier(schema), QuoteIdentifier(name));
      const auto child_columns = ColumnNames(*child, fk.columns);
      if (auto orphan = Orphan(database, settings, child_rows, child_columns, staged,
                               fk.parent_columns, child_columns)) {
        throw ConstraintError(
            "Violates foreign key constraint because key \"{}\" is still referenced by a foreign "
            "key in a different table",
            *orphan);
      }
    }
  }
}

}  // namespace shears::write_internal

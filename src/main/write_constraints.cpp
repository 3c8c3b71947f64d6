#include "main/write_internal.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <utility>

#include "catalog/staged_write.h"
#include "common/error.h"
#include "common/string_util.h"
#include "execution/operator/physical_csv_write.h"
#include "execution/operator/physical_parquet_write.h"
#include "execution/operator/physical_result_collector.h"
#include "execution/physical_planner.h"
#include "execution/pipeline.h"
#include "execution/query_context.h"
#include "optimizer/optimizer.h"
#include "parser/ast_visit.h"
#include "parser/parser.h"
#include "planner/binder.h"
#include "planner/generated_columns.h"
#include "storage/csv/csv_options.h"

namespace shears::write_internal {

namespace fs = std::filesystem;

namespace {

// ---------------------------------------------------------------- constraints

/// `column` unchanged, or a ConstraintError when a row is NULL: what the write projection
/// computes for a NOT NULL column, so a violation stops the write before anything is published.
BoundExprPtr CheckNotNull(BoundExprPtr column, const std::string& table, const std::string& name) {
  BoundScalarFunction check;
  check.name = "not_null_check";
  check.arg_types = {column->type};
  check.return_type = column->type;
  check.null_propagating = false;  // the kernel must see the NULLs
  check.deterministic = false;     // never folded away
  check.kernel = [table, name](const std::vector<const Vector*>& args, idx_t count,
                               Vector& result) {
    const Vector& in = *args[0];
    if (in.validity().CountNulls(count) > 0) {
      throw ConstraintError(
          "NULL in column '{}' violates its NOT NULL constraint (table '{}'); nothing was "
          "written",
          name, table);
    }
    const size_t width = in.type().value_size();
    std::memcpy(result.raw_data(), in.data<uint8_t>(), count * width);
    if (in.type().IsString()) result.ShareStringBuffers(in);
  };
  std::vector<BoundExprPtr> args;
  args.push_back(std::move(column));
  return std::make_unique<BoundFunction>(std::move(check), std::move(args));
}

}  // namespace

/// Wraps the NOT NULL columns of `table` (the query's columns, in table order) in CheckNotNull.
void ProjectNotNullChecks(BoundWrite& write, const TableDefinition& table) {
  bool any = false;
  for (const auto& c : table.columns)
    any = any || c.not_null;
  if (!any) return;
  std::vector<BoundExprPtr> exprs;
  std::vector<std::string> names;
  for (size_t i = 0; i < table.columns.size(); i++) {
    BoundExprPtr column = QueryColumn(write, i);
    if (table.columns[i].not_null)
      column = CheckNotNull(std::move(column), table.name, table.columns[i].name);
    exprs.push_back(std::move(column));
    names.push_back(table.columns[i].name);
  }
  Project(write, std::move(exprs), std::move(names));
}

std::string QuoteIdentifier(const std::string& name) {
  std::string out = "\"";
  for (char c : name)
    out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

namespace {

std::string QuoteString(const std::string& text) {
  std::string out = "'";
  for (char c : text)
    out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

}  // namespace

/// The first key value of `columns` that two rows of `source` share (the FROM clause of a
/// query over the table's columns), rows with a NULL in the key exempt (SQL's rule for
/// UNIQUE); nullopt when there is none. Runs as a query: a scan of the key columns.
std::optional<std::vector<std::string>> FindDuplicateKey(Database& database,
                                                         const Settings& settings,
                                                         const TableDefinition& table,
                                                         const std::vector<int>& key_columns,
                                                         const std::string& source) {
  std::vector<std::string> columns, not_null;
  for (int c : key_columns) {
    const std::string quoted = QuoteIdentifier(table.columns[static_cast<size_t>(c)].name);
    columns.push_back(quoted);
    not_null.push_back(quoted + " IS NOT NULL");
  }
  const std::string list = fmt::format("{}", fmt::join(columns, ", "));
  const std::string sql =
      fmt::format("SELECT {0} FROM {1} WHERE {2} GROUP BY {0} HAVING count(*) > 1 LIMIT 1", list,
                  source, fmt::join(not_null, " AND "));
  Connection check(database);
  check.settings() = settings;
  auto rows = check.Query(sql).ToStrings();
  if (rows.empty()) return std::nullopt;
  return std::move(rows[0]);
}

/// `SELECT cols FROM read_parquet(staged files)`: the rows of a staged write, partition
/// values (typed by inference when read back from directory names) cast to the table's types.
std::string StagedRows(const TableDefinition& table, const std::string& staged_directory) {
  std::vector<std::string> casts;
  for (const auto& column : table.columns) {
    const std::string quoted = QuoteIdentifier(column.name);
    casts.push_back("CAST(" + (staged_directory.empty() ? std::string("NULL") : quoted) + " AS " +
                    column.type.ToString() + ") AS " + quoted);
  }
  if (staged_directory.empty()) return fmt::format("SELECT {} WHERE false", fmt::join(casts, ", "));
  return fmt::format("SELECT {} FROM read_parquet({}{})", fmt::join(casts, ", "),
                     QuoteString(staged_directory),
                     table.num_partition_columns() > 0 ? ", hive_partitioning = true" : "");
}

namespace {

/// The name a CHECK may qualify the table's columns with (t.a, also for s.t).
std::string CheckAlias(const TableDefinition& table) {
  const size_t dot = table.name.rfind('.');
  return QuoteIdentifier(dot == std::string::npos ? table.name : table.name.substr(dot + 1));
}

}  // namespace

/// What a duplicate of `values` in `key_columns` violates, as the error says it.
[[noreturn]] void ThrowDuplicate(const TableDefinition& table, const std::vector<int>& key_columns,
                                 const std::vector<std::string>& values, const std::string& what,
                                 const std::string& consequence) {
  std::vector<std::string> names;
  for (int c : key_columns)
    names.push_back(table.columns[static_cast<size_t>(c)].name);
  const std::string joined_names = fmt::format("{}", fmt::join(names, ", "));
  const std::string joined_values = fmt::format("{}", fmt::join(values, ", "));
  const bool single = key_columns.size() == 1;
  throw ConstraintError("duplicate key {} = {} violates the {} ({}) of table '{}'; {}",
                        single ? joined_names : "(" + joined_names + ")",
                        single ? joined_values : "(" + joined_values + ")", what, joined_names,
                        table.name, consequence);
}

/// Checks each PRIMARY KEY, UNIQUE and UNIQUE index of `table` over the rows of the files just
/// written to `staged_directory` (not yet visible), plus the committed rows unless `replacing`
/// (UPDATE and DELETE write the whole table anew): ConstraintError naming the first duplicate.
void CheckKeys(Database& database, const Settings& settings, const TableDefinition& table,
               const std::string& staged_directory, bool replacing) {
  std::vector<std::pair<const std::vector<int>*, std::string>> keys;
  for (const auto& key : table.keys)
    keys.emplace_back(&key.columns, key.primary ? "PRIMARY KEY" : "UNIQUE");
  for (const auto& index : table.indexes) {
    if (index.unique) keys.emplace_back(&index.columns, "UNIQUE index '" + index.name + "'");
  }
  if (keys.empty()) return;
  const std::string staged = "(" + StagedRows(table, staged_directory) + ")";
  for (const auto& [key_columns, what] : keys) {
    // Twice among the new rows...
    if (auto values = FindDuplicateKey(database, settings, table, *key_columns, staged))
      ThrowDuplicate(table, *key_columns, *values, what, "nothing was written");
    if (replacing) continue;
    // ... or in the table already: a semi join the staged keys build, so their runtime filter
    // skips the table's row groups by min/max instead of a scan of every key.
    std::vector<std::string> columns, match;
    for (int c : *key_columns) {
      const std::string quoted = QuoteIdentifier(table.columns[static_cast<size_t>(c)].name);
      columns.push_back("e." + quoted);
      match.push_back("s." + quoted + " = e." + quoted);
    }
    Connection check(database);
    check.settings() = settings;
    auto rows = check
                    .Query(fmt::format(
                        "SELECT {} FROM {} AS e WHERE EXISTS (SELECT 1 FROM {} AS s WHERE {}) "
                        "LIMIT 1",
                        fmt::join(columns, ", "), QuoteIdentifier(table.name), staged,
                        fmt::join(match, " AND ")))
                    .ToStrings();
    if (!rows.empty()) ThrowDuplicate(table, *key_columns, rows[0], what, "nothing was written");
  }
}

/// Checks each CHECK constraint of `table` over the staged rows: ConstraintError when a row
/// makes one FALSE (NULL passes, as in SQL). One query per constraint.
void CheckChecks(Database& database, const Settings& settings, const TableDefinition& table,
                 const std::string& staged_directory) {
  // With the generated columns computed (a CHECK may read them).
  const std::string alias = ShortName(table);
  const std::string rows =
      table.generated.empty()
          ? StagedRows(table, staged_directory)
          : GeneratedColumnsQuery(table,
                                  fmt::format("({}) AS {}", StagedRows(table, staged_directory),
                                              QuoteIdentifier(alias)),
                                  alias);
  // Each generated column must compute for every row (DuckDB checks them on write too: a value
  // that does not convert to the column's type fails the statement).
  for (const auto& g : table.generated) {
    Connection connection(database);
    connection.settings() = settings;
    try {
      connection.Query(
          fmt::format("SELECT count({}) FROM ({}) AS g", QuoteIdentifier(g.name), rows));
    } catch (const Error& e) {
      if (!e.IsUserError()) throw;
      throw ConstraintError(
          "Incorrect value for generated column '{}' ({} AS ({})) of table '{}': {}; nothing was "
          "written",
          g.name, g.type.ToString(), g.sql, table.name, e.what());
    }
  }
  for (const auto& check : table.checks) {
    Connection connection(database);
    connection.settings() = settings;
    const std::string sql = fmt::format("SELECT 1 FROM ({}) AS {} WHERE ({}) IS FALSE LIMIT 1",
                                        rows, CheckAlias(table), check);
    if (connection.Query(sql).row_count() > 0) {
      throw ConstraintError(
          "CHECK constraint failed on table '{}' with expression CHECK({}); nothing was written",
          table.name, check);
    }
  }
}

/// A CHECK expression must bind over the table's columns and be BOOLEAN: tried at CREATE TABLE
/// on no rows (BinderError otherwise).
void ValidateChecks(Database& database, const TableDefinition& table) {
  std::vector<std::string> columns;
  for (const auto& column : table.columns) {
    columns.push_back(fmt::format("CAST(NULL AS {}) AS {}", column.type.ToString(),
                                  QuoteIdentifier(column.name)));
  }
  std::string row = fmt::format("SELECT {}", fmt::join(columns, ", "));
  if (!table.generated.empty()) {
    const std::string alias = ShortName(table);
    row =
        GeneratedColumnsQuery(table, fmt::format("({}) AS {}", row, QuoteIdentifier(alias)), alias);
  }
  for (const auto& check : table.checks) {
    // A condition on the row alone: no subquery (DuckDB's rule too).
    bool subquery = false;
    try {
      const auto parsed = Parser::Parse("SELECT (" + check + ")");
      if (parsed.size() == 1 && parsed[0]->kind == ast::StatementKind::kSelect) {
        const auto& query = *static_cast<const ast::SelectStatement&>(*parsed[0]).query;
        if (query.kind == ast::QueryNodeKind::kSelect) {
          for (const auto& item : static_cast<const ast::SelectNode&>(query).select_list)
            subquery = subquery || ast::HasSubquery(*item.expr);
        }
      }
    } catch (const Error&) {
      // Not parsed alone: the query below says what is wrong.
    }
    if (subquery) {
      throw BinderError("CHECK({}) of table '{}' has a subquery: a CHECK tests one row's columns",
                        check, table.name);
    }
    for (const auto& name : ReferencedColumns(check)) {
      for (const auto& g : table.generated) {
        if (EqualsAsciiLower(g.name, name)) {
          throw BinderError(
              "Constraints on generated columns are not supported yet: CHECK({}) reads '{}'", check,
              g.name);
        }
      }
    }
    Connection connection(database);
    try {
      connection.Query(fmt::format("SELECT 1 FROM ({}) AS {} WHERE ({}) IS FALSE LIMIT 0", row,
                                   CheckAlias(table), check));
    } catch (const Error& e) {
      if (!e.IsUserError()) throw;
      throw BinderError("CHECK({}) of table '{}' is not a condition on its columns: {}", check,
                        table.name, e.what());
    }
  }
}

}  // namespace shears::write_internal

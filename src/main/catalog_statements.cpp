#include "main/catalog_statements.h"

#include <algorithm>
#include <set>

#include "catalog/analyze.h"
#include "catalog/external_table.h"
#include "catalog/staged_write.h"
#include "common/error.h"
#include "common/session.h"
#include "common/string_util.h"
#include "common/version.h"
#include "function/function.h"
#include "parser/parser.h"
#include "planner/bind_context.h"

namespace shears {

namespace {

QueryResult RowsResult(std::vector<std::string> names, std::vector<LogicalType> types,
                       const std::vector<std::vector<Value>>& rows) {
  QueryResult result;
  result.names = std::move(names);
  result.types = std::move(types);
  result.rows = std::make_shared<ColumnDataCollection>(result.types);
  for (size_t start = 0; start < rows.size() || start == 0; start += kBatchSize) {
    const size_t count = std::min<size_t>(kBatchSize, rows.size() - start);
    Batch batch(result.types, std::max<size_t>(count, 1));
    for (size_t r = 0; r < count; r++) {
      for (size_t c = 0; c < result.types.size(); c++)
        WriteValue(batch.column(c), r, rows[start + r][c]);
    }
    batch.SetSize(count);
    result.rows->Append(batch);
    if (rows.empty()) break;
  }
  return result;
}

/// Rethrows a user error with the position of `offset` in `sql` appended.
template <typename F>
auto WithPosition(const std::string& sql, int offset, F&& run) {
  try {
    return run();
  } catch (const Error& e) {
    if (!e.IsUserError() || offset < 0) throw;
    ThrowError(e.kind(), std::string(e.what()) + "\n" + FormatErrorPosition(sql, offset));
  }
}

TableDefinition RequireTable(const Catalog& catalog, const std::string& sql,
                             const ast::TableCommandStatement& command) {
  auto table = catalog.FindTable(command.name);
  if (!table) {
    throw BinderError("{}\n{}",
                      catalog.FindView(command.name)
                          ? fmt::format("'{}' is a view, not a table", command.name)
                          : fmt::format("table '{}' does not exist", command.name),
                      FormatErrorPosition(sql, command.name_location));
  }
  return *table;
}

QueryResult CreateExternalTable(Catalog& catalog, const std::string& sql,
                                const ast::CreateExternalTableStatement& create) {
  if (auto existing = catalog.FindTable(create.name); existing && create.if_not_exists) {
    return QueryResult();
  }
  ExternalTableSpec spec;
  spec.name = create.name;
  spec.location = create.location;
  spec.columns_declared = create.columns_declared;
  auto resolve = [&](const ast::CreateExternalTableStatement::Column& column) {
    ExternalTableSpec::Column out{column.name, std::nullopt};
    if (column.type) {
      out.type =
          WithPosition(sql, column.type->location, [&] { return ResolveTypeName(*column.type); });
    }
    return out;
  };
  for (const auto& column : create.columns)
    spec.columns.push_back(resolve(column));
  for (const auto& column : create.partition_columns)
    spec.partition_columns.push_back(resolve(column));
  // Checked before the location is read, which may take a while.
  if (catalog.FindTable(create.name) || catalog.FindView(create.name)) {
    throw BinderError("'{}' already exists\n{}", create.name,
                      FormatErrorPosition(sql, create.name_location));
  }
  TableDefinition table =
      WithPosition(sql, create.location_offset, [&] { return ScanExternalTable(spec); });
  WithPosition(sql, create.name_location, [&] {
    catalog.CreateTable(table);
    return 0;
  });
  return QueryResult();
}

QueryResult Describe(const TableDefinition& table) {
  std::vector<std::vector<Value>> rows;
  for (const auto& column : table.columns) {
    rows.push_back(
        {Value::Varchar(column.name),
         Value::Varchar(column.type.valid() ? column.type.ToString()
                                            : "unsupported: " + column.unsupported_reason),
         Value::Boolean(column.is_partition)});
  }
  return RowsResult({"column_name", "column_type", "partition_key"},
                    {LogicalType::Varchar(), LogicalType::Varchar(), LogicalType::Boolean()}, rows);
}

/// PRAGMA table_info: DuckDB's columns (cid, name, type, notnull, dflt_value, pk).
QueryResult TableInfo(const TableDefinition& table) {
  std::vector<bool> in_primary_key(table.columns.size(), false);
  for (const auto& key : table.keys)
    if (key.primary)
      for (int c : key.columns)
        in_primary_key[static_cast<size_t>(c)] = true;
  std::vector<std::vector<Value>> rows;
  for (size_t i = 0; i < table.columns.size(); i++) {
    const auto& column = table.columns[i];
    rows.push_back(
        {Value::Integer(static_cast<int32_t>(i)), Value::Varchar(column.name),
         Value::Varchar(column.type.valid() ? column.type.ToString()
                                            : "unsupported: " + column.unsupported_reason),
         Value::Boolean(column.not_null),
         column.default_sql ? Value::Varchar(*column.default_sql)
                            : Value::Null(LogicalType::Varchar()),
         Value::Boolean(in_primary_key[i])});
  }
  return RowsResult({"cid", "name", "type", "notnull", "dflt_value", "pk"},
                    {LogicalType::Integer(), LogicalType::Varchar(), LogicalType::Varchar(),
                     LogicalType::Boolean(), LogicalType::Varchar(), LogicalType::Boolean()},
                    rows);
}

QueryResult ShowPartitions(const TableDefinition& table) {
  if (table.num_partition_columns() == 0) {
    throw InvalidInputError("table '{}' is not partitioned", table.name);
  }
  std::vector<std::vector<Value>> rows;
  for (const auto& partition : table.partitions) {
    int64_t rows_total = 0, bytes = 0;
    for (const auto& file : partition.files) {
      rows_total += std::max<int64_t>(file.num_rows, 0);
      bytes += static_cast<int64_t>(file.size);
    }
    rows.push_back({Value::Varchar(partition.path),
                    Value::Bigint(static_cast<int64_t>(partition.files.size())),
                    Value::Bigint(rows_total), Value::Bigint(bytes)});
  }
  return RowsResult(
      {"partition", "files", "rows", "bytes"},
      {LogicalType::Varchar(), LogicalType::Bigint(), LogicalType::Bigint(), LogicalType::Bigint()},
      rows);
}

QueryResult RecoverPartitions(Catalog& catalog, const TableDefinition& table) {
  std::vector<CatalogPartition> partitions = RescanPartitions(table);
  std::set<std::string> before, after;
  for (const auto& p : table.partitions)
    before.insert(p.path);
  int64_t files = 0;
  for (const auto& p : partitions) {
    after.insert(p.path);
    files += static_cast<int64_t>(p.files.size());
  }
  int64_t added = 0, removed = 0;
  for (const auto& p : after)
    added += before.count(p) ? 0 : 1;
  for (const auto& p : before)
    removed += after.count(p) ? 0 : 1;
  catalog.ReplacePartitions(table.name, partitions);
  return RowsResult(
      {"partitions", "partitions_added", "partitions_removed", "files"},
      {LogicalType::Bigint(), LogicalType::Bigint(), LogicalType::Bigint(), LogicalType::Bigint()},
      {{Value::Bigint(static_cast<int64_t>(partitions.size())), Value::Bigint(added),
        Value::Bigint(removed), Value::Bigint(files)}});
}

QueryResult Analyze(Catalog& catalog, const TableDefinition& table) {
  const std::vector<StatisticsEntry> entries = AnalyzeTable(table);
  catalog.ReplaceStatistics(table.name, entries);
  int64_t files = 0;
  for (const auto& p : table.partitions)
    files += static_cast<int64_t>(p.files.size());
  return RowsResult(
      {"rows", "partitions", "files"},
      {LogicalType::Bigint(), LogicalType::Bigint(), LogicalType::Bigint()},
      {{Value::Bigint(entries.front().row_count),
        Value::Bigint(static_cast<int64_t>(table.partitions.size())), Value::Bigint(files)}});
}

QueryResult ShowStats(const Catalog& catalog, const TableDefinition& table,
                      const std::string& level) {
  const auto entries = catalog.GetStatistics(table.name, level);
  // Managed tables have file statistics from the moment the files are written.
  if (!table.statistics && (level != "file" || entries.empty())) {
    throw InvalidInputError("table '{}' has no statistics; run ANALYZE {}", table.name, table.name);
  }
  auto text = [](const std::optional<std::string>& s) {
    return s ? Value::Varchar(*s) : Value::Null(LogicalType::Varchar());
  };
  const bool with_path = level != "table";
  std::vector<std::vector<Value>> rows;
  for (const auto& entry : entries) {
    for (const auto& column : entry.columns) {
      std::vector<Value> row;
      if (with_path) row.push_back(Value::Varchar(entry.path));
      for (Value v : {Value::Varchar(column.column), Value::Bigint(entry.row_count),
                      Value::Bigint(column.null_count), Value::Bigint(column.distinct_count),
                      text(column.min), text(column.max), Value::Bigint(entry.bytes)}) {
        row.push_back(std::move(v));
      }
      rows.push_back(std::move(row));
    }
  }
  std::vector<std::string> names = {"column_name", "row_count", "null_count", "distinct_count",
                                    "min",         "max",       "bytes"};
  std::vector<LogicalType> types = {
      LogicalType::Varchar(), LogicalType::Bigint(),  LogicalType::Bigint(), LogicalType::Bigint(),
      LogicalType::Varchar(), LogicalType::Varchar(), LogicalType::Bigint()};
  if (with_path) {
    names.insert(names.begin(), level);
    types.insert(types.begin(), LogicalType::Varchar());
  }
  return RowsResult(std::move(names), std::move(types), rows);
}

/// CREATE SEQUENCE with DuckDB's defaults and checks: an ascending sequence runs from 1 to
/// the largest BIGINT, a descending one from -1 down to the smallest, and starts at the bound
/// it moves away from.
void CreateSequence(Catalog& catalog, const ast::CreateSequenceStatement& create) {
  SequenceDefinition sequence;
  sequence.name = create.name;
  sequence.increment = create.increment;
  sequence.cycle = create.cycle;
  if (create.increment == 0) throw InvalidInputError("the INCREMENT of a sequence must not be 0");
  const bool ascending = create.increment > 0;
  sequence.min_value = create.min_value.value_or(ascending ? 1 : INT64_MIN);
  sequence.max_value = create.max_value.value_or(ascending ? INT64_MAX : -1);
  sequence.start = create.start.value_or(ascending ? sequence.min_value : sequence.max_value);
  if (sequence.min_value >= sequence.max_value) {
    throw InvalidInputError("the MINVALUE ({}) of a sequence must be less than its MAXVALUE ({})",
                            sequence.min_value, sequence.max_value);
  }
  if (sequence.start < sequence.min_value) {
    throw InvalidInputError(
        "the START value ({}) of a sequence cannot be less than its MINVALUE ({})", sequence.start,
        sequence.min_value);
  }
  if (sequence.start > sequence.max_value) {
    throw InvalidInputError(
        "the START value ({}) of a sequence cannot be greater than its MAXVALUE ({})",
        sequence.start, sequence.max_value);
  }
  catalog.CreateSequence(sequence, create.or_replace, create.if_not_exists);
}

void CreateMacro(Catalog& catalog, const ast::CreateMacroStatement& create) {
  const std::string name = AsciiLower(create.name);
  // A macro never hides a built-in function, nor one the binder handles by name.
  bool builtin = FunctionRegistry::Default().Exists(name) || IsAggregateFunction(name);
  // (Table macros likewise: a table function's name is taken.)
  for (const char* special : {"nextval", "currval", "coalesce", "greatest", "least", "nullif",
                              "typeof", "grouping", "grouping_id", "range", "generate_series",
                              "read_parquet", "parquet_scan", "read_csv", "read_csv_auto"})
    builtin = builtin || name == special;
  if (builtin) {
    throw BinderError("'{}' is a built-in function; a macro needs another name", create.name);
  }
  MacroDefinition macro;
  macro.name = create.name;
  macro.parameters = create.parameters;
  macro.defaults = create.defaults;
  macro.body = create.body;
  macro.temporary = create.temporary;
  catalog.CreateMacro(macro, create.or_replace);
}

}  // namespace

QueryResult RunCatalogStatement(Catalog& catalog, const std::string& sql,
                                const ast::Statement& statement) {
  switch (statement.kind) {
    case ast::StatementKind::kCreateExternalTable:
      return CreateExternalTable(catalog, sql,
                                 static_cast<const ast::CreateExternalTableStatement&>(statement));
    case ast::StatementKind::kDropTable: {
      const auto& drop = static_cast<const ast::DropTableStatement&>(statement);
      auto managed_location = WithPosition(
          sql, statement.location, [&] { return catalog.DropTable(drop.name, drop.if_exists); });
      // After the commit point: a crash here leaves a directory no table lists, which the next
      // open of the database removes (RecoverInterruptedWrites).
      // In a transaction: at COMMIT (a ROLLBACK brings the table back).
      if (managed_location) {
        if (catalog.in_transaction()) {
          catalog.DeferRemoval(*managed_location);
        } else {
          RemoveManagedFiles(*managed_location);
        }
      }
      return QueryResult();
    }
    case ast::StatementKind::kShowTables: {
      // The current database's (USE db), as DuckDB's.
      const Catalog* listed = &catalog;
      if (const auto session = SessionState::Current();
          session && !session->current_database().empty()) {
        if (const Catalog* current = catalog.DatabaseCatalog(session->current_database()))
          listed = current;
      }
      std::vector<std::vector<Value>> rows;
      for (const auto& entry : listed->List())
        rows.push_back({Value::Varchar(entry.name), Value::Varchar(entry.kind)});
      return RowsResult({"name", "kind"}, {LogicalType::Varchar(), LogicalType::Varchar()}, rows);
    }
    case ast::StatementKind::kDropIndex: {
      const auto& drop = static_cast<const ast::DropIndexStatement&>(statement);
      WithPosition(sql, statement.location,
                   [&] { return catalog.DropIndex(drop.name, drop.if_exists), 0; });
      return QueryResult();
    }
    case ast::StatementKind::kCreateSequence:
      CreateSequence(catalog, static_cast<const ast::CreateSequenceStatement&>(statement));
      return QueryResult();
    case ast::StatementKind::kCreateMacro:
      CreateMacro(catalog, static_cast<const ast::CreateMacroStatement&>(statement));
      return QueryResult();
    case ast::StatementKind::kDropSequence:
    case ast::StatementKind::kDropMacro: {
      const auto& drop = static_cast<const ast::DropObjectStatement&>(statement);
      if (statement.kind == ast::StatementKind::kDropSequence) {
        catalog.DropSequence(drop.name, drop.if_exists);
      } else {
        catalog.DropMacro(drop.name, drop.if_exists);
      }
      return QueryResult();
    }
    case ast::StatementKind::kCreateSchema: {
      const auto& create = static_cast<const ast::SchemaStatement&>(statement);
      WithPosition(sql, statement.location, [&] {
        // OR REPLACE: an empty schema is replaced by a new empty one, a non-empty one stays
        // (DropSchema says what it holds), as DuckDB.
        if (create.or_replace) catalog.DropSchema(create.name, /*if_exists=*/true, false);
        return catalog.CreateSchema(create.name, create.if_exists);
      });
      return QueryResult();
    }
    case ast::StatementKind::kDropSchema: {
      const auto& drop = static_cast<const ast::SchemaStatement&>(statement);
      const auto locations = WithPosition(sql, statement.location, [&] {
        return catalog.DropSchema(drop.name, drop.if_exists, drop.cascade);
      });
      // The schema's managed tables' files, as DROP TABLE's.
      for (const auto& location : locations) {
        if (catalog.in_transaction()) {
          catalog.DeferRemoval(location);
        } else {
          RemoveManagedFiles(location);
        }
      }
      return QueryResult();
    }
    case ast::StatementKind::kAttach: {
      const auto& attach = static_cast<const ast::DatabaseStatement&>(statement);
      WithPosition(sql, statement.location, [&] {
        if (attach.or_replace) catalog.Detach(attach.name, /*if_exists=*/true);
        return catalog.Attach(attach.name, attach.path, attach.read_only, attach.if_exists);
      });
      return QueryResult();
    }
    case ast::StatementKind::kDetach: {
      const auto& detach = static_cast<const ast::DatabaseStatement&>(statement);
      WithPosition(sql, statement.location,
                   [&] { return catalog.Detach(detach.name, detach.if_exists), 0; });
      return QueryResult();
    }
    case ast::StatementKind::kCheckpoint: {
      // Nothing to write: every catalog change is its own SQLite transaction, committed (and
      // durable) when its statement ends, and table data is written to Parquet by the statement
      // that changes it. The database must exist, as DuckDB's.
      const auto& checkpoint = static_cast<const ast::DatabaseStatement&>(statement);
      if (!checkpoint.name.empty() && !catalog.DatabaseExists(checkpoint.name)) {
        throw BinderError("database '{}' does not exist (SHOW DATABASES lists them)",
                          checkpoint.name);
      }
      return QueryResult();
    }
    case ast::StatementKind::kShowDatabases: {
      // By name, as DuckDB's.
      auto databases = catalog.ListDatabases();
      std::sort(databases.begin(), databases.end(),
                [](const auto& a, const auto& b) { return a.name < b.name; });
      std::vector<std::vector<Value>> rows;
      for (const auto& database : databases)
        rows.push_back({Value::Varchar(database.name)});
      return RowsResult({"database_name"}, {LogicalType::Varchar()}, rows);
    }
    case ast::StatementKind::kShowIndexes: {
      const auto& show = static_cast<const ast::ShowIndexesStatement&>(statement);
      std::vector<std::vector<Value>> rows;
      for (const auto& index : catalog.ListIndexes(show.table)) {
        const auto table = catalog.FindTable(index.table);
        std::vector<std::string> columns;
        for (int c : index.columns)
          columns.push_back(table->columns[static_cast<size_t>(c)].name);
        rows.push_back({Value::Varchar(index.name), Value::Varchar(index.table),
                        Value::Boolean(index.unique),
                        Value::Varchar(fmt::format("{}", fmt::join(columns, ", ")))});
      }
      return RowsResult({"name", "table", "unique", "columns"},
                        {LogicalType::Varchar(), LogicalType::Varchar(), LogicalType::Boolean(),
                         LogicalType::Varchar()},
                        rows);
    }
    case ast::StatementKind::kTableCommand: {
      const auto& command = static_cast<const ast::TableCommandStatement&>(statement);
      if (command.command == ast::TableCommandStatement::Command::kVersion) {
        return RowsResult(
            {"library_version", "source_id"}, {LogicalType::Varchar(), LogicalType::Varchar()},
            {{Value::Varchar(std::string("v") + kShearsVersion), Value::Varchar("shears")}});
      }
      // SUMMARIZE runs a query over its table or query: Connection answers it before here.
      if (command.command == ast::TableCommandStatement::Command::kSummarize)
        throw InternalError("SUMMARIZE is not a catalog statement");
      const TableDefinition table = RequireTable(catalog, sql, command);
      switch (command.command) {
        case ast::TableCommandStatement::Command::kDescribe:
          return Describe(table);
        case ast::TableCommandStatement::Command::kTableInfo:
          return TableInfo(table);
        case ast::TableCommandStatement::Command::kVersion:
        case ast::TableCommandStatement::Command::kSummarize:
          break;  // answered above
        case ast::TableCommandStatement::Command::kShowPartitions:
          return WithPosition(sql, command.name_location, [&] { return ShowPartitions(table); });
        case ast::TableCommandStatement::Command::kRecoverPartitions:
          return RecoverPartitions(catalog, table);
        case ast::TableCommandStatement::Command::kAnalyze:
          return Analyze(catalog, table);
        case ast::TableCommandStatement::Command::kShowStats:
          return WithPosition(sql, command.name_location,
                              [&] { return ShowStats(catalog, table, command.stats_level); });
      }
      break;
    }
    default:
      break;
  }
  throw InternalError("not a catalog statement");
}

}  // namespace shears

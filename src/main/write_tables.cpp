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
#include "parser/parser.h"
#include "planner/binder.h"
#include "storage/csv/csv_options.h"

namespace shears::write_internal {

namespace fs = std::filesystem;

namespace {

// ---------------------------------------------------------------- managed tables

/// The catalog entries of written files; paths relative to the table's location.
std::vector<CatalogPartition> CatalogPartitionsOf(const std::vector<WrittenPartFile>& files,
                                                  const std::vector<std::string>& data_names) {
  std::map<std::string, CatalogPartition> partitions;
  for (const auto& f : files) {
    CatalogPartition& partition = partitions[f.partition];
    partition.path = f.partition;
    CatalogFile file;
    file.path = f.partition.empty() ? f.file_name : f.partition + "/" + f.file_name;
    file.size = f.file.size;
    file.num_rows = f.file.rows;
    StatisticsEntry stats{"file", file.path, f.file.rows, static_cast<int64_t>(f.file.size), {}};
    for (size_t c = 0; c < data_names.size(); c++) {
      file.column_map.push_back(static_cast<int>(c));
      const auto& column = f.file.columns[c];
      ColumnStatistics cs;
      cs.column = data_names[c];
      cs.null_count = column.null_count;
      if (column.min) cs.min = column.min->ToString();
      if (column.max) cs.max = column.max->ToString();
      stats.columns.push_back(std::move(cs));
    }
    file.statistics = std::move(stats);
    partition.files.push_back(std::move(file));
  }
  std::vector<CatalogPartition> out;
  for (auto& [path, partition] : partitions)
    out.push_back(std::move(partition));
  return out;
}

}  // namespace

/// Writes `bound` (columns in table order) into a staged write for table `table` and commits
/// with `commit` (which records the files in the catalog). `replaced` (paths relative to the
/// location): files the write replaces (UPDATE, DELETE), deleted once the commit is done.
std::vector<WrittenPartFile> WriteManaged(Database& database, const Settings& settings,
                                          BoundQuery bound, const TableDefinition& table,
                                          const std::string& statement, const CommitFn& commit,
                                          const std::vector<std::string>* replaced) {
  Catalog& catalog = database.catalog();
  StagedWrite staged(catalog.DataDirectory());
  const bool replacing = replaced != nullptr;
  ParquetWriteSpec spec;
  spec.statement = statement;
  spec.directory = staged.directory();
  spec.file_prefix = "part-" + staged.id() + "-";
  std::vector<std::string> data_names;
  for (size_t i = 0; i < table.columns.size(); i++) {
    spec.names.push_back(table.columns[i].name);
    if (table.columns[i].is_partition) {
      spec.partition_columns.push_back(i);
    } else {
      data_names.push_back(table.columns[i].name);
    }
  }
  auto files = ExecuteWrite(std::move(bound), settings, std::move(spec));
  if (!files.empty()) {
    CheckChecks(database, settings, table, staged.directory());
    CheckKeys(database, settings, table, staged.directory(), replacing);
  }
  if (!table.foreign_keys.empty() || replacing) {
    CheckForeignKeys(database, settings, table, files.empty() ? "" : staged.directory(), replacing);
  }
  std::vector<CatalogPartition> partitions = CatalogPartitionsOf(files, data_names);
  std::vector<std::string> relative;
  for (const auto& f : files)
    relative.push_back(f.partition.empty() ? f.file_name : f.partition + "/" + f.file_name);
  staged.Publish(table.name, table.location, relative);
  // In a transaction the replaced files stay until COMMIT (a ROLLBACK lists them again).
  const bool in_transaction = catalog.in_transaction();
  if (replacing && !in_transaction) staged.Retire(table.name, table.location, *replaced);
  commit(std::move(partitions));  // the commit point
  staged.Finish();
  if (in_transaction) {
    catalog.RecordTransactionWrite(table.name, table.location, relative,
                                   replacing ? *replaced : std::vector<std::string>{});
  }
  return files;
}

namespace {

/// CREATE TABLE under `table_name` (the statement's, or the stand-in of CREATE OR REPLACE).
QueryResult CreateTableNamed(Database& database, const Settings& settings, const std::string& sql,
                             const ast::CreateTableStatement& create,
                             const std::string& table_name) {
  Catalog& catalog = database.catalog();
  if (catalog.FindTable(table_name) || catalog.FindView(table_name)) {
    if (create.if_not_exists) return QueryResult();
    throw BinderError("'{}' already exists\n{}", create.name,
                      FormatErrorPosition(sql, create.name_location));
  }
  TableDefinition table;
  table.name = table_name;
  table.managed = true;
  table.columns_declared = true;
  // An attached database's table lives in that database's directory.
  Catalog& owner = catalog.CatalogOf(table_name);
  table.location = ManagedTableLocation(owner.DataDirectory(), table_name);
  {
    // A table renamed by ALTER TABLE keeps its directory: a new table of its old name gets
    // another one (DROP TABLE deletes a table's whole directory).
    std::set<std::string> taken;
    for (const auto& location : owner.ManagedLocations())
      taken.insert(std::filesystem::path(location).lexically_normal().string());
    for (const auto& location : catalog.PendingRemovals())  // dropped in an open transaction
      taken.insert(std::filesystem::path(location).lexically_normal().string());
    const std::string base = table.location;
    for (int n = 2; taken.count(std::filesystem::path(table.location).lexically_normal().string());
         n++) {
      table.location = base + "-" + std::to_string(n);
    }
  }
  std::vector<CatalogColumn> columns;  // in the order given
  std::optional<BoundWrite> bound;
  if (create.query) {
    bound = BindWrite(catalog, settings, sql, *create.query);
    for (size_t i = 0; i < bound->query.names.size(); i++)
      columns.push_back({bound->query.names[i], bound->query.types[i]});
  } else {
    for (const auto& column : create.columns) {
      if (!column.generated_sql) columns.push_back({column.name, ResolveTypeName(*column.type)});
    }
  }
  // Spark's PARTITIONED BY (p) names a column; Hive's (p type) adds one (column lists only).
  std::vector<CatalogColumn> partition_columns;
  for (const auto& p : create.partition_columns) {
    std::vector<std::string> names;
    for (const auto& c : columns)
      names.push_back(c.name);
    const int index = FindName(names, p.name);
    if (index >= 0) {
      if (p.type) {
        throw BinderError(
            "partition column '{}' is in the column list; give its type there only\n{}", p.name,
            FormatErrorPosition(sql, p.location));
      }
      partition_columns.push_back(columns[index]);
      columns.erase(columns.begin() + index);
    } else if (p.type && !create.query) {
      partition_columns.push_back({p.name, ResolveTypeName(*p.type)});
    } else {
      throw BinderError("PARTITIONED BY column '{}' is not a column of the table ({})\n{}", p.name,
                        fmt::format("{}", fmt::join(names, ", ")),
                        FormatErrorPosition(sql, p.location));
    }
    partition_columns.back().is_partition = true;
    if (partition_columns.back().type.id() == TypeId::kBlob) {
      throw NotSupportedError("cannot partition by the BLOB column '{}'", p.name);
    }
  }
  if (columns.empty()) {
    throw BinderError("table '{}' needs at least one column that is not a partition column",
                      create.name);
  }
  std::set<std::string> seen;
  for (auto& c : columns)
    table.columns.push_back(c);
  for (auto& c : partition_columns)
    table.columns.push_back(c);
  // Generated columns keep their place in the list (partition columns moved last excepted).
  for (size_t i = 0, position = 0; i < create.columns.size(); i++) {
    const auto& column = create.columns[i];
    if (!column.generated_sql) {
      const bool moved = std::any_of(
          create.partition_columns.begin(), create.partition_columns.end(),
          [&](const auto& p) { return EqualsAsciiLower(p.name, AsciiLower(column.name)); });
      position += moved ? 0 : 1;
      continue;
    }
    if (column.default_sql) {
      throw BinderError("generated column '{}' cannot have a DEFAULT\n{}", column.name,
                        FormatErrorPosition(sql, column.default_location));
    }
    if (column.not_null) {
      throw NotSupportedError(
          "constraints on the generated column '{}' are not supported (NOT NULL, PRIMARY KEY)\n{}",
          column.name, FormatErrorPosition(sql, column.location));
    }
    table.generated.push_back({column.name,
                               column.type ? ResolveTypeName(*column.type) : LogicalType(),
                               *column.generated_sql, position++});
  }
  for (const auto& g : table.generated) {
    if (!seen.insert(AsciiLower(g.name)).second) {
      throw BinderError("table '{}' would have two columns named '{}'; give them distinct names",
                        create.name, g.name);
    }
  }
  for (const auto& c : table.columns) {
    if (c.name.empty() || !seen.insert(AsciiLower(c.name)).second) {
      throw BinderError("table '{}' would have two columns named '{}'; give them distinct names",
                        create.name, c.name);
    }
  }
  std::vector<std::string> table_names;
  for (const auto& c : table.columns)
    table_names.push_back(c.name);
  for (const auto& column : create.columns) {
    if (column.generated_sql) continue;
    CatalogColumn& c = table.columns[static_cast<size_t>(FindName(table_names, column.name))];
    if (column.not_null) c.not_null = true;
    c.default_sql = column.default_sql;
  }
  bool has_primary = false;
  for (const auto& key : create.keys) {
    TableKey resolved;
    resolved.primary = key.primary;
    for (const auto& name : key.columns) {
      const int index = FindName(table_names, name);
      if (index < 0) {
        throw BinderError("key column '{}' is not a column of table '{}'\n{}", name, create.name,
                          FormatErrorPosition(sql, key.location));
      }
      if (std::find(resolved.columns.begin(), resolved.columns.end(), index) !=
          resolved.columns.end()) {
        throw BinderError("column '{}' appears twice in a key\n{}", name,
                          FormatErrorPosition(sql, key.location));
      }
      resolved.columns.push_back(index);
      // PRIMARY KEY implies NOT NULL (SQL).
      if (key.primary) table.columns[static_cast<size_t>(index)].not_null = true;
    }
    if (key.primary && std::exchange(has_primary, true)) {
      throw BinderError("table '{}' has more than one PRIMARY KEY\n{}", create.name,
                        FormatErrorPosition(sql, key.location));
    }
    table.keys.push_back(std::move(resolved));
  }
  table.checks = create.checks;
  ResolveForeignKeys(catalog, sql, create, table);
  if (!bound) {
    ResolveGeneratedColumns(database, settings, table);
    ValidateChecks(database, table);
    ValidateDefaults(database, settings, table);
    catalog.CreateTable(table);
    if (create.temporary) database.AddTemporaryTable(table.name);
    return WriteSummary(settings, {});
  }
  // The query's columns in the table's order (partition columns last).
  std::vector<BoundExprPtr> exprs;
  std::vector<std::string> names;
  for (const auto& c : table.columns) {
    exprs.push_back(QueryColumn(*bound, FindName(bound->query.names, c.name)));
    names.push_back(c.name);
  }
  Project(*bound, std::move(exprs), std::move(names));
  BoundQuery reordered = std::move(bound->query);
  auto files = WriteManaged(database, settings, std::move(reordered), table, "CREATE TABLE",
                            [&](std::vector<CatalogPartition> partitions) {
                              table.partitions = std::move(partitions);
                              catalog.CreateTable(table);
                            });
  if (create.temporary) database.AddTemporaryTable(table.name);
  return WriteSummary(settings, files);
}

}  // namespace

QueryResult RunCreateTable(Database& database, const Settings& settings, const std::string& sql,
                           const ast::CreateTableStatement& create) {
  Catalog& catalog = database.catalog();
  if (!create.or_replace || !catalog.FindTable(create.name)) {
    return CreateTableNamed(database, settings, sql, create, create.name);
  }
  // CREATE OR REPLACE TABLE of an existing table: the new one is written under a stand-in name
  // first, so its query may read the old table and a failure leaves the old table as it was;
  // then the old one is dropped and the new one takes its name.
  std::string stand_in;
  for (int n = 1; stand_in.empty() || catalog.FindTable(stand_in) || catalog.FindView(stand_in);
       n++) {
    stand_in = fmt::format("__replace_{}_{}", create.name, n);
  }
  QueryResult result = CreateTableNamed(database, settings, sql, create, stand_in);
  if (auto location = catalog.DropTable(create.name, /*if_exists=*/false)) {
    if (catalog.in_transaction()) {
      catalog.DeferRemoval(*location);
    } else {
      RemoveManagedFiles(*location);
    }
  }
  database.ForgetTemporaryTable(create.name);
  catalog.RenameTable(stand_in, create.name);
  database.RenameTemporaryTable(stand_in, create.name);
  return result;
}

QueryResult RunInsert(Database& database, const Settings& settings, const std::string& sql,
                      const ast::InsertStatement& insert) {
  Catalog& catalog = database.catalog();
  auto table = catalog.FindTable(insert.name);
  if (!table) {
    throw BinderError("{}\n{}",
                      catalog.FindView(insert.name)
                          ? fmt::format("cannot INSERT INTO the view '{}'", insert.name)
                          : fmt::format("table '{}' does not exist", insert.name),
                      FormatErrorPosition(sql, insert.name_location));
  }
  if (!table->managed) {
    throw NotSupportedError(
        "INSERT INTO the external table '{}' is not supported (shears writes only tables it "
        "created; write files with COPY and run ALTER TABLE {} RECOVER PARTITIONS)\n{}",
        insert.name, insert.name, FormatErrorPosition(sql, insert.name_location));
  }
  RejectGeneratedInsert(*table, insert.columns);
  if (insert.by_name) {
    // BY NAME: the query's column names are the column list (on a copy of the statement).
    auto copy = Reparse(sql, insert);
    auto& listed = static_cast<ast::InsertStatement&>(*copy);
    listed.by_name = false;
    listed.columns = BindWrite(catalog, settings, sql, *listed.query).query.names;
    return RunInsert(database, settings, sql, listed);
  }
  // The table's defaults filled in, on a copy of the statement.
  if (InsertNeedsDefaults(*table, insert)) {
    auto copy = Reparse(sql, insert);
    auto& with_defaults = static_cast<ast::InsertStatement&>(*copy);
    ApplyInsertDefaults(catalog, settings, sql, *table, with_defaults);
    return RunInsert(database, settings, sql, with_defaults);
  }
  std::vector<LogicalType> types;
  std::vector<std::string> names;
  for (const auto& c : table->columns) {
    types.push_back(c.type);
    names.push_back(c.name);
  }
  if (insert.on_conflict == ast::InsertStatement::OnConflict::kUpdate) {
    if (!insert.returning.empty()) {
      throw NotSupportedError(
          "INSERT ... ON CONFLICT DO UPDATE ... RETURNING (and INSERT OR REPLACE ... RETURNING) "
          "is not supported yet\n{}",
          FormatErrorPosition(sql, insert.name_location));
    }
    return RunInsertDoUpdate(database, settings, sql, *table, insert);
  }
  // DO NOTHING: the rows whose keys are new, one per key value.
  ast::QueryNodePtr new_rows;
  if (insert.on_conflict == ast::InsertStatement::OnConflict::kNothing)
    new_rows = DoNothingQuery(catalog, settings, sql, *table, insert);
  // The types of the columns the query fills, in its order (an INSERT's VALUES takes them).
  std::vector<LogicalType> written_types = types;
  if (!insert.columns.empty()) {
    written_types.clear();
    for (const auto& column : insert.columns) {
      const int index = FindName(names, column);
      written_types.push_back(index >= 0 ? types[index] : LogicalType());
    }
  }
  BoundWrite bound =
      BindWrite(catalog, settings, sql, new_rows ? *new_rows : *insert.query, &written_types);
  if (insert.columns.empty()) {
    CastForWrite(bound, types, names);
  } else {
    // The listed columns from the query, the others NULL.
    std::vector<LogicalType> listed_types;
    std::vector<int> position(names.size(), -1);
    for (size_t i = 0; i < insert.columns.size(); i++) {
      const int index = FindName(names, insert.columns[i]);
      if (index < 0) {
        throw BinderError("table '{}' has no column '{}'", insert.name, insert.columns[i]);
      }
      if (position[index] >= 0) throw BinderError("column '{}' is listed twice", insert.columns[i]);
      position[index] = static_cast<int>(i);
      listed_types.push_back(types[index]);
    }
    CastForWrite(bound, listed_types, insert.columns);
    std::vector<BoundExprPtr> exprs;
    for (size_t c = 0; c < names.size(); c++) {
      if (position[c] < 0 && table->columns[c].not_null) {
        throw ConstraintError(
            "column '{}' of table '{}' is NOT NULL but the INSERT gives it no value; nothing was "
            "written",
            names[c], insert.name);
      }
      exprs.push_back(position[c] >= 0 ? QueryColumn(bound, static_cast<size_t>(position[c]))
                                       : std::make_unique<BoundConstant>(Value::Null(types[c])));
    }
    Project(bound, std::move(exprs), names);
  }
  ProjectNotNullChecks(bound, *table);
  if (!insert.returning.empty())
    return InsertReturning(database, settings, sql, *table, insert, std::move(bound));
  auto files = WriteManaged(database, settings, std::move(bound.query), *table, "INSERT",
                            [&](std::vector<CatalogPartition> partitions) {
                              catalog.AppendFiles(table->name, partitions);
                            });
  return WriteSummary(settings, files);
}

// ---------------------------------------------------------------- indexes

/// The managed or external table a statement names: BinderError naming the position when it
/// is a view or missing.
TableDefinition RequireTable(const Catalog& catalog, const std::string& sql,
                             const std::string& name, int location, const char* action) {
  auto table = catalog.FindTable(name);
  if (table) return std::move(*table);
  throw BinderError("{}\n{}",
                    catalog.FindView(name) ? fmt::format("cannot {} the view '{}'", action, name)
                                           : fmt::format("table '{}' does not exist", name),
                    FormatErrorPosition(sql, location));
}

QueryResult RunCreateIndex(Database& database, const Settings& settings, const std::string& sql,
                           const ast::CreateIndexStatement& create) {
  Catalog& catalog = database.catalog();
  const TableDefinition table =
      RequireTable(catalog, sql, create.table, create.table_location, "create an index on");
  IndexDefinition index{create.name, table.name, create.unique, {}};
  std::vector<std::string> names;
  for (const auto& c : table.columns)
    names.push_back(c.name);
  for (const auto& column : create.columns) {
    const int position = FindName(names, column);
    if (position < 0) {
      throw BinderError("index column '{}' is not a column of table '{}' ({})", column, table.name,
                        fmt::format("{}", fmt::join(names, ", ")));
    }
    if (std::find(index.columns.begin(), index.columns.end(), position) != index.columns.end())
      throw BinderError("column '{}' appears twice in index '{}'", column, create.name);
    index.columns.push_back(position);
  }
  if (create.if_not_exists) {
    for (const auto& existing : catalog.ListIndexes(""))
      if (AsciiLower(existing.name) == AsciiLower(create.name)) return QueryResult();
  }
  if (create.unique) {
    if (!table.managed) {
      // Files that RECOVER PARTITIONS finds later could break it unnoticed.
      throw NotSupportedError(
          "CREATE UNIQUE INDEX on the external table '{}' is not supported (shears checks "
          "uniqueness only on tables it writes)\n{}",
          table.name, FormatErrorPosition(sql, create.table_location));
    }
    if (auto values = FindDuplicateKey(database, settings, table, index.columns,
                                       QuoteIdentifier(table.name))) {
      ThrowDuplicate(table, index.columns, *values, "UNIQUE index '" + create.name + "'",
                     "the index was not created");
    }
  }
  catalog.CreateIndex(index, create.if_not_exists);
  return QueryResult();
}

}  // namespace shears::write_internal

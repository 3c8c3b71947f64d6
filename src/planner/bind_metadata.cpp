// The catalog as queries (metadata_query.h): information_schema's views and DuckDB's metadata
// table functions. Both read the catalog through the walks below (Relations, ColumnsOf), so a
// table's columns, types, defaults and nullability are the same wherever they are shown.
// Object ids (DuckDB's *_oid columns) are NULL: shears' catalog has no such numbers; so is
// `temporary`: TEMP tables live in the catalog beside the others and the connection, not the
// catalog, knows which they are.

#include <algorithm>
#include <filesystem>
#include <string>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/error.h"
#include "common/settings.h"
#include "common/string_util.h"
#include "planner/metadata_query.h"
#include "storage/dataset.h"

namespace shears {

namespace {

// A SQL string literal.
std::string Quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    out += c;
    if (c == '\'') out += c;
  }
  out += '\'';
  return out;
}

std::string QuotedOrNull(const std::optional<std::string>& text) {
  return text ? Quoted(*text) : std::string("NULL");
}

const char* Bool(bool value) {
  return value ? "true" : "false";
}

// A query over VALUES with `columns` (name and SQL type), one row of literal SQL per `rows`
// entry; no rows when empty (VALUES needs one).
std::string ValuesQuery(const std::vector<std::pair<std::string, std::string>>& columns,
                        const std::vector<std::string>& rows) {
  std::string select, names;
  for (size_t c = 0; c < columns.size(); c++) {
    const auto& [name, type] = columns[c];
    select += fmt::format("{}CAST(column{} AS {}) AS {}", c ? ", " : "", c, type, name);
    names += fmt::format("{}column{}", c ? ", " : "", c);
  }
  if (rows.empty()) {
    std::string nulls;
    for (size_t c = 0; c < columns.size(); c++)
      nulls += fmt::format("{}NULL AS column{}", c ? ", " : "", c);
    return fmt::format("SELECT {} FROM (SELECT {}) AS v WHERE false", select, nulls);
  }
  return fmt::format("SELECT {} FROM (VALUES {}) AS v({})", select, fmt::join(rows, ", "), names);
}

// One column of a table or view as queries see it.
struct RelationColumn {
  std::string name;
  LogicalType type;
  const CatalogColumn* declared = nullptr;     // a table's stored column (null for views)
  const GeneratedColumn* generated = nullptr;  // a table's generated column
};

// A table or view of one database, with its columns when asked for.
struct Relation {
  std::string database;
  Catalog::Entry entry;
  std::optional<TableDefinition> table;  // set for tables
  std::optional<ViewDefinition> view;    // set for views
  std::vector<RelationColumn> columns;
};

// The tables and views of `database` (named as the top catalog reaches it): `top` finds them
// by their full name, so neither the current schema nor USE redirects the lookup.
std::vector<Relation> Relations(const Catalog& top, const std::string& database,
                                const ViewColumns& view_columns, bool with_columns) {
  const Catalog* catalog = top.DatabaseCatalog(database);
  std::vector<Relation> relations;
  if (catalog == nullptr) return relations;
  for (const auto& entry : catalog->List()) {
    Relation relation{database, entry, std::nullopt, std::nullopt, {}};
    const std::string full = database + "." + entry.schema + "." + entry.table_name;
    if (entry.kind == "view") {
      relation.view = top.FindView(full);
      if (!relation.view) continue;
      if (with_columns) {
        auto [names, types] = view_columns(*relation.view);
        for (size_t i = 0; i < relation.view->column_aliases.size() && i < names.size(); i++)
          names[i] = relation.view->column_aliases[i];
        for (size_t i = 0; i < names.size(); i++)
          relation.columns.push_back({names[i], types[i], nullptr});
      }
    } else {
      relation.table = top.FindTable(full);
      if (!relation.table) continue;
      if (with_columns) {
        // The columns a scan of the table sees, partition columns included.
        for (const auto& column : top.TableDataset(full)->columns()) {
          RelationColumn out{column.name, column.type, nullptr};
          for (const auto& declared : relation.table->columns)
            if (declared.name == column.name) out.declared = &declared;
          relation.columns.push_back(std::move(out));
        }
        // Generated columns at their places (the dataset holds the stored ones).
        for (const auto& g : relation.table->generated) {
          const auto at =
              static_cast<std::ptrdiff_t>(std::min(g.position, relation.columns.size()));
          relation.columns.insert(relation.columns.begin() + at,
                                  RelationColumn{g.name, g.type, nullptr, &g});
        }
      }
    }
    relations.push_back(std::move(relation));
  }
  return relations;
}

std::string TypeText(const LogicalType& type) {
  return type.valid() ? type.ToString() : std::string("UNKNOWN");
}

// DuckDB's numeric_precision, _radix and _scale of a type ("NULL, NULL, NULL" for non-numbers).
std::string NumericPrecision(const LogicalType& type) {
  switch (type.id()) {
    case TypeId::kInteger:
      return "32, 2, 0";
    case TypeId::kBigint:
      return "64, 2, 0";
    case TypeId::kFloat:
      return "24, 2, 0";
    case TypeId::kDouble:
      return "53, 2, 0";
    case TypeId::kDecimal:
      return fmt::format("{}, 10, {}", type.precision(), type.scale());
    default:
      return "NULL, NULL, NULL";
  }
}

// The databases the duckdb_*() functions list: this one, then the attached ones, by name.
std::vector<std::string> DatabaseNames(const Catalog& catalog) {
  std::vector<std::string> names;
  for (const auto& database : catalog.ListDatabases())
    names.push_back(database.name);
  std::sort(names.begin() + 1, names.end());
  return names;
}

// The catalogs of DatabaseNames, with their names.
std::vector<std::pair<std::string, const Catalog*>> DatabaseCatalogs(const Catalog& catalog) {
  std::vector<std::pair<std::string, const Catalog*>> out;
  for (const auto& name : DatabaseNames(catalog))
    if (const Catalog* db = catalog.DatabaseCatalog(name)) out.emplace_back(name, db);
  return out;
}

// The "database, NULL, schema, NULL, name, NULL, " prefix of DuckDB's object rows.
std::string ObjectPrefix(const std::string& database, const std::string& schema,
                         const std::string& name) {
  return fmt::format("{}, NULL, {}, NULL, {}, NULL, ", Quoted(database), Quoted(schema),
                     Quoted(name));
}

using Columns = std::vector<std::pair<std::string, std::string>>;
const Columns kObjectColumns = {{"database_name", "VARCHAR"},
                                {"database_oid", "BIGINT"},
                                {"schema_name", "VARCHAR"},
                                {"schema_oid", "BIGINT"}};

Columns ObjectColumns(const std::string& kind) {
  Columns columns = kObjectColumns;
  columns.insert(columns.end(), {{kind + "_name", "VARCHAR"}, {kind + "_oid", "BIGINT"}});
  return columns;
}

Columns operator+(Columns a, const Columns& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

std::string DuckDbTables(const Catalog& catalog, const ViewColumns& view_columns) {
  std::vector<std::string> rows;
  for (const auto& database : DatabaseNames(catalog)) {
    for (const auto& relation : Relations(catalog, database, view_columns, false)) {
      if (!relation.table) continue;
      const auto& table = *relation.table;
      bool has_primary_key = false;
      for (const auto& key : table.keys)
        has_primary_key = has_primary_key || key.primary;
      // A PRIMARY KEY or UNIQUE constraint counts as an index, as in DuckDB (it makes one).
      // The rows the catalog's files hold (NULL when a file's count is not known).
      std::optional<int64_t> estimated_size = 0;
      for (const auto& partition : table.partitions)
        for (const auto& file : partition.files)
          estimated_size = file.num_rows < 0 || !estimated_size
                               ? std::nullopt
                               : std::optional<int64_t>(*estimated_size + file.num_rows);
      rows.push_back(fmt::format(
          "({}NULL, false, NULL, {}, {}, {}, {}, {}, NULL)",
          ObjectPrefix(database, relation.entry.schema, relation.entry.table_name),
          Bool(has_primary_key), estimated_size ? std::to_string(*estimated_size) : "NULL",
          table.columns.size(), table.indexes.size() + table.keys.size(), table.checks.size()));
    }
  }
  return ValuesQuery(ObjectColumns("table") + Columns{{"comment", "VARCHAR"},
                                                      {"internal", "BOOLEAN"},
                                                      {"temporary", "BOOLEAN"},
                                                      {"has_primary_key", "BOOLEAN"},
                                                      {"estimated_size", "BIGINT"},
                                                      {"column_count", "BIGINT"},
                                                      {"index_count", "BIGINT"},
                                                      {"check_constraint_count", "BIGINT"},
                                                      {"sql", "VARCHAR"}},
                     rows);
}

std::string DuckDbViews(const Catalog& catalog, const ViewColumns& view_columns) {
  std::vector<std::string> rows;
  for (const auto& database : DatabaseNames(catalog)) {
    for (const auto& relation : Relations(catalog, database, view_columns, true)) {
      if (!relation.view) continue;
      const std::string name = relation.entry.schema == "main"
                                   ? relation.entry.table_name
                                   : relation.entry.schema + "." + relation.entry.table_name;
      rows.push_back(
          fmt::format("({}NULL, false, NULL, {}, {})",
                      ObjectPrefix(database, relation.entry.schema, relation.entry.table_name),
                      relation.columns.size(),
                      Quoted(fmt::format("CREATE VIEW {} AS {};", name, relation.view->sql))));
    }
  }
  return ValuesQuery(ObjectColumns("view") + Columns{{"comment", "VARCHAR"},
                                                     {"internal", "BOOLEAN"},
                                                     {"temporary", "BOOLEAN"},
                                                     {"column_count", "BIGINT"},
                                                     {"sql", "VARCHAR"}},
                     rows);
}

std::string DuckDbColumns(const Catalog& catalog, const ViewColumns& view_columns) {
  std::vector<std::string> rows;
  for (const auto& database : DatabaseNames(catalog)) {
    for (const auto& relation : Relations(catalog, database, view_columns, true)) {
      for (size_t i = 0; i < relation.columns.size(); i++) {
        const auto& column = relation.columns[i];
        const bool not_null = column.declared != nullptr && column.declared->not_null;
        rows.push_back(fmt::format(
            "({}{}, {}, NULL, false, {}, {}, {}, NULL, NULL, {})",
            ObjectPrefix(database, relation.entry.schema, relation.entry.table_name),
            Quoted(column.name), i + 1,
            QuotedOrNull(column.declared ? column.declared->default_sql : std::nullopt),
            Bool(!not_null), Quoted(TypeText(column.type)), NumericPrecision(column.type)));
      }
    }
  }
  return ValuesQuery(ObjectColumns("table") + Columns{{"column_name", "VARCHAR"},
                                                      {"column_index", "INTEGER"},
                                                      {"comment", "VARCHAR"},
                                                      {"internal", "BOOLEAN"},
                                                      {"column_default", "VARCHAR"},
                                                      {"is_nullable", "BOOLEAN"},
                                                      {"data_type", "VARCHAR"},
                                                      {"data_type_id", "BIGINT"},
                                                      {"character_maximum_length", "INTEGER"},
                                                      {"numeric_precision", "INTEGER"},
                                                      {"numeric_precision_radix", "INTEGER"},
                                                      {"numeric_scale", "INTEGER"}},
                     rows);
}

std::string DuckDbSchemas(const Catalog& catalog) {
  std::vector<std::string> rows;
  for (const auto& [database, db] : DatabaseCatalogs(catalog)) {
    for (const auto& schema : db->ListSchemas()) {
      // main is DuckDB's built-in schema: internal, as there.
      rows.push_back(fmt::format("(NULL, {}, NULL, {}, NULL, {}, NULL)", Quoted(database),
                                 Quoted(schema), Bool(schema == "main")));
    }
  }
  return ValuesQuery({{"oid", "BIGINT"},
                      {"database_name", "VARCHAR"},
                      {"database_oid", "BIGINT"},
                      {"schema_name", "VARCHAR"},
                      {"comment", "VARCHAR"},
                      {"internal", "BOOLEAN"},
                      {"sql", "VARCHAR"}},
                     rows);
}

std::string DuckDbDatabases(const Catalog& catalog) {
  std::vector<std::string> rows;
  auto databases = catalog.ListDatabases();
  std::sort(databases.begin() + 1, databases.end(),
            [](const auto& a, const auto& b) { return a.name < b.name; });
  for (const auto& database : databases) {
    // The path is the database's directory (catalog.db's), NULL in memory.
    const std::optional<std::string> path =
        database.path.empty() ? std::nullopt
                              : std::optional<std::string>(
                                    std::filesystem::path(database.path).parent_path().string());
    rows.push_back(fmt::format("({}, NULL, {}, NULL, false, 'shears', {})", Quoted(database.name),
                               QuotedOrNull(path), Bool(database.read_only)));
  }
  return ValuesQuery({{"database_name", "VARCHAR"},
                      {"database_oid", "BIGINT"},
                      {"path", "VARCHAR"},
                      {"comment", "VARCHAR"},
                      {"internal", "BOOLEAN"},
                      {"type", "VARCHAR"},
                      {"readonly", "BOOLEAN"}},
                     rows);
}

std::string DuckDbSequences(const Catalog& catalog) {
  std::vector<std::string> rows;
  for (const auto& [database, db] : DatabaseCatalogs(catalog)) {
    for (const auto& sequence : db->ListSequences()) {
      const auto [schema, name] = Catalog::SplitKey(sequence.name);
      // DuckDB's text names the sequence without its schema.
      const std::string sql =
          fmt::format("CREATE SEQUENCE {} INCREMENT BY {} MINVALUE {} MAXVALUE {} START {} {};",
                      name, sequence.increment, sequence.min_value, sequence.max_value,
                      sequence.start, sequence.cycle ? "CYCLE" : "NO CYCLE");
      rows.push_back(fmt::format("({}NULL, NULL, {}, {}, {}, {}, {}, {})",
                                 ObjectPrefix(database, schema, name), sequence.start,
                                 sequence.min_value, sequence.max_value, sequence.increment,
                                 Bool(sequence.cycle), Quoted(sql)));
    }
  }
  return ValuesQuery(ObjectColumns("sequence") + Columns{{"comment", "VARCHAR"},
                                                         {"temporary", "BOOLEAN"},
                                                         {"start_value", "BIGINT"},
                                                         {"min_value", "BIGINT"},
                                                         {"max_value", "BIGINT"},
                                                         {"increment_by", "BIGINT"},
                                                         {"cycle", "BOOLEAN"},
                                                         {"sql", "VARCHAR"}},
                     rows);
}

std::string DuckDbIndexes(const Catalog& catalog) {
  std::vector<std::string> rows;
  for (const auto& [database, db] : DatabaseCatalogs(catalog)) {
    for (const auto& index : db->ListIndexes("")) {
      const auto [schema, table_name] = Catalog::SplitKey(index.table);
      const auto table = catalog.FindTable(database + "." + schema + "." + table_name);
      if (!table) continue;
      std::vector<std::string> columns;
      for (int c : index.columns)
        columns.push_back(table->columns[static_cast<size_t>(c)].name);
      const std::string sql =
          fmt::format("CREATE {}INDEX {} ON {}{}({});", index.unique ? "UNIQUE " : "", index.name,
                      schema == "main" ? "" : schema + ".", table_name, fmt::join(columns, ", "));
      rows.push_back(fmt::format(
          "({}, NULL, {}, NULL, {}, NULL, {}, NULL, NULL, {}, false, {}, {})", Quoted(database),
          Quoted(schema), Quoted(index.name), Quoted(table_name), Bool(index.unique),
          Quoted(fmt::format("[{}]", fmt::join(columns, ", "))), Quoted(sql)));
    }
  }
  return ValuesQuery(ObjectColumns("index") + Columns{{"table_name", "VARCHAR"},
                                                      {"table_oid", "BIGINT"},
                                                      {"comment", "VARCHAR"},
                                                      {"is_unique", "BOOLEAN"},
                                                      {"is_primary", "BOOLEAN"},
                                                      {"expressions", "VARCHAR"},
                                                      {"sql", "VARCHAR"}},
                     rows);
}

std::string DuckDbSettings(const Settings* settings) {
  std::vector<std::string> rows;
  for (const auto& info : Settings::All()) {
    const Value value = settings ? settings->Get(info.name) : info.default_value;
    rows.push_back(fmt::format("({}, {}, {}, {}, 'LOCAL')", Quoted(info.name),
                               value.is_null() ? "NULL" : Quoted(value.ToString()),
                               Quoted(info.description), Quoted(info.type.ToString())));
  }
  return ValuesQuery({{"name", "VARCHAR"},
                      {"value", "VARCHAR"},
                      {"description", "VARCHAR"},
                      {"input_type", "VARCHAR"},
                      {"scope", "VARCHAR"}},
                     rows);
}

// pragma_table_info('t'): DuckDB's PRAGMA table_info as a table function, for a table or view.
std::string PragmaTableInfo(const Catalog& catalog, const std::string& name,
                            const ViewColumns& view_columns) {
  std::vector<std::string> rows;
  auto add = [&](size_t i, const std::string& column, const LogicalType& type,
                 const CatalogColumn* declared, bool primary) {
    rows.push_back(
        fmt::format("({}, {}, {}, {}, {}, {})", i, Quoted(column), Quoted(TypeText(type)),
                    Bool(declared != nullptr && declared->not_null),
                    QuotedOrNull(declared ? declared->default_sql : std::nullopt), Bool(primary)));
  };
  if (const auto table = catalog.FindTable(name)) {
    for (size_t i = 0; i < table->columns.size(); i++) {
      bool primary = false;
      for (const auto& key : table->keys)
        for (int c : key.columns)
          primary = primary || (key.primary && static_cast<size_t>(c) == i);
      add(i, table->columns[i].name, table->columns[i].type, &table->columns[i], primary);
    }
  } else if (const auto view = catalog.FindView(name)) {
    auto [names, types] = view_columns(*view);
    for (size_t i = 0; i < names.size(); i++)
      add(i, i < view->column_aliases.size() ? view->column_aliases[i] : names[i], types[i],
          nullptr, false);
  } else {
    throw BinderError("pragma_table_info: table or view '{}' does not exist", name);
  }
  return ValuesQuery({{"cid", "INTEGER"},
                      {"name", "VARCHAR"},
                      {"type", "VARCHAR"},
                      {"notnull", "BOOLEAN"},
                      {"dflt_value", "VARCHAR"},
                      {"pk", "BOOLEAN"}},
                     rows);
}

}  // namespace

std::string InformationSchemaQuery(const Catalog& catalog, const std::string& view,
                                   const ViewColumns& view_columns) {
  // The database's name, as DuckDB's table_catalog: "memory" in memory, else the directory's.
  const std::string database =
      catalog.path().empty()
          ? "memory"
          : std::filesystem::path(catalog.path()).parent_path().filename().string();
  std::vector<std::string> rows;
  if (view == "schemata") {
    for (const auto& schema : catalog.ListSchemas()) {
      rows.push_back(fmt::format("({}, {}, 'duckdb', NULL, NULL, NULL, NULL)", Quoted(database),
                                 Quoted(schema)));
    }
    return ValuesQuery({{"catalog_name", "VARCHAR"},
                        {"schema_name", "VARCHAR"},
                        {"schema_owner", "VARCHAR"},
                        {"default_character_set_catalog", "VARCHAR"},
                        {"default_character_set_schema", "VARCHAR"},
                        {"default_character_set_name", "VARCHAR"},
                        {"sql_path", "VARCHAR"}},
                       rows);
  }
  const bool columns = view == "columns";
  for (const auto& relation :
       Relations(catalog, catalog.database_name(), view_columns, /*with_columns=*/columns)) {
    // The object's database, schema and name: "'db', 's', 't', ".
    const std::string prefix =
        fmt::format("{}, {}, {}, ", Quoted(database), Quoted(relation.entry.schema),
                    Quoted(relation.entry.table_name));
    if (!columns) {
      rows.push_back(fmt::format("({}{})", prefix, relation.view ? "'VIEW'" : "'BASE TABLE'"));
      continue;
    }
    for (size_t i = 0; i < relation.columns.size(); i++) {
      const auto& column = relation.columns[i];
      const bool not_null = column.declared != nullptr && column.declared->not_null;
      rows.push_back(
          fmt::format("({}{}, {}, {}, {}, {}, {}, {})", prefix, Quoted(column.name), i + 1,
                      QuotedOrNull(column.declared ? column.declared->default_sql : std::nullopt),
                      not_null ? "'NO'" : "'YES'", Quoted(TypeText(column.type)),
                      column.generated ? "'ALWAYS'" : "'NEVER'",
                      column.generated ? Quoted(column.generated->sql) : "NULL"));
    }
  }
  if (!columns) {
    return ValuesQuery({{"table_catalog", "VARCHAR"},
                        {"table_schema", "VARCHAR"},
                        {"table_name", "VARCHAR"},
                        {"table_type", "VARCHAR"}},
                       rows);
  }
  return ValuesQuery({{"table_catalog", "VARCHAR"},
                      {"table_schema", "VARCHAR"},
                      {"table_name", "VARCHAR"},
                      {"column_name", "VARCHAR"},
                      {"ordinal_position", "INTEGER"},
                      {"column_default", "VARCHAR"},
                      {"is_nullable", "VARCHAR"},
                      {"data_type", "VARCHAR"},
                      {"is_generated", "VARCHAR"},
                      {"generation_expression", "VARCHAR"}},
                     rows);
}

std::optional<std::string> MetadataFunctionQuery(const Catalog& catalog, const Settings* settings,
                                                 const std::string& function,
                                                 const std::vector<std::string>& args,
                                                 const ViewColumns& view_columns) {
  if (function == "test_all_types") {
    if (!args.empty()) throw BinderError("test_all_types() takes no arguments");
    return TestAllTypesQuery();
  }
  if (function == "pragma_table_info") {
    if (args.size() != 1) throw BinderError("pragma_table_info takes one table or view name");
    return PragmaTableInfo(catalog, args[0], view_columns);
  }
  using Builder = std::function<std::string()>;
  const std::vector<std::pair<const char*, Builder>> builders = {
      {"duckdb_tables", [&] { return DuckDbTables(catalog, view_columns); }},
      {"duckdb_views", [&] { return DuckDbViews(catalog, view_columns); }},
      {"duckdb_columns", [&] { return DuckDbColumns(catalog, view_columns); }},
      {"duckdb_schemas", [&] { return DuckDbSchemas(catalog); }},
      {"duckdb_databases", [&] { return DuckDbDatabases(catalog); }},
      {"duckdb_sequences", [&] { return DuckDbSequences(catalog); }},
      {"duckdb_indexes", [&] { return DuckDbIndexes(catalog); }},
      {"duckdb_settings", [&] { return DuckDbSettings(settings); }},
  };
  for (const auto& [name, build] : builders) {
    if (function != name) continue;
    if (!args.empty()) throw BinderError("{}() takes no arguments", function);
    return build();
  }
  return std::nullopt;
}

}  // namespace shears

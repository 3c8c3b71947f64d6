#include "catalog/catalog.h"

#include <sqlite3.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "catalog/catalog_internal.h"
#include "catalog/external_table.h"
#include "catalog/sqlite_util.h"
#include "catalog/staged_write.h"
#include "common/error.h"
#include "common/string_util.h"
#include "parser/type_text.h"

namespace shears {

namespace {

// Version 1: views, tables, columns, partitions, files, statistics.
// Version 2: tables.managed (tables whose files shears writes and deletes).
// Version 3: columns.not_null and table_keys (constraints of managed tables).
// Version 4: indexes (CREATE INDEX).
// Version 5: table_checks (CHECK constraints of managed tables).
// Version 6: columns.default_sql (DEFAULT expressions of managed tables).
// Version 7: sequences (CREATE SEQUENCE; next_value NULL once past the last value).
// Version 8: macros and macro_parameters (CREATE MACRO).
// Version 9: schemas (CREATE SCHEMA; objects of schema s are stored as "s.name").
// Version 10: columns.generated_sql (generated columns; ordinals count them too) and
// table_foreign_keys.
constexpr int kSchemaVersion = 10;

constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS schemas (name TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS views (
  name TEXT PRIMARY KEY, sql TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS view_aliases (
  view TEXT NOT NULL REFERENCES views(name) ON DELETE CASCADE, ordinal INTEGER NOT NULL,
  alias TEXT NOT NULL, PRIMARY KEY (view, ordinal));
CREATE TABLE IF NOT EXISTS tables (
  table_id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, location TEXT NOT NULL,
  format TEXT NOT NULL, columns_declared INTEGER NOT NULL,
  managed INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS columns (
  table_id INTEGER NOT NULL REFERENCES tables(table_id) ON DELETE CASCADE,
  ordinal INTEGER NOT NULL, name TEXT NOT NULL, type TEXT NOT NULL,
  is_partition INTEGER NOT NULL, unsupported_reason TEXT NOT NULL,
  not_null INTEGER NOT NULL DEFAULT 0, default_sql TEXT, generated_sql TEXT,
  PRIMARY KEY (table_id, ordinal));
CREATE TABLE IF NOT EXISTS table_keys (
  table_id INTEGER NOT NULL REFERENCES tables(table_id) ON DELETE CASCADE,
  ordinal INTEGER NOT NULL, is_primary INTEGER NOT NULL, columns TEXT NOT NULL,
  PRIMARY KEY (table_id, ordinal));
CREATE TABLE IF NOT EXISTS table_foreign_keys (
  table_id INTEGER NOT NULL REFERENCES tables(table_id) ON DELETE CASCADE, ordinal INTEGER NOT NULL,
  columns TEXT NOT NULL, parent TEXT NOT NULL, parent_columns TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS table_checks (
  table_id INTEGER NOT NULL REFERENCES tables(table_id) ON DELETE CASCADE,
  ordinal INTEGER NOT NULL, sql TEXT NOT NULL, PRIMARY KEY (table_id, ordinal));
CREATE TABLE IF NOT EXISTS indexes (
  name TEXT PRIMARY KEY, display_name TEXT NOT NULL,
  table_id INTEGER NOT NULL REFERENCES tables(table_id) ON DELETE CASCADE,
  is_unique INTEGER NOT NULL, columns TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sequences (
  name TEXT PRIMARY KEY, start_value INTEGER NOT NULL, increment INTEGER NOT NULL,
  min_value INTEGER NOT NULL, max_value INTEGER NOT NULL, cycle INTEGER NOT NULL,
  next_value INTEGER, last_value INTEGER);
CREATE TABLE IF NOT EXISTS macros (
  name TEXT PRIMARY KEY, display_name TEXT NOT NULL, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS macro_parameters (
  macro TEXT NOT NULL REFERENCES macros(name) ON DELETE CASCADE, ordinal INTEGER NOT NULL,
  name TEXT NOT NULL, default_sql TEXT, PRIMARY KEY (macro, ordinal));
CREATE TABLE IF NOT EXISTS partitions (
  partition_id INTEGER PRIMARY KEY,
  table_id INTEGER NOT NULL REFERENCES tables(table_id) ON DELETE CASCADE,
  path TEXT NOT NULL, UNIQUE (table_id, path));
CREATE TABLE IF NOT EXISTS files (
  file_id INTEGER PRIMARY KEY,
  partition_id INTEGER NOT NULL REFERENCES partitions(partition_id) ON DELETE CASCADE,
  path TEXT NOT NULL, size INTEGER NOT NULL, num_rows INTEGER NOT NULL,
  column_map TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS files_by_partition ON files(partition_id);
CREATE TABLE IF NOT EXISTS stats (
  stats_id INTEGER PRIMARY KEY,
  table_id INTEGER NOT NULL REFERENCES tables(table_id) ON DELETE CASCADE,
  level TEXT NOT NULL, path TEXT NOT NULL, row_count INTEGER NOT NULL, bytes INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS stats_by_table ON stats(table_id, level);
CREATE TABLE IF NOT EXISTS column_stats (
  stats_id INTEGER NOT NULL REFERENCES stats(stats_id) ON DELETE CASCADE,
  ordinal INTEGER NOT NULL, column_name TEXT NOT NULL, null_count INTEGER NOT NULL,
  distinct_count INTEGER NOT NULL, min TEXT, max TEXT, PRIMARY KEY (stats_id, ordinal));
)sql";

// RENAME TO keeps an object in its schema (a new name may name the same schema, as DuckDB).
std::string RenamedKey(const std::string& key, const std::string& new_name) {
  std::string new_key = AsciiLower(new_name);
  const std::string schema = Catalog::SplitKey(key).first;
  if (new_key.rfind(schema + ".", 0) == 0) new_key = new_key.substr(schema.size() + 1);
  if (new_key.rfind("main.", 0) == 0 && schema == "main") new_key = new_key.substr(5);
  return schema == "main" ? new_key : schema + "." + new_key;
}

// A stored key as a name that resolves to it again whatever the current schema: "main.t" for
// main's "t" (which SET schema = 's' would otherwise take for s.t).
std::string ExplicitKey(const std::string& key) {
  return key.find('.') == std::string::npos ? "main." + key : key;
}

using catalog_internal::NoRoute;
using sqlite::DeleteNamed;
using sqlite::Statement;
using sqlite::Transaction;

}  // namespace

namespace catalog_internal {

std::string EncodeColumnMap(const std::vector<int>& map) {
  std::string out;
  for (size_t i = 0; i < map.size(); i++)
    out += (i ? "," : "") + std::to_string(map[i]);
  return out;
}

std::vector<int> DecodeColumnMap(const std::string& text) {
  std::vector<int> map;
  size_t start = 0;
  while (start < text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    map.push_back(std::stoi(text.substr(start, comma - start)));
    start = comma + 1;
  }
  return map;
}

}  // namespace catalog_internal

using catalog_internal::DecodeColumnMap;
using catalog_internal::EncodeColumnMap;

size_t TableDefinition::num_partition_columns() const {
  size_t count = 0;
  for (const auto& column : columns)
    count += column.is_partition ? 1 : 0;
  return count;
}

namespace {

// A type as LogicalType::ToString spells it, read back through the parser's type text.
LogicalType CanonicalType(const ast::TypeName& type) {
  if (type.array_depth > 0) {
    ast::TypeName element = type;
    element.array_depth--;
    const LogicalType inner = CanonicalType(element);
    return inner.valid() ? LogicalType::List(inner) : LogicalType();
  }
  static const std::pair<const char*, LogicalType> kSimple[] = {
      {"boolean", LogicalType::Boolean()},     {"integer", LogicalType::Integer()},
      {"bigint", LogicalType::Bigint()},       {"double", LogicalType::Double()},
      {"real", LogicalType::Float()},          {"date", LogicalType::Date()},
      {"timestamp", LogicalType::Timestamp()}, {"time", LogicalType::Time()},
      {"varchar", LogicalType::Varchar()},     {"blob", LogicalType::Blob()},
      {"interval", LogicalType::Interval()}};
  for (const auto& [name, simple] : kSimple) {
    if (type.name == name && type.modifiers.empty() && type.children.empty()) return simple;
  }
  if (type.name == "decimal" && type.modifiers.size() == 2) {
    return LogicalType::Decimal(type.modifiers[0], type.modifiers[1]);
  }
  if (type.name == "struct" && !type.children.empty()) {
    std::vector<std::pair<std::string, LogicalType>> fields;
    for (size_t i = 0; i < type.children.size(); i++) {
      const LogicalType field = CanonicalType(type.children[i]);
      if (!field.valid()) return LogicalType();
      fields.emplace_back(type.field_names[i], field);
    }
    return LogicalType::Struct(fields);
  }
  if (type.name == "map" && type.children.size() == 2) {
    const LogicalType key = CanonicalType(type.children[0]);
    const LogicalType value = CanonicalType(type.children[1]);
    if (!key.valid() || !value.valid()) return LogicalType();
    return LogicalType::Map(key, value);
  }
  return LogicalType();
}

}  // namespace

LogicalType ParseTypeString(const std::string& text) {
  try {
    return CanonicalType(ParseTypeText(text));
  } catch (const Error&) {
    return LogicalType();  // not a type's text: the caller reports it
  }
}

std::unique_ptr<Catalog> Catalog::Open(const std::string& directory) {
  std::unique_ptr<Catalog> catalog(new Catalog());
  catalog->loader_link_->catalog = catalog.get();
  std::string file = ":memory:";
  if (!directory.empty()) {
    std::error_code ec;
    if (std::filesystem::exists(directory, ec) && !std::filesystem::is_directory(directory, ec)) {
      throw IOError("'{}' is not a directory (a database is a directory holding catalog.db)",
                    directory);
    }
    std::filesystem::create_directories(directory, ec);
    if (ec) throw IOError("cannot create the database directory '{}': {}", directory, ec.message());
    file = (std::filesystem::path(directory) / "catalog.db").string();
    catalog->path_ = file;
  }
  int rc =
      sqlite3_open_v2(file.c_str(), &catalog->db_,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = catalog->db_ ? sqlite3_errmsg(catalog->db_) : sqlite3_errstr(rc);
    throw IOError("cannot open the catalog '{}': {}", file, message);
  }
  // Another process holding a write lock makes us wait a little instead of failing at once.
  sqlite3_busy_timeout(catalog->db_, 5000);
  catalog->InitializeSchema();
  if (!directory.empty()) RecoverInterruptedWrites(*catalog, directory);
  return catalog;
}

Catalog::~Catalog() {
  if (transaction_) {
    try {
      RollbackTransaction();
    } catch (const Error&) {
    }
  }
  {
    std::lock_guard<std::mutex> lock(loader_link_->mutex);
    loader_link_->catalog = nullptr;
  }
  sqlite3_close(db_);
  if (!temp_directory_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(temp_directory_, ec);
  }
}

std::string Catalog::DataDirectory() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (!path_.empty()) return std::filesystem::path(path_).parent_path().string();
  if (temp_directory_.empty()) {
    std::error_code ec;
    auto base = std::filesystem::temp_directory_path(ec);
    if (ec) base = "/tmp";
    std::string pattern = (base / "shears-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) {
      throw IOError(
          "cannot create a temporary directory for the in-memory database's tables "
          "under '{}'",
          base.string());
    }
    temp_directory_ = pattern;
  }
  return temp_directory_;
}

std::vector<std::string> Catalog::ManagedLocations() const {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  std::vector<std::string> locations;
  Statement read(db_, "SELECT location FROM tables WHERE managed = 1");
  while (read.Step())
    locations.push_back(read.Text(0));
  return locations;
}

void Catalog::Execute(const std::string& sql) const {
  char* error = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    std::string message = error ? error : "unknown error";
    sqlite3_free(error);
    int code = sqlite3_errcode(db_);
    if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT) {
      throw CorruptFileError("the catalog '{}' is not a shears catalog or is damaged: {}",
                             path_.empty() ? ":memory:" : path_, message);
    }
    throw IOError("catalog '{}': {}", path_, message);
  }
}

void Catalog::InitializeSchema() {
  Execute("PRAGMA foreign_keys = ON");
  // Reading the schema first tells a foreign or damaged file from a fresh one.
  std::optional<int> version;
  bool has_objects = false;
  {
    Statement objects(db_, "SELECT count(*) FROM sqlite_master");
    objects.Step();
    has_objects = objects.Int(0) > 0;
  }
  if (has_objects) {
    Statement meta_exists(db_,
                          "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
                          "name = 'meta'");
    meta_exists.Step();
    if (meta_exists.Int(0) == 0) {
      throw CorruptFileError("'{}' is an SQLite database but not a shears catalog (no meta table)",
                             path_);
    }
    Statement read(db_, "SELECT value FROM meta WHERE key = 'schema_version'");
    if (read.Step()) version = std::atoi(read.Text(0).c_str());
    if (!version || *version < 1) {
      throw CorruptFileError("the catalog '{}' has no valid schema version", path_);
    }
    if (*version > kSchemaVersion) {
      throw NotSupportedError(
          "the catalog '{}' has schema version {}, written by a newer shears; this one reads "
          "version {} and older",
          path_, *version, kSchemaVersion);
    }
  }
  Transaction transaction(db_);
  // An older catalog's columns table lacks not_null: added before kSchema's CREATEs (which
  // leave existing tables alone) so that both paths end with the same schema.
  if (version && *version < 3) {
    Execute("ALTER TABLE columns ADD COLUMN not_null INTEGER NOT NULL DEFAULT 0");
  }
  if (version && *version < 6) Execute("ALTER TABLE columns ADD COLUMN default_sql TEXT");
  if (version && *version < 10) {
    // Tests fake an older catalog by lowering its version only: add what it really lacks.
    Statement has(db_, "SELECT count(*) FROM pragma_table_info('columns') WHERE name = ?");
    if (has.Bind(1, std::string("generated_sql")).Step() && has.Int(0) == 0)
      Execute("ALTER TABLE columns ADD COLUMN generated_sql TEXT");
  }
  if (version && *version < 2) {
    Execute("ALTER TABLE tables ADD COLUMN managed INTEGER NOT NULL DEFAULT 0");
  }
  Execute(kSchema);
  if (!version) {
    Statement write(db_, "INSERT INTO meta (key, value) VALUES ('schema_version', ?)");
    write.Bind(1, std::to_string(kSchemaVersion)).Run();
  } else if (*version < kSchemaVersion) {
    Statement write(db_, "UPDATE meta SET value = ? WHERE key = 'schema_version'");
    write.Bind(1, std::to_string(kSchemaVersion)).Run();
  }
  transaction.Commit();
  change_count_++;
}

std::optional<std::string> Catalog::KindOf(const std::string& lower_name) const {
  Statement table(db_, "SELECT 1 FROM tables WHERE name = ?");
  if (table.Bind(1, lower_name).Step()) return "table";
  Statement view(db_, "SELECT 1 FROM views WHERE name = ?");
  if (view.Bind(1, lower_name).Step()) return "view";
  return std::nullopt;
}

bool Catalog::Exists(const std::string& key, CatalogNamespace ns) const {
  const char* sql = nullptr;
  switch (ns) {
    case CatalogNamespace::kRelation:
      return KindOf(key).has_value();
    case CatalogNamespace::kIndex:
      sql = "SELECT 1 FROM indexes WHERE name = ?";
      break;
    case CatalogNamespace::kSequence:
      sql = "SELECT 1 FROM sequences WHERE name = ?";
      break;
    case CatalogNamespace::kMacro:
      if (temp_macros_.count(key)) return true;
      sql = "SELECT 1 FROM macros WHERE name = ?";
      break;
  }
  Statement read(db_, sql);
  return read.Bind(1, key).Step();
}

void Catalog::CreateView(const std::string& name, const ViewDefinition& view, bool or_replace) {
  if (auto routed = Route(name, true))
    return routed->catalog->CreateView(routed->rest, view, or_replace);
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  const std::string key = Resolve(name, CatalogNamespace::kRelation, /*create=*/true);
  Transaction transaction(db_);
  auto kind = KindOf(key);
  if (kind == "table") throw BinderError("'{}' already exists as a table", name);
  if (kind == "view" && !or_replace) {
    throw BinderError("view '{}' already exists (use CREATE OR REPLACE VIEW)", name);
  }
  Statement remove(db_, "DELETE FROM views WHERE name = ?");
  remove.Bind(1, key).Run();
  Statement insert(db_, "INSERT INTO views (name, sql) VALUES (?, ?)");
  insert.Bind(1, key).Bind(2, view.sql).Run();
  Statement alias(db_, "INSERT INTO view_aliases (view, ordinal, alias) VALUES (?, ?, ?)");
  for (size_t i = 0; i < view.column_aliases.size(); i++) {
    alias.Bind(1, key).Bind(2, static_cast<int64_t>(i)).Bind(3, view.column_aliases[i]).Run();
  }
  transaction.Commit();
  change_count_++;
}

void Catalog::DropView(const std::string& name, bool if_exists) {
  if (auto routed = Route(name, true)) return routed->catalog->DropView(routed->rest, if_exists);
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  DeleteNamed(db_, "views", Resolve(name, CatalogNamespace::kRelation), if_exists, "view");
}

std::optional<ViewDefinition> Catalog::FindView(const std::string& name) const {
  if (auto routed = Route(name, false)) return routed->catalog->FindView(routed->rest);
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  const std::string key = Resolve(name, CatalogNamespace::kRelation);
  Statement read(db_, "SELECT sql FROM views WHERE name = ?");
  if (!read.Bind(1, key).Step()) return std::nullopt;
  ViewDefinition view;
  view.sql = read.Text(0);
  Statement aliases(db_, "SELECT alias FROM view_aliases WHERE view = ? ORDER BY ordinal");
  aliases.Bind(1, key);
  while (aliases.Step())
    view.column_aliases.push_back(aliases.Text(0));
  return view;
}

int64_t Catalog::RequireTableId(const std::string& name) const {
  auto table_id = TableId(name);
  if (!table_id) throw BinderError("table '{}' does not exist", name);
  return *table_id;
}

std::optional<int64_t> Catalog::TableId(const std::string& name) const {
  Statement read(db_, "SELECT table_id FROM tables WHERE name = ?");
  if (!read.Bind(1, Resolve(name, CatalogNamespace::kRelation)).Step()) return std::nullopt;
  return read.Int(0);
}

void Catalog::InsertPartitions(int64_t table_id, const std::vector<CatalogPartition>& partitions) {
  // A partition that exists already (AppendFiles) gets the new files.
  Statement existing(db_, "SELECT partition_id FROM partitions WHERE table_id = ? AND path = ?");
  Statement partition(db_, "INSERT INTO partitions (table_id, path) VALUES (?, ?)");
  Statement file(db_,
                 "INSERT INTO files (partition_id, path, size, num_rows, column_map) VALUES "
                 "(?, ?, ?, ?, ?)");
  std::vector<StatisticsEntry> file_statistics;
  for (const auto& p : partitions) {
    int64_t partition_id;
    if (existing.Bind(1, table_id).Bind(2, p.path).Step()) {
      partition_id = existing.Int(0);
      existing.Run();
    } else {
      existing.Run();
      partition.Bind(1, table_id).Bind(2, p.path).Run();
      partition_id = sqlite3_last_insert_rowid(db_);
    }
    for (const auto& f : p.files) {
      file.Bind(1, partition_id)
          .Bind(2, f.path)
          .Bind(3, static_cast<int64_t>(f.size))
          .Bind(4, f.num_rows)
          .Bind(5, EncodeColumnMap(f.column_map))
          .Run();
      if (f.statistics) file_statistics.push_back(*f.statistics);
    }
  }
  InsertStatistics(table_id, file_statistics);
}

void Catalog::CreateTable(const TableDefinition& table) {
  if (auto routed = Route(table.name, true)) {
    TableDefinition renamed = table;
    renamed.name = routed->rest;
    return routed->catalog->CreateTable(renamed);
  }
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  const std::string key = Resolve(table.name, CatalogNamespace::kRelation, /*create=*/true);
  Transaction transaction(db_);
  if (auto kind = KindOf(key)) throw BinderError("{} '{}' already exists", *kind, table.name);
  Statement insert(db_,
                   "INSERT INTO tables (name, location, format, columns_declared, managed) VALUES "
                   "(?, ?, ?, ?, ?)");
  insert.Bind(1, key)
      .Bind(2, table.location)
      .Bind(3, table.format)
      .Bind(4, int64_t{table.columns_declared})
      .Bind(5, int64_t{table.managed})
      .Run();
  const int64_t table_id = sqlite3_last_insert_rowid(db_);
  InsertColumns(table_id, table);
  InsertPartitions(table_id, table.partitions);
  transaction.Commit();
  change_count_++;
}

std::optional<std::string> Catalog::DropTable(const std::string& name, bool if_exists) {
  if (auto routed = Route(name, true)) return routed->catalog->DropTable(routed->rest, if_exists);
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  Transaction transaction(db_);
  std::optional<std::string> managed_location;
  const std::string key = Resolve(name, CatalogNamespace::kRelation);
  if (const auto children = ReferencingTables(name); !children.empty()) {
    throw BinderError(
        "Could not drop the table because this table is main key table of the table \"{}\"",
        children[0]);
  }
  Statement read(db_, "SELECT location, managed FROM tables WHERE name = ?");
  if (read.Bind(1, key).Step() && read.Int(1) != 0) managed_location = read.Text(0);
  Statement remove(db_, "DELETE FROM tables WHERE name = ?");
  remove.Bind(1, key).Run();
  if (sqlite3_changes(db_) == 0 && !if_exists) {
    throw BinderError("table '{}' does not exist", name);
  }
  transaction.Commit();
  change_count_++;
  return managed_location;
}

void Catalog::AppendFiles(const std::string& name,
                          const std::vector<CatalogPartition>& partitions) {
  if (auto routed = Route(name, true))
    return routed->catalog->AppendFiles(routed->rest, partitions);
  ChangeFiles(name, partitions, /*replace=*/false);
}

void Catalog::ChangeFiles(const std::string& name, const std::vector<CatalogPartition>& partitions,
                          bool replace) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  Transaction transaction(db_);
  const int64_t table_id = RequireTableId(name);
  if (replace) {
    Statement remove(db_, "DELETE FROM partitions WHERE table_id = ?");
    remove.Bind(1, table_id).Run();
  }
  // Appended files keep the statistics of the files before them; replaced ones lose them all.
  Statement stats(db_, replace ? "DELETE FROM stats WHERE table_id = ?"
                               : "DELETE FROM stats WHERE table_id = ? AND level != 'file'");
  stats.Bind(1, table_id).Run();
  InsertPartitions(table_id, partitions);
  transaction.Commit();
  change_count_++;
}

std::optional<TableDefinition> Catalog::FindTable(const std::string& name) const {
  if (auto routed = Route(name, false)) {
    // Its name as this catalog reaches it, for the caller's later calls.
    auto table = routed->catalog->FindTable(routed->rest);
    if (table) {
      table->name = routed->catalog->attached_as_ + "." + table->name;
      for (auto& index : table->indexes)
        index.table = table->name;
    }
    return table;
  }
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  Statement read(db_,
                 "SELECT table_id, name, location, format, columns_declared, managed FROM tables "
                 "WHERE name = ?");
  if (!read.Bind(1, Resolve(name, CatalogNamespace::kRelation)).Step()) return std::nullopt;
  const int64_t table_id = read.Int(0);
  TableDefinition table;
  // A name the caller's later calls resolve to this table again: main's "t" read while another
  // schema is current would find that schema's t (writes through main.t went to s.t).
  table.name = read.Text(1);
  if (table.name.find('.') == std::string::npos && CurrentSchema() != "main") {
    table.name = "main." + table.name;
  }
  table.location = read.Text(2);
  table.format = read.Text(3);
  table.columns_declared = read.Int(4) != 0;
  table.managed = read.Int(5) != 0;
  Statement columns(
      db_,
      "SELECT name, type, is_partition, unsupported_reason, not_null, default_sql, generated_sql "
      "FROM columns WHERE table_id = ? ORDER BY ordinal");
  columns.Bind(1, table_id);
  for (size_t position = 0; columns.Step(); position++) {
    if (auto sql = columns.OptionalText(6)) {
      table.generated.push_back(
          {columns.Text(0), ParseTypeString(columns.Text(1)), std::move(*sql), position});
      continue;
    }
    CatalogColumn column;
    column.name = columns.Text(0);
    column.type = ParseTypeString(columns.Text(1));
    column.is_partition = columns.Int(2) != 0;
    column.unsupported_reason = columns.Text(3);
    column.not_null = columns.Int(4) != 0;
    column.default_sql = columns.OptionalText(5);
    if (!column.type.valid() && column.unsupported_reason.empty()) {
      throw CorruptFileError("the catalog '{}' has an unknown type '{}' for {}.{}", path_,
                             columns.Text(1), table.name, column.name);
    }
    table.columns.push_back(std::move(column));
  }
  Statement keys(db_,
                 "SELECT is_primary, columns FROM table_keys WHERE table_id = ? ORDER BY ordinal");
  keys.Bind(1, table_id);
  while (keys.Step()) {
    TableKey key{keys.Int(0) != 0, DecodeColumnMap(keys.Text(1))};
    for (int c : key.columns) {
      if (c < 0 || static_cast<size_t>(c) >= table.columns.size()) {
        throw CorruptFileError("the catalog '{}' has a key of table {} on a column it lacks", path_,
                               table.name);
      }
    }
    table.keys.push_back(std::move(key));
  }
  table.foreign_keys = ReadForeignKeys(table_id);
  Statement checks(db_, "SELECT sql FROM table_checks WHERE table_id = ? ORDER BY ordinal");
  checks.Bind(1, table_id);
  while (checks.Step())
    table.checks.push_back(checks.Text(0));
  table.indexes = ReadIndexes(table_id, table.name, table.columns.size());
  // One pass over the files, joined to their partitions, in path order.
  Statement files(db_,
                  "SELECT p.partition_id, p.path, f.path, f.size, f.num_rows, f.column_map "
                  "FROM partitions p LEFT JOIN files f ON f.partition_id = p.partition_id "
                  "WHERE p.table_id = ? ORDER BY p.path, f.path");
  files.Bind(1, table_id);
  int64_t current = -1;
  while (files.Step()) {
    if (table.partitions.empty() || files.Int(0) != current) {
      current = files.Int(0);
      table.partitions.push_back(CatalogPartition{files.Text(1), {}});
    }
    CatalogFile file;
    file.path = files.Text(2);
    if (file.path.empty()) continue;  // a partition without files
    file.size = static_cast<uint64_t>(files.Int(3));
    file.num_rows = files.Int(4);
    file.column_map = DecodeColumnMap(files.Text(5));
    table.partitions.back().files.push_back(std::move(file));
  }
  auto statistics = ReadStatistics(table_id, "table");
  if (!statistics.empty()) table.statistics = std::move(statistics.front());
  return table;
}

void Catalog::ReplacePartitions(const std::string& name,
                                const std::vector<CatalogPartition>& partitions) {
  if (auto routed = Route(name, true))
    return routed->catalog->ReplacePartitions(routed->rest, partitions);
  ChangeFiles(name, partitions, /*replace=*/true);
}

void Catalog::InsertStatistics(int64_t table_id, const std::vector<StatisticsEntry>& entries) {
  Statement entry(db_,
                  "INSERT INTO stats (table_id, level, path, row_count, bytes) VALUES "
                  "(?, ?, ?, ?, ?)");
  Statement column(db_,
                   "INSERT INTO column_stats (stats_id, ordinal, column_name, null_count, "
                   "distinct_count, min, max) VALUES (?, ?, ?, ?, ?, ?, ?)");
  for (const auto& e : entries) {
    entry.Bind(1, table_id)
        .Bind(2, e.level)
        .Bind(3, e.path)
        .Bind(4, e.row_count)
        .Bind(5, e.bytes)
        .Run();
    const int64_t stats_id = sqlite3_last_insert_rowid(db_);
    for (size_t i = 0; i < e.columns.size(); i++) {
      const auto& c = e.columns[i];
      column.Bind(1, stats_id)
          .Bind(2, static_cast<int64_t>(i))
          .Bind(3, c.column)
          .Bind(4, c.null_count)
          .Bind(5, c.distinct_count)
          .Bind(6, c.min)
          .Bind(7, c.max)
          .Run();
    }
  }
}

void Catalog::ReplaceStatistics(const std::string& name,
                                const std::vector<StatisticsEntry>& entries) {
  if (auto routed = Route(name, true))
    return routed->catalog->ReplaceStatistics(routed->rest, entries);
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  Transaction transaction(db_);
  const int64_t table_id = RequireTableId(name);
  Statement remove(db_, "DELETE FROM stats WHERE table_id = ?");
  remove.Bind(1, table_id).Run();
  InsertStatistics(table_id, entries);
  transaction.Commit();
  change_count_++;
}

std::vector<StatisticsEntry> Catalog::ReadStatistics(int64_t table_id, const std::string& level,
                                                     bool by_path) const {
  std::vector<StatisticsEntry> entries;
  // In insertion order the indexes give the rows sorted; by path thousands of files are sorted.
  const std::string sql =
      std::string(
          "SELECT s.stats_id, s.path, s.row_count, s.bytes, c.column_name, c.null_count, "
          "c.distinct_count, c.min, c.max FROM stats s LEFT JOIN column_stats c ON c.stats_id = "
          "s.stats_id WHERE s.table_id = ? AND s.level = ? ORDER BY ") +
      (by_path ? "s.path, " : "") + "s.stats_id, c.ordinal";
  Statement read(db_, sql.c_str());
  read.Bind(1, table_id).Bind(2, level);
  int64_t current = -1;
  while (read.Step()) {
    if (entries.empty() || read.Int(0) != current) {
      current = read.Int(0);
      entries.push_back(StatisticsEntry{level, read.Text(1), read.Int(2), read.Int(3), {}});
    }
    if (!read.OptionalText(4)) continue;
    entries.back().columns.push_back(ColumnStatistics{read.Text(4), read.Int(5), read.Int(6),
                                                      read.OptionalText(7), read.OptionalText(8)});
  }
  return entries;
}

std::vector<StatisticsEntry> Catalog::GetStatistics(const std::string& name,
                                                    const std::string& level) const {
  if (auto routed = Route(name, false)) return routed->catalog->GetStatistics(routed->rest, level);
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  const int64_t table_id = RequireTableId(name);
  return ReadStatistics(table_id, level);
}

void Catalog::ValidateCache() const {
  Statement version(db_, "PRAGMA data_version");
  version.Step();
  const int64_t data_version = version.Int(0);
  if (data_version != cached_data_version_ || change_count_ != cached_change_count_) {
    datasets_.clear();
    cached_data_version_ = data_version;
    cached_change_count_ = change_count_;
  }
}

std::shared_ptr<const Dataset> Catalog::TableDataset(const std::string& name) const {
  if (auto routed = Route(name, false)) return routed->catalog->TableDataset(routed->rest);
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  ValidateCache();
  const std::string key = Resolve(name, CatalogNamespace::kRelation);
  auto it = datasets_.find(key);
  if (it != datasets_.end()) return it->second;
  NoRoute local;  // `key` is this catalog's
  auto table = FindTable(ExplicitKey(key));
  if (!table) return nullptr;
  std::shared_ptr<Dataset> dataset = DatasetForTable(*table);
  // Each file's statistics let scans skip files without opening them (file_statistics.h).
  // Read when a scan first tests one: thousands of files' rows cost tens of milliseconds that
  // a query testing no file (a partition filter alone, no filter) never pays.
  dataset->set_statistics_loader([link = loader_link_, table_id = RequireTableId(ExplicitKey(key)),
                                  location = table->location](const Dataset& files)
                                     -> std::vector<std::shared_ptr<const FileStatistics>> {
    std::lock_guard<std::mutex> lock(link->mutex);
    if (!link->catalog) return {};
    return link->catalog->LoadFileStatistics(table_id, location, files);
  });
  datasets_[key] = dataset;
  return dataset;
}

std::vector<std::shared_ptr<const FileStatistics>> Catalog::LoadFileStatistics(
    int64_t table_id, const std::string& location, const Dataset& dataset) const {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  std::unordered_map<std::string_view, size_t> file_index;
  for (size_t i = 0; i < dataset.files().size(); i++)
    file_index.emplace(dataset.files()[i].path, i);
  std::vector<std::shared_ptr<const FileStatistics>> statistics(dataset.files().size());
  const std::string prefix = location == "/" ? "/" : location + "/";
  // The catalog may have changed since the dataset was built (another process's RECOVER
  // PARTITIONS): an entry describes a file only if it was recorded for the same path and size.
  for (const auto& entry : ReadStatistics(table_id, "file", /*by_path=*/false)) {
    auto it = file_index.find(prefix + entry.path);
    if (it == file_index.end() ||
        static_cast<uint64_t>(entry.bytes) != dataset.files()[it->second].size)
      continue;
    statistics[it->second] = CatalogFileStatistics(dataset.columns(), entry);
  }
  return statistics;
}

void Catalog::SwapFiles(const std::string& name, const std::vector<std::string>& removed,
                        const std::vector<CatalogPartition>& added,
                        const TableDefinition* definition) {
  if (auto routed = Route(name, true))
    return routed->catalog->SwapFiles(routed->rest, removed, added, definition);
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  Transaction transaction(db_);
  const int64_t table_id = RequireTableId(name);
  // The statement read exactly `removed`: any other file list means a write (here or in
  // another process) committed since, whose rows the new files may lack or hold twice.
  std::vector<std::string> current;
  Statement read(db_,
                 "SELECT f.path FROM files f JOIN partitions p ON f.partition_id = p.partition_id "
                 "WHERE p.table_id = ? ORDER BY f.path");
  read.Bind(1, table_id);
  while (read.Step())
    current.push_back(read.Text(0));
  std::vector<std::string> expected = removed;
  std::sort(expected.begin(), expected.end());
  if (current != expected) {
    throw IOError(
        "table '{}' was changed by another statement while this one rewrote it; nothing was "
        "written, run the statement again",
        name);
  }
  Statement remove(db_, "DELETE FROM partitions WHERE table_id = ?");
  remove.Bind(1, table_id).Run();
  Statement stats(db_, "DELETE FROM stats WHERE table_id = ?");
  stats.Bind(1, table_id).Run();
  if (definition) ReplaceColumns(table_id, *definition);
  InsertPartitions(table_id, added);
  transaction.Commit();
  change_count_++;
}

void Catalog::BeginTransaction() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (transaction_) throw TransactionError("cannot start a transaction within a transaction");
  Execute("BEGIN IMMEDIATE");
  transaction_.emplace();
  transaction_->temp_macros = temp_macros_;
}

bool Catalog::in_transaction() const {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  return transaction_.has_value();
}

void Catalog::CommitTransaction() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (!transaction_) throw TransactionError("cannot commit - no transaction is active");
  Execute("COMMIT");
  OpenTransaction done = std::move(*transaction_);
  transaction_.reset();
  change_count_++;
  // What the transaction replaced goes the way an UPDATE outside one retires its files.
  bool any_replaced = false;
  for (const auto& write : done.writes)
    any_replaced = any_replaced || !write.replaced.empty();
  if (any_replaced) {
    try {
      StagedWrite retire(DataDirectory());
      for (const auto& write : done.writes)
        if (!write.replaced.empty()) retire.Retire(write.table, write.root, write.replaced);
      retire.Finish();
    } catch (const Error&) {
      // Committed: files left behind are garbage, not wrong answers.
    }
  }
  for (const auto& location : done.removals)
    RemoveManagedFiles(location);
}

void Catalog::RollbackTransaction() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (!transaction_) throw TransactionError("cannot rollback - no transaction is active");
  // Sequences do not go back: a value handed out is never handed out again.
  struct Counter {
    std::string name;
    std::optional<int64_t> next, last;
  };
  std::vector<Counter> counters;
  {
    Statement read(db_, "SELECT name, next_value, last_value FROM sequences");
    while (read.Step()) {
      counters.push_back({read.Text(0), read.IsNull(1) ? std::nullopt : std::optional(read.Int(1)),
                          read.IsNull(2) ? std::nullopt : std::optional(read.Int(2))});
    }
  }
  Execute("ROLLBACK");
  OpenTransaction undone = std::move(*transaction_);
  transaction_.reset();
  temp_macros_ = std::move(undone.temp_macros);
  change_count_++;
  for (const auto& counter : counters) {
    // Only for a sequence that existed before BEGIN and only forward (in its direction).
    if (!counter.last) continue;
    Statement write(db_,
                    "UPDATE sequences SET next_value = ?1, last_value = ?2 WHERE name = ?3 AND "
                    "(last_value IS NULL OR (increment > 0 AND ?2 > last_value) OR "
                    "(increment < 0 AND ?2 < last_value))");
    write.Bind(1, counter.next).Bind(2, counter.last).Bind(3, counter.name).Run();
  }
  for (const auto& write : undone.writes) {
    for (const auto& path : write.published) {
      std::error_code ec;
      const std::filesystem::path file = std::filesystem::path(write.root) / path;
      std::filesystem::remove(file, ec);
      // Partition directories and the directory of a table the transaction created, when
      // empty now (remove leaves a directory with files alone).
      for (auto dir = file.parent_path(); dir.string().size() >= write.root.size();
           dir = dir.parent_path()) {
        if (!std::filesystem::remove(dir, ec)) break;
      }
    }
  }
}

void Catalog::RecordTransactionWrite(const std::string& table, const std::string& root,
                                     const std::vector<std::string>& published,
                                     const std::vector<std::string>& replaced) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (transaction_) transaction_->writes.push_back({table, root, published, replaced});
}

void Catalog::DeferRemoval(const std::string& location) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (transaction_) transaction_->removals.push_back(location);
}

std::vector<std::string> Catalog::PendingRemovals() const {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  return transaction_ ? transaction_->removals : std::vector<std::string>{};
}

void Catalog::ReplaceDefinition(const std::string& name, const TableDefinition& definition) {
  if (auto routed = Route(name, true))
    return routed->catalog->ReplaceDefinition(routed->rest, definition);
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  Transaction transaction(db_);
  ReplaceColumns(RequireTableId(name), definition);
  transaction.Commit();
  change_count_++;
}

void Catalog::RenameTable(const std::string& name, const std::string& new_name) {
  if (auto routed = Route(name, true)) return routed->catalog->RenameTable(routed->rest, new_name);
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  Transaction transaction(db_);
  const std::string key = Resolve(name, CatalogNamespace::kRelation);
  NoRoute local;  // `key` is this catalog's
  const int64_t table_id = RequireTableId(ExplicitKey(key));
  const std::string new_key = RenamedKey(key, new_name);
  if (auto kind = KindOf(new_key); kind && new_key != key) {
    throw BinderError("{} '{}' already exists", *kind, new_name);
  }
  Statement rename(db_, "UPDATE tables SET name = ? WHERE table_id = ?");
  rename.Bind(1, new_key).Bind(2, table_id).Run();
  transaction.Commit();
  change_count_++;
}

void Catalog::RenameView(const std::string& name, const std::string& new_name) {
  if (auto routed = Route(name, true)) return routed->catalog->RenameView(routed->rest, new_name);
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  const std::string key = Resolve(name, CatalogNamespace::kRelation);
  const std::string new_key = RenamedKey(key, new_name);
  Transaction transaction(db_);
  NoRoute local;  // `key` is this catalog's
  auto view = FindView(ExplicitKey(key));
  if (!view) throw BinderError("view '{}' does not exist", name);
  if (new_key == key) return;
  if (auto kind = KindOf(new_key)) throw BinderError("{} '{}' already exists", *kind, new_name);
  // view_aliases refers to views(name): the row moves as a whole.
  Statement remove(db_, "DELETE FROM views WHERE name = ?");
  remove.Bind(1, key).Run();
  Statement insert(db_, "INSERT INTO views (name, sql) VALUES (?, ?)");
  insert.Bind(1, new_key).Bind(2, view->sql).Run();
  Statement alias(db_, "INSERT INTO view_aliases (view, ordinal, alias) VALUES (?, ?, ?)");
  for (size_t i = 0; i < view->column_aliases.size(); i++) {
    alias.Bind(1, new_key).Bind(2, static_cast<int64_t>(i)).Bind(3, view->column_aliases[i]).Run();
  }
  transaction.Commit();
  change_count_++;
}

std::vector<Catalog::Entry> Catalog::List() const {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  std::vector<Entry> entries;
  Statement read(db_,
                 "SELECT name, 'table' FROM tables UNION ALL SELECT name, 'view' FROM views "
                 "ORDER BY 1");
  while (read.Step()) {
    auto [schema, table_name] = SplitKey(read.Text(0));
    entries.push_back({read.Text(0), read.Text(1), std::move(schema), std::move(table_name)});
  }
  return entries;
}

}  // namespace shears

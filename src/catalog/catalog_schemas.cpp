// The catalog's names and namespaces: keys ("s.name"), name resolution against the current
// schema, attached databases (ATTACH / DETACH) and the routing of a qualified name to the
// database it names, and schemas (CREATE / DROP SCHEMA). catalog.cpp holds views, tables,
// files, statistics and indexes; catalog_objects.cpp sequences and macros.

#include <sqlite3.h>

#include <cstdio>
#include <filesystem>
#include <string_view>
#include <utility>

#include "catalog/catalog.h"
#include "catalog/catalog_internal.h"
#include "catalog/sqlite_util.h"
#include "common/error.h"
#include "common/session.h"
#include "common/string_util.h"

namespace shears {

namespace catalog_internal {
bool& NoRouteFlag() {
  thread_local bool no_route = false;
  return no_route;
}
}  // namespace catalog_internal

using sqlite::Statement;
using sqlite::Transaction;

std::pair<std::string, std::string> Catalog::SplitKey(const std::string& key) {
  const size_t dot = key.find('.');
  if (dot == std::string::npos) return {"main", key};
  return {key.substr(0, dot), key.substr(dot + 1)};
}

std::string Catalog::Resolve(const std::string& name, CatalogNamespace ns, bool create) const {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  std::string key = AsciiLower(name);
  if (const size_t dot = key.find('.'); dot != std::string::npos) {
    const std::string schema = key.substr(0, dot);
    if (schema == "main") return key.substr(dot + 1);
    // memory.t, memory.s.t: this database's own name (Route sent other databases' names on).
    if (schema == database_name() && !SchemaExists(schema)) {
      return Resolve(key.substr(dot + 1), ns, create);
    }
    // A name with a dot but no such schema is a name of its own in main (FROM "x.parquet").
    if (create && !SchemaExists(schema)) {
      throw BinderError("schema '{}' does not exist (CREATE SCHEMA {} first)", schema, schema);
    }
    return key;
  }
  const std::string current = CurrentSchema();
  if (current == "main") return key;
  std::string qualified = current + "." + key;
  if (create) {
    if (!SchemaExists(current)) {
      throw BinderError("the current schema '{}' does not exist any more (SET schema = 'main')",
                        current);
    }
    return qualified;
  }
  // The current schema first, then main (DuckDB's search path ends in main).
  return Exists(qualified, ns) ? qualified : key;
}

std::string Catalog::CurrentSchema() const {
  const auto session = SessionState::Current();
  // SET schema names a schema of the current database (USE db.s), not of the others.
  if (!session || session->current_database() != attached_as_) return "main";
  return session->current_schema();
}

std::string Catalog::database_name() const {
  if (path_.empty()) return "memory";
  return AsciiLower(std::filesystem::path(path_).parent_path().filename().string());
}

bool Catalog::DatabaseExists(const std::string& name) const {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  const std::string key = AsciiLower(name);
  return key == database_name() || attached_.count(key) > 0;
}

const Catalog* Catalog::DatabaseCatalog(const std::string& name) const {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  const std::string key = AsciiLower(name);
  if (auto it = attached_.find(key); it != attached_.end()) return it->second.get();
  return key == database_name() ? this : nullptr;
}

std::vector<Catalog::DatabaseEntry> Catalog::ListDatabases() const {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  std::vector<DatabaseEntry> databases{{database_name(), path_, read_only_}};
  for (const auto& [name, catalog] : attached_)
    databases.push_back({name, catalog->path_, catalog->read_only_});
  return databases;
}

bool Catalog::Attach(const std::string& name, const std::string& path, bool read_only,
                     bool if_not_exists) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  const std::string key = AsciiLower(name);
  if (key.empty() || key.find('.') != std::string::npos) {
    throw BinderError("'{}' is not a valid database name (it may not be empty or hold a '.')",
                      name);
  }
  if (DatabaseExists(key)) {
    if (if_not_exists) return false;
    throw BinderError("a database named '{}' is attached already (DETACH {} first)", name, name);
  }
  if (transaction_) {
    throw TransactionError(
        "ATTACH inside a transaction is not supported (COMMIT or ROLLBACK first)");
  }
  std::string directory;
  if (path != ":memory:" && !path.empty()) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec)) {
      // A database in one file is DuckDB's or SQLite's; a shears database is a directory.
      char header[16] = {};
      std::FILE* file = std::fopen(path.c_str(), "rb");
      const size_t read = file ? std::fread(header, 1, sizeof(header), file) : 0;
      if (file) std::fclose(file);
      const std::string_view bytes(header, read);
      const char* format = bytes.size() >= 12 && bytes.substr(8, 4) == "DUCK"
                               ? "a DuckDB database file"
                           : bytes.starts_with("SQLite format 3") ? "an SQLite database file"
                                                                  : "a file";
      throw InvalidInputError(
          "cannot attach '{}': it is {}; shears attaches its own databases (a directory holding "
          "catalog.db) or ':memory:'",
          path, format);
    }
    // Nothing at the path: a new shears database (a directory) is created there, as DuckDB
    // creates a new file, whatever the path's extension.
    if (read_only && !std::filesystem::exists(path, ec)) {
      throw IOError("cannot attach '{}' READ_ONLY: there is no database there", path);
    }
    // As DuckDB, whose new file needs its directory: a mistyped path creates no tree.
    const auto parent = std::filesystem::absolute(path, ec).parent_path();
    if (!std::filesystem::exists(path, ec) && !std::filesystem::is_directory(parent, ec)) {
      throw IOError("cannot attach '{}': directory '{}' does not exist", path, parent.string());
    }
    directory = path;
  } else if (read_only) {
    throw InvalidInputError("an in-memory database cannot be attached READ_ONLY (it starts empty)");
  }
  std::shared_ptr<Catalog> catalog = Open(directory);
  catalog->attached_as_ = key;
  catalog->read_only_ = read_only;
  attached_[key] = std::move(catalog);
  return true;
}

void Catalog::Detach(const std::string& name, bool if_exists) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  const std::string key = AsciiLower(name);
  auto it = attached_.find(key);
  if (it == attached_.end()) {
    if (key == database_name()) {
      throw BinderError("the database '{}' is the default one and cannot be detached", name);
    }
    if (if_exists) return;
    throw BinderError("database '{}' does not exist (SHOW DATABASES lists them)", name);
  }
  if (const auto session = SessionState::Current(); session && session->current_database() == key) {
    throw BinderError("database '{}' is in use (USE {} first)", name, database_name());
  }
  attached_.erase(it);
  change_count_++;
}

Catalog& Catalog::CatalogOf(const std::string& name) {
  if (auto routed = Route(name, /*write=*/false)) return *routed->catalog;
  return *this;
}

std::optional<Catalog::Routed> Catalog::Route(const std::string& name, bool write) const {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  // Attached catalogs attach none themselves: a routed call ends in its catalog.
  if (attached_.empty() || catalog_internal::NoRouteFlag()) return std::nullopt;
  const std::string key = AsciiLower(name);
  std::vector<std::string> parts;
  for (size_t start = 0;;) {
    const size_t dot = key.find('.', start);
    parts.push_back(key.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  const auto session = SessionState::Current();
  Catalog* current = nullptr;
  if (session && !session->current_database().empty()) {
    auto it = attached_.find(session->current_database());
    if (it != attached_.end()) current = it->second.get();
  }
  auto to = [&](Catalog* catalog, std::string rest) -> std::optional<Routed> {
    if (write && catalog->read_only_) {
      throw InvalidInputError("database '{}' is attached READ_ONLY: it cannot be changed",
                              catalog->attached_as_);
    }
    if (write && transaction_) {
      throw TransactionError(
          "changing the attached database '{}' inside a transaction is not supported (its "
          "changes would not roll back with this database's)",
          catalog->attached_as_);
    }
    return Routed{catalog, std::move(rest)};
  };
  auto attached = [&](const std::string& database) -> Catalog* {
    auto it = attached_.find(database);
    return it == attached_.end() ? nullptr : it->second.get();
  };
  const std::string rest = key.substr(parts[0].size() + (parts.size() > 1 ? 1 : 0));
  if (parts.size() >= 3) {
    if (parts[0] == database_name()) return std::nullopt;  // Resolve drops it
    if (Catalog* catalog = attached(parts[0])) return to(catalog, rest);
    return std::nullopt;  // a name with dots ("a.b/c.parquet"); the binder names the database
  }
  if (parts.size() == 2) {
    // DuckDB's rule: a schema of the current database first, then a database's main schema.
    if (current) {
      if (parts[0] == "main" || current->SchemaExists(parts[0])) return to(current, key);
    } else if (parts[0] == "main" || SchemaExists(parts[0])) {
      return std::nullopt;
    }
    if (Catalog* catalog = attached(parts[0])) return to(catalog, rest);
    if (parts[0] == database_name()) return std::nullopt;
  }
  if (current) return to(current, key);
  return std::nullopt;
}

bool Catalog::SchemaExists(const std::string& name) const {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  const std::string key = AsciiLower(name);
  if (key == "main") return true;
  Statement read(db_, "SELECT 1 FROM schemas WHERE name = ?");
  return read.Bind(1, key).Step();
}

std::vector<std::string> Catalog::ListSchemas() const {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  std::vector<std::string> schemas{"main"};
  Statement read(db_, "SELECT name FROM schemas ORDER BY name");
  while (read.Step())
    schemas.push_back(read.Text(0));
  return schemas;
}

bool Catalog::CreateSchema(const std::string& name, bool if_not_exists) {
  if (auto routed = Route(name, true))
    return routed->catalog->CreateSchema(routed->rest, if_not_exists);
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  const std::string key = AsciiLower(name);
  if (key.empty() || key.find('.') != std::string::npos) {
    throw BinderError("'{}' is not a valid schema name (it may not be empty or hold a '.')", name);
  }
  if (SchemaExists(key)) {
    if (if_not_exists) return false;
    throw BinderError("schema '{}' already exists", name);
  }
  Transaction transaction(db_);
  Statement insert(db_, "INSERT INTO schemas (name) VALUES (?)");
  insert.Bind(1, key).Run();
  transaction.Commit();
  change_count_++;
  return true;
}

std::vector<std::string> Catalog::DropSchema(const std::string& name, bool if_exists,
                                             bool cascade) {
  if (auto routed = Route(name, true))
    return routed->catalog->DropSchema(routed->rest, if_exists, cascade);
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  const std::string key = AsciiLower(name);
  if (key == "main") throw BinderError("the schema 'main' cannot be dropped");
  if (!SchemaExists(key)) {
    if (if_exists) return {};
    throw BinderError("schema '{}' does not exist", name);
  }
  // Keys of the schema's objects start with "s."; LIKE would treat '_' and '%' in it as
  // wildcards, so the prefix is compared as text.
  const std::string prefix = key + ".";
  const char* kObjects[][2] = {{"tables", "table"},
                               {"views", "view"},
                               {"sequences", "sequence"},
                               {"macros", "macro"},
                               {"indexes", "index"}};
  Transaction transaction(db_);
  std::vector<std::string> managed;
  for (const auto& [table, what] : kObjects) {
    Statement read(
        db_, fmt::format("SELECT name FROM {} WHERE substr(name, 1, ?) = ? ORDER BY name", table)
                 .c_str());
    read.Bind(1, static_cast<int64_t>(prefix.size())).Bind(2, prefix);
    if (read.Step() && !cascade) {
      throw BinderError(
          "schema '{}' is not empty: it holds {} '{}' (DROP SCHEMA {} CASCADE drops it with "
          "everything in it)",
          name, what, read.Text(0), name);
    }
  }
  for (auto it = temp_macros_.begin(); it != temp_macros_.end();) {
    it = it->first.rfind(prefix, 0) == 0 ? temp_macros_.erase(it) : std::next(it);
  }
  Statement locations(
      db_,
      "SELECT location FROM tables WHERE managed = 1 AND substr(name, 1, ?) = ? ORDER BY name");
  locations.Bind(1, static_cast<int64_t>(prefix.size())).Bind(2, prefix);
  while (locations.Step())
    managed.push_back(locations.Text(0));
  for (const auto& object : kObjects) {
    Statement remove(db_,
                     fmt::format("DELETE FROM {} WHERE substr(name, 1, ?) = ?", object[0]).c_str());
    remove.Bind(1, static_cast<int64_t>(prefix.size())).Bind(2, prefix).Run();
  }
  Statement remove(db_, "DELETE FROM schemas WHERE name = ?");
  remove.Bind(1, key).Run();
  transaction.Commit();
  change_count_++;
  return managed;
}

}  // namespace shears

#pragma once
// The C++ API of libshears: a Database holds what sessions share (the catalog of tables and
// views), a Connection runs SQL with its own settings.
//
//   shears::Database db("mydb");   // mydb/catalog.db; shears::Database db; is in memory
//   shears::Connection con(db);
//   auto result = con.Query("SELECT count(*) FROM 'data/sales'");
//   result.rows->batch(0).column(0) ...

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/settings.h"
#include "execution/column_data.h"
#include "planner/binder.h"

namespace shears {

class QueryContext;

struct QueryResult {
  std::vector<std::string> names;
  std::vector<LogicalType> types;
  std::shared_ptr<ColumnDataCollection> rows;
  /// Wall time of running the statement (planning and execution; parsing excluded).
  double elapsed_ms = 0;
  idx_t row_count() const { return rows ? rows->row_count() : 0; }
  /// All rows as text (NULL as "NULL"), row-major; for tests and small results.
  std::vector<std::vector<std::string>> ToStrings() const;
};

class Database {
 public:
  /// An in-memory catalog, gone with the Database.
  Database();
  /// The catalog in DIRECTORY/catalog.db, created when missing (see Catalog::Open for errors).
  explicit Database(const std::string& directory);
  ~Database();

  Catalog& catalog() { return *catalog_; }

 private:
  std::unique_ptr<Catalog> catalog_;
};

class Connection {
 public:
  explicit Connection(Database& database) : database_(database) {}

  /// Runs every statement of `sql` and returns the result of the last one. Throws a
  /// shears::Error subclass (ParseError, BinderError, IOError, ...) on failure.
  QueryResult Query(const std::string& sql);
  /// Runs every statement of `sql`; one result per statement.
  std::vector<QueryResult> QueryAll(const std::string& sql);

  Settings& settings() { return settings_; }

  /// Cancels the query this connection is running, from any thread: it stops at its next
  /// cancellation check (at least once per batch) with a CancelledError, releasing what it
  /// held, and the connection stays usable. Does nothing when no query is running (catalog
  /// statements are not interruptible).
  void Interrupt();

 private:
  // Makes `context` the one Interrupt cancels while the guard lives.
  class RunningQuery;

  QueryResult RunStatement(const std::string& sql, const ast::Statement& statement);
  QueryResult RunSelect(const std::string& sql, const ast::QueryNode& query);
  /// `sql`: the text `query` was parsed from, for error positions.
  QueryResult ExecuteSelect(const std::string& sql, const ast::QueryNode& query,
                            const Settings& settings);
  QueryResult RunExplain(const std::string& sql, const ast::ExplainStatement& explain);

  Database& database_;
  Settings settings_;
  std::mutex running_mutex_;
  QueryContext* running_ = nullptr;  // guarded by running_mutex_
};

}  // namespace shears

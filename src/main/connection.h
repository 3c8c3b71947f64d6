#pragma once
// The C++ API of libshears: a Database holds what sessions share (the catalog of tables and
// views), a Connection runs SQL with its own settings.
//
//   shears::Database db("mydb");   // mydb/catalog.db; shears::Database db; is in memory
//   shears::Connection con(db);
//   auto result = con.Query("SELECT count(*) FROM 'data/sales'");
//   result.rows->batch(0).column(0) ...

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "common/session.h"
#include "common/settings.h"
#include "execution/column_data.h"
#include "planner/binder.h"

namespace shears {

class ExecutionContext;
class PhysicalOperator;
class QueryProgress;
class ScaleOut;
struct Plans;  // connection.cpp

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

/// A parsed statement whose parameters ($1, $2, ... or ?) take values at each
/// Connection::Execute: the values are bound as constants of their types, never pasted into
/// the SQL text.
struct PreparedStatement {
  std::string sql;
  std::shared_ptr<const ast::Statement> statement;
  /// How many values Execute takes: the highest $n.
  int parameter_count = 0;
};

class Connection;

class Database {
 public:
  /// An in-memory catalog, gone with the Database.
  Database();
  /// The catalog in DIRECTORY/catalog.db, created when missing (see Catalog::Open for errors).
  explicit Database(const std::string& directory);
  ~Database();

  Catalog& catalog() { return *catalog_; }
  /// Whether the catalog lives in a database directory (shared by every process opening it).
  bool persistent() const { return persistent_; }
  /// Where queries spill when temp_directory is empty: DIRECTORY/.tmp, or the system's for
  /// an in-memory catalog.
  const std::string& temp_directory() const { return temp_directory_; }
  /// Remembers a TEMP table, which the destructor drops (with its files).
  void AddTemporaryTable(const std::string& name);
  /// DROP TABLE of `name`: no longer to be dropped at close.
  void ForgetTemporaryTable(const std::string& name);
  /// ALTER TABLE old RENAME TO new_name: a TEMP table keeps being dropped at close.
  void RenameTemporaryTable(const std::string& old_name, const std::string& new_name);

  /// BEGIN / COMMIT / ROLLBACK of `owner` (docs/transactions.md): one transaction at a time per
  /// database; TransactionError out of turn or from another connection.
  void BeginTransaction(Connection* owner);
  void CommitTransaction(const Connection* owner);
  void RollbackTransaction(const Connection* owner);
  /// The connection whose transaction is open; null when none is.
  const Connection* transaction_owner() const;

 private:
  std::unique_ptr<Catalog> catalog_;
  mutable std::mutex temporary_mutex_;
  std::set<std::string> temporary_tables_;           // lower-case names
  Connection* transaction_owner_ = nullptr;          // under temporary_mutex_
  std::set<std::string> temporary_tables_at_begin_;  // restored by ROLLBACK
  bool persistent_ = false;
  std::string temp_directory_;
};

class Connection {
 public:
  explicit Connection(Database& database) : database_(database) {}
  /// Rolls back this connection's open transaction, as DuckDB does when a connection closes
  /// (touching the database only then: a connection may outlive its database otherwise).
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  /// Runs every statement of `sql` and returns the result of the last one. Throws a
  /// shears::Error subclass (ParseError, BinderError, IOError, ...) on failure.
  QueryResult Query(const std::string& sql);
  /// Runs every statement of `sql`; one result per statement.
  std::vector<QueryResult> QueryAll(const std::string& sql);
  /// Parses `sql`, which must be one statement (ParseError otherwise). Parameters are allowed
  /// in SELECT, EXPLAIN, INSERT, UPDATE and DELETE: NotSupportedError for other statements
  /// using them.
  PreparedStatement Prepare(const std::string& sql);
  /// Runs `prepared` with `values` for its parameters ($1 is values[0]); InvalidInputError
  /// when their number differs from prepared.parameter_count.
  QueryResult Execute(const PreparedStatement& prepared, const std::vector<Value>& values);
  /// Consulted by queries for table names that are no CTE, view or table (see
  /// Binder::SetReplacementScan); null to stop.
  void SetReplacementScan(Binder::ReplacementScan scan) { replacement_scan_ = std::move(scan); }

  Settings& settings() { return settings_; }
  Database& database() { return database_; }
  /// Runs queries as one process of several (src/distributed); null (the default): alone.
  /// `scale_out` must outlive the connection.
  void SetScaleOut(ScaleOut* scale_out) { scale_out_ = scale_out; }

  /// Cancels the statement running now (from another thread or a signal handler: it only sets
  /// an atomic flag), or the next one when none runs; QueryAll clears the request when it
  /// returns. The statement fails with CancelledError at its next cancellation check.
  void Interrupt() { interrupt_.store(true, std::memory_order_relaxed); }
  void ClearInterrupt() { interrupt_.store(false, std::memory_order_relaxed); }
  /// The running query's scan progress in [0, 1] (between queries: the last query's final
  /// progress, 1 when its scans read or pruned every file); negative before the first query
  /// and for queries that scan no files. Safe to call from another thread.
  double Progress() const;

 private:
  QueryResult RunStatement(const std::string& sql, const ast::Statement& statement);
  QueryResult RunStatementHere(const std::string& sql, const ast::Statement& statement);
  /// EXECUTE name(values): the values computed, then the statement PREPARE kept.
  QueryResult ExecuteNamed(const std::string& sql, const ast::ExecuteStatement& execute);
  /// SET schema / search_path = 's': where unqualified names are looked up first and created.
  void SetSchema(const Value& value);
  /// USE db[.schema] | USE schema.
  void Use(const ast::DatabaseStatement& use);
  /// Under a ScaleOut: whether `statement` must run on one process only.
  bool RunsOnce(const ast::Statement& statement) const;
  QueryResult RunSelect(const std::string& sql, const ast::QueryNode& query);
  /// `sql`: the text `query` was parsed from, for error positions.
  QueryResult ExecuteSelect(const std::string& sql, const ast::QueryNode& query,
                            const Settings& settings);
  QueryResult RunExplain(const std::string& sql, const ast::ExplainStatement& explain);
  /// DESCRIBE of a query or a view: the names and types of its columns (bound, not run).
  QueryResult DescribeQuery(const std::string& query_sql);
  /// SUMMARIZE of a query (a table or view as SELECT * FROM it): statistics per column
  /// (summarize.cpp).
  QueryResult Summarize(const std::string& query_sql);
  /// Binds one query (not run) for its output columns; `statement` names the caller in errors.
  BoundQuery BindForColumns(const std::string& query_sql, const char* statement);
  /// Runs the plan under `root`, publishing its progress for Progress().
  void ExecuteWithProgress(ExecutionContext& context, PhysicalOperator& root);

  /// Binds and plans `query` with this connection's parameters and replacement scan.
  Plans PlanQuery(const std::string& sql, const ast::QueryNode& query, const Settings& settings);
  /// Runs a query for the binder (a PIVOT without IN reads its values first): its first column.
  std::vector<Value> FirstColumn(const std::string& sql, const Settings& settings);

  friend class Database;  // clears owns_transaction_ when it ends the transaction
  Database& database_;
  bool owns_transaction_ = false;  // BEGIN ran here and no COMMIT / ROLLBACK since
  /// A statement of this connection's transaction failed while running: every statement but
  /// COMMIT / ROLLBACK is refused until the transaction ends, and COMMIT rolls back (DuckDB's
  /// and PostgreSQL's rule).
  bool transaction_aborted_ = false;
  Settings settings_;
  /// currval's values (per connection, as DuckDB's); current while a statement runs.
  std::shared_ptr<SessionState> session_ = std::make_shared<SessionState>();
  ScaleOut* scale_out_ = nullptr;
  // The values of the statement Execute runs (null otherwise).
  const std::vector<Value>* parameters_ = nullptr;
  /// PREPARE name AS ...: this connection's named statements, for EXECUTE.
  std::map<std::string, PreparedStatement> named_statements_;
  Binder::ReplacementScan replacement_scan_;
  std::atomic<bool> interrupt_{false};
  static_assert(std::atomic<bool>::is_always_lock_free, "Interrupt must be async-signal-safe");
  // The query being executed, for Progress (null between queries).
  mutable std::mutex running_mutex_;
  const QueryProgress* running_ = nullptr;
  double last_progress_ = -1;
};

}  // namespace shears

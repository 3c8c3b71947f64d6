#include "main/connection.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <functional>

#include "catalog/staged_write.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/memory_policy.h"
#include "common/numeric_cast.h"
#include "common/string_util.h"
#include "execution/operator/physical_result_collector.h"
#include "execution/operator/physical_table_scan.h"
#include "execution/physical_planner.h"
#include "execution/pipeline.h"
#include "execution/query_context.h"
#include "execution/scale_out.h"
#include "main/catalog_statements.h"
#include "main/dml_cte.h"
#include "main/write_internal.h"
#include "main/write_statements.h"
#include "optimizer/optimizer.h"
#include "output/result_writer.h"
#include "parser/parser.h"

namespace shears {

std::vector<std::vector<std::string>> QueryResult::ToStrings() const {
  std::vector<std::vector<std::string>> out;
  if (!rows) return out;
  for (size_t b = 0; b < rows->batch_count(); b++) {
    const Batch& batch = rows->batch(b);
    for (idx_t r = 0; r < batch.size(); r++) {
      std::vector<std::string> row;
      for (idx_t c = 0; c < batch.column_count(); c++)
        row.push_back(batch.column(c).ValueToString(r));
      out.push_back(std::move(row));
    }
  }
  return out;
}

namespace {

QueryResult TextResult(const std::string& column, const std::vector<std::string>& lines) {
  QueryResult result;
  result.names = {column};
  result.types = {LogicalType::Varchar()};
  result.rows = std::make_shared<ColumnDataCollection>(result.types);
  Batch batch(result.types, std::max<idx_t>(lines.size(), 1));
  for (size_t i = 0; i < lines.size(); i++) {
    batch.column(0).data<StringRef>()[i] = batch.column(0).AddString(lines[i]);
  }
  batch.SetSize(lines.size());
  result.rows->Append(batch);
  return result;
}

}  // namespace

struct Plans {
  LogicalOperatorPtr logical;
  std::string logical_text;
  PhysicalOperatorPtr physical;
  BoundQuery bound;
};

/// Under a ScaleOut, the plan is this process's share; every process learns whether all
/// planned alike.
Plans Connection::PlanQuery(const std::string& sql, const ast::QueryNode& query,
                            const Settings& settings) {
  Plans plans;
  try {
    Binder binder(database_.catalog(), &sql);
    binder.SetDefaultNullOrder(settings.GetString("default_null_order"));
    binder.SetSettings(&settings);
    binder.SetParameters(parameters_);
    if (replacement_scan_) binder.SetReplacementScan(replacement_scan_);
    // A PIVOT without IN first reads the distinct values of its ON expressions.
    binder.SetQueryRunner(
        [this, &settings](const std::string& text) { return FirstColumn(text, settings); });
    plans.bound = binder.Bind(query);
    Optimize(plans.bound.plan, settings);
    plans.logical_text = plans.bound.plan->ToString();
    PhysicalPlanner planner;
    plans.physical = planner.Plan(*plans.bound.plan);
  } catch (const std::exception& e) {
    if (scale_out_) scale_out_->PlanFailed(e);
    throw;
  }
  if (scale_out_) plans.physical = scale_out_->Distribute(std::move(plans.physical), settings);
  return plans;
}

std::vector<Value> Connection::FirstColumn(const std::string& sql, const Settings& settings) {
  auto statements = Parser::Parse(sql);
  if (statements.size() != 1 || statements[0]->kind != ast::StatementKind::kSelect) {
    throw InternalError("FirstColumn takes one query");
  }
  const auto& select = static_cast<const ast::SelectStatement&>(*statements[0]);
  const QueryResult result = ExecuteSelect(sql, *select.query, settings);
  std::vector<Value> values;
  for (size_t b = 0; b < result.rows->batch_count(); b++) {
    const Batch& batch = result.rows->batch(b);
    for (idx_t r = 0; r < batch.size(); r++)
      values.push_back(ReadValue(batch.column(0), r));
  }
  return values;
}

namespace {

std::string FormatMillis(uint64_t nanos) {
  return fmt::format("{:.3f} ms", nanos / 1e6);
}

void DescribePhysical(const PhysicalOperator& op, ExecutionContext* context, int indent,
                      std::vector<std::string>& lines) {
  std::string line = std::string(static_cast<size_t>(indent) * 2, ' ') + op.Describe();
  if (op.estimated_rows >= 0) line += " [~" + FormatEstimate(op.estimated_rows) + " rows]";
  if (context) {
    const OperatorMetrics& metrics = context->metrics(&op);
    line += fmt::format(" (rows: {}, time: {})", metrics.rows_out.load(),
                        FormatMillis(metrics.nanos.load()));
  }
  lines.push_back(line);
  if (context) {
    for (const auto& [name, value] : op.AnalyzeDetails(*context)) {
      lines.push_back(std::string(static_cast<size_t>(indent) * 2 + 4, ' ') + name + ": " + value);
    }
  }
  for (const auto& child : op.children())
    DescribePhysical(*child, context, indent + 1, lines);
}

// Most analyze details are numbers; some are text (a join's partition filter: "exact_set+range,
// 366 distinct keys from 366 rows, ..."), which JSON needs quoted.
std::string JsonValue(const std::string& value) {
  char* end = nullptr;
  const double number = std::strtod(value.c_str(), &end);
  const bool is_number = !value.empty() &&
                         (value[0] == '-' || std::isdigit(static_cast<unsigned char>(value[0]))) &&
                         end == value.c_str() + value.size() && std::isfinite(number) &&
                         value.find_first_of("xX") == std::string::npos;
  return is_number ? value : JsonQuote(value);
}

std::string PhysicalJson(const PhysicalOperator& op, ExecutionContext* context) {
  std::string out =
      "{\"operator\":" + JsonQuote(op.name()) + ",\"details\":" + JsonQuote(op.Describe());
  if (op.estimated_rows >= 0) {
    // JSON has no infinity: an estimate that overflowed a double is null.
    out += ",\"estimated_rows\":" +
           (std::isfinite(op.estimated_rows) ? FormatEstimate(op.estimated_rows) : "null");
  }
  if (context) {
    const OperatorMetrics& metrics = context->metrics(&op);
    out += fmt::format(",\"rows\":{},\"time_ms\":{:.3f}", metrics.rows_out.load(),
                       metrics.nanos.load() / 1e6);
    for (const auto& [name, value] : op.AnalyzeDetails(*context)) {
      out += "," + JsonQuote(name) + ":" + JsonValue(value);
    }
  }
  out += ",\"children\":[";
  for (size_t i = 0; i < op.children().size(); i++) {
    out += (i ? "," : "") + PhysicalJson(*op.children()[i], context);
  }
  return out + "]}";
}

}  // namespace

namespace {
// Rows as sorted text lines: the comparison verify_dynamic_filters makes (row order is only
// defined under ORDER BY, so both sides are sorted).
std::vector<std::string> SortedRows(const QueryResult& result) {
  std::vector<std::string> rows;
  for (const auto& row : result.ToStrings()) {
    std::string line;
    for (const auto& value : row)
      line += value + '\x1f';
    rows.push_back(std::move(line));
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}
}  // namespace

Database::Database() : catalog_(Catalog::Open("")), temp_directory_(DefaultTempDirectory("")) {
  memory_policy::Apply();
}

Database::Database(const std::string& directory)
    : catalog_(Catalog::Open(directory)),
      persistent_(!directory.empty()),
      temp_directory_(DefaultTempDirectory(directory)) {
  memory_policy::Apply();
  // Spill subdirectories of processes killed while spilling into this database.
  RemoveTempLeftovers(temp_directory_);
}

Database::~Database() {
  if (transaction_owner_ != nullptr) {
    try {
      catalog_->RollbackTransaction();
    } catch (const Error&) {
    }
    transaction_owner_->owns_transaction_ = false;
    transaction_owner_ = nullptr;
  }
  // TEMP tables end with the database (in memory they would anyway; in a database directory
  // they must not outlive the process). A failure leaves them to DROP TABLE.
  for (const std::string& name : temporary_tables_) {
    try {
      if (auto location = catalog_->DropTable(name, /*if_exists=*/true)) {
        RemoveManagedFiles(*location);
      }
    } catch (const Error&) {
    }
  }
}

void Database::AddTemporaryTable(const std::string& name) {
  std::lock_guard<std::mutex> lock(temporary_mutex_);
  temporary_tables_.insert(AsciiLower(name));
}

void Database::ForgetTemporaryTable(const std::string& name) {
  std::lock_guard<std::mutex> lock(temporary_mutex_);
  temporary_tables_.erase(AsciiLower(name));
}

void Database::RenameTemporaryTable(const std::string& old_name, const std::string& new_name) {
  std::lock_guard<std::mutex> lock(temporary_mutex_);
  if (temporary_tables_.erase(AsciiLower(old_name)) > 0)
    temporary_tables_.insert(AsciiLower(new_name));
}

void Database::BeginTransaction(Connection* owner) {
  std::lock_guard<std::mutex> lock(temporary_mutex_);
  if (transaction_owner_ != nullptr) {
    throw TransactionError(transaction_owner_ == owner
                               ? "cannot start a transaction within a transaction"
                               : "another connection of this database has a transaction open");
  }
  catalog_->BeginTransaction();
  transaction_owner_ = owner;
  owner->owns_transaction_ = true;
  temporary_tables_at_begin_ = temporary_tables_;
}

void Database::CommitTransaction(const Connection* owner) {
  std::lock_guard<std::mutex> lock(temporary_mutex_);
  if (transaction_owner_ != owner) {
    throw TransactionError(transaction_owner_ == nullptr
                               ? "cannot commit - no transaction is active"
                               : "another connection of this database has a transaction open");
  }
  catalog_->CommitTransaction();  // first: a failed COMMIT leaves the transaction open
  transaction_owner_->owns_transaction_ = false;
  transaction_owner_ = nullptr;
}

void Database::RollbackTransaction(const Connection* owner) {
  std::lock_guard<std::mutex> lock(temporary_mutex_);
  if (transaction_owner_ != owner) {
    throw TransactionError(transaction_owner_ == nullptr
                               ? "cannot rollback - no transaction is active"
                               : "another connection of this database has a transaction open");
  }
  transaction_owner_->owns_transaction_ = false;
  transaction_owner_ = nullptr;
  temporary_tables_ = temporary_tables_at_begin_;
  catalog_->RollbackTransaction();
}

const Connection* Database::transaction_owner() const {
  std::lock_guard<std::mutex> lock(temporary_mutex_);
  return transaction_owner_;
}

Connection::~Connection() {
  if (!owns_transaction_) return;
  try {
    database_.RollbackTransaction(this);
  } catch (const Error&) {
  }
}

QueryResult Connection::RunSelect(const std::string& sql, const ast::QueryNode& query) {
  QueryResult result = ExecuteSelect(sql, query, settings_);
  if (settings_.GetBool("verify_dynamic_filters") && settings_.GetBool("dynamic_filtering")) {
    Settings off = settings_;
    off.Set("dynamic_filtering", Value::Boolean(false));
    QueryResult reference = ExecuteSelect(sql, query, off);
    if (SortedRows(result) != SortedRows(reference)) {
      throw InternalError(
          "verify_dynamic_filters: the query gave {} rows with dynamic filtering and {} rows "
          "without, or different values; please report this query: {}",
          result.row_count(), reference.row_count(), sql);
    }
  }
  return result;
}

double Connection::Progress() const {
  std::lock_guard<std::mutex> lock(running_mutex_);
  return running_ ? running_->Fraction() : last_progress_;
}

void Connection::ExecuteWithProgress(ExecutionContext& context, PhysicalOperator& root) {
  QueryProgress& progress = context.query().progress();
  // Every file the scans may read is planned up front, so the fraction never goes backwards
  // when a later pipeline's scan starts.
  std::function<void(const PhysicalOperator&)> plan = [&](const PhysicalOperator& op) {
    if (auto* scan = dynamic_cast<const PhysicalTableScan*>(&op))
      progress.AddPlanned(scan->PlannedBytes());
    for (const auto& child : op.children())
      plan(*child);
  };
  plan(root);
  {
    std::lock_guard<std::mutex> lock(running_mutex_);
    running_ = &progress;
  }
  struct Unregister {
    Connection& connection;
    ~Unregister() {
      std::lock_guard<std::mutex> lock(connection.running_mutex_);
      connection.last_progress_ = connection.running_->Fraction();
      connection.running_ = nullptr;
    }
  } unregister{*this};
  Executor executor(context);
  if (!scale_out_) {
    executor.Execute(root);
    return;
  }
  try {
    executor.Execute(root);
  } catch (const std::exception& e) {
    scale_out_->Fail(e);
  }
}

QueryResult Connection::ExecuteSelect(const std::string& sql, const ast::QueryNode& query,
                                      const Settings& settings) {
  Plans plans = PlanQuery(sql, query, settings);
  QueryContext query_context(settings, &interrupt_, database_.temp_directory());
  ExecutionContext context(query_context, static_cast<int>(settings.GetInt("threads")));
  auto collector = std::make_unique<PhysicalResultCollector>(plans.physical->types());
  collector->AddChild(std::move(plans.physical));
  ExecuteWithProgress(context, *collector);
  QueryResult result;
  result.names = plans.bound.names;
  result.types = plans.bound.types;
  auto& collected = PhysicalResultCollector::Result(context, *collector);
  result.rows = std::make_shared<ColumnDataCollection>(collected.types());
  result.rows->Combine(collected);
  return result;
}

BoundQuery Connection::BindForColumns(const std::string& query_sql, const char* statement) {
  auto statements = Parser::Parse(query_sql);
  if (statements.size() != 1 || statements[0]->kind != ast::StatementKind::kSelect) {
    throw ParseError("{} takes a table, a view or one query", statement);
  }
  const auto& query = *static_cast<const ast::SelectStatement&>(*statements[0]).query;
  Binder binder(database_.catalog(), &query_sql);
  binder.SetSettings(&settings_);
  binder.SetParameters(parameters_);
  if (replacement_scan_) binder.SetReplacementScan(replacement_scan_);
  binder.SetQueryRunner([this](const std::string& text) { return FirstColumn(text, settings_); });
  return binder.Bind(query);
}

QueryResult Connection::DescribeQuery(const std::string& query_sql) {
  const BoundQuery bound = BindForColumns(query_sql, "DESCRIBE");
  QueryResult result;
  result.names = {"column_name", "column_type", "partition_key"};
  result.types = {LogicalType::Varchar(), LogicalType::Varchar(), LogicalType::Boolean()};
  result.rows = std::make_shared<ColumnDataCollection>(result.types);
  Batch batch(result.types, std::max<idx_t>(bound.names.size(), 1));
  for (size_t i = 0; i < bound.names.size(); i++) {
    WriteValue(batch.column(0), i, Value::Varchar(bound.names[i]));
    WriteValue(batch.column(1), i, Value::Varchar(bound.types[i].ToString()));
    WriteValue(batch.column(2), i, Value::Boolean(false));
  }
  batch.SetSize(bound.names.size());
  result.rows->Append(batch);
  return result;
}

QueryResult Connection::RunExplain(const std::string& sql, const ast::ExplainStatement& explain) {
  if (explain.statement->kind != ast::StatementKind::kSelect) {
    throw NotSupportedError("EXPLAIN supports queries only");
  }
  const auto& query = *static_cast<const ast::SelectStatement&>(*explain.statement).query;
  Plans plans = PlanQuery(sql, query, settings_);
  std::vector<std::string> lines;
  if (!explain.analyze) {
    if (explain.json) {
      return TextResult("explain",
                        {"{\"physical_plan\":" + PhysicalJson(*plans.physical, nullptr) + "}"});
    }
    lines.push_back("Logical plan:");
    std::string text = plans.logical_text;
    size_t start = 0;
    while (start < text.size()) {
      size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      lines.push_back("  " + text.substr(start, end - start));
      start = end + 1;
    }
    if (!explain.logical_only) {
      lines.push_back("Physical plan:");
      std::vector<std::string> physical;
      DescribePhysical(*plans.physical, nullptr, 1, physical);
      lines.insert(lines.end(), physical.begin(), physical.end());
    }
    return TextResult("explain", lines);
  }
  QueryContext query_context(settings_, &interrupt_, database_.temp_directory());
  ExecutionContext context(query_context, static_cast<int>(settings_.GetInt("threads")));
  auto collector = std::make_unique<PhysicalResultCollector>(plans.physical->types());
  PhysicalOperator* root = plans.physical.get();
  collector->AddChild(std::move(plans.physical));
  auto start = clock::Now();
  ExecuteWithProgress(context, *collector);
  const double total_ms = clock::MillisSince(start);
  const idx_t rows = PhysicalResultCollector::Result(context, *collector).row_count();
  if (explain.json) {
    return TextResult("explain", {fmt::format("{{\"total_time_ms\":{:.3f},\"result_rows\":{},"
                                              "\"peak_memory_bytes\":{},\"physical_plan\":{}}}",
                                              total_ms, rows, query_context.memory().peak(),
                                              PhysicalJson(*root, &context))});
  }
  lines.push_back(fmt::format("Total time: {:.3f} ms, {} result rows, peak memory {} bytes",
                              total_ms, rows, query_context.memory().peak()));
  DescribePhysical(*root, &context, 0, lines);
  return TextResult("explain_analyze", lines);
}

QueryResult Connection::Query(const std::string& sql) {
  auto results = QueryAll(sql);
  return results.empty() ? QueryResult() : std::move(results.back());
}

std::vector<QueryResult> Connection::QueryAll(const std::string& sql) {
  // An interrupt is for the statements of this call only.
  struct ClearOnReturn {
    Connection& connection;
    ~ClearOnReturn() { connection.ClearInterrupt(); }
  } clear{*this};
  std::vector<QueryResult> results;
  for (const auto& statement : Parser::Parse(sql)) {
    const auto start = clock::Now();
    results.push_back(RunStatement(sql, *statement));
    results.back().elapsed_ms = clock::MillisSince(start);
  }
  return results;
}

namespace {

PreparedStatement MakePrepared(const std::string& sql, std::shared_ptr<const ast::Statement> stmt) {
  PreparedStatement prepared;
  prepared.sql = sql;
  prepared.parameter_count = stmt->parameter_count;
  const auto kind = stmt->kind;
  if (prepared.parameter_count > 0 && kind != ast::StatementKind::kSelect &&
      kind != ast::StatementKind::kExplain && kind != ast::StatementKind::kInsert &&
      kind != ast::StatementKind::kUpdate && kind != ast::StatementKind::kDelete) {
    throw NotSupportedError(
        "query parameters are supported in SELECT, EXPLAIN, INSERT, UPDATE and DELETE only");
  }
  if (kind == ast::StatementKind::kPrepare || kind == ast::StatementKind::kExecute ||
      kind == ast::StatementKind::kDeallocate) {
    throw NotSupportedError("a prepared statement cannot be PREPARE, EXECUTE or DEALLOCATE");
  }
  prepared.statement = std::move(stmt);
  return prepared;
}

}  // namespace

PreparedStatement Connection::Prepare(const std::string& sql) {
  auto statements = Parser::Parse(sql);
  if (statements.size() != 1) {
    throw ParseError("a prepared statement holds one statement ({} given)", statements.size());
  }
  return MakePrepared(sql, std::move(statements[0]));
}

QueryResult Connection::ExecuteNamed(const std::string& sql, const ast::ExecuteStatement& execute) {
  const auto found = named_statements_.find(execute.name);
  if (found == named_statements_.end()) {
    throw BinderError("prepared statement '{}' does not exist (PREPARE {} AS ... first)",
                      execute.name, execute.name);
  }
  const PreparedStatement prepared = found->second;  // a copy: the statement may DEALLOCATE
  std::vector<Value> values;
  if (execute.values) {
    SessionState::Scope session_scope(session_);
    const QueryResult row = ExecuteSelect(sql, *execute.values, settings_);
    const Batch& batch = row.rows->batch(0);
    for (size_t c = 0; c < batch.column_count(); c++)
      values.push_back(ReadValue(batch.column(c), 0));
  }
  if (values.size() != static_cast<size_t>(prepared.parameter_count)) {
    throw InvalidInputError("prepared statement '{}' takes {} value{}, {} given", execute.name,
                            prepared.parameter_count, prepared.parameter_count == 1 ? "" : "s",
                            values.size());
  }
  return Execute(prepared, values);
}

QueryResult Connection::Execute(const PreparedStatement& prepared,
                                const std::vector<Value>& values) {
  if (values.size() != static_cast<size_t>(prepared.parameter_count)) {
    throw InvalidInputError("the statement takes {} parameter values, {} given",
                            prepared.parameter_count, values.size());
  }
  struct Reset {
    Connection& connection;
    ~Reset() {
      connection.parameters_ = nullptr;
      connection.session_->SetParameters(nullptr);
      connection.ClearInterrupt();
    }
  } reset{*this};
  parameters_ = &values;
  session_->SetParameters(&values);
  const auto start = clock::Now();
  QueryResult result = RunStatement(prepared.sql, *prepared.statement);
  result.elapsed_ms = clock::MillisSince(start);
  return result;
}

bool Connection::RunsOnce(const ast::Statement& statement) const {
  switch (statement.kind) {
    case ast::StatementKind::kCreateView:
    case ast::StatementKind::kDropView:
    case ast::StatementKind::kCreateExternalTable:
    case ast::StatementKind::kDropTable:
    case ast::StatementKind::kTableCommand:
    case ast::StatementKind::kCreateTable:
    case ast::StatementKind::kInsert:
    case ast::StatementKind::kCreateSequence:
    case ast::StatementKind::kDropSequence:
    case ast::StatementKind::kCreateMacro:
    case ast::StatementKind::kDropMacro:
    case ast::StatementKind::kCreateSchema:
    case ast::StatementKind::kDropSchema:
    case ast::StatementKind::kAlterTable:
      // A catalog on disk is shared: one process changes it. In memory each process keeps
      // its own catalog (and managed tables), which all must change alike.
      return database_.persistent();
    case ast::StatementKind::kCopy:
      return database_.persistent() || !static_cast<const ast::CopyStatement&>(statement).is_from;
    default:
      return false;
  }
}

namespace {

/// Whether a failed statement aborts the transaction it ran in: errors found before anything
/// ran (malformed SQL, unknown names, features shears lacks) leave it going, as in DuckDB; any
/// other (a constraint, a conversion, an IO error, a cancel) may have left the statement's work
/// half done, so the transaction can only be rolled back.
bool AbortsTransaction(ErrorKind kind) {
  return kind != ErrorKind::kParse && kind != ErrorKind::kBinder &&
         kind != ErrorKind::kNotSupported;
}

}  // namespace

QueryResult Connection::RunStatement(const std::string& sql, const ast::Statement& statement) {
  if (!owns_transaction_) transaction_aborted_ = false;
  if (transaction_aborted_) {
    if (statement.kind != ast::StatementKind::kTransaction ||
        static_cast<const ast::TransactionStatement&>(statement).action ==
            ast::TransactionStatement::Action::kBegin) {
      throw TransactionError("Current transaction is aborted (please ROLLBACK)");
    }
    // COMMIT of an aborted transaction is its ROLLBACK.
    database_.RollbackTransaction(this);
    transaction_aborted_ = false;
    return QueryResult();
  }
  try {
    if (statement.kind == ast::StatementKind::kExecute) {
      return ExecuteNamed(sql, static_cast<const ast::ExecuteStatement&>(statement));
    }
    if (!scale_out_ || !RunsOnce(statement)) return RunStatementHere(sql, statement);
    QueryResult result;
    scale_out_->RunOnce([&] { result = RunStatementHere(sql, statement); });
    return result;
  } catch (const Error& e) {
    if (owns_transaction_ && AbortsTransaction(e.kind())) transaction_aborted_ = true;
    throw;
  }
}

namespace {

/// Statements that change nothing: other connections may run them while one has a
/// transaction open (seeing its changes: the catalog is one SQLite connection).
bool ReadsOnly(const ast::Statement& statement) {
  switch (statement.kind) {
    case ast::StatementKind::kSelect:
      return !HasDmlCte(statement);
    case ast::StatementKind::kExplain:
    case ast::StatementKind::kSet:
    case ast::StatementKind::kReset:
    case ast::StatementKind::kShow:
    case ast::StatementKind::kShowTables:
    case ast::StatementKind::kShowIndexes:
    case ast::StatementKind::kShowDatabases:
    case ast::StatementKind::kUse:
    case ast::StatementKind::kCheckpoint:
    case ast::StatementKind::kPrepare:
    case ast::StatementKind::kDeallocate:
      return true;
    case ast::StatementKind::kTableCommand: {
      const auto command = static_cast<const ast::TableCommandStatement&>(statement).command;
      return command != ast::TableCommandStatement::Command::kRecoverPartitions &&
             command != ast::TableCommandStatement::Command::kAnalyze;
    }
    default:
      return false;
  }
}

}  // namespace

void Connection::SetSchema(const Value& value) {
  std::string schema =
      AsciiLower(TrimWhitespace(value.is_null() ? std::string() : value.ToString()));
  if (schema.find(',') != std::string::npos) {
    throw NotSupportedError(
        "a search_path of several schemas is not supported (name one: unqualified names find "
        "its objects, then main's)");
  }
  if (schema.find('.') != std::string::npos) {
    throw NotSupportedError(
        "SET schema takes a schema of the current database (USE db.{} "
        "changes the database too)",
        schema.substr(schema.find('.') + 1));
  }
  // The current database's schema (USE db): the catalog "s.x" names reaches.
  if (!database_.catalog().CatalogOf(schema + ".x").SchemaExists(schema)) {
    throw BinderError("schema '{}' does not exist (CREATE SCHEMA {} first)", schema, schema);
  }
  session_->SetCurrentSchema(schema);
}

void Connection::Use(const ast::DatabaseStatement& use) {
  Catalog& catalog = database_.catalog();
  std::string database = use.name, schema = use.schema;
  if (schema.empty()) {
    // USE x: a database, else a schema of the current database (as DuckDB).
    if (!catalog.DatabaseExists(database)) {
      schema = database;
      database = session_->current_database();
      if (database.empty()) database = catalog.database_name();
    } else {
      schema = "main";
    }
  }
  if (!catalog.DatabaseExists(database)) {
    throw BinderError("database '{}' does not exist (SHOW DATABASES lists them)", use.name);
  }
  const std::string current = database == catalog.database_name() ? "" : database;
  const std::string previous = session_->current_database();
  session_->SetCurrentDatabase(current);
  if (!catalog.CatalogOf(schema + ".x").SchemaExists(schema)) {
    session_->SetCurrentDatabase(previous);
    if (use.schema.empty()) {
      throw BinderError(
          "no database or schema '{}' exists (SHOW DATABASES lists the databases, "
          "information_schema.schemata the schemas)",
          use.name);
    }
    throw BinderError("schema '{}' does not exist in database '{}'", schema, database);
  }
  session_->SetCurrentSchema(schema);
}

QueryResult Connection::RunStatementHere(const std::string& sql,
                                         const ast::Statement& statement_ref) {
  SessionState::Scope session_scope(session_);
  // Memory freed by this statement stays with the allocator for reuse; the last statement of
  // the process to end returns it past the limit.
  memory_policy::StatementScope memory_scope(settings_.GetInt("allocator_retain_limit"),
                                             settings_.GetInt("allocator_release_delay"));
  QueryResult result;
  const ast::Statement* statement = &statement_ref;
  ast::StatementPtr without_writes;  // the statement once its WITH's writes ran
  if (const Connection* owner = database_.transaction_owner()) {
    if (owner != this && !ReadsOnly(*statement) &&
        statement->kind != ast::StatementKind::kTransaction) {
      throw TransactionError(
          "another connection of this database has a transaction open; this statement would "
          "join it (run it after that connection's COMMIT or ROLLBACK)");
    }
    // Files COPY writes cannot be taken back by a ROLLBACK (docs/transactions.md).
    if (owner == this && statement->kind == ast::StatementKind::kCopy &&
        !static_cast<const ast::CopyStatement&>(*statement).is_from) {
      throw TransactionError(
          "COPY ... TO inside a transaction is not supported: a ROLLBACK could not take back "
          "the files it writes (COMMIT or ROLLBACK first)");
    }
  }
  if (HasDmlCte(*statement)) {
    if (scale_out_) {
      throw NotSupportedError(
          "INSERT, UPDATE or DELETE in WITH is not supported in distributed queries");
    }
    without_writes = RunDmlCtes(database_, settings_, sql, *statement);
    statement = without_writes.get();
  }
  {
    switch (statement->kind) {
      case ast::StatementKind::kTransaction: {
        if (scale_out_) {
          throw NotSupportedError("transactions are not supported in distributed queries");
        }
        switch (static_cast<const ast::TransactionStatement&>(*statement).action) {
          case ast::TransactionStatement::Action::kBegin:
            database_.BeginTransaction(this);
            break;
          case ast::TransactionStatement::Action::kCommit:
            database_.CommitTransaction(this);
            break;
          case ast::TransactionStatement::Action::kRollback:
            database_.RollbackTransaction(this);
            break;
        }
        result = QueryResult();
        break;
      }
      case ast::StatementKind::kSelect:
        result = RunSelect(sql, *static_cast<const ast::SelectStatement&>(*statement).query);
        break;
      case ast::StatementKind::kUse:
        Use(static_cast<const ast::DatabaseStatement&>(*statement));
        result = QueryResult();
        break;
      case ast::StatementKind::kPrepare: {
        const auto& prepare = static_cast<const ast::PrepareStatement&>(*statement);
        named_statements_[prepare.name] = MakePrepared(sql, prepare.statement);  // replaces
        result = QueryResult();
        break;
      }
      case ast::StatementKind::kExecute:  // RunStatement runs it (callers go through it)
        result = ExecuteNamed(sql, static_cast<const ast::ExecuteStatement&>(*statement));
        break;
      case ast::StatementKind::kDeallocate: {
        const std::string& name = static_cast<const ast::DeallocateStatement&>(*statement).name;
        if (name.empty()) {
          named_statements_.clear();
        } else if (named_statements_.erase(name) == 0) {
          throw BinderError("prepared statement '{}' does not exist", name);
        }
        result = QueryResult();
        break;
      }
      case ast::StatementKind::kExplain:
        result = RunExplain(sql, static_cast<const ast::ExplainStatement&>(*statement));
        break;
      case ast::StatementKind::kSet: {
        auto& set = static_cast<const ast::SetStatement&>(*statement);
        if (set.name == "schema" || set.name == "search_path") {
          SetSchema(set.value);
          result = QueryResult();
          break;
        }
        const Settings before = settings_;
        settings_.Set(set.name, set.value);
        try {
          // Checked now, not by the next query: a bad rule name must not break the session.
          DisabledOptimizers(settings_.GetString("disabled_optimizers"));
        } catch (...) {
          settings_ = before;
          throw;
        }
        result = QueryResult();
        break;
      }
      case ast::StatementKind::kReset:
        if (const auto& name = static_cast<const ast::ResetStatement&>(*statement).name;
            name == "schema" || name == "search_path" || name == "all") {
          session_->SetCurrentSchema("main");
          if (name != "all") {
            result = QueryResult();
            break;
          }
        }
        settings_.Reset(static_cast<const ast::ResetStatement&>(*statement).name);
        result = QueryResult();
        break;
      case ast::StatementKind::kShow: {
        auto& show = static_cast<const ast::ShowStatement&>(*statement);
        if (show.name == "schema" || show.name == "search_path") {
          result = TextResult(show.name, {session_->current_schema()});
        } else if (show.name == "all") {
          std::vector<std::string> lines;
          for (const auto& info : Settings::All()) {
            lines.push_back(info.name + " = " + settings_.Get(info.name).ToString());
          }
          result = TextResult("setting", lines);
        } else {
          result = TextResult(show.name, {settings_.Get(show.name).ToString()});
        }
        break;
      }
      case ast::StatementKind::kCreateView: {
        auto& view = static_cast<const ast::CreateViewStatement&>(*statement);
        // Bind once now so a broken view is reported at CREATE time; its paths only up to
        // their first file (the queries using the view list them).
        Binder binder(database_.catalog(), &sql);
        binder.SetCheckOnly(true);
        binder.SetSettings(&settings_);
        binder.Bind(*view.query);
        database_.catalog().CreateView(view.name, {view.sql, view.column_aliases}, view.or_replace);
        result = QueryResult();
        break;
      }
      case ast::StatementKind::kDropView: {
        auto& drop = static_cast<const ast::DropViewStatement&>(*statement);
        database_.catalog().DropView(drop.name, drop.if_exists);
        result = QueryResult();
        break;
      }
      case ast::StatementKind::kTableCommand: {
        const auto& command = static_cast<const ast::TableCommandStatement&>(*statement);
        if (command.command == ast::TableCommandStatement::Command::kSummarize) {
          const std::string query_sql =
              command.query_sql.empty()
                  ? "SELECT * FROM " + write_internal::QuoteIdentifier(command.name)
                  : command.query_sql;
          try {
            result = Summarize(query_sql);
          } catch (const Error& e) {
            if (!e.IsUserError()) throw;
            const std::string message = e.what();
            ThrowError(e.kind(), message.substr(0, message.find("\nLINE ")) + "\n" +
                                     FormatErrorPosition(sql, command.query_sql.empty()
                                                                  ? command.name_location
                                                                  : command.query_location));
          }
          break;
        }
        if (command.command == ast::TableCommandStatement::Command::kDescribe) {
          if (!command.query_sql.empty()) {
            try {
              result = DescribeQuery(command.query_sql);
            } catch (const Error& e) {
              if (!e.IsUserError()) throw;
              // The position is in the query's own text: point at its start in the statement.
              const std::string message = e.what();
              ThrowError(e.kind(), message.substr(0, message.find("\nLINE ")) + "\n" +
                                       FormatErrorPosition(sql, command.query_location));
            }
            break;
          }
          // A view has no table definition: its columns are its query's.
          if (!database_.catalog().FindTable(command.name) &&
              database_.catalog().FindView(command.name)) {
            result =
                DescribeQuery("SELECT * FROM " + write_internal::QuoteIdentifier(command.name));
            break;
          }
        }
        result = RunCatalogStatement(database_.catalog(), sql, *statement);
        break;
      }
      case ast::StatementKind::kCreateExternalTable:
      case ast::StatementKind::kDropTable:
      case ast::StatementKind::kShowTables:
      case ast::StatementKind::kDropIndex:
      case ast::StatementKind::kShowIndexes:
      case ast::StatementKind::kCreateSequence:
      case ast::StatementKind::kDropSequence:
      case ast::StatementKind::kCreateMacro:
      case ast::StatementKind::kDropMacro:
      case ast::StatementKind::kCreateSchema:
      case ast::StatementKind::kDropSchema:
      case ast::StatementKind::kAttach:
      case ast::StatementKind::kDetach:
      case ast::StatementKind::kShowDatabases:
      case ast::StatementKind::kCheckpoint:
        result = RunCatalogStatement(database_.catalog(), sql, *statement);
        if (statement->kind == ast::StatementKind::kDropTable) {
          database_.ForgetTemporaryTable(
              static_cast<const ast::DropTableStatement&>(*statement).name);
        }
        break;
      case ast::StatementKind::kCopy:
      case ast::StatementKind::kCreateTable:
      case ast::StatementKind::kInsert:
      case ast::StatementKind::kCreateIndex:
      case ast::StatementKind::kUpdate:
      case ast::StatementKind::kDelete:
      case ast::StatementKind::kAlterTable:
        result = RunWriteStatement(database_, settings_, sql, *statement);
        break;
    }
  }
  return result;
}

}  // namespace shears

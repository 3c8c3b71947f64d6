#pragma once
// Internal to the write statements: what write_statements.cpp (COPY and the dispatch),
// write_tables.cpp (CREATE TABLE, INSERT, CREATE INDEX), write_constraints.cpp (NOT NULL,
// keys, CHECK) and update_delete.cpp (UPDATE, DELETE, INSERT ... ON CONFLICT) share.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "execution/operator/physical_parquet_write.h"
#include "execution/physical_planner.h"
#include "execution/pipeline.h"
#include "execution/query_context.h"
#include "main/connection.h"
#include "optimizer/optimizer.h"
#include "parser/ast.h"
#include "planner/binder.h"

namespace shears::write_internal {

/// Records a write's files in the catalog: the commit point of WriteManaged.
using CommitFn = std::function<void(std::vector<CatalogPartition>)>;

/// Rows, files and partitions written: the result of every write statement.
QueryResult WriteSummary(const Settings& settings, const std::vector<WrittenPartFile>& files);

/// A query bound for writing; the binder stays, to hand out table indexes for projections.
struct BoundWrite {
  std::unique_ptr<Binder> binder;
  BoundQuery query;
};

/// `values_types`: for INSERT ... VALUES, the types of the columns written, which the VALUES
/// list takes (each value cast to its column's type); null otherwise.
BoundWrite BindWrite(const Catalog& catalog, const Settings& settings, const std::string& sql,
                     const ast::QueryNode& query,
                     const std::vector<LogicalType>* values_types = nullptr);

/// The query's column `i`, for the expressions of a projection above it.
BoundExprPtr QueryColumn(const BoundWrite& write, size_t i);

/// Puts a projection computing `exprs` (named `names`) on top of the query.
void Project(BoundWrite& write, std::vector<BoundExprPtr> exprs, std::vector<std::string> names);

/// Casts the query's columns to the types of the columns they are written to.
void CastForWrite(BoundWrite& write, const std::vector<LogicalType>& types,
                  const std::vector<std::string>& names);

/// Optimizes and runs the bound query into `sink`; then `done(context)` reads what it wrote.
template <typename Done>
auto ExecuteInto(BoundQuery bound, const Settings& settings, PhysicalOperatorPtr sink, Done done) {
  Optimize(bound.plan, settings);
  PhysicalPlanner planner;
  sink->AddChild(planner.Plan(*bound.plan));
  QueryContext query_context(settings);
  ExecutionContext context(query_context, static_cast<int>(settings.GetInt("threads")));
  Executor executor(context);
  executor.Execute(*sink);
  return done(context, *sink);
}

/// Optimizes and runs the bound query into a PARQUET_WRITE sink; the files it wrote.
std::vector<WrittenPartFile> ExecuteWrite(BoundQuery bound, const Settings& settings,
                                          ParquetWriteSpec spec);

/// Index of `name` (case-insensitive) among `names`, or -1.
int FindName(const std::vector<std::string>& names, const std::string& name);

QueryResult RunCopy(Database& database, const Settings& settings, const std::string& sql,
                    const ast::CopyStatement& copy);

/// Wraps the NOT NULL columns of `table` (the query's columns, in table order) in CheckNotNull.
void ProjectNotNullChecks(BoundWrite& write, const TableDefinition& table);

std::string QuoteIdentifier(const std::string& name);

/// The first key value of `columns` that two rows of `source` share (the FROM clause of a
/// query over the table's columns), rows with a NULL in the key exempt (SQL's rule for
/// UNIQUE); nullopt when there is none. Runs as a query: a scan of the key columns.
std::optional<std::vector<std::string>> FindDuplicateKey(Database& database,
                                                         const Settings& settings,
                                                         const TableDefinition& table,
                                                         const std::vector<int>& key_columns,
                                                         const std::string& source);

/// What a duplicate of `values` in `key_columns` violates, as the error says it.
[[noreturn]] void ThrowDuplicate(const TableDefinition& table, const std::vector<int>& key_columns,
                                 const std::vector<std::string>& values, const std::string& what,
                                 const std::string& consequence);

/// Checks each PRIMARY KEY, UNIQUE and UNIQUE index of `table` over the rows of the files just
/// written to `staged_directory` (not yet visible), plus the committed rows unless `replacing`
/// (UPDATE and DELETE write the whole table anew): ConstraintError naming the first duplicate.
void CheckKeys(Database& database, const Settings& settings, const TableDefinition& table,
               const std::string& staged_directory, bool replacing);

/// Checks each CHECK constraint of `table` over the staged rows: ConstraintError when a row
/// makes one FALSE (NULL passes, as in SQL). One query per constraint.
void CheckChecks(Database& database, const Settings& settings, const TableDefinition& table,
                 const std::string& staged_directory);

/// A CHECK expression must bind over the table's columns and be BOOLEAN: tried at CREATE TABLE
/// on no rows (BinderError otherwise).
void ValidateChecks(Database& database, const TableDefinition& table);

/// Writes `bound` (columns in table order) into a staged write for table `table` and commits
/// with `commit` (which records the files in the catalog). `replaced` (paths relative to the
/// location): files the write replaces (UPDATE, DELETE), deleted once the commit is done.
std::vector<WrittenPartFile> WriteManaged(Database& database, const Settings& settings,
                                          BoundQuery bound, const TableDefinition& table,
                                          const std::string& statement, const CommitFn& commit,
                                          const std::vector<std::string>* replaced = nullptr);

QueryResult RunCreateTable(Database& database, const Settings& settings, const std::string& sql,
                           const ast::CreateTableStatement& create);

QueryResult RunInsert(Database& database, const Settings& settings, const std::string& sql,
                      const ast::InsertStatement& insert);

/// The managed or external table a statement names: BinderError naming the position when it
/// is a view or missing.
TableDefinition RequireTable(const Catalog& catalog, const std::string& sql,
                             const std::string& name, int location, const char* action);

/// ALTER TABLE and ALTER VIEW (alter_table.cpp).
QueryResult RunAlterTable(Database& database, const Settings& settings, const std::string& sql,
                          const ast::AlterTableStatement& alter);

QueryResult RunCreateIndex(Database& database, const Settings& settings, const std::string& sql,
                           const ast::CreateIndexStatement& create);

QueryResult RunUpdate(Database& database, const Settings& settings, const std::string& sql,
                      const ast::UpdateStatement& update);

QueryResult RunDelete(Database& database, const Settings& settings, const std::string& sql,
                      const ast::DeleteStatement& remove);

ast::QueryNodePtr DoNothingQuery(const Catalog& catalog, const Settings& settings,
                                 const std::string& sql, const TableDefinition& table,
                                 const ast::InsertStatement& insert);

QueryResult RunInsertDoUpdate(Database& database, const Settings& settings, const std::string& sql,
                              const TableDefinition& table, const ast::InsertStatement& insert);

// ---- RETURNING (returning.cpp)

/// SELECT * FROM (VALUES ...) AS v(names): `rows` as a query, each value a constant of its
/// column's type (no rows: a typed empty SELECT).
ast::QueryNodePtr RowsAsQuery(const ColumnDataCollection& rows,
                              const std::vector<std::string>& names);

/// A table's name without its schema, the name its rows answer to (s.t answers to t).
std::string ShortName(const TableDefinition& table);

/// SELECT items FROM from [WHERE where], run into memory: a write's RETURNING result.
QueryResult RunReturning(const Catalog& catalog, const Settings& settings, const std::string& sql,
                         std::vector<ast::SelectItem> items, ast::TableRefPtr from,
                         ast::ExprPtr where);

/// NotSupportedError when `query` (a write's new rows) calls a volatile function: RETURNING,
/// computed apart from the write, could show other values.
void RejectVolatile(const Catalog& catalog, const Settings& settings, const std::string& sql,
                    const ast::QueryNode& query, const char* statement);

/// INSERT ... RETURNING: `bound` (the rows, in table order, checked) computed once into
/// memory, written, and read by the RETURNING items.
QueryResult InsertReturning(Database& database, const Settings& settings, const std::string& sql,
                            const TableDefinition& table, const ast::InsertStatement& insert,
                            BoundWrite bound);

// ---- AST building blocks of the statements rewritten into queries (update_delete.cpp)

/// A fresh copy of `statement` (the AST has no deep copy): its text parsed again, the rest of
/// `sql` blanked so offsets stay the user's and other statements are not parsed again.
ast::StatementPtr Reparse(const std::string& sql, const ast::Statement& statement);
ast::ExprPtr ColumnRef(const std::string& relation, const std::string& column);
ast::ExprPtr Constant(Value value);
/// CAST(expr AS type), the type spelled as the binder reads it back.
ast::ExprPtr CastAst(ast::ExprPtr expr, const LogicalType& type);
/// (query) AS alias [(column_aliases)].
std::unique_ptr<ast::SubqueryRef> DerivedAst(ast::QueryNodePtr query, const std::string& alias,
                                             std::vector<std::string> column_aliases = {});
/// The "columns given / written" error before the inserted rows get `columns` as names (an
/// alias count error would name an internal table).
void CheckInsertWidth(const Catalog& catalog, const Settings& settings, const std::string& sql,
                      const ast::InsertStatement& insert, const std::vector<std::string>& columns);

// ---- DEFAULT (write_defaults.cpp)

/// The DEFAULT of `table`'s column `column` as an expression to bind: CAST((default) AS type),
/// or a NULL of the column's type when it has none.
ast::ExprPtr DefaultValueAst(const TableDefinition& table, size_t column);

/// Whether ApplyInsertDefaults would change `insert`.
bool InsertNeedsDefaults(const TableDefinition& table, const ast::InsertStatement& insert);

/// Fills the table's defaults into `insert`: DEFAULT VALUES becomes a row of every column's
/// default, DEFAULT in a VALUES row the column's default, and the columns an INSERT with a
/// column list leaves out that have a DEFAULT are added to the list, computed per row.
void ApplyInsertDefaults(const Catalog& catalog, const Settings& settings, const std::string& sql,
                         const TableDefinition& table, ast::InsertStatement& insert);

/// What a DEFAULT (or, `generated`, a generated column's expression) may not contain, as
/// DuckDB's errors say it ("" when nothing).
std::string ForbiddenInColumnExpression(const ast::Expr& expr, bool generated);

/// Checks the DEFAULTs of a new table: expressions without columns, subqueries, aggregates or
/// window functions, whose type casts to the column's (BinderError otherwise); constant ones
/// are computed once, so that a value that does not convert fails at CREATE TABLE.
void ValidateDefaults(Database& database, const Settings& settings, const TableDefinition& table);

/// `SELECT cols FROM read_parquet(staged_directory)`: the rows of a staged write in the table's
/// types; with an empty `staged_directory` (nothing written), no rows.
std::string StagedRows(const TableDefinition& table, const std::string& staged_directory);

// ---- FOREIGN KEY (write_foreign_keys.cpp)

/// CREATE TABLE's foreign keys: the referenced table exists (or is `table` itself) and the
/// referenced columns (its PRIMARY KEY when not given) are a PRIMARY KEY or UNIQUE key of it.
void ResolveForeignKeys(Catalog& catalog, const std::string& sql,
                        const ast::CreateTableStatement& create, TableDefinition& table);

/// A write to `table` staged in `staged_directory` ("" when it wrote no rows): each new row's
/// foreign keys find their parent rows, and (`replacing`: the staged rows are the whole new
/// table) no row of a table referencing this one loses its parent. ConstraintError otherwise.
void CheckForeignKeys(Database& database, const Settings& settings, const TableDefinition& table,
                      const std::string& staged_directory, bool replacing);

// ---- generated columns (write_generated.cpp)

/// CREATE TABLE's generated columns: each one expression without subqueries, aggregates,
/// window functions or volatile calls, reading columns of the table, not in a circle
/// (BinderError otherwise); those without a type take their expression's.
void ResolveGeneratedColumns(Database& database, const Settings& settings, TableDefinition& table);

/// The index into table.generated of the column named `name`, or -1.
int FindGenerated(const TableDefinition& table, const std::string& name);

/// BinderError when an INSERT's column list names a generated column.
void RejectGeneratedInsert(const TableDefinition& table, const std::vector<std::string>& columns);

/// BinderError when UPDATE ... SET assigns a generated column.
void RejectGeneratedUpdate(const TableDefinition& table, const std::string& column);

/// Before stored column `column` (an index into table.columns) is dropped: the generated columns
/// after it move up one position.
void CloseStoredPosition(TableDefinition& table, size_t column);

/// RENAME COLUMN `from` TO `to` of a stored column: the generated columns' expressions name
/// the new one (NotSupportedError when one names it qualified).
void RenameInGenerated(TableDefinition& table, const std::string& from, const std::string& to);

/// ALTER TABLE on a generated column (DROP, RENAME: the new definition, a catalog change only;
/// others a BinderError) or on a stored column a generated one reads (DROP, RENAME, TYPE: an
/// error naming it); nullopt when the statement goes on as for any column.
std::optional<TableDefinition> AlterGenerated(const TableDefinition& table,
                                              const ast::AlterTableStatement& alter,
                                              const std::string& at);

}  // namespace shears::write_internal

#pragma once
// The shears AST: what the parser produces from SQL text and the binder consumes. It is
// independent of the parsing library (libpg_query): names are unresolved, types are spelled
// as written. Every node keeps the byte offset of its text in the query (-1 when unknown) so
// errors can point at it.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/value.h"

namespace shears::ast {

// ---------------------------------------------------------------- expressions

enum class ExprKind {
  kColumnRef,  // a, t.a
  kStar,       // *, t.*
  kConstant,   // 1, 2.5, 'x', NULL, TRUE
  kOperator,   // binary/unary operators and AND/OR/NOT
  kFunction,   // f(args), count(*), count(DISTINCT x), EXTRACT, SUBSTRING, TRIM, ...
  kCast,       // CAST(x AS t), x::t, DATE 'literal'
  kCase,       // CASE [x] WHEN ... THEN ... [ELSE ...] END
  kSubquery,   // (SELECT ...), EXISTS (...), x IN (SELECT ...), x op ANY/ALL (SELECT ...)
  kInList,     // x [NOT] IN (a, b, c)
  kBetween,    // x [NOT] BETWEEN a AND b
  kLike,       // x [NOT] LIKE/ILIKE p [ESCAPE e]
  kIsNull,     // x IS [NOT] NULL
  kIsBool,     // x IS [NOT] TRUE/FALSE
  kInterval,   // INTERVAL '3 days', INTERVAL 3 DAY
  kParameter,  // $1, ? (numbered $1, $2, ... by the parser): a prepared statement's value
  kDefault,    // DEFAULT in INSERT ... VALUES and UPDATE ... SET: the column's default
};

struct Expr {
  explicit Expr(ExprKind k, int loc = -1) : kind(k), location(loc) {}
  virtual ~Expr() = default;
  /// SQL-like text of the expression, used in tests, error messages and column names.
  virtual std::string ToString() const = 0;

  ExprKind kind;
  int location;
};
using ExprPtr = std::unique_ptr<Expr>;

struct ColumnRefExpr : Expr {
  ColumnRefExpr() : Expr(ExprKind::kColumnRef) {}
  std::vector<std::string> names;  // [column] or [table, column] (lower-cased unless quoted)
  std::string ToString() const override;
};

struct StarExpr : Expr {
  StarExpr() : Expr(ExprKind::kStar) {}
  std::string relation;  // empty for a bare *
  /// DuckDB's * EXCLUDE (a, b): columns left out; * REPLACE (expr AS a): a column's new value.
  std::vector<std::string> exclude;
  std::vector<std::pair<std::string, ExprPtr>> replace;
  std::string ToString() const override;
};

struct ConstantExpr : Expr {
  ConstantExpr() : Expr(ExprKind::kConstant) {}
  /// Integers are INTEGER when they fit 32 bits, else BIGINT, else DECIMAL(38,0) up to 38
  /// digits; numbers with a point or exponent are DECIMAL(p,s) as written ("2.50" ->
  /// DECIMAL(3,2)), or DOUBLE when they have an exponent or exceed 38 digits; strings are
  /// VARCHAR; NULL is a NULL of invalid type (typed by the binder).
  Value value;
  std::string ToString() const override;
};

struct OperatorExpr : Expr {
  OperatorExpr() : Expr(ExprKind::kOperator) {}
  /// One of: + - * / % || = <> < <= > >= AND OR NOT, and unary "-" / "+" (one child).
  /// AND/OR chains are flattened: AND(a, b, c).
  std::string op;
  std::vector<ExprPtr> children;
  std::string ToString() const override;
};

/// The functions whose second argument is a lambda (`x -> x + 1`, `(acc, x) -> acc + x`),
/// which the parser turns into an OperatorExpr "lambda": the parameters as one-name column
/// references, then the body.
bool IsLambdaFunction(const std::string& name);

struct WindowSpec;

struct OrderByItem;

struct FunctionExpr : Expr {
  // Out of line, as the destructor: `order_by` holds OrderByItem, complete only below.
  FunctionExpr();
  ~FunctionExpr() override;
  std::string name;  // lower-case; "extract" gets the field as a first VARCHAR constant
  std::vector<ExprPtr> args;
  bool distinct = false;  // count(DISTINCT x)
  bool star = false;      // count(*)
  ExprPtr filter;         // aggregate FILTER (WHERE ...); null when absent
  /// string_agg(x, ',' ORDER BY y), and the ORDER BY of WITHIN GROUP (ORDER BY x)
  /// (`within_group`: percentile_cont(0.5) WITHIN GROUP (ORDER BY x)).
  std::vector<OrderByItem> order_by;
  bool within_group = false;
  /// f(...) OVER (...): a window function call (null for plain calls).
  std::unique_ptr<WindowSpec> over;
  /// first_value(x IGNORE NULLS), lag(x IGNORE NULLS) (DuckDB's place for the clause).
  bool ignore_nulls = false;
  /// f(a, name := value) (also name => value): named arguments, taken by macros.
  std::vector<std::pair<std::string, ExprPtr>> named_args;
  std::string ToString() const override;

 private:
  std::string CallText() const;  // without FILTER and OVER
};

/// A type as written: name lower-cased without schema ("integer", "int4", "varchar",
/// "numeric", "timestamp", ...), modifiers such as precision and scale; "struct" with its
/// fields' names and types in field_names / children, "map" with its key and value types.
struct TypeName {
  std::string name;
  std::vector<int> modifiers;
  /// How many [] follow: 1 for INTEGER[], 2 for INTEGER[][].
  int array_depth = 0;
  std::vector<std::string> field_names;
  std::vector<TypeName> children;
  int location = -1;
  std::string ToString() const;
};

struct CastExpr : Expr {
  CastExpr() : Expr(ExprKind::kCast) {}
  ExprPtr child;
  TypeName type;
  bool try_cast = false;
  std::string ToString() const override;
};

struct CaseExpr : Expr {
  CaseExpr() : Expr(ExprKind::kCase) {}
  ExprPtr operand;  // CASE operand WHEN ... (null for searched CASE)
  std::vector<std::pair<ExprPtr, ExprPtr>> when_then;
  ExprPtr else_expr;  // may be null
  std::string ToString() const override;
};

struct QueryNode;
using QueryNodePtr = std::unique_ptr<QueryNode>;

enum class SubqueryKind {
  kScalar,  // (SELECT x ...)
  kExists,  // EXISTS (SELECT ...)
  kAny,     // x IN (SELECT ...) is kAny with op "="; x op ANY (SELECT ...)
  kAll,     // x op ALL (SELECT ...)
};

/// The alias of the subquery a row IN (SELECT ...) is rewritten over (Transformer::TransformRowIn):
/// its column count must be the row's.
inline constexpr const char* kRowInAlias = "__shears_row_in";
/// The alias of the subquery of ARRAY(SELECT ...) (Transformer::TransformArraySubquery): it must
/// have one column.
inline constexpr const char* kArraySubqueryAlias = "__shears_array";

struct SubqueryExpr : Expr {
  SubqueryExpr() : Expr(ExprKind::kSubquery) {}
  SubqueryKind subquery_kind = SubqueryKind::kScalar;
  QueryNodePtr query;
  ExprPtr left;          // kAny / kAll
  std::string op;        // kAny / kAll: "=", "<", ...
  bool negated = false;  // NOT EXISTS / NOT IN
  std::string ToString() const override;
};

struct InListExpr : Expr {
  InListExpr() : Expr(ExprKind::kInList) {}
  ExprPtr value;
  std::vector<ExprPtr> list;
  bool negated = false;
  std::string ToString() const override;
};

struct BetweenExpr : Expr {
  BetweenExpr() : Expr(ExprKind::kBetween) {}
  ExprPtr value, low, high;
  bool negated = false;
  std::string ToString() const override;
};

struct LikeExpr : Expr {
  LikeExpr() : Expr(ExprKind::kLike) {}
  ExprPtr value, pattern, escape;  // escape may be null
  bool negated = false;
  bool case_insensitive = false;  // ILIKE
  std::string ToString() const override;
};

struct IsNullExpr : Expr {
  IsNullExpr() : Expr(ExprKind::kIsNull) {}
  ExprPtr child;
  bool negated = false;  // IS NOT NULL
  std::string ToString() const override;
};

struct IsBoolExpr : Expr {
  IsBoolExpr() : Expr(ExprKind::kIsBool) {}
  ExprPtr child;
  bool value = true;     // IS TRUE / IS FALSE
  bool negated = false;  // IS NOT ...
  std::string ToString() const override;
};

/// INTERVAL 'n unit' or INTERVAL n UNIT, normalized to months, days and microseconds.
struct IntervalExpr : Expr {
  IntervalExpr() : Expr(ExprKind::kInterval) {}
  int32_t months = 0;
  int32_t days = 0;
  int64_t micros = 0;
  std::string ToString() const override;
};

/// A query parameter: $index, 1-based (`?` is numbered left to right). The binder replaces it
/// by the value given to the prepared statement (Binder::SetParameters).
struct ParameterExpr : Expr {
  ParameterExpr() : Expr(ExprKind::kParameter) {}
  int index = 0;
  std::string ToString() const override { return "$" + std::to_string(index); }
};

/// DEFAULT standing for a column's default value (INSERT ... VALUES, UPDATE ... SET); the write
/// statements replace it by the column's DEFAULT expression before binding.
struct DefaultExpr : Expr {
  DefaultExpr() : Expr(ExprKind::kDefault) {}
  std::string ToString() const override { return "DEFAULT"; }
};

// ---------------------------------------------------------------- FROM clause

enum class TableRefKind { kBaseTable, kTableFunction, kJoin, kSubquery };

struct TableRef {
  explicit TableRef(TableRefKind k) : kind(k) {}
  virtual ~TableRef() = default;
  virtual std::string ToString() const = 0;
  TableRefKind kind;
  std::string alias;                        // empty when none
  std::vector<std::string> column_aliases;  // t(a, b)
  int location = -1;
};
using TableRefPtr = std::unique_ptr<TableRef>;

struct BaseTableRef : TableRef {
  BaseTableRef() : TableRef(TableRefKind::kBaseTable) {}
  std::vector<std::string> name;  // [table] or [schema, table]
  std::string ToString() const override;
};

/// read_parquet('glob', hive_partitioning = true), range(10), and `FROM 'path'` (which the
/// parser turns into read_parquet('path')). Named arguments (`name = value` or
/// `name => value`) are kept apart from positional ones.
struct TableFunctionRef : TableRef {
  TableFunctionRef() : TableRef(TableRefKind::kTableFunction) {}
  std::string name;
  std::vector<ExprPtr> args;
  std::vector<std::pair<std::string, ExprPtr>> named_args;
  /// unnest(x): the same call as `LATERAL (SELECT unnest(x) AS unnest)` (a SubqueryRef with this
  /// ref's alias), what the binder uses when x reads columns (`FROM t, unnest(t.l)`).
  TableRefPtr lateral_unnest;
  std::string ToString() const override;
};

/// kSemi / kAnti: DuckDB's SEMI / ANTI JOIN (the left side's rows with / without a match).
enum class JoinType { kInner, kLeft, kRight, kFull, kCross, kSemi, kAnti };

struct JoinRef : TableRef {
  JoinRef() : TableRef(TableRefKind::kJoin) {}
  JoinType join_type = JoinType::kInner;
  TableRefPtr left, right;
  ExprPtr condition;  // ON ...; null for CROSS/USING/NATURAL
  std::vector<std::string> using_columns;
  bool natural = false;
  /// DuckDB's ASOF JOIN (join_type kInner, kLeft or kRight): the condition's equalities and
  /// one inequality pick each row's nearest match.
  bool asof = false;
  std::string ToString() const override;
};

struct SubqueryRef : TableRef {
  SubqueryRef() : TableRef(TableRefKind::kSubquery) {}
  QueryNodePtr query;
  bool lateral = false;  // LATERAL: sees the FROM items before it
  std::string ToString() const override;
};

// ---------------------------------------------------------------- queries

enum class QueryNodeKind { kSelect, kSetOperation, kValues };

struct OrderByItem {
  ExprPtr expr;
  bool descending = false;
  std::optional<bool> nulls_first;  // unset: NULLS LAST for ASC, NULLS FIRST for DESC
};

/// A window frame bound: UNBOUNDED PRECEDING, n PRECEDING, CURRENT ROW, n FOLLOWING,
/// UNBOUNDED FOLLOWING.
enum class FrameBoundKind {
  kUnboundedPreceding,
  kOffsetPreceding,
  kCurrentRow,
  kOffsetFollowing,
  kUnboundedFollowing
};
enum class FrameUnit { kRows, kRange, kGroups };
enum class FrameExclude { kNoOthers, kCurrentRow, kGroup, kTies };

/// OVER (...) or WINDOW w AS (...). `refname` names a window of the WINDOW clause this one
/// starts from (OVER (w ORDER BY x)); `name` alone (OVER w) uses that window as it is.
struct WindowSpec {
  std::string name;     // OVER w; the window's own name in a WINDOW clause
  std::string refname;  // OVER (w ...)
  std::vector<ExprPtr> partition_by;
  std::vector<OrderByItem> order_by;
  bool has_frame = false;  // a frame clause was written (else the default frame)
  FrameUnit unit = FrameUnit::kRange;
  FrameBoundKind start = FrameBoundKind::kUnboundedPreceding;
  FrameBoundKind end = FrameBoundKind::kCurrentRow;
  ExprPtr start_offset, end_offset;  // for the kOffset* bounds
  FrameExclude exclude = FrameExclude::kNoOthers;
  int location = -1;
  std::string ToString() const;
};

/// WITH x AS [NOT] MATERIALIZED (...): whether the CTE is computed once and scanned at each
/// reference, or inlined into each; kDefault lets the binder decide (bind_cte.cpp).
enum class CteMaterialize { kDefault, kAlways, kNever };

struct Statement;

struct CommonTableExpr {
  std::string name;
  std::vector<std::string> column_aliases;
  QueryNodePtr query;
  /// WITH name AS (INSERT | UPDATE | DELETE ...): the write (query is null), run before the
  /// statement (main/dml_cte.cpp) and read as its RETURNING rows. Shared: Statement is
  /// incomplete here.
  std::shared_ptr<Statement> dml;
  CteMaterialize materialize = CteMaterialize::kDefault;
  bool recursive = false;  // of a WITH RECURSIVE: the query may name the CTE itself
};

struct QueryNode {
  explicit QueryNode(QueryNodeKind k) : kind(k) {}
  virtual ~QueryNode() = default;
  virtual std::string ToString() const = 0;
  QueryNodeKind kind;
  std::vector<CommonTableExpr> ctes;  // WITH [RECURSIVE] ...
  std::vector<OrderByItem> order_by;
  /// ORDER BY ALL [ASC|DESC] [NULLS ...] (DuckDB): every select column, in order, the way
  /// order_by[0] says.
  bool order_by_all = false;
  ExprPtr limit;   // null when absent
  ExprPtr offset;  // null when absent
  int location = -1;
};

struct SelectItem {
  ExprPtr expr;
  std::string alias;  // empty when none
};

struct SelectNode : QueryNode {
  SelectNode() : QueryNode(QueryNodeKind::kSelect) {}
  std::vector<SelectItem> select_list;
  TableRefPtr from;  // null for SELECT without FROM; comma lists become kCross joins
  ExprPtr where;
  std::vector<ExprPtr> group_by;
  /// GROUP BY ALL (DuckDB): every select item without an aggregate or window function.
  bool group_by_all = false;
  /// GROUPING SETS / ROLLUP / CUBE / (), expanded: each set lists indices into group_by (which
  /// then holds every expression they mention). Empty for a plain GROUP BY.
  std::vector<std::vector<size_t>> grouping_sets;
  ExprPtr having;
  bool distinct = false;
  /// WINDOW w AS (...), in the order written.
  std::vector<WindowSpec> windows;
  /// QUALIFY: a filter on window function results.
  ExprPtr qualify;
  /// DuckDB's USING SAMPLE n [ROWS] | n% | n PERCENT [(method [, seed])] [REPEATABLE (seed)]:
  /// a sample of the FROM clause's rows, taken before WHERE.
  struct Sample {
    double amount = 0;     // rows, or a percentage
    bool percent = false;  // else rows
    std::optional<int64_t> seed;
  };
  std::optional<Sample> sample;
  std::string ToString() const override;
};

enum class SetOperationType { kUnion, kIntersect, kExcept };

struct SetOperationNode : QueryNode {
  SetOperationNode() : QueryNode(QueryNodeKind::kSetOperation) {}
  SetOperationType op = SetOperationType::kUnion;
  bool all = false;
  bool by_name = false;  // DuckDB's UNION [ALL] BY NAME: inputs matched by column name
  QueryNodePtr left, right;
  std::string ToString() const override;
};

struct ValuesNode : QueryNode {
  ValuesNode() : QueryNode(QueryNodeKind::kValues) {}
  std::vector<std::vector<ExprPtr>> rows;
  std::string ToString() const override;
};

// ---------------------------------------------------------------- statements

enum class StatementKind {
  kSelect,
  kExplain,
  kSet,
  kReset,
  kCreateView,
  kDropView,
  kShow,
  kCreateExternalTable,
  kDropTable,
  kShowTables,
  kTableCommand,
  kCopy,
  kCreateTable,
  kInsert,
  kCreateIndex,
  kDropIndex,
  kShowIndexes,
  kUpdate,
  kDelete,
  kCreateSequence,
  kDropSequence,
  kCreateMacro,
  kDropMacro,
  kAlterTable,
  kTransaction,
  kCreateSchema,
  kDropSchema,
  kAttach,
  kDetach,
  kUse,
  kShowDatabases,
  kPrepare,
  kExecute,
  kDeallocate,
  kCheckpoint,
};

struct Statement {
  explicit Statement(StatementKind k) : kind(k) {}
  virtual ~Statement() = default;
  StatementKind kind;
  int location = -1;  // byte offset of the statement in the input
  int length = 0;     // bytes of the statement's text (0 = to the end)
  /// The highest parameter index ($n) used in the statement: the values it takes.
  int parameter_count = 0;
};
using StatementPtr = std::unique_ptr<Statement>;

struct SelectStatement : Statement {
  SelectStatement() : Statement(StatementKind::kSelect) {}
  QueryNodePtr query;
};

struct ExplainStatement : Statement {
  ExplainStatement() : Statement(StatementKind::kExplain) {}
  bool analyze = false;
  bool json = false;          // FORMAT JSON
  bool logical_only = false;  // EXPLAIN (LOGICAL)
  StatementPtr statement;
};

/// SET name = value / SET name TO value; value kept as a constant (strings unquoted).
struct SetStatement : Statement {
  SetStatement() : Statement(StatementKind::kSet) {}
  std::string
      name;  // lower-case, dotted names kept: "dynamic_partition_pruning.fallback_filter_ratio"
  Value value;
};

struct ResetStatement : Statement {
  ResetStatement() : Statement(StatementKind::kReset) {}
  std::string name;  // "all" for RESET ALL
};

struct CreateViewStatement : Statement {
  CreateViewStatement() : Statement(StatementKind::kCreateView) {}
  std::string name;
  std::vector<std::string> column_aliases;
  bool or_replace = false;
  QueryNodePtr query;
  std::string sql;  // the view's query text, for catalogs that store it
};

struct DropViewStatement : Statement {
  DropViewStatement() : Statement(StatementKind::kDropView) {}
  std::string name;
  bool if_exists = false;
};

/// SHOW name (settings).
struct ShowStatement : Statement {
  ShowStatement() : Statement(StatementKind::kShow) {}
  std::string name;
};

/// CREATE EXTERNAL TABLE [IF NOT EXISTS] name [(col type, ...)] STORED AS PARQUET
/// [PARTITIONED BY (col [type], ...)] LOCATION 'dir'
struct CreateExternalTableStatement : Statement {
  CreateExternalTableStatement() : Statement(StatementKind::kCreateExternalTable) {}
  struct Column {
    std::string name;
    std::optional<TypeName> type;
    int location = -1;
    bool not_null = false;  // NOT NULL or PRIMARY KEY (CREATE TABLE only)
    /// DEFAULT expr (CREATE TABLE only): the expression's text as written.
    std::optional<std::string> default_sql;
    int default_location = -1;
    /// [GENERATED ALWAYS] AS (expr) [VIRTUAL] (CREATE TABLE only): the expression's text.
    std::optional<std::string> generated_sql;
  };
  std::string name;
  int name_location = -1;
  bool if_not_exists = false;
  bool columns_declared = false;
  std::vector<Column> columns;
  std::vector<Column> partition_columns;
  std::string location;
  int location_offset = -1;  // of the LOCATION string
};

struct DropTableStatement : Statement {
  DropTableStatement() : Statement(StatementKind::kDropTable) {}
  std::string name;
  bool if_exists = false;
};

/// ALTER TABLE t ADD / DROP / RENAME / ALTER [COLUMN] ..., ALTER TABLE t RENAME TO u, and
/// ALTER VIEW v RENAME TO w. (ALTER TABLE ... RECOVER PARTITIONS is a TableCommandStatement.)
struct AlterTableStatement : Statement {
  enum class Action {
    kAddColumn,     // ADD [COLUMN] [IF NOT EXISTS] c type [DEFAULT expr]
    kDropColumn,    // DROP [COLUMN] [IF EXISTS] c
    kRenameColumn,  // RENAME [COLUMN] c TO new_name
    kRenameTable,   // RENAME TO new_name (also of a view)
    kAlterType,     // ALTER [COLUMN] c [SET DATA] TYPE type [USING expr]
    kSetDefault,    // ALTER [COLUMN] c SET DEFAULT expr
    kDropDefault,   // ALTER [COLUMN] c DROP DEFAULT
    kSetNotNull,    // ALTER [COLUMN] c SET NOT NULL
    kDropNotNull,   // ALTER [COLUMN] c DROP NOT NULL
  };
  AlterTableStatement() : Statement(StatementKind::kAlterTable) {}
  Action action = Action::kAddColumn;
  bool view = false;       // ALTER VIEW
  bool if_exists = false;  // ALTER TABLE IF EXISTS t
  std::string name;
  int name_location = -1;
  std::string column;  // the column acted on
  int column_location = -1;
  bool column_if = false;  // ADD COLUMN IF NOT EXISTS, DROP COLUMN IF EXISTS
  std::string new_name;    // RENAME
  std::optional<TypeName> type;
  std::optional<std::string> expression_sql;  // DEFAULT, or ALTER TYPE's USING, as written
};

/// BEGIN [TRANSACTION] / START TRANSACTION, COMMIT / END, ROLLBACK / ABORT.
struct TransactionStatement : Statement {
  enum class Action { kBegin, kCommit, kRollback };
  TransactionStatement() : Statement(StatementKind::kTransaction) {}
  Action action = Action::kBegin;
};

/// SHOW TABLES.
struct ShowTablesStatement : Statement {
  ShowTablesStatement() : Statement(StatementKind::kShowTables) {}
};

/// A statement about one table: DESCRIBE t, SHOW PARTITIONS t, ALTER TABLE t RECOVER PARTITIONS
/// (also MSCK REPAIR TABLE t), ANALYZE t, SHOW STATS t [PARTITIONS | FILES].
struct TableCommandStatement : Statement {
  enum class Command {
    kDescribe,
    kShowPartitions,
    kRecoverPartitions,
    kAnalyze,
    kShowStats,
    kTableInfo,  // PRAGMA table_info('t') (DuckDB's and SQLite's)
    kVersion,    // PRAGMA version (no table)
    kSummarize,  // DuckDB's SUMMARIZE t / SUMMARIZE query: per column statistics
  };
  TableCommandStatement() : Statement(StatementKind::kTableCommand) {}
  Command command = Command::kDescribe;
  std::string name;
  int name_location = -1;
  std::string stats_level = "table";  // SHOW STATS: "table", "partition" or "file"
  /// DESCRIBE of a query (`DESCRIBE SELECT ...`, `DESCRIBE FROM 'x.parquet'`, `DESCRIBE 'x'`):
  /// its SQL text, then `name` is empty.
  std::string query_sql;
  int query_location = -1;
};

/// One option of COPY ... TO ... (NAME value, NAME (v1, v2), or NAME alone): values as text.
struct WriteOption {
  std::string name;  // lower-case
  std::vector<std::string> values;
  bool parenthesized = false;  // NAME (v, ...)
  int location = -1;
};

/// COPY (query) TO 'path' [(option, ...)] (also COPY table TO ...), and COPY table [(cols)]
/// FROM 'path' [(option, ...)] (is_from: `table`, `columns`; no query).
struct CopyStatement : Statement {
  CopyStatement() : Statement(StatementKind::kCopy) {}
  bool is_from = false;
  std::string table;
  int table_location = -1;
  std::vector<std::string> columns;
  QueryNodePtr query;
  std::string path;
  std::vector<WriteOption> options;
};

/// CREATE TABLE [IF NOT EXISTS] t [(col type, ...)] [USING parquet] [PARTITIONED BY (col, ...)]
/// [AS query]: a managed table in the database directory.
struct CreateTableStatement : Statement {
  CreateTableStatement() : Statement(StatementKind::kCreateTable) {}
  std::string name;
  int name_location = -1;
  bool if_not_exists = false;
  /// CREATE TEMP TABLE: dropped when the database closes (docs/writing.md).
  bool temporary = false;
  /// CREATE OR REPLACE TABLE: an existing table of the name is replaced once the new one is
  /// written.
  bool or_replace = false;
  std::vector<CreateExternalTableStatement::Column> columns;  // with types; empty for AS
  std::vector<CreateExternalTableStatement::Column> partition_columns;
  QueryNodePtr query;  // AS query, or null
  /// PRIMARY KEY and UNIQUE, of a column (`y INT UNIQUE`) or of the table (`UNIQUE (a, b)`).
  struct Key {
    bool primary = false;
    std::vector<std::string> columns;
    int location = -1;
  };
  std::vector<Key> keys;
  /// CHECK (expr) of a column or of the table: the expression's text as written.
  std::vector<std::string> checks;
  /// FOREIGN KEY (a, ...) REFERENCES t [(b, ...)] of the table, or a column's REFERENCES t [(b)].
  struct ForeignKey {
    std::vector<std::string> columns;
    std::string table;
    std::vector<std::string> referenced;  // empty: the referenced table's PRIMARY KEY
    int location = -1;
  };
  std::vector<ForeignKey> foreign_keys;
};

/// `column = value` of UPDATE's SET and ON CONFLICT DO UPDATE SET.
struct ColumnAssignment {
  std::string column;
  int location = -1;
  ExprPtr value;
};

/// INSERT [OR REPLACE | OR IGNORE] INTO t [(col, ...)] query (SELECT or VALUES) | DEFAULT VALUES
/// [ON CONFLICT [(col, ...)] DO NOTHING | DO UPDATE SET col = expr, ...] (DuckDB's forms).
struct InsertStatement : Statement {
  InsertStatement() : Statement(StatementKind::kInsert) {}
  std::string name;
  int name_location = -1;
  std::vector<std::string> columns;
  /// DuckDB's INSERT INTO t BY NAME query: the query's column names are `columns`.
  bool by_name = false;
  QueryNodePtr query;           // null for DEFAULT VALUES until the defaults are filled in
  bool default_values = false;  // INSERT ... DEFAULT VALUES
  /// Columns the table's defaults added to `columns` (ApplyInsertDefaults): INSERT OR REPLACE
  /// leaves them alone in the rows it replaces, as DuckDB.
  std::vector<std::string> default_columns;
  enum class OnConflict { kError, kNothing, kUpdate };
  OnConflict on_conflict = OnConflict::kError;
  std::vector<std::string> conflict_columns;  // ON CONFLICT (cols); empty: the table's keys
  int conflict_location = -1;
  /// kUpdate: DO UPDATE SET ...; INSERT OR REPLACE sets every inserted column instead.
  std::vector<ColumnAssignment> conflict_set;
  bool or_replace = false;
  /// RETURNING items: a select list over the rows written (empty without RETURNING).
  std::vector<SelectItem> returning;
};

/// CREATE [UNIQUE] INDEX [IF NOT EXISTS] name ON t (col [ASC|DESC], ...): a catalog object
/// (see docs/catalog.md); UNIQUE is enforced, nothing reads through it yet.
struct CreateIndexStatement : Statement {
  CreateIndexStatement() : Statement(StatementKind::kCreateIndex) {}
  std::string name;
  std::string table;
  int table_location = -1;
  bool unique = false;
  bool if_not_exists = false;
  std::vector<std::string> columns;
};

/// DROP INDEX [IF EXISTS] name.
struct DropIndexStatement : Statement {
  DropIndexStatement() : Statement(StatementKind::kDropIndex) {}
  std::string name;
  bool if_exists = false;
};

/// SHOW INDEXES [FROM | ON t].
struct ShowIndexesStatement : Statement {
  ShowIndexesStatement() : Statement(StatementKind::kShowIndexes) {}
  std::string table;  // empty: every table's
};

/// UPDATE t [AS a] SET col = expr, ... [FROM ...] [WHERE ...] [RETURNING ...].
struct UpdateStatement : Statement {
  UpdateStatement() : Statement(StatementKind::kUpdate) {}
  std::string name;
  std::string alias;
  int name_location = -1;
  std::vector<ColumnAssignment> assignments;
  TableRefPtr from;  // null without FROM
  ExprPtr where;     // null without WHERE
  /// RETURNING items: a select list over the changed rows' new values.
  std::vector<SelectItem> returning;
};

/// DELETE FROM t [AS a] [USING ...] [WHERE ...] [RETURNING ...].
struct DeleteStatement : Statement {
  DeleteStatement() : Statement(StatementKind::kDelete) {}
  std::string name;
  std::string alias;
  int name_location = -1;
  TableRefPtr using_tables;  // null without USING
  ExprPtr where;
  /// RETURNING items: a select list over the deleted rows.
  std::vector<SelectItem> returning;
};

/// CREATE [OR REPLACE] SEQUENCE [IF NOT EXISTS] name [START [WITH] n] [INCREMENT [BY] n]
/// [MINVALUE n | NO MINVALUE] [MAXVALUE n | NO MAXVALUE] [CYCLE | NO CYCLE] (DuckDB's form;
/// unset bounds and start follow from the increment's sign, see Catalog::CreateSequence).
struct CreateSequenceStatement : Statement {
  CreateSequenceStatement() : Statement(StatementKind::kCreateSequence) {}
  std::string name;
  bool or_replace = false;
  bool if_not_exists = false;
  std::optional<int64_t> start, min_value, max_value;
  int64_t increment = 1;
  bool cycle = false;
};

/// DROP SEQUENCE [IF EXISTS] name (kDropSequence) and DROP MACRO [IF EXISTS] name (kDropMacro).
struct DropObjectStatement : Statement {
  explicit DropObjectStatement(StatementKind k) : Statement(k) {}
  std::string name;
  bool if_exists = false;
};

/// CREATE SCHEMA [IF NOT EXISTS] s (kCreateSchema) and DROP SCHEMA [IF EXISTS] s [CASCADE |
/// RESTRICT] (kDropSchema).
struct SchemaStatement : Statement {
  explicit SchemaStatement(StatementKind k) : Statement(k) {}
  std::string name;
  bool if_exists = false;   // IF NOT EXISTS for CREATE
  bool or_replace = false;  // CREATE OR REPLACE SCHEMA: an empty one is replaced
  bool cascade = false;
};

/// ATTACH [DATABASE] [IF NOT EXISTS] 'path' [AS name] [(READ_ONLY)] (kAttach), DETACH
/// [DATABASE] [IF EXISTS] name (kDetach), USE db[.schema] (kUse: `schema` empty when not
/// given), SHOW DATABASES (kShowDatabases), [FORCE] CHECKPOINT [db] (kCheckpoint: `name` empty
/// for the current database).
/// PREPARE name AS statement: the statement kept by the connection under `name`, its $n / ?
/// parameters given by EXECUTE.
struct PrepareStatement : Statement {
  PrepareStatement() : Statement(StatementKind::kPrepare) {}
  std::string name;  // lower-case
  std::shared_ptr<const Statement> statement;
};

/// EXECUTE name[(value, ...)]: the values as one SELECT row, computed before the statement runs.
struct ExecuteStatement : Statement {
  ExecuteStatement() : Statement(StatementKind::kExecute) {}
  std::string name;
  std::unique_ptr<SelectNode> values;  // null without values
};

/// DEALLOCATE [PREPARE] name | ALL.
struct DeallocateStatement : Statement {
  DeallocateStatement() : Statement(StatementKind::kDeallocate) {}
  std::string name;  // empty: ALL
};

struct DatabaseStatement : Statement {
  explicit DatabaseStatement(StatementKind k) : Statement(k) {}
  std::string name;  // lower-case; ATTACH without AS: the path's file name without extension
  std::string path;
  std::string schema;
  bool if_exists = false;   // IF NOT EXISTS for ATTACH
  bool or_replace = false;  // ATTACH OR REPLACE: a database of that name is detached first
  bool read_only = false;
};

/// CREATE [OR REPLACE] [TEMP | TEMPORARY] MACRO | FUNCTION name(a, b := default, ...) AS expr:
/// a scalar macro, expanded where it is called. Expressions are kept as text.
struct CreateMacroStatement : Statement {
  CreateMacroStatement() : Statement(StatementKind::kCreateMacro) {}
  std::string name;
  bool or_replace = false;
  bool temporary = false;
  std::vector<std::string> parameters;                        // without defaults, in order
  std::vector<std::pair<std::string, std::string>> defaults;  // name := expression text
  std::string body;
};

}  // namespace shears::ast

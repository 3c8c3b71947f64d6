#pragma once
// The binder: AST -> logical plan. Resolves names against the FROM clause (and enclosing
// queries, for correlated subqueries), types every expression, picks functions and implicit
// casts, expands *, checks GROUP BY rules, and turns IN/EXISTS subqueries into semi, anti and
// mark joins. Errors are BinderErrors that name the column, table or function.

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "common/settings.h"
#include "parser/ast.h"
#include "planner/logical_plan.h"

namespace shears {

struct BoundQuery {
  LogicalOperatorPtr plan;
  std::vector<std::string> names;
  std::vector<LogicalType> types;
};

struct AggregateInfo;
struct ResolvedAggregate;

class Binder {
 public:
  /// Names in FROM are looked up as CTEs, then views and tables of `catalog`. `sql`: the
  /// text the query was parsed from (AST locations are offsets into it), so that errors can
  /// point at the expression they are about; may be null.
  explicit Binder(const Catalog& catalog, const std::string* sql = nullptr);
  /// Where NULLs go without NULLS FIRST/LAST (default_null_order): first or not, for ASC and
  /// for DESC (by default last in both, as DuckDB).
  void SetDefaultNullOrder(bool first_on_asc, bool first_on_desc) {
    nulls_first_on_asc_ = first_on_asc;
    nulls_first_on_desc_ = first_on_desc;
  }
  /// The value of the setting default_null_order as SetDefaultNullOrder's two flags.
  void SetDefaultNullOrder(const std::string& setting) {
    SetDefaultNullOrder(setting == "nulls_first" || setting == "nulls_first_on_asc_last_on_desc",
                        setting == "nulls_first" || setting == "postgres");
  }
  /// Binding only to check a query (CREATE VIEW): paths are listed only up to their first
  /// file (DatasetOptions::first_file_only), which gives the schema; the plan is not to be run.
  void SetCheckOnly(bool check_only) { check_only_ = check_only; }
  /// The values of the query's parameters ($1 is values[0]); each is bound as a constant of
  /// its value's type, as a literal would be (a NULL is untyped). Without values, a query
  /// using a parameter is a BinderError. `values` must outlive Bind.
  void SetParameters(const std::vector<Value>* values) { parameters_ = values; }
  /// Asked for a table name that is no CTE, view or table (a host language's variable: the
  /// Python module's data frames); a dataset to scan, or null for "no such table".
  using ReplacementScan = std::function<std::shared_ptr<const Dataset>(const std::string& name)>;
  void SetReplacementScan(ReplacementScan scan) { replacement_scan_ = std::move(scan); }
  BoundQuery Bind(const ast::QueryNode& query);
  /// Runs a query and returns its first column (for a PIVOT without IN, whose columns are
  /// the distinct values of its ON expressions); without one such a PIVOT is an error.
  using QueryRunner = std::function<std::vector<Value>(const std::string& sql)>;
  void SetQueryRunner(QueryRunner runner) { query_runner_ = std::move(runner); }
  /// The session's settings, which current_setting('name') reads as a constant; without them
  /// current_setting is a BinderError. `settings` must outlive Bind.
  void SetSettings(const Settings* settings) { settings_ = settings; }
  /// INSERT ... VALUES: the types of the columns written. The VALUES list (the query bound
  /// next, when it is one) casts its string literals to them ('nan' into a FLOAT column beside
  /// 1), and a column of values without a common type takes its column's (3 beside 'x' into a
  /// VARCHAR column).
  void SetValuesTargetTypes(std::vector<LogicalType> types) {
    values_target_types_ = std::move(types);
  }

  struct Scope;
  struct ExprContext;

 private:
  BoundQuery BindQueryNode(const ast::QueryNode& node, Scope* outer);
  BoundQuery BindSelect(const ast::SelectNode& node, Scope* outer);
  BoundQuery BindSetOperation(const ast::SetOperationNode& node, Scope* outer);
  BoundQuery BindValues(const ast::ValuesNode& node);
  BoundQuery ApplyOrderLimit(const ast::QueryNode& node, BoundQuery query);
  LogicalOperatorPtr BindTableRef(const ast::TableRef& ref, Scope& scope);
  /// A reference to `cte`, its query bound for it (bind_cte.cpp).
  LogicalOperatorPtr BindCteReference(const ast::CommonTableExpr& cte, BoundQuery query);
  /// Inlines or materializes each CTE of `node` in its bound `plan` (bind_cte.cpp).
  LogicalOperatorPtr ResolveCtes(const ast::QueryNode& node, LogicalOperatorPtr plan);
  LogicalOperatorPtr BindTableRefAt(const ast::TableRef& ref, Scope& scope);
  /// Binds the query text of a view (or a catalog metadata query) on its own: errors in it do
  /// not point into the statement's text.
  BoundQuery BindQueryText(const std::string& sql, const std::string& name);
  /// The columns of a view from binding its query (none when it no longer binds).
  std::function<
      std::pair<std::vector<std::string>, std::vector<LogicalType>>(const ViewDefinition&)>
  ViewColumnsOf();
  LogicalOperatorPtr BindDataset(std::shared_ptr<const Dataset> dataset,
                                 const std::string& table_name, const std::string& alias,
                                 const ast::TableRef& ref, Scope& scope);
  /// read_parquet(...), range(...), generate_series(...) (bind_table_function.cpp).
  LogicalOperatorPtr BindTableFunction(const ast::TableFunctionRef& fn, Scope& scope);
  /// `aliases`: select-list aliases a name that is no column may stand for (DuckDB), or null.
  LogicalOperatorPtr BindWhere(
      const ast::Expr& where, LogicalOperatorPtr plan, Scope& scope,
      const std::function<BoundExprPtr(const std::string&)>* aliases = nullptr);
  /// GROUPING SETS: pairs `input` with each set's id and makes info's groups NULL outside
  /// their sets (see binder.cpp).
  LogicalOperatorPtr ExpandGroupingSets(LogicalOperatorPtr input, AggregateInfo& info,
                                        LogicalAggregate& aggregate);
  /// `correlated_further_out`: the subquery uses no column of `plan`, only columns of queries
  /// further out (it is planned as uncorrelated here).
  LogicalOperatorPtr PlanSubquery(LogicalOperatorPtr plan, BoundSubqueryInfo& info,
                                  const std::function<BoundExprPtr(BoundExprPtr)>& to_outer,
                                  bool correlated_further_out = false);
  /// Any correlation, by the dependent-join rewrite (dependent_join.h).
  LogicalOperatorPtr PlanFlattenedSubquery(
      LogicalOperatorPtr plan, BoundSubqueryInfo& info,
      const std::function<BoundExprPtr(BoundExprPtr)>& to_outer);
  /// WITH RECURSIVE (bind_cte.cpp): the CTE's anchor UNION [ALL] recursive term as a
  /// kRecursiveUnion, or, when the query never names itself, the query as written.
  BoundQuery BindRecursiveCte(const ast::CommonTableExpr& cte);
  /// A recursive CTE's reference to itself, inside its own recursive term: a working table;
  /// nullopt when `name` is no recursive CTE being bound.
  std::optional<BoundQuery> BindWorkingTable(const std::string& name);
  /// The conjuncts of a join's ON condition bound again over copies of its sides (the old ->
  /// new table indices of the copies).
  using RebindCondition =
      std::function<std::vector<BoundExprPtr>(const std::map<uint32_t, uint32_t>& tables)>;
  /// `join` (its children and condition without subqueries set) with the conjuncts of its ON
  /// condition that hold subqueries (bind_join_subquery.cpp): the join, or a filter over it.
  /// A FULL join whose subqueries use both sides becomes a UNION ALL, which needs `rebind`
  /// and gets new bindings for the sides' columns in `remap`.
  LogicalOperatorPtr PlanJoinSubqueries(std::unique_ptr<LogicalJoin> join,
                                        std::vector<BoundExprPtr> conjuncts,
                                        const RebindCondition& rebind = nullptr,
                                        std::map<ColumnBinding, ColumnBinding>* remap = nullptr);
  LogicalOperatorPtr PlanFullJoinPairs(std::unique_ptr<LogicalJoin> join,
                                       std::vector<BoundExprPtr> conjuncts,
                                       const RebindCondition& rebind,
                                       std::map<ColumnBinding, ColumnBinding>* remap);
  LogicalOperatorPtr PlanCorrelatedAny(LogicalOperatorPtr plan, BoundSubqueryInfo& info,
                                       const std::function<BoundExprPtr(BoundExprPtr)>& to_outer);

 public:
  // Used by the expression binding helpers.
  BoundExprPtr BindExpr(const ast::Expr& expr, ExprContext& ctx);
  /// Rethrows the user error being handled with the query position `location` appended (when
  /// it has none yet and the query text is known).
  [[noreturn]] void RethrowAt(int location) const;
  uint32_t NewTableIndex() { return next_table_index_++; }

  /// f(...) OVER (...) (bind_window.cpp): a BoundWindow, left in the expression until
  /// PlanWindows moves it into a LogicalWindow.
  BoundExprPtr BindWindowFunction(const ast::FunctionExpr& fn, ExprContext& ctx);
  /// The arguments and ORDER BY keys of aggregate call `fn` bound in `ctx` and resolved
  /// (bind_aggregate.cpp).
  ResolvedAggregate BindAggregateCall(const ast::FunctionExpr& fn, const std::string& name,
                                      ExprContext& ctx);
  /// The ORDER BY keys of an aggregate call (string_agg(x ORDER BY y), WITHIN GROUP).
  std::vector<BoundOrderBy> BindAggregateOrderBy(const ast::FunctionExpr& fn, ExprContext& ctx);
  /// Moves every window function of `exprs` into LogicalWindows above `plan` (one per
  /// PARTITION BY / ORDER BY) and replaces it by the column that carries its value.
  LogicalOperatorPtr PlanWindows(LogicalOperatorPtr plan, const std::vector<BoundExprPtr*>& exprs);
  /// DuckDB's ASOF [LEFT | RIGHT] JOIN of `left` and `right` on `conjuncts` (equalities and
  /// one inequality; bind_asof.cpp): the plan, whose output is left's columns then right's;
  /// `remap` gets the new binding of each of their columns.
  LogicalOperatorPtr PlanAsofJoin(JoinKind kind, LogicalOperatorPtr left, LogicalOperatorPtr right,
                                  std::vector<BoundExprPtr> conjuncts,
                                  std::map<ColumnBinding, ColumnBinding>* remap);
  /// The same when other conditions over both sides need every pair: a join, then the nearest
  /// right row by `build_t` (descending: the smallest) per left row.
  LogicalOperatorPtr PlanAsofPairs(JoinKind kind, LogicalOperatorPtr left, LogicalOperatorPtr right,
                                   std::vector<BoundExprPtr> conjuncts, const BoundExpr& build_t,
                                   bool descending, std::map<ColumnBinding, ColumnBinding>* remap);

  /// A subquery used as a value (bind_subquery.cpp): bound, but not yet joined to the plan.
  BoundExprPtr BindSubqueryExpr(const ast::SubqueryExpr& subquery, ExprContext& ctx);
  /// Joins every subquery in `exprs` to `plan` (the input of the clause that holds them) and
  /// replaces it by the column that carries its value. `to_outer` maps columns the subqueries
  /// are correlated with to columns of `plan` (GROUP BY columns above an aggregate).
  LogicalOperatorPtr PlanSubqueries(
      LogicalOperatorPtr plan, const std::vector<BoundExprPtr*>& exprs,
      const std::function<BoundExprPtr(BoundExprPtr)>& to_outer = nullptr);

 private:
  BoundExprPtr BindExprAt(const ast::Expr& expr, ExprContext& ctx);
  /// nextval('s') / currval('s') (bind_macro.cpp): a call reading the catalog's sequence.
  BoundExprPtr BindSequenceCall(const std::string& name, std::vector<BoundExprPtr> args);
  /// A call of scalar macro `macro` (bind_macro.cpp): its body bound where each parameter
  /// stands for the argument's expression (bound again at each use, in the caller's scope).
  BoundExprPtr BindMacroCall(const ast::FunctionExpr& call, const MacroDefinition& macro,
                             ExprContext& ctx);
  /// The argument a macro parameter named `name` stands for, bound in `ctx`; null when
  /// `name` is no parameter of the macro being expanded.
  BoundExprPtr BindMacroParameter(const std::string& name, ExprContext& ctx);
  /// list_transform / list_filter / list_reduce and their aliases with a lambda argument
  /// (bind_lambda.cpp): the body bound with the parameters in sight, its captured columns
  /// passed as arguments of the call.
  BoundExprPtr BindLambdaCall(const ast::FunctionExpr& fn, const std::string& name,
                              ExprContext& ctx);
  /// The lambda parameter `name` of the lambdas being bound (innermost first), as a column of
  /// the lambda's own table index; null when there is none of that name.
  BoundExprPtr BindLambdaParameter(const std::string& name) const;
  /// STRUCT constructors (bind_nested.cpp): struct_pack(a := x, ...), row(x, ...) and the
  /// parser's __shears_struct_literal('a', x, ...) for {'a': x}; null for other names.
  BoundExprPtr BindStructConstructor(const ast::FunctionExpr& fn, const std::string& name,
                                     ExprContext& ctx);
  /// s.a (or t.s.a.b): the fields of a STRUCT column or lambda parameter named by a prefix of
  /// the names; null when no prefix names one.
  BoundExprPtr BindStructFieldPath(const std::vector<std::string>& names, ExprContext& ctx);
  /// A table macro (CREATE MACRO m(x) AS TABLE query) called in FROM: its query, bound with
  /// the call's arguments for its parameters, as a subquery.
  /// PIVOT / UNPIVOT: the parser's "__shears_pivot__"(pieces) call in FROM (bind_pivot.cpp).
  LogicalOperatorPtr BindPivot(const ast::TableFunctionRef& call, Scope& scope);
  LogicalOperatorPtr BindTableMacro(const ast::TableFunctionRef& call, const MacroDefinition& macro,
                                    Scope& scope);

  const Catalog& catalog_;
  const std::string* sql_ = nullptr;  // null inside views: their positions are not the query's
  uint32_t next_table_index_ = 1;
  std::vector<std::map<std::string, const ast::CommonTableExpr*>> cte_stack_;
  // Each CTE's index while the query declaring it is bound (LogicalCteScan::cte_index).
  std::map<const ast::CommonTableExpr*, uint32_t> cte_indexes_;
  uint32_t next_cte_index_ = 0;
  int depth_ = 0;  // view / subquery nesting, to stop runaway recursion
  // Datasets opened by read_parquet / FROM 'path' in this statement, by path and options: a
  // path named twice (a self-join, a view and the query) is listed and its footer read once.
  std::map<std::string, std::shared_ptr<const Dataset>> datasets_;
  // The stored columns of catalog tables with generated columns, under the reserved names
  // the queries computing those columns read them by (bind_table_ref.cpp), with the table's
  // name.
  std::map<std::string, std::pair<std::shared_ptr<const Dataset>, std::string>> stored_tables_;
  bool nulls_first_on_asc_ = false;
  bool nulls_first_on_desc_ = false;
  bool DefaultNullsFirst(bool descending) const {
    return descending ? nulls_first_on_desc_ : nulls_first_on_asc_;
  }
  bool check_only_ = false;
  const std::vector<Value>* parameters_ = nullptr;
  ReplacementScan replacement_scan_;
  const Settings* settings_ = nullptr;
  QueryRunner query_runner_;
  std::vector<LogicalType> values_target_types_;  // SetValuesTargetTypes; used once
  /// Recursive CTEs being bound, innermost last (bind_cte.cpp).
  struct RecursiveCte {
    std::string name;
    bool in_anchor = true;  // a reference from the anchor is an error
    int id = 0;
    std::vector<LogicalType> types;
    std::vector<std::string> names;
    int references = 0;
  };
  std::vector<RecursiveCte> recursive_ctes_;
  int next_cte_id_ = 0;
  /// While PlanSubqueries joins a clause's subqueries: its input plan as it came (a copy),
  /// where decorrelation computes domains from (see FlattenDependentJoin).
  const LogicalOperator* domain_source_ = nullptr;
  /// Macro calls being expanded, innermost last: each parameter's argument expression (the
  /// caller's, or a default parsed into `owned`).
  struct MacroFrame {
    std::map<std::string, const ast::Expr*> arguments;
    std::vector<ast::ExprPtr> owned;
  };
  std::vector<MacroFrame> macro_frames_;
  /// Lambdas being bound, innermost last: their parameters and the table index their
  /// references carry until the body is turned into the kernel's form.
  struct LambdaFrame {
    std::vector<std::string> names;
    std::vector<LogicalType> types;
    uint32_t table_index = 0;
  };
  std::vector<LambdaFrame> lambda_frames_;
  MacroFrame MacroArguments(const MacroDefinition& macro, const std::vector<ast::ExprPtr>& args,
                            const std::vector<std::pair<std::string, ast::ExprPtr>>& named_args);
  /// Table macros' parsed queries: a plan may point into them until binding ends.
  std::vector<std::vector<ast::StatementPtr>> table_macro_queries_;
  /// The queries PIVOT / UNPIVOT were rewritten into, for the same reason.
  std::vector<std::vector<ast::StatementPtr>> pivot_queries_;
};

/// Resolves a type name as written ("int4", "numeric", "varchar") to a shears type.
LogicalType ResolveTypeName(const ast::TypeName& type);

/// Casts `expr` to `type` (folding constants); no-op when already of that type.
BoundExprPtr CastTo(BoundExprPtr expr, const LogicalType& type);

/// An untyped NULL literal (TypeId::kInvalid) takes its type from the expression around it
/// (PostgreSQL's `unknown`); where nothing decides, as in `NULL IS NULL` or `GROUP BY NULL`,
/// it becomes an INTEGER NULL, as in DuckDB. No vector is ever made of the invalid type.
BoundExprPtr TypeUntyped(BoundExprPtr expr);
/// TypeUntyped on each direct child of `expr`, once the node around them is built.
void TypeUntypedChildren(BoundExpr& expr);

}  // namespace shears

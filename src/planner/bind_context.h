#pragma once
// Name scopes and expression-binding context shared by the binder's files.

#include <functional>
#include <optional>

#include "planner/binder.h"

namespace shears {

/// How a column of a FROM item can be named. USING / NATURAL joins show their join columns
/// once: `id` and `*` mean the merged column, `l.id` and `r.id` each side's own.
enum class ColumnVisibility : uint8_t {
  kVisible,
  kQualifiedOnly,    // only as alias.name, not in `*` (the other side's join column)
  kUnqualifiedOnly,  // only as name and in `*` (the merged join column of RIGHT/FULL joins)
  kHidden,           // by name, qualified or not, never in `*` (range()'s Spark name `id`)
};

/// One FROM item visible by name: its alias and columns.
struct ScopeEntry {
  std::string alias;
  std::vector<std::string> names;
  std::vector<LogicalType> types;
  std::vector<ColumnBinding> bindings;
  std::vector<ColumnVisibility> visibility;  // empty: all visible

  ColumnVisibility Visibility(size_t i) const {
    return visibility.empty() ? ColumnVisibility::kVisible : visibility[i];
  }
  /// Whether column i answers to a reference with (`qualified`) or without an alias.
  bool Matches(size_t i, bool qualified) const {
    const ColumnVisibility v = Visibility(i);
    return qualified ? v != ColumnVisibility::kUnqualifiedOnly
                     : v != ColumnVisibility::kQualifiedOnly;
  }
  /// Whether column i is left out of `*`, COLUMNS(...) and NATURAL joins.
  bool Hidden(size_t i) const { return Visibility(i) == ColumnVisibility::kHidden; }
  void SetVisibility(size_t i, ColumnVisibility v) {
    visibility.resize(names.size(), ColumnVisibility::kVisible);
    visibility[i] = v;
  }
};

/// Renames the entry's first columns (`t(a, b)` after a table); BinderError when there are
/// more aliases than columns.
void ApplyColumnAliases(ScopeEntry& entry, const std::vector<std::string>& aliases);
/// The scope entry of a FROM item: `op`'s output columns under `alias`.
ScopeEntry EntryFor(const std::string& alias, const LogicalOperator& op,
                    const std::vector<std::string>& names);

struct Binder::Scope {
  std::vector<ScopeEntry> entries;
  Scope* outer = nullptr;  // enclosing query, for correlated subqueries
  /// Columns of `outer` scopes this query referenced (filled during binding).
  std::vector<ColumnBinding> correlated;
};

/// What an aggregate-bearing SELECT collects while its expressions are bound.
struct AggregateInfo {
  uint32_t group_index = 0;
  uint32_t aggregate_index = 0;
  std::vector<BoundExprPtr> groups;
  std::vector<std::string> group_keys;  // BoundIdentityKey of each group, to match select items
  /// The type of each group: a select item's subtree matches a group only with its type too (a
  /// NULL typed VARCHAR inside `'x' ~ NULL` is not the INTEGER NULL of GROUP BY NULL).
  std::vector<LogicalType> group_types;
  std::vector<BoundExprPtr> aggregates;
  std::vector<std::string> aggregate_keys;  // BoundIdentityKey of each aggregate
  /// GROUPING SETS, ROLLUP, CUBE: each set's group indices (empty for a plain GROUP BY).
  std::vector<std::vector<size_t>> grouping_sets;
  /// The grouping() calls met, each as its arguments' group indices. With grouping sets, call
  /// j is the group column after the groups and the set id: groups.size() + 1 + j.
  std::vector<std::vector<size_t>> grouping_calls;
  /// Columns of enclosing queries this query uses: constants per group, allowed anywhere.
  const std::vector<ColumnBinding>* outer_columns = nullptr;
};

/// The windows of a SELECT's WINDOW clause, for OVER w and OVER (w ...).
struct WindowInfo {
  const std::vector<ast::WindowSpec>* named = nullptr;
};

struct Binder::ExprContext {
  Scope* scope = nullptr;
  AggregateInfo* aggregates = nullptr;  // null: aggregates are not allowed here
  WindowInfo* windows = nullptr;        // null: window functions are not allowed here
  /// Unqualified names that are no column: select-list aliases (QUALIFY), or null.
  const std::function<BoundExprPtr(const std::string&)>* select_aliases = nullptr;
  const char* clause = "expression";  // for errors: "WHERE clause", "JOIN condition"
  /// Whether subqueries may be used here (the clause plans them with PlanSubqueries).
  bool subqueries = false;
  const std::string* sql = nullptr;
  /// DuckDB's COLUMNS(...) in a select item, expanded per column: the column it stands for
  /// while the item is bound for that column; null elsewhere (where COLUMNS is an error).
  struct ColumnsPick {
    ColumnBinding binding;
    LogicalType type;
    std::string name;
  };
  const ColumnsPick* columns = nullptr;
};

/// Finds a column by (optional) qualifier and name in `scope` or its outer scopes; nullopt
/// when absent; BinderError when ambiguous.
struct ResolvedColumn {
  ColumnBinding binding;
  LogicalType type;
  std::string name;
  bool outer = false;
  std::string qualifier;  // the alias of the table it was found in (for messages)
};
std::optional<ResolvedColumn> ResolveColumn(Binder::Scope& scope, const std::string& qualifier,
                                            const std::string& name);

/// struct_extract(s, 'a' | i), s['a'] and m[k] (list_extract over a STRUCT or MAP) with bound
/// arguments (bind_nested.cpp); null when the call is none of them.
BoundExprPtr BindNestedAccess(const std::string& name, std::vector<BoundExprPtr>& args);

bool IsAggregateFunction(const std::string& name);
/// An aggregate call resolved (bind_aggregate.cpp): kind, result type, the kernels' inputs
/// (empty for count(*); see BoundAggregate::extra_args) and constant parameters.
struct ResolvedAggregate {
  AggregateKind kind = AggregateKind::kCountStar;
  LogicalType type;
  std::vector<BoundExprPtr> inputs;
  AggregateParams params;
  /// What the caller wraps the aggregate's result in, when set: the aggregates computed from
  /// another's result (mad(x) is list_mad(list(x)), approx_quantile(i, q) quantile_cont's
  /// value cast back to i's type).
  std::function<BoundExprPtr(BoundExprPtr)> finish;
};
/// `name` over bound `args` and ORDER BY keys (of the call, or of WITHIN GROUP).
ResolvedAggregate ResolveAggregateCall(const std::string& name, std::vector<BoundExprPtr> args,
                                       std::vector<BoundOrderBy> order_by, bool within_group,
                                       bool star, bool distinct);
/// agg(...) FILTER (WHERE condition): the first input becomes NULL where it does not hold.
void ApplyAggregateFilter(ResolvedAggregate& aggregate, BoundExprPtr condition);
/// row_number, rank, lag, ...: functions that exist only with OVER (bind_window.cpp).
bool IsWindowOnlyFunction(const std::string& name);
/// The kind and result type of aggregate `name` over `arg` (null: count(*)); may cast `arg`.
AggregateKind ResolveAggregate(const std::string& name, BoundExprPtr& arg, LogicalType* type);
/// base + sign * interval, as a TIMESTAMP.
BoundExprPtr AddInterval(BoundExprPtr base, const ast::IntervalExpr& interval, int sign);
BoundExprPtr BindFunctionCall(const std::string& name, std::vector<BoundExprPtr> args);
/// A deterministic expression of constants folded into a constant (bind_expression.cpp).
BoundExprPtr Fold(BoundExprPtr expr);
/// USING SAMPLE over `plan` (the FROM clause's rows; bind_sample.cpp).
LogicalOperatorPtr BindSample(const ast::SelectNode::Sample& sample, LogicalOperatorPtr plan);
/// What makes two bound expressions the same (GROUP BY, ORDER BY and windows match with it,
/// aggregates are deduplicated by it): ToString with every column qualified by its binding,
/// since d1.d_year and d2.d_year print alike.
std::string BoundIdentityKey(const BoundExpr& expr);

/// Whether an AST expression calls an aggregate function (not inside subqueries).
bool ContainsAggregateCall(const ast::Expr& expr);
/// Whether a SELECT's select list or HAVING calls an aggregate function.
bool ContainsAggregateInQuery(const ast::SelectNode& node);

/// Moves the conjuncts that hold a subquery from `conjuncts` to `with_subqueries`; whether any
/// did (bind_join_subquery.cpp).
bool SplitSubqueryConjuncts(std::vector<BoundExprPtr>& conjuncts,
                            std::vector<BoundExprPtr>& with_subqueries);

/// What a BoundSubquery stands for (see expression.h).
struct BoundSubqueryInfo {
  ast::SubqueryKind kind = ast::SubqueryKind::kScalar;
  std::string op;                          // ANY / ALL: the comparison
  BoundExprPtr left;                       // ANY / ALL: its left operand, over the enclosing query
  LogicalOperatorPtr plan;                 // the subquery; its first column is the value
  int id = 0;                              // for EXPLAIN and to tell subqueries apart
  int location = -1;                       // in the query text, for errors
  const ast::SubqueryExpr* ast = nullptr;  // to bind it again (PlanCorrelatedAny)
  Binder::Scope* scope = nullptr;          // the scope it was bound in
  BoundExprPtr result;                     // once planned: the expression each occurrence becomes
};

}  // namespace shears

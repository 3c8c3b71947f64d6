#pragma once
// Bound expressions: names resolved, types known, functions chosen. The logical plan refers to
// columns by ColumnBinding (which operator made the column, and which of its columns), stable
// across rewrites; physical planning turns bindings into positions in the input batch.

#include <memory>
#include <string>
#include <vector>

#include "common/value.h"
#include "function/function.h"

namespace shears {

/// Identifies a column in the logical plan: the operator (table index) that produced it and
/// its position among that operator's new columns.
struct ColumnBinding {
  uint32_t table_index = 0;
  uint32_t column_index = 0;
  friend bool operator==(const ColumnBinding& a, const ColumnBinding& b) {
    return a.table_index == b.table_index && a.column_index == b.column_index;
  }
  friend bool operator<(const ColumnBinding& a, const ColumnBinding& b) {
    return a.table_index != b.table_index ? a.table_index < b.table_index
                                          : a.column_index < b.column_index;
  }
};

enum class BoundExprKind {
  kColumnRef,  // a column of the logical plan (by binding)
  kReference,  // a column of the physical input batch (by position)
  kConstant,
  kFunction,  // scalar functions and operators (+, =, ||, ...)
  kCast,
  kConjunction,  // AND / OR with three-valued logic, n-ary
  kNot,
  kIsNull,         // IS [NOT] NULL
  kCase,           // CASE WHEN ... THEN ... [ELSE ...] END (searched form only)
  kInList,         // x IN (constants or expressions); NOT IN is NOT over it
  kAggregate,      // only inside LogicalAggregate: sum(x), count(*), ...
  kSubquery,       // only while binding: replaced by joins before the plan is complete
  kWindow,         // only inside LogicalWindow: f(...) OVER (...)
  kRuntimeFilter,  // only in a table scan's filters: key IN runtime_filter #n
};

struct BoundExpr;
using BoundExprPtr = std::unique_ptr<BoundExpr>;

struct BoundExpr {
  BoundExpr(BoundExprKind k, LogicalType t) : kind(k), type(t) {}
  virtual ~BoundExpr() = default;
  virtual std::string ToString() const = 0;
  virtual BoundExprPtr Copy() const = 0;
  /// Children in evaluation order (for generic rewrites and traversals).
  virtual std::vector<BoundExprPtr*> Children() { return {}; }

  BoundExprKind kind;
  LogicalType type;
  std::string alias;  // output column name, when the expression is a select item
};

struct BoundColumnRef : BoundExpr {
  BoundColumnRef(LogicalType t, ColumnBinding b, std::string n)
      : BoundExpr(BoundExprKind::kColumnRef, t), binding(b), name(std::move(n)) {}
  ColumnBinding binding;
  std::string name;       // for EXPLAIN
  std::string qualifier;  // the table alias it was bound through, when known (for messages)
  std::string ToString() const override { return name; }
  BoundExprPtr Copy() const override;
};

struct BoundReference : BoundExpr {
  BoundReference(LogicalType t, idx_t i, std::string n)
      : BoundExpr(BoundExprKind::kReference, t), index(i), name(std::move(n)) {}
  idx_t index;
  std::string name;
  std::string ToString() const override {
    return name.empty() ? "#" + std::to_string(index) : name;
  }
  BoundExprPtr Copy() const override;
};

struct BoundConstant : BoundExpr {
  explicit BoundConstant(Value v)
      : BoundExpr(BoundExprKind::kConstant, v.type()), value(std::move(v)) {}
  Value value;
  std::string ToString() const override;
  BoundExprPtr Copy() const override;
};

struct BoundFunction : BoundExpr {
  BoundFunction(BoundScalarFunction f, std::vector<BoundExprPtr> a)
      : BoundExpr(BoundExprKind::kFunction, f.return_type),
        function(std::move(f)),
        args(std::move(a)) {}
  BoundScalarFunction function;
  std::vector<BoundExprPtr> args;
  std::string ToString() const override;
  BoundExprPtr Copy() const override;
  std::vector<BoundExprPtr*> Children() override;
};

struct BoundCast : BoundExpr {
  BoundCast(BoundExprPtr c, LogicalType to, bool t = false)
      : BoundExpr(BoundExprKind::kCast, to), child(std::move(c)), try_cast(t) {}
  BoundExprPtr child;
  bool try_cast;
  std::string ToString() const override;
  BoundExprPtr Copy() const override;
  std::vector<BoundExprPtr*> Children() override { return {&child}; }
};

struct BoundConjunction : BoundExpr {
  BoundConjunction(bool is_and, std::vector<BoundExprPtr> c)
      : BoundExpr(BoundExprKind::kConjunction, LogicalType::Boolean()),
        is_and(is_and),
        children(std::move(c)) {}
  bool is_and;
  std::vector<BoundExprPtr> children;
  std::string ToString() const override;
  BoundExprPtr Copy() const override;
  std::vector<BoundExprPtr*> Children() override;
};

struct BoundNot : BoundExpr {
  explicit BoundNot(BoundExprPtr c)
      : BoundExpr(BoundExprKind::kNot, LogicalType::Boolean()), child(std::move(c)) {}
  BoundExprPtr child;
  std::string ToString() const override { return "(NOT " + child->ToString() + ")"; }
  BoundExprPtr Copy() const override;
  std::vector<BoundExprPtr*> Children() override { return {&child}; }
};

struct BoundIsNull : BoundExpr {
  BoundIsNull(BoundExprPtr c, bool n)
      : BoundExpr(BoundExprKind::kIsNull, LogicalType::Boolean()),
        child(std::move(c)),
        negated(n) {}
  BoundExprPtr child;
  bool negated;
  std::string ToString() const override {
    return "(" + child->ToString() + (negated ? " IS NOT NULL)" : " IS NULL)");
  }
  BoundExprPtr Copy() const override;
  std::vector<BoundExprPtr*> Children() override { return {&child}; }
};

struct BoundCase : BoundExpr {
  explicit BoundCase(LogicalType t) : BoundExpr(BoundExprKind::kCase, t) {}
  std::vector<std::pair<BoundExprPtr, BoundExprPtr>> when_then;
  BoundExprPtr else_expr;  // never null after binding (NULL constant when absent)
  std::string ToString() const override;
  BoundExprPtr Copy() const override;
  std::vector<BoundExprPtr*> Children() override;
};

struct BoundInList : BoundExpr {
  BoundInList(BoundExprPtr v, std::vector<BoundExprPtr> l)
      : BoundExpr(BoundExprKind::kInList, LogicalType::Boolean()),
        value(std::move(v)),
        list(std::move(l)) {}
  BoundExprPtr value;
  std::vector<BoundExprPtr> list;  // same type as value
  std::string ToString() const override;
  BoundExprPtr Copy() const override;
  std::vector<BoundExprPtr*> Children() override;
};

/// A runtime join filter as a conjunct of a table scan's filters: TRUE where the key is among
/// those of runtime filter `filter_id` (dynfilter/runtime_filter.h), which its join publishes at
/// run time; until then it may match every row. Storage resolves the filter when it checks a
/// file, row group, page or row, in the loop that checks the literal conjuncts
/// (storage/split_pruning.h, storage/scan_filter.h); the expression executor never sees it.
struct BoundRuntimeFilter : BoundExpr {
  BoundRuntimeFilter(int id, std::vector<BoundExprPtr> c, std::shared_ptr<const BoundExpr> k, int m,
                     size_t s)
      : BoundExpr(BoundExprKind::kRuntimeFilter, LogicalType::Boolean()),
        filter_id(id),
        columns(std::move(c)),
        key_expr(std::move(k)),
        monotone(m),
        slot(s) {}
  int filter_id;
  std::vector<BoundExprPtr> columns;  // BoundReferences to the key's scan columns
  /// The key computed from its one column (over BoundReference #0, the column), or null: the
  /// filter holds column values. Statistics count only when `monotone` is +1 or -1.
  std::shared_ptr<const BoundExpr> key_expr;
  int monotone;
  size_t slot;  // its place among the scan's runtime filters
  std::string ToString() const override;
  BoundExprPtr Copy() const override;
  std::vector<BoundExprPtr*> Children() override;
};

enum class AggregateKind {
  kCountStar,
  kCount,
  kSum,
  kAvg,
  kMin,
  kMax,
  kStddevSamp,
  kAny,
  kStddevPop,
  kVarSamp,
  kVarPop,
  kCovarPop,  // (y, x)
  kCovarSamp,
  kCorr,
  kBoolAnd,
  kBoolOr,
  kArgMin,  // (arg, val): arg of the row with the smallest val
  kArgMax,
  kApproxCountDistinct,
  kQuantileCont,  // median, quantile_cont, percentile_cont: AggregateParams::fraction
  kQuantileDisc,
  kMode,
  kStringAgg,  // AggregateParams::separator; ORDER BY keys as trailing inputs
  kBitAnd,     // INTEGER / BIGINT
  kBitOr,
  kBitXor,
  kProduct,    // DOUBLE
  kRegrCount,  // regr_*(y, x): over the rows where neither is NULL
  kRegrAvgX,
  kRegrAvgY,
  kRegrSxx,
  kRegrSyy,
  kRegrSxy,
  kRegrSlope,
  kRegrIntercept,
  kRegrR2,
  kFirst,  // x of the first row, NULL or not (DuckDB's first); ORDER BY key a trailing input
  kLast,
  /// (partial sum, partial count): avg over the partial sums and counts of an exact (integer
  /// or DECIMAL) argument, which eager_aggregation computes below a join; not in SQL.
  kAvgOfPartials,
};

/// What an aggregate knows besides its inputs: constant arguments and the directions of the
/// ORDER BY keys of an ordered aggregate (string_agg(x, ',' ORDER BY y DESC)), which are its
/// last `order.size()` inputs.
struct AggregateParams {
  double fraction = 0.5;    // quantiles
  bool descending = false;  // percentile_* WITHIN GROUP (ORDER BY x DESC)
  /// A DECIMAL fraction exactly (units / 10^scale; scale -1 when it was a DOUBLE), for
  /// quantile_disc's position, which DuckDB computes in integers.
  int64_t fraction_units = 5;
  int fraction_scale = 1;
  std::string separator;  // string_agg
  struct Direction {
    bool descending = false;
    bool nulls_first = false;
    bool operator==(const Direction&) const = default;
  };
  std::vector<Direction> order;
  /// ", 0.25", ", ','", " ORDER BY ...": what ToString adds after the inputs (with `orders`
  /// the text of the ORDER BY key expressions).
  std::string ToString(AggregateKind kind, const std::vector<std::string>& orders) const;
};

struct BoundAggregate : BoundExpr {
  BoundAggregate(AggregateKind k, LogicalType t, BoundExprPtr a, bool d)
      : BoundExpr(BoundExprKind::kAggregate, t), aggregate(k), arg(std::move(a)), distinct(d) {}
  AggregateKind aggregate;
  BoundExprPtr arg;  // null for count(*)
  bool distinct;
  /// Inputs after `arg`: the second argument of covar_*, corr, arg_min / arg_max, then the
  /// ORDER BY keys (params.order). Evaluated into consecutive vectors after arg's.
  std::vector<BoundExprPtr> extra_args;
  AggregateParams params;
  std::string ToString() const override;
  BoundExprPtr Copy() const override;
  std::vector<BoundExprPtr*> Children() override;
};

struct BoundOrderBy {
  BoundExprPtr expr;
  bool descending = false;
  bool nulls_first = false;
  BoundOrderBy Copy() const { return {expr->Copy(), descending, nulls_first}; }
};

enum class WindowFunction {
  kAggregate,  // an aggregate over the frame (BoundWindow::aggregate)
  kRowNumber,
  kRank,
  kDenseRank,
  kPercentRank,
  kCumeDist,
  kNtile,
  kLag,
  kLead,
  kFirstValue,
  kLastValue,
  kNthValue,
};
enum class WindowFrameUnit { kRows, kRange, kGroups };
enum class WindowBoundKind {
  kUnboundedPreceding,
  kOffsetPreceding,
  kCurrentRow,
  kOffsetFollowing,
  kUnboundedFollowing
};
enum class WindowExclude { kNoOthers, kCurrentRow, kGroup, kTies };

/// f(args) OVER (PARTITION BY ... ORDER BY ... frame). The binder leaves these in the
/// LogicalWindow that computes them; everything above refers to its output column.
struct BoundWindow : BoundExpr {
  BoundWindow(WindowFunction f, LogicalType t)
      : BoundExpr(BoundExprKind::kWindow, t), function(f) {}
  WindowFunction function;
  std::string name;                                     // as written, for EXPLAIN
  AggregateKind aggregate = AggregateKind::kCountStar;  // kAggregate
  AggregateParams params;                               // kAggregate
  /// Aggregates: their inputs (none for count(*); see BoundAggregate::extra_args); lag/lead: value,
  /// offset, default; ntile: the bucket count; first/last_value: the value; nth_value: value, n.
  std::vector<BoundExprPtr> args;
  std::vector<BoundExprPtr> partitions;
  std::vector<BoundOrderBy> orders;
  WindowFrameUnit unit = WindowFrameUnit::kRange;
  WindowBoundKind start = WindowBoundKind::kUnboundedPreceding;
  WindowBoundKind end = WindowBoundKind::kCurrentRow;
  int64_t start_offset = 0, end_offset = 0;  // ROWS / GROUPS offsets
  /// RANGE with an offset: the ORDER BY key, and the key minus / plus each bound's offset
  /// (key - n for n PRECEDING of ASC, ...), all of one type so they compare directly.
  BoundExprPtr range_key, range_start, range_end;
  WindowExclude exclude = WindowExclude::kNoOthers;
  /// lag / lead / first_value / last_value / nth_value (x IGNORE NULLS): only rows whose value
  /// is not NULL count.
  bool ignore_nulls = false;
  /// count(DISTINCT x) OVER (...): each value of the frame counts once (kAggregate).
  bool distinct = false;

  /// "PARTITION BY a ORDER BY b DESC": what the windows computed by one operator share.
  std::string SpecToString() const;
  std::string ToString() const override;
  BoundExprPtr Copy() const override;
  std::vector<BoundExprPtr*> Children() override;
};

struct BoundSubqueryInfo;

/// A subquery used as a value: (SELECT ...), EXISTS (...), x IN / op ANY / op ALL (SELECT ...).
/// The binder replaces it by a column of a join it adds below the clause (see
/// planner/bind_subquery.cpp, which also defines its methods: only the binder makes one);
/// copies share `info`, so the subquery is planned once.
struct BoundSubquery : BoundExpr {
  BoundSubquery(LogicalType t, std::shared_ptr<BoundSubqueryInfo> i)
      : BoundExpr(BoundExprKind::kSubquery, t), info(std::move(i)) {}
  std::shared_ptr<BoundSubqueryInfo> info;
  std::string ToString() const override;
  BoundExprPtr Copy() const override;
  /// The left operand of IN / ANY / ALL, when there is one.
  std::vector<BoundExprPtr*> Children() override;
};

/// ToString with every column qualified by its binding: equal keys mean the same expression
/// over the same columns (d1.d_year and d2.d_year print alike, their keys differ).
std::string BindingKey(const BoundExpr& expr);
/// ToString with each column that knows its table alias printed as alias.column, for messages
/// that must tell `x.b < t1.b` from `b < b`.
std::string QualifiedString(const BoundExpr& expr);
/// Visits `expr` and all its descendants, parents first.
void VisitExpression(BoundExpr& expr, const std::function<void(BoundExpr&)>& visit);
/// Whether `expr` calls a function that is not deterministic (random(), ...).
bool CallsVolatile(BoundExpr& expr);
/// Copies `expr` with every column binding replaced by its position in `inputs`.
BoundExprPtr ResolveBindings(const BoundExpr& expr, const std::vector<ColumnBinding>& inputs);
/// Every column binding `expr` references.
std::vector<ColumnBinding> ReferencedBindings(const BoundExpr& expr);
/// Whether `a` and `b` are the same expression: same kinds, types, functions, bindings and
/// constants, child by child (aliases aside).
bool ExpressionsEqual(const BoundExpr& a, const BoundExpr& b);
/// The disjuncts of an OR (`is_and` false) or the conjuncts of an AND, nested ones flattened
/// (moves them out of `expr`).
void FlattenConnective(BoundExprPtr expr, bool is_and, std::vector<BoundExprPtr>& out);
/// The AND (or OR) of `parts`; the part itself when there is one.
BoundExprPtr CombineConnective(bool is_and, std::vector<BoundExprPtr> parts);
/// `expr` with the conjuncts common to every branch of each OR in it taken out of that OR:
/// (A AND B) OR (A AND C) becomes A AND (B OR C) (an equivalence in three-valued logic too).
BoundExprPtr FactorOrBranches(BoundExprPtr expr);
/// Splits AND chains into their conjuncts (moves them out of `expr`).
void SplitConjunction(BoundExprPtr expr, std::vector<BoundExprPtr>& out);
/// AND of the conjuncts (a TRUE constant when empty).
BoundExprPtr MakeConjunction(std::vector<BoundExprPtr> conjuncts);

}  // namespace shears

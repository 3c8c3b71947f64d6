#pragma once
// The logical plan: what the query computes, as a tree of relational operators over bound
// expressions. Produced by the binder, rewritten by the optimizer, turned into pipelines by
// the physical planner. Each operator lists its output columns as ColumnBindings.

#include <memory>
#include <string>
#include <vector>

#include "common/join_kind.h"
#include "dynfilter/dynamic_filter.h"
#include "dynfilter/join_legality.h"
#include "expression/expression.h"
#include "storage/dataset.h"
#include "storage/statistics_bounds.h"

namespace shears {

enum class LogicalOperatorType {
  kGet,        // scan of a dataset (files), with projected columns and pushed filters
  kDummyScan,  // one row, no columns: SELECT without FROM
  kValues,     // VALUES (...), (...)
  kRange,      // range() / generate_series(): an arithmetic sequence of BIGINT
  kFilter,
  kProjection,
  kAggregate,  // GROUP BY and aggregates (DISTINCT is an aggregate without aggregates)
  kJoin,
  kOrderBy,
  kLimit,
  kSetOperation,     // UNION [ALL], INTERSECT, EXCEPT
  kWindow,           // window functions of one PARTITION BY / ORDER BY
  kMaterializedCte,  // a CTE computed once (children[0]) for the query in children[1]
  kCteScan,          // a reference to a CTE (bind_cte.cpp)
  kWorkingTable,     // a recursive CTE's reference to itself: the previous iteration's rows
  kUnnest,           // unnest(list) in a select list: a row per element
};

struct LogicalOperator;
using LogicalOperatorPtr = std::unique_ptr<LogicalOperator>;

struct LogicalOperator {
  explicit LogicalOperator(LogicalOperatorType t) : type(t) {}
  virtual ~LogicalOperator() = default;

  /// The output columns, in order.
  virtual std::vector<ColumnBinding> GetColumnBindings() const = 0;
  /// Output types, parallel to GetColumnBindings().
  virtual std::vector<LogicalType> GetTypes() const = 0;
  /// Operator name and parameters for EXPLAIN ("FILTER (a > 1)").
  virtual std::string Describe() const = 0;
  /// Expressions the operator evaluates (for generic rewrites).
  virtual std::vector<BoundExprPtr*> Expressions() { return {}; }

  /// The whole subtree, indented, for EXPLAIN (LOGICAL).
  std::string ToString(int indent = 0) const;

  LogicalOperatorType type;
  std::vector<LogicalOperatorPtr> children;
  double estimated_rows = -1;  // < 0: unknown
};

struct LogicalGet : LogicalOperator {
  LogicalGet() : LogicalOperator(LogicalOperatorType::kGet) {}
  uint32_t table_index = 0;
  std::string table_name;  // alias or path, for EXPLAIN
  std::shared_ptr<const Dataset> dataset;
  /// Dataset columns read, in output order; binding (table_index, i) is column_ids[i].
  std::vector<int> column_ids;
  /// Conjuncts over this scan's columns, evaluated inside the scan (and used for pruning).
  std::vector<BoundExprPtr> filters;
  /// Dynamic filters on partition columns, filled at run time by a join's build side.
  std::vector<DynamicPartitionFilter> dynamic_filters;
  /// Runtime join filters applied to this scan's rows (and row groups).
  std::vector<RuntimeFilterTarget> runtime_filters;
  /// Statistics transfer (optimizer/statistics_transfer.cpp): the runtime filters above that
  /// this scan publishes itself, each the range of another scan's key over its kept files.
  std::vector<StatisticsBoundsTarget> statistics_bounds;
  /// Set when this scan's kept files bound another scan: the physical planner fills it.
  std::shared_ptr<StatisticsBoundsSource> statistics_source;

  std::vector<ColumnBinding> GetColumnBindings() const override;
  std::vector<LogicalType> GetTypes() const override;
  std::string Describe() const override;
  std::vector<BoundExprPtr*> Expressions() override;
};

struct LogicalDummyScan : LogicalOperator {
  LogicalDummyScan() : LogicalOperator(LogicalOperatorType::kDummyScan) {}
  std::vector<ColumnBinding> GetColumnBindings() const override { return {}; }
  std::vector<LogicalType> GetTypes() const override { return {}; }
  std::string Describe() const override { return "DUMMY_SCAN"; }
};

struct LogicalValues : LogicalOperator {
  LogicalValues() : LogicalOperator(LogicalOperatorType::kValues) {}
  uint32_t table_index = 0;
  std::vector<LogicalType> types;
  std::vector<std::string> names;
  std::vector<std::vector<BoundExprPtr>> rows;
  std::vector<ColumnBinding> GetColumnBindings() const override;
  std::vector<LogicalType> GetTypes() const override { return types; }
  std::string Describe() const override;
  std::vector<BoundExprPtr*> Expressions() override;
};

/// range(start, stop, step) (stop excluded) and generate_series (stop included), reduced to
/// `count` values start, start + step, ... so execution cannot overflow.
struct LogicalRange : LogicalOperator {
  LogicalRange() : LogicalOperator(LogicalOperatorType::kRange) {}
  uint32_t table_index = 0;
  std::string function;  // as written, for EXPLAIN
  std::string column_name;
  int64_t start = 0;
  int64_t step = 1;
  int64_t count = 0;
  std::vector<ColumnBinding> GetColumnBindings() const override { return {{table_index, 0}}; }
  std::vector<LogicalType> GetTypes() const override { return {LogicalType::Bigint()}; }
  std::string Describe() const override;
};

struct LogicalFilter : LogicalOperator {
  LogicalFilter() : LogicalOperator(LogicalOperatorType::kFilter) {}
  std::vector<BoundExprPtr> conditions;  // conjuncts
  std::vector<ColumnBinding> GetColumnBindings() const override {
    return children[0]->GetColumnBindings();
  }
  std::vector<LogicalType> GetTypes() const override { return children[0]->GetTypes(); }
  std::string Describe() const override;
  std::vector<BoundExprPtr*> Expressions() override;
};

struct LogicalProjection : LogicalOperator {
  LogicalProjection() : LogicalOperator(LogicalOperatorType::kProjection) {}
  uint32_t table_index = 0;
  std::vector<BoundExprPtr> expressions;
  std::vector<ColumnBinding> GetColumnBindings() const override;
  std::vector<LogicalType> GetTypes() const override;
  std::string Describe() const override;
  std::vector<BoundExprPtr*> Expressions() override;
};

struct LogicalAggregate : LogicalOperator {
  LogicalAggregate() : LogicalOperator(LogicalOperatorType::kAggregate) {}
  uint32_t group_index = 0;      // bindings of the group columns
  uint32_t aggregate_index = 0;  // bindings of the aggregate results
  std::vector<BoundExprPtr> groups;
  std::vector<BoundExprPtr> aggregates;  // BoundAggregate
  /// Groups (their key values) that have a row even for empty input, as an aggregate without
  /// groups has: the empty sets of GROUPING SETS.
  std::vector<std::vector<Value>> empty_input_groups;
  /// A partial aggregate (eager_aggregation's, below a join) whose consumer combines its
  /// groups again: it may give a group more than once, so at run time it passes rows through
  /// unaggregated when they do not reduce (PhysicalHashAggregate::AllowPassThrough).
  bool partial = false;
  std::vector<ColumnBinding> GetColumnBindings() const override;
  std::vector<LogicalType> GetTypes() const override;
  std::string Describe() const override;
  std::vector<BoundExprPtr*> Expressions() override;
};

/// left_key = right_key (NULL keys never match), or IS NOT DISTINCT FROM when null_equal.
struct JoinCondition {
  BoundExprPtr left;   // over the left child's columns
  BoundExprPtr right;  // over the right child's columns
  bool null_equal = false;
};

struct LogicalJoin : LogicalOperator {
  LogicalJoin() : LogicalOperator(LogicalOperatorType::kJoin) {}
  JoinKind join_kind = JoinKind::kInner;
  std::vector<JoinCondition> conditions;  // equi-join keys
  BoundExprPtr residual;                  // other predicates over both sides (may be null)
  /// Mark joins add one BOOLEAN column (TRUE: a match, FALSE: none, NULL: unknown because of
  /// NULLs, as NOT IN needs) with binding (mark_index, 0).
  uint32_t mark_index = 0;
  /// Dynamic filters this join's build side fills: (filter id, index into conditions).
  std::vector<std::pair<int, size_t>> dynamic_filter_producers;
  /// Bound filters its build side fills (a nested loop join's `probe CMP build` conjunct):
  /// (filter id, the build-side expression whose smallest and largest value it collects).
  std::vector<std::pair<int, BoundExprPtr>> dynamic_bound_producers;
  /// Why dynamic partition pruning was not planned for this join (for EXPLAIN), if it was not.
  std::string dynamic_filter_note;
  /// The benefit estimate of the pruning planned (for EXPLAIN).
  std::string dynamic_filter_benefit;
  /// Runtime filters this join builds from its hash table.
  std::vector<RuntimeFilterSpec> runtime_filter_producers;
  /// Why no runtime filter was planned for this join (for EXPLAIN), if none was.
  std::string runtime_filter_note;
  /// Why a backward predicate transfer considered for this join was not planned (EXPLAIN).
  std::string transfer_note;
  /// The join as dynfilter/join_legality.h judges it (its key expressions stay this join's).
  JoinFilterShape FilterShape() const;
  std::vector<ColumnBinding> GetColumnBindings() const override;
  std::vector<LogicalType> GetTypes() const override;
  std::string Describe() const override;
  std::vector<BoundExprPtr*> Expressions() override;
};

/// For a join that got no dynamic partition filter, no runtime filter or neither: why, for each
/// kind it lacks (`partitions: ...; rows: ...`), from the notes the two planning rules left (or
/// that they did not run); then why a backward transfer predicate_transfer considered for it was
/// not planned (`no backward transfer: ...`); empty when nothing is lacking.
std::string NoDynamicFilterReason(const LogicalJoin& join);

struct LogicalOrderBy : LogicalOperator {
  LogicalOrderBy() : LogicalOperator(LogicalOperatorType::kOrderBy) {}
  std::vector<BoundOrderBy> orders;
  std::vector<ColumnBinding> GetColumnBindings() const override {
    return children[0]->GetColumnBindings();
  }
  std::vector<LogicalType> GetTypes() const override { return children[0]->GetTypes(); }
  std::string Describe() const override;
  std::vector<BoundExprPtr*> Expressions() override;
};

struct LogicalLimit : LogicalOperator {
  LogicalLimit() : LogicalOperator(LogicalOperatorType::kLimit) {}
  int64_t limit = -1;  // < 0: no limit
  int64_t offset = 0;
  std::vector<ColumnBinding> GetColumnBindings() const override {
    return children[0]->GetColumnBindings();
  }
  std::vector<LogicalType> GetTypes() const override { return children[0]->GetTypes(); }
  std::string Describe() const override;
};

/// Window functions sharing one PARTITION BY and ORDER BY (their frames may differ): the
/// input columns, then one column per window, binding (window_index, i).
struct LogicalWindow : LogicalOperator {
  LogicalWindow() : LogicalOperator(LogicalOperatorType::kWindow) {}
  uint32_t window_index = 0;
  std::vector<BoundExprPtr> windows;  // BoundWindow
  /// Set by window_limit when a filter above keeps only rows whose windows[limit_window] (a
  /// row_number, rank or dense_rank) is at most row_limit: the others may be dropped. < 0: none.
  int64_t row_limit = -1;
  size_t limit_window = 0;
  std::vector<ColumnBinding> GetColumnBindings() const override;
  std::vector<LogicalType> GetTypes() const override;
  std::string Describe() const override;
  std::vector<BoundExprPtr*> Expressions() override;
};

/// unnest(l) in a select list (bind_select.cpp): each input row once per element of the longest
/// of `lists` (not at all when every one is NULL or empty), the input columns, then element i
/// of each list as binding (table_index, i), NULL past a shorter list's end (DuckDB's).
struct LogicalUnnest : LogicalOperator {
  LogicalUnnest() : LogicalOperator(LogicalOperatorType::kUnnest) {}
  uint32_t table_index = 0;
  std::vector<BoundExprPtr> lists;
  std::vector<ColumnBinding> GetColumnBindings() const override;
  std::vector<LogicalType> GetTypes() const override;
  std::string Describe() const override;
  std::vector<BoundExprPtr*> Expressions() override;
};

/// " (keep rank <= 3 per partition)": how EXPLAIN shows a window's row limit ("" for none).
std::string WindowLimitText(const BoundWindow& window, int64_t row_limit);

/// kRecursiveUnion: WITH RECURSIVE's anchor (child 0) UNION [ALL] its recursive term (child 1),
/// which reads the rows of the previous iteration through LogicalWorkingTables of `cte_id`.
enum class SetOperationKind { kUnion, kIntersect, kExcept, kRecursiveUnion };

struct LogicalSetOperation : LogicalOperator {
  LogicalSetOperation() : LogicalOperator(LogicalOperatorType::kSetOperation) {}
  uint32_t table_index = 0;
  SetOperationKind kind = SetOperationKind::kUnion;
  bool all = false;
  int cte_id = -1;       // kRecursiveUnion
  std::string cte_name;  // kRecursiveUnion, for EXPLAIN and errors
  std::vector<LogicalType> types;
  std::vector<ColumnBinding> GetColumnBindings() const override;
  std::vector<LogicalType> GetTypes() const override { return types; }
  std::string Describe() const override;
};

/// WITH name AS (children[0]) children[1]: the CTE's rows are computed once, into memory,
/// before the query runs; each LogicalCteScan of `cte_index` in the query reads them.
struct LogicalMaterializedCte : LogicalOperator {
  LogicalMaterializedCte() : LogicalOperator(LogicalOperatorType::kMaterializedCte) {}
  uint32_t cte_index = 0;
  std::string name;
  std::vector<ColumnBinding> GetColumnBindings() const override {
    return children[1]->GetColumnBindings();
  }
  std::vector<LogicalType> GetTypes() const override { return children[1]->GetTypes(); }
  std::string Describe() const override { return "MATERIALIZED_CTE " + name; }
};

/// One reference to CTE `cte_index`. While binding it holds the CTE's query bound for this
/// reference as children[0] (its output is `bindings`); once the CTE's level is bound it is
/// either replaced by that child (inlined) or loses it and scans the materialized rows,
/// positionally, under the same bindings.
struct LogicalCteScan : LogicalOperator {
  LogicalCteScan() : LogicalOperator(LogicalOperatorType::kCteScan) {}
  uint32_t cte_index = 0;
  std::string name;
  std::vector<ColumnBinding> bindings;
  std::vector<LogicalType> types;
  double definition_rows = 1;  // the CTE's estimated rows (cardinality estimation)
  /// Runtime filters of joins above this reference, tested on the rows it reads (column_ids:
  /// positions in its output; optimizer/runtime_filter.cpp).
  std::vector<RuntimeFilterTarget> runtime_filters;
  std::vector<ColumnBinding> GetColumnBindings() const override { return bindings; }
  std::vector<LogicalType> GetTypes() const override { return types; }
  std::string Describe() const override;
};

/// Sets definition_rows of every scan of CTE `cte_index` in `op`.
void SetCteScanRows(LogicalOperator& op, uint32_t cte_index, double rows);

/// The working table of a recursive CTE (bind_cte.cpp): in each iteration of its
/// kRecursiveUnion, the rows the previous one added (the anchor's at the first).
struct LogicalWorkingTable : LogicalOperator {
  LogicalWorkingTable() : LogicalOperator(LogicalOperatorType::kWorkingTable) {}
  uint32_t table_index = 0;
  int cte_id = -1;
  std::string cte_name;
  std::vector<LogicalType> types;
  std::vector<ColumnBinding> GetColumnBindings() const override;
  std::vector<LogicalType> GetTypes() const override { return types; }
  std::string Describe() const override { return "WORKING_TABLE " + cte_name; }
};

}  // namespace shears

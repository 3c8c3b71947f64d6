#pragma once
// The optimizer: an ordered list of rules over the logical plan. Each rule has a name (shown
// in EXPLAIN and accepted by SET disabled_optimizers = 'name,...') and lives in its own file.

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/settings.h"
#include "planner/logical_plan.h"

namespace shears {

struct OptimizerRule {
  const char* name;
  const char* description;
  void (*apply)(LogicalOperatorPtr& plan, const Settings& settings);
};

/// The rules in the order they run, each with why it runs there.
const std::vector<OptimizerRule>& OptimizerRules();

/// Runs every rule not disabled in `settings` (disabled_optimizers); throws
/// InvalidInputError for an unknown name in that list.
void Optimize(LogicalOperatorPtr& plan, const Settings& settings);
/// The rule names in a disabled_optimizers list (comma-separated, spaces ignored);
/// InvalidInputError naming the known rules for an unknown one. SET checks the list with it.
std::set<std::string> DisabledOptimizers(const std::string& list);

// The rules (one file each).
void FactorOrPredicates(LogicalOperatorPtr& plan, const Settings& settings);
void SimplifyOuterJoins(LogicalOperatorPtr& plan, const Settings& settings);
void PushDownFilters(LogicalOperatorPtr& plan, const Settings& settings);
void PushFiltersIntoCtes(LogicalOperatorPtr& plan, const Settings& settings);
void PruneColumns(LogicalOperatorPtr& plan, const Settings& settings);
void LimitWindows(LogicalOperatorPtr& plan, const Settings& settings);
void EstimateCardinalities(LogicalOperatorPtr& plan, const Settings& settings);
void PullUpOuterJoins(LogicalOperatorPtr& plan, const Settings& settings);
void ReverseSemiJoins(LogicalOperatorPtr& plan, const Settings& settings);
void AggregateEagerly(LogicalOperatorPtr& plan, const Settings& settings);
void ReorderJoins(LogicalOperatorPtr& plan, const Settings& settings);
void ChooseBuildSides(LogicalOperatorPtr& plan, const Settings& settings);
void TransferPredicatesBackward(LogicalOperatorPtr& plan, const Settings& settings);
void TransferStatistics(LogicalOperatorPtr& plan, const Settings& settings);
void PlanDynamicPartitionPruning(LogicalOperatorPtr& plan, const Settings& settings);
void PlanRuntimeFilters(LogicalOperatorPtr& plan, const Settings& settings);

/// The largest table index the plan produces or references: rules that add operators take
/// their indices above it.
uint32_t MaxTableIndex(LogicalOperator& op);

/// Where a column of `op`'s output comes from: a scan's column whose values reach
/// `op` unchanged (only rows are dropped or repeated on the way): through filters, ORDER BY,
/// projections of plain columns, aggregates grouping on it, windows partitioned by it, either
/// side of inner joins, the kept side of other joins and every input of a set operation (each
/// on its own column of the same position). Not through LIMIT (which rows survive it depends
/// on what comes in). Shared by dynamic partition pruning and runtime filters: a filter on the
/// traced scan column drops only rows the join would drop.
struct TracedColumn {
  LogicalGet* get = nullptr;
  int column_id = -1;  // dataset column
  /// Reached without passing a join equality (the key's own values, not values it equals).
  bool direct = true;
  /// Reached through an input of a set operation: the scan holds only some of the key's rows.
  bool branch = false;
  /// The key as a deterministic expression of the scan column (one BoundReference #0), when
  /// it is computed from it on the way (`CAST(p AS INT)`, `p + 1` in a projection, a group or
  /// the join key itself); null when the key is the column's own value.
  std::shared_ptr<const BoundExpr> key_expr;
  /// Reached through this reference to a materialized CTE, into the CTE's query: the scan
  /// serves every reference, so only a filter every reference needs may prune it.
  const LogicalCteScan* cte_scan = nullptr;
};
/// The queries of a plan's materialized CTEs (children[0] of each LogicalMaterializedCte), by
/// cte_index.
using CteDefinitions = std::map<uint32_t, LogicalOperator*>;
CteDefinitions FindCteDefinitions(LogicalOperator& plan);

/// Every scan column the key comes from: directly (through each input of a set operation),
/// then those it equals transitively: through an inner or semi join on `key = other`,
/// `other`'s scan column too (a row there whose key is not in a set can only pair with rows
/// whose key is not either). So one dimension's keys filter every fact joined on the same key
/// and every branch of a UNION. Projections and groups computing the key from one column
/// (deterministically) are followed with the computation in key_expr. `key`: the key as an
/// expression over `binding` (the join's key expression), when it is not the column itself.
/// Empty when none is reached. With `ctes`, a CTE_SCAN is followed into the CTE's query (once:
/// not from there into another CTE), the scans reached so marked with `cte_scan`.
std::vector<TracedColumn> TraceToScans(LogicalOperator& op, const ColumnBinding& binding,
                                       const BoundExpr* key = nullptr,
                                       const CteDefinitions* ctes = nullptr);
/// A reference to a materialized CTE the key comes from (TraceToCteScans): its rows are
/// read at the reference, where a runtime filter may drop those the join above drops.
struct TracedCteColumn {
  LogicalCteScan* scan = nullptr;
  int column = -1;  // position in the reference's output
  bool direct = true;
  /// The key computed from the column on the way (as TracedColumn::key_expr), or null.
  std::shared_ptr<const BoundExpr> key_expr;
};
/// The CTE references the key comes from, followed as TraceToScans follows it without `ctes`
/// (not into a CTE's query): where that trace meets a CTE_SCAN outputting the key.
std::vector<TracedCteColumn> TraceToCteScans(LogicalOperator& op, const ColumnBinding& binding,
                                             const BoundExpr* key = nullptr);
/// The one scan column all of the key's values come from (for statistics): none when the key
/// is not traced, is computed on the way or comes from several inputs of a set operation.
std::optional<TracedColumn> TraceToSource(LogicalOperator& op, const ColumnBinding& binding);

/// Whether something below `side` prunes `fact`'s partitions: a filter of the scan on a
/// partition column, or a join whose key reaches one (its build side's keys will prune them).
bool PartitionsFiltered(LogicalOperator& side, const LogicalGet& fact);

}  // namespace shears

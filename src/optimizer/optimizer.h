#pragma once
// The optimizer: an ordered list of rules over the logical plan. Each rule has a name (shown
// in EXPLAIN and accepted by SET disabled_optimizers = 'name,...') and lives in its own file.

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

// The rules (one file each).
void PushDownFilters(LogicalOperatorPtr& plan, const Settings& settings);
void PruneColumns(LogicalOperatorPtr& plan, const Settings& settings);
void EstimateCardinalities(LogicalOperatorPtr& plan, const Settings& settings);
void ChooseBuildSides(LogicalOperatorPtr& plan, const Settings& settings);
void PlanDynamicPartitionPruning(LogicalOperatorPtr& plan, const Settings& settings);

}  // namespace shears

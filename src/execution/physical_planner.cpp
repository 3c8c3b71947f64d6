#include "execution/physical_planner.h"

#include "common/error.h"
#include "execution/operator/physical_csv_scan.h"
#include "execution/operator/physical_cte.h"
#include "execution/operator/physical_filter.h"
#include "execution/operator/physical_hash_aggregate.h"
#include "execution/operator/physical_hash_join.h"
#include "execution/operator/physical_limit.h"
#include "execution/operator/physical_memory_scan.h"
#include "execution/operator/physical_nested_loop_join.h"
#include "execution/operator/physical_order.h"
#include "execution/operator/physical_projection.h"
#include "execution/operator/physical_range.h"
#include "execution/operator/physical_recursive_cte.h"
#include "execution/operator/physical_table_scan.h"
#include "execution/operator/physical_union.h"
#include "execution/operator/physical_unnest.h"
#include "execution/operator/physical_values.h"
#include "execution/operator/physical_window.h"
#include "planner/logical_plan.h"

namespace shears {

namespace {

std::vector<BoundExprPtr> ResolveAll(const std::vector<BoundExprPtr>& exprs,
                                     const std::vector<ColumnBinding>& inputs) {
  std::vector<BoundExprPtr> out;
  for (const auto& e : exprs)
    out.push_back(ResolveBindings(*e, inputs));
  return out;
}

bool UsesTable(const BoundExpr& expr, uint32_t table_index) {
  if (expr.kind == BoundExprKind::kColumnRef &&
      static_cast<const BoundColumnRef&>(expr).binding.table_index == table_index) {
    return true;
  }
  for (BoundExprPtr* child : const_cast<BoundExpr&>(expr).Children()) {
    if (*child && UsesTable(**child, table_index)) return true;
  }
  return false;
}

const Value* ConstantOf(const BoundExpr& expr) {
  return expr.kind == BoundExprKind::kConstant ? &static_cast<const BoundConstant&>(expr).value
                                               : nullptr;
}

// GROUPING SETS as the binder writes them (ExpandGroupingSets): an aggregate over
// `input LEFT JOIN VALUES(one row per set) ON TRUE` whose groups are input expressions (in
// every set), `CASE WHEN <values flag> THEN <input expression> ELSE NULL END` (in the sets whose
// flag is TRUE) or VALUES columns (the set id, grouping() values). Recognized here, the
// aggregate runs over the input alone, by the finest groups, folded into the sets' groups at
// the end (RollupPlan). `finest` gets the input expressions; false when the shape differs (the
// plan then runs as written, which is correct, only slower).
bool MatchGroupingSets(const LogicalAggregate& agg, std::vector<BoundExprPtr>* finest,
                       RollupPlan* plan) {
  const LogicalOperator& child = *agg.children[0];
  if (child.type != LogicalOperatorType::kJoin) return false;
  const auto& join = static_cast<const LogicalJoin&>(child);
  if (join.join_kind != JoinKind::kLeft || !join.conditions.empty() || join.residual ||
      join.children[1]->type != LogicalOperatorType::kValues) {
    return false;
  }
  const auto& values = static_cast<const LogicalValues&>(*join.children[1]);
  const uint32_t v = values.table_index;
  if (values.rows.empty()) return false;
  for (const auto& row : values.rows) {
    for (const auto& cell : row) {
      if (!ConstantOf(*cell)) return false;
    }
  }
  for (const auto& a : agg.aggregates) {
    const auto& bound = static_cast<const BoundAggregate&>(*a);
    if ((bound.distinct && bound.aggregate != AggregateKind::kCountStar) || UsesTable(*a, v)) {
      return false;
    }
  }
  plan->sets.assign(values.rows.size(), {});
  for (const auto& group : agg.groups) {
    plan->key_types.push_back(group->type);
    const BoundExpr* from_input = nullptr;
    int flag = -1;        // the VALUES column saying whether a set has the group
    int set_column = -1;  // the group is this VALUES column
    if (group->kind == BoundExprKind::kColumnRef &&
        static_cast<const BoundColumnRef&>(*group).binding.table_index == v) {
      set_column =
          static_cast<int>(static_cast<const BoundColumnRef&>(*group).binding.column_index);
    } else if (!UsesTable(*group, v)) {
      from_input = group.get();
    } else if (group->kind == BoundExprKind::kCase) {
      const auto& c = static_cast<const BoundCase&>(*group);
      if (c.when_then.size() != 1 || c.when_then[0].first->kind != BoundExprKind::kColumnRef)
        return false;
      const auto& when = static_cast<const BoundColumnRef&>(*c.when_then[0].first);
      const Value* otherwise = ConstantOf(*c.else_expr);
      if (when.binding.table_index != v || !otherwise || !otherwise->is_null() ||
          UsesTable(*c.when_then[0].second, v)) {
        return false;
      }
      flag = static_cast<int>(when.binding.column_index);
      from_input = c.when_then[0].second.get();
    } else {
      return false;
    }
    int finest_column = -1;
    if (from_input) {
      finest_column = static_cast<int>(finest->size());
      finest->push_back(from_input->Copy());
    }
    for (size_t s = 0; s < values.rows.size(); s++) {
      RollupPlan::KeySource source;
      if (set_column >= 0) {
        source.constant = *ConstantOf(*values.rows[s][static_cast<size_t>(set_column)]);
        if (source.constant.type() != group->type) return false;
      } else if (flag >= 0) {
        const Value& in_set = *ConstantOf(*values.rows[s][static_cast<size_t>(flag)]);
        if (!in_set.is_null() && in_set.GetBoolean()) {
          source.finest = finest_column;
        } else {
          source.constant = Value::Null(group->type);
        }
      } else {
        source.finest = finest_column;
      }
      plan->sets[s].push_back(std::move(source));
    }
  }
  return !finest->empty();
}
}  // namespace

PhysicalOperatorPtr PhysicalPlanner::Plan(LogicalOperator& op) {
  PhysicalOperatorPtr result;
  const auto types = op.GetTypes();
  switch (op.type) {
    case LogicalOperatorType::kGet: {
      auto& get = static_cast<LogicalGet&>(op);
      auto filters = ResolveAll(get.filters, get.GetColumnBindings());
      if (get.dataset->memory()) {
        result = std::make_unique<PhysicalMemoryScan>(get.dataset, get.column_ids,
                                                      std::move(filters), get.table_name);
        break;
      }
      if (get.dataset->csv()) {
        result = std::make_unique<PhysicalCsvScan>(get.dataset, get.column_ids, std::move(filters),
                                                   get.table_name, get.dynamic_filters);
        break;
      }
      auto scan = std::make_unique<PhysicalTableScan>(get.dataset, get.column_ids,
                                                      std::move(filters), get.table_name,
                                                      get.dynamic_filters, get.runtime_filters);
      scan->SetStatisticsBounds(get.statistics_bounds);
      if (get.statistics_source) {
        // The scans this one bounds read its kept files when they start.
        StatisticsBoundsSource& source = *get.statistics_source;
        source.scans++;
        source.dataset = get.dataset;
        source.filters = &scan->filter_spec();
        source.column_ids = get.column_ids;
      }
      result = std::move(scan);
      break;
    }
    case LogicalOperatorType::kDummyScan: {
      std::vector<std::vector<BoundExprPtr>> rows(1);
      result = std::make_unique<PhysicalValues>(types, std::move(rows));
      break;
    }
    case LogicalOperatorType::kValues: {
      auto& values = static_cast<LogicalValues&>(op);
      std::vector<std::vector<BoundExprPtr>> rows;
      for (const auto& row : values.rows)
        rows.push_back(ResolveAll(row, {}));
      result = std::make_unique<PhysicalValues>(types, std::move(rows));
      break;
    }
    case LogicalOperatorType::kRange: {
      auto& range = static_cast<LogicalRange&>(op);
      result =
          std::make_unique<PhysicalRange>(range.function, range.start, range.step, range.count);
      break;
    }
    case LogicalOperatorType::kFilter: {
      auto& filter = static_cast<LogicalFilter&>(op);
      auto child = Plan(*op.children[0]);
      result = std::make_unique<PhysicalFilter>(
          child->types(), ResolveAll(filter.conditions, op.children[0]->GetColumnBindings()));
      result->AddChild(std::move(child));
      break;
    }
    case LogicalOperatorType::kUnnest: {
      auto& unnest = static_cast<LogicalUnnest&>(op);
      auto child = Plan(*op.children[0]);
      result = std::make_unique<PhysicalUnnest>(
          types, ResolveAll(unnest.lists, op.children[0]->GetColumnBindings()));
      result->AddChild(std::move(child));
      break;
    }
    case LogicalOperatorType::kProjection: {
      auto& projection = static_cast<LogicalProjection&>(op);
      auto child = Plan(*op.children[0]);
      result = std::make_unique<PhysicalProjection>(
          types, ResolveAll(projection.expressions, op.children[0]->GetColumnBindings()));
      result->AddChild(std::move(child));
      break;
    }
    case LogicalOperatorType::kAggregate: {
      auto& agg = static_cast<LogicalAggregate&>(op);
      std::vector<BoundExprPtr> finest;
      RollupPlan rollup;
      if (MatchGroupingSets(agg, &finest, &rollup)) {
        LogicalOperator& input = *op.children[0]->children[0];
        auto input_bindings = input.GetColumnBindings();
        auto child = Plan(input);
        result = std::make_unique<PhysicalHashAggregate>(types, ResolveAll(finest, input_bindings),
                                                         ResolveAll(agg.aggregates, input_bindings),
                                                         agg.empty_input_groups, std::move(rollup));
        result->AddChild(std::move(child));
        break;
      }
      auto inputs = op.children[0]->GetColumnBindings();
      auto child = Plan(*op.children[0]);
      auto hash_agg = std::make_unique<PhysicalHashAggregate>(types, ResolveAll(agg.groups, inputs),
                                                              ResolveAll(agg.aggregates, inputs),
                                                              agg.empty_input_groups);
      if (agg.partial) hash_agg->AllowPassThrough();
      result = std::move(hash_agg);
      result->AddChild(std::move(child));
      break;
    }
    case LogicalOperatorType::kJoin: {
      auto& join = static_cast<LogicalJoin&>(op);
      auto left_bindings = op.children[0]->GetColumnBindings();
      auto right_bindings = op.children[1]->GetColumnBindings();
      if (join.conditions.empty()) {
        // No equality to hash on: every left row meets every right row.
        BoundExprPtr condition;
        if (join.residual) {
          auto both = left_bindings;
          both.insert(both.end(), right_bindings.begin(), right_bindings.end());
          condition = ResolveBindings(*join.residual, both);
        }
        JoinKind kind = join.join_kind;
        if (kind == JoinKind::kCross && condition) kind = JoinKind::kInner;
        auto left = Plan(*op.children[0]);
        auto right = Plan(*op.children[1]);
        auto nested_loop =
            std::make_unique<PhysicalNestedLoopJoin>(types, kind, std::move(condition));
        nested_loop->SetNoDynamicFilterReason(NoDynamicFilterReason(join));
        // The build side's bounds, published when it finished (partition filters `>=` ...).
        std::vector<std::pair<int, BoundExprPtr>> bounds;
        for (const auto& [id, expr] : join.dynamic_bound_producers)
          bounds.emplace_back(id, ResolveBindings(*expr, right_bindings));
        nested_loop->SetBoundFilters(std::move(bounds));
        result = std::move(nested_loop);
        result->AddChild(std::move(left));
        result->AddChild(std::move(right));
        break;
      }
      std::vector<BoundExprPtr> left_keys, right_keys;
      std::vector<bool> null_equal;
      for (const auto& c : join.conditions) {
        left_keys.push_back(ResolveBindings(*c.left, left_bindings));
        right_keys.push_back(ResolveBindings(*c.right, right_bindings));
        null_equal.push_back(c.null_equal);
      }
      BoundExprPtr residual;
      if (join.residual) {
        auto both = left_bindings;
        both.insert(both.end(), right_bindings.begin(), right_bindings.end());
        residual = ResolveBindings(*join.residual, both);
      }
      auto left = Plan(*op.children[0]);
      auto right = Plan(*op.children[1]);
      auto hash_join = std::make_unique<PhysicalHashJoin>(
          types, join.join_kind, std::move(left_keys), std::move(right_keys), std::move(null_equal),
          std::move(residual));
      // Dynamic partition filters are built like runtime filters, from the join's build rows
      // once its build side finished: the runtime filter on the same key serves both uses.
      auto specs = join.runtime_filter_producers;
      AddPartitionFilterSpecs(specs, join.dynamic_filter_producers);
      hash_join->SetRuntimeFilters(std::move(specs), join.runtime_filter_note);
      hash_join->SetNoDynamicFilterReason(NoDynamicFilterReason(join));
      result = std::move(hash_join);
      result->AddChild(std::move(left));
      result->AddChild(std::move(right));
      break;
    }
    case LogicalOperatorType::kOrderBy: {
      auto& order = static_cast<LogicalOrderBy&>(op);
      auto inputs = op.children[0]->GetColumnBindings();
      std::vector<BoundOrderBy> orders;
      for (const auto& o : order.orders) {
        orders.push_back({ResolveBindings(*o.expr, inputs), o.descending, o.nulls_first});
      }
      auto child = Plan(*op.children[0]);
      result = std::make_unique<PhysicalOrder>(types, std::move(orders));
      result->AddChild(std::move(child));
      break;
    }
    case LogicalOperatorType::kWindow: {
      auto& window = static_cast<LogicalWindow&>(op);
      auto inputs = op.children[0]->GetColumnBindings();
      auto child = Plan(*op.children[0]);
      result = std::make_unique<PhysicalWindow>(types, ResolveAll(window.windows, inputs),
                                                window.row_limit, window.limit_window);
      result->AddChild(std::move(child));
      break;
    }
    case LogicalOperatorType::kLimit: {
      auto& limit = static_cast<LogicalLimit&>(op);
      // LIMIT over ORDER BY is a top-N: it never sorts more than it keeps.
      if (op.children[0]->type == LogicalOperatorType::kOrderBy && limit.limit >= 0) {
        auto& order = static_cast<LogicalOrderBy&>(*op.children[0]);
        auto inputs = order.children[0]->GetColumnBindings();
        std::vector<BoundOrderBy> orders;
        for (const auto& o : order.orders) {
          orders.push_back({ResolveBindings(*o.expr, inputs), o.descending, o.nulls_first});
        }
        auto child = Plan(*order.children[0]);
        result =
            std::make_unique<PhysicalTopN>(types, std::move(orders), limit.limit, limit.offset);
        result->AddChild(std::move(child));
        break;
      }
      auto child = Plan(*op.children[0]);
      result = std::make_unique<PhysicalLimit>(types, limit.limit, limit.offset);
      result->AddChild(std::move(child));
      break;
    }
    case LogicalOperatorType::kWorkingTable: {
      auto& working = static_cast<LogicalWorkingTable&>(op);
      auto table = working_tables_.find(working.cte_id);
      SHEARS_CHECK(table != working_tables_.end());
      result = std::make_unique<PhysicalWorkingTableScan>(types, table->second, working.cte_name);
      break;
    }
    case LogicalOperatorType::kSetOperation: {
      auto& set = static_cast<LogicalSetOperation&>(op);
      if (set.kind == SetOperationKind::kRecursiveUnion) {
        auto table = std::make_shared<WorkingTable>();
        working_tables_[set.cte_id] = table;
        auto anchor = Plan(*op.children[0]);
        auto recursive = Plan(*op.children[1]);
        working_tables_.erase(set.cte_id);
        result =
            std::make_unique<PhysicalRecursiveCte>(types, std::move(anchor), std::move(recursive),
                                                   std::move(table), set.all, set.cte_name);
        break;
      }
      auto left = Plan(*op.children[0]);
      auto right = Plan(*op.children[1]);
      auto distinct_of = [&](PhysicalOperatorPtr input) {
        std::vector<BoundExprPtr> groups;
        for (size_t i = 0; i < types.size(); i++) {
          groups.push_back(std::make_unique<BoundReference>(types[i], i, "#" + std::to_string(i)));
        }
        auto agg = std::make_unique<PhysicalHashAggregate>(types, std::move(groups),
                                                           std::vector<BoundExprPtr>{});
        agg->AddChild(std::move(input));
        return PhysicalOperatorPtr(std::move(agg));
      };
      if (set.kind == SetOperationKind::kUnion) {
        auto union_all = std::make_unique<PhysicalUnionAll>(types);
        union_all->AddChild(std::move(left));
        union_all->AddChild(std::move(right));
        result = std::move(union_all);
        if (!set.all) result = distinct_of(std::move(result));
        break;
      }
      // INTERSECT / EXCEPT: a semi / anti join on all columns with NULLs equal, the left side
      // made distinct. The ALL forms keep multiplicities: each side numbers the copies of a
      // row (row_number() OVER (PARTITION BY every column)), so the k-th copy on the left
      // meets the k-th on the right: INTERSECT ALL keeps min(m, n) copies, EXCEPT ALL m - n.
      const size_t key_count = types.size() + (set.all ? 1 : 0);
      auto numbered = [&](PhysicalOperatorPtr input) {
        std::vector<LogicalType> numbered_types = types;
        numbered_types.push_back(LogicalType::Bigint());
        auto row_number =
            std::make_unique<BoundWindow>(WindowFunction::kRowNumber, LogicalType::Bigint());
        row_number->name = "row_number";
        row_number->unit = WindowFrameUnit::kRows;
        for (size_t i = 0; i < types.size(); i++) {
          row_number->partitions.push_back(
              std::make_unique<BoundReference>(types[i], i, "#" + std::to_string(i)));
        }
        std::vector<BoundExprPtr> windows;
        windows.push_back(std::move(row_number));
        auto window = std::make_unique<PhysicalWindow>(numbered_types, std::move(windows));
        window->AddChild(std::move(input));
        return PhysicalOperatorPtr(std::move(window));
      };
      std::vector<LogicalType> key_types = types;
      if (set.all) key_types.push_back(LogicalType::Bigint());
      std::vector<BoundExprPtr> left_keys, right_keys;
      std::vector<bool> null_equal;
      for (size_t i = 0; i < key_count; i++) {
        const LogicalType& type = key_types[i];
        left_keys.push_back(std::make_unique<BoundReference>(type, i, "#" + std::to_string(i)));
        right_keys.push_back(std::make_unique<BoundReference>(type, i, "#" + std::to_string(i)));
        null_equal.push_back(true);
      }
      auto join = std::make_unique<PhysicalHashJoin>(
          key_types, set.kind == SetOperationKind::kIntersect ? JoinKind::kSemi : JoinKind::kAnti,
          std::move(left_keys), std::move(right_keys), std::move(null_equal), nullptr);
      join->AddChild(set.all ? numbered(std::move(left)) : distinct_of(std::move(left)));
      join->AddChild(set.all ? numbered(std::move(right)) : std::move(right));
      result = std::move(join);
      if (set.all) {
        std::vector<BoundExprPtr> columns;
        for (size_t i = 0; i < types.size(); i++) {
          columns.push_back(std::make_unique<BoundReference>(types[i], i, "#" + std::to_string(i)));
        }
        auto projection = std::make_unique<PhysicalProjection>(types, std::move(columns));
        projection->AddChild(std::move(result));
        result = std::move(projection);
      }
      break;
    }
    case LogicalOperatorType::kMaterializedCte: {
      auto& cte = static_cast<LogicalMaterializedCte&>(op);
      auto definition = Plan(*op.children[0]);
      auto materialized =
          std::make_unique<PhysicalMaterializedCte>(cte.name, types, op.children[0]->GetTypes());
      // A copy of the plan (decorrelation) may repeat a CTE's index inside itself: the scans
      // read the innermost.
      const PhysicalMaterializedCte* outer =
          ctes_.count(cte.cte_index) ? ctes_[cte.cte_index] : nullptr;
      ctes_[cte.cte_index] = materialized.get();
      auto query = Plan(*op.children[1]);
      if (outer) {
        ctes_[cte.cte_index] = outer;
      } else {
        ctes_.erase(cte.cte_index);
      }
      materialized->AddChild(std::move(definition));
      materialized->AddChild(std::move(query));
      result = std::move(materialized);
      break;
    }
    case LogicalOperatorType::kCteScan: {
      auto& scan = static_cast<LogicalCteScan&>(op);
      auto found = ctes_.find(scan.cte_index);
      if (found == ctes_.end() || !op.children.empty()) {
        throw InternalError("CTE scan of '{}' outside its CTE", scan.name);
      }
      result =
          std::make_unique<PhysicalCteScan>(*found->second, scan.name, types, scan.runtime_filters);
      break;
    }
  }
  result->estimated_rows = op.estimated_rows;
  return result;
}

}  // namespace shears

#include "planner/logical_plan.h"

#include <fmt/format.h>

#include "common/numeric_cast.h"
#include "storage/partition_pruning.h"

namespace shears {

namespace {
std::string JoinExprs(const std::vector<BoundExprPtr>& exprs, const char* sep = ", ") {
  std::string out;
  for (size_t i = 0; i < exprs.size(); i++)
    out += (i ? sep : "") + exprs[i]->ToString();
  return out;
}
std::vector<BoundExprPtr*> Pointers(std::vector<BoundExprPtr>& exprs) {
  std::vector<BoundExprPtr*> out;
  for (auto& e : exprs)
    out.push_back(&e);
  return out;
}
}  // namespace

std::string LogicalOperator::ToString(int indent) const {
  std::string out = std::string(static_cast<size_t>(indent) * 2, ' ') + Describe();
  if (estimated_rows >= 0) out += " [~" + FormatEstimate(estimated_rows) + " rows]";
  out += "\n";
  for (const auto& child : children)
    out += child->ToString(indent + 1);
  return out;
}

std::vector<ColumnBinding> LogicalGet::GetColumnBindings() const {
  std::vector<ColumnBinding> out;
  for (int id : column_ids)
    out.push_back({table_index, static_cast<uint32_t>(id)});
  return out;
}

std::vector<LogicalType> LogicalGet::GetTypes() const {
  std::vector<LogicalType> out;
  for (int id : column_ids) {
    const auto& type = dataset->columns()[static_cast<size_t>(id)].type;
    out.push_back(type.valid() ? type : LogicalType::Varchar());
  }
  return out;
}

std::string LogicalGet::Describe() const {
  std::string out = "GET " + table_name + " [";
  for (size_t i = 0; i < column_ids.size(); i++) {
    out += (i ? ", " : "") + dataset->columns()[static_cast<size_t>(column_ids[i])].name;
  }
  out += "]";
  if (!filters.empty()) out += " filters: " + JoinExprs(filters, " AND ");
  for (const auto& f : dynamic_filters) {
    out += " " + DescribeDynamicPartitionFilter(f, *dataset);
  }
  for (const auto& f : runtime_filters) {
    out += (f.statistics_bounds ? " statistics_bounds #" : " runtime_filter #") +
           std::to_string(f.filter_id) + ": ";
    for (size_t i = 0; i < f.column_ids.size(); i++)
      out += (i ? ", " : "") + dataset->columns()[static_cast<size_t>(f.column_ids[i])].name;
    out += " " + f.description;
  }
  return out;
}

std::vector<BoundExprPtr*> LogicalGet::Expressions() {
  return Pointers(filters);
}

std::vector<ColumnBinding> LogicalValues::GetColumnBindings() const {
  std::vector<ColumnBinding> out;
  for (size_t i = 0; i < types.size(); i++)
    out.push_back({table_index, static_cast<uint32_t>(i)});
  return out;
}

std::string LogicalValues::Describe() const {
  return "VALUES (" + std::to_string(rows.size()) + " rows)";
}

std::string LogicalRange::Describe() const {
  return fmt::format("RANGE {} (start {}, step {}, {} rows)", function, start, step, count);
}

std::vector<BoundExprPtr*> LogicalValues::Expressions() {
  std::vector<BoundExprPtr*> out;
  for (auto& row : rows) {
    for (auto& e : row)
      out.push_back(&e);
  }
  return out;
}

std::string LogicalFilter::Describe() const {
  return "FILTER " + JoinExprs(conditions, " AND ");
}
std::vector<BoundExprPtr*> LogicalFilter::Expressions() {
  return Pointers(conditions);
}

std::vector<ColumnBinding> LogicalProjection::GetColumnBindings() const {
  std::vector<ColumnBinding> out;
  for (size_t i = 0; i < expressions.size(); i++)
    out.push_back({table_index, static_cast<uint32_t>(i)});
  return out;
}

std::vector<LogicalType> LogicalProjection::GetTypes() const {
  std::vector<LogicalType> out;
  for (const auto& e : expressions)
    out.push_back(e->type);
  return out;
}

std::string LogicalProjection::Describe() const {
  return "PROJECTION " + JoinExprs(expressions);
}
std::vector<BoundExprPtr*> LogicalProjection::Expressions() {
  return Pointers(expressions);
}

std::vector<ColumnBinding> LogicalAggregate::GetColumnBindings() const {
  std::vector<ColumnBinding> out;
  for (size_t i = 0; i < groups.size(); i++)
    out.push_back({group_index, static_cast<uint32_t>(i)});
  for (size_t i = 0; i < aggregates.size(); i++) {
    out.push_back({aggregate_index, static_cast<uint32_t>(i)});
  }
  return out;
}

std::vector<LogicalType> LogicalAggregate::GetTypes() const {
  std::vector<LogicalType> out;
  for (const auto& g : groups)
    out.push_back(g->type);
  for (const auto& a : aggregates)
    out.push_back(a->type);
  return out;
}

std::string LogicalAggregate::Describe() const {
  std::string out = "AGGREGATE";
  if (!groups.empty()) out += " groups: " + JoinExprs(groups);
  if (!aggregates.empty()) out += " aggregates: " + JoinExprs(aggregates);
  return out;
}

std::vector<BoundExprPtr*> LogicalAggregate::Expressions() {
  auto out = Pointers(groups);
  for (auto& a : aggregates)
    out.push_back(&a);
  return out;
}

std::vector<ColumnBinding> LogicalJoin::GetColumnBindings() const {
  if (join_kind == JoinKind::kRightSemi || join_kind == JoinKind::kRightAnti)
    return children[1]->GetColumnBindings();
  auto out = children[0]->GetColumnBindings();
  if (join_kind == JoinKind::kSemi || join_kind == JoinKind::kAnti) return out;
  if (join_kind == JoinKind::kMark) {
    out.push_back({mark_index, 0});
    return out;
  }
  auto right = children[1]->GetColumnBindings();
  out.insert(out.end(), right.begin(), right.end());
  return out;
}

std::vector<LogicalType> LogicalJoin::GetTypes() const {
  if (join_kind == JoinKind::kRightSemi || join_kind == JoinKind::kRightAnti)
    return children[1]->GetTypes();
  auto out = children[0]->GetTypes();
  if (join_kind == JoinKind::kSemi || join_kind == JoinKind::kAnti) return out;
  if (join_kind == JoinKind::kMark) {
    out.push_back(LogicalType::Boolean());
    return out;
  }
  auto right = children[1]->GetTypes();
  out.insert(out.end(), right.begin(), right.end());
  return out;
}

std::string LogicalJoin::Describe() const {
  std::string out = std::string("JOIN ") + JoinKindName(join_kind);
  for (size_t i = 0; i < conditions.size(); i++) {
    out += (i ? " AND " : " ON ") + conditions[i].left->ToString() +
           (conditions[i].null_equal ? " IS NOT DISTINCT FROM " : " = ") +
           conditions[i].right->ToString();
  }
  if (residual) out += " residual: " + residual->ToString();
  for (const auto& [id, condition] : dynamic_filter_producers) {
    out += " produces dynamic filter #" + std::to_string(id) + " from " +
           conditions[condition].right->ToString();
  }
  for (const auto& [id, expr] : dynamic_bound_producers)
    out += " produces dynamic filter #" + std::to_string(id) + " from the bounds of " +
           expr->ToString();
  if (!dynamic_filter_benefit.empty())
    out += " (dynamic partition pruning benefit: " + dynamic_filter_benefit + ")";
  if (!dynamic_filter_note.empty())
    out += " (no dynamic partition pruning: " + dynamic_filter_note + ")";
  for (const auto& spec : runtime_filter_producers) {
    out += " produces runtime filter #" + std::to_string(spec.filter_id) + " from ";
    for (size_t i = 0; i < spec.keys.size(); i++)
      out += (i ? ", " : "") + conditions[spec.keys[i]].right->ToString();
  }
  if (!runtime_filter_note.empty()) out += " (no runtime filter: " + runtime_filter_note + ")";
  if (!transfer_note.empty()) out += " (no backward transfer: " + transfer_note + ")";
  return out;
}

std::vector<BoundExprPtr*> LogicalJoin::Expressions() {
  std::vector<BoundExprPtr*> out;
  for (auto& c : conditions) {
    out.push_back(&c.left);
    out.push_back(&c.right);
  }
  if (residual) out.push_back(&residual);
  return out;
}

std::string LogicalOrderBy::Describe() const {
  std::string out = "ORDER_BY";
  for (size_t i = 0; i < orders.size(); i++) {
    out += (i ? ", " : " ") + orders[i].expr->ToString() +
           (orders[i].descending ? " DESC" : " ASC") +
           (orders[i].nulls_first ? " NULLS FIRST" : " NULLS LAST");
  }
  return out;
}

std::vector<BoundExprPtr*> LogicalOrderBy::Expressions() {
  std::vector<BoundExprPtr*> out;
  for (auto& o : orders)
    out.push_back(&o.expr);
  return out;
}

std::string LogicalLimit::Describe() const {
  return "LIMIT " + (limit < 0 ? std::string("ALL") : std::to_string(limit)) +
         (offset ? " OFFSET " + std::to_string(offset) : "");
}

std::vector<ColumnBinding> LogicalWindow::GetColumnBindings() const {
  auto out = children[0]->GetColumnBindings();
  for (size_t i = 0; i < windows.size(); i++)
    out.push_back({window_index, static_cast<uint32_t>(i)});
  return out;
}

std::vector<LogicalType> LogicalWindow::GetTypes() const {
  auto out = children[0]->GetTypes();
  for (const auto& w : windows)
    out.push_back(w->type);
  return out;
}

std::string WindowLimitText(const BoundWindow& window, int64_t row_limit) {
  if (row_limit < 0) return "";
  return " (keep " + window.name + " <= " + std::to_string(row_limit) + " per partition)";
}

std::string LogicalWindow::Describe() const {
  return "WINDOW " + JoinExprs(windows) +
         WindowLimitText(static_cast<const BoundWindow&>(*windows[limit_window]), row_limit);
}

std::vector<BoundExprPtr*> LogicalWindow::Expressions() {
  return Pointers(windows);
}

std::vector<ColumnBinding> LogicalUnnest::GetColumnBindings() const {
  auto out = children[0]->GetColumnBindings();
  for (size_t i = 0; i < lists.size(); i++)
    out.push_back({table_index, static_cast<uint32_t>(i)});
  return out;
}

std::vector<LogicalType> LogicalUnnest::GetTypes() const {
  auto out = children[0]->GetTypes();
  for (const auto& list : lists) {
    const LogicalType element = list->type.IsList() ? list->type.element() : LogicalType();
    out.push_back(element.valid() ? element : LogicalType::Integer());
  }
  return out;
}

std::string LogicalUnnest::Describe() const {
  return "UNNEST " + JoinExprs(lists);
}

std::vector<BoundExprPtr*> LogicalUnnest::Expressions() {
  return Pointers(lists);
}

std::vector<ColumnBinding> LogicalSetOperation::GetColumnBindings() const {
  std::vector<ColumnBinding> out;
  for (size_t i = 0; i < types.size(); i++)
    out.push_back({table_index, static_cast<uint32_t>(i)});
  return out;
}

std::string LogicalSetOperation::Describe() const {
  if (kind == SetOperationKind::kRecursiveUnion) {
    return "RECURSIVE_CTE " + cte_name + (all ? " (UNION ALL)" : " (UNION)");
  }
  const char* name = kind == SetOperationKind::kUnion       ? "UNION"
                     : kind == SetOperationKind::kIntersect ? "INTERSECT"
                                                            : "EXCEPT";
  return std::string(name) + (all ? " ALL" : "");
}

std::string LogicalCteScan::Describe() const {
  std::string out = "CTE_SCAN " + name;
  for (const auto& f : runtime_filters) {
    out += " runtime_filter #" + std::to_string(f.filter_id) + ": ";
    for (size_t i = 0; i < f.column_ids.size(); i++)
      out += (i ? ", #" : "#") + std::to_string(f.column_ids[i]);
    out += " " + f.description;
  }
  return out;
}

void SetCteScanRows(LogicalOperator& op, uint32_t cte_index, double rows) {
  if (op.type == LogicalOperatorType::kCteScan &&
      static_cast<LogicalCteScan&>(op).cte_index == cte_index) {
    static_cast<LogicalCteScan&>(op).definition_rows = rows;
  }
  for (auto& child : op.children)
    SetCteScanRows(*child, cte_index, rows);
}

std::vector<ColumnBinding> LogicalWorkingTable::GetColumnBindings() const {
  std::vector<ColumnBinding> out;
  for (size_t i = 0; i < types.size(); i++)
    out.push_back({table_index, static_cast<uint32_t>(i)});
  return out;
}

JoinFilterShape LogicalJoin::FilterShape() const {
  JoinFilterShape shape;
  shape.kind = join_kind;
  for (const auto& condition : conditions) {
    shape.probe_keys.push_back(condition.left.get());
    shape.null_equal.push_back(condition.null_equal);
  }
  shape.residual = residual != nullptr;
  shape.mark = ColumnBinding{mark_index, 0};
  return shape;
}

std::string NoDynamicFilterReason(const LogicalJoin& join) {
  std::string out;
  if (join.dynamic_filter_producers.empty() && join.dynamic_bound_producers.empty()) {
    out = "partitions: " + (join.dynamic_filter_note.empty()
                                ? std::string("not planned (dynamic partition pruning is off)")
                                : join.dynamic_filter_note);
  }
  if (join.runtime_filter_producers.empty()) {
    std::string rows = join.runtime_filter_note;
    if (rows.empty()) {
      // Runtime filters hold the keys of a hash table: a nested loop join has none.
      rows = join.conditions.empty() ? "no equality key"
                                     : "not planned (runtime_filter or dynamic_filtering is off)";
    }
    out += (out.empty() ? "rows: " : "; rows: ") + rows;
  }
  if (!join.transfer_note.empty())
    out += (out.empty() ? "" : "; ") + std::string("no backward transfer: ") + join.transfer_note;
  return out;
}

}  // namespace shears

#include "optimizer/statistics_transfer.h"

#include "dynfilter/join_legality.h"
#include "optimizer/optimizer.h"

namespace shears {

namespace {

// A key whose files each span more than this share of the sampled files' range does not follow
// the partitioning enough for its kept files' range to skip much.
constexpr double kMaxSpread = 0.5;

// The scan column a join key is, as its own values (not through a join equality, a set
// operation's branch or a computation): the get and the dataset column, or nullopt.
std::optional<TracedColumn> PlainKeyColumn(LogicalOperator& side, const BoundExpr& key) {
  if (key.kind != BoundExprKind::kColumnRef) return std::nullopt;
  std::optional<TracedColumn> found;
  for (const TracedColumn& traced :
       TraceToScans(side, static_cast<const BoundColumnRef&>(key).binding)) {
    if (!traced.direct || traced.branch || traced.key_expr || traced.cte_scan) continue;
    if (found) return std::nullopt;  // two scans give the key's values
    found = traced;
  }
  return found;
}

// Whether the column's file statistics can bound it: an integer-like file column of a Parquet
// dataset.
bool Bounded(const TracedColumn& column) {
  const Dataset& dataset = *column.get->dataset;
  if (dataset.csv() || dataset.memory()) return false;
  const size_t id = static_cast<size_t>(column.column_id);
  if (id >= dataset.num_file_columns()) return false;
  const LogicalType& type = dataset.columns()[id].type;
  return type.id() != TypeId::kDecimal &&
         (type.physical() == PhysicalType::kInt32 || type.physical() == PhysicalType::kInt64);
}

// The largest filter id the plan holds (a statistics bound takes the next).
int MaxFilterId(const LogicalOperator& op) {
  int id = 0;
  auto targets = [&id](const std::vector<RuntimeFilterTarget>& runtime) {
    for (const auto& target : runtime)
      id = std::max(id, target.filter_id);
  };
  if (op.type == LogicalOperatorType::kJoin) {
    const auto& join = static_cast<const LogicalJoin&>(op);
    for (const auto& producer : join.dynamic_filter_producers)
      id = std::max(id, producer.first);
    for (const auto& producer : join.dynamic_bound_producers)
      id = std::max(id, producer.first);
    for (const auto& spec : join.runtime_filter_producers) {
      id = std::max({id, spec.filter_id, spec.partition_filter_id});
      for (const auto& united : spec.unions)
        id = std::max(id, united.filter_id);
    }
  } else if (op.type == LogicalOperatorType::kGet) {
    const auto& get = static_cast<const LogicalGet&>(op);
    for (const auto& filter : get.dynamic_filters) {
      id = std::max(id, filter.filter_id);
      for (int producer : filter.ProducerIds())
        id = std::max(id, producer);
    }
    targets(get.runtime_filters);
  } else if (op.type == LogicalOperatorType::kCteScan) {
    targets(static_cast<const LogicalCteScan&>(op).runtime_filters);
  }
  for (const auto& child : op.children)
    id = std::max(id, MaxFilterId(*child));
  return id;
}

void Visit(LogicalOperator& op, const Settings& settings, int& next_id) {
  for (auto& child : op.children)
    Visit(*child, settings, next_id);
  if (op.type != LogicalOperatorType::kJoin) return;
  auto& join = static_cast<LogicalJoin&>(op);
  const auto transfer = FindStatisticsTransfer(join, settings);
  if (!transfer) return;
  LogicalGet& probe = *transfer->probe;
  // The kept files bound the key narrowly only when the probe fact's partitions are pruned: by
  // its own filters or a join's keys (planned by now, wherever the join is).
  if (probe.dynamic_filters.empty() && !PartitionsFiltered(probe, probe)) return;
  LogicalGet& build = *transfer->build;
  if (!probe.statistics_source)
    probe.statistics_source = std::make_shared<StatisticsBoundsSource>();
  const std::string& key =
      probe.dataset->columns()[static_cast<size_t>(transfer->probe_column)].name;
  RuntimeFilterTarget target;
  target.filter_id = next_id++;
  target.column_ids = {transfer->build_column};
  target.statistics_bounds = true;
  target.description = "from the files " + probe.table_name + " keeps (their " + key +
                       " bounds) for JOIN " + JoinKindName(join.join_kind) + " (" +
                       join.conditions[transfer->condition].left->ToString() + " = " +
                       join.conditions[transfer->condition].right->ToString() + ")";
  build.runtime_filters.push_back(std::move(target));
  build.statistics_bounds.push_back({build.runtime_filters.back().filter_id,
                                     probe.statistics_source, transfer->probe_column,
                                     probe.table_name + "." + key});
}

}  // namespace

std::optional<StatisticsTransfer> FindStatisticsTransfer(LogicalJoin& join,
                                                         const Settings& settings) {
  if (!settings.GetBool("dynamic_filtering") ||
      !settings.GetBool("runtime_filter.statistics_transfer"))
    return std::nullopt;
  if (!BuildSideFilterLegality(join.join_kind).empty() || join.children.size() != 2)
    return std::nullopt;
  std::optional<StatisticsTransfer> best;
  for (size_t i = 0; i < join.conditions.size(); i++) {
    const JoinCondition& c = join.conditions[i];
    if (!ConditionFiltersKeys(c.null_equal)) continue;
    const auto probe = PlainKeyColumn(*join.children[0], *c.left);
    const auto build = PlainKeyColumn(*join.children[1], *c.right);
    if (!probe || !build || probe->get == build->get || !Bounded(*probe) || !Bounded(*build))
      continue;
    const Dataset& probe_data = *probe->get->dataset;
    if (probe_data.num_partition_columns() == 0 ||
        !(probe_data.columns()[static_cast<size_t>(probe->column_id)].type ==
          build->get->dataset->columns()[static_cast<size_t>(build->column_id)].type))
      continue;
    const std::optional<double> spread = KeySpreadPerFile(probe->get->dataset, probe->column_id);
    if (spread && *spread > kMaxSpread) continue;
    if (best && (!spread || (best->spread && *best->spread <= *spread))) continue;
    best =
        StatisticsTransfer{probe->get, probe->column_id, build->get, build->column_id, i, spread};
  }
  return best;
}

void TransferStatistics(LogicalOperatorPtr& plan, const Settings& settings) {
  int next_id = MaxFilterId(*plan) + 1;
  Visit(*plan, settings, next_id);
}

}  // namespace shears

#include "execution/operator/physical_cte.h"

#include <fmt/format.h>

#include <atomic>
#include <mutex>

#include "common/error.h"
#include "dynfilter/runtime_filter_probe.h"
#include "execution/pipeline.h"
#include "execution/query_context.h"

namespace shears {

namespace {

struct CteGlobalState : GlobalSinkState {
  explicit CteGlobalState(ColumnDataCollection c) : rows(std::move(c)) {}
  std::mutex mutex;
  ColumnDataCollection rows;
};

struct CteLocalState : LocalSinkState {
  explicit CteLocalState(ColumnDataCollection c) : rows(std::move(c)) {}
  ColumnDataCollection rows;
};

struct CteScanState : GlobalSourceState {
  std::atomic<size_t> next{0};
  size_t batches = 0;
  idx_t MaxThreads() const override { return std::max<size_t>(1, batches); }
};

struct CteScanMetrics : OperatorMetrics {
  std::atomic<uint64_t> rows_scanned{0};
  std::atomic<uint64_t> runtime_filter_rows_dropped{0};
};

// One thread's view of the reference's runtime filters (null without any).
struct CteScanLocalState : LocalSourceState {
  std::unique_ptr<RuntimeFilterProbes> probes;
};

}  // namespace

std::unique_ptr<GlobalSinkState> PhysicalMaterializedCte::GetGlobalSinkState(
    ExecutionContext& context) const {
  return std::make_unique<CteGlobalState>(
      ColumnDataCollection(cte_types_, &context.query().memory()));
}

std::unique_ptr<LocalSinkState> PhysicalMaterializedCte::GetLocalSinkState(
    ExecutionContext& context) const {
  return std::make_unique<CteLocalState>(
      ColumnDataCollection(cte_types_, &context.query().memory()));
}

bool PhysicalMaterializedCte::Sink(ExecutionContext&, Batch& input, GlobalSinkState&,
                                   LocalSinkState& local) const {
  static_cast<CteLocalState&>(local).rows.Append(input);
  return true;
}

void PhysicalMaterializedCte::Combine(ExecutionContext&, GlobalSinkState& global,
                                      LocalSinkState& local) const {
  auto& state = static_cast<CteGlobalState&>(global);
  std::lock_guard<std::mutex> lock(state.mutex);
  state.rows.Combine(static_cast<CteLocalState&>(local).rows);
}

const ColumnDataCollection& PhysicalMaterializedCte::rows(ExecutionContext& context) const {
  return static_cast<CteGlobalState&>(context.sink_state(this)).rows;
}

std::vector<std::pair<std::string, std::string>> PhysicalMaterializedCte::AnalyzeDetails(
    ExecutionContext& context) const {
  const auto& collected = rows(context);
  return {{"rows", std::to_string(collected.row_count())},
          {"bytes", std::to_string(collected.bytes())}};
}

void PhysicalMaterializedCte::BuildPipelines(Pipeline& current, PipelineBuilder& builder) {
  SHEARS_CHECK(children_.size() == 2);
  definition_pipeline_ = builder.NewPipeline(this);
  children_[0]->BuildPipelines(*definition_pipeline_, builder);
  current.dependencies.push_back(definition_pipeline_);
  children_[1]->BuildPipelines(current, builder);
}

PhysicalCteScan::PhysicalCteScan(const PhysicalMaterializedCte& cte, std::string cte_name,
                                 std::vector<LogicalType> types,
                                 std::vector<RuntimeFilterTarget> runtime_filters)
    : PhysicalOperator("CTE_SCAN", std::move(types)),
      cte_(cte),
      cte_name_(std::move(cte_name)),
      runtime_filters_(std::move(runtime_filters)) {
  for (const auto& target : runtime_filters_) {
    std::vector<idx_t> positions;
    for (int column : target.column_ids) {
      SHEARS_CHECK(column >= 0 && static_cast<size_t>(column) < this->types().size());
      positions.push_back(static_cast<idx_t>(column));
    }
    key_columns_.push_back(std::move(positions));
  }
}

std::string PhysicalCteScan::Describe() const {
  std::string out = "CTE_SCAN " + cte_name_;
  for (const auto& f : runtime_filters_) {
    out += " runtime_filter #" + std::to_string(f.filter_id) + ": ";
    for (size_t i = 0; i < f.column_ids.size(); i++)
      out += (i ? ", " : "") + std::string("#") + std::to_string(f.column_ids[i]);
    out += " " + f.description;
  }
  return out;
}

std::vector<int> PhysicalCteScan::ConsumedDynamicFilters() const {
  std::vector<int> ids;
  for (const auto& f : runtime_filters_)
    ids.push_back(f.filter_id);
  return ids;
}

std::unique_ptr<OperatorMetrics> PhysicalCteScan::MakeMetrics() const {
  return std::make_unique<CteScanMetrics>();
}

std::vector<std::pair<std::string, std::string>> PhysicalCteScan::AnalyzeDetails(
    ExecutionContext& context) const {
  if (runtime_filters_.empty()) return {};
  const auto& m = static_cast<const CteScanMetrics&>(context.metrics(this));
  std::vector<std::pair<std::string, std::string>> out;
  out.emplace_back("rows_scanned", std::to_string(m.rows_scanned.load()));
  out.emplace_back("runtime_filter_rows_dropped",
                   std::to_string(m.runtime_filter_rows_dropped.load()));
  for (const auto& target : runtime_filters_) {
    const RuntimeFilter* filter = context.dynamic_filters().FindRuntime(target.filter_id);
    std::string text;
    if (!filter) {
      text = "not ready";
    } else if (!filter->enabled()) {
      text = "not applied: " + filter->disabled_reason();
    } else if (!filter->applies_to_rows()) {
      text = "rows not tested: " + filter->rows_skipped_reason();
    } else {
      // The counters are the filter's, summed over every scan testing rows with it.
      const auto& c = filter->counters();
      text = fmt::format(
          "{}, {} keys from {} build rows; rows tested {}, dropped {}, passed while paused {} ({} "
          "pauses, {} re-checks on a sample, {} resumes)",
          filter->empty() ? "empty" : RuntimeFilterKindName(filter->kinds()),
          filter->distinct_keys(), filter->build_rows(), c.rows_tested.load(),
          c.rows_dropped.load(), c.rows_passed_paused.load(), c.pauses.load(), c.rechecks.load(),
          c.resumes.load());
    }
    out.emplace_back("runtime_filter_" + std::to_string(target.filter_id), text);
  }
  return out;
}

std::unique_ptr<LocalSourceState> PhysicalCteScan::GetLocalSourceState(ExecutionContext& context,
                                                                       GlobalSourceState&) const {
  auto local = std::make_unique<CteScanLocalState>();
  if (runtime_filters_.empty()) return local;
  const Settings& settings = context.query().settings();
  RuntimeFilterAdaptivity adaptivity;
  adaptivity.min_drop_ratio = settings.GetDouble("runtime_filter.min_drop_ratio");
  adaptivity.pause_rows = static_cast<uint64_t>(settings.GetInt("runtime_filter.pause_rows"));
  local->probes = std::make_unique<RuntimeFilterProbes>(runtime_filters_, key_columns_, adaptivity);
  return local;
}

std::unique_ptr<GlobalSourceState> PhysicalCteScan::GetGlobalSourceState(
    ExecutionContext& context) const {
  auto state = std::make_unique<CteScanState>();
  state->batches = cte_.rows(context).batch_count();
  return state;
}

bool PhysicalCteScan::GetData(ExecutionContext& context, Batch& out, GlobalSourceState& global,
                              LocalSourceState& local_base) const {
  auto& source = static_cast<CteScanState&>(global);
  auto& local = static_cast<CteScanLocalState&>(local_base);
  while (true) {
    const size_t index = source.next.fetch_add(1);
    if (index >= source.batches) return false;
    const Batch& batch = cte_.rows(context).batch(index);
    for (idx_t c = 0; c < batch.column_count(); c++)
      out.column(c).Reference(batch.column(c));
    out.SetSize(batch.size());
    if (!local.probes) return true;
    // The join above drops these rows anyway; dropping them here spares what lies between.
    // A selection copies the kept rows (the CTE's own vectors stay as they are).
    auto& metrics = static_cast<CteScanMetrics&>(context.metrics(this));
    metrics.rows_scanned += batch.size();
    local.probes->Refresh(context.dynamic_filters());
    uint64_t dropped = 0;
    const idx_t kept = local.probes->Apply(out, nullptr, &dropped);
    metrics.runtime_filter_rows_dropped += dropped;
    if (kept > 0) return true;
    out.SetSize(0);  // every row dropped: the next batch
  }
}

void PhysicalCteScan::BuildPipelines(Pipeline& current, PipelineBuilder&) {
  // Whatever pipeline reads the CTE runs after the one that computes it.
  SHEARS_CHECK(cte_.definition_pipeline() != nullptr);
  current.source = this;
  current.dependencies.push_back(cte_.definition_pipeline());
}

}  // namespace shears

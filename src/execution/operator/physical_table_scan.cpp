#include "execution/operator/physical_table_scan.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/clock.h"
#include "execution/pipeline.h"
#include "execution/query_context.h"
#include "storage/dataset_reader.h"
#include "storage/partition_pruning.h"
#include "storage/scan_filter.h"
#include "storage/split_enumerator.h"

namespace shears {

namespace {

// The scan's counters in a query, beside every operator's (ExecutionContext::metrics).
struct TableScanMetrics : OperatorMetrics {
  ScanMetrics scan;
};

ScanMetrics& ScanCounters(ExecutionContext& context, const PhysicalOperator* scan) {
  return static_cast<TableScanMetrics&>(context.metrics(scan)).scan;
}

struct ScanGlobalState : GlobalSourceState {
  ScanMetrics* metrics = nullptr;
  std::unique_ptr<RuntimePartitionPruner> pruner;  // the runtime conjuncts at partitions
  std::unique_ptr<SplitEnumerator> splits;
  // Over the dataset the splits refer to (SplitEnumerator::dataset).
  std::unique_ptr<SplitPruning> pruning;
  idx_t MaxThreads() const override { return splits->files_at_start() == 0 ? 1 : 64; }
};

struct ScanLocalState : LocalSourceState {
  ScanMetrics* metrics = nullptr;
  std::unique_ptr<DatasetReader> reader;
  bool active = false;
  uint64_t split_bytes = 0;  // the active split's share of its file, for progress
  bool page_index_pruning = true;
  std::unique_ptr<ScanRowFilter> rows;  // the filters over the reader's rows
  SplitPruning::Scratch pruning;        // buffers of the splits' checks
  // The reader's buffers (chunks as read, decoded pages) count against memory_limit.
  MemoryHold buffers;
};

}  // namespace

PhysicalTableScan::PhysicalTableScan(std::shared_ptr<const Dataset> dataset,
                                     std::vector<int> column_ids, std::vector<BoundExprPtr> filters,
                                     std::string table_name,
                                     std::vector<DynamicPartitionFilter> dynamic_filters,
                                     std::vector<RuntimeFilterTarget> runtime_filters)
    : PhysicalOperator("TABLE_SCAN", {}),
      dataset_(std::move(dataset)),
      column_ids_(std::move(column_ids)),
      filters_(std::move(filters)),
      table_name_(std::move(table_name)),
      dynamic_filters_(std::move(dynamic_filters)),
      runtime_filters_(std::move(runtime_filters)),
      filter_spec_(std::make_unique<ScanFilterSpec>(*dataset_, filters_, column_ids_,
                                                    runtime_filters_, dynamic_filters_)) {
  for (int id : column_ids_)
    types_.push_back(dataset_->columns()[static_cast<size_t>(id)].type);
}

PhysicalTableScan::~PhysicalTableScan() = default;

std::string PhysicalTableScan::Describe() const {
  std::string out = "TABLE_SCAN " + table_name_ + " [";
  for (size_t i = 0; i < column_ids_.size(); i++) {
    out += (i ? ", " : "") + dataset_->columns()[static_cast<size_t>(column_ids_[i])].name;
  }
  out += "]";
  // The literal conjuncts, then the runtime ones (`k IN runtime_filter #n`); the partition
  // filters below, with their joins.
  std::string filters;
  for (const BoundExpr* conjunct : filter_spec_->conjuncts()) {
    if (!TestsPartitionsOnly(*conjunct))
      filters += (filters.empty() ? "" : " AND ") + conjunct->ToString();
  }
  if (!filters.empty()) out += " filters: " + filters;
  for (const auto& f : dynamic_filters_) {
    out += " " + DescribeDynamicPartitionFilter(f, *dataset_);
  }
  for (const auto& f : runtime_filters_) {
    out += (f.statistics_bounds ? " statistics_bounds #" : " runtime_filter #") +
           std::to_string(f.filter_id) + ": ";
    for (size_t i = 0; i < f.column_ids.size(); i++)
      out += (i ? ", " : "") + dataset_->columns()[static_cast<size_t>(f.column_ids[i])].name;
    out += " " + f.description;
  }
  if (make_assignment_) out += " distributed: files assigned by rank 0";
  return out;
}

std::unique_ptr<OperatorMetrics> PhysicalTableScan::MakeMetrics() const {
  auto metrics = std::make_unique<TableScanMetrics>();
  metrics->scan.dynamic_filters =
      std::make_unique<DynamicFilterScanCounters[]>(dynamic_filters_.size());
  return metrics;
}

std::vector<int> PhysicalTableScan::ConsumedDynamicFilters() const {
  std::vector<int> ids;
  for (const auto& f : dynamic_filters_) {
    for (int id : f.ProducerIds())
      ids.push_back(id);
  }
  for (const auto& f : runtime_filters_)
    ids.push_back(f.filter_id);
  // A statistics bound covers the files its source keeps: its source's partition filters'
  // producers run first when the plan allows (else the bound covers more files).
  for (const auto& bound : statistics_bounds_) {
    if (!bound.source->filters) continue;
    for (const BoundExpr* conjunct : bound.source->filters->conjuncts()) {
      if (conjunct->kind != BoundExprKind::kRuntimeFilter) continue;
      if (const auto* partition = dynamic_cast<const BoundPartitionFilter*>(conjunct)) {
        if (partition->any_of.empty()) ids.push_back(partition->filter_id);
        for (const auto& alternative : partition->any_of)
          ids.push_back(alternative->filter_id);
      }
    }
  }
  return ids;
}

std::string PhysicalTableScan::StatisticsBoundsText(int filter_id,
                                                    const RuntimeFilter* filter) const {
  std::string source;
  for (const auto& bound : statistics_bounds_) {
    if (bound.filter_id == filter_id) source = bound.source_name;
  }
  if (!filter) return "not ready";
  if (!filter->enabled()) return "not applied: " + filter->disabled_reason();
  const auto& c = filter->counters();
  return fmt::format(
      "{} {} over the {} files its scan keeps, known in {:.3f} ms; files skipped unopened {}, "
      "row groups skipped {}, pages skipped {}",
      source, StatisticsRangesText(*filter), filter->build_rows(), filter->build_ms(),
      c.files_skipped.load(), c.row_groups_skipped.load(), c.pages_skipped.load());
}

void PhysicalTableScan::PublishStatisticsBounds(ExecutionContext& context) const {
  auto& registry = context.dynamic_filters();
  for (const auto& bound : statistics_bounds_) {
    const StatisticsBoundsSource& source = *bound.source;
    const auto target = std::find_if(runtime_filters_.begin(), runtime_filters_.end(),
                                     [&](const auto& t) { return t.filter_id == bound.filter_id; });
    SHEARS_CHECK(target != runtime_filters_.end());
    const LogicalType& type = dataset_->columns()[static_cast<size_t>(target->column_ids[0])].type;
    std::unique_ptr<RuntimeFilter> filter;
    const auto started = clock::Now();
    if (source.scans != 1) {
      filter = RuntimeFilter::OfRange(type, std::nullopt, std::nullopt, {}, 0, 0);
      filter->Disable(source.scans == 0 ? "its source is not a Parquet scan"
                                        : "its source scan was planned more than once");
    } else {
      // The footers it needs read by up to as many threads as the scan uses (they wait).
      KeyRange range =
          FilesKeyRange(source.dataset, KeptPartitions(source, registry), bound.source_column,
                        static_cast<size_t>(std::max(context.threads(), 1)));
      filter = RuntimeFilter::OfRange(type, range.min, range.max, std::move(range.ranges),
                                      range.files, clock::MillisSince(started));
      if (!range.unknown.empty()) filter->Disable("range not known: " + range.unknown);
    }
    registry.PublishRuntime(bound.filter_id, std::move(filter));
  }
}

uint64_t PhysicalTableScan::PlannedBytes() const {
  return SplitEnumerator::PlannedBytes(*dataset_);
}

std::unique_ptr<GlobalSourceState> PhysicalTableScan::GetGlobalSourceState(
    ExecutionContext& context) const {
  PublishStatisticsBounds(context);
  auto state = std::make_unique<ScanGlobalState>();
  state->metrics = &ScanCounters(context, this);
  ScanMetrics& metrics = *state->metrics;
  // The partition level of the conjuncts: the literal ones once (PartitionsMayMatch), the
  // runtime ones as their filters are published.
  if (!dynamic_filters_.empty() || !runtime_filters_.empty()) {
    state->pruner = std::make_unique<RuntimePartitionPruner>(*dataset_, filter_spec_->conjuncts(),
                                                             context.dynamic_filters(), metrics);
  }
  auto& progress = context.query().progress();
  // A file whose statistics are known without opening it is skipped unopened when they rule
  // out every row, by the runtime filters published by then.
  auto& registry = context.dynamic_filters();
  SplitEnumerator::FileFn file_may_match;
  RuntimePruningPacing pacing;
  pacing.window = static_cast<uint32_t>(std::clamp<int64_t>(
      context.query().settings().GetInt("runtime_filter.pruning_window"), 0, UINT32_MAX));
  if (context.query().settings().GetBool("file_statistics_pruning")) {
    const ScanGlobalState* global = state.get();
    file_may_match = [this, &registry, global](size_t file_index, FileCheck& check) {
      // Any scan thread asks, for each file: the thread's own list, not one allocated per file.
      thread_local std::vector<const RuntimeFilter*> runtime;
      runtime.clear();
      for (const auto& target : runtime_filters_)
        runtime.push_back(registry.FindRuntime(target.filter_id));
      return global->pruning->FileMayMatch(file_index, runtime, &check);
    };
  }
  state->splits = std::make_unique<SplitEnumerator>(
      dataset_, PartitionsMayMatch(filter_spec_->conjuncts(), column_ids_, *dataset_),
      state->pruner.get(), metrics, [&progress](uint64_t bytes) { progress.AddDone(bytes); },
      file_may_match, make_assignment_ ? make_assignment_() : nullptr);
  state->pruning = std::make_unique<SplitPruning>(state->splits->dataset(), column_ids_,
                                                  filter_spec_->conjuncts(), metrics);
  state->pruning->StartRun(pacing);
  return state;
}

std::unique_ptr<LocalSourceState> PhysicalTableScan::GetLocalSourceState(
    ExecutionContext& context, GlobalSourceState& global) const {
  auto local = std::make_unique<ScanLocalState>();
  local->metrics = static_cast<ScanGlobalState&>(global).metrics;
  local->page_index_pruning = context.query().settings().GetBool("page_index_pruning");
  local->reader = std::make_unique<DatasetReader>(
      static_cast<ScanGlobalState&>(global).splits->dataset(), column_ids_);
  const Settings& settings = context.query().settings();
  ScanFilterOptions options;
  options.dictionary_filters = settings.GetBool("dictionary_filters");
  options.late_materialization = settings.GetBool("late_materialization");
  options.adaptivity.min_drop_ratio = settings.GetDouble("runtime_filter.min_drop_ratio");
  options.adaptivity.pause_rows =
      static_cast<uint64_t>(settings.GetInt("runtime_filter.pause_rows"));
  local->rows = std::make_unique<ScanRowFilter>(*filter_spec_, *local->reader, options);
  local->buffers = MemoryHold(&context.query().memory());
  return local;
}

bool PhysicalTableScan::StartNextSplit(ExecutionContext& context, LocalSourceState& local_base,
                                       GlobalSourceState& global_base) const {
  auto& global = static_cast<ScanGlobalState&>(global_base);
  auto& local = static_cast<ScanLocalState&>(local_base);
  ScanSplit split;
  while (global.splits->Next(split)) {
    const auto& runtime = local.rows->Refresh(context.dynamic_filters());
    SplitVerdict verdict =
        global.pruning->Check(split, runtime, local.page_index_pruning, &local.pruning);
    if (verdict.kind == SplitVerdict::kPruned) {
      context.query().progress().AddDone(split.progress_bytes);
      continue;
    }
    local.split_bytes = split.progress_bytes;
    global.splits->NoteDataRead(split.file_index);
    if (verdict.kind == SplitVerdict::kReadPages) {
      local.reader->StartMorsel(split.file_index, std::move(split.file), std::move(verdict.index),
                                verdict.rows);
    } else {
      local.reader->StartMorsel(split.file_index, std::move(split.file), {split.row_group});
    }
    local.reader->AdoptDictionaries(split.row_group, std::move(verdict.dictionaries));
    return true;
  }
  return false;
}

bool PhysicalTableScan::GetData(ExecutionContext& context, Batch& out,
                                GlobalSourceState& global_base,
                                LocalSourceState& local_base) const {
  auto& local = static_cast<ScanLocalState&>(local_base);
  while (true) {
    if (!local.active) {
      if (!StartNextSplit(context, local, global_base)) return false;
      local.active = true;
    }
    context.CheckCancelled();
    const ScanRowFilter::Read read = local.rows->Next(out, *local.metrics);
    local.buffers.Set(static_cast<int64_t>(local.reader->buffered_bytes()));
    if (read == ScanRowFilter::Read::kEnd) {
      local.active = false;
      context.query().progress().AddDone(local.split_bytes);
      continue;
    }
    if (read == ScanRowFilter::Read::kRows) return true;
  }
}

std::vector<std::pair<std::string, std::string>> PhysicalTableScan::AnalyzeDetails(
    ExecutionContext& context) const {
  const ScanMetrics& m = ScanCounters(context, this);
  std::vector<std::pair<std::string, std::string>> out;
  auto add = [&](const char* name, uint64_t value) {
    out.emplace_back(name, std::to_string(value));
  };
  if (dataset_->num_partition_columns() > 0) {
    add("partitions_total", m.partitions_total);
    add("partitions_pruned_static", m.partitions_pruned_static);
    add("partitions_pruned_dynamic", m.partitions_pruned_dynamic);
    add("partitions_read",
        m.partitions_total - m.partitions_pruned_static - m.partitions_pruned_dynamic);
  }
  if (!dynamic_filters_.empty()) {
    add("dynamic_filters_applied", m.dynamic_filters_ready);
    add("dynamic_filters_not_ready", m.dynamic_filters_not_ready);
    add("dynamic_filter_keys", m.dynamic_filter_keys);
    out.emplace_back("dynamic_pruning_ms", fmt::format("{:.3f}", m.dynamic_pruning_nanos / 1e6));
  }
  if (!dynamic_filters_.empty() || !runtime_filters_.empty())
    add("files_pruned_dynamic", m.files_pruned_dynamic);
  add("files_total", m.files_total);
  add("files_read", m.files_read);
  add("footers_cached", m.footers_cached);
  add("files_skipped_unopened", m.files_skipped_unopened);
  add("directories_listed", m.directories_listed);
  add("row_groups_total", m.row_groups_total);
  add("row_groups_pruned", m.row_groups_pruned);
  add("row_groups_read", m.row_groups_read);
  add("rows_scanned", m.rows_scanned);
  add("bytes_read", m.bytes_read);
  add("pages_total", m.pages_read + m.pages_skipped);
  add("pages_skipped", m.pages_skipped);
  if (m.page_indexes_invalid > 0) add("page_indexes_invalid", m.page_indexes_invalid);
  if (!runtime_filters_.empty()) {
    add("row_groups_pruned_runtime", m.row_groups_pruned_runtime);
    add("row_groups_pruned_dictionary", m.row_groups_pruned_dictionary);
    add("dictionaries_reused", m.dictionaries_reused);
    add("pages_skipped_runtime", m.pages_skipped_runtime);
    add("runtime_filter_rows_dropped", m.runtime_filter_rows_dropped);
    for (const auto& target : runtime_filters_) {
      const RuntimeFilter* filter = context.dynamic_filters().FindRuntime(target.filter_id);
      if (target.statistics_bounds) {
        out.emplace_back("statistics_bounds_" + std::to_string(target.filter_id),
                         StatisticsBoundsText(target.filter_id, filter));
        continue;
      }
      std::string text;
      if (!filter) {
        text = "not ready";
      } else if (!filter->enabled()) {
        text = "not applied: " + filter->disabled_reason();
      } else {
        const auto& c = filter->counters();
        text = fmt::format(
            "{}, {} keys from {} build rows, {} bytes{}, {}; rows tested {}, dropped {}, passed "
            "while paused {} ({} pauses, {} re-checks on a sample, {} resumes); files skipped "
            "unopened {}; row groups skipped {} "
            "({} by "
            "Parquet bloom filters, {} by "
            "dictionaries); pages skipped {}; statistics checks paused {} times ({} skipped, {} "
            "resumes); {}; probe {:.3f} ms",
            filter->empty() ? "empty" : RuntimeFilterKindName(filter->kinds()),
            filter->distinct_keys(), filter->build_rows(), filter->bytes(), ColumnKeysText(*filter),
            RowsText(*filter), c.rows_tested.load(), c.rows_dropped.load(),
            c.rows_passed_paused.load(), c.pauses.load(), c.rechecks.load(), c.resumes.load(),
            c.files_skipped.load(), c.row_groups_skipped.load(), c.row_groups_skipped_bloom.load(),
            c.row_groups_skipped_dictionary.load(), c.pages_skipped.load(), c.pruning_pauses.load(),
            c.pruning_checks_skipped.load(), c.pruning_resumes.load(), PruningLevelsText(c),
            static_cast<double>(c.probe_nanos.load()) / 1e6);
      }
      out.emplace_back("runtime_filter_" + std::to_string(target.filter_id), text);
    }
  }
  // Per dynamic partition filter, what it removed at each level it acts on.
  for (size_t i = 0; i < dynamic_filters_.size(); i++) {
    const auto& c = m.dynamic_filters[i];
    const char* state = c.state == DynamicFilterScanCounters::kReadyAtStart ? "ready at start"
                        : c.state == DynamicFilterScanCounters::kReadyLate
                            ? "published after the scan started"
                            : "not ready (pruned nothing)";
    out.emplace_back("dynamic_filter_" + std::to_string(dynamic_filters_[i].filter_id),
                     fmt::format("{}, {} keys; partitions pruned {}, files pruned {}", state,
                                 c.keys.load(), c.partitions_pruned.load(), c.files_pruned.load()));
  }
  if (!dynamic_filters_.empty() || !runtime_filters_.empty()) {
    if (!dynamic_filters_.empty()) add("dynamic_filters_ready_late", m.dynamic_filters_ready_late);
    add("partitions_pruned_late", m.partitions_pruned_late);
    add("files_data_read", m.files_data_read);
  }
  return out;
}

}  // namespace shears

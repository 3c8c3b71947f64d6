#include "execution/operator/physical_table_scan.h"

#include <fmt/format.h>

#include <algorithm>

#include "dynfilter/runtime_filter_probe.h"
#include "execution/dictionary_filter.h"
#include "expression/constant_comparison.h"
#include "expression/expression_executor.h"
#include "execution/pipeline.h"
#include "execution/query_context.h"
#include "storage/dataset_reader.h"
#include "storage/partition_pruning.h"
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
  std::unique_ptr<DynamicPartitionPruner> pruner;
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
  bool late_materialization = false;
  SelectionVector late_sel{kBatchSize};
  std::vector<uint32_t> alive;  // original rows of the batch still selected
  Batch scratch;
  SelectionVector sel;
  std::unique_ptr<RuntimeFilterProbes> runtime;
  // By filter: evaluated per dictionary entry when its columns' codes allow (null: never).
  std::vector<std::unique_ptr<DictionaryFilter>> dictionary;
  std::vector<const parquet::DictionaryCodes*> codes;
  std::vector<uint32_t> rows;  // rows as read kept by the dictionary filters
  std::vector<bool> by_dictionary;  // by filter: applied by its dictionary in this batch
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
      runtime_filters_(std::move(runtime_filters)) {
  for (int id : column_ids_)
    types_.push_back(dataset_->columns()[static_cast<size_t>(id)].type);
  constant_comparisons_ = ConstantComparisons(filters_);
  for (const auto& target : runtime_filters_) {
    std::vector<idx_t> positions;
    for (int id : target.column_ids) {
      auto it = std::find(column_ids_.begin(), column_ids_.end(), id);
      SHEARS_CHECK(it != column_ids_.end());
      positions.push_back(static_cast<idx_t>(it - column_ids_.begin()));
    }
    runtime_filter_columns_.push_back(std::move(positions));
  }
  for (const auto& target : runtime_filters_)
    runtime_keys_.push_back({target.key_expr.get(), target.monotone});
  first_columns_.assign(column_ids_.size(), false);
  ScanMetrics unused;  // this pruning only names the filter columns
  const SplitPruning pruning(dataset_, column_ids_, filters_, runtime_filter_columns_, unused,
                             runtime_keys_);
  for (idx_t c : pruning.filter_columns())
    first_columns_[c] = true;
  for (const auto& positions : runtime_filter_columns_) {
    for (idx_t c : positions)
      first_columns_[c] = true;
  }
}

std::string PhysicalTableScan::Describe() const {
  std::string out = "TABLE_SCAN " + table_name_ + " [";
  for (size_t i = 0; i < column_ids_.size(); i++) {
    out += (i ? ", " : "") + dataset_->columns()[static_cast<size_t>(column_ids_[i])].name;
  }
  out += "]";
  if (!filters_.empty()) {
    out += " filters: ";
    for (size_t i = 0; i < filters_.size(); i++)
      out += (i ? " AND " : "") + filters_[i]->ToString();
  }
  for (const auto& f : dynamic_filters_) {
    out += " " + DescribeDynamicPartitionFilter(f, *dataset_);
  }
  for (const auto& f : runtime_filters_) {
    out += " runtime_filter #" + std::to_string(f.filter_id) + ": ";
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
  return ids;
}

uint64_t PhysicalTableScan::PlannedBytes() const {
  return SplitEnumerator::PlannedBytes(*dataset_);
}

std::unique_ptr<GlobalSourceState> PhysicalTableScan::GetGlobalSourceState(
    ExecutionContext& context) const {
  auto state = std::make_unique<ScanGlobalState>();
  state->metrics = &ScanCounters(context, this);
  ScanMetrics& metrics = *state->metrics;
  // Static partition pruning: conjuncts that read partition columns only.
  const size_t file_columns = dataset_->num_file_columns();
  std::vector<const BoundExpr*> partition_filters;
  for (const auto& filter : filters_) {
    bool partition_only = true;
    VisitExpression(const_cast<BoundExpr&>(*filter), [&](BoundExpr& e) {
      if (e.kind == BoundExprKind::kReference &&
          static_cast<size_t>(column_ids_[static_cast<BoundReference&>(e).index]) < file_columns) {
        partition_only = false;
      }
    });
    if (partition_only) partition_filters.push_back(filter.get());
  }
  if (!dynamic_filters_.empty() || !runtime_filters_.empty()) {
    state->pruner = std::make_unique<DynamicPartitionPruner>(
        *dataset_, dynamic_filters_, runtime_filters_, context.dynamic_filters(), metrics);
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
    file_may_match = [this, &registry, global](size_t file_index) {
      std::vector<const RuntimeFilter*> runtime;
      for (const auto& target : runtime_filters_)
        runtime.push_back(registry.FindRuntime(target.filter_id));
      return global->pruning->FileMayMatch(file_index, runtime);
    };
  }
  state->splits = std::make_unique<SplitEnumerator>(
      dataset_, PartitionsMayMatch(partition_filters, column_ids_, *dataset_), state->pruner.get(),
      metrics, [&progress](uint64_t bytes) { progress.AddDone(bytes); }, file_may_match,
      make_assignment_ ? make_assignment_() : nullptr);
  state->pruning =
      std::make_unique<SplitPruning>(state->splits->dataset(), column_ids_, filters_,
                                     runtime_filter_columns_, metrics, runtime_keys_);
  state->pruning->StartRun(pacing);
  return state;
}

std::unique_ptr<LocalSourceState> PhysicalTableScan::GetLocalSourceState(
    ExecutionContext& context, GlobalSourceState& global) const {
  auto local = std::make_unique<ScanLocalState>();
  local->metrics = static_cast<ScanGlobalState&>(global).metrics;
  local->page_index_pruning = context.query().settings().GetBool("page_index_pruning");
  // Worth it when some column is not read by a filter.
  local->late_materialization = (!filters_.empty() || !runtime_filters_.empty()) &&
                                std::count(first_columns_.begin(), first_columns_.end(), true) <
                                    static_cast<std::ptrdiff_t>(first_columns_.size()) &&
                                context.query().settings().GetBool("late_materialization");
  local->reader = std::make_unique<DatasetReader>(
      static_cast<ScanGlobalState&>(global).splits->dataset(), column_ids_);
  local->scratch = Batch(types_);
  if (context.query().settings().GetBool("dictionary_filters")) {
    std::vector<bool> record(column_ids_.size(), false);
    bool any = false;
    for (const auto& filter : filters_) {
      auto dictionary = std::make_unique<DictionaryFilter>(*filter);
      if (dictionary->usable()) {
        for (idx_t c : dictionary->columns())
          record[c] = true;
        local->dictionary.push_back(std::move(dictionary));
        any = true;
      } else {
        local->dictionary.push_back(nullptr);
      }
    }
    if (any) local->reader->RecordDictionaryCodes(std::move(record));
  }
  local->buffers = MemoryHold(&context.query().memory());
  RuntimeFilterAdaptivity adaptivity;
  adaptivity.min_drop_ratio = context.query().settings().GetDouble("runtime_filter.min_drop_ratio");
  adaptivity.pause_rows =
      static_cast<uint64_t>(context.query().settings().GetInt("runtime_filter.pause_rows"));
  local->runtime =
      std::make_unique<RuntimeFilterProbes>(runtime_filters_, runtime_filter_columns_, adaptivity);
  return local;
}

bool PhysicalTableScan::StartNextSplit(ExecutionContext& context, LocalSourceState& local_base,
                                       GlobalSourceState& global_base) const {
  auto& global = static_cast<ScanGlobalState&>(global_base);
  auto& local = static_cast<ScanLocalState&>(local_base);
  ScanSplit split;
  while (global.splits->Next(split)) {
    const auto& runtime = local.runtime->Refresh(context.dynamic_filters());
    SplitVerdict verdict = global.pruning->Check(split, runtime, local.page_index_pruning);
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
    const bool direct = filters_.empty() && runtime_filters_.empty();
    const parquet::ScanCounters before = local.reader->counters();
    // Late materialization: the filters run on their own columns first; the other columns
    // are decoded for the surviving rows only. Not while no filter tests rows (runtime filters
    // paused or left to the join): selecting every row would cost more than reading them.
    const bool late = !direct && local.late_materialization &&
                      (!filters_.empty() || local.runtime->TestsNextBatch());
    bool got;
    if (direct) {
      got = local.reader->Next(out);
    } else if (late) {
      got = local.reader->NextSelected(
          local.scratch, first_columns_,
          [&](Batch& batch, SelectionVector& sel) {
            local.metrics->rows_scanned += batch.size();
            local.alive.resize(batch.size());
            for (idx_t r = 0; r < batch.size(); r++)
              local.alive[r] = static_cast<uint32_t>(r);
            const idx_t count = FilterRows(local, batch, &local.alive);
            for (idx_t k = 0; k < count; k++)
              sel.Set(k, local.alive[k]);
            return count;
          },
          local.late_sel);
    } else {
      got = local.reader->Next(local.scratch);
      if (got) local.metrics->rows_scanned += local.scratch.size();
    }
    local.buffers.Set(static_cast<int64_t>(local.reader->buffered_bytes()));
    const parquet::ScanCounters after = local.reader->counters();
    local.metrics->bytes_read += after.bytes_read - before.bytes_read;
    local.metrics->pages_read += after.pages_read - before.pages_read;
    local.metrics->pages_skipped += after.pages_skipped - before.pages_skipped;
    if (!got) {
      local.active = false;
      context.query().progress().AddDone(local.split_bytes);
      continue;
    }
    if (direct) {
      local.metrics->rows_scanned += out.size();
      return true;
    }
    Batch& batch = local.scratch;
    const idx_t count = late ? batch.size() : FilterRows(local, batch);
    if (count == 0) continue;
    for (idx_t c = 0; c < batch.column_count(); c++)
      out.column(c).Reference(batch.column(c));
    out.SetSize(count);
    return true;
  }
}

idx_t PhysicalTableScan::FilterRows(LocalSourceState& base, Batch& batch,
                                    std::vector<uint32_t>* alive) const {
  auto& local = static_cast<ScanLocalState&>(base);
  // Each conjunct narrows the selection (and is evaluated only on the rows still alive).
  idx_t count = batch.size();
  auto& sel = local.sel;
  // Filters over dictionary codes first, on the rows as read (codes are by those rows).
  if (!local.dictionary.empty()) count = FilterByDictionary(local, batch, alive);
  if (count == 0) return 0;
  // Keeps rows sel[0..count) of the batch (and of `alive`).
  auto compact = [&] {
    if (count == batch.size()) return;
    if (alive) {
      for (idx_t k = 0; k < count; k++)
        (*alive)[k] = (*alive)[sel[k]];
      alive->resize(count);
    }
    batch.Select(sel.data(), count);
  };
  if (sel.capacity() < batch.size()) sel = SelectionVector(batch.size());
  // `column OP constant` terms first: they narrow one selection, and the batch is compacted
  // once for all of them.
  bool selected = false;
  count = constant_comparisons_.Select(
      batch, local.dictionary.empty() ? nullptr : &local.by_dictionary, count, sel.data(),
      &selected);
  if (selected && count == 0) return 0;
  if (selected) compact();
  for (size_t f = 0; f < filters_.size(); f++) {
    if (constant_comparisons_.Covers(f) || (!local.dictionary.empty() && local.by_dictionary[f]))
      continue;
    const auto& filter = filters_[f];
    count = ExpressionExecutor::Select(*filter, batch, sel);
    compact();
    if (count == 0) return 0;
  }
  if (!runtime_filters_.empty()) {
    uint64_t dropped = 0;
    count = local.runtime->Apply(batch, alive, &dropped);
    local.metrics->runtime_filter_rows_dropped += dropped;
  }
  return count;
}

idx_t PhysicalTableScan::FilterByDictionary(LocalSourceState& base, Batch& batch,
                                            std::vector<uint32_t>* alive) const {
  auto& local = static_cast<ScanLocalState&>(base);
  local.by_dictionary.assign(filters_.size(), false);
  auto& rows = local.rows;
  rows.resize(batch.size());
  for (idx_t r = 0; r < batch.size(); r++)
    rows[r] = static_cast<uint32_t>(r);
  idx_t count = batch.size();
  bool any = false;
  for (size_t f = 0; f < filters_.size() && count > 0; f++) {
    DictionaryFilter* dictionary = local.dictionary[f].get();
    if (!dictionary) continue;
    auto& codes = local.codes;
    codes.clear();
    for (idx_t c : dictionary->columns()) {
      const auto* column_codes = local.reader->dictionary_codes(c);
      if (!column_codes) break;
      codes.push_back(column_codes);
    }
    if (codes.size() < dictionary->columns().size()) continue;
    if (!dictionary->Select(batch, codes, rows.data(), count, rows.data(), &count)) continue;
    local.by_dictionary[f] = true;
    any = true;
  }
  if (!any || count == batch.size()) return count;
  if (alive) {
    for (idx_t k = 0; k < count; k++)
      (*alive)[k] = (*alive)[rows[k]];
    alive->resize(count);
  }
  batch.Select(rows.data(), count);
  return count;
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
    add("pages_skipped_runtime", m.pages_skipped_runtime);
    add("runtime_filter_rows_dropped", m.runtime_filter_rows_dropped);
    for (const auto& target : runtime_filters_) {
      const RuntimeFilter* filter = context.dynamic_filters().FindRuntime(target.filter_id);
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
            "resumes); probe {:.3f} ms",
            filter->empty() ? "empty" : RuntimeFilterKindName(filter->kinds()),
            filter->distinct_keys(), filter->build_rows(), filter->bytes(),
            ColumnKeysText(*filter), RowsText(*filter),
            c.rows_tested.load(), c.rows_dropped.load(), c.rows_passed_paused.load(),
            c.pauses.load(), c.rechecks.load(), c.resumes.load(), c.files_skipped.load(),
            c.row_groups_skipped.load(), c.row_groups_skipped_bloom.load(),
            c.row_groups_skipped_dictionary.load(), c.pages_skipped.load(), c.pruning_pauses.load(),
            c.pruning_checks_skipped.load(), c.pruning_resumes.load(),
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

#include "execution/operator/physical_table_scan.h"

#include <fmt/format.h>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <set>

#include "common/clock.h"
#include "execution/expression_executor.h"
#include "execution/operator/page_pruning.h"
#include "execution/operator/stats_pruning.h"
#include "execution/pipeline.h"
#include "execution/query_context.h"
#include "storage/dataset_reader.h"
#include "storage/parquet/bloom_filter.h"
#include "storage/parquet/parquet_file.h"

namespace shears {

/// Row groups of one opened file that one thread reads.
struct ScanMorsel {
  size_t file_index = 0;
  std::shared_ptr<parquet::ParquetFile> file;
  std::vector<int> row_groups;
};

namespace {

struct ScanGlobalState : GlobalSourceState {
  std::mutex mutex;
  std::condition_variable opened;  // a file's row groups were queued, or an opening ended
  std::vector<size_t> files;       // files left after static and dynamic partition pruning
  size_t next_file = 0;
  size_t files_opening = 0;        // files claimed whose footers are being read
  std::deque<ScanMorsel> pending;  // row groups of opened files, not yet handed out
  idx_t MaxThreads() const override { return files.empty() ? 1 : 64; }
};

// Adaptive runtime filtering: a filter is tested on windows of rows; one that dropped less
// than kMinDropFraction of a window is paused for kPauseWindows windows (its rows pass
// untested), then tested again, since clustered data changes selectivity from file to file.
constexpr uint64_t kAdaptiveWindow = 8 * kBatchSize;
constexpr double kMinDropFraction = 0.1;
constexpr uint64_t kPauseWindows = 16;

struct RuntimeFilterProbeState {
  const RuntimeFilter* filter = nullptr;  // once published by its join
  uint64_t window_tested = 0;
  uint64_t window_dropped = 0;
  uint64_t paused_rows_left = 0;
};

struct ScanLocalState : LocalSourceState {
  std::unique_ptr<DatasetReader> reader;
  bool active = false;
  uint64_t morsel_bytes = 0;  // the active morsel's share of its file, for progress
  bool page_index_pruning = true;
  bool late_materialization = false;
  SelectionVector late_sel{kBatchSize};
  std::vector<uint32_t> alive;  // original rows of the batch still selected
  Batch scratch;
  SelectionVector sel;
  std::vector<RuntimeFilterProbeState> runtime;
  std::vector<uint32_t> runtime_sel[2];
  std::vector<uint64_t> hashes;
  std::vector<const Vector*> keys;  // the key columns of the filter being applied
};

// For each partition of `dataset`: whether its values can satisfy the filters that only use
// partition columns. Evaluated on batches of partitions (one row each, file columns NULL and
// never read), so every predicate form works and 2,000 partitions cost one batch, not 2,000.
std::vector<uint8_t> PartitionsMayMatch(const std::vector<const BoundExpr*>& partition_filters,
                                        const std::vector<int>& column_ids,
                                        const Dataset& dataset) {
  const size_t partitions = dataset.num_partitions();
  std::vector<uint8_t> keep(partitions, 1);
  if (partition_filters.empty() || partitions == 0) return keep;
  std::vector<size_t> first_file(partitions, SIZE_MAX);
  for (size_t f = 0; f < dataset.files().size(); f++) {
    size_t& first = first_file[dataset.partition_of(f)];
    if (first == SIZE_MAX) first = f;
  }
  std::vector<LogicalType> types;
  for (int id : column_ids)
    types.push_back(dataset.columns()[static_cast<size_t>(id)].type);
  const size_t file_columns = dataset.num_file_columns();
  SelectionVector sel(kBatchSize);
  for (size_t start = 0; start < partitions; start += kBatchSize) {
    const idx_t count = static_cast<idx_t>(std::min<size_t>(kBatchSize, partitions - start));
    Batch rows(types, kBatchSize);
    for (size_t c = 0; c < column_ids.size(); c++) {
      const size_t id = static_cast<size_t>(column_ids[c]);
      for (idx_t r = 0; r < count; r++) {
        if (id >= file_columns) {
          const DatasetFile& file = dataset.files()[first_file[start + r]];
          WriteValue(rows.column(c), r, file.partition_values[id - file_columns]);
        } else {
          rows.column(c).validity().SetNull(r);
        }
      }
    }
    rows.SetSize(count);
    std::vector<uint32_t> alive(count);
    for (idx_t r = 0; r < count; r++)
      alive[r] = static_cast<uint32_t>(r);
    for (const BoundExpr* filter : partition_filters) {
      const idx_t kept = ExpressionExecutor::Select(*filter, rows, sel);
      if (kept < rows.size()) {
        for (idx_t k = 0; k < kept; k++)
          alive[k] = alive[sel[k]];
        alive.resize(kept);
        rows.Select(sel.data(), kept);
      }
      if (kept == 0) break;
    }
    for (idx_t r = 0; r < count; r++)
      keep[start + r] = 0;
    for (uint32_t r : alive)
      keep[start + r] = 1;
  }
  return keep;
}

// A partition value mapped through the join key's expression of it (a cast, p + 1); nullopt
// when evaluating it fails (overflow, a failed cast): then nothing can be concluded.
std::optional<Value> MapPartitionValue(const BoundExpr& key_expr, const Value& value) {
  Batch row({value.type()}, 1);
  WriteValue(row.column(0), 0, value);
  row.SetSize(1);
  Vector out(key_expr.type, 1);
  try {
    ExpressionExecutor::Execute(key_expr, row, out);
  } catch (const Error&) {
    return std::nullopt;
  }
  return ReadValue(out, 0);
}

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
  for (const auto& target : runtime_filters_) {
    std::vector<idx_t> positions;
    for (int id : target.column_ids) {
      auto it = std::find(column_ids_.begin(), column_ids_.end(), id);
      SHEARS_CHECK(it != column_ids_.end());
      positions.push_back(static_cast<idx_t>(it - column_ids_.begin()));
    }
    runtime_filter_columns_.push_back(std::move(positions));
  }
  std::set<idx_t> referenced;
  for (const auto& filter : filters_) {
    VisitExpression(*filter, [&](BoundExpr& e) {
      if (e.kind == BoundExprKind::kReference) {
        referenced.insert(static_cast<BoundReference&>(e).index);
      }
    });
  }
  filter_columns_.assign(referenced.begin(), referenced.end());
  first_columns_.assign(column_ids_.size(), false);
  for (idx_t c : filter_columns_)
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
    out += " dynamic_partition_filter #" + std::to_string(f.filter_id) + ": " +
           (f.key_expr ? f.key_expr->ToString()
                       : dataset_->columns()[static_cast<size_t>(f.column_id)].name) +
           (f.mode == DynamicFilterMode::kKeep ? " IN " : " NOT IN ") + "keys " + f.description;
  }
  for (const auto& f : runtime_filters_) {
    out += " runtime_filter #" + std::to_string(f.filter_id) + ": ";
    for (size_t i = 0; i < f.column_ids.size(); i++)
      out += (i ? ", " : "") + dataset_->columns()[static_cast<size_t>(f.column_ids[i])].name;
    out += " " + f.description;
  }
  return out;
}

std::vector<int> PhysicalTableScan::ConsumedDynamicFilters() const {
  std::vector<int> ids;
  for (const auto& f : dynamic_filters_)
    ids.push_back(f.filter_id);
  for (const auto& f : runtime_filters_)
    ids.push_back(f.filter_id);
  return ids;
}

uint64_t PhysicalTableScan::ProgressBytes(const DatasetFile& file) {
  return std::max<uint64_t>(file.size, 1);
}

uint64_t PhysicalTableScan::PlannedBytes() const {
  uint64_t bytes = 0;
  for (const auto& file : dataset_->files())
    bytes += ProgressBytes(file);
  return bytes;
}

std::unique_ptr<GlobalSourceState> PhysicalTableScan::GetGlobalSourceState(
    ExecutionContext& context) const {
  auto state = std::make_unique<ScanGlobalState>();
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
  // Decisions are per partition (all its files share its values).
  enum : uint8_t { kUndecided, kKept, kPrunedStatic, kPrunedDynamic };
  std::vector<uint8_t> decision(dataset_->num_partitions(), kUndecided);
  const auto may_match = PartitionsMayMatch(partition_filters, column_ids_, *dataset_);
  for (size_t p = 0; p < decision.size(); p++)
    decision[p] = may_match[p] ? kKept : kPrunedStatic;
  for (size_t i = 0; i < dataset_->files().size(); i++) {
    if (decision[dataset_->partition_of(i)] == kKept) state->files.push_back(i);
  }
  scan_metrics_.files_total = dataset_->files().size();
  scan_metrics_.files_pruned_static = dataset_->files().size() - state->files.size();
  // Dynamic partition pruning: the producers' pipelines have finished (the executor ordered
  // them first), so their key sets are complete; a filter that is not ready prunes nothing.
  if (!dynamic_filters_.empty()) {
    const auto started = clock::Now();
    const size_t file_columns = dataset_->num_file_columns();
    std::vector<std::pair<const DynamicPartitionFilter*, DynamicFilterData*>> ready;
    for (const auto& f : dynamic_filters_) {
      DynamicFilterData* data = context.dynamic_filters().Find(f.filter_id);
      if (data && data->ready()) {
        ready.emplace_back(&f, data);
        scan_metrics_.dynamic_filters_ready++;
        scan_metrics_.dynamic_filter_keys += data->size();
      } else {
        scan_metrics_.dynamic_filters_not_ready++;
      }
    }
    std::vector<uint8_t> checked(dataset_->num_partitions(), 0);
    std::vector<size_t> kept;
    for (size_t file_index : state->files) {
      const uint32_t partition = dataset_->partition_of(file_index);
      if (!checked[partition]) {
        checked[partition] = 1;
        const auto& file = dataset_->files()[file_index];
        for (const auto& [filter, data] : ready) {
          Value value =
              file.partition_values[static_cast<size_t>(filter->column_id) - file_columns];
          if (filter->key_expr) {
            auto mapped = MapPartitionValue(*filter->key_expr, value);
            if (!mapped) continue;  // cannot tell (the expression failed): keep
            value = std::move(*mapped);
          }
          // NULL never equals a key: a kKeep filter drops the NULL partition, a kSkip keeps it.
          const bool in_set = !value.is_null() && data->Contains(value.ToString());
          if (filter->mode == DynamicFilterMode::kKeep ? !in_set : in_set) {
            decision[partition] = kPrunedDynamic;
            break;
          }
        }
      }
      if (decision[partition] == kKept) kept.push_back(file_index);
    }
    scan_metrics_.files_pruned_dynamic = state->files.size() - kept.size();
    state->files = std::move(kept);
    scan_metrics_.dynamic_pruning_nanos += clock::NanosSince(started);
  }
  // A runtime filter from a build side that produced nothing: no row can join.
  for (const auto& f : runtime_filters_) {
    const RuntimeFilter* filter = context.dynamic_filters().FindRuntime(f.filter_id);
    if (!filter || !filter->enabled() || !filter->empty() || state->files.empty()) continue;
    for (size_t file_index : state->files)
      decision[dataset_->partition_of(file_index)] = kPrunedDynamic;
    scan_metrics_.files_pruned_dynamic += state->files.size();
    state->files.clear();
  }
  // Pruned files count as scanned for the progress estimate.
  uint64_t kept_bytes = 0;
  for (size_t file_index : state->files)
    kept_bytes += ProgressBytes(dataset_->files()[file_index]);
  context.query().progress().AddDone(PlannedBytes() - kept_bytes);
  if (dataset_->num_partition_columns() > 0) {
    scan_metrics_.partitions_total = dataset_->num_partitions();
    scan_metrics_.partitions_pruned_static =
        static_cast<uint64_t>(std::count(decision.begin(), decision.end(), kPrunedStatic));
    scan_metrics_.partitions_pruned_dynamic =
        static_cast<uint64_t>(std::count(decision.begin(), decision.end(), kPrunedDynamic));
  }
  return state;
}

bool PhysicalTableScan::NextMorsel(ExecutionContext& context, GlobalSourceState& global_base,
                                   ScanMorsel& morsel) const {
  auto& global = static_cast<ScanGlobalState&>(global_base);
  while (true) {
    size_t file_index;
    {
      std::unique_lock<std::mutex> lock(global.mutex);
      // Wait while others open files: their row groups may still come.
      global.opened.wait(lock, [&] {
        return !global.pending.empty() || global.next_file < global.files.size() ||
               global.files_opening == 0;
      });
      if (!global.pending.empty()) {
        morsel = std::move(global.pending.front());
        global.pending.pop_front();
        return true;
      }
      if (global.next_file >= global.files.size()) return false;
      file_index = global.files[global.next_file++];
      global.files_opening++;
    }
    std::shared_ptr<parquet::ParquetFile> file;
    try {
      file = dataset_->OpenFile(file_index);
    } catch (...) {
      std::lock_guard<std::mutex> lock(global.mutex);
      global.files_opening--;
      global.next_file = global.files.size();  // the query fails: open no more
      global.opened.notify_all();
      throw;
    }
    scan_metrics_.files_read++;
    if (file->footer_reused()) scan_metrics_.footers_cached++;
    const int row_groups = file->num_row_groups();
    scan_metrics_.row_groups_total += static_cast<uint64_t>(row_groups);
    if (row_groups == 0) {
      context.query().progress().AddDone(ProgressBytes(dataset_->files()[file_index]));
    }
    std::lock_guard<std::mutex> lock(global.mutex);
    global.files_opening--;
    for (int rg = 1; rg < row_groups; rg++)
      global.pending.push_back(ScanMorsel{file_index, file, {rg}});
    global.opened.notify_all();
    if (row_groups > 0) {
      morsel = ScanMorsel{file_index, std::move(file), {0}};
      return true;
    }
  }
}

std::unique_ptr<LocalSourceState> PhysicalTableScan::GetLocalSourceState(ExecutionContext& context,
                                                                         GlobalSourceState&) const {
  auto local = std::make_unique<ScanLocalState>();
  local->page_index_pruning = context.query().settings().GetBool("page_index_pruning");
  // Worth it when some column is not read by a filter.
  local->late_materialization = (!filters_.empty() || !runtime_filters_.empty()) &&
                                std::count(first_columns_.begin(), first_columns_.end(), true) <
                                    static_cast<std::ptrdiff_t>(first_columns_.size()) &&
                                context.query().settings().GetBool("late_materialization");
  local->reader = std::make_unique<DatasetReader>(dataset_, column_ids_);
  local->scratch = Batch(types_);
  local->runtime.resize(runtime_filters_.size());
  for (auto& sel : local->runtime_sel)
    sel.resize(kBatchSize);
  return local;
}

bool PhysicalTableScan::GetData(ExecutionContext& context, Batch& out,
                                GlobalSourceState& global_base,
                                LocalSourceState& local_base) const {
  auto& global = static_cast<ScanGlobalState&>(global_base);
  auto& local = static_cast<ScanLocalState&>(local_base);
  while (true) {
    if (!local.active) {
      // Take the next morsel: one row group of an opened file, or else open the next file.
      // Files are opened outside the lock, so the footers of the files that survived pruning
      // are read by all of the scan's threads at once.
      ScanMorsel morsel;
      if (!NextMorsel(context, global, morsel)) return false;
      // Row-group pruning by statistics.
      const auto& dataset_file = dataset_->files()[morsel.file_index];
      const int rg = morsel.row_groups[0];
      // The file's bytes split evenly over its row groups, summing exactly to its size.
      const uint64_t file_bytes = ProgressBytes(dataset_file);
      const uint64_t row_groups = static_cast<uint64_t>(morsel.file->num_row_groups());
      const uint64_t rg_index = static_cast<uint64_t>(rg);
      const uint64_t morsel_bytes =
          file_bytes * (rg_index + 1) / row_groups - file_bytes * rg_index / row_groups;
      std::vector<std::optional<parquet::ColumnChunkStatistics>> stats(column_ids_.size());
      auto lookup = [&](idx_t column) -> const parquet::ColumnChunkStatistics* {
        const size_t id = static_cast<size_t>(column_ids_[column]);
        if (id >= dataset_->num_file_columns()) return nullptr;
        const int in_file = dataset_file.column_map[id];
        if (in_file < 0) return nullptr;
        if (morsel.file->columns()[static_cast<size_t>(in_file)].type !=
            dataset_->columns()[id].type) {
          return nullptr;  // widened column: bounds are in another type
        }
        if (!stats[column]) stats[column] = morsel.file->GetStatistics(rg, in_file);
        return &*stats[column];
      };
      bool may_match = true;
      for (const auto& filter : filters_) {
        if (!StatsMayMatch(*filter, lookup)) {
          may_match = false;
          break;
        }
      }
      if (!may_match) {
        scan_metrics_.row_groups_pruned++;
        context.query().progress().AddDone(morsel_bytes);
        continue;
      }
      if (!RuntimeFiltersMayMatch(context, local, lookup, *morsel.file, dataset_file, rg)) {
        scan_metrics_.row_groups_pruned++;
        scan_metrics_.row_groups_pruned_runtime++;
        context.query().progress().AddDone(morsel_bytes);
        continue;
      }
      const PagePruning pages = local.page_index_pruning
                                    ? PrunePages(local, morsel.file_index, morsel.file, rg)
                                    : PagePruning::kReadAll;
      if (pages == PagePruning::kNoRows || pages == PagePruning::kNoRowsRuntime) {
        // Every page of the row group is ruled out: pruned like a row group.
        scan_metrics_.row_groups_pruned++;
        if (pages == PagePruning::kNoRowsRuntime) scan_metrics_.row_groups_pruned_runtime++;
        context.query().progress().AddDone(morsel_bytes);
        continue;
      }
      scan_metrics_.row_groups_read++;
      local.morsel_bytes = morsel_bytes;
      if (pages == PagePruning::kReadAll) {
        local.reader->StartMorsel(morsel.file_index, morsel.file, morsel.row_groups);
      }
      local.active = true;
    }
    context.CheckCancelled();
    const bool direct = filters_.empty() && runtime_filters_.empty();
    const parquet::ScanCounters before = local.reader->counters();
    bool got;
    if (direct) {
      got = local.reader->Next(out);
    } else if (local.late_materialization) {
      // Late materialization: the filters run on their own columns first; the other columns
      // are decoded for the surviving rows only.
      got = local.reader->NextSelected(
          local.scratch, first_columns_,
          [&](Batch& batch, SelectionVector& sel) {
            scan_metrics_.rows_scanned += batch.size();
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
      if (got) scan_metrics_.rows_scanned += local.scratch.size();
    }
    const parquet::ScanCounters after = local.reader->counters();
    scan_metrics_.bytes_read += after.bytes_read - before.bytes_read;
    scan_metrics_.pages_read += after.pages_read - before.pages_read;
    scan_metrics_.pages_skipped += after.pages_skipped - before.pages_skipped;
    if (!got) {
      local.active = false;
      context.query().progress().AddDone(local.morsel_bytes);
      continue;
    }
    if (direct) {
      scan_metrics_.rows_scanned += out.size();
      return true;
    }
    Batch& batch = local.scratch;
    const idx_t count = local.late_materialization ? batch.size() : FilterRows(local, batch);
    if (count == 0) continue;
    for (idx_t c = 0; c < batch.column_count(); c++)
      out.column(c).Reference(batch.column(c));
    out.SetSize(count);
    return true;
  }
}

bool PhysicalTableScan::RuntimeFiltersMayMatch(ExecutionContext& context, LocalSourceState& base,
                                               const StatsLookup& lookup,
                                               const parquet::ParquetFile& file,
                                               const DatasetFile& dataset_file,
                                               int row_group) const {
  auto& local = static_cast<ScanLocalState&>(base);
  bool may_match = true;
  for (size_t i = 0; i < runtime_filters_.size(); i++) {
    auto& probe = local.runtime[i];
    // Published filters never change: look each up until its join has published it.
    if (!probe.filter)
      probe.filter = context.dynamic_filters().FindRuntime(runtime_filters_[i].filter_id);
    const RuntimeFilter* filter = probe.filter;
    if (!may_match || !filter || !filter->enabled()) continue;
    if (filter->empty()) {
      may_match = false;
    } else {
      for (size_t k = 0; k < runtime_filter_columns_[i].size() && may_match; k++) {
        const parquet::ColumnChunkStatistics* stats = lookup(runtime_filter_columns_[i][k]);
        if (!stats) continue;
        if (stats->null_count && *stats->null_count == stats->num_values && stats->num_values > 0) {
          may_match = false;  // only NULL keys: none can join
        } else if (stats->min && stats->max &&
                   !filter->RangeMayMatch(k, *stats->min, *stats->max)) {
          may_match = false;
        }
      }
    }
    if (may_match && (filter->kinds() & kRuntimeFilterExactSet)) {
      // An exact set against the chunk's Parquet bloom filter, when its values are stored
      // as the key is (plain integers or bytes).
      const size_t id = static_cast<size_t>(column_ids_[runtime_filter_columns_[i][0]]);
      const int in_file = id < dataset_->num_file_columns() ? dataset_file.column_map[id] : -1;
      if (in_file >= 0) {
        const auto& desc = file.columns()[static_cast<size_t>(in_file)];
        const bool plain = desc.conversion == parquet::Conversion::kNone ||
                           desc.conversion == parquet::Conversion::kString;
        const auto& meta = file.chunk(row_group, in_file).meta_data;
        if (plain && desc.type == dataset_->columns()[id].type &&
            meta.__isset.bloom_filter_offset) {
          auto bloom = file.ReadBloomFilter(row_group, in_file);
          if (bloom && !filter->ParquetBloomMayMatch(*bloom, desc.physical_type)) {
            may_match = false;
            filter->counters().row_groups_skipped_bloom++;
          }
        }
        if (may_match && runtime_filter_columns_[i].size() == 1 &&
            desc.type == dataset_->columns()[id].type &&
            !DictionaryMayMatch(*filter, file, in_file, row_group)) {
          may_match = false;
          filter->counters().row_groups_skipped_dictionary++;
          scan_metrics_.row_groups_pruned_dictionary++;
        }
      }
    }
    if (!may_match) filter->counters().row_groups_skipped++;
  }
  return may_match;
}

bool PhysicalTableScan::DictionaryMayMatch(const RuntimeFilter& filter,
                                           const parquet::ParquetFile& file, int in_file,
                                           int row_group) const {
  const auto& meta = file.chunk(row_group, in_file).meta_data;
  if (!parquet::ChunkFullyDictionaryEncoded(meta) || !meta.__isset.dictionary_page_offset ||
      meta.dictionary_page_offset < 4 || meta.dictionary_page_offset >= meta.data_page_offset ||
      static_cast<uint64_t>(meta.data_page_offset) > file.file_size()) {
    return true;
  }
  // The dictionary page lies between dictionary_page_offset and the first data page.
  const uint64_t start = static_cast<uint64_t>(meta.dictionary_page_offset);
  const uint64_t size = static_cast<uint64_t>(meta.data_page_offset) - start;
  try {
    auto buffer = std::make_shared<std::vector<uint8_t>>(size);
    file.file().ReadAt(start, size, buffer->data());
    scan_metrics_.bytes_read += size;
    parquet::ScanCounters counters;
    parquet::ColumnChunkReader reader(file, row_group, in_file, {buffer, 0, size}, &counters);
    size_t entries = 0;
    const Vector* dictionary = reader.ReadDictionary(&entries);
    if (!dictionary || entries == 0) return true;
    std::vector<uint32_t> kept(kBatchSize);
    std::vector<uint64_t> hashes;
    std::vector<uint32_t> sel(kBatchSize);
    for (size_t start_entry = 0; start_entry < entries; start_entry += kBatchSize) {
      // Probe the dictionary in slices of a batch, through a selection of its entries.
      const idx_t count = static_cast<idx_t>(std::min<size_t>(kBatchSize, entries - start_entry));
      for (idx_t k = 0; k < count; k++)
        sel[k] = static_cast<uint32_t>(start_entry + k);
      if (filter.Probe({dictionary}, count, sel.data(), kept.data(), hashes) > 0) return true;
    }
    return false;
  } catch (const Error&) {
    return true;  // an unreadable dictionary only costs the pruning; the read reports it
  }
}

PhysicalTableScan::PagePruning PhysicalTableScan::PrunePages(
    LocalSourceState& base, size_t file_index, const std::shared_ptr<parquet::ParquetFile>& file,
    int row_group) const {
  auto& local = static_cast<ScanLocalState&>(base);
  const DatasetFile& dataset_file = dataset_->files()[file_index];
  // The file column of each scan column; bounds are usable only in the scan column's type.
  std::vector<int> in_file(column_ids_.size(), -1);
  std::vector<bool> usable(column_ids_.size(), false);
  std::vector<int> all_file_columns;
  for (size_t c = 0; c < column_ids_.size(); c++) {
    const size_t id = static_cast<size_t>(column_ids_[c]);
    if (id >= dataset_->num_file_columns() || dataset_file.column_map[id] < 0) continue;
    in_file[c] = dataset_file.column_map[id];
    all_file_columns.push_back(in_file[c]);
    const auto& desc = file->columns()[static_cast<size_t>(in_file[c])];
    usable[c] =
        desc.type == dataset_->columns()[id].type && desc.physical_type != format::Type::INT96;
  }
  std::vector<PagePruningRuntimeFilter> runtime;
  std::vector<size_t> runtime_index;
  std::set<idx_t> candidates(filter_columns_.begin(), filter_columns_.end());
  for (size_t i = 0; i < runtime_filters_.size(); i++) {
    const RuntimeFilter* filter = local.runtime[i].filter;
    if (!filter || !filter->enabled() || filter->empty()) continue;
    runtime.push_back({filter, runtime_filter_columns_[i]});
    runtime_index.push_back(i);
    candidates.insert(runtime_filter_columns_[i].begin(), runtime_filter_columns_[i].end());
  }
  std::vector<int> wanted;
  for (idx_t c : candidates) {
    if (usable[c]) wanted.push_back(in_file[c]);
  }
  if (wanted.empty()) return PagePruning::kReadAll;
  // Only the indexes of the columns a filter reads, until they show that pages can be skipped.
  auto index = std::make_shared<parquet::RowGroupPageIndex>(*file, row_group);
  uint64_t bytes = 0;
  index->Load(wanted, wanted, &bytes);
  std::vector<PageIndexColumn> columns(column_ids_.size());
  bool any = false;
  for (idx_t c : candidates) {
    if (!usable[c]) continue;
    const auto* column_index = index->column_index(in_file[c]);
    if (!column_index) continue;
    columns[c] = {column_index, index->offset_index(in_file[c])};
    any = true;
  }
  std::vector<parquet::RowRanges> ranges;
  const int64_t num_rows = file->row_group_num_rows(row_group);
  if (any) {
    std::vector<const BoundExpr*> filters;
    for (const auto& filter : filters_)
      filters.push_back(filter.get());
    ranges = PageRowRanges(num_rows, columns, filters, runtime);
  }
  PagePruning outcome = PagePruning::kReadAll;
  if (!any || (ranges.back().size() == 1 && ranges.back()[0].begin == 0 &&
               ranges.back()[0].end == num_rows)) {
    outcome = PagePruning::kReadAll;
  } else if (ranges.back().empty()) {
    outcome = ranges[0].empty() ? PagePruning::kNoRows : PagePruning::kNoRowsRuntime;
    for (size_t i = 0; i < runtime.size(); i++) {
      if (!ranges[i].empty() && ranges[i + 1].empty())
        runtime[i].filter->counters().row_groups_skipped++;
    }
  } else {
    // Pages will be skipped: every projected column's offset index is needed now.
    index->Load({}, all_file_columns, &bytes);
    for (size_t i = 0; i < runtime.size(); i++) {
      // Pages of the projected columns this filter ruled out beyond the ones before it.
      uint64_t skipped = 0;
      for (int column : all_file_columns) {
        const auto* offsets = index->offset_index(column);
        if (!offsets) continue;
        skipped += parquet::PagesOverlapping(*offsets, num_rows, ranges[i]).size() -
                   parquet::PagesOverlapping(*offsets, num_rows, ranges[i + 1]).size();
      }
      runtime[i].filter->counters().pages_skipped += skipped;
      scan_metrics_.pages_skipped_runtime += skipped;
    }
    outcome = PagePruning::kStarted;
  }
  scan_metrics_.bytes_read += bytes;
  scan_metrics_.page_indexes_invalid += index->invalid_indexes();
  if (outcome == PagePruning::kStarted) {
    local.reader->StartMorsel(file_index, file, std::move(index), ranges.back());
  }
  return outcome;
}

idx_t PhysicalTableScan::FilterRows(LocalSourceState& local, Batch& batch,
                                    std::vector<uint32_t>* alive) const {
  // Each conjunct narrows the selection (and is evaluated only on the rows still alive).
  idx_t count = batch.size();
  auto& sel = static_cast<ScanLocalState&>(local).sel;
  for (const auto& filter : filters_) {
    count = ExpressionExecutor::Select(*filter, batch, sel);
    if (count < batch.size()) {
      if (alive) {
        for (idx_t k = 0; k < count; k++)
          (*alive)[k] = (*alive)[sel[k]];
        alive->resize(count);
      }
      batch.Select(sel.data(), count);
    }
    if (count == 0) return 0;
  }
  if (!runtime_filters_.empty()) count = ApplyRuntimeFilters(local, batch, alive);
  return count;
}

idx_t PhysicalTableScan::ApplyRuntimeFilters(LocalSourceState& base, Batch& batch,
                                             std::vector<uint32_t>* alive) const {
  auto& local = static_cast<ScanLocalState&>(base);
  const idx_t rows = batch.size();
  idx_t count = rows;
  const uint32_t* sel = nullptr;  // null: all rows
  int buffer = 0;
  auto& keys = local.keys;
  for (size_t i = 0; i < runtime_filters_.size() && count > 0; i++) {
    auto& probe = local.runtime[i];
    const RuntimeFilter* filter = probe.filter;
    if (!filter || !filter->enabled()) continue;
    auto& counters = filter->counters();
    if (probe.paused_rows_left > 0) {
      probe.paused_rows_left -= std::min<uint64_t>(probe.paused_rows_left, count);
      counters.rows_passed_paused += count;
      continue;
    }
    const auto started = clock::Now();
    keys.clear();
    for (idx_t position : runtime_filter_columns_[i])
      keys.push_back(&batch.column(position));
    uint32_t* out = local.runtime_sel[buffer].data();
    const idx_t kept = filter->Probe(keys, count, sel, out, local.hashes);
    counters.probe_nanos += clock::NanosSince(started);
    counters.rows_tested += count;
    counters.rows_dropped += count - kept;
    scan_metrics_.runtime_filter_rows_dropped += count - kept;
    probe.window_tested += count;
    probe.window_dropped += count - kept;
    if (probe.window_tested >= kAdaptiveWindow) {
      if (static_cast<double>(probe.window_dropped) <
          kMinDropFraction * static_cast<double>(probe.window_tested)) {
        probe.paused_rows_left = kPauseWindows * kAdaptiveWindow;
        counters.pauses++;
      }
      probe.window_tested = probe.window_dropped = 0;
    }
    count = kept;
    sel = out;
    buffer ^= 1;
  }
  if (sel && count < rows) {
    if (alive) {
      for (idx_t k = 0; k < count; k++)
        (*alive)[k] = (*alive)[sel[k]];
      alive->resize(count);
    }
    batch.Select(sel, count);
  }
  return count;
}

std::vector<std::pair<std::string, std::string>> PhysicalTableScan::AnalyzeDetails(
    ExecutionContext& context) const {
  const auto& m = scan_metrics_;
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
            "{}, {} keys from {} build rows, {} bytes; rows tested {}, dropped {}, passed while "
            "paused {} ({} pauses); row groups skipped {} ({} by Parquet bloom filters, {} by "
            "dictionaries); pages skipped {}; probe {:.3f} ms",
            filter->empty() ? "empty" : RuntimeFilterKindName(filter->kinds()),
            filter->distinct_keys(), filter->build_rows(), filter->bytes(), c.rows_tested.load(),
            c.rows_dropped.load(), c.rows_passed_paused.load(), c.pauses.load(),
            c.row_groups_skipped.load(), c.row_groups_skipped_bloom.load(),
            c.row_groups_skipped_dictionary.load(), c.pages_skipped.load(),
            static_cast<double>(c.probe_nanos.load()) / 1e6);
      }
      out.emplace_back("runtime_filter_" + std::to_string(target.filter_id), text);
    }
  }
  return out;
}

}  // namespace shears

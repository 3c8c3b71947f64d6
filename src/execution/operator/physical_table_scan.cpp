#include "execution/operator/physical_table_scan.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <set>

#include "execution/expression_executor.h"
#include "execution/operator/stats_pruning.h"
#include "execution/pipeline.h"
#include "execution/query_context.h"
#include "storage/dataset_reader.h"
#include "storage/parquet/bloom_filter.h"
#include "storage/parquet/parquet_file.h"

namespace shears {

namespace {

struct Morsel {
  size_t file_index = 0;
  std::shared_ptr<parquet::ParquetFile> file;
  std::vector<int> row_groups;
};

struct ScanGlobalState : GlobalSourceState {
  std::mutex mutex;
  std::vector<size_t> files;  // files left after static partition pruning
  size_t next_file = 0;
  std::shared_ptr<parquet::ParquetFile> current;  // file being split into morsels
  int next_row_group = 0;
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
  Batch scratch;
  SelectionVector sel;
  std::vector<RuntimeFilterProbeState> runtime;
  std::vector<uint32_t> runtime_sel[2];
  std::vector<uint64_t> hashes;
  std::vector<const Vector*> keys;  // the key columns of the filter being applied
};

uint64_t NanosSince(std::chrono::steady_clock::time_point started) {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now() - started)
                                   .count());
}

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
    const auto started = std::chrono::steady_clock::now();
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
    scan_metrics_.dynamic_pruning_nanos += NanosSince(started);
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

std::unique_ptr<LocalSourceState> PhysicalTableScan::GetLocalSourceState(ExecutionContext&,
                                                                         GlobalSourceState&) const {
  auto local = std::make_unique<ScanLocalState>();
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
      // Take the next morsel: one row group of the current file.
      Morsel morsel;
      {
        std::lock_guard<std::mutex> lock(global.mutex);
        while (true) {
          if (!global.current) {
            if (global.next_file >= global.files.size()) return false;
            morsel.file_index = global.files[global.next_file];
            global.current = dataset_->OpenFile(morsel.file_index);
            global.next_row_group = 0;
            scan_metrics_.files_read++;
            scan_metrics_.row_groups_total +=
                static_cast<uint64_t>(global.current->num_row_groups());
            if (global.current->num_row_groups() == 0) {
              context.query().progress().AddDone(
                  ProgressBytes(dataset_->files()[morsel.file_index]));
            }
          }
          morsel.file_index = global.files[global.next_file];
          if (global.next_row_group < global.current->num_row_groups()) {
            morsel.file = global.current;
            morsel.row_groups = {global.next_row_group++};
            break;
          }
          global.current.reset();
          global.next_file++;
        }
      }
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
      scan_metrics_.row_groups_read++;
      local.morsel_bytes = morsel_bytes;
      local.reader->StartMorsel(morsel.file_index, morsel.file, morsel.row_groups);
      local.active = true;
    }
    context.CheckCancelled();
    const bool direct = filters_.empty() && runtime_filters_.empty();
    const uint64_t bytes_before = local.reader->counters().bytes_read;
    bool got = local.reader->Next(direct ? out : local.scratch);
    scan_metrics_.bytes_read += local.reader->counters().bytes_read - bytes_before;
    if (!got) {
      local.active = false;
      context.query().progress().AddDone(local.morsel_bytes);
      continue;
    }
    Batch& batch = direct ? out : local.scratch;
    scan_metrics_.rows_scanned += batch.size();
    if (direct) return true;
    // Row filtering: each conjunct narrows the selection.
    idx_t count = batch.size();
    for (const auto& filter : filters_) {
      count = ExpressionExecutor::Select(*filter, batch, local.sel);
      if (count < batch.size()) batch.Select(local.sel.data(), count);
      if (count == 0) break;
    }
    if (count > 0 && !runtime_filters_.empty()) count = ApplyRuntimeFilters(local, batch);
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
      }
    }
    if (!may_match) filter->counters().row_groups_skipped++;
  }
  return may_match;
}

idx_t PhysicalTableScan::ApplyRuntimeFilters(LocalSourceState& base, Batch& batch) const {
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
    const auto started = std::chrono::steady_clock::now();
    keys.clear();
    for (idx_t position : runtime_filter_columns_[i])
      keys.push_back(&batch.column(position));
    uint32_t* out = local.runtime_sel[buffer].data();
    const idx_t kept = filter->Probe(keys, count, sel, out, local.hashes);
    counters.probe_nanos += NanosSince(started);
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
  if (sel && count < rows) batch.Select(sel, count);
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
  add("row_groups_total", m.row_groups_total);
  add("row_groups_pruned", m.row_groups_pruned);
  add("row_groups_read", m.row_groups_read);
  add("rows_scanned", m.rows_scanned);
  add("bytes_read", m.bytes_read);
  if (!runtime_filters_.empty()) {
    add("row_groups_pruned_runtime", m.row_groups_pruned_runtime);
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
            "paused {} ({} pauses); row groups skipped {} ({} by Parquet bloom filters); probe "
            "{:.3f} "
            "ms",
            filter->empty() ? "empty" : RuntimeFilterKindName(filter->kinds()),
            filter->distinct_keys(), filter->build_rows(), filter->bytes(), c.rows_tested.load(),
            c.rows_dropped.load(), c.rows_passed_paused.load(), c.pauses.load(),
            c.row_groups_skipped.load(), c.row_groups_skipped_bloom.load(),
            static_cast<double>(c.probe_nanos.load()) / 1e6);
      }
      out.emplace_back("runtime_filter_" + std::to_string(target.filter_id), text);
    }
  }
  return out;
}

}  // namespace shears

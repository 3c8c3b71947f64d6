#include "storage/split_pruning.h"

#include <algorithm>
#include <optional>
#include <set>

#include "common/string_util.h"
#include "storage/file_system.h"
#include "storage/parquet/bloom_pruning.h"
#include "storage/parquet/dictionary_pruning.h"
#include "storage/parquet/minmax_pruning.h"
#include "storage/parquet/page_index_pruning.h"
#include "storage/parquet/parquet_file.h"

namespace shears {

SplitPruning::SplitPruning(std::shared_ptr<const Dataset> dataset, std::vector<int> column_ids,
                           std::vector<const BoundExpr*> conjuncts, ScanMetrics& metrics)
    : dataset_(std::move(dataset)),
      column_ids_(std::move(column_ids)),
      conjuncts_(std::move(conjuncts)),
      metrics_(metrics) {
  std::set<idx_t> referenced;
  // A partition filter says nothing here: its partition was decided before (partition_pruning).
  std::erase_if(conjuncts_, [](const BoundExpr* c) { return TestsPartitionsOnly(*c); });
  for (const BoundExpr* conjunct : conjuncts_) {
    if (conjunct->kind == BoundExprKind::kRuntimeFilter) {
      const auto& runtime = static_cast<const BoundRuntimeFilter&>(*conjunct);
      SHEARS_CHECK(runtime.slot == runtime_columns_.size());  // in slot order
      runtime_columns_.push_back(RuntimeKeyColumns(runtime));
      runtime_keys_.push_back(RuntimeComputedKey(runtime));
      continue;
    }
    SHEARS_CHECK(runtime_columns_.empty());  // the literal conjuncts come first
    any_literal_ = true;
    VisitExpression(const_cast<BoundExpr&>(*conjunct), [&](BoundExpr& e) {
      if (e.kind == BoundExprKind::kReference) {
        referenced.insert(static_cast<BoundReference&>(e).index);
      }
    });
  }
  levels_ = std::make_unique<LevelPacing[]>(runtime_columns_.size() * kLevels);
  filter_columns_.assign(referenced.begin(), referenced.end());
  for (const auto& columns : runtime_columns_)
    referenced.insert(columns.begin(), columns.end());
  for (idx_t column : referenced) {
    const size_t id = static_cast<size_t>(column_ids_[column]);
    if (id < dataset_->num_file_columns()) {
      file_filter_columns_.push_back(column);
      file_filter_names_.push_back(AsciiLower(dataset_->columns()[id].name));
    }
  }
  footer_column_hints_ = std::make_unique<std::atomic<int>[]>(file_filter_columns_.size());
  for (size_t i = 0; i < file_filter_columns_.size(); i++)
    footer_column_hints_[i] = -1;
}

void SplitPruning::StartRun(RuntimePruningPacing pacing) {
  pacing_ = pacing;
  pacing_.sample = std::max<uint32_t>(pacing_.sample, 1);
  for (size_t i = 0; i < runtime_columns_.size() * kLevels; i++) {
    levels_[i].checks = levels_[i].pruned = levels_[i].skipped = levels_[i].interval = 0;
    levels_[i].fewest_matches = UINT32_MAX;
    levels_[i].paused = levels_[i].dense = false;
  }
}

bool SplitPruning::RuntimeCheckDue(size_t i, Level level, const RuntimeFilter& filter) const {
  LevelPacing& pacing = levels_[i * kLevels + level];
  if (pacing_.window == 0 || !pacing.paused.load(std::memory_order_relaxed)) return true;
  if (pacing.skipped.fetch_add(1, std::memory_order_relaxed) + 1 <
      pacing.interval.load(std::memory_order_relaxed)) {
    filter.counters().pruning_checks_skipped++;
    Counters(filter, level).skipped++;
    return false;
  }
  pacing.skipped.store(0, std::memory_order_relaxed);
  return true;
}

void SplitPruning::Pause(size_t i, Level level, uint32_t interval,
                         const RuntimeFilter& filter) const {
  LevelPacing& pacing = levels_[i * kLevels + level];
  pacing.skipped.store(0, std::memory_order_relaxed);
  pacing.interval.store(std::max<uint32_t>(interval, 1), std::memory_order_relaxed);
  pacing.paused.store(true, std::memory_order_relaxed);
  filter.counters().pruning_pauses++;
  Counters(filter, level).pauses++;
}

RuntimeFilterCounters::LevelCounters& SplitPruning::Counters(const RuntimeFilter& filter,
                                                             Level level) {
  auto& counters = filter.counters();
  return level == kFileLevel   ? counters.file_checks
         : level == kPageLevel ? counters.page_checks
                               : counters.row_group_checks;
}

void SplitPruning::RuntimeChecked(size_t i, Level level, bool pruned, const RuntimeFilter& filter,
                                  uint32_t matches, bool costly) const {
  Counters(filter, level).checks++;
  if (pruned) Counters(filter, level).pruned++;
  if (pacing_.window == 0) return;
  LevelPacing& pacing = levels_[i * kLevels + level];
  LevelPacing& file_level = levels_[i * kLevels + kFileLevel];
  if (pacing.paused.load(std::memory_order_relaxed)) {
    if (!pruned) {
      // A filter that keeps pruning nothing is sampled ever more rarely: what it costs then
      // shrinks toward nothing, while a change in the data is still seen within max_sample.
      // The file level stays at one file in `sample` (Pause's): a run of files it would
      // prune is seen within that many.
      if (level == kFileLevel) return;
      const uint32_t interval = pacing.interval.load(std::memory_order_relaxed);
      pacing.interval.store(std::min(interval * 2, std::max(pacing_.max_sample, pacing_.sample)),
                            std::memory_order_relaxed);
      return;
    }
    pacing.checks.store(0, std::memory_order_relaxed);
    pacing.weight.store(0, std::memory_order_relaxed);
    // The file level's count stays: a file pruned in this run (below).
    pacing.pruned.store(level == kFileLevel ? 1 : 0, std::memory_order_relaxed);
    pacing.fewest_matches.store(UINT32_MAX, std::memory_order_relaxed);
    pacing.paused.store(false, std::memory_order_relaxed);
    pacing.dense.store(false, std::memory_order_relaxed);
    filter.counters().pruning_resumes++;
    // A row group pruned: the data is not what paused the file level.
    if (level == kRowGroupLevel && file_level.paused.exchange(false, std::memory_order_relaxed))
      filter.counters().pruning_resumes++;
    return;
  }
  if (level == kFileLevel) {
    // Files are paused only by what row groups show; a file pruned keeps them from it.
    if (pruned) pacing.pruned.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  if (pruned) pacing.pruned.fetch_add(1, std::memory_order_relaxed);
  if (level == kRowGroupLevel) {
    uint32_t fewest = pacing.fewest_matches.load(std::memory_order_relaxed);
    while (matches < fewest && !pacing.fewest_matches.compare_exchange_weak(
                                   fewest, matches, std::memory_order_relaxed)) {
    }
  }
  const uint32_t checks = pacing.checks.fetch_add(1, std::memory_order_relaxed) + 1;
  if (level == kRowGroupLevel && checks == pacing_.dense_checks &&
      pacing_.dense_checks < pacing_.window && pacing.pruned.load(std::memory_order_relaxed) == 0 &&
      pacing.fewest_matches.load(std::memory_order_relaxed) >= pacing_.dense_matches) {
    // Each of these row groups held many of the filter's keys: for keys spread over the data
    // as these were, one holding none is too unlikely to pay for the checks (with 16 found,
    // about e^-16 of them), nor a file whose range holds none. Sampled rarely from now on.
    Pause(i, kRowGroupLevel, std::max(pacing_.max_sample, pacing_.sample), filter);
    filter.counters().dense_pauses++;
    pacing.dense.store(true, std::memory_order_relaxed);
    // Not when the filter's ranges skipped a file or row group in this run: the keys follow
    // the layout somewhere.
    if (!file_level.paused.load(std::memory_order_relaxed) &&
        file_level.pruned.load(std::memory_order_relaxed) == 0) {
      Pause(i, kFileLevel, pacing_.sample, filter);
      filter.counters().dense_pauses++;
    }
    pacing.checks.store(0, std::memory_order_relaxed);
    pacing.weight.store(0, std::memory_order_relaxed);
    pacing.pruned.store(0, std::memory_order_relaxed);
    pacing.fewest_matches.store(UINT32_MAX, std::memory_order_relaxed);
    return;
  }
  // Pages of a filter found dense in row groups: a shorter window.
  const bool dense_pages =
      level == kPageLevel && pacing_.dense_checks < pacing_.window &&
      checks >= pacing_.dense_checks &&
      levels_[i * kLevels + kRowGroupLevel].dense.load(std::memory_order_relaxed);
  // Row groups: a window of weights, checks whose reads the reader takes weighing less.
  const uint32_t factor = std::max<uint32_t>(pacing_.reused_window, 1);
  const bool window_done =
      level == kRowGroupLevel
          ? pacing.weight.fetch_add(costly ? factor : 1, std::memory_order_relaxed) +
                    static_cast<uint64_t>(costly ? factor : 1) >=
                static_cast<uint64_t>(pacing_.window) * factor
          : checks >= pacing_.window;
  if (!window_done && !(dense_pages && pacing.pruned.load(std::memory_order_relaxed) == 0)) return;
  if (pacing.pruned.load(std::memory_order_relaxed) == 0) Pause(i, level, pacing_.sample, filter);
  pacing.checks.store(0, std::memory_order_relaxed);
  pacing.weight.store(0, std::memory_order_relaxed);
  pacing.pruned.store(0, std::memory_order_relaxed);
  pacing.fewest_matches.store(UINT32_MAX, std::memory_order_relaxed);
}

SplitPruning::KnownStatistics SplitPruning::KnownFileStatistics(size_t file_index) const {
  KnownStatistics known;
  if (const auto& catalog = dataset_->file_statistics(file_index)) {
    known.stats = catalog;
    known.check_size = catalog->check_size;
    return known;
  }
  // A plain directory's file: the footer an earlier query read.
  known.footer = parquet::CachedFooter(dataset_->files()[file_index].path);
  return known;
}

const parquet::ColumnChunkStatistics* SplitPruning::KnownBounds(const KnownStatistics& known,
                                                                idx_t column) const {
  const size_t id = static_cast<size_t>(column_ids_[column]);
  if (known.stats) {
    if (id >= known.stats->columns.size() || !known.stats->columns[id]) return nullptr;
    return &*known.stats->columns[id];
  }
  const auto at = std::find(file_filter_columns_.begin(), file_filter_columns_.end(), column);
  if (!known.footer || at == file_filter_columns_.end()) return nullptr;
  const size_t slot = static_cast<size_t>(at - file_filter_columns_.begin());
  const std::string& name = file_filter_names_[slot];
  const parquet::ParquetFooter& footer = *known.footer;
  // Matched by name as opening the file would; an ambiguous name decides nothing. The files of
  // a dataset mostly share a schema: the position found in the last footer is tried first, so
  // a file costs one name comparison rather than one per column.
  int found = footer_column_hints_[slot].load(std::memory_order_relaxed);
  if (!(found >= 0 && static_cast<size_t>(found) < footer.columns.size() &&
        EqualsAsciiLower(footer.columns[static_cast<size_t>(found)].name, name) &&
        parquet::FooterNamesUnique(footer))) {
    int matches = 0;
    found = -1;
    for (size_t c = 0; c < footer.columns.size(); c++) {
      if (EqualsAsciiLower(footer.columns[c].name, name)) {
        found = static_cast<int>(c);
        matches++;
      }
    }
    if (matches != 1) return nullptr;
    footer_column_hints_[slot].store(found, std::memory_order_relaxed);
  }
  // Bounds are usable only in the scan column's type.
  const auto& desc = footer.columns[static_cast<size_t>(found)];
  if (!(desc.type == dataset_->columns()[id].type) || desc.physical_type == format::Type::INT96)
    return nullptr;
  return &parquet::CachedFileColumnStatistics(footer, found);
}

bool SplitPruning::StillDescribes(size_t file_index, const KnownStatistics& known) const {
  if (!known.check_size && !known.footer) return true;
  const DatasetFile& file = dataset_->files()[file_index];
  const std::optional<FileIdentity> now = StatIdentity(file.path);
  if (!now) return false;
  return known.footer ? *now == known.footer->identity : now->size == file.size;
}

bool SplitPruning::FileMayMatch(size_t file_index, const std::vector<const RuntimeFilter*>& runtime,
                                FileCheck* check) const {
  if (file_filter_columns_.empty()) return true;
  // The runtime filters checked on this file: published, and their file level not paused
  // (RuntimeChecked) or this file its sample. Slots past 64 are always checked.
  uint64_t due = 0;
  bool any_filter = any_literal_;
  for (size_t i = 0; i < runtime.size() && i < 64; i++) {
    const RuntimeFilter* filter = runtime[i];
    if (filter && filter->enabled() && !filter->empty() &&
        RuntimeCheckDue(i, kFileLevel, *filter)) {
      due |= uint64_t{1} << i;
      any_filter = true;
    }
  }
  for (size_t i = 64; i < runtime.size(); i++)
    any_filter = any_filter || (runtime[i] && runtime[i]->enabled() && !runtime[i]->empty());
  if (!any_filter) return true;
  // Not paced by its own results: the statistics are in memory, and checking them costs far
  // less than opening the file would (footer read or not, its row groups' checks follow).
  const KnownStatistics known = KnownFileStatistics(file_index);
  if (!known.stats && !known.footer) return true;
  if (check) {
    check->footer = known.footer;
    check->runtime.fill(nullptr);
  }
  // What the lookup reads, behind one pointer: a lambda of two pointers is held inside the
  // std::function, not allocated per file.
  struct LookupState {
    const KnownStatistics& known;
    std::vector<std::optional<parquet::ColumnChunkStatistics>> pruning;
  } state{known, {}};
  const StatsLookup lookup = [this, &state](idx_t column) -> const parquet::ColumnChunkStatistics* {
    const parquet::ColumnChunkStatistics* bounds = KnownBounds(state.known, column);
    // Copied only where pruning must widen the bounds (FLOAT/DOUBLE of other writers).
    if (!bounds || !bounds->max_may_exclude_nan) return bounds;
    state.pruning.resize(column_ids_.size());
    if (!state.pruning[column]) state.pruning[column] = parquet::PruningStatistics(*bounds);
    return &*state.pruning[column];
  };
  for (const BoundExpr* conjunct : conjuncts_) {
    if (conjunct->kind != BoundExprKind::kRuntimeFilter) {
      if (!StatsMayMatch(*conjunct, lookup)) return !StillDescribes(file_index, known);
      continue;
    }
    const size_t i = static_cast<const BoundRuntimeFilter&>(*conjunct).slot;
    const RuntimeFilter* filter = runtime[i];
    if (!filter || !filter->enabled() || filter->empty()) continue;
    if (i < 64 && !(due & (uint64_t{1} << i))) continue;
    if (RuntimeFilterMayMatch(*filter, runtime_columns_[i], runtime_keys_[i], lookup)) {
      if (check && i < FileCheck::kRuntimeSlots) check->runtime[i] = filter;
      RuntimeChecked(i, kFileLevel, false, *filter);
      continue;
    }
    if (!StillDescribes(file_index, known)) return true;
    RuntimeChecked(i, kFileLevel, true, *filter);
    filter->counters().files_skipped++;
    return false;
  }
  if (check) check->passed = known.footer != nullptr;
  return true;
}

bool SplitPruning::FileCheckCovers(const ScanSplit& split) const {
  if (!split.file_check || split.file->num_row_groups() != 1) return false;
  // The file check found the columns by name and left INT96 ones out; the row group's check
  // reads them through the column map, INT96 null counts included: same only without those.
  const auto& dataset_file = dataset_->files()[split.file_index];
  for (idx_t column : file_filter_columns_) {
    const int in_file = FileColumn(dataset_file, *split.file, column);
    if (in_file >= 0 &&
        split.file->columns()[static_cast<size_t>(in_file)].physical_type == format::Type::INT96)
      return false;
  }
  return true;
}

int SplitPruning::FileColumn(const DatasetFile& dataset_file, const parquet::ParquetFile& file,
                             idx_t column) const {
  const size_t id = static_cast<size_t>(column_ids_[column]);
  if (id >= dataset_->num_file_columns()) return -1;
  const int in_file = dataset_file.column_map[id];
  if (in_file < 0 ||
      file.columns()[static_cast<size_t>(in_file)].type != dataset_->columns()[id].type)
    return -1;
  return in_file;
}

SplitVerdict SplitPruning::Check(const ScanSplit& split,
                                 const std::vector<const RuntimeFilter*>& runtime, bool page_index,
                                 Scratch* scratch) const {
  Scratch own;
  Scratch& buffers = scratch ? *scratch : own;
  // The statistics copied for the last split checked are let go now, and only those.
  buffers.stats.resize(column_ids_.size());
  for (idx_t column : buffers.stats_held)
    buffers.stats[column].reset();
  buffers.stats_held.clear();
  // What the statistics lookup reads, behind one pointer: a lambda of two pointers is held
  // inside the std::function, not allocated per split.
  struct LookupState {
    const DatasetFile& dataset_file;
    const ScanSplit& split;
    Scratch& buffers;
    // A file of one row group (a partition's, typically): its chunk's statistics are the
    // file's, which the footer keeps decoded across queries.
    bool one_row_group;
  } state{dataset_->files()[split.file_index], split, buffers, split.file->num_row_groups() == 1};
  const StatsLookup lookup = [this, &state](idx_t column) -> const parquet::ColumnChunkStatistics* {
    const int in_file = FileColumn(state.dataset_file, *state.split.file, column);
    if (in_file < 0) return nullptr;
    auto& held = state.buffers.stats[column];
    if (held) return &*held;
    if (state.one_row_group) {
      const parquet::ColumnChunkStatistics& file =
          parquet::CachedFileColumnStatistics(*state.split.file->footer(), in_file);
      if (!file.max_may_exclude_nan) return &file;
      held = parquet::PruningStatistics(file);
    } else {
      held = parquet::PruningStatistics(
          state.split.file->GetStatistics(state.split.row_group, in_file));
    }
    state.buffers.stats_held.push_back(column);
    return &*held;
  };
  // A file of one row group whose check before opening passed on these same statistics: what
  // it checked is not checked again.
  const FileCheck* file_check = FileCheckCovers(split) ? split.file_check.get() : nullptr;
  SplitVerdict verdict;
  verdict.kind = SplitVerdict::kPruned;
  SplitDictionaries dictionaries;
  for (const BoundExpr* conjunct : conjuncts_) {
    if (conjunct->kind != BoundExprKind::kRuntimeFilter) {
      if (file_check || StatsMayMatch(*conjunct, lookup)) continue;
      metrics_.row_groups_pruned++;
      return verdict;
    }
    const size_t i = static_cast<const BoundRuntimeFilter&>(*conjunct).slot;
    const RuntimeFilter* filter = runtime[i];
    bool ranges_passed = file_check && filter && file_check->runtime_passed(i) == filter;
    if (!ranges_passed && filter && filter->enabled() && !filter->empty() &&
        OnlyRowGroupRangesPaused(split, i)) {
      ranges_passed = true;
      filter->counters().pruning_checks_skipped++;
    }
    if (RuntimeConjunctMayMatch(split, i, filter, lookup, ranges_passed, dictionaries)) continue;
    metrics_.row_groups_pruned++;
    metrics_.row_groups_pruned_runtime++;
    verdict.by_runtime = true;
    return verdict;
  }
  if (page_index)
    verdict = PrunePages(split, runtime, buffers);
  else
    verdict.kind = SplitVerdict::kReadAll;
  if (verdict.kind == SplitVerdict::kPruned) {
    // Every page of the row group is ruled out: pruned like a row group.
    metrics_.row_groups_pruned++;
    if (verdict.by_runtime) metrics_.row_groups_pruned_runtime++;
  } else {
    metrics_.row_groups_read++;
    verdict.dictionaries = std::move(dictionaries);
  }
  return verdict;
}

bool SplitPruning::OnlyRowGroupRangesPaused(const ScanSplit& split, size_t i) const {
  if (pacing_.window == 0 || split.file->num_row_groups() != 1) return false;
  return levels_[i * kLevels + kFileLevel].paused.load(std::memory_order_relaxed);
}

bool SplitPruning::RuntimeConjunctMayMatch(const ScanSplit& split, size_t i,
                                           const RuntimeFilter* filter, const StatsLookup& lookup,
                                           bool ranges_passed,
                                           SplitDictionaries& dictionaries) const {
  if (!filter || !filter->enabled()) return true;
  if (filter->empty()) {
    filter->counters().row_groups_skipped++;  // nothing can join: no check needed
    return false;
  }
  // The footer's statistics are at hand: always checked. Bloom filters and dictionaries are
  // read for it: paced.
  bool may_match = ranges_passed ||
                   RuntimeFilterMayMatch(*filter, runtime_columns_[i], runtime_keys_[i], lookup);
  // Ranges that skip a row group keep the file level from a pause (RuntimeChecked).
  if (!may_match) levels_[i * kLevels + kFileLevel].pruned.fetch_add(1, std::memory_order_relaxed);
  if (may_match && ListsColumnKeys(*filter) && RuntimeCheckDue(i, kRowGroupLevel, *filter)) {
    uint32_t matches = 0;
    bool costly = false;
    may_match = ColumnKeysMayMatch(split, *filter, i, &matches, dictionaries, &costly);
    RuntimeChecked(i, kRowGroupLevel, !may_match, *filter, matches, costly);
  }
  if (!may_match) filter->counters().row_groups_skipped++;
  return may_match;
}

bool SplitPruning::ListsColumnKeys(const RuntimeFilter& filter) {
  for (size_t k = 0; k < filter.key_types().size(); k++) {
    if (filter.column_filter(k)) return true;
  }
  return false;
}

bool SplitPruning::ColumnKeysMayMatch(const ScanSplit& split, const RuntimeFilter& filter, size_t i,
                                      uint32_t* matches, SplitDictionaries& dictionaries,
                                      bool* costly) const {
  *matches = UINT32_MAX;
  const auto& dataset_file = dataset_->files()[split.file_index];
  // A computed key (one column): the chunk's bloom filter holds column values, not keys.
  const BoundExpr* key_expr = runtime_keys_[i].expr;
  // Each key column alone: a chunk none of whose values is among the column's keys rules the
  // row group out, for a key of several columns too (each column's own keys).
  for (size_t k = 0; k < runtime_columns_[i].size(); k++) {
    const RuntimeFilter* keys = filter.column_filter(k);
    if (!keys) {
      *matches = 0;  // a column not listed: its ranges may still prune files
      continue;
    }
    const idx_t column = runtime_columns_[i][k];
    const int in_file = FileColumn(dataset_file, *split.file, column);
    if (in_file < 0) {
      *matches = 0;
      continue;
    }
    const LogicalType& type = dataset_->columns()[static_cast<size_t>(column_ids_[column])].type;
    // The chunk's bloom filter is probed with the keys of an exact set or a listed bitmap.
    if (!key_expr && keys->probes_parquet_bloom()) {
      // A bloom filter is read for the check alone.
      if (split.file->chunk(split.row_group, in_file).meta_data.__isset.bloom_filter_offset)
        *costly = true;
      if (!parquet::BloomMayMatch(*keys, *split.file, in_file, split.row_group, type)) {
        filter.counters().row_groups_skipped_bloom++;
        return false;
      }
    }
    uint64_t bytes = 0;
    uint32_t found = 0;
    // Another filter on the same column may have read the dictionary for this split already.
    std::shared_ptr<const parquet::DecodedDictionary> decoded;
    for (const auto& dictionary : dictionaries) {
      if (dictionary->column == in_file) decoded = dictionary;
    }
    const bool known = decoded != nullptr;
    const bool may_match = parquet::DictionaryMayMatch(*keys, *split.file, in_file, split.row_group,
                                                       &bytes, key_expr, &found, &decoded);
    // A dictionary the row group's reader takes costs the check only its probe; one read for
    // nothing (unusable: the reader decodes it again) costs the check its read.
    if (!known && decoded) {
      dictionaries.push_back(std::move(decoded));
    } else if (bytes > 0) {
      *costly = true;
    }
    *matches = std::min(*matches, found);
    metrics_.bytes_read += bytes;
    if (!may_match) {
      filter.counters().row_groups_skipped_dictionary++;
      metrics_.row_groups_pruned_dictionary++;
      return false;
    }
  }
  if (*matches == UINT32_MAX) *matches = 0;  // no column checked
  return true;
}

SplitVerdict SplitPruning::PrunePages(const ScanSplit& split,
                                      const std::vector<const RuntimeFilter*>& runtime_filters,
                                      Scratch& scratch) const {
  const auto& file = split.file;
  const int row_group = split.row_group;
  const DatasetFile& dataset_file = dataset_->files()[split.file_index];
  // The file column of each scan column; bounds are usable only in the scan column's type.
  std::vector<int>& in_file = scratch.in_file;
  std::vector<uint8_t>& usable = scratch.usable;
  std::vector<int>& all_file_columns = scratch.all_file_columns;
  in_file.assign(column_ids_.size(), -1);
  usable.assign(column_ids_.size(), 0);
  all_file_columns.clear();
  for (size_t c = 0; c < column_ids_.size(); c++) {
    const size_t id = static_cast<size_t>(column_ids_[c]);
    if (id >= dataset_->num_file_columns() || dataset_file.column_map[id] < 0) continue;
    in_file[c] = dataset_file.column_map[id];
    all_file_columns.push_back(in_file[c]);
    const auto& desc = file->columns()[static_cast<size_t>(in_file[c])];
    usable[c] =
        desc.type == dataset_->columns()[id].type && desc.physical_type != format::Type::INT96;
  }
  // By slot: the published runtime filters checked at this level now (null: not published,
  // nothing to check, or paused).
  std::vector<const RuntimeFilter*>& runtime = scratch.runtime;
  std::vector<size_t>& checked = scratch.checked;  // their slots
  std::vector<idx_t>& candidates = scratch.candidates;
  runtime.assign(runtime_filters.size(), nullptr);
  checked.clear();
  candidates.assign(filter_columns_.begin(), filter_columns_.end());
  for (size_t i = 0; i < runtime_filters.size(); i++) {
    const RuntimeFilter* filter = runtime_filters[i];
    if (!filter || !filter->enabled() || filter->empty() ||
        !RuntimeCheckDue(i, kPageLevel, *filter))
      continue;
    runtime[i] = filter;
    checked.push_back(i);
    candidates.insert(candidates.end(), runtime_columns_[i].begin(), runtime_columns_[i].end());
  }
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  SplitVerdict verdict;
  std::vector<int>& wanted = scratch.wanted;
  wanted.clear();
  for (idx_t c : candidates) {
    if (usable[c]) wanted.push_back(in_file[c]);
  }
  // Whether each runtime filter ruled out rows the ones before it let through.
  auto record = [&](const std::vector<parquet::RowRanges>* ranges) {
    for (size_t i : checked) {
      const bool pruned = ranges && parquet::RowRangesCount((*ranges)[i + 1]) <
                                        parquet::RowRangesCount((*ranges)[i]);
      RuntimeChecked(i, kPageLevel, pruned, *runtime[i]);
    }
  };
  // A page index of one page per chunk, or none: nothing to read. (Reading one costs a request
  // and a parse per row group, as much as a small row group's statistics check many times over.)
  if (wanted.empty() || OnePagePerChunk(split, wanted)) {
    record(nullptr);
    return verdict;
  }
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
  if (any) ranges = PageRowRanges(num_rows, columns, conjuncts_, runtime);
  record(any ? &ranges : nullptr);
  if (!any || (ranges.back().size() == 1 && ranges.back()[0].begin == 0 &&
               ranges.back()[0].end == num_rows)) {
    verdict.kind = SplitVerdict::kReadAll;
  } else if (ranges.back().empty()) {
    verdict.kind = SplitVerdict::kPruned;
    verdict.by_runtime = !ranges[0].empty();
    for (size_t i : checked) {
      if (!ranges[i].empty() && ranges[i + 1].empty()) runtime[i]->counters().row_groups_skipped++;
    }
  } else {
    // Pages will be skipped: every projected column's offset index is needed now.
    index->Load({}, all_file_columns, &bytes);
    for (size_t i : checked) {
      // Pages of the projected columns this filter ruled out beyond the ones before it.
      uint64_t skipped = 0;
      for (int column : all_file_columns) {
        const auto* offsets = index->offset_index(column);
        if (!offsets) continue;
        skipped += parquet::PagesOverlapping(*offsets, num_rows, ranges[i]).size() -
                   parquet::PagesOverlapping(*offsets, num_rows, ranges[i + 1]).size();
      }
      runtime[i]->counters().pages_skipped += skipped;
      metrics_.pages_skipped_runtime += skipped;
    }
    verdict.kind = SplitVerdict::kReadPages;
    verdict.rows = std::move(ranges.back());
  }
  metrics_.bytes_read += bytes;
  metrics_.page_indexes_invalid += index->invalid_indexes();
  // The reader needs the offset indexes only to skip pages.
  if (verdict.kind == SplitVerdict::kReadPages) verdict.index = std::move(index);
  return verdict;
}

bool SplitPruning::OnePagePerChunk(const ScanSplit& split, const std::vector<int>& file_columns) {
  for (int column : file_columns) {
    const format::ColumnMetaData& meta = split.file->chunk(split.row_group, column).meta_data;
    if (!meta.__isset.encoding_stats || meta.encoding_stats.empty()) return false;
    int64_t data_pages = 0;
    for (const auto& stats : meta.encoding_stats) {
      if (stats.page_type == format::PageType::DATA_PAGE ||
          stats.page_type == format::PageType::DATA_PAGE_V2)
        data_pages += stats.count;
    }
    // The one page's bounds in the column index are the chunk's: only when the chunk has them
    // (and the row group's check used them) is the index of no use.
    const auto& statistics = meta.statistics;
    const bool bounds = meta.__isset.statistics &&
                        ((statistics.__isset.min_value && statistics.__isset.max_value) ||
                         (statistics.__isset.min && statistics.__isset.max));
    if (data_pages != 1 || !bounds) return false;
  }
  return true;
}

}  // namespace shears

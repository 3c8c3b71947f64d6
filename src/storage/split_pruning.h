#pragma once
// Split pruning: what a scan's filters say about one split (a row group) before it is read,
// level by level, each statistic kind in its own module under storage/parquet/:
//
//   file        before it is opened: min/max and null counts of the whole file, known without
//               opening it (file_statistics.h: the catalog's, the footers read while opening,
//               or the process's footer cache), for the literal predicates and the runtime
//               filters' ranges and exact sets
//   row group   min/max and null counts (minmax_pruning.h) for the literal predicates and the
//               runtime filters' key ranges; a runtime exact set against the chunk's Parquet
//               bloom filter (bloom_pruning.h) and its dictionary (dictionary_pruning.h), for a
//               key of several columns each column's own keys against that column's
//   pages       the page index (page_index_pruning.h): the row ranges that can match
//
// The scan's filters are one list of conjuncts: literal predicates and runtime join filters
// (BoundRuntimeFilter, after the literal ones), checked at each level in one loop that
// dispatches on the conjunct's kind. A runtime conjunct is checked with its filter as the scan
// thread found it published (passed per call; not published: may match), so one arriving while
// the scan runs prunes every split checked after it. A file's check works on statistics held
// in memory (a stat only before a file is skipped), so it is made unless the filter is dense
// (RuntimePruningPacing::dense_matches: every row group holds many keys). Checks beyond the row
// group's own min/max read and parse a bloom filter or dictionary (row groups) or a page index:
// a runtime filter whose checks at one of those levels prune nothing in a window of them is
// paused there (only a sample of the splits is checked, fewer the longer they prune nothing),
// and resumed by a sample that prunes (RuntimePruningPacing). A dictionary a check decoded goes
// with the verdict to the row group's reader, which takes it rather than reading and decoding
// the page again, so such a check weighs less in its window (RuntimePruningPacing::
// reused_window).

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

#include "dynfilter/runtime_filter.h"
#include "expression/expression.h"
#include "storage/dataset.h"
#include "storage/file_statistics.h"
#include "storage/parquet/column_reader.h"
#include "storage/parquet/minmax_pruning.h"
#include "storage/parquet/page_index.h"
#include "storage/scan_metrics.h"
#include "storage/split_enumerator.h"

namespace shears {

struct SplitVerdict {
  enum Kind {
    kReadAll,    // read the whole row group
    kReadPages,  // read only `rows` (the reader selects their pages from `index`)
    kPruned,     // no row can match
  };
  Kind kind = kReadAll;
  bool by_runtime = false;  // kPruned only because of a runtime filter
  std::shared_ptr<parquet::RowGroupPageIndex> index;
  parquet::RowRanges rows;
  /// Dictionaries the checks read and decoded, for the row group's reader to adopt rather
  /// than read and decode them again (ParquetReader::AdoptDictionaries).
  std::vector<std::shared_ptr<const parquet::DecodedDictionary>> dictionaries;
};

/// When a runtime filter's checks at one level are paused (setting
/// runtime_filter.pruning_window).
struct RuntimePruningPacing {
  uint32_t window = 32;       // checks at a level without a prune before it is paused; 0: never
  uint32_t sample = 8;        // a paused level checks one split in this many at first,
  uint32_t max_sample = 128;  // twice as few after each sample that prunes nothing, to this
  /// A filter whose first `dense_checks` dictionary checks of a window each found at least
  /// `dense_matches` of its keys among the entries cannot prune a row group or a file of such
  /// data: its row-group level is paused then (sampling one split in max_sample), and so is its
  /// file level (one file in `sample`, resumed by a file or row group it prunes); its page
  /// level then pauses after dense_checks checks that prune nothing rather than a window (a
  /// page holding none of the keys is likelier than a row group, but one in the first pages
  /// checked shows keys following the layout). Only when dense_checks < window.
  uint32_t dense_checks = 8;
  uint32_t dense_matches = 16;
  /// A row-group check that read only what the row group's reader then takes (a dictionary
  /// page it adopts: the check costs its probe of the entries, not a read and a decode) counts
  /// 1/reused_window of a check that read something for itself: a window of such checks that
  /// prunes nothing is this many times as long before the level is paused.
  uint32_t reused_window = 8;
};

class SplitPruning {
 public:
  /// `conjuncts`: the scan's filters over its output columns `column_ids`, literal ones first,
  /// then its runtime conjuncts (BoundRuntimeFilter) in slot order. A runtime key computed from
  /// its one column counts its column's statistics only through a monotone expression (Parquet
  /// bloom filters hold column values, not keys: not used; a dictionary's entries are computed
  /// and tested).
  SplitPruning(std::shared_ptr<const Dataset> dataset, std::vector<int> column_ids,
               std::vector<const BoundExpr*> conjuncts, ScanMetrics& metrics);

  /// Buffers a scan thread keeps across its splits' checks, so a check allocates nothing.
  struct Scratch {
    // Check: statistics copied for pruning, by scan column, and the columns holding one.
    std::vector<std::optional<parquet::ColumnChunkStatistics>> stats;
    std::vector<idx_t> stats_held;
    // PrunePages: by scan column its file column and whether its bounds are usable; the file
    // columns read, the runtime filters checked (by slot) and their slots, the scan columns a
    // checked filter reads and their file columns.
    std::vector<int> in_file;
    std::vector<uint8_t> usable;
    std::vector<int> all_file_columns;
    std::vector<const RuntimeFilter*> runtime;
    std::vector<size_t> checked;
    std::vector<idx_t> candidates;
    std::vector<int> wanted;
  };

  /// Checks `split` with the conjuncts, the runtime ones by their published filters
  /// (`runtime[slot]`, null while not published), by statistics, bloom filters and
  /// dictionaries, then by the page index when `page_index`. Counts row groups and pages in the
  /// metrics and in each runtime filter's counters. `scratch`: the calling thread's (null: a
  /// new one).
  SplitVerdict Check(const ScanSplit& split, const std::vector<const RuntimeFilter*>& runtime,
                     bool page_index, Scratch* scratch = nullptr) const;

  /// Before file `file_index` is opened: false when its statistics (file_statistics.h) show
  /// that no row of it passes the literal filters or the published runtime filters (`runtime`
  /// as for Check; the filter that ruled it out counts it). True when nothing is known. Reads
  /// the footer cache for a file without statistics of its own; a stat confirms the file is
  /// unchanged only before it is ruled out. `check` (optional) is told the cached footer the
  /// statistics came from and whether every conjunct passed on them (FileCheck), so the file
  /// is opened with that footer and its one row group is not tested on them again.
  bool FileMayMatch(size_t file_index, const std::vector<const RuntimeFilter*>& runtime,
                    FileCheck* check = nullptr) const;

  /// Starts a scan's run: every level of every runtime filter checked again, with `pacing`.
  void StartRun(RuntimePruningPacing pacing);

 private:
  // The file level is paused only when the row-group level found the filter dense (see
  // RuntimePruningPacing), never by its own checks.
  enum Level { kRowGroupLevel, kPageLevel, kFileLevel, kLevels };
  /// Checks of runtime filter i at one level, shared by the scan's threads (relaxed: a lost
  /// update only shifts when a pause begins or ends).
  struct LevelPacing {
    std::atomic<uint32_t> checks{0};  // of the current window
    std::atomic<uint32_t> pruned{0};  // of those, the ones that pruned
    std::atomic<bool> paused{false};
    std::atomic<uint32_t> skipped{0};   // while paused, since the last sample
    std::atomic<uint32_t> interval{0};  // while paused, splits per sample
    // Of the current window's checks, the fewest keys a check found (dictionary entries that
    // are keys; 0: not counted).
    std::atomic<uint32_t> fewest_matches{UINT32_MAX};
    // Row-group level: the current window's checks weighed (RuntimePruningPacing::
    // reused_window for a costly one, 1 for one whose reads the reader takes).
    std::atomic<uint32_t> weight{0};
    // Row-group level: paused because its dictionaries showed the filter dense.
    std::atomic<bool> dense{false};
  };
  /// Statistics of a file known without opening it, and what must still hold for them to rule
  /// the file out (a file they let through is opened, which checks it anyway).
  struct KnownStatistics {
    std::shared_ptr<const FileStatistics> stats;           // the catalog's or the dataset's
    bool check_size = false;                               // then: the file keeps its listed size
    std::shared_ptr<const parquet::ParquetFooter> footer;  // or a cached footer (its identity)
  };
  using SplitDictionaries = std::vector<std::shared_ptr<const parquet::DecodedDictionary>>;
  /// Whether runtime filter `i` should be checked at `level` now (false: paused, not sampled).
  bool RuntimeCheckDue(size_t i, Level level, const RuntimeFilter& filter) const;
  /// Records a check made after RuntimeCheckDue said so; `matches`: how many of the filter's
  /// keys the check found (row-group level; 0: not counted).
  /// `costly`: it read something only the check uses (else its window is longer, see
  /// RuntimePruningPacing::reused_window).
  void RuntimeChecked(size_t i, Level level, bool pruned, const RuntimeFilter& filter,
                      uint32_t matches = 0, bool costly = true) const;
  /// Pauses `level` of runtime filter i, sampling one check in `interval`.
  void Pause(size_t i, Level level, uint32_t interval, const RuntimeFilter& filter) const;
  /// `filter`'s counters of `level`.
  static RuntimeFilterCounters::LevelCounters& Counters(const RuntimeFilter& filter, Level level);

  /// The file column of scan column `column` whose values are in the scan column's type (a
  /// widened column's bounds are in another), or -1.
  int FileColumn(const DatasetFile& dataset_file, const parquet::ParquetFile& file,
                 idx_t column) const;
  /// The statistics of file `file_index` known without opening it (neither stats nor footer:
  /// none).
  KnownStatistics KnownFileStatistics(size_t file_index) const;
  /// The bounds `known` holds for scan column `column`, or null.
  const parquet::ColumnChunkStatistics* KnownBounds(const KnownStatistics& known,
                                                    idx_t column) const;
  /// Whether `known` still describes file `file_index` (at most one stat).
  bool StillDescribes(size_t file_index, const KnownStatistics& known) const;
  /// Whether `filter` lists the keys of some key column (RuntimeFilter::column_filter).
  static bool ListsColumnKeys(const RuntimeFilter& filter);
  /// False when, for some key column of runtime filter `i`, the split's bloom filter or
  /// dictionary holds none of that column's keys. `*matches`: the fewest keys a key column's
  /// dictionary was found to hold (0: some column's not counted).
  /// `dictionaries`: those read for the split so far, to which it adds the ones it reads.
  /// `*costly`: the check read something the reader will not take (a bloom filter, a
  /// dictionary it cannot hand over).
  bool ColumnKeysMayMatch(const ScanSplit& split, const RuntimeFilter& filter, size_t i,
                          uint32_t* matches, SplitDictionaries& dictionaries, bool* costly) const;
  /// The row-group check of runtime conjunct `i` with its published `filter` (null: passes):
  /// its key ranges against the statistics (unless `ranges_passed`: the file's check passed
  /// them on the same statistics), then (paced) bloom filters and dictionaries.
  bool RuntimeConjunctMayMatch(const ScanSplit& split, size_t i, const RuntimeFilter* filter,
                               const StatsLookup& lookup, bool ranges_passed,
                               SplitDictionaries& dictionaries) const;
  /// Whether a row group's own min/max check of runtime conjunct `i` is left out: its file has
  /// no other row group (its statistics are the file's) and the file level is paused (the
  /// filter was found dense: a file's bounds are not expected to rule it out, RuntimeChecked).
  /// The row-group level's samples of bloom filters and dictionaries still resume it.
  bool OnlyRowGroupRangesPaused(const ScanSplit& split, size_t i) const;
  /// Whether every chunk of `file_columns` in the split's row group is one data page (by its
  /// encoding_stats) with min/max statistics: the page index then tells nothing the row
  /// group's statistics, checked before, did not.
  static bool OnePagePerChunk(const ScanSplit& split, const std::vector<int>& file_columns);
  /// Whether the file check `split.file_check` (if any) passed on exactly the statistics the
  /// row group's check reads: its footer's, every filter column usable alike.
  bool FileCheckCovers(const ScanSplit& split) const;
  SplitVerdict PrunePages(const ScanSplit& split, const std::vector<const RuntimeFilter*>& runtime,
                          Scratch& scratch) const;

  std::shared_ptr<const Dataset> dataset_;
  std::vector<int> column_ids_;
  std::vector<const BoundExpr*> conjuncts_;
  bool any_literal_ = false;           // some conjunct is a literal one
  std::vector<idx_t> filter_columns_;  // scan columns the literal conjuncts read
  // By runtime conjunct (slot): its key's scan columns and its key computed from its column.
  std::vector<std::vector<idx_t>> runtime_columns_;
  std::vector<ComputedRuntimeKey> runtime_keys_;
  // Scan columns (file columns only) a literal or runtime filter reads: those whose file
  // statistics can skip a file.
  std::vector<idx_t> file_filter_columns_;
  std::vector<std::string> file_filter_names_;  // their names, lower case
  // By file filter column: its position in the last cached footer it was found in (-1: none).
  std::unique_ptr<std::atomic<int>[]> footer_column_hints_;
  ScanMetrics& metrics_;
  RuntimePruningPacing pacing_;
  std::unique_ptr<LevelPacing[]> levels_;  // kLevels per runtime filter
};

}  // namespace shears

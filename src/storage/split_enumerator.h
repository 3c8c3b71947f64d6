#pragma once
// The split enumerator of a table scan: hands out splits (one row group of an opened file) to
// the scan's threads, deciding at each level what need not be read.
//
//   partition   static partition filters once, when the scan starts; dynamic filters
//               (partition_pruning.h) then, and again for every partition not yet opened
//               whenever another filter has been published since: a filter that arrives after
//               the scan started still prunes every split not yet opened. A dataset listed
//               lazily (DatasetOptions::lazy_listing) has the directories of the partitions
//               left after the pruning at the start listed then, and no others
//   file        opened only when its partition survives and `file_may_match` (split_pruning.h:
//               the file's statistics known without opening it) does not rule it out
//   row group   and page ranges: split_pruning.h, by the thread that took the split
//
// Files are opened outside the lock, so the footers of the files that survive are read by all
// of the scan's threads at once. Pruned files count as done in the query's progress.

#include <array>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "dynfilter/runtime_filter.h"
#include "storage/dataset.h"
#include "storage/partition_pruning.h"
#include "storage/scan_metrics.h"

namespace shears {

/// What the check of a file before opening it used and found (SplitPruning::FileMayMatch).
struct FileCheck {
  /// The cached footer the file's statistics came from (null: none, or the catalog's): the file
  /// is opened with it rather than looking it up in the footer cache again.
  std::shared_ptr<const parquet::ParquetFooter> footer;
  /// Every conjunct passed on that footer's statistics: the literal ones, and the runtime ones
  /// whose published filters are `runtime` (by slot; null: not checked, and so for slots past
  /// kRuntimeSlots: a fixed array spares an allocation per file).
  bool passed = false;
  static constexpr size_t kRuntimeSlots = 8;
  std::array<const RuntimeFilter*, kRuntimeSlots> runtime{};
  /// The published filter of slot `i` the check passed, or null.
  const RuntimeFilter* runtime_passed(size_t i) const {
    return i < kRuntimeSlots ? runtime[i] : nullptr;
  }
};

/// One row group of an opened file.
struct ScanSplit {
  size_t file_index = 0;
  std::shared_ptr<parquet::ParquetFile> file;
  int row_group = 0;
  uint64_t progress_bytes = 0;  // its share of the file's bytes in the progress estimate
  /// For the one row group of a file of one: the file's check before opening, when it passed
  /// on the statistics of the footer the file was opened with (its chunks' own statistics):
  /// split pruning need not test them again with the same filters.
  std::shared_ptr<const FileCheck> file_check;
};

/// Where the files of a scan spread over several processes come from (src/distributed): the
/// enumerator takes its next file from here instead of its own list, so a coordinator decides
/// which process reads which file.
class FileAssignment {
 public:
  virtual ~FileAssignment() = default;
  /// Once, before the partitions are listed, with this process's decision per partition
  /// (1: list it). File indexes are positions in the listing, so every process must list the
  /// same partitions, while each decided with the dynamic filters it had then: the coordinator
  /// tells the others its own decision, which they take instead.
  virtual void AgreeOnPartitions(std::vector<uint8_t>& keep) = 0;
  /// Once, when the scan starts, with this process's files left after static and dynamic
  /// pruning, positions in the listing every process shares.
  virtual void Start(const Dataset& dataset, const std::vector<size_t>& kept) = 0;
  /// This process's next file; false when none is left for it. Called under the enumerator's
  /// lock, so one call at a time.
  virtual bool Next(size_t& file_index) = 0;
};

class SplitEnumerator {
 public:
  using ProgressFn = std::function<void(uint64_t bytes)>;
  /// Whether a file may hold a row the scan keeps, decided before opening it (`check`: what
  /// the decision used); called outside the enumerator's lock, from any of the scan's threads.
  using FileFn = std::function<bool(size_t file_index, FileCheck& check)>;
  /// `partition_may_match`: the static decision per partition (PartitionsMayMatch).
  /// `pruner` (may be null) decides dynamically; it must outlive the enumerator.
  /// `file_may_match` (may be empty) is asked for each file whose partition survived.
  SplitEnumerator(std::shared_ptr<const Dataset> dataset,
                  const std::vector<uint8_t>& partition_may_match, PartitionPruner* pruner,
                  ScanMetrics& metrics, ProgressFn done, FileFn file_may_match = {},
                  std::unique_ptr<FileAssignment> assignment = nullptr);

  /// The next split; false when nothing is left. Thread-safe; waits while other threads open
  /// files whose row groups may still come.
  bool Next(ScanSplit& split);
  /// Notes that a row group of `file_index` is read (counts files_data_read once per file).
  void NoteDataRead(size_t file_index);
  /// Files left when the scan started (after the pruning possible then).
  size_t files_at_start() const { return files_at_start_; }
  /// The dataset whose files the splits' file_index refer to: the one given, or for a dataset
  /// listed lazily the files of the partitions left when the scan started
  /// (Dataset::ListPartitions).
  const std::shared_ptr<const Dataset>& dataset() const { return dataset_; }

  /// A file's weight in the progress estimate: its size (at least 1, so empty files count).
  static uint64_t ProgressBytes(const DatasetFile& file);
  /// The progress estimate's bytes of a whole dataset (estimated when its files are not
  /// listed); the enumerator counts what it prunes against it.
  static uint64_t PlannedBytes(const Dataset& dataset);

 private:
  enum : uint8_t { kKept, kPrunedStatic, kPrunedDynamic };
  /// Under the lock: whether `file_index`'s partition still may match, asking the pruner again
  /// when filters were published since it was decided.
  bool StillMayMatch(size_t file_index);
  ScanSplit SplitOf(size_t file_index, std::shared_ptr<parquet::ParquetFile> file, int rg) const;
  /// Under the lock: whether files may still be claimed, and claiming the next.
  bool FilesLeft() const;
  bool ClaimFile(size_t& file_index);

  std::shared_ptr<const Dataset> dataset_;
  PartitionPruner* pruner_;
  ScanMetrics& metrics_;
  ProgressFn done_;
  FileFn file_may_match_;
  std::mutex mutex_;
  std::condition_variable opened_;    // a file's row groups were queued, or an opening ended
  std::vector<size_t> files_;         // files kept when the scan started
  std::vector<uint8_t> decision_;     // per partition
  std::vector<size_t> decided_with_;  // per partition: the filters available when decided
  size_t next_file_ = 0;
  size_t files_opening_ = 0;       // files claimed whose footers are being read
  std::deque<ScanSplit> pending_;  // row groups of opened files, not yet handed out
  size_t files_at_start_ = 0;
  std::unique_ptr<std::atomic<uint8_t>[]> data_read_;  // per dataset file
  std::unique_ptr<FileAssignment> assignment_;         // null: files_ in order
  bool assignment_done_ = false;
};

}  // namespace shears

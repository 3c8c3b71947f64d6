#include "storage/split_enumerator.h"

#include <algorithm>

#include "common/clock.h"
#include "storage/parquet/parquet_file.h"

namespace shears {

uint64_t SplitEnumerator::ProgressBytes(const DatasetFile& file) {
  return std::max<uint64_t>(file.size, 1);
}

uint64_t SplitEnumerator::PlannedBytes(const Dataset& dataset) {
  if (!dataset.files_listed()) return dataset.estimated_bytes();
  uint64_t bytes = 0;
  for (const auto& file : dataset.files())
    bytes += ProgressBytes(file);
  return bytes;
}

SplitEnumerator::SplitEnumerator(std::shared_ptr<const Dataset> dataset,
                                 const std::vector<uint8_t>& partition_may_match,
                                 PartitionPruner* pruner, ScanMetrics& metrics, ProgressFn done,
                                 FileFn file_may_match, std::unique_ptr<FileAssignment> assignment)
    : pruner_(pruner),
      metrics_(metrics),
      done_(std::move(done)),
      file_may_match_(std::move(file_may_match)),
      assignment_(std::move(assignment)) {
  const size_t partitions = dataset->num_partitions();
  // Decisions are per partition (all its files share its values).
  decision_.resize(partitions);
  for (size_t p = 0; p < partitions; p++)
    decision_[p] = partition_may_match[p] ? kKept : kPrunedStatic;
  decided_with_.assign(partitions, 0);
  // The filters published when the scan starts (the executor runs their producers first)
  // decide every partition now, before any directory is listed; later ones are asked per
  // partition in Next.
  if (pruner_) {
    const auto started = clock::Now();
    const size_t available = pruner_->FiltersAvailable();
    for (size_t p = 0; p < partitions; p++) {
      if (decision_[p] != kKept) continue;
      decided_with_[p] = available;
      if (!pruner_->PartitionMayMatch(p)) decision_[p] = kPrunedDynamic;
    }
    metrics_.dynamic_pruning_nanos += clock::NanosSince(started);
  }
  // A dataset listed lazily lists the directories of the partitions left, and only those
  // (under a distributed assignment, those the coordinator kept).
  std::vector<uint8_t> keep(partitions);
  for (size_t p = 0; p < partitions; p++)
    keep[p] = decision_[p] == kKept;
  if (assignment_) assignment_->AgreeOnPartitions(keep);
  uint64_t directories = dataset->directories_read_at_open();
  const uint64_t planned_bytes = PlannedBytes(*dataset);
  dataset_ = Dataset::ListPartitions(std::move(dataset), keep, &directories);
  metrics_.directories_listed += directories;
  if (pruner_) pruner_->CountFiles(*dataset_);
  const Dataset& ds = *dataset_;
  data_read_ = std::make_unique<std::atomic<uint8_t>[]>(ds.files().size());
  uint64_t pruned_static = 0;
  for (size_t i = 0; i < ds.files().size(); i++) {
    const uint8_t decision = decision_[ds.partition_of(i)];
    if (decision == kKept) files_.push_back(i);
    pruned_static += decision == kPrunedStatic ? 1 : 0;
  }
  metrics_.files_total = ds.files().size();
  metrics_.files_pruned_static = pruned_static;
  metrics_.files_pruned_dynamic = ds.files().size() - files_.size() - pruned_static;
  files_at_start_ = files_.size();
  if (assignment_) assignment_->Start(ds, files_);
  uint64_t kept_bytes = 0;
  for (size_t file_index : files_)
    kept_bytes += ProgressBytes(ds.files()[file_index]);
  done_(planned_bytes > kept_bytes ? planned_bytes - kept_bytes : 0);
  if (ds.num_partition_columns() > 0) {
    metrics_.partitions_total = partitions;
    metrics_.partitions_pruned_static =
        static_cast<uint64_t>(std::count(decision_.begin(), decision_.end(), kPrunedStatic));
    metrics_.partitions_pruned_dynamic =
        static_cast<uint64_t>(std::count(decision_.begin(), decision_.end(), kPrunedDynamic));
  }
}

void SplitEnumerator::NoteDataRead(size_t file_index) {
  if (data_read_[file_index].exchange(1, std::memory_order_relaxed) == 0)
    metrics_.files_data_read++;
}

bool SplitEnumerator::StillMayMatch(size_t file_index) {
  if (!pruner_) return true;
  const uint32_t p = dataset_->partition_of(file_index);
  if (decision_[p] == kKept) {
    const size_t available = pruner_->FiltersAvailable();
    // Timed only when there is something to decide: most files find nothing new.
    if (decided_with_[p] < available) {
      const auto started = clock::Now();
      decided_with_[p] = available;
      if (!pruner_->PartitionMayMatch(p)) {
        decision_[p] = kPrunedDynamic;
        if (dataset_->num_partition_columns() > 0) {
          metrics_.partitions_pruned_dynamic++;
          metrics_.partitions_pruned_late++;
        }
      }
      metrics_.dynamic_pruning_nanos += clock::NanosSince(started);
    }
  }
  if (decision_[p] == kKept) return true;
  metrics_.files_pruned_dynamic++;
  done_(ProgressBytes(dataset_->files()[file_index]));
  return false;
}

ScanSplit SplitEnumerator::SplitOf(size_t file_index, std::shared_ptr<parquet::ParquetFile> file,
                                   int rg) const {
  // The file's bytes split evenly over its row groups, summing exactly to its size.
  const uint64_t file_bytes = ProgressBytes(dataset_->files()[file_index]);
  const uint64_t row_groups = static_cast<uint64_t>(file->num_row_groups());
  const uint64_t index = static_cast<uint64_t>(rg);
  ScanSplit split;
  split.file_index = file_index;
  split.file = std::move(file);
  split.row_group = rg;
  split.progress_bytes = file_bytes * (index + 1) / row_groups - file_bytes * index / row_groups;
  return split;
}

bool SplitEnumerator::FilesLeft() const {
  return assignment_ ? !assignment_done_ : next_file_ < files_.size();
}

bool SplitEnumerator::ClaimFile(size_t& file_index) {
  if (!assignment_) {
    if (next_file_ >= files_.size()) return false;
    file_index = files_[next_file_++];
    return true;
  }
  if (assignment_done_) return false;
  try {
    if (assignment_->Next(file_index)) return true;
  } catch (...) {
    assignment_done_ = true;
    throw;
  }
  assignment_done_ = true;
  return false;
}

bool SplitEnumerator::Next(ScanSplit& split) {
  while (true) {
    size_t file_index;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      // Wait while others open files: their row groups may still come.
      opened_.wait(lock, [&] { return !pending_.empty() || FilesLeft() || files_opening_ == 0; });
      if (!pending_.empty()) {
        split = std::move(pending_.front());
        pending_.pop_front();
        return true;
      }
      if (!ClaimFile(file_index)) return false;
      if (!StillMayMatch(file_index)) continue;
      files_opening_++;
    }
    std::shared_ptr<parquet::ParquetFile> file;
    auto check = std::make_shared<FileCheck>();
    try {
      if (file_may_match_ && !file_may_match_(file_index, *check)) {
        metrics_.files_skipped_unopened++;
        done_(ProgressBytes(dataset_->files()[file_index]));
        std::lock_guard<std::mutex> lock(mutex_);
        files_opening_--;
        opened_.notify_all();
        continue;
      }
      file = dataset_->OpenFile(file_index, check->footer);
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      files_opening_--;
      next_file_ = files_.size();  // the query fails: open no more
      assignment_done_ = true;
      opened_.notify_all();
      throw;
    }
    metrics_.files_read++;
    if (file->footer_reused()) metrics_.footers_cached++;
    const int row_groups = file->num_row_groups();
    metrics_.row_groups_total += static_cast<uint64_t>(row_groups);
    if (row_groups == 0) done_(ProgressBytes(dataset_->files()[file_index]));
    std::lock_guard<std::mutex> lock(mutex_);
    files_opening_--;
    for (int rg = 1; rg < row_groups; rg++)
      pending_.push_back(SplitOf(file_index, file, rg));
    opened_.notify_all();
    if (row_groups > 0) {
      const bool same_statistics =
          row_groups == 1 && check->passed && check->footer == file->footer();
      split = SplitOf(file_index, std::move(file), 0);
      if (same_statistics) split.file_check = std::move(check);
      return true;
    }
  }
}

}  // namespace shears

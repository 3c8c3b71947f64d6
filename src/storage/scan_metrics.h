#pragma once
// Counters of one table scan, summed over its threads, for EXPLAIN ANALYZE (JSON names in
// docs/metrics.md). The split enumerator and split pruning count what they decide; the scan
// operator counts rows.

#include <atomic>
#include <cstdint>
#include <memory>

namespace shears {

/// What one dynamic partition filter did in one scan.
struct DynamicFilterScanCounters {
  enum State : uint8_t { kNotReady, kReadyAtStart, kReadyLate };
  std::atomic<uint8_t> state{kNotReady};
  std::atomic<uint64_t> keys{0};
  std::atomic<uint64_t> partitions_pruned{0};  // the partitions this filter ruled out first
  std::atomic<uint64_t> files_pruned{0};       // and their files
};

struct ScanMetrics {
  // Directories read with readdir to list the scan's files (0 when the process's listing
  // cache answered): opening the dataset's, then the partitions' that survived pruning.
  std::atomic<uint64_t> directories_listed{0};
  std::atomic<uint64_t> files_total{0};
  std::atomic<uint64_t> files_pruned_static{0};
  std::atomic<uint64_t> files_read{0};
  std::atomic<uint64_t> footers_cached{0};  // files_read whose footer was not read again
  // Files whose partition survived but whose statistics, known without opening them (the
  // catalog's, the footer cache's), ruled out every row: never opened.
  std::atomic<uint64_t> files_skipped_unopened{0};
  std::atomic<uint64_t> partitions_total{0};
  std::atomic<uint64_t> partitions_pruned_static{0};
  std::atomic<uint64_t> partitions_pruned_dynamic{0};
  std::atomic<uint64_t> files_pruned_dynamic{0};
  std::atomic<uint64_t> dynamic_filters_ready{0};
  std::atomic<uint64_t> dynamic_filters_not_ready{0};
  // Of the filters not ready when the scan started, those published while it ran: they pruned
  // the partitions not yet opened.
  std::atomic<uint64_t> dynamic_filters_ready_late{0};
  std::atomic<uint64_t> partitions_pruned_late{0};
  std::atomic<uint64_t> dynamic_filter_keys{0};
  std::atomic<uint64_t> dynamic_pruning_nanos{0};
  std::atomic<uint64_t> row_groups_total{0};
  std::atomic<uint64_t> row_groups_pruned{0};
  std::atomic<uint64_t> row_groups_read{0};
  std::atomic<uint64_t> rows_scanned{0};
  std::atomic<uint64_t> rows_filtered{0};
  std::atomic<uint64_t> bytes_read{0};
  std::atomic<uint64_t> row_groups_pruned_runtime{0};
  std::atomic<uint64_t> runtime_filter_rows_dropped{0};
  std::atomic<uint64_t> row_groups_pruned_dictionary{0};
  // Dictionary pages a pruning check decoded that the row group's reader took, not decoding
  // them again.
  std::atomic<uint64_t> dictionaries_reused{0};
  std::atomic<uint64_t> pages_read{0};
  std::atomic<uint64_t> pages_skipped{0};
  std::atomic<uint64_t> pages_skipped_runtime{0};
  std::atomic<uint64_t> page_indexes_invalid{0};
  // Files from which some row group was read; the other files read had only their footer read
  // (every row group pruned).
  std::atomic<uint64_t> files_data_read{0};
  // One per dynamic partition filter of the scan, in its order.
  std::unique_ptr<DynamicFilterScanCounters[]> dynamic_filters;
};

}  // namespace shears

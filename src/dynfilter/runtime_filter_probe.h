#pragma once
// Applying published runtime filters to the rows a scan thread read, adaptively: a filter is
// tested on windows of rows; one that dropped less than min_drop_ratio of a window is paused
// (its rows pass untested, which costs nothing) for pause_rows rows, then re-checked on a
// sample of one batch: when the sample drops enough the filter is resumed (tested on every row
// again), else it is paused again. Clustered data changes selectivity from file to file, so a
// paused filter is never given up. Pauses, re-checks and resumes are counted per filter. A key
// computed from its column (`k * 2 = d.key`) is computed for the rows still alive, then probed.

#include <vector>

#include "common/vector.h"
#include "dynfilter/dynamic_filter.h"
#include "dynfilter/runtime_filter.h"

namespace shears {

/// One scan thread's view of one runtime filter.
struct RuntimeFilterProbe {
  const RuntimeFilter* filter = nullptr;  // once published by its join
  uint64_t window_tested = 0;
  uint64_t window_dropped = 0;
  uint64_t paused_rows_left = 0;
  bool sampling = false;  // the pause ended: the next batch tested decides
};

/// When a filter is paused (settings runtime_filter.min_drop_ratio and .pause_rows).
struct RuntimeFilterAdaptivity {
  uint64_t window_rows = 8 * kBatchSize;      // rows tested before deciding
  double min_drop_ratio = 0.1;                // a window dropping less pauses the filter; 0: never
  uint64_t pause_rows = 16 * 8 * kBatchSize;  // rows passed untested before the re-check
};

/// One scan thread's runtime filters, with the scratch their probes use.
class RuntimeFilterProbes {
 public:
  /// `targets[i]` keyed by the batch columns `key_columns[i]`.
  RuntimeFilterProbes(const std::vector<RuntimeFilterTarget>& targets,
                      const std::vector<std::vector<idx_t>>& key_columns,
                      RuntimeFilterAdaptivity adaptivity = {});

  /// Looks up the filters not published yet (published filters never change); returns them,
  /// null where still missing.
  const std::vector<const RuntimeFilter*>& Refresh(DynamicFilterRegistry& registry);
  /// Drops the rows of `batch` no published filter lets through, compacting it; returns the
  /// rows left. `alive` (optional) maps the rows to the original ones and is kept in step.
  /// Adds the rows dropped to `*rows_dropped`.
  idx_t Apply(Batch& batch, std::vector<uint32_t>* alive, uint64_t* rows_dropped);
  /// The same with filter `i` alone (a scan orders its conjuncts, runtime ones among them).
  idx_t ApplyOne(size_t i, Batch& batch, std::vector<uint32_t>* alive, uint64_t* rows_dropped);
  size_t size() const { return probes_.size(); }
  /// Whether Apply would test any row of the next batch: false while every published filter
  /// is paused or leaves rows to the join (the scan then reads the batch as if unfiltered, and
  /// Apply only counts the rows passed).
  bool TestsNextBatch() const;
  /// Whether a row may ever be tested: false when every filter is published and left to its
  /// join (RuntimeFilter::applies_to_rows), so Apply would do nothing at all.
  bool MayTestRows() const;

 private:
  void Pause(RuntimeFilterProbe& probe) const;
  /// Keeps rows sel[0..count) of `batch` (and of `alive`).
  static void Compact(Batch& batch, const uint32_t* sel, idx_t count, std::vector<uint32_t>* alive);

  const std::vector<RuntimeFilterTarget>& targets_;
  const std::vector<std::vector<idx_t>>& key_columns_;
  const RuntimeFilterAdaptivity adaptivity_;
  std::vector<RuntimeFilterProbe> probes_;
  std::vector<const RuntimeFilter*> published_;
  std::vector<uint32_t> sel_[2];
  std::vector<uint64_t> hashes_;
  std::vector<const Vector*> keys_;
  // A key computed from its column (RuntimeFilterTarget::key_expr): the column, and its keys.
  Batch key_input_;
  Vector computed_;
};

}  // namespace shears

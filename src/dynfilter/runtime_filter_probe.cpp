#include "dynfilter/runtime_filter_probe.h"

#include "common/clock.h"

#include <algorithm>

namespace shears {

namespace {

constexpr uint64_t kAdaptiveWindow = 8 * kBatchSize;
constexpr double kMinDropFraction = 0.1;
constexpr uint64_t kPauseWindows = 16;

}  // namespace

RuntimeFilterProbes::RuntimeFilterProbes(const std::vector<RuntimeFilterTarget>& targets,
                                         const std::vector<std::vector<idx_t>>& key_columns)
    : targets_(targets),
      key_columns_(key_columns),
      probes_(targets.size()),
      published_(targets.size(), nullptr) {
  for (auto& sel : sel_)
    sel.resize(kBatchSize);
}

const std::vector<const RuntimeFilter*>& RuntimeFilterProbes::Refresh(
    DynamicFilterRegistry& registry) {
  for (size_t i = 0; i < probes_.size(); i++) {
    if (!published_[i])
      published_[i] = probes_[i].filter = registry.FindRuntime(targets_[i].filter_id);
  }
  return published_;
}

idx_t RuntimeFilterProbes::Apply(Batch& batch, std::vector<uint32_t>* alive,
                                 uint64_t* rows_dropped) {
  const idx_t rows = batch.size();
  idx_t count = rows;
  const uint32_t* sel = nullptr;  // null: all rows
  int buffer = 0;
  for (size_t i = 0; i < probes_.size() && count > 0; i++) {
    auto& probe = probes_[i];
    const RuntimeFilter* filter = probe.filter;
    if (!filter || !filter->applies_to_rows()) continue;
    auto& counters = filter->counters();
    if (probe.paused_rows_left > 0) {
      probe.paused_rows_left -= std::min<uint64_t>(probe.paused_rows_left, count);
      counters.rows_passed_paused += count;
      probe.sampling = probe.paused_rows_left == 0;
      continue;
    }
    const auto started = clock::Now();
    keys_.clear();
    for (idx_t position : key_columns_[i])
      keys_.push_back(&batch.column(position));
    uint32_t* out = sel_[buffer].data();
    const idx_t kept = filter->Probe(keys_, count, sel, out, hashes_);
    counters.probe_nanos += clock::NanosSince(started);
    counters.rows_tested += count;
    counters.rows_dropped += count - kept;
    *rows_dropped += count - kept;
    if (probe.sampling) {
      // The re-check of a paused filter: this one batch decides.
      probe.sampling = false;
      counters.rechecks++;
      if (static_cast<double>(count - kept) >= kMinDropFraction * static_cast<double>(count)) {
        counters.resumes++;
        probe.window_tested = probe.window_dropped = 0;
      } else {
        probe.paused_rows_left = kPauseWindows * kAdaptiveWindow;
        counters.pauses++;
      }
    } else {
      probe.window_tested += count;
      probe.window_dropped += count - kept;
    }
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

}  // namespace shears

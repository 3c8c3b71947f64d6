#include "dynfilter/runtime_filter_probe.h"

#include "common/clock.h"
#include "common/error.h"
#include "expression/expression_executor.h"

#include <algorithm>

namespace shears {

RuntimeFilterProbes::RuntimeFilterProbes(const std::vector<RuntimeFilterTarget>& targets,
                                         const std::vector<std::vector<idx_t>>& key_columns,
                                         RuntimeFilterAdaptivity adaptivity)
    : targets_(targets),
      key_columns_(key_columns),
      adaptivity_(adaptivity),
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

bool RuntimeFilterProbes::TestsNextBatch() const {
  for (const auto& probe : probes_) {
    if (probe.filter && probe.filter->applies_to_rows() && probe.paused_rows_left == 0) return true;
  }
  return false;
}

bool RuntimeFilterProbes::MayTestRows() const {
  for (const auto& probe : probes_) {
    if (!probe.filter || probe.filter->applies_to_rows()) return true;
  }
  return false;
}

idx_t RuntimeFilterProbes::Apply(Batch& batch, std::vector<uint32_t>* alive,
                                 uint64_t* rows_dropped) {
  idx_t count = batch.size();
  for (size_t i = 0; i < probes_.size() && count > 0; i++)
    count = ApplyOne(i, batch, alive, rows_dropped);
  return count;
}

idx_t RuntimeFilterProbes::ApplyOne(size_t i, Batch& batch, std::vector<uint32_t>* alive,
                                    uint64_t* rows_dropped) {
  const idx_t count = batch.size();
  auto& probe = probes_[i];
  const RuntimeFilter* filter = probe.filter;
  if (count == 0 || !filter || !filter->applies_to_rows()) return count;
  auto& counters = filter->counters();
  if (probe.paused_rows_left > 0) {
    probe.paused_rows_left -= std::min<uint64_t>(probe.paused_rows_left, count);
    counters.rows_passed_paused += count;
    probe.sampling = probe.paused_rows_left == 0;
    return count;
  }
  const auto started = clock::Now();
  keys_.clear();
  if (const BoundExpr* key_expr = targets_[i].key_expr.get()) {
    // Computed for the rows still alive only (the batch holds only those).
    if (key_input_.column_count() == 0) key_input_ = Batch({key_expr->type}, 0);
    key_input_.columns()[0].Reference(batch.column(key_columns_[i][0]));
    key_input_.SetSize(count);
    if (!computed_.type().valid()) computed_ = Vector(key_expr->type);
    computed_.Reset();
    try {
      ExpressionExecutor::Execute(*key_expr, key_input_, computed_);
    } catch (const Error&) {
      // A row the query would fail on, if it reaches the join: let the join see it.
      return count;
    }
    keys_.push_back(&computed_);
  } else {
    for (idx_t position : key_columns_[i])
      keys_.push_back(&batch.column(position));
  }
  uint32_t* out = sel_[0].data();
  const idx_t kept = filter->Probe(keys_, count, nullptr, out, hashes_);
  counters.probe_nanos += clock::NanosSince(started);
  counters.rows_tested += count;
  counters.rows_dropped += count - kept;
  *rows_dropped += count - kept;
  if (probe.sampling) {
    // The re-check of a paused filter: this one batch decides.
    probe.sampling = false;
    counters.rechecks++;
    if (static_cast<double>(count - kept) >=
        adaptivity_.min_drop_ratio * static_cast<double>(count)) {
      counters.resumes++;
      probe.window_tested = probe.window_dropped = 0;
    } else {
      Pause(probe);
    }
  } else {
    probe.window_tested += count;
    probe.window_dropped += count - kept;
  }
  if (probe.window_tested >= adaptivity_.window_rows) {
    if (static_cast<double>(probe.window_dropped) <
        adaptivity_.min_drop_ratio * static_cast<double>(probe.window_tested)) {
      Pause(probe);
    }
    probe.window_tested = probe.window_dropped = 0;
  }
  if (kept < count) Compact(batch, out, kept, alive);
  return kept;
}

void RuntimeFilterProbes::Pause(RuntimeFilterProbe& probe) const {
  probe.filter->counters().pauses++;
  probe.paused_rows_left = adaptivity_.pause_rows;
  // No rows to pass untested: the next batch is the re-check.
  probe.sampling = adaptivity_.pause_rows == 0;
}

void RuntimeFilterProbes::Compact(Batch& batch, const uint32_t* sel, idx_t count,
                                  std::vector<uint32_t>* alive) {
  if (alive) {
    for (idx_t k = 0; k < count; k++)
      (*alive)[k] = (*alive)[sel[k]];
    alive->resize(count);
  }
  batch.Select(sel, count);
}

}  // namespace shears

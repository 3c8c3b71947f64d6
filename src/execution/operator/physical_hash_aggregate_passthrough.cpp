// Adaptive partial aggregation of PhysicalHashAggregate: a partial aggregate whose rows do not
// reduce passes them through as one-row groups (see the header's comment).

#include "execution/operator/physical_hash_aggregate.h"
#include "execution/operator/physical_hash_aggregate_state.h"

#include <algorithm>

#include "common/error.h"

namespace shears {

void PhysicalHashAggregate::AllowPassThrough() {
  reaggregated_above_ = true;
  pass_through_ = !groups_.empty() && distinct_layouts_.empty() && !rollup_ &&
                  empty_input_groups_.empty() && !UsesDenseGroups();
}

void PhysicalHashAggregate::DecidePassThrough(HashAggregateGlobalState& global,
                                              HashAggregateLocalState& local, idx_t n) const {
  if (local.rows_seen < kPassThroughSample) {
    local.rows_seen += n;
    return;
  }
  // The batch that crosses the sample is aggregated; the decision holds from the next one.
  local.decided = true;
  // Groups a spill wrote out count too (a key spilled and seen again counts twice).
  const idx_t groups = local.table->group_count() + local.groups_spilled;
  global.sampled_threads.fetch_add(1, std::memory_order_relaxed);
  global.sample_rows.fetch_add(local.rows_seen, std::memory_order_relaxed);
  global.sample_groups.fetch_add(groups, std::memory_order_relaxed);
  if (static_cast<double>(groups) > kPassThroughRatio * static_cast<double>(local.rows_seen)) {
    local.passing = true;
    global.passing_threads.fetch_add(1, std::memory_order_relaxed);
  }
}

void PhysicalHashAggregate::PassRows(const std::vector<const Vector*>& keys, idx_t n,
                                     HashAggregateLocalState& local) const {
  if (!local.passed) {
    local.passed =
        std::make_unique<RowCollection>(layout_.row_width, local.table->partition(0).rows.memory());
  }
  // Rows come zeroed: empty states, which the aggregates' update then fills with one row each.
  local.passed->AppendRows(n, local.rows.data());
  StringArena* arena = layout_.has_strings ? &local.passed->arena() : nullptr;
  for (idx_t g = 0; g < keys.size(); g++)
    ScatterColumn(layout_, g, *keys[g], nullptr, n, local.rows.data(), arena);
}

void PhysicalHashAggregate::FoldPassed(RowCollection& passed, GroupedHashTable& table,
                                       GroupScratch& scratch) const {
  if (passed.row_count() == 0) return;
  const idx_t key_count = groups_.size();
  std::vector<Vector> keys;
  std::vector<const Vector*> key_pointers;
  for (idx_t g = 0; g < key_count; g++)
    keys.emplace_back(layout_.types[g], kBatchSize);
  for (const auto& key : keys)
    key_pointers.push_back(&key);
  std::vector<uint8_t*> src(kBatchSize), dst(kBatchSize);
  std::vector<uint64_t> hashes(kBatchSize);
  // New string states of the table's groups go to its (shared or first partition's) arena.
  StringArena& arena = table.partition(0).rows.arena();
  for (const auto& block : passed.blocks()) {
    const idx_t n = block.count;
    for (idx_t i = 0; i < n; i++)
      src[i] = block.data + i * layout_.row_width;
    for (idx_t g = 0; g < key_count; g++) {
      keys[g].Reset();
      GatherColumn(layout_, g, src.data(), n, keys[g]);
      HashVector(keys[g], n, hashes.data(), g > 0);
    }
    // Groups found or created now start from their empty state: combining adds the row's.
    table.FindOrCreate(key_pointers, hashes.data(), nullptr, n, dst.data(), scratch);
    CombineStates(src.data(), dst.data(), n, arena);
  }
  passed = RowCollection(layout_.row_width, passed.memory());
}

std::string PhysicalHashAggregate::PassThroughDetails(const HashAggregateGlobalState& global) {
  const idx_t sampled = global.sampled_threads.load();
  if (sampled == 0) {
    return fmt::format("aggregated every row: no thread reached the sample of {} rows",
                       kPassThroughSample);
  }
  const double ratio = static_cast<double>(global.sample_groups.load()) /
                       static_cast<double>(std::max<idx_t>(1, global.sample_rows.load()));
  return fmt::format(
      "{} of {} threads passed rows through unaggregated ({} rows), at {:.2f} groups per row "
      "after their first {} rows (passing above {:.2f})",
      global.passing_threads.load(), sampled, global.passed_rows.load(), ratio, kPassThroughSample,
      kPassThroughRatio);
}

}  // namespace shears

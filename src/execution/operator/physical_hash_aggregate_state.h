#pragma once
// The global sink state of HASH_GROUP_BY, shared by physical_hash_aggregate.cpp and the
// folding of GROUPING SETS (physical_hash_aggregate_rollup.cpp).

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "execution/aggregate_hash_table.h"
#include "execution/operator/physical_hash_aggregate.h"
#include "execution/query_context.h"
#include "execution/spill.h"

namespace shears {

/// One spill file of an aggregate: per table (the groups', then each DISTINCT aggregate's)
/// and spill partition, where its rows are.
struct AggregateSpillRun {
  std::unique_ptr<SpillFile> file;
  std::vector<SpillSegments> segments;  // [table * kSpillPartitions + partition]
};

struct HashAggregateGlobalState : GlobalSinkState {
  HashAggregateGlobalState(const PhysicalHashAggregate& op, MemoryTracker* memory)
      : memory(memory), single(op.layout_.row_width, memory) {
    if (!op.groups_.empty()) {
      table = std::make_unique<GroupedHashTable>(op.layout_, op.groups_.size(), memory, false);
    } else {
      single_row = single.AppendRow();
    }
    for (const auto& layout : op.distinct_layouts_) {
      distinct.push_back(
          std::make_unique<GroupedHashTable>(layout, layout.types.size(), memory, false));
    }
    if (op.UsesDenseGroups()) dense_arena = std::make_shared<StringArena>(memory);
  }
  ~HashAggregateGlobalState() override {
    if (result_bytes > 0) memory->Release(result_bytes);
  }

  MemoryTracker* memory;
  std::unique_ptr<GroupedHashTable> table;  // with groups
  RowCollection single;                     // without groups: one row
  uint8_t* single_row = nullptr;
  std::vector<std::unique_ptr<GroupedHashTable>> distinct;
  std::mutex partition_locks[GroupedHashTable::kPartitions];
  std::mutex single_lock;
  std::atomic<idx_t> combines{0};
  // With UsesDenseGroups: the first thread's array (its range then fixed), the arena new
  // strings of its merged states go to, and the threads' arenas its rows point into.
  std::mutex dense_lock;
  std::unique_ptr<DenseGroupArray> dense;
  std::shared_ptr<StringArena> dense_arena;
  std::vector<std::shared_ptr<StringArena>> dense_arenas;

  // Spilling: once `spilling` is set every thread's tables go to spill files (runs); after
  // Finalize `spilled` says the source reads the partitions back.
  std::atomic<bool> spilling{false};
  bool spilled = false;
  std::mutex spill_lock;
  std::vector<AggregateSpillRun> spill_runs;
  SpillMetrics spill_metrics;
  std::atomic<idx_t> groups_out{0};

  // With a RollupPlan: the groups of the sets, folded from the finest groups of `table`;
  // `one_to_one` holds those of sets grouping by every finest key (one group per finest
  // group, no hashing). Their string keys point into the finest groups' arenas (in `arenas`)
  // or into `rollup_constants`.
  std::unique_ptr<GroupedHashTable> rolled;
  std::unique_ptr<RowCollection> one_to_one;
  std::vector<std::vector<std::unique_ptr<Vector>>> rollup_constants;
  idx_t finest_groups = 0;

  // After Finalize: every result row, and the arenas their strings live in.
  std::vector<uint8_t*> result_rows;
  int64_t result_bytes = 0;
  std::vector<std::shared_ptr<StringArena>> arenas;
};

}  // namespace shears

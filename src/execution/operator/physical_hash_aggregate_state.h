#pragma once
// The state of PhysicalHashAggregate, shared by its files: physical_hash_aggregate.cpp (sink,
// combine, finalize, emitting), physical_hash_aggregate_spill.cpp (out of core) and
// physical_hash_aggregate_rollup.cpp (GROUPING SETS folded from the finest groups).

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "execution/aggregate_hash_table.h"
#include "execution/operator/physical_hash_aggregate.h"
#include "execution/query_context.h"
#include "execution/spill.h"

namespace shears {

/// The hash of (group, value) for a DISTINCT table: its partition bits are the group's, so
/// the pairs of a group land in the partition of that group in the main table.
inline uint64_t DistinctHash(uint64_t group_hash, uint64_t value_hash) {
  const uint64_t mixed = MixHash(group_hash ^ (value_hash * 0x9E3779B97F4A7C15ULL));
  return (mixed & ~GroupedHashTable::kPartitionHashMask) |
         (group_hash & GroupedHashTable::kPartitionHashMask);
}

/// Memory a spill keeps the aggregate below: half of memory_limit, the rest for what the
/// other operators hold and for growing a table.
inline int64_t SpillThreshold(const MemoryTracker& memory) {
  return memory.limit() / 2;
}
/// A thread's DenseGroupArray takes at most an eighth of the limit.
inline uint64_t DenseBytes(const MemoryTracker& memory) {
  return static_cast<uint64_t>(std::max<int64_t>(0, memory.limit() / 8));
}
/// A thread's tables smaller than this are not worth a spill file (they leave room for
/// others'); small limits spill smaller tables.
inline int64_t MinSpillBytes(const MemoryTracker& memory) {
  return std::min<int64_t>(1 << 20, memory.limit() / 16);
}

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
  bool sets_spilled = false;  // with a RollupPlan: spill_runs hold the sets' groups (SetsShape)
  std::mutex spill_lock;
  std::vector<AggregateSpillRun> spill_runs;
  SpillMetrics spill_metrics;
  std::atomic<idx_t> repartitioned{0};  // spill partitions (or parts) split again
  std::atomic<idx_t> groups_out{0};

  // With a RollupPlan: the groups of the sets, folded from the finest groups of `table`;
  // `one_to_one` holds those of sets grouping by every finest key (one group per finest
  // group, no hashing). Their string keys point into the finest groups' arenas (in `arenas`)
  // or into `rollup_constants`.
  std::unique_ptr<GroupedHashTable> rolled;
  std::unique_ptr<RowCollection> one_to_one;
  std::vector<std::vector<std::unique_ptr<Vector>>> rollup_constants;
  idx_t finest_groups = 0;

  // Pass-through (AllowPassThrough): the threads' one-row groups, and for EXPLAIN ANALYZE
  // the threads that decided, those that passed rows through, and their sample.
  std::mutex passed_lock;
  std::vector<RowCollection> passed;
  std::atomic<idx_t> sampled_threads{0}, passing_threads{0};
  std::atomic<idx_t> sample_rows{0}, sample_groups{0}, passed_rows{0};

  // After Finalize: every result row, and the arenas their strings live in.
  std::vector<uint8_t*> result_rows;
  int64_t result_bytes = 0;
  std::vector<std::shared_ptr<StringArena>> arenas;
};

struct HashAggregateLocalState : LocalSinkState {
  HashAggregateLocalState(const PhysicalHashAggregate& op, MemoryTracker* memory)
      : single(op.layout_.row_width, memory) {
    if (!op.groups_.empty()) {
      table = std::make_unique<GroupedHashTable>(op.layout_, op.groups_.size(), memory, true);
    } else {
      single_row = single.AppendRow();
    }
    for (const auto& layout : op.distinct_layouts_) {
      distinct.push_back(
          std::make_unique<GroupedHashTable>(layout, layout.types.size(), memory, true));
    }
    for (const auto& g : op.key_exprs_)
      group_values.emplace_back(g->type);
    if (op.UsesDenseGroups()) {
      dense = std::make_unique<DenseGroupArray>(op.layout_, memory, DenseBytes(*memory));
      table->partition(0).rows.arena();  // made now: the array's strings live there too
    }
    for (idx_t a = 0; a < op.aggregates_.size(); a++) {
      const auto& agg = op.aggregate(a);
      auto& inputs = arg_values.emplace_back();
      inputs.emplace_back(agg.arg ? agg.arg->type : LogicalType::Integer());
      for (const auto& extra : agg.extra_args)
        inputs.emplace_back(extra->type);
    }
  }

  std::unique_ptr<GroupedHashTable> table;
  std::unique_ptr<DenseGroupArray> dense;  // in front of `table` for one integer key
  RowCollection single;
  uint8_t* single_row = nullptr;
  std::vector<std::unique_ptr<GroupedHashTable>> distinct;
  std::vector<Vector> group_values;
  std::vector<std::vector<Vector>> arg_values;  // per aggregate: its inputs, consecutive
  std::vector<uint64_t> hashes, value_hashes, distinct_hashes;
  std::vector<uint8_t*> rows, distinct_rows;
  std::vector<uint32_t> sel;
  Vector missed_keys{LogicalType::Bigint()};  // the keys the dense array missed, gathered
  GroupScratch scratch;
  // Pass-through: rows seen before deciding, whether it decided, whether rows pass through,
  // and the one-row groups they became (created on first use).
  idx_t rows_seen = 0;
  idx_t groups_spilled = 0;  // groups of the sample that a spill took out of the table
  bool decided = false;
  bool passing = false;
  std::unique_ptr<RowCollection> passed;
};

struct AggregateSourceState : GlobalSourceState {
  std::atomic<idx_t> next{0};  // the next row, or after a spill the next spill partition
  idx_t total = 0;
  idx_t MaxThreads() const override {
    return std::max<idx_t>(1, (total + kBatchSize - 1) / kBatchSize);
  }
};

/// Rows of a spill file: one segment of it.
struct SpillPiece {
  const SpillFile* file;
  std::pair<uint64_t, uint64_t> segment;
};

/// A spill partition to aggregate, or a part of one after repartitioning (level > 0): where
/// its rows are, per table (the groups', then each DISTINCT aggregate's pairs).
struct AggregateSpillWork {
  idx_t level = 0;
  std::vector<std::vector<SpillPiece>> pieces;
  std::shared_ptr<SpillFile> file;  // the repartitioned rows, shared by the parts
};

/// A thread's spill partition being emitted, and the parts of partitions it repartitioned
/// that it has still to aggregate.
struct AggregateSpilledPartition : LocalSourceState {
  std::unique_ptr<GroupedHashTable> table;
  std::vector<uint8_t*> rows;
  idx_t next = 0;
  std::vector<std::shared_ptr<StringArena>> arenas;
  std::vector<AggregateSpillWork> pending;
};

}  // namespace shears

// PhysicalHashAggregate out of core: writing a thread's tables to spill files, radix-
// partitioned, and aggregating the spilled partitions one at a time as the source. A
// partition whose table outgrows the memory left is split again by other hash bits, up to
// kMaxSpillLevels deep.

#include <algorithm>
#include <bit>
#include <cstring>

#include "execution/operator/physical_hash_aggregate.h"
#include "execution/operator/physical_hash_aggregate_state.h"
#include "execution/pipeline.h"

namespace shears {

namespace {

/// The spill partition at `level` of each of rows[0..n) into part[], of `fanout` (a power
/// of two): by the hash of the first `group_count` columns (a DISTINCT pair goes where its
/// group goes).
void SpillPartitionsOf(const RowLayout& layout, idx_t group_count, uint8_t* const* rows, idx_t n,
                       idx_t level, idx_t fanout, uint8_t* part) {
  std::vector<uint64_t> hashes(kBatchSize);
  std::vector<Vector> keys;
  for (idx_t g = 0; g < group_count; g++)
    keys.emplace_back(layout.types[g]);
  for (idx_t done = 0; done < n; done += kBatchSize) {
    const idx_t count = std::min<idx_t>(kBatchSize, n - done);
    for (idx_t g = 0; g < group_count; g++) {
      keys[g].Reset();
      GatherColumn(layout, g, rows + done, count, keys[g]);
      HashVector(keys[g], count, hashes.data(), g > 0);
    }
    for (idx_t i = 0; i < count; i++) {
      part[done + i] = static_cast<uint8_t>(
          PhysicalHashAggregate::SpillPartitionOf(hashes[i], level) & (fanout - 1));
    }
  }
}

/// Distributes rows over `fanout` spill partitions of one level, each partition's rows
/// buffered and written to `file` as a segment once the buffer holds kSegmentBytes: reads
/// then fetch segments of some size, whatever the memory a thread spills at a time.
class SpillPartitioner {
 public:
  static constexpr size_t kSegmentBytes = 64 << 10;

  SpillPartitioner(const RowLayout& layout, idx_t group_count, idx_t level, idx_t fanout,
                   SpillFile& file, const std::vector<SpilledState>* states)
      : layout_(layout),
        states_(states),
        group_count_(group_count),
        level_(level),
        fanout_(fanout),
        file_(file),
        buffers_(fanout),
        segments_(fanout) {}

  void Add(uint8_t* const* rows, idx_t n) {
    part_.resize(n);
    SpillPartitionsOf(layout_, group_count_, rows, n, level_, fanout_, part_.data());
    for (idx_t i = 0; i < n; i++) {
      AppendSpilledRow(layout_, rows[i], buffers_[part_[i]], states_);
      if (buffers_[part_[i]].size() >= kSegmentBytes) WriteOut(part_[i]);
    }
  }
  /// Writes what is buffered; the segments of each partition are then complete.
  const std::vector<SpillSegments>& Finish() {
    for (idx_t p = 0; p < buffers_.size(); p++)
      WriteOut(p);
    return segments_;
  }

 private:
  void WriteOut(idx_t p) {
    auto& buffer = buffers_[p];
    if (buffer.empty()) return;
    segments_[p].emplace_back(file_.size(), buffer.size());
    file_.Append(buffer.data(), buffer.size());
    buffer.clear();
  }

  const RowLayout& layout_;
  const std::vector<SpilledState>* states_;
  idx_t group_count_;
  idx_t level_;
  idx_t fanout_;
  SpillFile& file_;
  std::vector<std::vector<uint8_t>> buffers_;
  std::vector<SpillSegments> segments_;
  std::vector<uint8_t> part_;
};

}  // namespace

void PhysicalHashAggregate::SpillTables(
    ExecutionContext& context, HashAggregateGlobalState& global, GroupedHashTable* table,
    DenseGroupArray* dense, const std::vector<std::unique_ptr<GroupedHashTable>>& distinct) const {
  AggregateSpillRun run;
  run.file = std::make_unique<SpillFile>(context.query().spill());
  run.segments.resize((1 + distinct_layouts_.size()) * kSpillPartitions);
  std::vector<uint8_t*> rows;
  // A large table is written one table partition at a time (a partitioner each, segments of
  // up to 16 KiB all the same): one partitioner for a whole 27 MiB table made its writes
  // (pwrite) take several times the kernel time at memory_limit = 256MB (measured, not
  // understood). A small table goes through one partitioner, or its segments would be tiny
  // and reads would fetch whole checksum blocks for a few rows each.
  auto write_rows = [&](const RowLayout& layout, idx_t table_index, const auto& feed) {
    SpillPartitioner partitioner(layout, groups_.size(), 0, kSpillPartitions, *run.file,
                                 table_index == 0 ? &spill_states_ : nullptr);
    feed(partitioner);
    const auto& segments = partitioner.Finish();
    for (idx_t p = 0; p < kSpillPartitions; p++) {
      auto& into = run.segments[table_index * kSpillPartitions + p];
      into.insert(into.end(), segments[p].begin(), segments[p].end());
    }
    context.CheckCancelled();
  };
  auto write_table = [&](const RowLayout& layout, GroupedHashTable& source, idx_t table_index) {
    auto add_partition = [&](SpillPartitioner& partitioner, idx_t p) {
      for (const auto& block : source.partition(p).rows.blocks()) {
        rows.resize(block.count);
        for (uint32_t i = 0; i < block.count; i++)
          rows[i] = block.data + static_cast<size_t>(i) * layout.row_width;
        partitioner.Add(rows.data(), rows.size());
      }
    };
    // Past 4 MiB a table partition's share of a spill partition is 2 KiB on average.
    constexpr int64_t kLargeTable = int64_t{4} << 20;
    if (source.MemoryBytes() < kLargeTable) {
      write_rows(layout, table_index, [&](SpillPartitioner& partitioner) {
        for (idx_t p = 0; p < GroupedHashTable::kPartitions; p++)
          add_partition(partitioner, p);
      });
      return;
    }
    for (idx_t p = 0; p < GroupedHashTable::kPartitions; p++) {
      write_rows(layout, table_index,
                 [&](SpillPartitioner& partitioner) { add_partition(partitioner, p); });
    }
  };
  if (table) write_table(layout_, *table, 0);
  if (dense) {
    write_rows(layout_, 0, [&](SpillPartitioner& partitioner) {
      dense->ForEachBatch([&](uint8_t* const* batch, idx_t n) { partitioner.Add(batch, n); });
    });
  }
  for (idx_t d = 0; d < distinct.size(); d++)
    write_table(distinct_layouts_[d], *distinct[d], 1 + d);
  run.file->Flush();
  global.spill_metrics.bytes_written.fetch_add(run.file->size(), std::memory_order_relaxed);
  global.spill_metrics.files.fetch_add(1, std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(global.spill_lock);
  global.spill_runs.push_back(std::move(run));
}

void PhysicalHashAggregate::SpillLocal(ExecutionContext& context, HashAggregateGlobalState& global,
                                       HashAggregateLocalState& local) const {
  global.spilling.store(true);
  SpillTables(context, global, local.table.get(), local.dense.get(), local.distinct);
  MemoryTracker* memory = &context.query().memory();
  local.table.reset();
  local.table = std::make_unique<GroupedHashTable>(layout_, groups_.size(), memory, true);
  if (local.dense) {
    local.dense.reset();
    local.dense = std::make_unique<DenseGroupArray>(layout_, memory, DenseBytes(*memory));
    local.table->partition(0).rows.arena();
  }
  for (idx_t d = 0; d < local.distinct.size(); d++) {
    local.distinct[d].reset();
    local.distinct[d] = std::make_unique<GroupedHashTable>(
        distinct_layouts_[d], distinct_layouts_[d].types.size(), memory, true);
  }
}

PhysicalHashAggregate::SpillShape PhysicalHashAggregate::SpilledShape(
    const HashAggregateGlobalState& global) const {
  return global.sets_spilled ? SetsShape() : FinestShape();
}

bool PhysicalHashAggregate::LoadSpillWork(ExecutionContext& context, const SpillShape& shape,
                                          const AggregateSpillWork& work,
                                          AggregateSpilledPartition& out) const {
  MemoryTracker& memory = context.query().memory();
  // Past the spill threshold with a table worth writing, the part is split again (unless it
  // is as deep as partitions go: then it has to fit).
  bool too_big = false;
  auto outgrown = [&](int64_t bytes) {
    return work.level + 1 < kMaxSpillLevels && memory.used() > SpillThreshold(memory) &&
           bytes >= MinSpillBytes(memory);
  };
  const RowLayout& group_layout = *shape.layout;
  const idx_t group_count = shape.key_count;
  out.rows.clear();
  out.arenas.clear();
  out.next = 0;
  out.table.reset();
  out.table = std::make_unique<GroupedHashTable>(group_layout, group_count, &memory, true);
  GroupedHashTable& table = *out.table;
  StringArena& arena = table.partition(0).rows.arena();
  GroupScratch scratch;
  std::vector<uint64_t> hashes(kBatchSize);
  std::vector<uint8_t*> dst(kBatchSize);
  std::vector<Vector> keys;
  std::vector<const Vector*> key_pointers;
  for (idx_t g = 0; g < group_count; g++)
    keys.emplace_back(group_layout.types[g]);
  for (auto& key : keys)
    key_pointers.push_back(&key);
  for (const auto& piece : work.pieces[0]) {
    ReadSpilledRows(
        group_layout, *piece.file, piece.segment, memory,
        [&](uint8_t* const* rows, idx_t n) {
          if (too_big) return;
          for (idx_t g = 0; g < group_count; g++) {
            keys[g].Reset();
            GatherColumn(group_layout, g, rows, n, keys[g]);
            HashVector(keys[g], n, hashes.data(), g > 0);
          }
          table.FindOrCreate(key_pointers, hashes.data(), nullptr, n, dst.data(), scratch);
          CombineStates(rows, dst.data(), n, arena, shape.state_offsets);
          too_big = outgrown(table.MemoryBytes() + arena.bytes());
        },
        shape.states);
    context.CheckCancelled();
    if (too_big) return false;
  }
  std::vector<uint64_t> value_hashes(kBatchSize);
  for (idx_t d = 0; d < distinct_layouts_.size(); d++) {
    const RowLayout& layout = distinct_layouts_[d];
    GroupedHashTable pairs(layout, layout.types.size(), &memory, true);
    std::vector<Vector> values;
    std::vector<const Vector*> value_pointers;
    for (const auto& type : layout.types)
      values.emplace_back(type);
    for (auto& value : values)
      value_pointers.push_back(&value);
    for (const auto& piece : work.pieces[1 + d]) {
      ReadSpilledRows(
          layout, *piece.file, piece.segment, memory, [&](uint8_t* const* rows, idx_t n) {
            if (too_big) return;
            for (idx_t c = 0; c < layout.types.size(); c++) {
              values[c].Reset();
              GatherColumn(layout, c, rows, n, values[c]);
              if (c < group_count) HashVector(values[c], n, hashes.data(), c > 0);
            }
            HashVector(values[group_count], n, value_hashes.data(), false);
            for (idx_t i = 0; i < n; i++)
              hashes[i] = DistinctHash(hashes[i], value_hashes[i]);
            pairs.FindOrCreate(value_pointers, hashes.data(), nullptr, n, dst.data(), scratch);
            too_big = outgrown(table.MemoryBytes() + arena.bytes() + pairs.MemoryBytes());
          });
      context.CheckCancelled();
      if (too_big) return false;
    }
    FeedDistinct(context, d, pairs, &table, nullptr, nullptr);
  }
  out.rows.reserve(table.group_count());
  for (idx_t q = 0; q < GroupedHashTable::kPartitions; q++) {
    const RowCollection& rows = table.partition(q).rows;
    for (const auto& block : rows.blocks()) {
      for (uint32_t i = 0; i < block.count; i++)
        out.rows.push_back(block.data + static_cast<size_t>(i) * group_layout.row_width);
    }
    for (const auto& a : rows.arenas()) {
      if (std::find(out.arenas.begin(), out.arenas.end(), a) == out.arenas.end())
        out.arenas.push_back(a);
    }
  }
  return true;
}

AggregateSpillWork PhysicalHashAggregate::SpilledPartition(const HashAggregateGlobalState& global,
                                                           idx_t p) const {
  AggregateSpillWork work;
  work.pieces.resize(1 + distinct_layouts_.size());
  // Spill files are only appended to before Finalize: no lock needed to read the list now.
  for (const auto& run : global.spill_runs) {
    for (idx_t t = 0; t < work.pieces.size(); t++) {
      for (const auto& segment : run.segments[t * kSpillPartitions + p])
        work.pieces[t].push_back({run.file.get(), segment});
    }
  }
  return work;
}

void PhysicalHashAggregate::RepartitionSpillWork(ExecutionContext& context,
                                                 HashAggregateGlobalState& global,
                                                 const SpillShape& shape,
                                                 const AggregateSpillWork& work,
                                                 AggregateSpilledPartition& out) const {
  MemoryTracker& memory = context.query().memory();
  // As many parts as make each fit a thread's share of the memory left for spilled
  // partitions (twice over: the table is larger than its rows on disk), at most 128.
  uint64_t bytes = 0;
  for (const auto& pieces : work.pieces) {
    for (const auto& piece : pieces)
      bytes += piece.segment.second;
  }
  const uint64_t share = static_cast<uint64_t>(std::max<int64_t>(
      MinSpillBytes(memory),
      SpillThreshold(memory) / std::max<int64_t>(1, static_cast<int64_t>(context.threads()))));
  const idx_t fanout = std::clamp<idx_t>(std::bit_ceil(2 * bytes / share + 1), 2, kSpillPartitions);
  auto file = std::make_shared<SpillFile>(context.query().spill());
  std::vector<AggregateSpillWork> parts(fanout);
  for (auto& part : parts) {
    part.level = work.level + 1;
    part.pieces.resize(work.pieces.size());
    part.file = file;
  }
  for (idx_t t = 0; t < work.pieces.size(); t++) {
    const RowLayout& layout = t == 0 ? *shape.layout : distinct_layouts_[t - 1];
    const auto* states = t == 0 ? shape.states : nullptr;
    SpillPartitioner repartitioner(layout, shape.key_count, work.level + 1, fanout, *file, states);
    for (const auto& piece : work.pieces[t]) {
      ReadSpilledRows(
          layout, *piece.file, piece.segment, memory,
          [&](uint8_t* const* rows, idx_t n) { repartitioner.Add(rows, n); }, states);
      context.CheckCancelled();
    }
    const auto& segments = repartitioner.Finish();
    for (idx_t p = 0; p < fanout; p++) {
      for (const auto& segment : segments[p])
        parts[p].pieces[t].push_back({file.get(), segment});
    }
  }
  file->Flush();
  global.spill_metrics.bytes_written.fetch_add(file->size(), std::memory_order_relaxed);
  global.spill_metrics.files.fetch_add(1, std::memory_order_relaxed);
  global.repartitioned.fetch_add(1, std::memory_order_relaxed);
  for (auto& part : parts) {
    bool empty = true;
    for (const auto& pieces : part.pieces)
      empty = empty && pieces.empty();
    if (!empty) out.pending.push_back(std::move(part));
  }
}

bool PhysicalHashAggregate::NextSpilledRows(ExecutionContext& context,
                                            HashAggregateGlobalState& global,
                                            AggregateSourceState& source,
                                            AggregateSpilledPartition& part) const {
  while (part.next >= part.rows.size()) {
    part.table.reset();  // the last partition's memory goes before the next is loaded
    part.rows.clear();
    part.next = 0;
    AggregateSpillWork work;
    if (!part.pending.empty()) {
      // The parts of a partition this thread split: the deepest first, so at most one
      // level's parts wait at a time per level.
      work = std::move(part.pending.back());
      part.pending.pop_back();
    } else {
      const idx_t p = source.next.fetch_add(kBatchSize) / kBatchSize;
      if (p >= kSpillPartitions) return false;
      work = SpilledPartition(global, p);
    }
    const SpillShape shape = SpilledShape(global);
    if (!LoadSpillWork(context, shape, work, part)) {
      part.table.reset();
      part.rows.clear();
      RepartitionSpillWork(context, global, shape, work, part);
    }
  }
  return true;
}

void PhysicalHashAggregate::FoldSpilledSets(ExecutionContext& context,
                                            HashAggregateGlobalState& global) const {
  const SpillShape finest = FinestShape();
  const SpillShape sets = SetsShape();
  MemoryTracker* memory = &context.query().memory();
  const auto constants = RollupConstants();
  // One file for the sets' groups of every finest partition, each set group's row in the
  // spill partition of its result keys.
  AggregateSpillRun run;
  run.file = std::make_unique<SpillFile>(context.query().spill());
  run.segments.resize(kSpillPartitions);
  SpillPartitioner partitioner(*sets.layout, sets.key_count, 0, kSpillPartitions, *run.file,
                               sets.states);
  AggregateSpilledPartition part;
  std::vector<uint8_t*> rows;
  auto add_rows = [&](const RowCollection& collection) {
    for (const auto& block : collection.blocks()) {
      rows.resize(block.count);
      for (uint32_t i = 0; i < block.count; i++)
        rows[i] = block.data + static_cast<size_t>(i) * result_layout_.row_width;
      partitioner.Add(rows.data(), rows.size());
    }
  };
  idx_t finest_groups = 0;
  for (idx_t p = 0; p < kSpillPartitions; p++) {
    part.pending.push_back(SpilledPartition(global, p));
    while (!part.pending.empty()) {
      AggregateSpillWork work = std::move(part.pending.back());
      part.pending.pop_back();
      if (!LoadSpillWork(context, finest, work, part)) {
        part.table.reset();
        part.rows.clear();
        RepartitionSpillWork(context, global, finest, work, part);
        continue;
      }
      finest_groups += part.rows.size();
      {
        // Set keys borrow the finest groups' strings: the partition's table outlives them.
        GroupedHashTable rolled(result_layout_, sets.key_count, memory, /*shared_arena=*/true,
                                /*borrow_key_strings=*/true);
        RowCollection one_to_one(result_layout_.row_width, memory);
        FoldSets(context, part.rows, constants, rolled, one_to_one);
        add_rows(one_to_one);
        for (idx_t q = 0; q < GroupedHashTable::kPartitions; q++)
          add_rows(rolled.partition(q).rows);
      }
      part.table.reset();
      part.rows.clear();
      context.CheckCancelled();
    }
  }
  const auto& segments = partitioner.Finish();
  for (idx_t p = 0; p < kSpillPartitions; p++)
    run.segments[p] = segments[p];
  run.file->Flush();
  global.spill_metrics.bytes_written.fetch_add(run.file->size(), std::memory_order_relaxed);
  global.spill_metrics.files.fetch_add(1, std::memory_order_relaxed);
  global.finest_groups = finest_groups;
  // The finest groups' files go (closing one removes it); the source reads the sets' groups.
  global.spill_runs.clear();
  global.spill_runs.push_back(std::move(run));
  global.sets_spilled = true;
}

}  // namespace shears

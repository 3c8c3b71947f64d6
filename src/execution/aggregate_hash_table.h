#pragma once
// The hash table of GROUP BY (and of DISTINCT aggregates' value sets): rows of group keys
// followed by aggregate states (RowLayout), found through open-addressing tables with linear
// probing whose entries hold a row pointer and a 16-bit salt of its hash.
//
// The table is split into kPartitions by hash bits, each partition with its own rows and
// entries. Threads aggregate into tables of their own; merging them is then done partition by
// partition, so two threads merge into the global table at once without contending (and a
// partition nobody else has is simply moved, not merged).

#include <functional>
#include <memory>
#include <vector>

#include "execution/row_layout.h"

namespace shears {

class MemoryTracker;

struct GroupPartition {
  GroupPartition(uint32_t row_width, MemoryTracker* memory, std::shared_ptr<StringArena> arena)
      : rows(row_width, memory, std::move(arena)) {}
  ~GroupPartition();
  GroupPartition(const GroupPartition&) = delete;
  GroupPartition& operator=(const GroupPartition&) = delete;
  /// Exchanges the contents (rows, entries) of two partitions of the same layout.
  void Swap(GroupPartition& other);

  RowCollection rows;
  uint64_t* entries = nullptr;  // capacity slots; 0 = empty
  uint64_t capacity = 0;        // a power of two
};

/// Per-thread working memory of the table operations (indexed by input row). The global
/// table is merged into by several threads at once, so this is the caller's, not the table's.
struct GroupScratch {
  std::vector<uint64_t> slots;
  std::vector<uint32_t> remaining, compare, no_match, partition_sel, fresh;
  std::vector<uint8_t*> merge_src, merge_dst;
  std::vector<uint64_t> merge_hashes;
};

class GroupedHashTable {
 public:
  static constexpr int kPartitionBits = 4;
  static constexpr idx_t kPartitions = idx_t{1} << kPartitionBits;
  /// Partition bits sit between the slot bits (low) and the salt (top 16): independent of both.
  static idx_t PartitionOf(uint64_t hash) { return (hash >> 40) & (kPartitions - 1); }
  static constexpr uint64_t kPartitionHashMask = (kPartitions - 1) << 40;

  /// `layout`'s first `key_count` columns are the keys (compared NULL = NULL). With
  /// `shared_arena` all partitions put strings in one arena (a thread's local table); else
  /// each partition has its own (the global table, merged under per-partition locks).
  GroupedHashTable(const RowLayout& layout, idx_t key_count, MemoryTracker* memory,
                   bool shared_arena);

  /// For each row r in sel[0..count) (sel null: 0..count) of the key vectors, whose hashes are
  /// hashes[r], sets rows[r] to its group's row, creating missing groups (keys copied, states
  /// zero).
  void FindOrCreate(const std::vector<const Vector*>& keys, const uint64_t* hashes,
                    const uint32_t* sel, idx_t count, uint8_t** rows, GroupScratch& scratch);
  /// The same for rows that all belong to partition `p`. Appends created groups to `created`
  /// when it is not null.
  void FindOrCreateInPartition(idx_t p, const std::vector<const Vector*>& keys,
                               const uint64_t* hashes, const uint32_t* sel, idx_t count,
                               uint8_t** rows, GroupScratch& scratch,
                               std::vector<uint32_t>* created = nullptr);

  /// Moves or merges `src` (partition p of another table of the same layout) into partition p.
  /// `combine(src_rows, dst_rows, n)` merges the states of matched groups (also of new groups,
  /// whose states start at zero); may be empty for tables without states.
  using CombineFn = std::function<void(uint8_t* const* src, uint8_t* const* dst, idx_t n,
                                       StringArena& dst_arena)>;
  void MergePartition(idx_t p, GroupPartition& src, const CombineFn& combine,
                      GroupScratch& scratch);

  GroupPartition& partition(idx_t p) { return *partitions_[p]; }
  idx_t group_count() const;
  const RowLayout& layout() const { return layout_; }
  idx_t key_count() const { return key_count_; }

 private:
  void Reserve(GroupPartition& part, idx_t groups);

  const RowLayout& layout_;
  idx_t key_count_;
  MemoryTracker* memory_;
  std::vector<std::unique_ptr<GroupPartition>> partitions_;
};

/// In front of a thread's table when the GROUP BY is one integer column: an array indexed by
/// key - base holds each group's row, so a key seen before costs one load instead of a hash,
/// a probe and a key comparison. Group rows never move, so the array only caches what the
/// table holds; keys outside the range it may cover (at most kMaxSlots wide, and not much wider
/// than the rows seen so far, so a few far-apart keys allocate little) go to the table.
class DirectGroupMap {
 public:
  static constexpr uint64_t kMaxSlots = uint64_t{1} << 20;

  explicit DirectGroupMap(MemoryTracker* memory) : memory_(memory) {}
  ~DirectGroupMap();
  DirectGroupMap(const DirectGroupMap&) = delete;
  DirectGroupMap& operator=(const DirectGroupMap&) = delete;

  /// Whether keys of `type` can be mapped (32- and 64-bit integer layouts).
  static bool Supports(const LogicalType& type);
  /// Sets rows[i] for the keys it knows (i < count) and lists the others in `misses`; returns
  /// how many it listed.
  idx_t Lookup(const Vector& key, idx_t count, uint8_t** rows, uint32_t* misses) const;
  /// Remembers the rows the table gave for misses[0..count) (rows indexed by input row).
  void Remember(const Vector& key, const uint32_t* misses, idx_t count, uint8_t* const* rows);

 private:
  template <typename T>
  idx_t LookupLoop(const Vector& key, idx_t count, uint8_t** rows, uint32_t* misses) const;
  template <typename T>
  void RememberLoop(const Vector& key, const uint32_t* misses, idx_t count, uint8_t* const* rows);
  void Grow(uint64_t low, uint64_t high);

  MemoryTracker* memory_;
  uint64_t base_ = 0;  // the key of slots_[0], as two's complement bits
  std::vector<uint8_t*> slots_;
  uint8_t* null_row_ = nullptr;
  idx_t rows_seen_ = 0;
  int64_t reserved_ = 0;
};

}  // namespace shears

#pragma once
// The hash table of GROUP BY (and of DISTINCT aggregates' value sets): rows of group keys
// followed by aggregate states (RowLayout), found through open-addressing tables with linear
// probing whose entries hold a row pointer and a 16-bit salt of its hash.
//
// The table is split into kPartitions by hash bits, each partition with its own rows and
// entries. Threads aggregate into tables of their own; merging them is then done partition by
// partition, so two threads merge into the global table at once without contending (and a
// partition nobody else has is simply moved, not merged).

#include <algorithm>
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
  /// With `borrow_key_strings` new groups keep their string keys' pointers instead of copying
  /// the bytes: the caller keeps the keys' strings alive as long as the table's rows.
  GroupedHashTable(const RowLayout& layout, idx_t key_count, MemoryTracker* memory,
                   bool shared_arena, bool borrow_key_strings = false);

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
  /// With `divert`, rows of `src` it picks are not merged but appended to `diverted` (they
  /// stay in `src`).
  void MergePartition(idx_t p, GroupPartition& src, const CombineFn& combine, GroupScratch& scratch,
                      const std::function<bool(const uint8_t* row)>& divert = nullptr,
                      std::vector<uint8_t*>* diverted = nullptr);

  GroupPartition& partition(idx_t p) { return *partitions_[p]; }
  idx_t group_count() const;
  /// Bytes of rows and entries held (strings excluded).
  int64_t MemoryBytes() const;
  const RowLayout& layout() const { return layout_; }
  idx_t key_count() const { return key_count_; }

 private:
  void Reserve(GroupPartition& part, idx_t groups);

  const RowLayout& layout_;
  idx_t key_count_;
  MemoryTracker* memory_;
  bool borrow_key_strings_;
  std::vector<std::unique_ptr<GroupPartition>> partitions_;
};

/// GROUP BY one integer column whose keys fill a dense range (surrogate keys): each group's
/// row (of the table's layout) lives in an array indexed by key - base, so finding a group is
/// arithmetic, with no hash, probe, key comparison nor group creation in a hash table; the
/// array is scanned in key order at the end. A group exists when its key column is valid
/// (rows start zeroed). Keys outside the range (not much wider than the rows seen so far, so
/// a few far-apart keys allocate little; at most kMaxSlots and kMaxBytes) and NULL go to a
/// hash table instead. A thread's array may grow to cover keys that went to its table
/// before: the same key then has two partial groups, which merging combines.
class DenseGroupArray {
 public:
  static constexpr uint64_t kMaxSlots = uint64_t{1} << 21;
  static constexpr uint64_t kMaxBytes = uint64_t{96} << 20;

  /// `max_bytes` (at most kMaxBytes) bounds the array: under a small memory_limit it must
  /// leave room for the table and for spilling.
  DenseGroupArray(const RowLayout& layout, MemoryTracker* memory, uint64_t max_bytes = kMaxBytes)
      : layout_(layout),
        row_width_(layout.row_width),
        memory_(memory),
        max_bytes_(std::min(max_bytes, kMaxBytes)) {}
  ~DenseGroupArray();
  DenseGroupArray(const DenseGroupArray&) = delete;
  DenseGroupArray& operator=(const DenseGroupArray&) = delete;

  /// Whether groups keyed by one column of `type` can be held (32- and 64-bit integers).
  static bool Supports(const LogicalType& type);
  /// For rows i < count of `key`: rows[i] = its group's row when the key is in range (the
  /// group is created when new; the range may first grow to cover the batch's keys), else i
  /// goes to `misses` (NULL keys too). Returns the number of misses.
  idx_t FindOrCreate(const Vector& key, idx_t count, uint8_t** rows, uint32_t* misses);
  /// Sets rows[i] to the row of the group keyed like src[i] (a row of the same layout with a
  /// valid key) and fresh[i] to whether it was created, when that key is in range (no
  /// growth); else rows[i] = null.
  void Locate(uint8_t* const* src, idx_t count, uint8_t** rows, bool* fresh);
  /// Calls fn(rows, n) for every group's row, in batches of at most kBatchSize.
  void ForEachBatch(const std::function<void(uint8_t* const* rows, idx_t n)>& fn) const;
  idx_t group_count() const { return groups_; }
  int64_t bytes() const { return reserved_; }
  /// Whether the group of `row` (same layout) belongs in this array: a valid key in range.
  bool Covers(const uint8_t* row) const {
    return Occupied(row) && static_cast<uint64_t>(KeyOf(row)) - base_ < size_;
  }
  void Swap(DenseGroupArray& other);

 private:
  template <typename T>
  idx_t FindOrCreateLoop(const Vector& key, idx_t count, uint8_t** rows, uint32_t* misses);
  void Grow(int64_t low, int64_t high);
  int64_t KeyOf(const uint8_t* row) const;
  bool Occupied(const uint8_t* row) const { return row[layout_.validity_offset] & 1; }

  const RowLayout& layout_;
  // The destructor's copy: the operator owning layout_ may go first (EXPLAIN ANALYZE drops the
  // plan before the execution context holding this array).
  const uint32_t row_width_;
  MemoryTracker* memory_;
  uint64_t max_bytes_;
  uint8_t* data_ = nullptr;  // size_ rows, AllocateTable memory
  uint64_t base_ = 0;        // the key of row 0, as two's complement bits
  uint64_t size_ = 0;
  idx_t groups_ = 0;
  idx_t rows_seen_ = 0;
  int64_t reserved_ = 0;
};

}  // namespace shears

#pragma once
// The build side of a hash join: build rows materialized in row format (hash, chain pointer,
// keys, payload, a "matched" flag for RIGHT/FULL joins) and an open-addressing table with one
// entry per distinct key. The entry points at the first row with that key; the other rows
// with the same key hang off it in a chain. So a probe compares keys once per probe row, then
// walks a chain of rows that all match, and the distinct key count comes for free.

#include <memory>
#include <vector>

#include "execution/row_layout.h"

namespace shears {

class MemoryTracker;

class JoinHashTable {
 public:
  static constexpr uint32_t kNextOffset = 8;  // chain pointer after the hash

  /// Rows hold the keys (columns 0..key_count) then `payload_types`; `track_matches` adds a
  /// byte the probe sets when a row found a partner (RIGHT/FULL joins).
  JoinHashTable(std::vector<LogicalType> key_types, std::vector<LogicalType> payload_types,
                std::vector<bool> null_equal, bool track_matches, MemoryTracker* memory);
  ~JoinHashTable();
  JoinHashTable(const JoinHashTable&) = delete;
  JoinHashTable& operator=(const JoinHashTable&) = delete;

  const RowLayout& layout() const { return layout_; }
  idx_t key_count() const { return key_count_; }
  const std::vector<bool>& null_equal() const { return null_equal_; }
  uint32_t matched_offset() const { return layout_.extra_offset; }
  bool track_matches() const { return track_matches_; }

  /// All build rows, filled by the build sink (Merge per thread), then Build().
  RowCollection& rows() { return rows_; }
  const RowCollection& rows() const { return rows_; }
  /// Whether `row`'s keys can never match (a NULL in a key that is not null_equal).
  bool HasNullKey(const uint8_t* row) const;
  /// Whether some row may have such a key: the sink keeps them only for joins that emit
  /// unmatched build rows and says so (AddBuildRows); a table whose rows were never counted
  /// (a spilled partition's) may. Saves HasNullKey's per-row look at every key.
  bool RowsMayHaveNullKey() const { return has_null_key_ || build_rows_ == 0; }

  /// Creates the table over rows(), after every build thread merged; builds of at least
  /// kParallelBuildRows rows insert with up to `threads` threads.
  void Build(int threads = 1);
  static constexpr idx_t kParallelBuildRows = 65536;
  static constexpr idx_t kMinRowsPerThread = 32768;

  /// For the rows r in sel[0..count) of the probe key vectors (whose hashes are hashes[r],
  /// and whose not-null_equal keys are valid), heads[r] = the first build row with equal
  /// keys, or null. Other entries of `heads` are untouched.
  struct ProbeScratch {
    std::vector<uint64_t> slots;
    std::vector<uint32_t> remaining, compare, no_match;
    std::vector<uint8_t*> candidates;
  };
  void Probe(const std::vector<const Vector*>& keys, const uint64_t* hashes, const uint32_t* sel,
             idx_t count, uint8_t** heads, ProbeScratch& scratch) const;

  /// Whether Build() also made a direct array for the one integer key (dense build keys, as
  /// dimension surrogate keys are): then ProbeDirect may be used instead of hashing and Probe.
  bool direct() const { return !direct_.empty(); }
  /// Probe for a direct table: heads[r] for r in sel[0..count) from key[r] (valid there).
  void ProbeDirect(const Vector& key, const uint32_t* sel, idx_t count, uint8_t** heads) const;

  static uint8_t* Next(const uint8_t* row) { return LoadRow<uint8_t*>(row + kNextOffset); }

  /// Build-side statistics (valid after Build): rows the build side produced (including rows
  /// with NULL keys), distinct non-NULL keys in the table, and whether some key was NULL.
  idx_t build_rows() const { return build_rows_; }
  /// Threads Build() inserted with.
  idx_t build_threads() const { return build_threads_; }
  idx_t distinct_keys() const { return distinct_keys_; }
  /// Whether every row in the table has a key of its own (each chain one row long): a probe
  /// row then matches at most one build row (a join with a dimension on its key).
  bool unique_keys() const { return distinct_keys_ == rows_.row_count(); }
  /// The smallest and largest key, when Build gathered them (one integer key compared with
  /// `=`, at least one non-NULL key): false otherwise.
  bool key_bounds(int64_t& low, int64_t& high) const {
    if (!has_key_bounds_) return false;
    low = key_low_;
    high = key_high_;
    return true;
  }
  bool has_null_key() const { return has_null_key_; }
  void AddBuildRows(idx_t rows, bool null_key) {
    build_rows_ += rows;
    has_null_key_ = has_null_key_ || null_key;
  }
  /// Bytes held by rows, strings and the table.
  int64_t bytes() const;

 private:
  RowLayout layout_;
  idx_t key_count_;
  std::vector<bool> null_equal_;
  bool track_matches_;
  MemoryTracker* memory_;
  RowCollection rows_;
  /// The rows that head the table's entries, block by block, as the inserts listed them: the
  /// direct array is filled from them in the rows' order rather than from the whole table in
  /// hash order (a cache miss per entry).
  struct HeadList {
    std::unique_ptr<uint32_t[]> rows;  // by block, from starts[block]: positions in the block
    std::vector<size_t> starts;        // by block
    std::vector<uint32_t> counts;      // by block: heads listed
  };
  /// `low`/`high`: the bounds of the keys, gathered while inserting (the rows' keys are read
  /// back only when the array is made). `heads`: null when not listed (the table is scanned).
  void BuildDirect(int64_t low, int64_t high, const HeadList* heads);
  struct InsertScratch;
  /// Inserts the rows of `block`; `concurrent`: other threads insert into the table too.
  /// `heads` (may be null): where the block's rows that take an entry are listed, and their
  /// count.
  void InsertBlock(const RowCollection::Block& block, InsertScratch& scratch, bool direct_candidate,
                   bool concurrent, uint32_t* heads, uint32_t* head_count);
  template <typename T>
  void ProbeDirectLoop(const Vector& key, const uint32_t* sel, idx_t count, uint8_t** heads) const;

  uint64_t* entries_ = nullptr;
  uint64_t capacity_ = 0;
  std::vector<uint8_t*> direct_;  // head row of key direct_base_ + i, or null
  uint64_t direct_base_ = 0;
  int64_t direct_bytes_ = 0;
  idx_t build_rows_ = 0;
  idx_t distinct_keys_ = 0;
  bool has_key_bounds_ = false;
  int64_t key_low_ = 0, key_high_ = 0;
  bool has_null_key_ = false;
  idx_t build_threads_ = 1;
};

}  // namespace shears

#pragma once
// Row-major storage for the hash tables and sorts: a RowLayout describes fixed-width rows
// (a caller header, a validity bitmap, one slot per column, a caller area such as aggregate
// states), a RowCollection allocates such rows in blocks with their string bytes in
// StringArenas, and the functions below move whole vectors in and out of rows (scatter,
// gather) and compare vectors with rows (match), one type switch per vector; rows are hashed
// with common/hash.h's HashVector.
//
// Why rows and not columns: a hash probe or a sort touches one row at random; with rows that
// is one cache miss for all its keys and payload instead of one per column.

#include <cmath>
#include <cstring>
#include <memory>
#include <string_view>
#include <type_traits>
#include <vector>

#include "common/hash.h"
#include "common/vector.h"

namespace shears {

class MemoryTracker;

/// Loads/stores through memcpy: rows are not aligned for every type they hold.
template <typename T>
inline T LoadRow(const uint8_t* ptr) {
  T value;
  std::memcpy(&value, ptr, sizeof(T));
  return value;
}
template <typename T>
inline void StoreRow(uint8_t* ptr, const T& value) {
  std::memcpy(ptr, &value, sizeof(T));
}

struct RowLayout {
  RowLayout() = default;
  /// Rows of `header_bytes` (the caller's, e.g. hash and chain pointer; the first 8 bytes are
  /// always the row's hash when the row is in a hash table), a validity bitmap, the columns of
  /// `types`, then `extra_bytes` aligned to `extra_align` (aggregate states, match flags).
  RowLayout(std::vector<LogicalType> types, uint32_t header_bytes, uint32_t extra_bytes = 0,
            uint32_t extra_align = 8);

  std::vector<LogicalType> types;
  std::vector<uint32_t> offsets;  // of each column's value
  uint32_t validity_offset = 0;   // one bit per column, set = valid
  uint32_t extra_offset = 0;
  uint32_t row_width = 0;  // a multiple of 8 and of extra_align: rows stay aligned
  bool has_strings = false;

  bool IsValid(const uint8_t* row, idx_t col) const {
    return (row[validity_offset + (col >> 3)] >> (col & 7)) & 1;
  }
};

/// Bump allocator for string bytes of rows; memory counted against the query's tracker.
/// Shared (shared_ptr) because output vectors that reference its bytes keep it alive.
class StringArena {
 public:
  explicit StringArena(MemoryTracker* memory) : memory_(memory) {}
  ~StringArena();
  StringArena(const StringArena&) = delete;
  StringArena& operator=(const StringArena&) = delete;

  char* Allocate(size_t size) {
    // Inline: one call per string of every new group or build row.
    if (used_ + size <= size_) {
      char* out = chunk_ + used_;
      used_ += size;
      return out;
    }
    return AllocateChunk(size);
  }
  StringRef Add(const char* data, uint32_t size) {
    if (size == 0) return StringRef("", 0);
    char* out = Allocate(size);
    std::memcpy(out, data, size);
    return StringRef(out, size);
  }
  int64_t bytes() const { return reserved_; }

 private:
  char* AllocateChunk(size_t size);

  MemoryTracker* memory_;
  std::vector<std::unique_ptr<char[]>> chunks_;
  char* chunk_ = nullptr;  // the last chunk's bytes
  size_t used_ = 0;
  size_t size_ = 0;
  int64_t reserved_ = 0;
};

/// Rows of one layout, in blocks of at most kBatchSize rows (a block is a natural morsel).
/// New rows are zero-filled: all columns NULL, all states zero. Row addresses never move.
class RowCollection {
 public:
  struct Block {
    uint8_t* data;
    uint32_t count;
    uint32_t capacity;
  };

  RowCollection(uint32_t row_width, MemoryTracker* memory,
                std::shared_ptr<StringArena> arena = nullptr);
  ~RowCollection();
  RowCollection(RowCollection&& other) noexcept;
  RowCollection& operator=(RowCollection&& other) noexcept;
  RowCollection(const RowCollection&) = delete;
  RowCollection& operator=(const RowCollection&) = delete;

  uint8_t* AppendRow() {
    if (blocks_.empty() || blocks_.back().count == blocks_.back().capacity) NewBlock(1);
    Block& b = blocks_.back();
    rows_++;
    return b.data + static_cast<size_t>(b.count++) * row_width_;
  }
  /// Appends `count` rows; their addresses go to rows[0..count).
  void AppendRows(idx_t count, uint8_t** rows);

  idx_t row_count() const { return rows_; }
  uint32_t row_width() const { return row_width_; }
  const std::vector<Block>& blocks() const { return blocks_; }
  /// Where new string bytes of these rows go (created on first use).
  StringArena& arena();
  /// Every arena these rows' strings may point into (for Vector::KeepAlive).
  const std::vector<std::shared_ptr<StringArena>>& arenas() const { return arenas_; }
  /// New strings go to a fresh arena from now on; the old ones stay alive. Used when a
  /// collection built by one thread (sharing that thread's arena) is handed to another.
  void DetachArena() { arena_.reset(); }
  /// Moves `other`'s rows (and arenas) to the end of this collection.
  void Merge(RowCollection&& other);
  /// Bytes of row blocks held, as counted against the tracker.
  int64_t bytes() const { return reserved_; }
  MemoryTracker* memory() const { return memory_; }

  /// Makes output vector `out` keep alive every arena its gathered strings point into.
  void KeepArenasAlive(Vector& out) const;

 private:
  void NewBlock(idx_t min_rows);
  void FreeAll();

  uint32_t row_width_;
  MemoryTracker* memory_;
  std::shared_ptr<StringArena> arena_;
  std::vector<std::shared_ptr<StringArena>> arenas_;
  std::vector<Block> blocks_;
  idx_t rows_ = 0;
  int64_t reserved_ = 0;
};

// ---- vector <-> rows, one type switch per call ----

/// Writes column `col` of rows[r] from v[r] for r in sel[0..count) (sel null: r = 0..count).
/// Strings are copied into `arena` (when null they keep pointing into v's buffers).
void ScatterColumn(const RowLayout& layout, idx_t col, const Vector& v, const uint32_t* sel,
                   idx_t count, uint8_t* const* rows, StringArena* arena);
/// Copies the bytes of the valid strings in columns [first_col, end_col) of rows[r], r in
/// sel[0..count) (sel null: r = 0..count), into `arena`, one row's strings side by side, and
/// points the rows at the copies. For rows just scattered with no arena (their strings still
/// point into the input): a row's string keys then share a cache line or two, so hashing or
/// comparing all of them costs one miss, not one per column (ScatterColumn with an arena
/// copies column by column, putting each column's strings a batch's worth of bytes apart).
void CopyRowStrings(const RowLayout& layout, idx_t first_col, idx_t end_col, const uint32_t* sel,
                    idx_t count, uint8_t* const* rows, StringArena& arena);
/// out[out_offset + i] = column `col` of rows[i], for i < count. Strings point into the rows'
/// arenas (the caller makes `out` keep them alive).
void GatherColumn(const RowLayout& layout, idx_t col, uint8_t* const* rows, idx_t count,
                  Vector& out, idx_t out_offset = 0);
/// Of the rows r in sel[0..count), keeps in sel (in order) those whose v[r] equals column
/// `col` of rows[r]; appends the others to no_match[*no_match_count...] when no_match is not
/// null. Returns how many matched. NULL equals NULL when `null_equal`, else never matches.
/// DOUBLE: -0.0 equals 0.0 and NaN equals NaN.
idx_t MatchColumn(const RowLayout& layout, idx_t col, const Vector& v, uint8_t* const* rows,
                  uint32_t* sel, idx_t count, bool null_equal, uint32_t* no_match,
                  idx_t* no_match_count);

/// Entries of the open-addressing tables: the row pointer in the low 48 bits, the top 16 bits
/// of its hash ("salt") above, so most mismatches are rejected without touching the row.
constexpr int kSaltShift = 48;
constexpr uint64_t kPointerMask = (uint64_t{1} << kSaltShift) - 1;
inline uint64_t MakeEntry(uint64_t hash, const uint8_t* row) {
  return (hash & ~kPointerMask) | reinterpret_cast<uint64_t>(row);
}
inline uint8_t* EntryRow(uint64_t entry) {
  return reinterpret_cast<uint8_t*>(entry & kPointerMask);
}

/// Zeroed memory for a large table probed at random (hash table entries, direct arrays);
/// null when out of memory. Below 2 MiB it is written at once (a table whose first touch is
/// a probe's read would map the shared zero page and copy it on the first write, a TLB
/// shootdown across threads per 4 KiB page); from 2 MiB up it is mapped in transparent huge
/// pages, so a random probe rarely misses the TLB and such a copy happens once per 2 MiB.
void* AllocateTable(size_t bytes);
void FreeTable(void* data, size_t bytes);
/// Grows a table of AllocateTable from `old_bytes` to `new_bytes` keeping its contents at the
/// same offsets, the rest zero; null (the old table untouched) when it cannot in place: both
/// sizes must be mapped ones (2 MiB up). The kernel moves the pages, so nothing is copied nor
/// zeroed again (a table grown by copying zeroes and copies every size it had).
void* GrowTable(void* data, size_t old_bytes, size_t new_bytes);

}  // namespace shears

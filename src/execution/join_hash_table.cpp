#include "execution/join_hash_table.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>

#include "common/error.h"
#include "execution/query_context.h"

namespace shears {

JoinHashTable::JoinHashTable(std::vector<LogicalType> key_types,
                             std::vector<LogicalType> payload_types, std::vector<bool> null_equal,
                             bool track_matches, MemoryTracker* memory)
    : key_count_(key_types.size()),
      null_equal_(std::move(null_equal)),
      track_matches_(track_matches),
      memory_(memory),
      rows_(0, memory) {
  SHEARS_CHECK(null_equal_.size() == key_count_);
  std::vector<LogicalType> types = std::move(key_types);
  for (auto& t : payload_types)
    types.push_back(t);
  layout_ = RowLayout(std::move(types), 16, track_matches ? 1 : 0, 1);
  rows_ = RowCollection(layout_.row_width, memory);
}

JoinHashTable::~JoinHashTable() {
  if (entries_) {
    FreeTable(entries_, capacity_ * sizeof(uint64_t));
    if (memory_) memory_->Release(static_cast<int64_t>(capacity_ * sizeof(uint64_t)));
  }
  if (memory_ && direct_bytes_ > 0) memory_->Release(direct_bytes_);
}

int64_t JoinHashTable::bytes() const {
  int64_t total =
      rows_.bytes() + static_cast<int64_t>(capacity_ * sizeof(uint64_t)) + direct_bytes_;
  for (const auto& arena : rows_.arenas())
    total += arena->bytes();
  return total;
}

bool JoinHashTable::HasNullKey(const uint8_t* row) const {
  for (idx_t c = 0; c < key_count_; c++) {
    if (!null_equal_[c] && !layout_.IsValid(row, c)) return true;
  }
  return false;
}

// What one inserting thread keeps: its batch buffers and what it saw (merged after).
struct JoinHashTable::InsertScratch {
  explicit InsertScratch(const RowLayout& layout, idx_t key_count)
      : block_rows(kBatchSize),
        candidates(kBatchSize),
        hashes(kBatchSize),
        slots(kBatchSize),
        remaining(kBatchSize),
        compare(kBatchSize),
        no_match(kBatchSize) {
    for (idx_t c = 0; c < key_count; c++)
      keys.emplace_back(layout.types[c]);
  }
  std::vector<Vector> keys;
  std::vector<uint8_t*> block_rows, candidates;
  std::vector<uint64_t> hashes, slots;
  std::vector<uint32_t> remaining, compare, no_match;
  idx_t distinct = 0;
  int64_t low = INT64_MAX, high = INT64_MIN;
};

void JoinHashTable::Build(int threads) {
  SHEARS_CHECK(entries_ == nullptr);
  const idx_t n = rows_.row_count();
  // Load factor at most 2/3 even when every key is distinct.
  const uint64_t capacity = std::bit_ceil(std::max<uint64_t>(16, n + n / 2));
  const int64_t bytes = static_cast<int64_t>(capacity * sizeof(uint64_t));
  if (memory_) memory_->Reserve(bytes);
  entries_ = static_cast<uint64_t*>(AllocateTable(capacity * sizeof(uint64_t)));
  if (!entries_) {
    if (memory_) memory_->Release(bytes);
    throw OutOfMemoryError("out of memory allocating a join hash table of {} bytes", bytes);
  }
  capacity_ = capacity;

  // One integer key compared with `=`: the direct array may replace hashing on the probe side.
  const PhysicalType key_physical = layout_.types[0].physical();
  const bool direct_candidate =
      key_count_ == 1 && !null_equal_[0] &&
      (key_physical == PhysicalType::kInt32 || key_physical == PhysicalType::kInt64);

  // Small builds are not worth starting threads for; large ones get a thread per
  // kMinRowsPerThread rows, up to `threads`.
  const auto& blocks = rows_.blocks();
  const idx_t workers = n < kParallelBuildRows
                            ? 1
                            : std::min<idx_t>({static_cast<idx_t>(std::max(threads, 1)),
                                               n / kMinRowsPerThread, blocks.size()});
  build_threads_ = workers;
  // The rows heading entries, for the direct array: a position per row at most, counted
  // against the memory limit (without room, the array is filled by scanning the table).
  HeadList heads;
  int64_t heads_bytes = 0;
  if (direct_candidate && n > 0) {
    heads_bytes = static_cast<int64_t>(n * sizeof(uint32_t));
    try {
      if (memory_) memory_->Reserve(heads_bytes);
    } catch (const Error&) {
      heads_bytes = 0;
    }
  }
  if (heads_bytes > 0) {
    // Written before read: not zeroed.
    heads.rows = std::make_unique_for_overwrite<uint32_t[]>(n);
    heads.starts.resize(blocks.size());
    heads.counts.assign(blocks.size(), 0);
    size_t start = 0;
    for (size_t b = 0; b < blocks.size(); b++) {
      heads.starts[b] = start;
      start += blocks[b].count;
    }
  }
  const bool list_heads = heads_bytes > 0;
  auto insert = [&](size_t b, InsertScratch& mine, bool concurrent) {
    InsertBlock(blocks[b], mine, direct_candidate, concurrent,
                list_heads ? heads.rows.get() + heads.starts[b] : nullptr,
                list_heads ? &heads.counts[b] : nullptr);
  };
  std::vector<std::unique_ptr<InsertScratch>> scratch;
  for (idx_t w = 0; w < workers; w++)
    scratch.push_back(std::make_unique<InsertScratch>(layout_, key_count_));
  if (workers == 1) {
    for (size_t b = 0; b < blocks.size(); b++)
      insert(b, *scratch[0], false);
  } else {
    // The threads take blocks from a shared counter and insert into the one table with
    // compare-and-swap (see InsertBlock). Every row is in exactly one block, so the table
    // holds the same entries and chains as a serial build, up to which row of a key heads
    // the chain and the order within it (the probe emits a key's rows in chain order, which
    // no query's answer depends on: the sink's rows already arrive in thread order).
    std::atomic<size_t> next_block{0};
    std::exception_ptr error;
    std::mutex error_mutex;
    auto work = [&](InsertScratch& mine) {
      try {
        for (size_t b = next_block.fetch_add(1); b < blocks.size(); b = next_block.fetch_add(1))
          insert(b, mine, true);
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mutex);
        if (!error) error = std::current_exception();
      }
    };
    std::vector<std::thread> pool;
    for (idx_t w = 1; w < workers; w++)
      pool.emplace_back(work, std::ref(*scratch[w]));
    work(*scratch[0]);
    for (auto& t : pool)
      t.join();
    if (error) std::rethrow_exception(error);
  }
  int64_t low = INT64_MAX, high = INT64_MIN;
  for (const auto& s : scratch) {
    distinct_keys_ += s->distinct;
    low = std::min(low, s->low);
    high = std::max(high, s->high);
  }
  if (direct_candidate && distinct_keys_ > 0) {
    has_key_bounds_ = true;
    key_low_ = low;
    key_high_ = high;
  }
  if (direct_candidate) BuildDirect(low, high, list_heads ? &heads : nullptr);
  if (memory_ && list_heads) memory_->Release(heads_bytes);
}

void JoinHashTable::InsertBlock(const RowCollection::Block& block, InsertScratch& s,
                                bool direct_candidate, bool concurrent, uint32_t* heads,
                                uint32_t* head_count) {
  const uint64_t mask = capacity_ - 1;
  const idx_t count = block.count;
  bool check_nulls = false;
  for (bool b : null_equal_)
    check_nulls = check_nulls || !b;
  check_nulls = check_nulls && RowsMayHaveNullKey();
  // Large tables: start loading each row's first slot before probing, so the misses overlap.
  const bool prefetch = capacity_ > (uint64_t{1} << 16);
  idx_t remaining_count = 0;
  for (idx_t i = 0; i < count; i++) {
    uint8_t* row = block.data + i * layout_.row_width;
    s.block_rows[i] = row;
    // Rows with a NULL key stay in the collection (RIGHT/FULL joins emit them) but not in
    // the table: they never match.
    if (check_nulls && HasNullKey(row)) continue;
    s.hashes[i] = LoadRow<uint64_t>(row);
    s.slots[i] = s.hashes[i] & mask;
    if (prefetch) __builtin_prefetch(entries_ + s.slots[i]);
    s.remaining[remaining_count++] = static_cast<uint32_t>(i);
  }
  if (remaining_count == 0) return;
  for (idx_t c = 0; c < key_count_; c++) {
    s.keys[c].Reset();
    GatherColumn(layout_, c, s.block_rows.data(), count, s.keys[c]);
  }
  const bool int32_key = layout_.types[0].physical() == PhysicalType::kInt32;
  while (remaining_count > 0) {
    idx_t compare_count = 0;
    for (idx_t k = 0; k < remaining_count; k++) {
      const uint32_t i = s.remaining[k];
      const uint64_t salt = s.hashes[i] & ~kPointerMask;
      uint64_t slot = s.slots[i];
      while (true) {
        // Concurrent: an entry only ever goes from empty to a row, so a slot seen taken stays
        // taken, and a lost compare-and-swap leaves in `entry` the row that won, compared
        // like any other. Two rows with one key thus always meet at the same slot. The rows
        // themselves were written before the threads started, so relaxed order suffices.
        uint64_t entry =
            concurrent ? std::atomic_ref<uint64_t>(entries_[slot]).load(std::memory_order_relaxed)
                       : entries_[slot];
        const uint64_t mine = salt | reinterpret_cast<uint64_t>(s.block_rows[i]);
        if (entry == 0) {
          if (!concurrent) {
            entries_[slot] = mine;
          } else if (!std::atomic_ref<uint64_t>(entries_[slot])
                          .compare_exchange_strong(entry, mine, std::memory_order_relaxed)) {
            continue;  // another thread took the slot: look at its row
          }
          s.distinct++;
          if (heads) heads[(*head_count)++] = i;
          if (direct_candidate) {
            const int64_t key =
                int32_key ? s.keys[0].data<int32_t>()[i] : s.keys[0].data<int64_t>()[i];
            s.low = std::min(s.low, key);
            s.high = std::max(s.high, key);
          }
          break;
        }
        if ((entry & ~kPointerMask) == salt) {
          s.candidates[i] = EntryRow(entry);
          s.compare[compare_count++] = i;
          break;
        }
        slot = (slot + 1) & mask;
      }
      s.slots[i] = slot;
    }
    idx_t mismatches = 0;
    idx_t matched = compare_count;
    for (idx_t c = 0; c < key_count_ && matched > 0; c++) {
      matched = MatchColumn(layout_, c, s.keys[c], s.candidates.data(), s.compare.data(), matched,
                            null_equal_[c], s.no_match.data(), &mismatches);
    }
    // Same key as an entry's row: chain this row right behind it. Only a head's link is
    // shared between threads (a chained row's own link is written before it is published).
    for (idx_t k = 0; k < matched; k++) {
      const uint32_t i = s.compare[k];
      uint8_t* head = s.candidates[i];
      uint8_t* row = s.block_rows[i];
      if (!concurrent) {
        StoreRow<uint8_t*>(row + kNextOffset, Next(head));
        StoreRow<uint8_t*>(head + kNextOffset, row);
        continue;
      }
      // Rows are 8-byte aligned (RowLayout), so the link may be used atomically.
      std::atomic_ref<uint8_t*> link(*reinterpret_cast<uint8_t**>(head + kNextOffset));
      uint8_t* next = link.load(std::memory_order_relaxed);
      do {
        StoreRow<uint8_t*>(row + kNextOffset, next);
      } while (!link.compare_exchange_weak(next, row, std::memory_order_relaxed));
    }
    for (idx_t k = 0; k < mismatches; k++) {
      const uint32_t i = s.no_match[k];
      s.slots[i] = (s.slots[i] + 1) & mask;
    }
    std::swap(s.remaining, s.no_match);
    remaining_count = mismatches;
  }
}

void JoinHashTable::BuildDirect(int64_t low, int64_t high, const HeadList* heads) {
  if (distinct_keys_ == 0) return;
  // Dense enough that the array is at most about four times the entries' size; keys far
  // apart stay with the hash table.
  const uint64_t span = static_cast<uint64_t>(high) - static_cast<uint64_t>(low);
  if (span >= std::max<uint64_t>(4096, 4 * capacity_) || span >= (uint64_t{1} << 26)) return;
  const int64_t bytes = static_cast<int64_t>((span + 1) * sizeof(uint8_t*));
  if (memory_) {
    try {
      memory_->Reserve(bytes);
    } catch (const Error&) {
      return;  // the hash table alone does the work
    }
  }
  direct_bytes_ = bytes;
  direct_.assign(span + 1, nullptr);
  direct_base_ = static_cast<uint64_t>(low);
  const uint32_t offset = layout_.offsets[0];
  const bool int32 = layout_.types[0].physical() == PhysicalType::kInt32;
  auto place = [&](uint8_t* row) {
    const int64_t key = int32 ? LoadRow<int32_t>(row + offset) : LoadRow<int64_t>(row + offset);
    direct_[static_cast<uint64_t>(key) - direct_base_] = row;
  };
  if (heads) {
    const auto& blocks = rows_.blocks();
    for (size_t b = 0; b < blocks.size(); b++) {
      const uint32_t* listed = heads->rows.get() + heads->starts[b];
      for (uint32_t k = 0; k < heads->counts[b]; k++)
        place(blocks[b].data + static_cast<size_t>(listed[k]) * layout_.row_width);
    }
    return;
  }
  for (uint64_t i = 0; i < capacity_; i++) {
    if (entries_[i] != 0) place(EntryRow(entries_[i]));
  }
}

template <typename T>
void JoinHashTable::ProbeDirectLoop(const Vector& key, const uint32_t* sel, idx_t count,
                                    uint8_t** heads) const {
  const T* data = key.data<T>();
  uint8_t* const* direct = direct_.data();
  const uint64_t size = direct_.size();
  for (idx_t k = 0; k < count; k++) {
    const uint32_t r = sel[k];
    // Wrapping arithmetic: keys below the base fail the bound check like keys above it.
    const uint64_t offset = static_cast<uint64_t>(static_cast<int64_t>(data[r])) - direct_base_;
    heads[r] = offset < size ? direct[offset] : nullptr;
  }
}

void JoinHashTable::ProbeDirect(const Vector& key, const uint32_t* sel, idx_t count,
                                uint8_t** heads) const {
  if (key.type().physical() == PhysicalType::kInt32) {
    ProbeDirectLoop<int32_t>(key, sel, count, heads);
  } else {
    ProbeDirectLoop<int64_t>(key, sel, count, heads);
  }
}

void JoinHashTable::Probe(const std::vector<const Vector*>& keys, const uint64_t* hashes,
                          const uint32_t* sel, idx_t count, uint8_t** heads,
                          ProbeScratch& scratch) const {
  if (count == 0) return;
  idx_t max_row = 0;
  for (idx_t k = 0; k < count; k++)
    max_row = std::max<idx_t>(max_row, sel[k]);
  if (scratch.slots.size() <= max_row) {
    scratch.slots.resize(max_row + 1);
    scratch.candidates.resize(max_row + 1);
  }
  if (scratch.remaining.size() < count) {
    scratch.remaining.resize(count);
    scratch.compare.resize(count);
    scratch.no_match.resize(count);
  }
  const uint64_t mask = capacity_ - 1;
  uint64_t* slots = scratch.slots.data();
  uint8_t** candidates = scratch.candidates.data();
  uint32_t* remaining = scratch.remaining.data();
  uint32_t* compare = scratch.compare.data();
  // Large tables: load entries a few rows ahead, so their cache misses overlap.
  const bool prefetch = capacity_ > (uint64_t{1} << 16);
  constexpr idx_t kPrefetchDistance = 16;
  for (idx_t k = 0; k < count; k++) {
    const uint32_t r = sel[k];
    remaining[k] = r;
    slots[r] = hashes[r] & mask;
  }
  idx_t remaining_count = count;
  while (remaining_count > 0) {
    idx_t compare_count = 0;
    for (idx_t k = 0; k < remaining_count; k++) {
      if (prefetch && k + kPrefetchDistance < remaining_count) {
        __builtin_prefetch(entries_ + slots[remaining[k + kPrefetchDistance]]);
      }
      const uint32_t r = remaining[k];
      const uint64_t salt = hashes[r] & ~kPointerMask;
      uint64_t slot = slots[r];
      while (true) {
        const uint64_t entry = entries_[slot];
        if (entry == 0) {
          heads[r] = nullptr;
          break;
        }
        if ((entry & ~kPointerMask) == salt) {
          candidates[r] = EntryRow(entry);
          compare[compare_count++] = r;
          break;
        }
        slot = (slot + 1) & mask;
      }
      slots[r] = slot;
    }
    idx_t mismatches = 0;
    idx_t matched = compare_count;
    for (idx_t c = 0; c < key_count_ && matched > 0; c++) {
      matched = MatchColumn(layout_, c, *keys[c], candidates, compare, matched, null_equal_[c],
                            scratch.no_match.data(), &mismatches);
    }
    for (idx_t k = 0; k < matched; k++)
      heads[compare[k]] = candidates[compare[k]];
    for (idx_t k = 0; k < mismatches; k++) {
      const uint32_t r = scratch.no_match[k];
      slots[r] = (slots[r] + 1) & mask;
    }
    std::swap(scratch.remaining, scratch.no_match);
    remaining = scratch.remaining.data();
    remaining_count = mismatches;
  }
}

}  // namespace shears

#include "execution/join_hash_table.h"

#include <algorithm>
#include <bit>
#include <cstdlib>

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

void JoinHashTable::Build() {
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
  const uint64_t mask = capacity - 1;

  std::vector<Vector> keys;
  for (idx_t c = 0; c < key_count_; c++)
    keys.emplace_back(layout_.types[c]);
  std::vector<uint8_t*> block_rows(kBatchSize), candidates(kBatchSize);
  std::vector<uint64_t> hashes(kBatchSize), slots(kBatchSize);
  std::vector<uint32_t> remaining(kBatchSize), compare(kBatchSize), no_match(kBatchSize);
  bool all_null_equal = true;
  for (bool b : null_equal_)
    all_null_equal = all_null_equal && b;
  // One integer key compared with `=`: the direct array may replace hashing on the probe side.
  const PhysicalType key_physical = layout_.types[0].physical();
  const bool direct_candidate =
      key_count_ == 1 && !null_equal_[0] &&
      (key_physical == PhysicalType::kInt32 || key_physical == PhysicalType::kInt64);
  int64_t low = INT64_MAX, high = INT64_MIN;

  for (const auto& block : rows_.blocks()) {
    const idx_t count = block.count;
    idx_t remaining_count = 0;
    for (idx_t i = 0; i < count; i++) {
      uint8_t* row = block.data + i * layout_.row_width;
      block_rows[i] = row;
      // Rows with a NULL key stay in the collection (RIGHT/FULL joins emit them) but not in
      // the table: they never match.
      if (!all_null_equal && HasNullKey(row)) continue;
      hashes[i] = LoadRow<uint64_t>(row);
      slots[i] = hashes[i] & mask;
      remaining[remaining_count++] = static_cast<uint32_t>(i);
    }
    if (remaining_count == 0) continue;
    for (idx_t c = 0; c < key_count_; c++) {
      keys[c].Reset();
      GatherColumn(layout_, c, block_rows.data(), count, keys[c]);
    }
    while (remaining_count > 0) {
      idx_t compare_count = 0;
      for (idx_t k = 0; k < remaining_count; k++) {
        const uint32_t i = remaining[k];
        const uint64_t salt = hashes[i] & ~kPointerMask;
        uint64_t slot = slots[i];
        while (true) {
          const uint64_t entry = entries_[slot];
          if (entry == 0) {
            entries_[slot] = salt | reinterpret_cast<uint64_t>(block_rows[i]);
            distinct_keys_++;
            if (direct_candidate) {
              const int64_t key = key_physical == PhysicalType::kInt32
                                      ? keys[0].data<int32_t>()[i]
                                      : keys[0].data<int64_t>()[i];
              low = std::min(low, key);
              high = std::max(high, key);
            }
            break;
          }
          if ((entry & ~kPointerMask) == salt) {
            candidates[i] = EntryRow(entry);
            compare[compare_count++] = i;
            break;
          }
          slot = (slot + 1) & mask;
        }
        slots[i] = slot;
      }
      idx_t mismatches = 0;
      idx_t matched = compare_count;
      for (idx_t c = 0; c < key_count_ && matched > 0; c++) {
        matched = MatchColumn(layout_, c, keys[c], candidates.data(), compare.data(), matched,
                              null_equal_[c], no_match.data(), &mismatches);
      }
      // Same key as an entry's row: chain this row right behind it.
      for (idx_t k = 0; k < matched; k++) {
        const uint32_t i = compare[k];
        uint8_t* head = candidates[i];
        StoreRow<uint8_t*>(block_rows[i] + kNextOffset, Next(head));
        StoreRow<uint8_t*>(head + kNextOffset, block_rows[i]);
      }
      for (idx_t k = 0; k < mismatches; k++) {
        const uint32_t i = no_match[k];
        slots[i] = (slots[i] + 1) & mask;
      }
      std::swap(remaining, no_match);
      remaining_count = mismatches;
    }
  }
  if (direct_candidate) BuildDirect(low, high);
}

void JoinHashTable::BuildDirect(int64_t low, int64_t high) {
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
  for (uint64_t i = 0; i < capacity_; i++) {
    if (entries_[i] == 0) continue;
    uint8_t* row = EntryRow(entries_[i]);
    const int64_t key = int32 ? LoadRow<int32_t>(row + offset) : LoadRow<int64_t>(row + offset);
    direct_[static_cast<uint64_t>(key) - direct_base_] = row;
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

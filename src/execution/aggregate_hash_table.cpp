#include "execution/aggregate_hash_table.h"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "common/error.h"
#include "execution/query_context.h"

namespace shears {

GroupPartition::~GroupPartition() {
  if (entries) {
    FreeTable(entries, capacity * sizeof(uint64_t));
    if (rows.memory()) rows.memory()->Release(static_cast<int64_t>(capacity * sizeof(uint64_t)));
  }
}

void GroupPartition::Swap(GroupPartition& other) {
  std::swap(rows, other.rows);
  std::swap(entries, other.entries);
  std::swap(capacity, other.capacity);
}

GroupedHashTable::GroupedHashTable(const RowLayout& layout, idx_t key_count, MemoryTracker* memory,
                                   bool shared_arena, bool borrow_key_strings)
    : layout_(layout),
      key_count_(key_count),
      memory_(memory),
      borrow_key_strings_(borrow_key_strings) {
  std::shared_ptr<StringArena> arena;
  if (shared_arena) arena = std::make_shared<StringArena>(memory);
  for (idx_t p = 0; p < kPartitions; p++) {
    partitions_.push_back(std::make_unique<GroupPartition>(layout.row_width, memory, arena));
  }
}

idx_t GroupedHashTable::group_count() const {
  idx_t total = 0;
  for (const auto& p : partitions_)
    total += p->rows.row_count();
  return total;
}

int64_t GroupedHashTable::MemoryBytes() const {
  int64_t total = 0;
  for (const auto& p : partitions_)
    total += p->rows.bytes() + static_cast<int64_t>(p->capacity * sizeof(uint64_t));
  return total;
}

void GroupedHashTable::Reserve(GroupPartition& part, idx_t groups) {
  // Load factor at most 1/2: linear probing stays short.
  if (groups * 2 <= part.capacity) return;
  const uint64_t capacity = std::bit_ceil(std::max<uint64_t>(64, groups * 2));
  const int64_t bytes = static_cast<int64_t>(capacity * sizeof(uint64_t));
  if (memory_) memory_->Reserve(bytes);
  auto* entries = static_cast<uint64_t*>(AllocateTable(capacity * sizeof(uint64_t)));
  if (!entries) {
    if (memory_) memory_->Release(bytes);
    throw OutOfMemoryError("out of memory allocating a hash table of {} bytes", bytes);
  }
  // Re-insert from the rows (their hash is in the row header), in memory order.
  const uint64_t mask = capacity - 1;
  for (const auto& block : part.rows.blocks()) {
    for (uint32_t i = 0; i < block.count; i++) {
      uint8_t* row = block.data + static_cast<size_t>(i) * layout_.row_width;
      const uint64_t hash = LoadRow<uint64_t>(row);
      uint64_t slot = hash & mask;
      while (entries[slot] != 0)
        slot = (slot + 1) & mask;
      entries[slot] = MakeEntry(hash, row);
    }
  }
  if (part.entries) {
    FreeTable(part.entries, part.capacity * sizeof(uint64_t));
    if (memory_) memory_->Release(static_cast<int64_t>(part.capacity * sizeof(uint64_t)));
  }
  part.entries = entries;
  part.capacity = capacity;
}

void GroupedHashTable::FindOrCreate(const std::vector<const Vector*>& keys, const uint64_t* hashes,
                                    const uint32_t* sel, idx_t count, uint8_t** rows,
                                    GroupScratch& scratch) {
  // Counting sort of the rows by partition, then one pass per partition.
  idx_t counts[kPartitions] = {0};
  for (idx_t k = 0; k < count; k++)
    counts[PartitionOf(hashes[sel ? sel[k] : k])]++;
  idx_t offsets[kPartitions];
  idx_t running = 0;
  for (idx_t p = 0; p < kPartitions; p++) {
    offsets[p] = running;
    running += counts[p];
  }
  std::vector<uint32_t>& partition_sel = scratch.partition_sel;
  if (partition_sel.size() < count) partition_sel.resize(count);
  idx_t fill[kPartitions];
  std::copy(offsets, offsets + kPartitions, fill);
  for (idx_t k = 0; k < count; k++) {
    const uint32_t r = sel ? sel[k] : static_cast<uint32_t>(k);
    partition_sel[fill[PartitionOf(hashes[r])]++] = r;
  }
  for (idx_t p = 0; p < kPartitions; p++) {
    if (counts[p] == 0) continue;
    FindOrCreateInPartition(p, keys, hashes, partition_sel.data() + offsets[p], counts[p], rows,
                            scratch);
  }
}

void GroupedHashTable::FindOrCreateInPartition(idx_t p, const std::vector<const Vector*>& keys,
                                               const uint64_t* hashes, const uint32_t* sel,
                                               idx_t count, uint8_t** rows, GroupScratch& scratch,
                                               std::vector<uint32_t>* created) {
  if (count == 0) return;
  GroupPartition& part = *partitions_[p];
  Reserve(part, part.rows.row_count() + count);
  idx_t max_row = 0;
  for (idx_t k = 0; k < count; k++)
    max_row = std::max<idx_t>(max_row, sel ? sel[k] : k);
  if (scratch.slots.size() <= max_row) scratch.slots.resize(max_row + 1);
  if (scratch.remaining.size() < count) {
    scratch.remaining.resize(count);
    scratch.compare.resize(count);
    scratch.no_match.resize(count);
    scratch.fresh.resize(count);
  }
  uint64_t* slots = scratch.slots.data();
  uint32_t* compare = scratch.compare.data();
  uint32_t* fresh = scratch.fresh.data();

  const uint64_t mask = part.capacity - 1;
  uint64_t* entries = part.entries;
  for (idx_t k = 0; k < count; k++) {
    const uint32_t r = sel ? sel[k] : static_cast<uint32_t>(k);
    scratch.remaining[k] = r;
    slots[r] = hashes[r] & mask;
  }
  StringArena* arena = layout_.has_strings && !borrow_key_strings_ ? &part.rows.arena() : nullptr;
  // Large tables: load entries a few rows ahead, so their cache misses overlap.
  const bool prefetch = part.capacity > (uint64_t{1} << 14);
  constexpr idx_t kPrefetchDistance = 16;
  idx_t remaining = count;
  while (remaining > 0) {
    // Claim empty slots for new groups, collect salt hits for a key comparison. Keys of new
    // groups are written before comparing, so a key seen twice in one batch finds its group.
    idx_t compare_count = 0;
    idx_t fresh_count = 0;
    for (idx_t k = 0; k < remaining; k++) {
      if (prefetch && k + kPrefetchDistance < remaining) {
        __builtin_prefetch(entries + slots[scratch.remaining[k + kPrefetchDistance]]);
      }
      const uint32_t r = scratch.remaining[k];
      const uint64_t hash = hashes[r];
      const uint64_t salt = hash & ~kPointerMask;
      uint64_t slot = slots[r];
      while (true) {
        const uint64_t entry = entries[slot];
        if (entry == 0) {
          uint8_t* row = part.rows.AppendRow();
          StoreRow<uint64_t>(row, hash);
          entries[slot] = salt | reinterpret_cast<uint64_t>(row);
          rows[r] = row;
          fresh[fresh_count++] = r;
          break;
        }
        if ((entry & ~kPointerMask) == salt) {
          rows[r] = EntryRow(entry);
          compare[compare_count++] = r;
          break;
        }
        slot = (slot + 1) & mask;
      }
      slots[r] = slot;
    }
    if (fresh_count > 0) {
      for (idx_t c = 0; c < key_count_; c++) {
        ScatterColumn(layout_, c, *keys[c], fresh, fresh_count, rows, nullptr);
      }
      if (arena) CopyRowStrings(layout_, 0, key_count_, fresh, fresh_count, rows, *arena);
      if (created) created->insert(created->end(), fresh, fresh + fresh_count);
    }
    idx_t no_match = 0;
    idx_t matched = compare_count;
    for (idx_t c = 0; c < key_count_ && matched > 0; c++) {
      matched = MatchColumn(layout_, c, *keys[c], rows, compare, matched, true,
                            scratch.no_match.data(), &no_match);
    }
    for (idx_t k = 0; k < no_match; k++) {
      const uint32_t r = scratch.no_match[k];
      slots[r] = (slots[r] + 1) & mask;
    }
    std::swap(scratch.remaining, scratch.no_match);
    remaining = no_match;
  }
}

void GroupedHashTable::MergePartition(idx_t p, GroupPartition& src, const CombineFn& combine,
                                      GroupScratch& scratch,
                                      const std::function<bool(const uint8_t* row)>& divert,
                                      std::vector<uint8_t*>* diverted) {
  GroupPartition& dst = *partitions_[p];
  if (src.rows.row_count() == 0) return;
  bool any_diverted = false;
  if (divert) {
    for (const auto& block : src.rows.blocks()) {
      for (idx_t i = 0; i < block.count && !any_diverted; i++) {
        any_diverted = divert(block.data + i * layout_.row_width);
      }
    }
  }
  if (dst.rows.row_count() == 0 && !any_diverted) {
    dst.Swap(src);
    // The moved rows' arena may be shared with the source table's other partitions, which
    // other threads may be merging elsewhere: allocate new strings in a fresh arena.
    dst.rows.DetachArena();
    return;
  }
  std::vector<Vector> merge_keys;
  std::vector<const Vector*> key_ptrs;
  for (idx_t c = 0; c < key_count_; c++)
    merge_keys.emplace_back(layout_.types[c]);
  for (auto& v : merge_keys)
    key_ptrs.push_back(&v);
  auto& merge_src = scratch.merge_src;
  auto& merge_dst = scratch.merge_dst;
  auto& merge_hashes = scratch.merge_hashes;
  merge_src.resize(kBatchSize);
  merge_dst.resize(kBatchSize);
  merge_hashes.resize(kBatchSize);
  for (const auto& block : src.rows.blocks()) {
    idx_t n = 0;
    for (idx_t i = 0; i < block.count; i++) {
      uint8_t* row = block.data + i * layout_.row_width;
      if (any_diverted && divert(row)) {
        diverted->push_back(row);
        continue;
      }
      merge_src[n] = row;
      merge_hashes[n] = LoadRow<uint64_t>(row);
      n++;
    }
    if (n == 0) continue;
    for (idx_t c = 0; c < key_count_; c++) {
      merge_keys[c].Reset();
      GatherColumn(layout_, c, merge_src.data(), n, merge_keys[c]);
    }
    FindOrCreateInPartition(p, key_ptrs, merge_hashes.data(), nullptr, n, merge_dst.data(),
                            scratch);
    if (combine) combine(merge_src.data(), merge_dst.data(), n, dst.rows.arena());
  }
}

DenseGroupArray::~DenseGroupArray() {
  FreeTable(data_, size_ * row_width_);
  if (memory_ && reserved_ > 0) memory_->Release(reserved_);
}

bool DenseGroupArray::Supports(const LogicalType& type) {
  return type.physical() == PhysicalType::kInt32 || type.physical() == PhysicalType::kInt64;
}

void DenseGroupArray::Swap(DenseGroupArray& other) {
  SHEARS_CHECK(&layout_ == &other.layout_);
  std::swap(data_, other.data_);
  std::swap(base_, other.base_);
  std::swap(size_, other.size_);
  std::swap(groups_, other.groups_);
  std::swap(rows_seen_, other.rows_seen_);
  std::swap(reserved_, other.reserved_);
  std::swap(memory_, other.memory_);
  std::swap(max_bytes_, other.max_bytes_);
}

int64_t DenseGroupArray::KeyOf(const uint8_t* row) const {
  const uint8_t* value = row + layout_.offsets[0];
  if (layout_.types[0].physical() == PhysicalType::kInt32) return LoadRow<int32_t>(value);
  return LoadRow<int64_t>(value);
}

idx_t DenseGroupArray::FindOrCreate(const Vector& key, idx_t count, uint8_t** rows,
                                    uint32_t* misses) {
  if (key.type().physical() == PhysicalType::kInt32) {
    return FindOrCreateLoop<int32_t>(key, count, rows, misses);
  }
  return FindOrCreateLoop<int64_t>(key, count, rows, misses);
}

template <typename T>
idx_t DenseGroupArray::FindOrCreateLoop(const Vector& key, idx_t count, uint8_t** rows,
                                        uint32_t* misses) {
  const T* data = key.data<T>();
  const auto& validity = key.validity();
  const bool all_valid = validity.AllValid();
  rows_seen_ += count;
  {
    T low = std::numeric_limits<T>::max(), high = std::numeric_limits<T>::min();
    for (idx_t i = 0; i < count; i++) {
      if (!all_valid && !validity.IsValid(i)) continue;
      low = std::min(low, data[i]);
      high = std::max(high, data[i]);
    }
    // Offsets wrap in unsigned arithmetic: a key below base_ fails the bound check too.
    if (low <= high && (static_cast<uint64_t>(static_cast<int64_t>(low)) - base_ >= size_ ||
                        static_cast<uint64_t>(static_cast<int64_t>(high)) - base_ >= size_)) {
      Grow(low, high);
    }
  }
  uint8_t* base_row = data_;
  const uint64_t size = size_;
  const uint32_t width = layout_.row_width;
  const uint32_t validity_offset = layout_.validity_offset;
  const uint32_t key_offset = layout_.offsets[0];
  idx_t missed = 0;
  idx_t created = 0;
  // An array past the caches (many groups) misses on nearly every row: touch rows a few keys
  // ahead so their misses overlap instead of stalling one by one.
  constexpr idx_t kAhead = 16;
  const bool prefetch = size * width > (uint64_t{1} << 20);
  for (idx_t i = 0; i < count; i++) {
    if (prefetch && i + kAhead < count) {
      const uint64_t ahead = static_cast<uint64_t>(static_cast<int64_t>(data[i + kAhead])) - base_;
      if (ahead < size) __builtin_prefetch(base_row + ahead * width, 1);
    }
    const uint64_t offset = static_cast<uint64_t>(static_cast<int64_t>(data[i])) - base_;
    if (offset >= size || (!all_valid && !validity.IsValid(i))) {
      misses[missed++] = static_cast<uint32_t>(i);
      continue;
    }
    uint8_t* row = base_row + offset * width;
    if (!(row[validity_offset] & 1)) {
      row[validity_offset] |= 1;
      StoreRow<T>(row + key_offset, data[i]);
      created++;
    }
    rows[i] = row;
  }
  groups_ += created;
  return missed;
}

void DenseGroupArray::Grow(int64_t low, int64_t high) {
  int64_t new_low = low, new_high = high;
  if (data_) {
    const int64_t old_low = static_cast<int64_t>(base_);
    const int64_t old_high = static_cast<int64_t>(base_ + size_ - 1);
    new_low = std::min(new_low, old_low);
    new_high = std::max(new_high, old_high);
  }
  const uint64_t span = static_cast<uint64_t>(new_high) - static_cast<uint64_t>(new_low);
  const uint64_t width = layout_.row_width;
  const uint64_t allowed = std::min<uint64_t>(
      {kMaxSlots, max_bytes_ / width, std::max<uint64_t>(1 << 16, 16 * rows_seen_)});
  if (span >= allowed) return;  // keys outside the array keep going to the table
  // Headroom only where the keys went past the range, so a range that stops growing is not
  // reallocated (and copied) again and again: upwards (keys usually grow; in place) as much as
  // the array holds, downwards as much too but not below 0 (surrogate keys start near it).
  uint64_t room = allowed - 1 - span;
  if (data_) room = std::min<uint64_t>(room, size_);
  if (!data_ || new_low < static_cast<int64_t>(base_)) {
    // Non-negative keys first seen near 0 start at 0: a later batch's smaller key then fits.
    uint64_t down = room;
    if (new_low >= 0) down = std::min<uint64_t>(down, static_cast<uint64_t>(new_low));
    down = std::min<uint64_t>(  // no wrap below the smallest int64
        down, static_cast<uint64_t>(new_low) -
                  static_cast<uint64_t>(std::numeric_limits<int64_t>::min()));
    if (!data_ && !(new_low >= 0 && static_cast<uint64_t>(new_low) <= span / 8)) down = 0;
    new_low -= static_cast<int64_t>(down);
    room -= down;
  }
  if (data_ && new_high > static_cast<int64_t>(base_ + size_ - 1)) {
    room = std::min<uint64_t>(room, static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) -
                                        static_cast<uint64_t>(new_high));
    new_high += static_cast<int64_t>(room);
  }
  const uint64_t size = static_cast<uint64_t>(new_high) - static_cast<uint64_t>(new_low) + 1;
  const int64_t bytes = static_cast<int64_t>(size * width) - reserved_;
  if (memory_ && bytes > 0) {
    try {
      memory_->Reserve(bytes);
    } catch (const Error&) {
      return;  // no memory for the array: the table alone does the work
    }
  }
  // Keys usually grow (surrogate keys in load order): the array then extends in place.
  uint8_t* data = nullptr;
  if (data_ && static_cast<uint64_t>(new_low) == base_)
    data = static_cast<uint8_t*>(GrowTable(data_, size_ * width, size * width));
  if (!data) {
    data = static_cast<uint8_t*>(AllocateTable(size * width));
    if (!data) {
      if (memory_ && bytes > 0) memory_->Release(bytes);
      return;
    }
    // Group rows hold no pointers to themselves: they move as bytes.
    if (data_) {
      std::memcpy(data + (base_ - static_cast<uint64_t>(new_low)) * width, data_, size_ * width);
      FreeTable(data_, size_ * width);
    }
  }
  data_ = data;
  size_ = size;
  base_ = static_cast<uint64_t>(new_low);
  if (bytes > 0) reserved_ += bytes;
}

void DenseGroupArray::Locate(uint8_t* const* src, idx_t count, uint8_t** rows, bool* fresh) {
  const uint32_t width = layout_.row_width;
  for (idx_t i = 0; i < count; i++) {
    const uint64_t offset = static_cast<uint64_t>(KeyOf(src[i])) - base_;
    if (offset >= size_) {
      rows[i] = nullptr;
      continue;
    }
    uint8_t* row = data_ + offset * width;
    fresh[i] = !Occupied(row);
    if (fresh[i]) groups_++;
    rows[i] = row;
  }
}

void DenseGroupArray::ForEachBatch(
    const std::function<void(uint8_t* const* rows, idx_t n)>& fn) const {
  std::vector<uint8_t*> batch;
  batch.reserve(kBatchSize);
  const uint32_t width = layout_.row_width;
  for (uint64_t i = 0; i < size_; i++) {
    uint8_t* row = data_ + i * width;
    if (!Occupied(row)) continue;
    batch.push_back(row);
    if (batch.size() == kBatchSize) {
      fn(batch.data(), batch.size());
      batch.clear();
    }
  }
  if (!batch.empty()) fn(batch.data(), batch.size());
}

}  // namespace shears

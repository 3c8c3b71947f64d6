#include "execution/row_layout.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include <sys/mman.h>

#include "common/error.h"
#include "execution/query_context.h"

namespace shears {

namespace {
constexpr size_t kHugePage = size_t{2} << 20;
}  // namespace

void* AllocateTable(size_t bytes) {
  if (bytes < kHugePage) {
    void* data = std::malloc(bytes);
    if (data) std::memset(data, 0, bytes);
    return data;
  }
  // Aligned to a huge page, so the whole range can be backed by them. The table takes whole
  // huge pages (FreeTable unmaps as many), so the mapping holds that many plus one for the
  // alignment: mapping only `bytes` plus one could leave the last page outside it, and
  // FreeTable would then unmap memory that belongs to someone else.
  const size_t used = (bytes + kHugePage - 1) & ~(kHugePage - 1);
  const size_t mapped = used + kHugePage;
  void* raw = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const uintptr_t start = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = (start + kHugePage - 1) & ~(kHugePage - 1);
  if (aligned > start) munmap(raw, aligned - start);
  const uintptr_t end = start + mapped;
  const uintptr_t used_end = aligned + used;
  if (end > used_end) munmap(reinterpret_cast<void*>(used_end), end - used_end);
  void* data = reinterpret_cast<void*>(aligned);
  // Fresh mappings are zero; a read before the first write maps the huge zero page, so the
  // copy on that write costs one fault per 2 MiB.
  madvise(data, used_end - aligned, MADV_HUGEPAGE);
  return data;
}

void FreeTable(void* data, size_t bytes) {
  if (!data) return;
  if (bytes < kHugePage) {
    std::free(data);
    return;
  }
  munmap(data, (bytes + kHugePage - 1) & ~(kHugePage - 1));
}

void* GrowTable(void* data, size_t old_bytes, size_t new_bytes) {
  if (!data || old_bytes < kHugePage || new_bytes < old_bytes) return nullptr;
  const size_t old_used = (old_bytes + kHugePage - 1) & ~(kHugePage - 1);
  const size_t new_used = (new_bytes + kHugePage - 1) & ~(kHugePage - 1);
  if (new_used == old_used) return data;
  void* moved = mremap(data, old_used, new_used, MREMAP_MAYMOVE);
  if (moved == MAP_FAILED) return nullptr;
  madvise(moved, new_used, MADV_HUGEPAGE);
  return moved;
}

namespace {
uint32_t AlignUp(uint32_t value, uint32_t align) {
  return (value + align - 1) / align * align;
}
}  // namespace

RowLayout::RowLayout(std::vector<LogicalType> column_types, uint32_t header_bytes,
                     uint32_t extra_bytes, uint32_t extra_align)
    : types(std::move(column_types)) {
  validity_offset = header_bytes;
  uint32_t offset = header_bytes + static_cast<uint32_t>((types.size() + 7) / 8);
  for (const auto& type : types) {
    offsets.push_back(offset);
    offset += static_cast<uint32_t>(type.value_size());
    if (type.IsString()) has_strings = true;
  }
  extra_offset = AlignUp(offset, std::max<uint32_t>(extra_align, 1));
  row_width = AlignUp(std::max<uint32_t>(extra_offset + extra_bytes, 1),
                      std::max<uint32_t>(extra_align, 8));
}

// ---- StringArena ----

StringArena::~StringArena() {
  if (memory_ && reserved_ > 0) memory_->Release(reserved_);
}

char* StringArena::AllocateChunk(size_t size) {
  // Chunks grow to 1 MiB (under a small memory_limit to 1/32 of it: a chunk is reserved
  // whole, and a large one would pass the limit long before a spill could help); a longer
  // string gets a chunk of its own.
  size_t most = size_t{1} << 20;
  if (memory_ && memory_->limit() > 0)
    most = std::clamp<size_t>(static_cast<size_t>(memory_->limit() / 32), 4096, most);
  size_t chunk = std::min<size_t>(std::max<size_t>(size_ * 2, 4096), most);
  chunk = std::max(chunk, size);
  if (memory_) memory_->Reserve(static_cast<int64_t>(chunk));
  reserved_ += static_cast<int64_t>(chunk);
  chunks_.push_back(std::unique_ptr<char[]>(new char[chunk]));
  chunk_ = chunks_.back().get();
  size_ = chunk;
  used_ = 0;
  char* out = chunk_ + used_;
  used_ += size;
  return out;
}

// ---- RowCollection ----

RowCollection::RowCollection(uint32_t row_width, MemoryTracker* memory,
                             std::shared_ptr<StringArena> arena)
    : row_width_(row_width), memory_(memory), arena_(std::move(arena)) {
  if (arena_) arenas_.push_back(arena_);
}

RowCollection::~RowCollection() {
  FreeAll();
}

RowCollection::RowCollection(RowCollection&& other) noexcept
    : row_width_(other.row_width_),
      memory_(other.memory_),
      arena_(std::move(other.arena_)),
      arenas_(std::move(other.arenas_)),
      blocks_(std::move(other.blocks_)),
      rows_(other.rows_),
      reserved_(other.reserved_) {
  other.blocks_.clear();
  other.arenas_.clear();
  other.rows_ = 0;
  other.reserved_ = 0;
}

RowCollection& RowCollection::operator=(RowCollection&& other) noexcept {
  if (this == &other) return *this;
  FreeAll();
  row_width_ = other.row_width_;
  memory_ = other.memory_;
  arena_ = std::move(other.arena_);
  arenas_ = std::move(other.arenas_);
  blocks_ = std::move(other.blocks_);
  rows_ = other.rows_;
  reserved_ = other.reserved_;
  other.blocks_.clear();
  other.arenas_.clear();
  other.rows_ = 0;
  other.reserved_ = 0;
  return *this;
}

void RowCollection::FreeAll() {
  for (auto& b : blocks_)
    std::free(b.data);
  blocks_.clear();
  if (memory_ && reserved_ > 0) memory_->Release(reserved_);
  reserved_ = 0;
  rows_ = 0;
}

void RowCollection::NewBlock(idx_t min_rows) {
  // Blocks start small (tiny group tables stay tiny) and double up to a batch.
  idx_t capacity = blocks_.empty() ? 16 : idx_t{blocks_.back().capacity} * 2;
  capacity = std::min<idx_t>(std::max<idx_t>(capacity, min_rows), kBatchSize);
  const int64_t bytes = static_cast<int64_t>(capacity) * row_width_;
  if (memory_) memory_->Reserve(bytes);
  // calloc: zeroed rows (NULL columns, zero states); large blocks come zeroed from the OS.
  auto* data = static_cast<uint8_t*>(std::calloc(static_cast<size_t>(capacity), row_width_));
  if (!data) {
    if (memory_) memory_->Release(bytes);
    throw OutOfMemoryError("out of memory allocating {} bytes of rows", bytes);
  }
  // Entries keep row pointers in 48 bits, and state structs need 16-byte alignment.
  SHEARS_CHECK((reinterpret_cast<uint64_t>(data) & ~kPointerMask) == 0);
  SHEARS_CHECK(reinterpret_cast<uint64_t>(data) % 16 == 0);
  reserved_ += bytes;
  blocks_.push_back(Block{data, 0, static_cast<uint32_t>(capacity)});
}

void RowCollection::AppendRows(idx_t count, uint8_t** rows) {
  idx_t done = 0;
  while (done < count) {
    if (blocks_.empty() || blocks_.back().count == blocks_.back().capacity) {
      NewBlock(count - done);
    }
    Block& b = blocks_.back();
    const idx_t n = std::min<idx_t>(count - done, b.capacity - b.count);
    uint8_t* base = b.data + static_cast<size_t>(b.count) * row_width_;
    for (idx_t i = 0; i < n; i++)
      rows[done + i] = base + i * row_width_;
    b.count += static_cast<uint32_t>(n);
    done += n;
  }
  rows_ += count;
}

StringArena& RowCollection::arena() {
  if (!arena_) {
    arena_ = std::make_shared<StringArena>(memory_);
    arenas_.push_back(arena_);
  }
  return *arena_;
}

void RowCollection::Merge(RowCollection&& other) {
  SHEARS_CHECK(other.row_width_ == row_width_);
  for (auto& b : other.blocks_)
    blocks_.push_back(b);
  for (auto& a : other.arenas_) {
    if (std::find(arenas_.begin(), arenas_.end(), a) == arenas_.end()) arenas_.push_back(a);
  }
  rows_ += other.rows_;
  if (memory_ == other.memory_) {
    reserved_ += other.reserved_;
  } else {
    if (memory_) memory_->Reserve(other.reserved_);
    if (other.memory_) other.memory_->Release(other.reserved_);
    reserved_ += other.reserved_;
  }
  other.blocks_.clear();
  other.arenas_.clear();
  other.arena_.reset();
  other.rows_ = 0;
  other.reserved_ = 0;
}

void RowCollection::KeepArenasAlive(Vector& out) const {
  for (const auto& a : arenas_)
    out.KeepAlive(a);
}

// ---- scatter / gather / match ----

namespace {

template <typename T>
void ScatterLoop(const RowLayout& layout, idx_t col, const Vector& v, const uint32_t* sel,
                 idx_t count, uint8_t* const* rows, StringArena* arena) {
  const T* data = v.data<T>();
  const uint32_t offset = layout.offsets[col];
  const uint32_t vbyte = layout.validity_offset + static_cast<uint32_t>(col >> 3);
  const uint8_t bit = static_cast<uint8_t>(1u << (col & 7));
  const auto& validity = v.validity();
  const bool all_valid = validity.AllValid();
  for (idx_t i = 0; i < count; i++) {
    const idx_t r = sel ? sel[i] : i;
    uint8_t* row = rows[r];
    if (all_valid || validity.IsValid(r)) {
      if constexpr (std::is_same_v<T, StringRef>) {
        StringRef s = data[r];
        if (arena) s = arena->Add(s.ptr, s.len);
        StoreRow<StringRef>(row + offset, s);
      } else {
        StoreRow<T>(row + offset, data[r]);
      }
      row[vbyte] |= bit;
    } else {
      row[vbyte] &= static_cast<uint8_t>(~bit);
    }
  }
}

template <typename T>
void GatherLoop(const RowLayout& layout, idx_t col, uint8_t* const* rows, idx_t count, Vector& out,
                idx_t out_offset) {
  T* data = out.data<T>() + out_offset;
  const uint32_t offset = layout.offsets[col];
  const uint32_t vbyte = layout.validity_offset + static_cast<uint32_t>(col >> 3);
  const uint8_t bit = static_cast<uint8_t>(1u << (col & 7));
  for (idx_t i = 0; i < count; i++) {
    const uint8_t* row = rows[i];
    if (row[vbyte] & bit) {
      data[i] = LoadRow<T>(row + offset);
    } else {
      data[i] = T{};
      out.validity().SetNull(out_offset + i);
    }
  }
}

template <typename T>
idx_t MatchLoop(const RowLayout& layout, idx_t col, const Vector& v, uint8_t* const* rows,
                uint32_t* sel, idx_t count, bool null_equal, uint32_t* no_match,
                idx_t* no_match_count) {
  const T* data = v.data<T>();
  const uint32_t offset = layout.offsets[col];
  const uint32_t vbyte = layout.validity_offset + static_cast<uint32_t>(col >> 3);
  const uint8_t bit = static_cast<uint8_t>(1u << (col & 7));
  const auto& validity = v.validity();
  const bool all_valid = validity.AllValid();
  idx_t matched = 0;
  for (idx_t k = 0; k < count; k++) {
    const uint32_t r = sel[k];
    const uint8_t* row = rows[r];
    const bool row_valid = row[vbyte] & bit;
    const bool vec_valid = all_valid || validity.IsValid(r);
    bool equal;
    if (row_valid && vec_valid) {
      equal = ValuesEqual<T>(data[r], LoadRow<T>(row + offset));
    } else {
      equal = null_equal && row_valid == vec_valid;
    }
    if (equal) {
      sel[matched++] = r;
    } else if (no_match) {
      no_match[(*no_match_count)++] = r;
    }
  }
  return matched;
}

}  // namespace

#define SHEARS_DISPATCH_PHYSICAL(type, FN, ...) \
  switch ((type).physical()) {                  \
    case PhysicalType::kBool:                   \
      return FN<uint8_t>(__VA_ARGS__);          \
    case PhysicalType::kInt32:                  \
      return FN<int32_t>(__VA_ARGS__);          \
    case PhysicalType::kInt64:                  \
      return FN<int64_t>(__VA_ARGS__);          \
    case PhysicalType::kInt128:                 \
      return FN<int128_t>(__VA_ARGS__);         \
    case PhysicalType::kDouble:                 \
      return FN<double>(__VA_ARGS__);           \
    case PhysicalType::kString:                 \
      return FN<StringRef>(__VA_ARGS__);        \
    case PhysicalType::kInvalid:                \
      break;                                    \
  }                                             \
  throw InternalError("row operation on a column of invalid type");

void ScatterColumn(const RowLayout& layout, idx_t col, const Vector& v, const uint32_t* sel,
                   idx_t count, uint8_t* const* rows, StringArena* arena) {
  SHEARS_DISPATCH_PHYSICAL(layout.types[col], ScatterLoop, layout, col, v, sel, count, rows, arena);
}

void GatherColumn(const RowLayout& layout, idx_t col, uint8_t* const* rows, idx_t count,
                  Vector& out, idx_t out_offset) {
  if (out.capacity() < out_offset + count) out.Reserve(out_offset + count);
  SHEARS_DISPATCH_PHYSICAL(layout.types[col], GatherLoop, layout, col, rows, count, out,
                           out_offset);
}

idx_t MatchColumn(const RowLayout& layout, idx_t col, const Vector& v, uint8_t* const* rows,
                  uint32_t* sel, idx_t count, bool null_equal, uint32_t* no_match,
                  idx_t* no_match_count) {
  SHEARS_DISPATCH_PHYSICAL(layout.types[col], MatchLoop, layout, col, v, rows, sel, count,
                           null_equal, no_match, no_match_count);
}

#undef SHEARS_DISPATCH_PHYSICAL

void CopyRowStrings(const RowLayout& layout, idx_t first_col, idx_t end_col, const uint32_t* sel,
                    idx_t count, uint8_t* const* rows, StringArena& arena) {
  uint32_t offsets[64];
  uint32_t vbytes[64];
  uint8_t bits[64];
  idx_t strings = 0;
  auto flush = [&] {
    for (idx_t i = 0; i < count; i++) {
      uint8_t* row = rows[sel ? sel[i] : i];
      size_t total = 0;
      for (idx_t s = 0; s < strings; s++) {
        if (row[vbytes[s]] & bits[s]) total += LoadRow<StringRef>(row + offsets[s]).len;
      }
      if (total == 0) continue;
      char* out = arena.Allocate(total);
      for (idx_t s = 0; s < strings; s++) {
        if (!(row[vbytes[s]] & bits[s])) continue;
        StringRef value = LoadRow<StringRef>(row + offsets[s]);
        if (value.len == 0) continue;
        std::memcpy(out, value.ptr, value.len);
        value.ptr = out;
        out += value.len;
        StoreRow<StringRef>(row + offsets[s], value);
      }
    }
    strings = 0;
  };
  for (idx_t col = first_col; col < end_col; col++) {
    if (layout.types[col].physical() != PhysicalType::kString) continue;
    offsets[strings] = layout.offsets[col];
    vbytes[strings] = layout.validity_offset + static_cast<uint32_t>(col >> 3);
    bits[strings] = static_cast<uint8_t>(1u << (col & 7));
    // Rows with more string columns than fit are copied in groups of 64 columns.
    if (++strings == 64) flush();
  }
  if (strings > 0) flush();
}

}  // namespace shears

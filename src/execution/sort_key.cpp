#include "execution/sort_key.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "common/error.h"

namespace shears {

namespace {

uint32_t ValueBytes(const LogicalType& type) {
  switch (type.physical()) {
    case PhysicalType::kBool:
      return 1;
    case PhysicalType::kInt32:
      return 4;
    case PhysicalType::kInt64:
    case PhysicalType::kDouble:
      return 8;
    case PhysicalType::kInt128:
      return 16;
    case PhysicalType::kString:
      return SortKeyLayout::kStringPrefix;
    case PhysicalType::kInvalid:
      break;
  }
  throw InternalError("ORDER BY over an invalid type");
}

inline void StoreBigEndian32(uint8_t* out, uint32_t v) {
  StoreRow<uint32_t>(out, __builtin_bswap32(v));
}
inline void StoreBigEndian64(uint8_t* out, uint64_t v) {
  StoreRow<uint64_t>(out, __builtin_bswap64(v));
}

template <typename T>
inline void EncodeValue(const T& value, uint8_t* out, uint16_t* flag, uint16_t bit) {
  if constexpr (std::is_same_v<T, uint8_t>) {
    out[0] = value ? 1 : 0;
  } else if constexpr (std::is_same_v<T, int32_t>) {
    StoreBigEndian32(out, static_cast<uint32_t>(value) ^ 0x80000000u);
  } else if constexpr (std::is_same_v<T, int64_t>) {
    StoreBigEndian64(out, static_cast<uint64_t>(value) ^ (uint64_t{1} << 63));
  } else if constexpr (std::is_same_v<T, int128_t>) {
    const uint128_t u = static_cast<uint128_t>(value) ^ (uint128_t{1} << 127);
    StoreBigEndian64(out, static_cast<uint64_t>(u >> 64));
    StoreBigEndian64(out + 8, static_cast<uint64_t>(u));
  } else if constexpr (std::is_same_v<T, double>) {
    uint64_t bits;
    if (std::isnan(value)) {
      bits = 0xFFF8000000000000ULL;  // above +inf once made orderable
    } else {
      const double d = value == 0.0 ? 0.0 : value;
      std::memcpy(&bits, &d, 8);
      bits = (bits >> 63) ? ~bits : bits | (uint64_t{1} << 63);
    }
    StoreBigEndian64(out, bits);
  } else {
    static_assert(std::is_same_v<T, StringRef>);
    const uint32_t n = std::min<uint32_t>(value.len, SortKeyLayout::kStringPrefix);
    if (n > 0) std::memcpy(out, value.ptr, n);
    std::memset(out + n, 0, SortKeyLayout::kStringPrefix - n);
    // The prefix is not the whole story: compare full strings when tied.
    if (value.len > SortKeyLayout::kStringPrefix || (n > 0 && std::memchr(out, 0, n))) {
      *flag |= bit;
    }
  }
}

template <typename T>
void EncodeColumn(const Vector& v, idx_t count, uint8_t* records, uint32_t record_width,
                  uint32_t offset, uint32_t width, bool descending, bool nulls_first,
                  uint16_t* flags, uint16_t bit) {
  const T* data = v.data<T>();
  const auto& validity = v.validity();
  const bool all_valid = validity.AllValid();
  const uint8_t valid_byte = nulls_first ? 1 : 0;
  const uint8_t null_byte = nulls_first ? 0 : 1;
  for (idx_t i = 0; i < count; i++) {
    uint8_t* out = records + i * record_width + offset;
    if (all_valid || validity.IsValid(i)) {
      out[0] = valid_byte;
      // flags is null when no key is a string (nothing to flag): no pointer arithmetic on it.
      EncodeValue<T>(data[i], out + 1, flags ? flags + i : nullptr, bit);
      if (descending) {
        for (uint32_t b = 1; b < width; b++)
          out[b] = static_cast<uint8_t>(~out[b]);
      }
    } else {
      out[0] = null_byte;
      std::memset(out + 1, 0, width - 1);
    }
  }
}

int Sign(int c) {
  return (c > 0) - (c < 0);
}

/// Copies one record with fixed-size moves (overlapping at the end) instead of a memcpy call
/// of a runtime size: the radix sort moves every record once per pass.
inline void CopyRecord(uint8_t* dst, const uint8_t* src, uint32_t width) {
  if (width <= 16) {
    uint64_t a, b;
    std::memcpy(&a, src, 8);
    std::memcpy(&b, src + width - 8, 8);
    std::memcpy(dst, &a, 8);
    std::memcpy(dst + width - 8, &b, 8);
  } else if (width <= 32) {
    uint8_t a[16], b[16];
    std::memcpy(a, src, 16);
    std::memcpy(b, src + width - 16, 16);
    std::memcpy(dst, a, 16);
    std::memcpy(dst + width - 16, b, 16);
  } else {
    std::memcpy(dst, src, width);
  }
}

void InsertionSort(uint8_t* data, idx_t n, uint32_t width, uint32_t from, uint32_t to,
                   uint8_t* scratch) {
  for (idx_t i = 1; i < n; i++) {
    idx_t j = i;
    if (std::memcmp(data + (j - 1) * width + from, data + j * width + from, to - from) <= 0) {
      continue;
    }
    std::memcpy(scratch, data + i * width, width);
    while (j > 0 && std::memcmp(data + (j - 1) * width + from, scratch + from, to - from) > 0) {
      j--;
    }
    std::memmove(data + (j + 1) * width, data + j * width, (i - j) * width);
    std::memcpy(data + j * width, scratch, width);
  }
}

/// MSD radix sort on bytes [byte, to) of the records in `data`; `other` is a buffer of the
/// same size. Each pass distributes into the other buffer (no copy back): the sorted records
/// end in `data` when `in_data`, else in `other`. Bytes equal in all records skip a pass.
void RadixSort(uint8_t* data, uint8_t* other, idx_t n, uint32_t width, uint32_t byte, uint32_t to,
               bool in_data) {
  while (true) {
    if (n <= 24 || byte >= to) {
      if (byte < to) InsertionSort(data, n, width, byte, to, other);
      if (!in_data) std::memcpy(other, data, n * width);
      return;
    }
    idx_t counts[256] = {0};
    for (idx_t i = 0; i < n; i++)
      counts[data[i * width + byte]]++;
    if (counts[data[byte]] == n) {
      byte++;
      continue;
    }
    idx_t positions[256];
    idx_t running = 0;
    for (int b = 0; b < 256; b++) {
      positions[b] = running;
      running += counts[b];
    }
    for (idx_t i = 0; i < n; i++) {
      const uint8_t* record = data + i * width;
      CopyRecord(other + positions[record[byte]]++ * width, record, width);
    }
    idx_t start = 0;
    for (int b = 0; b < 256; b++) {
      if (counts[b] > 0) {
        RadixSort(other + start * width, data + start * width, counts[b], width, byte + 1, to,
                  !in_data);
      }
      start += counts[b];
    }
    return;
  }
}

}  // namespace

SortKeyLayout::SortKeyLayout(const std::vector<BoundOrderBy>& orders, const RowLayout* payload,
                             std::vector<idx_t> string_columns)
    : payload_(payload), string_columns_(std::move(string_columns)) {
  uint32_t offset = 0;
  int strings = 0;
  for (const auto& order : orders) {
    Column column;
    column.type = order.expr->type;
    column.descending = order.descending;
    column.nulls_first = order.nulls_first;
    column.offset = offset;
    column.width = 1 + ValueBytes(column.type);
    if (column.type.IsString()) {
      column.string_index = strings++;
      string_keys_.push_back(columns_.size());
    }
    offset += column.width;
    columns_.push_back(column);
  }
  SHEARS_CHECK(string_columns_.size() == string_keys_.size());
  key_width_ = offset;
}

void SortKeyLayout::SetRow(uint8_t* record, const uint8_t* row) const {
  uint8_t* field = record + key_width_ + kSequenceBytes;
  const uint64_t flags = LoadRow<uint64_t>(field) & ~kPointerMask;
  StoreRow<uint64_t>(field, flags | reinterpret_cast<uint64_t>(row));
}

void SortKeyLayout::Encode(const std::vector<const Vector*>& key_values, idx_t count, uint32_t seq,
                           uint8_t* const* rows, uint8_t* records) const {
  const uint32_t width = record_width();
  std::vector<uint16_t> flags(string_keys_.empty() ? 0 : count, 0);
  for (size_t k = 0; k < columns_.size(); k++) {
    const Column& c = columns_[k];
    const uint16_t bit =
        c.string_index < 0 ? 0 : static_cast<uint16_t>(1u << std::min(c.string_index, 15));
    const Vector& v = *key_values[k];
    switch (c.type.physical()) {
      case PhysicalType::kBool:
        EncodeColumn<uint8_t>(v, count, records, width, c.offset, c.width, c.descending,
                              c.nulls_first, flags.data(), bit);
        break;
      case PhysicalType::kInt32:
        EncodeColumn<int32_t>(v, count, records, width, c.offset, c.width, c.descending,
                              c.nulls_first, flags.data(), bit);
        break;
      case PhysicalType::kInt64:
        EncodeColumn<int64_t>(v, count, records, width, c.offset, c.width, c.descending,
                              c.nulls_first, flags.data(), bit);
        break;
      case PhysicalType::kInt128:
        EncodeColumn<int128_t>(v, count, records, width, c.offset, c.width, c.descending,
                               c.nulls_first, flags.data(), bit);
        break;
      case PhysicalType::kDouble:
        EncodeColumn<double>(v, count, records, width, c.offset, c.width, c.descending,
                             c.nulls_first, flags.data(), bit);
        break;
      case PhysicalType::kString:
        EncodeColumn<StringRef>(v, count, records, width, c.offset, c.width, c.descending,
                                c.nulls_first, flags.data(), bit);
        break;
      case PhysicalType::kInvalid:
        throw InternalError("ORDER BY over an invalid type");
    }
  }
  for (idx_t i = 0; i < count; i++) {
    uint8_t* record = records + i * width;
    StoreBigEndian32(record + key_width_, static_cast<uint32_t>(seq + i));
    uint64_t field = rows ? reinterpret_cast<uint64_t>(rows[i]) : 0;
    if (!flags.empty()) field |= static_cast<uint64_t>(flags[i]) << 48;
    StoreRow<uint64_t>(record + key_width_ + kSequenceBytes, field);
  }
}

int SortKeyLayout::CompareStrings(const uint8_t* a, const uint8_t* b, const Column& column) const {
  const uint32_t offset = payload_->offsets[string_columns_[column.string_index]];
  const StringRef sa = LoadRow<StringRef>(RowOf(a) + offset);
  const StringRef sb = LoadRow<StringRef>(RowOf(b) + offset);
  const uint32_t common = std::min(sa.len, sb.len);
  int c = common == 0 ? 0 : std::memcmp(sa.ptr, sb.ptr, common);
  if (c == 0) c = (sa.len > sb.len) - (sa.len < sb.len);
  c = Sign(c);
  return column.descending ? -c : c;
}

int SortKeyLayout::Compare(const uint8_t* a, const uint8_t* b) const {
  const uint16_t flags = Flags(a) | Flags(b);
  if (flags == 0) return Sign(std::memcmp(a, b, compare_width()));
  for (const Column& column : columns_) {
    int c = std::memcmp(a + column.offset, b + column.offset, column.width);
    if (c == 0 && column.string_index >= 0 && (flags >> std::min(column.string_index, 15)) & 1 &&
        a[column.offset] == (column.nulls_first ? 1 : 0)) {
      c = CompareStrings(a, b, column);
    }
    if (c != 0) return Sign(c);
  }
  return Sign(std::memcmp(a + key_width_, b + key_width_, kSequenceBytes));
}

int SortKeyLayout::CompareKeyBytes(const uint8_t* a, const uint8_t* b) const {
  const uint16_t flags = Flags(a) | Flags(b);
  if (flags == 0) return Sign(std::memcmp(a, b, key_width_));
  // Bytes that differ decide (also within a string prefix); an equal prefix of a long string
  // does not, unless both are NULL.
  for (const Column& column : columns_) {
    const int c = std::memcmp(a + column.offset, b + column.offset, column.width);
    if (c != 0) return Sign(c);
    if (column.string_index >= 0 && (flags >> std::min(column.string_index, 15)) & 1 &&
        a[column.offset] == (column.nulls_first ? 1 : 0)) {
      return kUndecided;
    }
  }
  return 0;
}

bool SortKeyLayout::KeysEqual(const uint8_t* a, const uint8_t* b, idx_t key_count) const {
  if (key_count == 0) return true;
  const Column& last = columns_[key_count - 1];
  if (std::memcmp(a, b, last.offset + last.width) != 0) return false;
  const uint16_t flags = Flags(a) | Flags(b);
  if (flags == 0) return true;
  // Equal prefixes of long strings: the full strings decide.
  for (idx_t k = 0; k < key_count; k++) {
    const Column& column = columns_[k];
    if (column.string_index < 0 || !((flags >> std::min(column.string_index, 15)) & 1) ||
        a[column.offset] != (column.nulls_first ? 1 : 0)) {
      continue;
    }
    if (CompareStrings(a, b, column) != 0) return false;
  }
  return true;
}

void SortKeyLayout::SortRun(uint8_t* records, idx_t count) const {
  // Records tied on their prefixes: order by the full comparison.
  const uint32_t width = record_width();
  std::vector<const uint8_t*> order(count);
  for (idx_t i = 0; i < count; i++)
    order[i] = records + i * width;
  std::sort(order.begin(), order.end(),
            [this](const uint8_t* a, const uint8_t* b) { return Compare(a, b) < 0; });
  std::vector<uint8_t> sorted(count * width);
  for (idx_t i = 0; i < count; i++)
    std::memcpy(sorted.data() + i * width, order[i], width);
  std::memcpy(records, sorted.data(), count * width);
}

void SortKeyLayout::ResolveTies(uint8_t* records, idx_t count, size_t string_key) const {
  const Column& column = columns_[string_keys_[string_key]];
  const uint32_t end = column.offset + column.width;
  const uint32_t width = record_width();
  const uint16_t bit = static_cast<uint16_t>(1u << std::min(column.string_index, 15));
  idx_t i = 0;
  while (i < count) {
    const uint8_t* first = records + i * width;
    uint16_t flags = Flags(first);
    idx_t j = i + 1;
    while (j < count && std::memcmp(first, records + j * width, end) == 0) {
      flags |= Flags(records + j * width);
      j++;
    }
    if (j - i > 1) {
      if (flags & bit) {
        SortRun(records + i * width, j - i);
      } else if (string_key + 1 < string_keys_.size()) {
        ResolveTies(records + i * width, j - i, string_key + 1);
      }
    }
    i = j;
  }
}

void SortKeyLayout::Sort(uint8_t* records, idx_t count) const {
  if (count <= 1) return;
  const uint32_t width = record_width();
  // Uninitialized: every byte is written before it is read.
  std::unique_ptr<uint8_t[]> temp(new uint8_t[count * width]);
  RadixSort(records, temp.get(), count, width, 0, compare_width(), true);
  if (!string_keys_.empty()) ResolveTies(records, count, 0);
}

void MergeSortedRuns(const SortKeyLayout& keys, const std::vector<const uint8_t*>& runs,
                     const std::vector<idx_t>& counts, idx_t skip, int64_t limit,
                     std::vector<uint8_t*>& out) {
  idx_t total = 0;
  for (idx_t c : counts)
    total += c;
  if (skip >= total) return;
  idx_t take = total - skip;
  if (limit >= 0) take = std::min<idx_t>(take, static_cast<idx_t>(limit));
  const uint32_t width = keys.record_width();
  out.reserve(out.size() + take);
  std::vector<idx_t> position(runs.size(), 0);
  std::vector<size_t> live;
  for (size_t r = 0; r < runs.size(); r++) {
    if (counts[r] > 0) live.push_back(r);
  }
  auto head = [&](size_t r) { return runs[r] + position[r] * width; };
  // Min-heap of runs by their head record (ties: lower run first).
  auto greater = [&](size_t a, size_t b) {
    const int c = keys.Compare(head(a), head(b));
    return c != 0 ? c > 0 : a > b;
  };
  std::make_heap(live.begin(), live.end(), greater);
  idx_t produced = 0;
  while (produced < skip + take && !live.empty()) {
    std::pop_heap(live.begin(), live.end(), greater);
    const size_t r = live.back();
    if (produced >= skip) out.push_back(SortKeyLayout::RowOf(head(r), keys.key_width()));
    produced++;
    position[r]++;
    if (position[r] == counts[r]) {
      live.pop_back();
    } else {
      std::push_heap(live.begin(), live.end(), greater);
    }
  }
}

}  // namespace shears

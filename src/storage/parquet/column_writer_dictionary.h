#pragma once
// Internal to the Parquet writer (column_writer.cpp): a column chunk's dictionary of distinct
// values, typed by the column's physical value traits.

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace shears::parquet {

// ---- dictionary -----------------------------------------------------------------------------

// Distinct values in insertion order plus an open-addressing hash table over them.
template <typename Traits>
class Dictionary {
 public:
  using T = typename Traits::T;
  static constexpr bool kBytes = std::is_same_v<T, std::string_view>;

  Dictionary() { Clear(); }

  size_t size() const { return hashes_.size(); }
  size_t plain_bytes() const { return plain_bytes_; }

  /// The index of `v`, or -1 with `*slot` set to where Insert must put it.
  int64_t Find(T v, uint64_t hash, size_t* slot) const {
    size_t s = hash & mask_;
    if constexpr (kInlineKeys) {
      const uint64_t bits = Bits(v);
      while (true) {
        const InlineSlot& entry = inline_slots_[s];
        if (entry.index < 0 || entry.bits == bits) {
          *slot = s;
          return entry.index;
        }
        s = (s + 1) & mask_;
      }
    }
    while (true) {
      const int32_t entry = slots_[s];
      if (entry < 0) {
        *slot = s;
        return -1;
      }
      if (hashes_[static_cast<size_t>(entry)] == hash &&
          Traits::Equal(value(static_cast<uint32_t>(entry)), v)) {
        return entry;
      }
      s = (s + 1) & mask_;
    }
  }

  /// Starts loading the slot a lookup of `hash` begins at (a hint: the table may grow first).
  void Prefetch(uint64_t hash) const {
    if constexpr (kInlineKeys) {
      __builtin_prefetch(&inline_slots_[hash & mask_]);
    } else {
      __builtin_prefetch(&slots_[hash & mask_]);
    }
  }

  uint32_t Insert(size_t slot, T v, uint64_t hash) {
    const auto index = static_cast<uint32_t>(size());
    if constexpr (kInlineKeys) {
      inline_slots_[slot] = InlineSlot{Bits(v), index};
    } else {
      slots_[slot] = static_cast<int32_t>(index);
    }
    hashes_.push_back(hash);
    if constexpr (kBytes) {
      starts_.push_back(arena_.size() + 4);
      Traits::AppendPlain(v, &arena_);
    } else {
      values_.push_back(v);
    }
    plain_bytes_ += Traits::PlainSize(v);
    if (size() * 2 > mask_ + 1) Grow();
    return index;
  }

  T value(uint32_t index) const {
    if constexpr (kBytes) {
      const size_t start = starts_[index];
      uint32_t len;
      std::memcpy(&len, arena_.data() + start - 4, 4);
      return std::string_view(arena_.data() + start, len);
    } else {
      return values_[index];
    }
  }

  /// The dictionary page body: every value PLAIN-encoded.
  std::string PlainPage() const {
    if constexpr (kBytes) {
      return arena_;
    } else {
      std::string out;
      out.reserve(plain_bytes_);
      for (T v : values_)
        Traits::AppendPlain(v, &out);
      return out;
    }
  }

  void Clear() {
    if constexpr (kInlineKeys) {
      inline_slots_.assign(kInitialSlots, InlineSlot{});
    } else {
      slots_.assign(kInitialSlots, -1);
    }
    mask_ = kInitialSlots - 1;
    hashes_.clear();
    values_.clear();
    arena_.clear();
    starts_.clear();
    plain_bytes_ = 0;
  }

 private:
  static constexpr size_t kInitialSlots = 1024;

  void Grow() {
    if constexpr (kInlineKeys) {
      inline_slots_.assign(inline_slots_.size() * 2, InlineSlot{});
      mask_ = inline_slots_.size() - 1;
      for (size_t i = 0; i < hashes_.size(); i++) {
        size_t s = hashes_[i] & mask_;
        while (inline_slots_[s].index >= 0)
          s = (s + 1) & mask_;
        inline_slots_[s] = InlineSlot{Bits(values_[i]), static_cast<int64_t>(i)};
      }
      return;
    }
    slots_.assign(slots_.size() * 2, -1);
    mask_ = slots_.size() - 1;
    for (size_t i = 0; i < hashes_.size(); i++) {
      size_t s = hashes_[i] & mask_;
      while (slots_[s] >= 0)
        s = (s + 1) & mask_;
      slots_[s] = static_cast<int32_t>(i);
    }
  }

  // Fixed-width keys of up to 8 bytes sit in their slot beside their index: a lookup touches
  // one cache line, where slots_ -> hashes_ -> values_ were three dependent loads (most of the
  // time CREATE TABLE AS spent encoding).
  static constexpr bool kInlineKeys = !kBytes && sizeof(T) <= 8;
  struct InlineSlot {
    uint64_t bits = 0;
    int64_t index = -1;  // -1: empty
  };
  // The key's bits: equal bits are equal keys (Traits::Equal compares bits).
  static uint64_t Bits(T v) {
    uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof(T));
    return bits;
  }

  std::vector<InlineSlot> inline_slots_;
  std::vector<int32_t> slots_;
  size_t mask_ = 0;
  std::vector<uint64_t> hashes_;  // per entry, so growing needs no rehashing
  std::vector<T> values_;         // fixed-width values
  std::string arena_;             // byte arrays, already PLAIN-encoded (the page body)
  std::vector<size_t> starts_;    // where each byte array's bytes start in arena_
  size_t plain_bytes_ = 0;
};

}  // namespace shears::parquet

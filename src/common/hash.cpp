#include "common/hash.h"

#include <xxhash.h>

#include <algorithm>
#include <cstring>

#include "common/error.h"

namespace shears {

namespace {

constexpr uint64_t kNullHash = 0x9AE16A3B2F90404FULL;

template <typename T>
inline uint64_t HashValue(const T& value) {
  if constexpr (std::is_same_v<T, StringRef>) {
    // Short strings (group keys like codes, flags, names) are hashed inline from at most two
    // overlapping 8-byte loads: a library call per value costs more than the hash itself.
    const uint32_t len = value.len;
    if (len <= 16) {
      // Up to 8 bytes map to distinct words; up to 16 fold two words into one; then one mix.
      const char* p = value.ptr;
      uint64_t a = 0;
      if (len > 8) {
        uint64_t b;
        std::memcpy(&a, p, 8);
        std::memcpy(&b, p + len - 8, 8);
        a ^= b * 0x9E3779B97F4A7C15ULL;
      } else if (len >= 4) {
        uint32_t lo, hi;
        std::memcpy(&lo, p, 4);
        std::memcpy(&hi, p + len - 4, 4);
        a = lo | uint64_t{hi} << 32;
      } else if (len > 0) {
        a = static_cast<uint8_t>(p[0]) | uint64_t{static_cast<uint8_t>(p[len / 2])} << 8 |
            uint64_t{static_cast<uint8_t>(p[len - 1])} << 16;
      }
      return MixHash(a ^ (uint64_t{len} * 0xD6E8FEB86659FD93ULL));
    }
    return XXH3_64bits(value.ptr, len);
  } else if constexpr (std::is_same_v<T, double>) {
    // Equal doubles must hash equal: -0.0 like 0.0, every NaN alike.
    double d = value == 0.0 ? 0.0 : value;
    uint64_t bits;
    if (std::isnan(d)) {
      bits = 0x7FF8000000000000ULL;
    } else {
      std::memcpy(&bits, &d, 8);
    }
    return MixHash(bits);
  } else if constexpr (std::is_same_v<T, int128_t>) {
    const auto u = static_cast<uint128_t>(value);
    return MixHash(static_cast<uint64_t>(u) ^ MixHash(static_cast<uint64_t>(u >> 64)));
  } else {
    return MixHash(static_cast<uint64_t>(static_cast<int64_t>(value)));
  }
}

inline uint64_t CombineHash(uint64_t a, uint64_t b) {
  return (a * 0x9E3779B97F4A7C15ULL) ^ (a >> 29) ^ b;
}

template <typename T>
void HashLoop(const Vector& v, idx_t count, uint64_t* hashes, bool combine) {
  const T* data = v.data<T>();
  const auto& validity = v.validity();
  if constexpr (std::is_same_v<T, StringRef>) {
    // String bytes live elsewhere (another operator's rows, a page buffer): touch those of
    // rows a little ahead so their cache misses overlap instead of stalling one by one.
    constexpr idx_t kAhead = 8;
    for (idx_t i = 0; i < std::min<idx_t>(count, kAhead); i++)
      __builtin_prefetch(data[i].ptr);
    for (idx_t i = 0; i < count; i++) {
      if (i + kAhead < count) __builtin_prefetch(data[i + kAhead].ptr);
      const uint64_t h =
          validity.AllValid() || validity.IsValid(i) ? HashValue<T>(data[i]) : kNullHash;
      hashes[i] = combine ? CombineHash(hashes[i], h) : h;
    }
    return;
  }
  if (validity.AllValid()) {
    if (combine) {
      for (idx_t i = 0; i < count; i++)
        hashes[i] = CombineHash(hashes[i], HashValue<T>(data[i]));
    } else {
      for (idx_t i = 0; i < count; i++)
        hashes[i] = HashValue<T>(data[i]);
    }
    return;
  }
  for (idx_t i = 0; i < count; i++) {
    const uint64_t h = validity.IsValid(i) ? HashValue<T>(data[i]) : kNullHash;
    hashes[i] = combine ? CombineHash(hashes[i], h) : h;
  }
}

}  // namespace

void HashVector(const Vector& v, idx_t count, uint64_t* hashes, bool combine) {
  switch (v.type().physical()) {
    case PhysicalType::kBool:
      return HashLoop<uint8_t>(v, count, hashes, combine);
    case PhysicalType::kInt32:
      return HashLoop<int32_t>(v, count, hashes, combine);
    case PhysicalType::kInt64:
      return HashLoop<int64_t>(v, count, hashes, combine);
    case PhysicalType::kInt128:
      return HashLoop<int128_t>(v, count, hashes, combine);
    case PhysicalType::kDouble:
      return HashLoop<double>(v, count, hashes, combine);
    case PhysicalType::kString:
      return HashLoop<StringRef>(v, count, hashes, combine);
    case PhysicalType::kInvalid:
      break;
  }
  throw InternalError("hash of a vector of invalid type");
}

uint64_t HashInteger(int64_t value) {
  return HashValue<int64_t>(value);
}

uint64_t HashString(std::string_view value) {
  return HashValue(StringRef(value));
}

}  // namespace shears

#pragma once
// The one 64-bit hash finalizer of the engine: hash tables (joins, aggregates, windows, the
// Parquet writer's dictionaries) use the low bits of a key's hash, so every input bit must reach
// them. Also the hash of vectors the join's rows, the aggregates and the runtime join filters
// share (a filter built from a join's keys is probed with the same hashes), one type switch per
// vector.

#include <cmath>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "common/vector.h"

namespace shears {

/// splitmix64's finalizer: every input bit affects every output bit.
inline uint64_t MixHash(uint64_t x) {
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ULL;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBULL;
  x ^= x >> 31;
  return x;
}

/// hashes[i] = hash of v[i] (combine: mixed into the existing hashes[i]), i < count. Values
/// that compare equal hash equal (-0.0/0.0, all NaNs); NULL has a fixed hash.
void HashVector(const Vector& v, idx_t count, uint64_t* hashes, bool combine);
/// The hash HashVector gives one non-NULL value of an integer type (INTEGER, BIGINT and the
/// types stored as them), or of a string.
uint64_t HashInteger(int64_t value);
uint64_t HashString(std::string_view value);
/// The hash of zero key columns (ungrouped aggregates).
constexpr uint64_t kEmptyKeyHash = 0x2545F4914F6CDD1DULL;

/// `=` on two stored values of one type: DOUBLE's -0.0 equals 0.0 and NaN equals NaN (what
/// HashVector hashes alike).
template <typename T>
inline bool ValuesEqual(const T& a, const T& b) {
  if constexpr (std::is_same_v<T, double>) {
    return a == b || (std::isnan(a) && std::isnan(b));
  } else {
    return a == b;
  }
}

}  // namespace shears

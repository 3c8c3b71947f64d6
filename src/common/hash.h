#pragma once
// The one 64-bit hash finalizer of the engine: hash tables (joins, aggregates, windows, the
// Parquet writer's dictionaries) use the low bits of a key's hash, so every input bit must reach
// them.

#include <cstdint>

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

}  // namespace shears

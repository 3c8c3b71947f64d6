#pragma once
// A HyperLogLog sketch (Flajolet et al. 2007) for ANALYZE's distinct counts: 2^12 one-byte
// registers, about 1.6% standard error, mergeable (per file -> per partition -> per table).

#include <array>
#include <cstdint>

namespace shears {

class HyperLogLog {
 public:
  static constexpr int kPrecision = 12;
  static constexpr int kRegisters = 1 << kPrecision;

  /// Adds a 64-bit hash of a value (the hash must be well mixed, e.g. XXH64).
  void AddHash(uint64_t hash);
  void Merge(const HyperLogLog& other);
  /// Estimated number of distinct hashes added, with the small-range (linear counting)
  /// correction.
  int64_t Estimate() const;

 private:
  std::array<uint8_t, kRegisters> registers_{};
};

}  // namespace shears

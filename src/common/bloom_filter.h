#pragma once
// Parquet split-block bloom filters (parquet-format BloomFilter.md): the bitset is an array of
// 32-byte blocks of eight little-endian 32-bit words. A 64-bit XXH64 hash picks one block with
// its upper half and sets or tests one bit per word, derived from its lower half and 8 salts.
// Below storage because runtime join filters are made of them too; reading one from a file's
// BloomFilterHeader is storage/parquet/bloom_filter.h's.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace shears::parquet {

class SplitBlockBloomFilter {
 public:
  static constexpr size_t kBytesPerBlock = 32;
  static constexpr int kWordsPerBlock = 8;
  // The spec's salts: word i of a block gets bit ((key * kSalt[i]) >> 27).
  alignas(32) static constexpr uint32_t kSalt[kWordsPerBlock] = {
      0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
      0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U,
  };
  static constexpr size_t kMinBytes = 32;
  static constexpr size_t kMaxBytes = size_t{128} << 20;  // the spec's upper bound

  /// Wraps the bitset bytes (numBytes from BloomFilterHeader, a positive multiple of 32 that
  /// fits an i32). Throws CorruptFileError when the size is invalid.
  static SplitBlockBloomFilter FromBytes(std::string bytes);
  /// Empty filter sized for ndv distinct values at false-positive probability fpp, 0 < fpp < 1:
  /// the spec's optimal size rounded up to a power of 2 and clamped to [kMinBytes, kMaxBytes].
  /// Throws InvalidInputError for an fpp out of range.
  static SplitBlockBloomFilter ForNdv(uint64_t ndv, double fpp);
  /// The byte size ForNdv uses.
  static size_t OptimalNumBytes(uint64_t ndv, double fpp);

  void InsertHash(uint64_t hash);
  /// Inline: runtime join filters call it once per probe row.
  bool MightContainHash(uint64_t hash) const {
    const char* block = bytes_.data() + (((hash >> 32) * num_blocks_) >> 32) * kBytesPerBlock;
    const uint32_t key = static_cast<uint32_t>(hash);
    // No early exit: a branch-free OR over the 8 lanes vectorises (with AVX2: one 256-bit load,
    // multiply, shift and and-not). Per-word memcpy keeps it alias-safe without a stack copy.
    uint32_t missing = 0;
    for (int i = 0; i < kWordsPerBlock; ++i) {
      uint32_t word;
      std::memcpy(&word, block + 4 * i, 4);
      missing |= ~word & (uint32_t{1} << ((key * kSalt[i]) >> 27));
    }
    return missing == 0;
  }
  /// ORs `other`'s bits into this filter (partial filters of one key set built apart, e.g. per
  /// thread); both must have the same size, else InternalError.
  void Union(const SplitBlockBloomFilter& other);
  const std::string& bytes() const { return bytes_; }
  size_t num_blocks() const { return num_blocks_; }

  /// Parquet's hash of a value: XXH64 with seed 0 over the value's plain encoding
  /// (INT32/INT64/FLOAT/DOUBLE little-endian bytes, BYTE_ARRAY/FLBA the raw bytes without the
  /// length prefix).
  static uint64_t HashInt32(int32_t v);
  static uint64_t HashInt64(int64_t v);
  static uint64_t HashFloat(float v);
  static uint64_t HashDouble(double v);
  static uint64_t HashBytes(const void* data, size_t size);

 private:
  explicit SplitBlockBloomFilter(std::string bytes);

  std::string bytes_;
  uint64_t num_blocks_ = 0;
};

}  // namespace shears::parquet

#include "common/bloom_filter.h"

// Inline the hash so hashing a 4- or 8-byte value needs no library call.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <cstring>
#include <memory>
#include <new>
#include <utility>

#include "common/error.h"

namespace shears::parquet {

// The bitset words and the hashed plain encodings are little-endian; we read them with memcpy.
static_assert(std::endian::native == std::endian::little, "shears assumes a little-endian host");

namespace {

constexpr int kWordsPerBlock = SplitBlockBloomFilter::kWordsPerBlock;
constexpr const uint32_t* kSalt = SplitBlockBloomFilter::kSalt;

// Largest multiple of 32 that Parquet's BloomFilterHeader.numBytes (an i32) can state.
constexpr size_t kMaxRepresentableBytes = (size_t{INT32_MAX} / 32) * 32;

}  // namespace

SplitBlockBloomFilter::SplitBlockBloomFilter(std::string bytes)
    : bytes_(std::move(bytes)), num_blocks_(bytes_.size() / kBytesPerBlock) {}

SplitBlockBloomFilter SplitBlockBloomFilter::FromBytes(std::string bytes) {
  if (bytes.empty() || bytes.size() % kBytesPerBlock != 0 ||
      bytes.size() > kMaxRepresentableBytes) {
    throw CorruptFileError(
        "invalid bloom filter size of {} bytes (must be a positive multiple of 32)", bytes.size());
  }
  return SplitBlockBloomFilter(std::move(bytes));
}

size_t SplitBlockBloomFilter::OptimalNumBytes(uint64_t ndv, double fpp) {
  if (!(fpp > 0.0 && fpp < 1.0)) {
    throw InvalidInputError("bloom filter false-positive probability must be in (0, 1), got {}",
                            fpp);
  }
  if (ndv == 0) return kMinBytes;
  // The spec's sizing: bits = -8 * ndv / ln(1 - fpp^(1/8)); log1p keeps tiny fpp accurate,
  // and the huge (or inf) sizes they give clamp to the maximum below.
  double bits = -8.0 * static_cast<double>(ndv) / std::log1p(-std::pow(fpp, 1.0 / 8.0));
  double bytes = std::ceil(bits / 8.0);
  if (!(bytes < static_cast<double>(kMaxBytes))) return kMaxBytes;
  size_t n = std::max(kMinBytes, static_cast<size_t>(bytes));
  // A power of two makes the filter no worse than asked and matches other writers' sizes.
  return std::min(kMaxBytes, std::bit_ceil(n));
}

SplitBlockBloomFilter SplitBlockBloomFilter::ForNdv(uint64_t ndv, double fpp) {
  return SplitBlockBloomFilter(std::string(OptimalNumBytes(ndv, fpp), '\0'));
}

void SplitBlockBloomFilter::InsertHash(uint64_t hash) {
  // Block choice from the upper 32 bits: multiply-shift maps them onto [0, num_blocks).
  char* block = bytes_.data() + (((hash >> 32) * num_blocks_) >> 32) * kBytesPerBlock;
  const uint32_t key = static_cast<uint32_t>(hash);
  for (int i = 0; i < kWordsPerBlock; ++i) {
    uint32_t word;
    std::memcpy(&word, block + 4 * i, 4);
    word |= uint32_t{1} << ((key * kSalt[i]) >> 27);
    std::memcpy(block + 4 * i, &word, 4);
  }
}

void SplitBlockBloomFilter::Union(const SplitBlockBloomFilter& other) {
  if (other.bytes_.size() != bytes_.size()) {
    throw InternalError("bloom filters of {} and {} bytes cannot be united", bytes_.size(),
                        other.bytes_.size());
  }
  for (size_t i = 0; i < bytes_.size(); i++)
    bytes_[i] = static_cast<char>(bytes_[i] | other.bytes_[i]);
}

uint64_t SplitBlockBloomFilter::HashInt32(int32_t v) {
  return XXH64(&v, sizeof(v), 0);
}
uint64_t SplitBlockBloomFilter::HashInt64(int64_t v) {
  return XXH64(&v, sizeof(v), 0);
}
uint64_t SplitBlockBloomFilter::HashFloat(float v) {
  return XXH64(&v, sizeof(v), 0);
}
uint64_t SplitBlockBloomFilter::HashDouble(double v) {
  return XXH64(&v, sizeof(v), 0);
}
uint64_t SplitBlockBloomFilter::HashBytes(const void* data, size_t size) {
  static const char kEmpty = 0;
  return XXH64(size == 0 ? &kEmpty : data, size, 0);
}

}  // namespace shears::parquet

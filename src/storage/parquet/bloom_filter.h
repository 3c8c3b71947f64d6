#pragma once
// Parquet bloom filters in a file: the thrift BloomFilterHeader and the bitset after it, read
// into the split-block filter of common/bloom_filter.h.

#include <cstddef>
#include <cstdint>

#include "common/bloom_filter.h"
#include "parquet_types.h"

namespace shears::parquet {

/// Parses the thrift-compact BloomFilterHeader at the start of `data` (at most `available`
/// bytes) and returns its length in bytes. Validates it: numBytes a positive multiple of 32
/// (else CorruptFileError); algorithm BLOCK, hash XXHASH, compression UNCOMPRESSED (else
/// NotSupportedError). Malformed thrift raises CorruptFileError.
size_t ParseBloomFilterHeader(const uint8_t* data, size_t available,
                              format::BloomFilterHeader* header);

/// Parses a BloomFilterHeader followed by the bitset from the bytes at the column chunk's
/// bloom_filter_offset. `available` is how many bytes were read: bloom_filter_length when the
/// file gives it; otherwise read the header first (ParseBloomFilterHeader), then numBytes more.
/// Throws CorruptFileError when the bitset is cut short.
SplitBlockBloomFilter ParseBloomFilter(const uint8_t* data, size_t available);

}  // namespace shears::parquet

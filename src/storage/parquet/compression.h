#pragma once
// Page compression codecs of Parquet and the CRC-32 of page checksums.
//
// Decompression trusts nothing in the compressed bytes: every length read from them is checked
// against the input and against the page header's uncompressed size, and nothing is written
// past the output buffer. Malformed data raises CorruptFileError.

#include <cstddef>
#include <cstdint>
#include <string>

#include "parquet_types.h"

namespace shears::parquet {

/// Decompresses a page body. `output_size` is the page header's uncompressed size: the result
/// must be exactly that long, otherwise CorruptFileError. Empty input with output_size 0 is an
/// empty page and accepted for every supported codec. LZ4 (codec 5) accepts Hadoop framing and
/// plain raw LZ4 blocks; GZIP accepts concatenated gzip members and zlib streams.
/// Throws NotSupportedError for LZO and unknown codec ids. `input` and `output` must not overlap.
void Decompress(format::CompressionCodec::type codec, const uint8_t* input, size_t input_size,
                uint8_t* output, size_t output_size);

/// Compresses `size` bytes with SNAPPY, GZIP (gzip framing), ZSTD, LZ4_RAW, BROTLI or
/// UNCOMPRESSED. `level` 0 picks a default (zlib 6, zstd 3, LZ4 fast mode, brotli 8); otherwise
/// it is the zlib level (1-9), the zstd level, the LZ4 HC level (LZ4_RAW; > 0 selects HC) or the
/// brotli quality (1-11); SNAPPY ignores it. Throws NotSupportedError for LZ4 (deprecated), LZO and
/// unknown ids, InvalidInputError for a level the codec rejects.
std::string Compress(format::CompressionCodec::type codec, const uint8_t* input, size_t size,
                     int level = 0);

/// "UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW"; "UNKNOWN" else.
const char* CodecName(format::CompressionCodec::type codec);

/// Standard CRC-32 (the one of zlib's crc32()), which Parquet page CRCs use over the page
/// bytes as stored (after compression).
uint32_t Crc32(const uint8_t* data, size_t size);

}  // namespace shears::parquet

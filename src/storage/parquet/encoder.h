#pragma once
// Encoders for the parts of Parquet data pages the writer produces: the RLE / bit-packed
// hybrid (definition levels, dictionary indexes) and PLAIN BOOLEAN. The matching decoders are
// in encoding.h.

#include <cstddef>
#include <cstdint>
#include <string>

namespace shears::parquet {

/// Appends the RLE / bit-packed hybrid encoding of `n` values, each < 2^bit_width (bit_width
/// 0..32), without a length prefix. Runs of 8 or more equal values become RLE runs; the rest
/// are bit-packed in groups of 8 (the last group padded with zeros).
void EncodeRleBitPacked(const uint32_t* values, size_t n, int bit_width, std::string* out);

/// Appends one RLE run of `count` copies of `value` (count > 0).
void EncodeRleRun(uint32_t value, size_t count, int bit_width, std::string* out);

/// Appends PLAIN BOOLEAN: `n` 0/1 bytes packed LSB first, the last byte zero-padded.
void EncodePlainBoolean(const uint8_t* values, size_t n, std::string* out);

/// Appends `v` as an unsigned LEB128 varint (the RLE run headers).
void AppendUleb128(uint64_t v, std::string* out);

}  // namespace shears::parquet

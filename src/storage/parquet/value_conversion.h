#pragma once
// Conversion of Parquet physical values to shears values: in bulk for the reader, one at a
// time for statistics bounds. One place, so pruning and reading can never disagree.

#include <optional>
#include <string>

#include "common/value.h"
#include "common/vector.h"
#include "storage/parquet/parquet_file.h"

namespace shears::parquet {

/// INT96 as stored: 8 bytes nanoseconds of day, 4 bytes Julian day, little-endian.
struct Int96 {
  uint8_t bytes[12];
};

/// Bytes of one decoded physical value in the reader's scratch buffers.
size_t PhysicalValueSize(format::Type::type type);

/// Converts `count` decoded physical values (`physical` points to int32_t, int64_t, Int96,
/// float, double, uint8_t (BOOLEAN) or StringRef (BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY) values)
/// into `out` at rows [out_offset, out_offset + count). Strings keep pointing at their source
/// bytes (the caller keeps those alive) unless the conversion creates new text (UUID).
/// Throws CorruptFileError for values that cannot be valid (invalid UTF-8 in a VARCHAR,
/// a decimal wider than its precision allows).
void ConvertValues(const ColumnDescriptor& column, const void* physical, idx_t count, Vector& out,
                   idx_t out_offset);

/// Decodes one plain-encoded statistics bound. nullopt when the bytes are unusable (wrong
/// length, NaN, invalid text).
std::optional<Value> DecodePlainBound(const ColumnDescriptor& column, const std::string& bytes);

double HalfToDouble(uint16_t half);

}  // namespace shears::parquet

#pragma once
// The definition levels of a flat column as the reader uses them: one bit per row saying
// whether it holds a value (its level is the maximum), made eight levels at a time without a
// branch per row, and the moves of values decoded densely to the rows those bits name. Words
// of 64 rows that are all present or all NULL (most, in real data) move or clear at once.

#include <cstdint>

#include "common/types.h"

namespace shears::parquet {

/// Set bits of `word` (a portable bit count: std::popcount is a library call on x86-64
/// without -mpopcnt).
inline int PopCount64(uint64_t word) {
  word = word - ((word >> 1) & 0x5555555555555555ULL);
  word = (word & 0x3333333333333333ULL) + ((word >> 2) & 0x3333333333333333ULL);
  word = (word + (word >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
  return static_cast<int>((word * 0x0101010101010101ULL) >> 56);
}

/// Bit i set when byte i of `word` equals the byte repeated in `target` (0x0101...01 * byte).
inline uint64_t EqualBytesMask(uint64_t word, uint64_t target) {
  constexpr uint64_t kLow7 = 0x7f7f7f7f7f7f7f7fULL;
  constexpr uint64_t kHigh = 0x8080808080808080ULL;
  const uint64_t differ = word ^ target;
  // A byte's high bit set when the byte is not zero (no carry leaves a byte).
  const uint64_t nonzero = (((differ & kLow7) + kLow7) | differ) & kHigh;
  // The eight high bits gathered into the top byte, byte i's at bit 56 + i.
  return ((nonzero ^ kHigh) * 0x0002040810204081ULL) >> 56;
}

/// masks[w] bit j: whether levels[64w + j] == max_def, for the `rows` levels (bits past the
/// last row clear). Returns how many are.
idx_t PresenceMasks(const uint8_t* levels, idx_t rows, uint8_t max_def, uint64_t* masks);

/// The rows offset + i, i in [0, rows), whose bit i in `masks` is clear, into `out` (room for
/// `rows`); returns how many. Words all present cost one test.
idx_t NullRows(const uint64_t* masks, idx_t rows, idx_t offset, uint32_t* out);

/// Moves the `present` values laid densely at `base` (each `width` bytes) out to the rows of
/// [0, rows) whose bit is set in `masks`, zeroing the others.
void SpreadToRows(uint8_t* base, size_t width, const uint64_t* masks, idx_t rows, idx_t present);

/// Dictionary entries (`width` 4, 8 or 16 bytes) straight to their rows: row i takes entry
/// indexes[k] when it is the k-th present row, else zero. `indexes` holds one spare entry past
/// the last present one.
void GatherToRows(uint8_t* dst, size_t width, const uint8_t* dictionary, const uint32_t* indexes,
                  const uint64_t* masks, idx_t rows);

/// Dictionary codes to rows: the k-th present row's is indexes[k], a NULL row's `null_code`.
/// `indexes` holds one spare entry past the last present one.
void CodesToRows(uint32_t* dst, const uint32_t* indexes, const uint64_t* masks, idx_t rows,
                 uint32_t null_code);

}  // namespace shears::parquet

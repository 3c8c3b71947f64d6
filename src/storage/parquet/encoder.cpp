#include "storage/parquet/encoder.h"

#include <algorithm>

#include "common/error.h"

namespace shears::parquet {

namespace {

// A literal run of at most 63 groups keeps its header in one byte.
constexpr size_t kMaxLiteralGroups = 63;

// Length of the run of values equal to values[i], counting at most `cap`.
size_t RunLength(const uint32_t* values, size_t n, size_t i, size_t cap) {
  size_t end = std::min(n, i + cap);
  size_t j = i + 1;
  while (j < end && values[j] == values[i])
    j++;
  return j - i;
}

void AppendBitPacked(const uint32_t* values, size_t n, size_t padded, int bit_width,
                     std::string* out) {
  // At most 7 pending bits plus 32 new ones: fits 64.
  uint64_t acc = 0;
  int bits = 0;
  const size_t start = out->size();
  out->resize(start + padded * static_cast<size_t>(bit_width) / 8);
  char* dst = out->data() + start;
  for (size_t i = 0; i < padded; i++) {
    acc |= static_cast<uint64_t>(i < n ? values[i] : 0) << bits;
    bits += bit_width;
    while (bits >= 8) {
      *dst++ = static_cast<char>(acc & 0xFF);
      acc >>= 8;
      bits -= 8;
    }
  }
}

}  // namespace

void AppendUleb128(uint64_t v, std::string* out) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

void EncodeRleRun(uint32_t value, size_t count, int bit_width, std::string* out) {
  SHEARS_CHECK(count > 0 && bit_width >= 0 && bit_width <= 32);
  AppendUleb128(static_cast<uint64_t>(count) << 1, out);
  for (int b = 0; b < (bit_width + 7) / 8; b++)
    out->push_back(static_cast<char>(value >> (8 * b)));
}

void EncodeRleBitPacked(const uint32_t* values, size_t n, int bit_width, std::string* out) {
  SHEARS_CHECK(bit_width >= 0 && bit_width <= 32);
  size_t i = 0;
  while (i < n) {
    size_t run = RunLength(values, n, i, n - i);
    if (run >= 8) {
      EncodeRleRun(values[i], run, bit_width, out);
      i += run;
      continue;
    }
    // A literal run grows by groups of 8 until the next group would start a run worth
    // encoding as RLE.
    size_t end = i;
    size_t groups = 0;
    while (end < n && groups < kMaxLiteralGroups) {
      end += 8;
      groups++;
      if (end < n && RunLength(values, n, end, 8) >= 8) break;
    }
    end = std::min(end, n);
    AppendUleb128((static_cast<uint64_t>(groups) << 1) | 1, out);
    AppendBitPacked(values + i, end - i, groups * 8, bit_width, out);
    i = end;
  }
}

void EncodePlainBoolean(const uint8_t* values, size_t n, std::string* out) {
  const size_t start = out->size();
  out->resize(start + (n + 7) / 8, '\0');
  char* dst = out->data() + start;
  for (size_t i = 0; i < n; i++) {
    if (values[i]) dst[i >> 3] = static_cast<char>(dst[i >> 3] | (1 << (i & 7)));
  }
}

}  // namespace shears::parquet

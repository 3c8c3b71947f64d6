#pragma once
// Decoders for the value and level encodings of Parquet data pages (Encodings.md of the
// parquet-format specification): the RLE / bit-packed hybrid, the deprecated BIT_PACKED
// levels, DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT
// and the PLAIN layouts of BYTE_ARRAY and BOOLEAN.
//
// Every decoder treats its input as hostile: malformed bytes throw CorruptFileError saying
// what was wrong (the caller adds file and column context), reads never leave the given
// buffer, and no allocation is sized by a count read from the data alone (DELTA_BYTE_ARRAY
// values, the only allocations, are each at most as long as the input). Decoders keep
// pointers into the input, which must outlive them.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "common/types.h"
#include "common/vector.h"

namespace shears::parquet {

/// Bits needed to store values 0..max_value (levels: max level; booleans: 1).
int BitWidthForMaxValue(uint32_t max_value);

/// RLE / bit-packed hybrid, used for definition/repetition levels, dictionary indexes and
/// RLE booleans. `bit_width` 0..32; at 0 every value is 0 and the data is not read at all
/// (GetBatch yields n zeros, or as many as `max_values` allows).
///
/// `max_values`, when known (the values in the page), makes a run longer than the values
/// left in the page an error instead of a silently ignored tail; a bit-packed run may still
/// exceed it by its padding (up to 7 values).
///
/// A bit-packed run cut short by the end of the data yields the values whose bits are all
/// present and then ends the data, which is how a writer's padded last group looks when the
/// padding bytes were not written.
class RleBitPackedDecoder {
 public:
  static constexpr size_t kNoLimit = std::numeric_limits<size_t>::max();

  RleBitPackedDecoder() = default;
  RleBitPackedDecoder(const uint8_t* data, size_t size, int bit_width,
                      size_t max_values = kNoLimit);

  /// Decodes up to n values; returns how many were decoded (fewer only when data ends).
  size_t GetBatch(uint32_t* out, size_t n);
  /// Like GetBatch but for values that must be < `bound` (dictionary indexes): throws
  /// CorruptFileError on an index >= bound.
  size_t GetBatchBounded(uint32_t* out, size_t n, uint32_t bound);
  /// Like GetBatch into bytes, for values of at most 8 bits (definition levels): runs are
  /// filled with memset, no 32-bit buffer in between. Needs bit_width() <= 8.
  size_t GetBatch(uint8_t* out, size_t n);

  int bit_width() const { return bit_width_; }

 private:
  // Reads the next run header; false when the data is exhausted.
  bool NextRun();
  template <typename Out>
  size_t Decode(Out* out, size_t n);

  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t pos_ = 0;  // next run header
  int bit_width_ = 0;
  size_t values_left_ = kNoLimit;  // values later runs may still hold (max_values)

  bool literal_ = false;
  size_t run_left_ = 0;       // values left in the current run (literal: only those present)
  uint32_t rle_value_ = 0;    // the repeated value of an RLE run
  size_t literal_pos_ = 0;    // byte offset of the next unread 8-value group
  uint32_t pending_[8] = {};  // a group unpacked but only partly handed out
  uint8_t pending_pos_ = 0;
  uint8_t pending_len_ = 0;
};

/// Reads a 4-byte little-endian length prefix and returns a decoder over that many bytes
/// (the framing of RLE levels in DATA_PAGE v1 and of RLE booleans); `*consumed` gets 4+len.
RleBitPackedDecoder MakeLengthPrefixedRleDecoder(const uint8_t* data, size_t size, int bit_width,
                                                 size_t* consumed,
                                                 size_t max_values = RleBitPackedDecoder::kNoLimit);

/// Reads the 1-byte bit width that starts RLE_DICTIONARY / PLAIN_DICTIONARY data pages and
/// returns a decoder over the rest of the data (check indexes with GetBatchBounded).
RleBitPackedDecoder MakeDictionaryIndexDecoder(const uint8_t* data, size_t size,
                                               size_t max_values = RleBitPackedDecoder::kNoLimit);

/// BIT_PACKED (deprecated level encoding, MSB-first bit order). Decodes up to n values and
/// returns how many were decoded (fewer only when data ends).
size_t DecodeLegacyBitPacked(const uint8_t* data, size_t size, int bit_width, uint32_t* out,
                             size_t n);
/// Bytes that n BIT_PACKED values of `bit_width` bits occupy (the section has no length
/// prefix; a DATA_PAGE v1 reader needs this to find the next section).
size_t LegacyBitPackedSize(size_t n, int bit_width);

/// DELTA_BINARY_PACKED for INT32 (T = int32_t) and INT64 (T = int64_t). Arithmetic wraps
/// (two's complement) as the spec says. Decodes lazily, a miniblock group at a time, so
/// memory use does not depend on the value count the header claims.
///
/// For INT32, min deltas up to 64 bits and miniblock widths up to 64 are accepted and
/// reduced modulo 2^32: DuckDB computes INT32 deltas in 64 bits (widths of 33), which the
/// spec forbids but which decode to the right values. Widths over 64 are corrupt.
template <typename T>
class DeltaBinaryPackedDecoder {
 public:
  DeltaBinaryPackedDecoder() = default;
  DeltaBinaryPackedDecoder(const uint8_t* data, size_t size);

  size_t total_values() const { return total_values_; }
  /// Values not yet returned by GetBatch.
  size_t values_left() const { return total_values_ - values_read_; }
  /// Decodes up to n values; returns how many (fewer only after the last value).
  size_t GetBatch(T* out, size_t n);
  /// Bytes the encoded values occupy, header to the end of the last needed miniblock
  /// (DELTA_BYTE_ARRAY/DELTA_LENGTH need where the next section starts). May be called at
  /// any time: it walks the block headers without decoding and throws if they are corrupt.
  size_t bytes_consumed();

 private:
  using U = std::make_unsigned_t<T>;
  static constexpr int kTypeBits = sizeof(T) * 8;

  // Where the reader is in the block structure; copied to walk ahead for bytes_consumed().
  struct Cursor {
    size_t pos = 0;       // first byte after the current miniblock
    size_t mb_index = 0;  // miniblocks of the current block already entered
    size_t mb_left = 0;   // values of the current miniblock not yet unpacked
    size_t mb_data = 0;   // byte offset of the next group to unpack
    int mb_width = 0;     // bit width of the current miniblock
    size_t widths = 0;    // byte offset of the current block's bit widths
    U min_delta = 0;
    size_t accounted = 0;  // values whose deltas have been unpacked (or the first)
  };
  // Enters the next miniblock of `c` (reading a block header first when needed).
  void NextMiniblock(Cursor& c) const;

  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t block_size_ = 0;
  size_t miniblocks_ = 0;
  size_t values_per_miniblock_ = 0;
  size_t total_values_ = 0;
  size_t values_read_ = 0;
  U last_ = 0;  // the last value returned (the first value before any)
  Cursor cursor_;
  size_t end_pos_ = 0;
  bool end_known_ = false;

  U buffer_[8] = {};  // deltas of a group unpacked but only partly returned
  uint8_t buffer_pos_ = 0;
  uint8_t buffer_len_ = 0;
};

extern template class DeltaBinaryPackedDecoder<int32_t>;
extern template class DeltaBinaryPackedDecoder<int64_t>;

/// DELTA_LENGTH_BYTE_ARRAY: values point into `data` (no copies).
class DeltaLengthByteArrayDecoder {
 public:
  DeltaLengthByteArrayDecoder() = default;
  DeltaLengthByteArrayDecoder(const uint8_t* data, size_t size);

  size_t total_values() const { return lengths_.total_values(); }
  size_t values_left() const { return lengths_.values_left(); }
  size_t GetBatch(StringRef* out, size_t n);

 private:
  [[noreturn]] static void ThrowBadLength(size_t index, int32_t length, size_t left);

  DeltaBinaryPackedDecoder<int32_t> lengths_;
  const uint8_t* bytes_ = nullptr;  // the concatenated values
  size_t bytes_size_ = 0;
  size_t bytes_pos_ = 0;
  size_t values_read_ = 0;
};

/// DELTA_BYTE_ARRAY (prefix + suffix): values are materialized into `heap`, except that a
/// value with an empty suffix may point into an earlier value of the same batch (same heap).
class DeltaByteArrayDecoder {
 public:
  DeltaByteArrayDecoder() = default;
  DeltaByteArrayDecoder(const uint8_t* data, size_t size);

  size_t total_values() const { return prefixes_.total_values(); }
  size_t values_left() const { return prefixes_.values_left(); }
  size_t GetBatch(StringRef* out, size_t n, StringHeap& heap);

 private:
  DeltaBinaryPackedDecoder<int32_t> prefixes_;
  DeltaLengthByteArrayDecoder suffixes_;
  std::string last_value_;  // the previous batch's last value, which prefixes refer to
  size_t values_read_ = 0;
};

/// BYTE_STREAM_SPLIT: `num_values` values of `width` bytes (any width >= 1, e.g. 2/4/8/16 for
/// FLOAT16/FLOAT/DOUBLE/FLBA), written into `out` (num_values*width bytes) little-endian/
/// interleaved back. The page's streams are `size / width` bytes long (size must be a
/// multiple of width); num_values may be fewer than the page holds.
void DecodeByteStreamSplit(const uint8_t* data, size_t size, int width, size_t num_values,
                           uint8_t* out);
/// Like DecodeByteStreamSplit, for values first..first+num_values-1 of the page (batches).
void DecodeByteStreamSplitRange(const uint8_t* data, size_t size, int width, size_t first,
                                size_t num_values, uint8_t* out);

/// PLAIN BYTE_ARRAY: each value is a 4-byte LE length + bytes; refs point into data.
/// Returns bytes consumed; throws on truncation.
size_t DecodePlainByteArray(const uint8_t* data, size_t size, size_t n, StringRef* out);

/// PLAIN BOOLEAN: bit-packed LSB first, starting at bit `bit_offset`; out gets 0/1 bytes.
void DecodePlainBoolean(const uint8_t* data, size_t size, size_t bit_offset, size_t n,
                        uint8_t* out);

}  // namespace shears::parquet

#include "storage/parquet/encoding.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <utility>

#include "common/error.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace shears::parquet {

// Parquet is little-endian on disk; the unpackers load it straight into registers.
static_assert(std::endian::native == std::endian::little, "shears assumes a little-endian host");

namespace {

inline uint64_t Load64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

inline uint32_t Load32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

/// Reads a ULEB128 varint that must fit in UInt, advancing *pos.
template <typename UInt>
UInt ReadUleb(const uint8_t* data, size_t size, size_t* pos, const char* what) {
  constexpr int kBits = sizeof(UInt) * 8;
  constexpr int kMaxBytes = (kBits + 6) / 7;
  UInt result = 0;
  for (int i = 0; i < kMaxBytes; i++) {
    if (*pos >= size) {
      throw CorruptFileError("{} is truncated: the data ends inside its varint", what);
    }
    uint8_t byte = data[(*pos)++];
    // The last byte may only carry the bits that are left, and no continuation bit.
    if (i == kMaxBytes - 1 && (byte >> (kBits - 7 * i)) != 0) {
      throw CorruptFileError("{} varint does not fit in {} bits", what, kBits);
    }
    result |= static_cast<UInt>(byte & 0x7F) << (7 * i);
    if ((byte & 0x80) == 0) return result;
  }
  return result;  // unreachable: the last byte either ends the varint or throws
}

template <typename UInt>
UInt ZigZagDecode(UInt v) {
  return (v >> 1) ^ (UInt{0} - (v & 1));
}

// ---- bit unpacking ------------------------------------------------------------------------
//
// Values come in groups of 8, which occupy exactly W bytes at W bits per value. Each value is
// extracted with one unaligned 64-bit load at a compile-time offset, shift and mask, so a group
// is branch-free straight-line code per bit width. Loads may read up to kReadBytes past the
// group start; groups too close to the end of the buffer are copied to a zero-padded scratch
// first, which also makes a truncated last group decode as if padded with zero bits.

template <int W>
constexpr size_t kReadBytes = W == 0 ? 0 : (7 * W) / 8 + 8 + (W > 56 ? 1 : 0);

template <int W>
constexpr uint64_t kMask = W == 64 ? ~uint64_t{0} : (uint64_t{1} << W) - 1;

/// Value I of an LSB-first group (the RLE hybrid and DELTA_BINARY_PACKED bit order).
template <int W, size_t I>
inline uint64_t ExtractLsb(const uint8_t* in) {
  constexpr size_t kBit = I * W;
  constexpr size_t kByte = kBit / 8;
  constexpr int kShift = kBit % 8;
  uint64_t v = Load64(in + kByte) >> kShift;
  if constexpr (kShift + W > 64) v |= uint64_t{in[kByte + 8]} << (64 - kShift);
  return v & kMask<W>;
}

/// Value I of an MSB-first group (the deprecated BIT_PACKED order).
template <int W, size_t I>
inline uint64_t ExtractMsb(const uint8_t* in) {
  constexpr size_t kBit = I * W;
  constexpr size_t kByte = kBit / 8;
  constexpr int kShift = kBit % 8;
  static_assert(kShift + W <= 64);
  uint64_t word = __builtin_bswap64(Load64(in + kByte));
  return (word >> (64 - kShift - W)) & kMask<W>;
}

template <typename Out, int W, bool kMsbFirst>
inline void UnpackGroup(const uint8_t* in, Out* out) {
  if constexpr (!kMsbFirst && W == 8 * sizeof(Out)) {
    std::memcpy(out, in, 8 * sizeof(Out));
  } else if constexpr (!kMsbFirst && W == 8) {
    for (int i = 0; i < 8; i++)
      out[i] = in[i];
  } else {
    [&]<size_t... I>(std::index_sequence<I...>) {
      if constexpr (kMsbFirst) {
        ((out[I] = static_cast<Out>(ExtractMsb<W, I>(in))), ...);
      } else {
        ((out[I] = static_cast<Out>(ExtractLsb<W, I>(in))), ...);
      }
    }
    (std::make_index_sequence<8>{});
  }
}

/// Calls fn(g, bytes) for `groups` consecutive groups of W bytes starting at `in`, of which
/// only `avail` bytes may be read: groups too close to that end get a zero-padded scratch
/// copy, so missing bytes of a truncated last group count as zero bits.
template <int W, typename Fn>
inline void ForEachGroup(const uint8_t* in, size_t avail, size_t groups, Fn&& fn) {
  constexpr size_t kRead = std::max<size_t>(kReadBytes<W>, W);
  size_t g = 0;
  if (avail >= kRead) {
    size_t direct = std::min(groups, (avail - kRead) / W + 1);
    for (; g < direct; g++)
      fn(g, in + g * W);
  }
  for (; g < groups; g++) {
    uint8_t scratch[kRead] = {};
    size_t offset = g * W;
    if (offset < avail) std::memcpy(scratch, in + offset, std::min<size_t>(W, avail - offset));
    fn(g, static_cast<const uint8_t*>(scratch));
  }
}

/// Unpacks `groups` groups of 8 W-bit values starting at `in` (reading at most `avail`).
template <typename Out, int W, bool kMsbFirst>
void UnpackGroups(const uint8_t* in, size_t avail, size_t groups, Out* out) {
  if constexpr (W == 0) {
    std::fill_n(out, groups * 8, Out{0});
  } else {
    ForEachGroup<W>(in, avail, groups, [out](size_t g, const uint8_t* bytes) {
      UnpackGroup<Out, W, kMsbFirst>(bytes, out + g * 8);
    });
  }
}

/// DELTA_BINARY_PACKED miniblock data: unpacks `groups` groups of W-bit relative deltas and
/// writes the values they lead to, v = last + min_delta + delta (wrapping); returns the last.
/// Fused so each group's deltas stay in registers instead of being stored and reloaded.
template <typename U, int W>
U DecodeDeltaGroups(const uint8_t* in, size_t avail, size_t groups, U* out, U min_delta, U last) {
  if constexpr (W == 0) {
    for (size_t i = 0; i < groups * 8; i++) {
      last += min_delta;
      out[i] = last;
    }
  } else {
    ForEachGroup<W>(in, avail, groups, [&](size_t g, const uint8_t* bytes) {
      U deltas[8];
      UnpackGroup<U, W, false>(bytes, deltas);
      for (int i = 0; i < 8; i++) {
        last += min_delta + deltas[i];
        out[g * 8 + i] = last;
      }
    });
  }
  return last;
}

template <typename Out>
using UnpackFn = void (*)(const uint8_t* in, size_t avail, size_t groups, Out* out);

template <typename Out, bool kMsbFirst, int... W>
constexpr std::array<UnpackFn<Out>, sizeof...(W)> MakeUnpackTable(
    std::integer_sequence<int, W...>) {
  return {&UnpackGroups<Out, W, kMsbFirst>...};
}

// Indexed by bit width.
constexpr auto kUnpackLsb32 =
    MakeUnpackTable<uint32_t, false>(std::make_integer_sequence<int, 33>{});
constexpr auto kUnpackLsb64 =
    MakeUnpackTable<uint64_t, false>(std::make_integer_sequence<int, 65>{});
constexpr auto kUnpackMsb32 =
    MakeUnpackTable<uint32_t, true>(std::make_integer_sequence<int, 33>{});

template <typename U>
using DeltaFn = U (*)(const uint8_t* in, size_t avail, size_t groups, U* out, U min_delta, U last);

template <typename U, int... W>
constexpr std::array<DeltaFn<U>, sizeof...(W)> MakeDeltaTable(std::integer_sequence<int, W...>) {
  return {&DecodeDeltaGroups<U, W>...};
}

constexpr auto kDeltaDecode32 = MakeDeltaTable<uint32_t>(std::make_integer_sequence<int, 33>{});
constexpr auto kDeltaDecode64 = MakeDeltaTable<uint64_t>(std::make_integer_sequence<int, 65>{});

/// The delta decoder for `width` bits (<= the bits of U; the clamp only informs the compiler).
template <typename U>
DeltaFn<U> DeltaDecoderFor(int width) {
  if constexpr (sizeof(U) == 4) {
    return kDeltaDecode32[std::clamp(width, 0, 32)];
  } else {
    return kDeltaDecode64[std::clamp(width, 0, 64)];
  }
}

/// The unpacker for `width` bits (callers have checked it; the clamp only keeps the
/// compiler's bounds analysis quiet).
template <typename U>
UnpackFn<U> LsbUnpacker(int width) {
  if constexpr (sizeof(U) == 4) {
    return kUnpackLsb32[std::clamp(width, 0, 32)];
  } else {
    return kUnpackLsb64[std::clamp(width, 0, 64)];
  }
}

}  // namespace

int BitWidthForMaxValue(uint32_t max_value) {
  return std::bit_width(max_value);
}

// ---- RLE / bit-packed hybrid --------------------------------------------------------------

RleBitPackedDecoder::RleBitPackedDecoder(const uint8_t* data, size_t size, int bit_width,
                                         size_t max_values)
    : data_(data), size_(size), bit_width_(bit_width), values_left_(max_values) {
  if (bit_width < 0 || bit_width > 32) {
    throw CorruptFileError("bit width {} is invalid for RLE/bit-packed data (must be 0..32)",
                           bit_width);
  }
}

bool RleBitPackedDecoder::NextRun() {
  if (pos_ >= size_) return false;
  uint32_t header = ReadUleb<uint32_t>(data_, size_, &pos_, "RLE/bit-packed run header");
  if (header & 1) {
    size_t groups = header >> 1;
    size_t count = groups * 8;
    if (groups == 0) throw CorruptFileError("bit-packed run of 0 values is invalid");
    if (values_left_ != kNoLimit) {
      // The last group may be padded, so a run may end up to 7 values past the page's end.
      if (count - 7 > values_left_) {
        throw CorruptFileError("bit-packed run of {} values exceeds the {} values left in the page",
                               count, values_left_);
      }
      values_left_ -= std::min(count, values_left_);
    }
    size_t bytes = groups * static_cast<size_t>(bit_width_);
    size_t avail = size_ - pos_;
    literal_ = true;
    literal_pos_ = pos_;
    if (bytes <= avail) {
      run_left_ = count;
      pos_ += bytes;
    } else {
      // Truncated run: keep the values whose bits are all present; the data ends here.
      run_left_ = avail * 8 / static_cast<size_t>(bit_width_);
      pos_ = size_;
    }
  } else {
    size_t count = header >> 1;
    if (count == 0) throw CorruptFileError("RLE run of 0 values is invalid");
    if (values_left_ != kNoLimit) {
      if (count > values_left_) {
        throw CorruptFileError("RLE run of {} values exceeds the {} values left in the page", count,
                               values_left_);
      }
      values_left_ -= count;
    }
    size_t value_bytes = (static_cast<size_t>(bit_width_) + 7) / 8;
    if (size_ - pos_ < value_bytes) {
      throw CorruptFileError("RLE run value needs {} bytes but only {} remain", value_bytes,
                             size_ - pos_);
    }
    uint32_t value = 0;
    for (size_t i = 0; i < value_bytes; i++)
      value |= uint32_t{data_[pos_ + i]} << (8 * i);
    pos_ += value_bytes;
    if (bit_width_ < 32 && (value >> bit_width_) != 0) {
      throw CorruptFileError("RLE run value {} does not fit in bit width {}", value, bit_width_);
    }
    literal_ = false;
    rle_value_ = value;
    run_left_ = count;
  }
  return true;
}

template <typename Out>
size_t RleBitPackedDecoder::Decode(Out* out, size_t n) {
  if (bit_width_ == 0) {
    // Every value is 0; the run structure carries no information, so it is not parsed.
    n = std::min(n, values_left_);
    if (values_left_ != kNoLimit) values_left_ -= n;
    std::fill_n(out, n, Out{0});
    return n;
  }
  const UnpackFn<uint32_t> unpack = kUnpackLsb32[bit_width_];
  // Bytes are unpacked through a small 32-bit buffer, a few groups at a time.
  constexpr bool kNarrow = sizeof(Out) < sizeof(uint32_t);
  constexpr size_t kChunkGroups = 16;
  uint32_t buffer[kNarrow ? kChunkGroups * 8 : 1];
  size_t done = 0;
  while (done < n) {
    if (pending_pos_ < pending_len_) {
      size_t k = std::min<size_t>(n - done, pending_len_ - pending_pos_);
      for (size_t i = 0; i < k; i++)
        out[done + i] = static_cast<Out>(pending_[pending_pos_ + i]);
      pending_pos_ += k;
      done += k;
      continue;
    }
    if (run_left_ == 0 && !NextRun()) break;
    size_t want = n - done;
    if (!literal_) {
      size_t k = std::min(want, run_left_);
      std::fill_n(out + done, k, static_cast<Out>(rle_value_));
      run_left_ -= k;
      done += k;
      continue;
    }
    size_t groups = std::min(want, run_left_) / 8;
    if (kNarrow) groups = std::min(groups, kChunkGroups);
    if (groups > 0) {
      if constexpr (kNarrow) {
        unpack(data_ + literal_pos_, size_ - literal_pos_, groups, buffer);
        for (size_t i = 0; i < groups * 8; i++)
          out[done + i] = static_cast<Out>(buffer[i]);
      } else {
        unpack(data_ + literal_pos_, size_ - literal_pos_, groups, out + done);
      }
      literal_pos_ += groups * bit_width_;
      run_left_ -= groups * 8;
      done += groups * 8;
    } else {
      // Fewer than 8 values wanted or left in the run: unpack one group and hand it out.
      unpack(data_ + literal_pos_, size_ - literal_pos_, 1, pending_);
      pending_len_ = static_cast<uint8_t>(std::min<size_t>(8, run_left_));
      pending_pos_ = 0;
      run_left_ -= pending_len_;
      literal_pos_ += bit_width_;
    }
  }
  return done;
}

size_t RleBitPackedDecoder::GetBatch(uint32_t* out, size_t n) {
  return Decode(out, n);
}

size_t RleBitPackedDecoder::GetBatch(uint8_t* out, size_t n) {
  if (bit_width_ > 8) throw InternalError("byte-wide RLE decoding of {}-bit values", bit_width_);
  return Decode(out, n);
}

size_t RleBitPackedDecoder::GetBatchBounded(uint32_t* out, size_t n, uint32_t bound) {
  size_t count = GetBatch(out, n);
  // Skip the scan when no value of this bit width can reach the bound.
  bool may_exceed = bound == 0 || bit_width_ >= 32 || (uint64_t{1} << bit_width_) > bound;
  if (!may_exceed || count == 0) return count;
  uint32_t max = 0;
  for (size_t i = 0; i < count; i++)
    max = std::max(max, out[i]);
  if (max >= bound) {
    size_t i = 0;
    while (out[i] < bound)
      i++;
    throw CorruptFileError("dictionary index {} is out of range for a dictionary of {} entries",
                           out[i], bound);
  }
  return count;
}

RleBitPackedDecoder MakeLengthPrefixedRleDecoder(const uint8_t* data, size_t size, int bit_width,
                                                 size_t* consumed, size_t max_values) {
  if (size < 4) {
    throw CorruptFileError("RLE length prefix needs 4 bytes but only {} remain", size);
  }
  uint32_t length = Load32(data);
  if (length > size - 4) {
    throw CorruptFileError("RLE data length {} exceeds the {} bytes left after its prefix", length,
                           size - 4);
  }
  RleBitPackedDecoder decoder(data + 4, length, bit_width, max_values);
  *consumed = 4 + size_t{length};
  return decoder;
}

RleBitPackedDecoder MakeDictionaryIndexDecoder(const uint8_t* data, size_t size,
                                               size_t max_values) {
  if (size < 1) throw CorruptFileError("dictionary index data is empty (no bit width byte)");
  int bit_width = data[0];
  if (bit_width > 32) {
    throw CorruptFileError("bit width {} is invalid for dictionary indexes (must be 0..32)",
                           bit_width);
  }
  return RleBitPackedDecoder(data + 1, size - 1, bit_width, max_values);
}

// ---- deprecated BIT_PACKED ----------------------------------------------------------------

namespace {
void CheckLegacyBitWidth(int bit_width) {
  if (bit_width < 0 || bit_width > 32) {
    throw CorruptFileError("bit width {} is invalid for BIT_PACKED levels (must be 0..32)",
                           bit_width);
  }
}
}  // namespace

size_t LegacyBitPackedSize(size_t n, int bit_width) {
  CheckLegacyBitWidth(bit_width);
  size_t w = static_cast<size_t>(bit_width);
  return n / 8 * w + (n % 8 * w + 7) / 8;
}

size_t DecodeLegacyBitPacked(const uint8_t* data, size_t size, int bit_width, uint32_t* out,
                             size_t n) {
  CheckLegacyBitWidth(bit_width);
  if (bit_width == 0) {
    std::fill_n(out, n, 0u);
    return n;
  }
  size_t w = static_cast<size_t>(bit_width);
  size_t present = size / w * 8 + size % w * 8 / w;  // floor(size * 8 / w) without overflow
  size_t count = std::min(n, present);
  size_t groups = count / 8;
  const UnpackFn<uint32_t> unpack = kUnpackMsb32[bit_width];
  unpack(data, size, groups, out);
  if (size_t rest = count % 8; rest > 0) {
    uint32_t group[8];
    unpack(data + groups * w, size - groups * w, 1, group);
    std::memcpy(out + groups * 8, group, rest * sizeof(uint32_t));
  }
  return count;
}

// ---- DELTA_BINARY_PACKED ------------------------------------------------------------------

namespace {

/// Turns relative deltas into values in place: v[i] = v[i-1] + min_delta + d[i], starting
/// from `last`; returns the last value.
template <typename U>
U AddDeltas(U* values, size_t n, U min_delta, U last) {
  for (size_t i = 0; i < n; i++) {
    last += min_delta + values[i];
    values[i] = last;
  }
  return last;
}

}  // namespace

template <typename T>
DeltaBinaryPackedDecoder<T>::DeltaBinaryPackedDecoder(const uint8_t* data, size_t size)
    : data_(data), size_(size) {
  size_t pos = 0;
  uint32_t block_size = ReadUleb<uint32_t>(data, size, &pos, "DELTA_BINARY_PACKED block size");
  uint32_t miniblocks = ReadUleb<uint32_t>(data, size, &pos, "DELTA_BINARY_PACKED miniblock count");
  uint32_t total = ReadUleb<uint32_t>(data, size, &pos, "DELTA_BINARY_PACKED value count");
  U first = ReadUleb<U>(data, size, &pos, "DELTA_BINARY_PACKED first value");
  if (block_size == 0 || block_size % 128 != 0) {
    throw CorruptFileError("DELTA_BINARY_PACKED block size {} is not a positive multiple of 128",
                           block_size);
  }
  if (miniblocks == 0 || block_size % miniblocks != 0 || (block_size / miniblocks) % 32 != 0) {
    throw CorruptFileError(
        "DELTA_BINARY_PACKED block of {} values cannot have {} miniblocks (each must hold a "
        "multiple of 32 values)",
        block_size, miniblocks);
  }
  block_size_ = block_size;
  miniblocks_ = miniblocks;
  values_per_miniblock_ = block_size / miniblocks;
  total_values_ = total;
  last_ = ZigZagDecode(first);
  if (total > 1) {
    // Each block costs at least its min delta and bit width bytes, which bounds how many
    // values the remaining bytes can describe (bit width 0 makes values themselves free).
    size_t blocks = (size_t{total} - 2) / block_size_ + 1;
    size_t max_blocks = (size - pos) / (1 + miniblocks_);
    if (blocks > max_blocks) {
      throw CorruptFileError(
          "DELTA_BINARY_PACKED header claims {} values but the {} bytes that follow hold at "
          "most {}",
          total, size - pos, max_blocks * block_size_ + 1);
    }
  }
  cursor_.pos = pos;
  cursor_.mb_index = miniblocks_;  // the first delta starts a new block
  cursor_.accounted = std::min<size_t>(total, 1);
}

template <typename T>
void DeltaBinaryPackedDecoder<T>::NextMiniblock(Cursor& c) const {
  if (c.mb_index == miniblocks_) {
    // Writers (DuckDB among them) encode an INT32 column's min delta as a 64-bit zigzag
    // varint; deltas wrap modulo 2^32 anyway, so decode wide and truncate.
    c.min_delta = static_cast<U>(
        ZigZagDecode(ReadUleb<uint64_t>(data_, size_, &c.pos, "DELTA_BINARY_PACKED min delta")));
    if (size_ - c.pos < miniblocks_) {
      throw CorruptFileError(
          "DELTA_BINARY_PACKED block header is truncated: {} miniblock bit widths but only {} "
          "bytes remain",
          miniblocks_, size_ - c.pos);
    }
    c.widths = c.pos;
    c.pos += miniblocks_;
    c.mb_index = 0;
  }
  int width = data_[c.widths + c.mb_index];
  c.mb_index++;
  // INT32 deltas may need 33 bits (DuckDB computes them in 64 bits); they wrap modulo 2^32,
  // so widths up to 64 are decoded wide and truncated.
  if (width > 64) {
    throw CorruptFileError("DELTA_BINARY_PACKED miniblock bit width {} exceeds 64 bits", width);
  }
  size_t bytes = values_per_miniblock_ / 8 * static_cast<size_t>(width);
  if (bytes > size_ - c.pos) {
    throw CorruptFileError(
        "DELTA_BINARY_PACKED miniblock of {} bytes is truncated: only {} bytes remain", bytes,
        size_ - c.pos);
  }
  c.mb_data = c.pos;
  c.pos += bytes;
  c.mb_width = width;
  c.mb_left = values_per_miniblock_;
}

template <typename T>
size_t DeltaBinaryPackedDecoder<T>::GetBatch(T* out, size_t n) {
  n = std::min(n, total_values_ - values_read_);
  if (n == 0) return 0;
  // Signed and unsigned variants of a type may alias; unsigned arithmetic wraps as required.
  U* uout = reinterpret_cast<U*>(out);
  U last = last_;
  size_t done = 0;
  if (values_read_ == 0) uout[done++] = last;
  while (done < n) {
    if (buffer_pos_ < buffer_len_) {
      size_t k = std::min<size_t>(n - done, buffer_len_ - buffer_pos_);
      const U min_delta = cursor_.min_delta;
      for (size_t i = 0; i < k; i++) {
        last += min_delta + buffer_[buffer_pos_ + i];
        uout[done + i] = last;
      }
      buffer_pos_ += k;
      done += k;
      continue;
    }
    if (cursor_.mb_left == 0) NextMiniblock(cursor_);
    const size_t groups = std::min(n - done, cursor_.mb_left) / 8;
    const size_t unpacked = groups > 0 ? groups * 8 : 8;
    const int width = cursor_.mb_width;
    const uint8_t* in = data_ + cursor_.mb_data;
    const size_t avail = size_ - cursor_.mb_data;
    if (width > kTypeBits) [[unlikely]] {
      // INT32 deltas computed in 64 bits (see the class comment): unpack wide, keep the low
      // 32 bits, which is all that matters modulo 2^32.
      U* target = groups > 0 ? uout + done : buffer_;
      const UnpackFn<uint64_t> wide = LsbUnpacker<uint64_t>(width);
      for (size_t g = 0; g < unpacked / 8; g++) {
        uint64_t group[8];
        wide(in + g * width, avail - g * width, 1, group);
        for (int i = 0; i < 8; i++)
          target[g * 8 + i] = static_cast<U>(group[i]);
      }
      if (groups > 0) {
        last = AddDeltas(uout + done, unpacked, cursor_.min_delta, last);
        done += unpacked;
      } else {
        buffer_pos_ = 0;
        buffer_len_ = 8;
      }
    } else if (groups > 0) {
      last = DeltaDecoderFor<U>(width)(in, avail, groups, uout + done, cursor_.min_delta, last);
      done += unpacked;
    } else {
      // Fewer than 8 values wanted: unpack one group and hand it out over several calls.
      LsbUnpacker<U>(width)(in, avail, 1, buffer_);
      buffer_pos_ = 0;
      buffer_len_ = 8;
    }
    cursor_.mb_data += unpacked / 8 * static_cast<size_t>(cursor_.mb_width);
    cursor_.mb_left -= unpacked;
    cursor_.accounted = std::min(total_values_, cursor_.accounted + unpacked);
  }
  last_ = last;
  values_read_ += n;
  return n;
}

template <typename T>
size_t DeltaBinaryPackedDecoder<T>::bytes_consumed() {
  if (!end_known_) {
    // Walk a copy of the cursor over the remaining miniblocks without unpacking them.
    Cursor c = cursor_;
    size_t remaining = total_values_ - c.accounted;
    while (remaining > 0) {
      if (c.mb_left == 0) NextMiniblock(c);
      size_t k = std::min(c.mb_left, remaining);
      c.mb_left -= k;
      remaining -= k;
    }
    end_pos_ = c.pos;
    end_known_ = true;
  }
  return end_pos_;
}

template class DeltaBinaryPackedDecoder<int32_t>;
template class DeltaBinaryPackedDecoder<int64_t>;

// ---- DELTA_LENGTH_BYTE_ARRAY --------------------------------------------------------------

namespace {
// Lengths and prefix lengths are decoded in chunks of this many values on the stack.
constexpr size_t kLengthChunk = 256;
}  // namespace

DeltaLengthByteArrayDecoder::DeltaLengthByteArrayDecoder(const uint8_t* data, size_t size)
    : lengths_(data, size) {
  size_t offset = lengths_.bytes_consumed();
  bytes_ = data + offset;
  bytes_size_ = size - offset;
}

size_t DeltaLengthByteArrayDecoder::GetBatch(StringRef* out, size_t n) {
  int32_t lengths[kLengthChunk];
  // Locals, not members, in the loop: stores to `out` could otherwise alias them.
  const char* bytes = reinterpret_cast<const char*>(bytes_);
  const size_t size = bytes_size_;
  size_t pos = bytes_pos_;
  size_t done = 0;
  while (done < n) {
    size_t k = lengths_.GetBatch(lengths, std::min(n - done, kLengthChunk));
    if (k == 0) break;
    for (size_t i = 0; i < k; i++) {
      // A negative length becomes huge as unsigned and fails the same check.
      uint32_t length = static_cast<uint32_t>(lengths[i]);
      if (length > size - pos) [[unlikely]] {
        ThrowBadLength(values_read_ + done + i, lengths[i], size - pos);
      }
      out[done + i] = StringRef(bytes + pos, length);
      pos += length;
    }
    done += k;
  }
  bytes_pos_ = pos;
  values_read_ += done;
  return done;
}

void DeltaLengthByteArrayDecoder::ThrowBadLength(size_t index, int32_t length, size_t left) {
  if (length < 0) {
    throw CorruptFileError("DELTA_LENGTH_BYTE_ARRAY value {} has negative length {}", index,
                           length);
  }
  throw CorruptFileError(
      "DELTA_LENGTH_BYTE_ARRAY value {} has length {} but only {} bytes of string data remain",
      index, length, left);
}

// ---- DELTA_BYTE_ARRAY ---------------------------------------------------------------------

DeltaByteArrayDecoder::DeltaByteArrayDecoder(const uint8_t* data, size_t size)
    : prefixes_(data, size) {
  size_t offset = prefixes_.bytes_consumed();
  suffixes_ = DeltaLengthByteArrayDecoder(data + offset, size - offset);
  if (suffixes_.total_values() != prefixes_.total_values()) {
    throw CorruptFileError("DELTA_BYTE_ARRAY has {} prefix lengths but {} suffixes",
                           prefixes_.total_values(), suffixes_.total_values());
  }
}

namespace {

/// memcpy for the short strings typical here, without a library call for up to 16 bytes.
inline void CopyBytes(char* dst, const char* src, size_t n) {
  if (n >= 8 && n <= 16) {
    uint64_t head, tail;
    std::memcpy(&head, src, 8);
    std::memcpy(&tail, src + n - 8, 8);
    std::memcpy(dst, &head, 8);
    std::memcpy(dst + n - 8, &tail, 8);
  } else if (n >= 4 && n < 8) {
    uint32_t head, tail;
    std::memcpy(&head, src, 4);
    std::memcpy(&tail, src + n - 4, 4);
    std::memcpy(dst, &head, 4);
    std::memcpy(dst + n - 4, &tail, 4);
  } else if (n < 4) {
    for (size_t i = 0; i < n; i++)
      dst[i] = src[i];
  } else {
    std::memcpy(dst, src, n);
  }
}

}  // namespace

size_t DeltaByteArrayDecoder::GetBatch(StringRef* out, size_t n, StringHeap& heap) {
  static const char kEmpty[] = "";
  int32_t prefixes[kLengthChunk];
  size_t done = 0;
  while (done < n) {
    size_t k = prefixes_.GetBatch(prefixes, std::min(n - done, kLengthChunk));
    if (k == 0) break;
    // Suffixes go straight into `out`, then each value is rebuilt in place.
    if (suffixes_.GetBatch(out + done, k) != k) {
      throw CorruptFileError("DELTA_BYTE_ARRAY ran out of suffixes");
    }
    // First pass: check the prefix lengths and size one heap allocation for the chunk.
    size_t prev_len = done == 0 ? last_value_.size() : out[done - 1].len;
    size_t total = 0;
    for (size_t i = 0; i < k; i++) {
      int32_t prefix = prefixes[i];
      size_t suffix_len = out[done + i].len;
      if (prefix < 0 || static_cast<size_t>(prefix) > prev_len) [[unlikely]] {
        throw CorruptFileError(
            "DELTA_BYTE_ARRAY value {} has prefix length {} but the previous value has {} bytes",
            values_read_ + done + i, prefix, prev_len);
      }
      size_t length = static_cast<size_t>(prefix) + suffix_len;
      if (length > UINT32_MAX) [[unlikely]] {
        throw CorruptFileError("DELTA_BYTE_ARRAY value {} is {} bytes long (over 4 GiB)",
                               values_read_ + done + i, length);
      }
      // A value with an empty suffix is a prefix of the previous one and shares its bytes,
      // except the chunk's first value when the previous one is last_value_ (ours).
      if (suffix_len != 0 || (done + i == 0 && length != 0)) total += length;
      prev_len = length;
    }
    // Second pass: build the values.
    char* dst = total > 0 ? heap.Allocate(total) : nullptr;
    for (size_t i = 0; i < k; i++) {
      size_t index = done + i;
      StringRef suffix = out[index];
      const char* prev = index == 0 ? last_value_.data() : out[index - 1].ptr;
      size_t p = static_cast<size_t>(prefixes[i]);
      size_t length = p + suffix.len;
      if (length == 0) {
        out[index] = StringRef(kEmpty, 0);
      } else if (suffix.len == 0 && index > 0) {
        out[index] = StringRef(prev, static_cast<uint32_t>(length));
      } else {
        CopyBytes(dst, prev, p);
        CopyBytes(dst + p, suffix.ptr, suffix.len);
        out[index] = StringRef(dst, static_cast<uint32_t>(length));
        dst += length;
      }
    }
    done += k;
  }
  // The next batch's first value may share a prefix with this one, whose heap may be gone.
  if (done > 0) last_value_.assign(out[done - 1].ptr, out[done - 1].len);
  values_read_ += done;
  return done;
}

// ---- BYTE_STREAM_SPLIT --------------------------------------------------------------------

namespace {

// Interleaves `n` values of W bytes from W streams `stride` bytes apart.
template <int W>
void ByteStreamSplitFixed(const uint8_t* src, size_t stride, size_t n, uint8_t* out) {
  size_t i = 0;
#if defined(__SSE2__)
  auto load = [&](int stream) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + stream * stride + i));
  };
  auto store = [&](size_t offset, __m128i v) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i * W + offset), v);
  };
  if constexpr (W == 2) {
    for (; i + 16 <= n; i += 16) {
      __m128i a = load(0), b = load(1);
      store(0, _mm_unpacklo_epi8(a, b));
      store(16, _mm_unpackhi_epi8(a, b));
    }
  } else if constexpr (W == 4) {
    for (; i + 16 <= n; i += 16) {
      __m128i a = load(0), b = load(1), c = load(2), d = load(3);
      __m128i ab_lo = _mm_unpacklo_epi8(a, b), ab_hi = _mm_unpackhi_epi8(a, b);
      __m128i cd_lo = _mm_unpacklo_epi8(c, d), cd_hi = _mm_unpackhi_epi8(c, d);
      store(0, _mm_unpacklo_epi16(ab_lo, cd_lo));
      store(16, _mm_unpackhi_epi16(ab_lo, cd_lo));
      store(32, _mm_unpacklo_epi16(ab_hi, cd_hi));
      store(48, _mm_unpackhi_epi16(ab_hi, cd_hi));
    }
  } else if constexpr (W == 8) {
    for (; i + 16 <= n; i += 16) {
      __m128i x[8];
      for (int s = 0; s < 8; s++)
        x[s] = load(s);
      // Bytes of stream pairs, then 4-byte halves of values, then whole values.
      __m128i p[8];
      for (int s = 0; s < 4; s++) {
        p[2 * s] = _mm_unpacklo_epi8(x[2 * s], x[2 * s + 1]);
        p[2 * s + 1] = _mm_unpackhi_epi8(x[2 * s], x[2 * s + 1]);
      }
      __m128i lo[4], hi[4];  // bytes 0-3 and 4-7 of values 4j..4j+3
      lo[0] = _mm_unpacklo_epi16(p[0], p[2]);
      lo[1] = _mm_unpackhi_epi16(p[0], p[2]);
      lo[2] = _mm_unpacklo_epi16(p[1], p[3]);
      lo[3] = _mm_unpackhi_epi16(p[1], p[3]);
      hi[0] = _mm_unpacklo_epi16(p[4], p[6]);
      hi[1] = _mm_unpackhi_epi16(p[4], p[6]);
      hi[2] = _mm_unpacklo_epi16(p[5], p[7]);
      hi[3] = _mm_unpackhi_epi16(p[5], p[7]);
      for (int j = 0; j < 4; j++) {
        store(32 * j, _mm_unpacklo_epi32(lo[j], hi[j]));
        store(32 * j + 16, _mm_unpackhi_epi32(lo[j], hi[j]));
      }
    }
  }
#endif
  for (; i < n; i++) {
    for (int k = 0; k < W; k++)
      out[i * W + k] = src[k * stride + i];
  }
}

void ByteStreamSplitGeneric(const uint8_t* src, size_t stride, size_t width, size_t n,
                            uint8_t* out) {
  // Blocks keep the strided writes within a cache-resident window of the output.
  constexpr size_t kBlock = 256;
  for (size_t start = 0; start < n; start += kBlock) {
    size_t end = std::min(n, start + kBlock);
    for (size_t k = 0; k < width; k++) {
      const uint8_t* stream = src + k * stride;
      for (size_t i = start; i < end; i++)
        out[i * width + k] = stream[i];
    }
  }
}

}  // namespace

void DecodeByteStreamSplitRange(const uint8_t* data, size_t size, int width, size_t first,
                                size_t num_values, uint8_t* out) {
  if (width < 1) throw CorruptFileError("BYTE_STREAM_SPLIT value width {} is invalid", width);
  size_t w = static_cast<size_t>(width);
  if (size % w != 0) {
    throw CorruptFileError(
        "BYTE_STREAM_SPLIT data of {} bytes is not a multiple of the {}-byte value width", size,
        width);
  }
  size_t stride = size / w;
  if (first > stride || num_values > stride - first) {
    throw CorruptFileError(
        "BYTE_STREAM_SPLIT page holds {} values but {} values starting at {} were requested",
        stride, num_values, first);
  }
  if (num_values == 0) return;
  const uint8_t* src = data + first;
  switch (width) {
    case 1:
      std::memcpy(out, src, num_values);
      break;
    case 2:
      ByteStreamSplitFixed<2>(src, stride, num_values, out);
      break;
    case 4:
      ByteStreamSplitFixed<4>(src, stride, num_values, out);
      break;
    case 8:
      ByteStreamSplitFixed<8>(src, stride, num_values, out);
      break;
    default:
      ByteStreamSplitGeneric(src, stride, w, num_values, out);
      break;
  }
}

void DecodeByteStreamSplit(const uint8_t* data, size_t size, int width, size_t num_values,
                           uint8_t* out) {
  DecodeByteStreamSplitRange(data, size, width, 0, num_values, out);
}

// ---- PLAIN --------------------------------------------------------------------------------

size_t DecodePlainByteArray(const uint8_t* data, size_t size, size_t n, StringRef* out) {
  size_t pos = 0;
  for (size_t i = 0; i < n; i++) {
    if (size - pos < 4) {
      throw CorruptFileError(
          "PLAIN BYTE_ARRAY value {} is truncated: its length needs 4 bytes but only {} remain", i,
          size - pos);
    }
    uint32_t length = Load32(data + pos);
    pos += 4;
    if (length > size - pos) {
      throw CorruptFileError("PLAIN BYTE_ARRAY value {} has length {} but only {} bytes remain", i,
                             length, size - pos);
    }
    out[i] = StringRef(reinterpret_cast<const char*>(data + pos), length);
    pos += length;
  }
  return pos;
}

namespace {
// The 8 bits of `byte`, LSB first, as 8 bytes of 0/1.
inline uint64_t SpreadBits(uint8_t byte) {
  uint64_t x = byte * 0x0101010101010101ULL;  // the byte in every lane
  x &= 0x8040201008040201ULL;                 // lane k keeps bit k
  // A non-zero lane (at most 0x80) + 0x7F sets the lane's top bit without carrying out.
  return ((x + 0x7F7F7F7F7F7F7F7FULL) & 0x8080808080808080ULL) >> 7;
}
}  // namespace

void DecodePlainBoolean(const uint8_t* data, size_t size, size_t bit_offset, size_t n,
                        uint8_t* out) {
  size_t bits = size > SIZE_MAX / 8 ? SIZE_MAX : size * 8;
  if (bit_offset > bits || n > bits - bit_offset) {
    throw CorruptFileError(
        "PLAIN BOOLEAN data of {} bytes holds {} values after bit {} but {} were requested", size,
        bit_offset > bits ? 0 : bits - bit_offset, bit_offset, n);
  }
  if (n == 0) return;
  const uint8_t* p = data + bit_offset / 8;
  unsigned shift = bit_offset % 8;
  size_t i = 0;
  if (shift != 0) {
    for (; i < n && shift < 8; i++, shift++)
      out[i] = (*p >> shift) & 1;
    p++;
  }
  for (; i + 8 <= n; i += 8) {
    uint64_t spread = SpreadBits(*p++);
    std::memcpy(out + i, &spread, 8);
  }
  for (unsigned bit = 0; i < n; i++, bit++)
    out[i] = (*p >> bit) & 1;
}

}  // namespace shears::parquet

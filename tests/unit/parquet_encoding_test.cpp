// Tests for the Parquet value/level decoders. Each format has a small reference encoder
// below, written bit by bit so that it shares no code or technique with the decoders;
// random data is round-tripped through it at many bit widths, sizes and batch sizes. The
// spec's own examples pin the byte layout, and corrupt inputs (hand-made, truncated at
// every position, random garbage) must fail with CorruptFileError and nothing worse.

#include "storage/parquet/encoding.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "common/error.h"

namespace shears::parquet {
namespace {

using Bytes = std::vector<uint8_t>;

// ---- reference encoders --------------------------------------------------------------------

void PutUleb(Bytes& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<uint8_t>(v) | 0x80);
    v >>= 7;
  }
  out.push_back(static_cast<uint8_t>(v));
}

template <typename T>
uint64_t ZigZag(T v) {
  using U = std::make_unsigned_t<T>;
  U u = (static_cast<U>(v) << 1) ^ static_cast<U>(v < 0 ? ~U{0} : U{0});
  return u;
}

/// Appends values bit by bit, LSB first (RLE hybrid / delta order) or MSB first (BIT_PACKED).
class BitWriter {
 public:
  explicit BitWriter(Bytes& out, bool msb_first = false) : out_(out), msb_first_(msb_first) {}
  void Put(uint64_t value, int width) {
    for (int b = 0; b < width; b++) {
      // MSB-first writes the value's high bit first, into a byte's high bit first.
      int value_bit = msb_first_ ? width - 1 - b : b;
      if (bit_ % 8 == 0) out_.push_back(0);
      int byte_bit = msb_first_ ? 7 - static_cast<int>(bit_ % 8) : static_cast<int>(bit_ % 8);
      if ((value >> value_bit) & 1) out_.back() |= static_cast<uint8_t>(1u << byte_bit);
      bit_++;
    }
  }

 private:
  Bytes& out_;
  bool msb_first_;
  size_t bit_ = 0;
};

/// One run of the RLE hybrid: `count` copies of `value`, or bit-packed `values` (padded with
/// zeros to a multiple of 8).
struct Run {
  bool literal = false;
  uint32_t value = 0;
  size_t count = 0;
  std::vector<uint32_t> values;
};

Run RleRun(uint32_t value, size_t count) {
  return Run{false, value, count, {}};
}
Run LiteralRun(std::vector<uint32_t> values) {
  return Run{true, 0, 0, std::move(values)};
}

Bytes EncodeRuns(const std::vector<Run>& runs, int width) {
  Bytes out;
  for (const Run& run : runs) {
    if (!run.literal) {
      PutUleb(out, uint64_t{run.count} << 1);
      for (int b = 0; b < (width + 7) / 8; b++)
        out.push_back(static_cast<uint8_t>(run.value >> (8 * b)));
    } else {
      size_t groups = (run.values.size() + 7) / 8;
      PutUleb(out, (uint64_t{groups} << 1) | 1);
      Bytes packed;
      BitWriter writer(packed);
      for (size_t i = 0; i < groups * 8; i++) {
        writer.Put(i < run.values.size() ? run.values[i] : 0, width);
      }
      out.insert(out.end(), packed.begin(), packed.end());
    }
  }
  return out;
}

/// Splits values into runs at random: RLE runs of any length over equal values, literal runs
/// of whole groups (only the last may be padded).
std::vector<Run> RandomRuns(const std::vector<uint32_t>& values, std::mt19937_64& rng) {
  std::vector<Run> runs;
  size_t i = 0;
  while (i < values.size()) {
    size_t same = 1;
    while (i + same < values.size() && values[i + same] == values[i])
      same++;
    if (same >= 8 || rng() % 4 == 0) {
      size_t take = rng() % 3 == 0 ? 1 + rng() % same : same;
      runs.push_back(RleRun(values[i], take));
      i += take;
    } else {
      size_t groups = 1 + rng() % 4;
      size_t take = std::min(values.size() - i, groups * 8);
      runs.push_back(LiteralRun({values.begin() + i, values.begin() + i + take}));
      i += take;
    }
  }
  return runs;
}

Bytes EncodeLegacyBitPacked(const std::vector<uint32_t>& values, int width) {
  Bytes out;
  BitWriter writer(out, /*msb_first=*/true);
  for (uint32_t v : values)
    writer.Put(v, width);
  return out;
}

struct DeltaOptions {
  size_t block_size = 128;
  size_t miniblocks = 4;
  bool junk_padding = false;  // random padding bits and unused miniblock widths
};

/// Deltas are computed in `Wide` arithmetic: T itself per the spec, or int64_t for INT32 the
/// way DuckDB writes them (up to 33-bit widths and 64-bit min deltas).
template <typename T, typename Wide = T>
Bytes EncodeDeltaBinaryPacked(const std::vector<T>& values, DeltaOptions opt = {},
                              std::mt19937_64* rng = nullptr) {
  using U = std::make_unsigned_t<Wide>;
  constexpr int kBits = sizeof(Wide) * 8;
  Bytes out;
  PutUleb(out, opt.block_size);
  PutUleb(out, opt.miniblocks);
  PutUleb(out, values.size());
  PutUleb(out, ZigZag<Wide>(values.empty() ? Wide{0} : values[0]));
  std::vector<U> deltas;
  for (size_t i = 1; i < values.size(); i++) {
    deltas.push_back(static_cast<U>(static_cast<U>(static_cast<Wide>(values[i])) -
                                    static_cast<U>(static_cast<Wide>(values[i - 1]))));
  }
  size_t per_miniblock = opt.block_size / opt.miniblocks;
  for (size_t start = 0; start < deltas.size(); start += opt.block_size) {
    size_t count = std::min(opt.block_size, deltas.size() - start);
    Wide min_delta = std::numeric_limits<Wide>::max();
    for (size_t i = 0; i < count; i++) {
      min_delta = std::min(min_delta, static_cast<Wide>(deltas[start + i]));
    }
    PutUleb(out, ZigZag<Wide>(min_delta));
    size_t used = (count + per_miniblock - 1) / per_miniblock;
    std::vector<int> widths(opt.miniblocks, 0);
    for (size_t m = 0; m < opt.miniblocks; m++) {
      if (m >= used) {
        widths[m] = opt.junk_padding ? static_cast<int>((*rng)() % 256) : 0;
        continue;
      }
      U max = 0;
      for (size_t i = m * per_miniblock; i < std::min(count, (m + 1) * per_miniblock); i++) {
        max = std::max<U>(max, static_cast<U>(deltas[start + i] - static_cast<U>(min_delta)));
      }
      int width = 0;
      while (width < kBits && (max >> width) != 0)
        width++;
      widths[m] = width;
    }
    for (int w : widths)
      out.push_back(static_cast<uint8_t>(w));
    for (size_t m = 0; m < used; m++) {
      Bytes packed;
      BitWriter writer(packed);
      for (size_t i = m * per_miniblock; i < (m + 1) * per_miniblock; i++) {
        uint64_t relative = 0;
        if (i < count) {
          relative = static_cast<U>(deltas[start + i] - static_cast<U>(min_delta));
        } else if (opt.junk_padding) {
          relative = (*rng)();
        }
        writer.Put(relative, widths[m]);
      }
      out.insert(out.end(), packed.begin(), packed.end());
    }
  }
  return out;
}

Bytes EncodeDeltaLength(const std::vector<std::string>& values, DeltaOptions opt = {}) {
  std::vector<int32_t> lengths;
  for (const auto& v : values)
    lengths.push_back(static_cast<int32_t>(v.size()));
  Bytes out = EncodeDeltaBinaryPacked(lengths, opt);
  for (const auto& v : values)
    out.insert(out.end(), v.begin(), v.end());
  return out;
}

Bytes EncodeDeltaByteArray(const std::vector<std::string>& values, DeltaOptions opt = {}) {
  std::vector<int32_t> prefixes;
  std::vector<std::string> suffixes;
  std::string prev;
  for (const auto& v : values) {
    size_t p = 0;
    while (p < prev.size() && p < v.size() && prev[p] == v[p])
      p++;
    prefixes.push_back(static_cast<int32_t>(p));
    suffixes.push_back(v.substr(p));
    prev = v;
  }
  Bytes out = EncodeDeltaBinaryPacked(prefixes, opt);
  Bytes rest = EncodeDeltaLength(suffixes, opt);
  out.insert(out.end(), rest.begin(), rest.end());
  return out;
}

Bytes EncodeByteStreamSplit(const Bytes& plain, size_t width) {
  size_t n = plain.size() / width;
  Bytes out(plain.size());
  for (size_t i = 0; i < n; i++) {
    for (size_t k = 0; k < width; k++)
      out[k * n + i] = plain[i * width + k];
  }
  return out;
}

Bytes EncodePlainByteArray(const std::vector<std::string>& values) {
  Bytes out;
  for (const auto& v : values) {
    uint32_t len = static_cast<uint32_t>(v.size());
    for (int b = 0; b < 4; b++)
      out.push_back(static_cast<uint8_t>(len >> (8 * b)));
    out.insert(out.end(), v.begin(), v.end());
  }
  return out;
}

// ---- helpers -------------------------------------------------------------------------------

uint32_t MaskFor(int width) {
  return width >= 32 ? ~0u : (1u << width) - 1;
}

/// Random values of `width` bits with runs, so both run kinds appear.
std::vector<uint32_t> RandomLevels(size_t n, int width, std::mt19937_64& rng) {
  std::vector<uint32_t> values;
  while (values.size() < n) {
    uint32_t v = static_cast<uint32_t>(rng()) & MaskFor(width);
    size_t repeat = rng() % 3 == 0 ? 1 + rng() % 40 : 1;
    for (size_t r = 0; r < repeat && values.size() < n; r++)
      values.push_back(v);
  }
  return values;
}

const size_t kBatchSizes[] = {1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 31, 64, 100, 1000, 5000};

size_t RandomBatch(std::mt19937_64& rng) {
  return kBatchSizes[rng() % (sizeof(kBatchSizes) / sizeof(kBatchSizes[0]))];
}

std::vector<uint32_t> DecodeRle(const Bytes& data, int width, size_t n, std::mt19937_64& rng) {
  RleBitPackedDecoder decoder(data.data(), data.size(), width);
  std::vector<uint32_t> out(n + 8, 0xDEADBEEF);
  size_t done = 0;
  while (done < n) {
    size_t k = decoder.GetBatch(out.data() + done, std::min(RandomBatch(rng), n - done));
    if (k == 0) break;
    done += k;
  }
  out.resize(done);
  return out;
}

/// Calls `fn`, which must either succeed or throw CorruptFileError (any other exception or a
/// crash fails the test). Returns whether it threw.
bool ThrowsCorrupt(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const CorruptFileError&) {
    return true;
  }
  return false;
}

#define EXPECT_CORRUPT(stmt, fragment)                                         \
  do {                                                                         \
    try {                                                                      \
      stmt;                                                                    \
      ADD_FAILURE() << "expected CorruptFileError containing: " << (fragment); \
    } catch (const CorruptFileError& e) {                                      \
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos)       \
          << "message: " << e.what();                                          \
    }                                                                          \
  } while (0)

// ---- bit widths ----------------------------------------------------------------------------

TEST(ParquetEncodingBitWidth, ForMaxValue) {
  EXPECT_EQ(BitWidthForMaxValue(0), 0);
  EXPECT_EQ(BitWidthForMaxValue(1), 1);
  EXPECT_EQ(BitWidthForMaxValue(2), 2);
  EXPECT_EQ(BitWidthForMaxValue(3), 2);
  EXPECT_EQ(BitWidthForMaxValue(4), 3);
  EXPECT_EQ(BitWidthForMaxValue(7), 3);
  EXPECT_EQ(BitWidthForMaxValue(8), 4);
  EXPECT_EQ(BitWidthForMaxValue(255), 8);
  EXPECT_EQ(BitWidthForMaxValue(256), 9);
  EXPECT_EQ(BitWidthForMaxValue(0xFFFFFFFFu), 32);
}

// ---- RLE / bit-packed hybrid ---------------------------------------------------------------

TEST(ParquetEncodingRle, SpecBitPackedExample) {
  // Encodings.md: 0..7 at bit width 3 pack to 10001000 11000110 11111010.
  Bytes data = {0x03, 0x88, 0xC6, 0xFA};
  RleBitPackedDecoder decoder(data.data(), data.size(), 3);
  uint32_t out[8];
  ASSERT_EQ(decoder.GetBatch(out, 8), 8u);
  for (uint32_t i = 0; i < 8; i++)
    EXPECT_EQ(out[i], i);
  EXPECT_EQ(decoder.GetBatch(out, 8), 0u);
  // The reference encoder agrees with the spec's bytes.
  EXPECT_EQ(EncodeRuns({LiteralRun({0, 1, 2, 3, 4, 5, 6, 7})}, 3), data);
}

TEST(ParquetEncodingRle, HandMadeRleRuns) {
  // Five 7s at width 3, then three 300s at width 9 (two value bytes, little-endian).
  Bytes a = {0x0A, 0x07};
  RleBitPackedDecoder da(a.data(), a.size(), 3);
  uint32_t out[8] = {};
  ASSERT_EQ(da.GetBatch(out, 8), 5u);
  for (int i = 0; i < 5; i++)
    EXPECT_EQ(out[i], 7u);

  Bytes b = {0x06, 0x2C, 0x01, 0x02, 0x05, 0x00};  // RLE(300 x3), RLE(5 x1)
  RleBitPackedDecoder db(b.data(), b.size(), 9);
  ASSERT_EQ(db.GetBatch(out, 8), 4u);
  EXPECT_EQ(out[0], 300u);
  EXPECT_EQ(out[2], 300u);
  EXPECT_EQ(out[3], 5u);

  // Width 32 uses four value bytes; multi-byte varint header (200 values).
  Bytes c = {0x90, 0x03, 0xFF, 0xFF, 0xFF, 0xFF};
  RleBitPackedDecoder dc(c.data(), c.size(), 32);
  std::vector<uint32_t> many(300);
  ASSERT_EQ(dc.GetBatch(many.data(), many.size()), 200u);
  EXPECT_EQ(many[0], 0xFFFFFFFFu);
  EXPECT_EQ(many[199], 0xFFFFFFFFu);
}

TEST(ParquetEncodingRle, RoundTripAllWidths) {
  std::mt19937_64 rng(1);
  for (int width = 0; width <= 32; width++) {
    for (size_t n : {0, 1, 7, 8, 9, 31, 100, 1000, 4099}) {
      std::vector<uint32_t> values = RandomLevels(n, width, rng);
      Bytes data = EncodeRuns(RandomRuns(values, rng), width);
      std::vector<uint32_t> decoded = DecodeRle(data, width, n, rng);
      ASSERT_EQ(decoded, values) << "width " << width << " n " << n;
    }
  }
}

TEST(ParquetEncodingRle, ByteWideDecodingMatches) {
  // Definition levels decode straight into bytes; in odd-sized steps, so runs and 8-value
  // groups are split at every place.
  std::mt19937_64 rng(3);
  for (int width = 0; width <= 8; width++) {
    for (size_t n : {0, 1, 7, 8, 9, 100, 1000, 4099}) {
      std::vector<uint32_t> values = RandomLevels(n, width, rng);
      Bytes data = EncodeRuns(RandomRuns(values, rng), width);
      RleBitPackedDecoder decoder(data.data(), data.size(), width);
      std::vector<uint8_t> out(n);
      size_t done = 0;
      while (done < n) {
        const size_t step = std::min<size_t>(n - done, 1 + rng() % 300);
        ASSERT_EQ(decoder.GetBatch(out.data() + done, step), step);
        done += step;
      }
      for (size_t i = 0; i < n; i++)
        ASSERT_EQ(out[i], values[i]) << "width " << width << " n " << n << " at " << i;
    }
  }
  Bytes wide = EncodeRuns(RandomRuns({1, 2, 3}, rng), 9);
  uint8_t byte;
  EXPECT_THROW(RleBitPackedDecoder(wide.data(), wide.size(), 9).GetBatch(&byte, 1), InternalError);
}

TEST(ParquetEncodingRle, LongLiteralRunsAllWidths) {
  // One bit-packed run over many groups exercises the unpacker's bulk path and its tail.
  std::mt19937_64 rng(2);
  for (int width = 1; width <= 32; width++) {
    for (size_t n : {8, 16, 24, 64, 1000, 1024}) {
      std::vector<uint32_t> values(n);
      for (auto& v : values)
        v = static_cast<uint32_t>(rng()) & MaskFor(width);
      if (n > 1) values[1] = MaskFor(width);  // the extreme value
      Bytes data = EncodeRuns({LiteralRun(values)}, width);
      RleBitPackedDecoder decoder(data.data(), data.size(), width);
      std::vector<uint32_t> out(n);
      ASSERT_EQ(decoder.GetBatch(out.data(), n), n);
      ASSERT_EQ(out, values) << "width " << width << " n " << n;
    }
  }
}

TEST(ParquetEncodingRle, BitWidthZero) {
  // Bit width 0: every value is 0, whether or not runs are present.
  Bytes data = {0x0A};  // RLE run of 5 with a 0-byte value
  RleBitPackedDecoder decoder(data.data(), data.size(), 0);
  std::vector<uint32_t> out(10, 7);
  EXPECT_EQ(decoder.GetBatch(out.data(), 10), 10u);
  EXPECT_EQ(out, std::vector<uint32_t>(10, 0));
  RleBitPackedDecoder empty(nullptr, 0, 0, /*max_values=*/4);
  EXPECT_EQ(empty.GetBatch(out.data(), 10), 4u);
  EXPECT_EQ(empty.GetBatch(out.data(), 10), 0u);
  EXPECT_CORRUPT(RleBitPackedDecoder(nullptr, 0, 0).GetBatchBounded(out.data(), 1, 0),
                 "dictionary index 0 is out of range for a dictionary of 0 entries");
}

TEST(ParquetEncodingRle, EmptyInput) {
  RleBitPackedDecoder decoder(nullptr, 0, 5);
  uint32_t out[4];
  EXPECT_EQ(decoder.GetBatch(out, 4), 0u);
  EXPECT_EQ(decoder.GetBatch(out, 0), 0u);
  RleBitPackedDecoder defaulted;
  EXPECT_EQ(defaulted.GetBatch(out, 4), 4u);  // bit width 0
}

TEST(ParquetEncodingRle, RunEndsExactlyAtBufferEnd) {
  for (int width : {1, 3, 8, 13, 32}) {
    std::vector<uint32_t> lit = {1, 0, 1, 1, 0, 0, 1, 1, 1, 0, 1, 0, 0, 0, 0, 1};
    Bytes data = EncodeRuns({RleRun(1, 3), LiteralRun(lit)}, width);
    // Copy into an exactly sized heap buffer so ASan catches any read past the end.
    std::unique_ptr<uint8_t[]> exact(new uint8_t[data.size()]);
    std::copy(data.begin(), data.end(), exact.get());
    RleBitPackedDecoder decoder(exact.get(), data.size(), width);
    std::vector<uint32_t> out(40, 9);
    ASSERT_EQ(decoder.GetBatch(out.data(), 40), 19u);
    for (int i = 0; i < 3; i++)
      EXPECT_EQ(out[i], 1u);
    for (size_t i = 0; i < lit.size(); i++)
      EXPECT_EQ(out[3 + i], lit[i]);
    EXPECT_EQ(decoder.GetBatch(out.data(), 1), 0u);
  }
}

TEST(ParquetEncodingRle, PaddedFinalGroupStopsAtRealValues) {
  // 3 real values padded to a full group; the caller asks for exactly 3.
  Bytes data = EncodeRuns({LiteralRun({5, 17, 2})}, 5);
  ASSERT_EQ(data.size(), 1u + 5u);
  RleBitPackedDecoder decoder(data.data(), data.size(), 5, /*max_values=*/3);
  uint32_t out[8] = {};
  ASSERT_EQ(decoder.GetBatch(out, 3), 3u);
  EXPECT_EQ(out[0], 5u);
  EXPECT_EQ(out[1], 17u);
  EXPECT_EQ(out[2], 2u);
}

TEST(ParquetEncodingRle, TruncatedFinalGroup) {
  // A writer that drops the padding bytes of the last group: 3 values of 5 bits in 2 bytes.
  Bytes full = EncodeRuns({RleRun(9, 2), LiteralRun({5, 17, 2})}, 5);
  Bytes data(full.begin(), full.end() - 3);  // header(1) value(1) header(1) + 2 packed bytes
  ASSERT_EQ(data.size(), 5u);
  RleBitPackedDecoder decoder(data.data(), data.size(), 5);
  uint32_t out[10] = {};
  ASSERT_EQ(decoder.GetBatch(out, 10), 5u);  // 16 bits hold 3 whole 5-bit values
  EXPECT_EQ(out[0], 9u);
  EXPECT_EQ(out[1], 9u);
  EXPECT_EQ(out[2], 5u);
  EXPECT_EQ(out[3], 17u);
  EXPECT_EQ(out[4], 2u);
  // With one packed byte only the first value is whole.
  Bytes shorter(full.begin(), full.end() - 4);
  RleBitPackedDecoder d2(shorter.data(), shorter.size(), 5);
  ASSERT_EQ(d2.GetBatch(out, 10), 3u);
  EXPECT_EQ(out[2], 5u);
}

TEST(ParquetEncodingRle, MaxValuesLimitsRuns) {
  Bytes rle = EncodeRuns({RleRun(1, 5000)}, 1);
  RleBitPackedDecoder d1(rle.data(), rle.size(), 1, /*max_values=*/100);
  uint32_t out[16];
  EXPECT_CORRUPT(d1.GetBatch(out, 16),
                 "RLE run of 5000 values exceeds the 100 values left in the page");

  std::vector<uint32_t> sixteen(16, 1);
  Bytes packed = EncodeRuns({LiteralRun(sixteen)}, 1);
  RleBitPackedDecoder d2(packed.data(), packed.size(), 1, /*max_values=*/8);
  EXPECT_CORRUPT(d2.GetBatch(out, 8), "bit-packed run of 16 values exceeds the 8 values left");
  RleBitPackedDecoder d3(packed.data(), packed.size(), 1, /*max_values=*/9);  // 7 padding
  EXPECT_EQ(d3.GetBatch(out, 9), 9u);

  // A second run after the page's values are used up.
  Bytes two = EncodeRuns({RleRun(1, 4), RleRun(0, 1)}, 1);
  RleBitPackedDecoder d4(two.data(), two.size(), 1, /*max_values=*/4);
  EXPECT_EQ(d4.GetBatch(out, 4), 4u);
  EXPECT_CORRUPT(d4.GetBatch(out, 1), "RLE run of 1 values exceeds the 0 values left");
}

TEST(ParquetEncodingRle, CorruptInputs) {
  uint32_t out[16];
  EXPECT_CORRUPT(RleBitPackedDecoder(nullptr, 0, 33), "bit width 33 is invalid");
  EXPECT_CORRUPT(RleBitPackedDecoder(nullptr, 0, -1), "bit width -1 is invalid");

  Bytes long_varint = {0xFF, 0xFF, 0xFF, 0xFF, 0x7F};
  RleBitPackedDecoder d1(long_varint.data(), long_varint.size(), 4);
  EXPECT_CORRUPT(d1.GetBatch(out, 1), "does not fit in 32 bits");

  Bytes cut_varint = {0x80};
  RleBitPackedDecoder d2(cut_varint.data(), cut_varint.size(), 4);
  EXPECT_CORRUPT(d2.GetBatch(out, 1), "run header is truncated");

  Bytes cut_value = {0x04, 0x01};  // width 9 needs two value bytes
  RleBitPackedDecoder d3(cut_value.data(), cut_value.size(), 9);
  EXPECT_CORRUPT(d3.GetBatch(out, 1), "RLE run value needs 2 bytes but only 1 remain");

  Bytes wide_value = {0x04, 0x09};
  RleBitPackedDecoder d4(wide_value.data(), wide_value.size(), 3);
  EXPECT_CORRUPT(d4.GetBatch(out, 1), "RLE run value 9 does not fit in bit width 3");

  Bytes zero_rle = {0x00, 0x01};
  RleBitPackedDecoder d5(zero_rle.data(), zero_rle.size(), 1);
  EXPECT_CORRUPT(d5.GetBatch(out, 1), "RLE run of 0 values is invalid");

  Bytes zero_packed = {0x01};
  RleBitPackedDecoder d6(zero_packed.data(), zero_packed.size(), 1);
  EXPECT_CORRUPT(d6.GetBatch(out, 1), "bit-packed run of 0 values is invalid");
}

TEST(ParquetEncodingRle, BoundedDictionaryIndexes) {
  std::vector<uint32_t> values = {0, 1, 2, 3, 4, 4, 4, 4, 4, 4, 4, 4, 2};
  Bytes data = EncodeRuns({LiteralRun({0, 1, 2, 3, 4, 4, 4, 4}), RleRun(4, 4), LiteralRun({2})}, 3);
  {
    RleBitPackedDecoder decoder(data.data(), data.size(), 3);
    std::vector<uint32_t> out(values.size());
    ASSERT_EQ(decoder.GetBatchBounded(out.data(), out.size(), 5), values.size());
    EXPECT_EQ(out, values);
  }
  {
    RleBitPackedDecoder decoder(data.data(), data.size(), 3);
    std::vector<uint32_t> out(values.size());
    EXPECT_CORRUPT(decoder.GetBatchBounded(out.data(), out.size(), 4),
                   "dictionary index 4 is out of range for a dictionary of 4 entries");
  }
  // The dictionary page framing: one bit-width byte first.
  Bytes page = {3};
  page.insert(page.end(), data.begin(), data.end());
  RleBitPackedDecoder decoder = MakeDictionaryIndexDecoder(page.data(), page.size());
  EXPECT_EQ(decoder.bit_width(), 3);
  std::vector<uint32_t> out(values.size());
  ASSERT_EQ(decoder.GetBatchBounded(out.data(), out.size(), 5), values.size());
  EXPECT_EQ(out, values);

  Bytes bad_width = {40, 0x02, 0x00};
  EXPECT_CORRUPT(MakeDictionaryIndexDecoder(bad_width.data(), bad_width.size()),
                 "bit width 40 is invalid for dictionary indexes");
  EXPECT_CORRUPT(MakeDictionaryIndexDecoder(nullptr, 0), "bit width byte");
}

TEST(ParquetEncodingRle, LengthPrefixed) {
  std::mt19937_64 rng(3);
  std::vector<uint32_t> values = RandomLevels(300, 2, rng);
  Bytes body = EncodeRuns(RandomRuns(values, rng), 2);
  Bytes page = {static_cast<uint8_t>(body.size()), static_cast<uint8_t>(body.size() >> 8), 0, 0};
  page.insert(page.end(), body.begin(), body.end());
  page.push_back(0xAB);  // the next section of the page
  size_t consumed = 0;
  RleBitPackedDecoder decoder =
      MakeLengthPrefixedRleDecoder(page.data(), page.size(), 2, &consumed, values.size());
  EXPECT_EQ(consumed, 4 + body.size());
  std::vector<uint32_t> out(400);
  ASSERT_EQ(decoder.GetBatch(out.data(), out.size()), values.size());
  out.resize(values.size());
  EXPECT_EQ(out, values);

  Bytes short_prefix = {1, 0};
  EXPECT_CORRUPT(MakeLengthPrefixedRleDecoder(short_prefix.data(), 2, 1, &consumed),
                 "RLE length prefix needs 4 bytes but only 2 remain");
  Bytes long_length = {10, 0, 0, 0, 0x02, 0x01};
  EXPECT_CORRUPT(MakeLengthPrefixedRleDecoder(long_length.data(), 6, 1, &consumed),
                 "RLE data length 10 exceeds the 2 bytes left");
  Bytes huge_length = {0xFF, 0xFF, 0xFF, 0xFF};
  EXPECT_CORRUPT(MakeLengthPrefixedRleDecoder(huge_length.data(), 4, 1, &consumed),
                 "RLE data length 4294967295 exceeds the 0 bytes left");
}

TEST(ParquetEncodingRle, TruncatedAtEveryPosition) {
  std::mt19937_64 rng(4);
  for (int width : {1, 2, 5, 8, 12, 20, 32}) {
    std::vector<uint32_t> values = RandomLevels(200, width, rng);
    Bytes data = EncodeRuns(RandomRuns(values, rng), width);
    for (size_t cut = 0; cut <= data.size(); cut++) {
      std::unique_ptr<uint8_t[]> exact(new uint8_t[std::max<size_t>(cut, 1)]);
      std::copy(data.begin(), data.begin() + cut, exact.get());
      for (size_t limit : {RleBitPackedDecoder::kNoLimit, values.size()}) {
        RleBitPackedDecoder decoder(exact.get(), cut, width, limit);
        std::vector<uint32_t> out;
        bool threw = ThrowsCorrupt([&] {
          std::vector<uint32_t> chunk(7);
          while (true) {
            size_t k = decoder.GetBatch(chunk.data(), chunk.size());
            out.insert(out.end(), chunk.begin(), chunk.begin() + k);
            if (k < chunk.size()) break;
          }
        });
        ASSERT_LE(out.size(), values.size() + 7) << "cut " << cut;
        size_t real = std::min(out.size(), values.size());
        ASSERT_TRUE(std::equal(out.begin(), out.begin() + real, values.begin()))
            << "width " << width << " cut " << cut;
        if (cut == data.size()) {
          EXPECT_FALSE(threw);
          EXPECT_GE(out.size(), values.size());
        }
      }
    }
  }
}

TEST(ParquetEncodingRle, RandomGarbageNeverCrashes) {
  std::mt19937_64 rng(5);
  std::vector<uint32_t> out(512);
  for (int iter = 0; iter < 3000; iter++) {
    size_t size = rng() % 64;
    std::unique_ptr<uint8_t[]> data(new uint8_t[std::max<size_t>(size, 1)]);
    for (size_t i = 0; i < size; i++)
      data[i] = static_cast<uint8_t>(rng());
    int width = static_cast<int>(rng() % 33);
    size_t limit = rng() % 2 ? RleBitPackedDecoder::kNoLimit : rng() % 1000;
    RleBitPackedDecoder decoder(data.get(), size, width, limit);
    ThrowsCorrupt([&] {
      for (int b = 0; b < 8; b++) {
        if (decoder.GetBatchBounded(out.data(), 1 + rng() % out.size(), 1 + rng() % 100) == 0) {
          break;
        }
      }
    });
  }
}

// ---- deprecated BIT_PACKED -----------------------------------------------------------------

TEST(ParquetEncodingLegacyBitPacked, SpecExample) {
  // Encodings.md: 0..7 at bit width 3 pack MSB first to 00000101 00111001 01110111.
  Bytes data = {0x05, 0x39, 0x77};
  uint32_t out[8];
  ASSERT_EQ(DecodeLegacyBitPacked(data.data(), data.size(), 3, out, 8), 8u);
  for (uint32_t i = 0; i < 8; i++)
    EXPECT_EQ(out[i], i);
  EXPECT_EQ(EncodeLegacyBitPacked({0, 1, 2, 3, 4, 5, 6, 7}, 3), data);
  EXPECT_EQ(LegacyBitPackedSize(8, 3), 3u);
  EXPECT_EQ(LegacyBitPackedSize(30, 2), 8u);  // the spec's 30 values of 2 bits
}

TEST(ParquetEncodingLegacyBitPacked, RoundTripAllWidths) {
  std::mt19937_64 rng(6);
  for (int width = 0; width <= 32; width++) {
    for (size_t n : {0, 1, 3, 8, 9, 30, 100, 1001}) {
      std::vector<uint32_t> values = RandomLevels(n, width, rng);
      Bytes data = EncodeLegacyBitPacked(values, width);
      ASSERT_EQ(LegacyBitPackedSize(n, width), data.size());
      std::vector<uint32_t> out(n + 1, 0xABCD);
      ASSERT_EQ(DecodeLegacyBitPacked(data.data(), data.size(), width, out.data(), n), n);
      out.resize(n);
      ASSERT_EQ(out, values) << "width " << width << " n " << n;
      // Truncation keeps only the values whose bits are all present.
      if (width > 0 && !data.empty()) {
        size_t cut = data.size() - 1;
        std::vector<uint32_t> partial(n);
        size_t k = DecodeLegacyBitPacked(data.data(), cut, width, partial.data(), n);
        ASSERT_EQ(k, cut * 8 / width);
        partial.resize(k);
        ASSERT_TRUE(std::equal(partial.begin(), partial.end(), values.begin()));
      }
    }
  }
}

TEST(ParquetEncodingLegacyBitPacked, InvalidWidth) {
  uint32_t out[1];
  EXPECT_CORRUPT(DecodeLegacyBitPacked(nullptr, 0, 33, out, 1), "bit width 33 is invalid");
  EXPECT_CORRUPT(LegacyBitPackedSize(1, 40), "bit width 40 is invalid");
  EXPECT_EQ(DecodeLegacyBitPacked(nullptr, 0, 0, out, 1), 1u);
  EXPECT_EQ(out[0], 0u);
}

// ---- DELTA_BINARY_PACKED -------------------------------------------------------------------

template <typename T>
std::vector<T> DecodeDelta(const Bytes& data, std::mt19937_64& rng, size_t* consumed = nullptr) {
  DeltaBinaryPackedDecoder<T> decoder(data.data(), data.size());
  std::vector<T> out(decoder.total_values() + 1);
  size_t done = 0;
  while (true) {
    size_t k = decoder.GetBatch(out.data() + done, RandomBatch(rng));
    if (k == 0) break;
    done += k;
  }
  EXPECT_EQ(done, decoder.total_values());
  EXPECT_EQ(decoder.values_left(), 0u);
  if (consumed) *consumed = decoder.bytes_consumed();
  out.resize(done);
  return out;
}

TEST(ParquetEncodingDelta, SpecExamples) {
  std::mt19937_64 rng(7);
  // Example 1 (1, 2, 3, 4, 5) with a valid block size: 128 values in 4 miniblocks.
  Bytes ex1 = {0x80, 0x01, 0x04, 0x05, 0x02, /*block*/ 0x02, 0, 0, 0, 0};
  size_t consumed = 0;
  EXPECT_EQ(DecodeDelta<int32_t>(ex1, rng, &consumed), (std::vector<int32_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(consumed, ex1.size());
  EXPECT_EQ(EncodeDeltaBinaryPacked<int32_t>({1, 2, 3, 4, 5}), ex1);

  // Example 2 (7, 5, 3, 1, 2, 3, 4, 5): min delta -2, relative 0,0,0,3,3,3,3 at 2 bits.
  Bytes ex2 = {0x80, 0x01, 0x04, 0x08, 0x0E, /*block*/ 0x03, 2, 0, 0, 0, 0xC0, 0x3F, 0,
               0,    0,    0,    0,    0};
  std::vector<int64_t> expected = {7, 5, 3, 1, 2, 3, 4, 5};
  Bytes with_tail = ex2;
  with_tail.push_back(0x55);  // whatever follows must not count
  EXPECT_EQ(DecodeDelta<int64_t>(with_tail, rng, &consumed), expected);
  EXPECT_EQ(consumed, ex2.size());
  EXPECT_EQ(EncodeDeltaBinaryPacked<int64_t>(expected), ex2);

  // The spec's examples use block size 8 "to keep them short"; real data must not.
  Bytes literal = {0x08, 0x01, 0x05, 0x02, 0x02, 0x00};
  EXPECT_CORRUPT((DeltaBinaryPackedDecoder<int32_t>(literal.data(), literal.size())),
                 "block size 8 is not a positive multiple of 128");
}

TEST(ParquetEncodingDelta, EmptyAndSingle) {
  std::mt19937_64 rng(8);
  Bytes empty = EncodeDeltaBinaryPacked<int32_t>({});
  size_t consumed = 0;
  EXPECT_TRUE(DecodeDelta<int32_t>(empty, rng, &consumed).empty());
  EXPECT_EQ(consumed, empty.size());
  Bytes one = EncodeDeltaBinaryPacked<int64_t>({-42});
  EXPECT_EQ(DecodeDelta<int64_t>(one, rng, &consumed), std::vector<int64_t>{-42});
  EXPECT_EQ(consumed, one.size());
  EXPECT_CORRUPT((DeltaBinaryPackedDecoder<int32_t>(nullptr, 0)), "block size is truncated");
}

template <typename T>
std::vector<std::vector<T>> DeltaPatterns(size_t n, std::mt19937_64& rng) {
  using U = std::make_unsigned_t<T>;
  std::vector<std::vector<T>> patterns(6, std::vector<T>(n));
  T acc = 0;
  for (size_t i = 0; i < n; i++) {
    patterns[0][i] = static_cast<T>(rng());  // full range
    acc = static_cast<T>(static_cast<U>(acc) + rng() % 100);
    patterns[1][i] = acc;    // sorted
    patterns[2][i] = 12345;  // constant
    patterns[3][i] = i % 2 ? std::numeric_limits<T>::min() : std::numeric_limits<T>::max();
    patterns[4][i] = static_cast<T>(static_cast<int64_t>(rng() % 2001) - 1000);  // small noise
    // Mostly small with rare huge jumps: widths vary per miniblock.
    patterns[5][i] = rng() % 50 == 0 ? static_cast<T>(rng()) : static_cast<T>(i);
  }
  return patterns;
}

template <typename T>
void DeltaRoundTrip(uint64_t seed) {
  std::mt19937_64 rng(seed);
  const DeltaOptions configs[] = {{128, 4}, {128, 1}, {256, 8}, {512, 4}, {256, 2, true}};
  for (const DeltaOptions& opt : configs) {
    for (size_t n : {1, 2, 3, 31, 32, 33, 127, 128, 129, 130, 1000, 5000}) {
      for (const auto& values : DeltaPatterns<T>(n, rng)) {
        Bytes data = EncodeDeltaBinaryPacked(values, opt, &rng);
        size_t encoded = data.size();
        data.push_back(0xEE);  // trailing bytes of the next section
        size_t consumed = 0;
        std::vector<T> decoded = DecodeDelta<T>(data, rng, &consumed);
        ASSERT_EQ(decoded, values) << "n " << n << " block " << opt.block_size;
        ASSERT_EQ(consumed, encoded);
        // bytes_consumed() before decoding anything gives the same answer.
        DeltaBinaryPackedDecoder<T> fresh(data.data(), data.size());
        ASSERT_EQ(fresh.bytes_consumed(), encoded);
        std::vector<T> again(n);
        ASSERT_EQ(fresh.GetBatch(again.data(), n), n);
        ASSERT_EQ(again, values);
      }
    }
  }
}

TEST(ParquetEncodingDelta, RoundTripInt32) {
  DeltaRoundTrip<int32_t>(9);
}
TEST(ParquetEncodingDelta, RoundTripInt64) {
  DeltaRoundTrip<int64_t>(10);
}

TEST(ParquetEncodingDelta, ExtremesAndWrapAround) {
  std::mt19937_64 rng(11);
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  // Deltas INT64_MIN and INT64_MAX: min delta INT64_MIN, relative delta 2^64-1, width 64.
  std::vector<int64_t> wide = {0, kMin, -1};
  Bytes data = EncodeDeltaBinaryPacked(wide);
  ASSERT_EQ(data[data.size() - 32 * 64 / 8 - 4], 64);  // the first miniblock's bit width
  EXPECT_EQ(DecodeDelta<int64_t>(data, rng), wide);

  // Every delta is INT64_MIN (wrapping): width 0, min delta with a 10-byte varint.
  std::vector<int64_t> flip(300);
  for (size_t i = 0; i < flip.size(); i++)
    flip[i] = i % 2 ? kMin : 0;
  EXPECT_EQ(DecodeDelta<int64_t>(EncodeDeltaBinaryPacked(flip), rng), flip);

  std::vector<int64_t> ends = {kMax, kMin, kMax, kMin, 0, kMax, -1, kMin, 1};
  EXPECT_EQ(DecodeDelta<int64_t>(EncodeDeltaBinaryPacked(ends), rng), ends);

  constexpr int32_t kMin32 = std::numeric_limits<int32_t>::min();
  constexpr int32_t kMax32 = std::numeric_limits<int32_t>::max();
  std::vector<int32_t> wide32 = {0, kMin32, -1, kMax32, kMin32};
  Bytes data32 = EncodeDeltaBinaryPacked(wide32);
  ASSERT_EQ(data32[data32.size() - 32 * 32 / 8 - 4], 32);
  EXPECT_EQ(DecodeDelta<int32_t>(data32, rng), wide32);
}

TEST(ParquetEncodingDelta, CorruptHeaders) {
  auto header = [](uint64_t block, uint64_t miniblocks, uint64_t total, uint64_t first) {
    Bytes out;
    PutUleb(out, block);
    PutUleb(out, miniblocks);
    PutUleb(out, total);
    PutUleb(out, first);
    return out;
  };
  Bytes b = header(100, 4, 1, 0);
  EXPECT_CORRUPT((DeltaBinaryPackedDecoder<int32_t>(b.data(), b.size())),
                 "block size 100 is not a positive multiple of 128");
  b = header(0, 4, 1, 0);
  EXPECT_CORRUPT((DeltaBinaryPackedDecoder<int32_t>(b.data(), b.size())), "block size 0");
  b = header(128, 0, 1, 0);
  EXPECT_CORRUPT((DeltaBinaryPackedDecoder<int32_t>(b.data(), b.size())),
                 "block of 128 values cannot have 0 miniblocks");
  b = header(128, 8, 1, 0);  // 16 values per miniblock
  EXPECT_CORRUPT((DeltaBinaryPackedDecoder<int32_t>(b.data(), b.size())),
                 "cannot have 8 miniblocks");
  b = header(128, 3, 1, 0);
  EXPECT_CORRUPT((DeltaBinaryPackedDecoder<int32_t>(b.data(), b.size())),
                 "cannot have 3 miniblocks");
  // A value count no data could back (bit width 0 makes values cost no bytes, but every
  // block still costs its header).
  b = header(128, 4, 0xFFFFFFFF, 0);
  b.insert(b.end(), {0x00, 0, 0, 0, 0});
  EXPECT_CORRUPT((DeltaBinaryPackedDecoder<int64_t>(b.data(), b.size())),
                 "header claims 4294967295 values but the 5 bytes that follow hold at most 129");
  b = header(1ull << 32, 4, 1, 0);
  EXPECT_CORRUPT((DeltaBinaryPackedDecoder<int64_t>(b.data(), b.size())),
                 "block size varint does not fit in 32 bits");
  // A first value beyond 32 bits for INT32.
  b = header(128, 4, 1, 1ull << 33);
  EXPECT_CORRUPT((DeltaBinaryPackedDecoder<int32_t>(b.data(), b.size())),
                 "first value varint does not fit in 32 bits");
  DeltaBinaryPackedDecoder<int64_t> ok(b.data(), b.size());
  int64_t first = 0;
  EXPECT_EQ(ok.GetBatch(&first, 1), 1u);
  EXPECT_EQ(first, int64_t{1} << 32);
}

TEST(ParquetEncodingDelta, MiniblockWidthOver64) {
  std::vector<int32_t> values(40);
  for (size_t i = 0; i < values.size(); i++)
    values[i] = static_cast<int32_t>(i * 3);
  Bytes data = EncodeDeltaBinaryPacked(values);
  // Layout: header(5) min_delta(1) widths(4); the deltas are all 3, so width 0 and no data.
  data[6] = 65;
  // A 65-bit miniblock also needs bytes: add them so only the width is wrong.
  data.insert(data.end(), 65 * 4, 0);
  std::vector<int32_t> out(values.size());
  DeltaBinaryPackedDecoder<int32_t> d32(data.data(), data.size());
  EXPECT_CORRUPT(d32.GetBatch(out.data(), out.size()), "miniblock bit width 65 exceeds 64 bits");
  DeltaBinaryPackedDecoder<int32_t> walk(data.data(), data.size());
  EXPECT_CORRUPT(walk.bytes_consumed(), "miniblock bit width 65");

  std::vector<int64_t> values64(40, 5);
  Bytes data64 = EncodeDeltaBinaryPacked(values64);
  data64[6] = 65;
  data64.insert(data64.end(), 65 * 4, 0);
  std::vector<int64_t> out64(values64.size());
  DeltaBinaryPackedDecoder<int64_t> d64(data64.data(), data64.size());
  EXPECT_CORRUPT(d64.GetBatch(out64.data(), out64.size()),
                 "miniblock bit width 65 exceeds 64 bits");

  // Unused miniblocks of the last block may hold any width byte.
  Bytes junk = EncodeDeltaBinaryPacked(values64);
  junk[6 + 2] = 200;
  junk[6 + 3] = 255;
  std::mt19937_64 rng(12);
  EXPECT_EQ(DecodeDelta<int64_t>(junk, rng), values64);
}

TEST(ParquetEncodingDelta, Int32WithWideDeltas) {
  // DuckDB computes INT32 deltas in 64 bits: 64-bit min deltas and miniblocks of 33 bits.
  // Modulo 2^32 they are the same deltas, so the values decode exactly.
  std::mt19937_64 rng(26);
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  std::vector<int32_t> values = {kMin, kMax, kMin, 0, kMax, -1, kMin, 1};
  for (int i = 0; i < 1000; i++)
    values.push_back(static_cast<int32_t>(rng()));
  Bytes data = EncodeDeltaBinaryPacked<int32_t, int64_t>(values, {}, &rng);
  // After the 10-byte header, the first block's min delta -(2^32 - 1) is a zigzag varint
  // of 34 bits (5 bytes, too wide for a 32-bit read), and the first miniblock needs 33 bits.
  ASSERT_EQ(data[14], 0x1F);
  ASSERT_EQ(data[15], 33);
  size_t consumed = 0;
  EXPECT_EQ(DecodeDelta<int32_t>(data, rng, &consumed), values);
  EXPECT_EQ(consumed, data.size());
}

template <typename T>
void DeltaTruncation(uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (const auto& values : DeltaPatterns<T>(300, rng)) {
    Bytes data = EncodeDeltaBinaryPacked(values, {128, 4});
    for (size_t cut = 0; cut <= data.size(); cut++) {
      std::unique_ptr<uint8_t[]> exact(new uint8_t[std::max<size_t>(cut, 1)]);
      std::copy(data.begin(), data.begin() + cut, exact.get());
      std::vector<T> out;
      size_t consumed = 0;
      bool threw = ThrowsCorrupt([&] {
        DeltaBinaryPackedDecoder<T> decoder(exact.get(), cut);
        std::vector<T> chunk(13);
        while (size_t k = decoder.GetBatch(chunk.data(), chunk.size())) {
          out.insert(out.end(), chunk.begin(), chunk.begin() + k);
        }
        consumed = decoder.bytes_consumed();
      });
      ASSERT_LE(out.size(), values.size());
      ASSERT_TRUE(std::equal(out.begin(), out.end(), values.begin())) << "cut " << cut;
      if (cut < data.size()) {
        ASSERT_TRUE(threw) << "cut " << cut;
      } else {
        ASSERT_FALSE(threw);
        ASSERT_EQ(out.size(), values.size());
        ASSERT_EQ(consumed, data.size());
      }
    }
  }
}

TEST(ParquetEncodingDelta, TruncatedAtEveryPositionInt32) {
  DeltaTruncation<int32_t>(13);
}
TEST(ParquetEncodingDelta, TruncatedAtEveryPositionInt64) {
  DeltaTruncation<int64_t>(14);
}

TEST(ParquetEncodingDelta, RandomGarbageNeverCrashes) {
  std::mt19937_64 rng(15);
  std::vector<int64_t> out(300);
  for (int iter = 0; iter < 3000; iter++) {
    // A valid header followed by garbage blocks, or garbage throughout.
    Bytes data;
    if (rng() % 2) {
      PutUleb(data, 128 * (1 + rng() % 2));
      PutUleb(data, rng() % 2 ? 4 : 1);
      PutUleb(data, rng() % 600);
      PutUleb(data, rng() % 1000);
    }
    size_t extra = rng() % 200;
    for (size_t i = 0; i < extra; i++)
      data.push_back(static_cast<uint8_t>(rng() % 4 ? rng() % 70 : rng()));
    std::unique_ptr<uint8_t[]> exact(new uint8_t[std::max<size_t>(data.size(), 1)]);
    std::copy(data.begin(), data.end(), exact.get());
    ThrowsCorrupt([&] {
      DeltaBinaryPackedDecoder<int64_t> d64(exact.get(), data.size());
      d64.bytes_consumed();
      while (d64.GetBatch(out.data(), 1 + rng() % out.size()) > 0) {
      }
    });
    ThrowsCorrupt([&] {
      DeltaBinaryPackedDecoder<int32_t> d32(exact.get(), data.size());
      std::vector<int32_t> out32(100);
      while (d32.GetBatch(out32.data(), out32.size()) > 0) {
      }
      d32.bytes_consumed();
    });
  }
}

// ---- DELTA_LENGTH_BYTE_ARRAY ---------------------------------------------------------------

std::vector<std::string> RandomStrings(size_t n, std::mt19937_64& rng, size_t max_len = 20) {
  std::vector<std::string> values(n);
  for (auto& v : values) {
    size_t len = rng() % 4 == 0 ? 0 : rng() % (max_len + 1);
    for (size_t i = 0; i < len; i++)
      v.push_back(static_cast<char>('a' + rng() % 4));
  }
  return values;
}

std::vector<std::string> ToStrings(const std::vector<StringRef>& refs) {
  std::vector<std::string> out;
  for (const auto& r : refs)
    out.emplace_back(r.view());
  return out;
}

TEST(ParquetEncodingDeltaLength, SpecExample) {
  std::vector<std::string> values = {"Hello", "World", "Foobar", "ABCDEF"};
  Bytes data = EncodeDeltaLength(values);
  std::string tail(data.end() - 22, data.end());
  EXPECT_EQ(tail, "HelloWorldFoobarABCDEF");
  DeltaLengthByteArrayDecoder decoder(data.data(), data.size());
  EXPECT_EQ(decoder.total_values(), 4u);
  std::vector<StringRef> out(4);
  ASSERT_EQ(decoder.GetBatch(out.data(), 4), 4u);
  EXPECT_EQ(ToStrings(out), values);
  // Values point into the page: no copies.
  EXPECT_EQ(reinterpret_cast<const uint8_t*>(out[0].ptr), data.data() + data.size() - 22);
  EXPECT_EQ(decoder.GetBatch(out.data(), 4), 0u);
}

TEST(ParquetEncodingDeltaLength, RoundTrip) {
  std::mt19937_64 rng(16);
  for (size_t n : {0, 1, 5, 127, 128, 129, 1000, 3000}) {
    for (size_t max_len : {0, 1, 30, 300}) {
      std::vector<std::string> values = RandomStrings(n, rng, max_len);
      Bytes data = EncodeDeltaLength(values);
      DeltaLengthByteArrayDecoder decoder(data.data(), data.size());
      ASSERT_EQ(decoder.total_values(), n);
      std::vector<StringRef> out(n);
      size_t done = 0;
      while (size_t k = decoder.GetBatch(out.data() + done, std::min(RandomBatch(rng), n - done))) {
        done += k;
      }
      ASSERT_EQ(done, n);
      ASSERT_EQ(ToStrings(out), values);
    }
  }
}

TEST(ParquetEncodingDeltaLength, Corrupt) {
  // A negative length.
  Bytes neg = EncodeDeltaBinaryPacked<int32_t>({3, -1});
  neg.insert(neg.end(), {'a', 'b', 'c'});
  DeltaLengthByteArrayDecoder d1(neg.data(), neg.size());
  std::vector<StringRef> out(2);
  EXPECT_CORRUPT(d1.GetBatch(out.data(), 2), "value 1 has negative length -1");
  // A length past the end of the string data.
  Bytes lng = EncodeDeltaBinaryPacked<int32_t>({3, 1000});
  lng.insert(lng.end(), {'a', 'b', 'c', 'd'});
  DeltaLengthByteArrayDecoder d2(lng.data(), lng.size());
  EXPECT_CORRUPT(d2.GetBatch(out.data(), 2),
                 "value 1 has length 1000 but only 1 bytes of string data remain");
}

TEST(ParquetEncodingDeltaLength, TruncatedAtEveryPosition) {
  std::mt19937_64 rng(17);
  std::vector<std::string> values = RandomStrings(200, rng);
  Bytes data = EncodeDeltaLength(values);
  for (size_t cut = 0; cut <= data.size(); cut++) {
    std::unique_ptr<uint8_t[]> exact(new uint8_t[std::max<size_t>(cut, 1)]);
    std::copy(data.begin(), data.begin() + cut, exact.get());
    std::vector<std::string> out;
    bool threw = ThrowsCorrupt([&] {
      DeltaLengthByteArrayDecoder decoder(exact.get(), cut);
      std::vector<StringRef> chunk(11);
      while (size_t k = decoder.GetBatch(chunk.data(), chunk.size())) {
        for (size_t i = 0; i < k; i++)
          out.emplace_back(chunk[i].view());
      }
    });
    ASSERT_TRUE(std::equal(out.begin(), out.end(), values.begin())) << "cut " << cut;
    // Every byte is needed, so any cut must be noticed.
    ASSERT_EQ(threw, cut < data.size()) << "cut " << cut;
    if (!threw) {
      ASSERT_EQ(out.size(), values.size());
    }
  }
}

// ---- DELTA_BYTE_ARRAY ----------------------------------------------------------------------

std::vector<std::string> DecodeDeltaByteArray(const Bytes& data, std::mt19937_64& rng) {
  DeltaByteArrayDecoder decoder(data.data(), data.size());
  std::vector<std::string> result;
  while (true) {
    // A fresh heap per batch, destroyed right after: values must not refer to older batches.
    StringHeap heap;
    std::vector<StringRef> out(RandomBatch(rng));
    size_t k = decoder.GetBatch(out.data(), out.size(), heap);
    if (k == 0) break;
    for (size_t i = 0; i < k; i++)
      result.emplace_back(out[i].view());
  }
  EXPECT_EQ(result.size(), decoder.total_values());
  return result;
}

TEST(ParquetEncodingDeltaByteArray, SpecExample) {
  std::mt19937_64 rng(18);
  std::vector<std::string> values = {"axis", "axle", "babble", "babyhood"};
  Bytes data = EncodeDeltaByteArray(values);
  // The sections are as the spec lists them.
  DeltaBinaryPackedDecoder<int32_t> prefixes(data.data(), data.size());
  std::vector<int32_t> p(4);
  ASSERT_EQ(prefixes.GetBatch(p.data(), 4), 4u);
  EXPECT_EQ(p, (std::vector<int32_t>{0, 2, 0, 3}));
  DeltaLengthByteArrayDecoder suffixes(data.data() + prefixes.bytes_consumed(),
                                       data.size() - prefixes.bytes_consumed());
  std::vector<StringRef> s(4);
  ASSERT_EQ(suffixes.GetBatch(s.data(), 4), 4u);
  EXPECT_EQ(ToStrings(s), (std::vector<std::string>{"axis", "le", "babble", "yhood"}));
  EXPECT_EQ(DecodeDeltaByteArray(data, rng), values);
}

TEST(ParquetEncodingDeltaByteArray, RoundTrip) {
  std::mt19937_64 rng(19);
  for (size_t n : {0, 1, 2, 100, 129, 2000, 5000}) {
    // Sorted strings share prefixes; repeats and empty strings test zero-length suffixes.
    std::vector<std::string> values = RandomStrings(n, rng, 12);
    std::sort(values.begin(), values.end());
    for (size_t i = 0; i + 1 < n; i += 7)
      values[i + 1] = values[i];
    if (n > 3) values[3] = values[2].substr(0, values[2].size() / 2);
    ASSERT_EQ(DecodeDeltaByteArray(EncodeDeltaByteArray(values), rng), values);
    std::shuffle(values.begin(), values.end(), rng);
    ASSERT_EQ(DecodeDeltaByteArray(EncodeDeltaByteArray(values, {256, 2}), rng), values);
  }
  std::vector<std::string> empties(50);
  ASSERT_EQ(DecodeDeltaByteArray(EncodeDeltaByteArray(empties), rng), empties);
}

TEST(ParquetEncodingDeltaByteArray, Corrupt) {
  auto build = [](std::vector<int32_t> prefixes, std::vector<std::string> suffixes) {
    Bytes out = EncodeDeltaBinaryPacked(prefixes);
    Bytes rest = EncodeDeltaLength(suffixes);
    out.insert(out.end(), rest.begin(), rest.end());
    return out;
  };
  StringHeap heap;
  std::vector<StringRef> out(4);
  Bytes first = build({1}, {"x"});
  DeltaByteArrayDecoder d1(first.data(), first.size());
  EXPECT_CORRUPT(d1.GetBatch(out.data(), 1, heap),
                 "value 0 has prefix length 1 but the previous value has 0 bytes");
  Bytes longer = build({0, 3, 9}, {"ab", "c", "d"});
  DeltaByteArrayDecoder d2(longer.data(), longer.size());
  EXPECT_CORRUPT(d2.GetBatch(out.data(), 3, heap),
                 "value 1 has prefix length 3 but the previous value has 2 bytes");
  Bytes negative = build({0, -2}, {"ab", "c"});
  DeltaByteArrayDecoder d3(negative.data(), negative.size());
  EXPECT_CORRUPT(d3.GetBatch(out.data(), 2, heap), "value 1 has prefix length -2");
  Bytes mismatch = build({0, 1, 1}, {"ab", "c"});
  EXPECT_CORRUPT(DeltaByteArrayDecoder(mismatch.data(), mismatch.size()),
                 "has 3 prefix lengths but 2 suffixes");
  // The previous value is remembered across batches.
  Bytes across = build({0, 2, 1}, {"abc", "d", ""});
  DeltaByteArrayDecoder d4(across.data(), across.size());
  ASSERT_EQ(d4.GetBatch(out.data(), 1, heap), 1u);
  ASSERT_EQ(d4.GetBatch(out.data(), 1, heap), 1u);
  EXPECT_EQ(out[0].view(), "abd");
  ASSERT_EQ(d4.GetBatch(out.data(), 1, heap), 1u);
  EXPECT_EQ(out[0].view(), "a");
}

TEST(ParquetEncodingDeltaByteArray, TruncatedAtEveryPosition) {
  std::mt19937_64 rng(20);
  std::vector<std::string> values = RandomStrings(150, rng, 10);
  std::sort(values.begin(), values.end());
  Bytes data = EncodeDeltaByteArray(values);
  for (size_t cut = 0; cut <= data.size(); cut++) {
    std::unique_ptr<uint8_t[]> exact(new uint8_t[std::max<size_t>(cut, 1)]);
    std::copy(data.begin(), data.begin() + cut, exact.get());
    std::vector<std::string> out;
    bool threw = ThrowsCorrupt([&] {
      DeltaByteArrayDecoder decoder(exact.get(), cut);
      std::vector<StringRef> chunk(9);
      while (true) {
        StringHeap heap;
        size_t k = decoder.GetBatch(chunk.data(), chunk.size(), heap);
        if (k == 0) break;
        for (size_t i = 0; i < k; i++)
          out.emplace_back(chunk[i].view());
      }
    });
    ASSERT_TRUE(std::equal(out.begin(), out.end(), values.begin())) << "cut " << cut;
    ASSERT_EQ(threw, cut < data.size()) << "cut " << cut;
    if (!threw) {
      ASSERT_EQ(out.size(), values.size());
    }
  }
}

TEST(ParquetEncodingDeltaByteArray, RandomGarbageNeverCrashes) {
  std::mt19937_64 rng(21);
  for (int iter = 0; iter < 2000; iter++) {
    std::vector<std::string> values = RandomStrings(1 + rng() % 40, rng, 8);
    Bytes data = rng() % 2 ? EncodeDeltaByteArray(values) : EncodeDeltaLength(values);
    // Flip a few bytes.
    for (int f = 0; f < 3; f++)
      data[rng() % data.size()] ^= static_cast<uint8_t>(1 + rng() % 255);
    std::unique_ptr<uint8_t[]> exact(new uint8_t[data.size()]);
    std::copy(data.begin(), data.end(), exact.get());
    ThrowsCorrupt([&] {
      DeltaByteArrayDecoder decoder(exact.get(), data.size());
      StringHeap heap;
      std::vector<StringRef> chunk(16);
      while (decoder.GetBatch(chunk.data(), chunk.size(), heap) > 0) {
      }
    });
    ThrowsCorrupt([&] {
      DeltaLengthByteArrayDecoder decoder(exact.get(), data.size());
      std::vector<StringRef> chunk(16);
      while (decoder.GetBatch(chunk.data(), chunk.size()) > 0) {
      }
    });
  }
}

// ---- BYTE_STREAM_SPLIT ---------------------------------------------------------------------

TEST(ParquetEncodingByteStreamSplit, SpecExample) {
  Bytes encoded = {0xAA, 0x00, 0xA3, 0xBB, 0x11, 0xB4, 0xCC, 0x22, 0xC5, 0xDD, 0x33, 0xD6};
  Bytes expected = {0xAA, 0xBB, 0xCC, 0xDD, 0x00, 0x11, 0x22, 0x33, 0xA3, 0xB4, 0xC5, 0xD6};
  Bytes out(12);
  DecodeByteStreamSplit(encoded.data(), encoded.size(), 4, 3, out.data());
  EXPECT_EQ(out, expected);
  EXPECT_EQ(EncodeByteStreamSplit(expected, 4), encoded);
}

TEST(ParquetEncodingByteStreamSplit, RoundTripWidths) {
  std::mt19937_64 rng(22);
  for (int width : {1, 2, 3, 4, 5, 8, 12, 16}) {
    for (size_t n : {0, 1, 15, 16, 17, 33, 100, 1000}) {
      Bytes plain(n * width);
      for (auto& b : plain)
        b = static_cast<uint8_t>(rng());
      Bytes encoded = EncodeByteStreamSplit(plain, width);
      Bytes out(plain.size() + 1, 0x5A);
      DecodeByteStreamSplit(encoded.data(), encoded.size(), width, n, out.data());
      EXPECT_EQ(out.back(), 0x5A);  // nothing written past the values
      out.pop_back();
      ASSERT_EQ(out, plain) << "width " << width << " n " << n;
      // In batches, as a page reader would.
      Bytes batched(plain.size());
      for (size_t first = 0; first < n;) {
        size_t k = std::min<size_t>(RandomBatch(rng), n - first);
        DecodeByteStreamSplitRange(encoded.data(), encoded.size(), width, first, k,
                                   batched.data() + first * width);
        first += k;
      }
      ASSERT_EQ(batched, plain);
    }
  }
  // Floats and doubles come back bit-exact.
  std::vector<double> doubles = {0.0, -0.0, 1.5, -3.25e300, 1e-310};
  Bytes plain(doubles.size() * 8);
  std::memcpy(plain.data(), doubles.data(), plain.size());
  Bytes encoded = EncodeByteStreamSplit(plain, 8);
  std::vector<double> back(doubles.size());
  DecodeByteStreamSplit(encoded.data(), encoded.size(), 8, doubles.size(),
                        reinterpret_cast<uint8_t*>(back.data()));
  EXPECT_EQ(std::memcmp(back.data(), doubles.data(), plain.size()), 0);
}

TEST(ParquetEncodingByteStreamSplit, Corrupt) {
  Bytes data(12);
  Bytes out(64);
  EXPECT_CORRUPT(DecodeByteStreamSplit(data.data(), 10, 4, 2, out.data()),
                 "data of 10 bytes is not a multiple of the 4-byte value width");
  EXPECT_CORRUPT(DecodeByteStreamSplit(data.data(), 12, 4, 4, out.data()),
                 "page holds 3 values but 4 values starting at 0 were requested");
  EXPECT_CORRUPT(DecodeByteStreamSplitRange(data.data(), 12, 4, 2, 2, out.data()),
                 "page holds 3 values but 2 values starting at 2 were requested");
  EXPECT_CORRUPT(DecodeByteStreamSplit(data.data(), 12, 0, 1, out.data()), "width 0 is invalid");
  DecodeByteStreamSplit(nullptr, 0, 4, 0, out.data());  // empty page
}

// ---- PLAIN ---------------------------------------------------------------------------------

TEST(ParquetEncodingPlain, ByteArrayRoundTrip) {
  std::mt19937_64 rng(23);
  std::vector<std::string> values = RandomStrings(500, rng);
  values[0] = "";
  Bytes data = EncodePlainByteArray(values);
  data.push_back(0x77);  // the next page's bytes are not consumed
  std::vector<StringRef> out(values.size());
  EXPECT_EQ(DecodePlainByteArray(data.data(), data.size(), values.size(), out.data()),
            data.size() - 1);
  EXPECT_EQ(ToStrings(out), values);
  EXPECT_EQ(DecodePlainByteArray(nullptr, 0, 0, out.data()), 0u);
}

TEST(ParquetEncodingPlain, ByteArrayTruncatedAtEveryPosition) {
  std::mt19937_64 rng(24);
  std::vector<std::string> values = RandomStrings(60, rng);
  Bytes data = EncodePlainByteArray(values);
  for (size_t cut = 0; cut <= data.size(); cut++) {
    std::unique_ptr<uint8_t[]> exact(new uint8_t[std::max<size_t>(cut, 1)]);
    std::copy(data.begin(), data.begin() + cut, exact.get());
    std::vector<StringRef> out(values.size());
    size_t consumed = 0;
    bool threw = ThrowsCorrupt(
        [&] { consumed = DecodePlainByteArray(exact.get(), cut, values.size(), out.data()); });
    if (cut < data.size()) {
      ASSERT_TRUE(threw) << "cut " << cut;
    } else {
      ASSERT_FALSE(threw);
      ASSERT_EQ(consumed, data.size());
      ASSERT_EQ(ToStrings(out), values);
    }
  }
  Bytes huge = {0xFF, 0xFF, 0xFF, 0xFF, 'a'};
  StringRef ref;
  EXPECT_CORRUPT(DecodePlainByteArray(huge.data(), huge.size(), 1, &ref),
                 "value 0 has length 4294967295 but only 1 bytes remain");
  EXPECT_CORRUPT(DecodePlainByteArray(huge.data(), 2, 1, &ref),
                 "value 0 is truncated: its length needs 4 bytes but only 2 remain");
}

TEST(ParquetEncodingPlain, Boolean) {
  std::mt19937_64 rng(25);
  Bytes data(40);
  for (auto& b : data)
    b = static_cast<uint8_t>(rng());
  auto bit = [&](size_t i) { return static_cast<uint8_t>((data[i / 8] >> (i % 8)) & 1); };
  for (size_t offset : {0, 1, 3, 7, 8, 9, 17}) {
    for (size_t n : {0, 1, 5, 7, 8, 9, 63, 64, 100, 300}) {
      if (offset + n > data.size() * 8) continue;
      std::vector<uint8_t> out(n + 1, 0x42);
      DecodePlainBoolean(data.data(), data.size(), offset, n, out.data());
      ASSERT_EQ(out[n], 0x42);
      for (size_t i = 0; i < n; i++)
        ASSERT_EQ(out[i], bit(offset + i)) << offset << " " << i;
    }
  }
  // Exactly every bit of an exactly sized buffer.
  Bytes one = {0xA5};
  uint8_t out8[8];
  DecodePlainBoolean(one.data(), 1, 0, 8, out8);
  EXPECT_EQ(Bytes(out8, out8 + 8), (Bytes{1, 0, 1, 0, 0, 1, 0, 1}));
  DecodePlainBoolean(one.data(), 1, 5, 3, out8);
  EXPECT_EQ(Bytes(out8, out8 + 3), (Bytes{1, 0, 1}));
  EXPECT_CORRUPT(DecodePlainBoolean(one.data(), 1, 5, 4, out8),
                 "data of 1 bytes holds 3 values after bit 5 but 4 were requested");
  EXPECT_CORRUPT(DecodePlainBoolean(one.data(), 1, 9, 0, out8), "after bit 9");
  DecodePlainBoolean(nullptr, 0, 0, 0, out8);
}

}  // namespace
}  // namespace shears::parquet

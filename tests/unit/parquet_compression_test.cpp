#include "storage/parquet/compression.h"

#include <gtest/gtest.h>
#include <lz4.h>
#include <zlib.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "common/error.h"

namespace shears::parquet {
namespace {

using Codec = format::CompressionCodec;

// The codecs Compress supports; LZ4 (deprecated) is read-only.
const Codec::type kWritableCodecs[] = {Codec::UNCOMPRESSED, Codec::SNAPPY,  Codec::GZIP,
                                       Codec::ZSTD,         Codec::LZ4_RAW, Codec::BROTLI};
const Codec::type kCompressingCodecs[] = {Codec::SNAPPY, Codec::GZIP, Codec::ZSTD, Codec::LZ4_RAW,
                                          Codec::BROTLI};

std::string RandomBytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string s(n, '\0');
  for (auto& c : s)
    c = static_cast<char>(rng());
  return s;
}

// Text-like data with repeats, as real pages have.
std::string CompressibleBytes(size_t n) {
  std::string s;
  s.reserve(n + 64);
  for (size_t i = 0; s.size() < n; ++i) {
    s += "row " + std::to_string(i % 1000) + " city_" + std::to_string(i % 37) + ";";
  }
  s.resize(n);
  return s;
}

const uint8_t* U8(const std::string& s) {
  return reinterpret_cast<const uint8_t*>(s.data());
}

// Decompresses into a heap buffer of exactly output_size, so ASan sees any overrun.
std::string DecompressTo(Codec::type codec, const std::string& compressed, size_t output_size) {
  std::vector<uint8_t> out(output_size);
  Decompress(codec, U8(compressed), compressed.size(), out.data(), out.size());
  return std::string(out.begin(), out.end());
}

std::string ErrorMessage(Codec::type codec, const std::string& compressed, size_t output_size) {
  try {
    DecompressTo(codec, compressed, output_size);
  } catch (const CorruptFileError& e) {
    return e.what();
  }
  return "<no error>";
}

void AppendBigEndian32(std::string* s, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8)
    s->push_back(static_cast<char>(v >> shift));
}

std::string Lz4Block(const std::string& data) {
  std::string out(static_cast<size_t>(LZ4_compressBound(static_cast<int>(data.size()))), '\0');
  int n = LZ4_compress_default(data.data(), out.data(), static_cast<int>(data.size()),
                               static_cast<int>(out.size()));
  EXPECT_GT(n, 0);
  out.resize(static_cast<size_t>(n));
  return out;
}

// Hadoop framing as parquet-mr writes it: per block, BE32 decompressed size, BE32 compressed
// size, then the raw LZ4 block.
std::string HadoopLz4(const std::string& data, const std::vector<size_t>& block_sizes) {
  std::string out;
  size_t pos = 0;
  for (size_t size : block_sizes) {
    std::string piece = data.substr(pos, size);
    pos += piece.size();
    std::string block = Lz4Block(piece);
    AppendBigEndian32(&out, static_cast<uint32_t>(piece.size()));
    AppendBigEndian32(&out, static_cast<uint32_t>(block.size()));
    out += block;
  }
  EXPECT_EQ(pos, data.size());
  return out;
}

TEST(ParquetCompressTest, RoundTripsEveryCodec) {
  for (Codec::type codec : kWritableCodecs) {
    for (size_t size : {size_t{1}, size_t{100}, size_t{65543}, size_t{1} << 20}) {
      for (bool compressible : {false, true}) {
        SCOPED_TRACE(std::string(CodecName(codec)) + " size " + std::to_string(size) +
                     (compressible ? " compressible" : " random"));
        std::string input = compressible ? CompressibleBytes(size) : RandomBytes(size, 7);
        std::string compressed = Compress(codec, U8(input), input.size());
        EXPECT_EQ(DecompressTo(codec, compressed, input.size()), input);
        if (compressible && size >= 65536 && codec != Codec::UNCOMPRESSED) {
          EXPECT_LT(compressed.size(), input.size() / 2);
        }
      }
    }
  }
}

TEST(ParquetCompressTest, RoundTripsWithLevels) {
  std::string input = CompressibleBytes(200000);
  for (auto [codec, level] : std::vector<std::pair<Codec::type, int>>{{Codec::GZIP, 1},
                                                                      {Codec::GZIP, 9},
                                                                      {Codec::ZSTD, 1},
                                                                      {Codec::ZSTD, 19},
                                                                      {Codec::ZSTD, -5},
                                                                      {Codec::LZ4_RAW, 9},
                                                                      {Codec::BROTLI, 1},
                                                                      {Codec::BROTLI, 11}}) {
    SCOPED_TRACE(std::string(CodecName(codec)) + " level " + std::to_string(level));
    std::string compressed = Compress(codec, U8(input), input.size(), level);
    EXPECT_EQ(DecompressTo(codec, compressed, input.size()), input);
  }
  EXPECT_THROW(Compress(Codec::GZIP, U8(input), input.size(), 10), InvalidInputError);
  EXPECT_THROW(Compress(Codec::BROTLI, U8(input), input.size(), 12), InvalidInputError);
  EXPECT_THROW(Compress(Codec::ZSTD, U8(input), input.size(), 1000), InvalidInputError);
  EXPECT_THROW(Compress(Codec::LZ4_RAW, U8(input), input.size(), -1), InvalidInputError);
}

TEST(ParquetCompressTest, GzipFramingIsGzip) {
  std::string input = CompressibleBytes(1000);
  std::string compressed = Compress(Codec::GZIP, U8(input), input.size());
  ASSERT_GE(compressed.size(), 18u);
  EXPECT_EQ(static_cast<uint8_t>(compressed[0]), 0x1f);
  EXPECT_EQ(static_cast<uint8_t>(compressed[1]), 0x8b);
}

TEST(ParquetCompressTest, EmptyPage) {
  // A zero-byte body with uncompressed size 0 (e.g. an all-NULL v2 page), for every codec.
  for (Codec::type codec : kWritableCodecs) {
    SCOPED_TRACE(CodecName(codec));
    EXPECT_NO_THROW(Decompress(codec, nullptr, 0, nullptr, 0));
    // And the codec's own encoding of nothing.
    std::string compressed = Compress(codec, nullptr, 0);
    EXPECT_NO_THROW(Decompress(codec, U8(compressed), compressed.size(), nullptr, 0));
    EXPECT_EQ(DecompressTo(codec, compressed, 0), "");
  }
  EXPECT_NO_THROW(Decompress(Codec::LZ4, nullptr, 0, nullptr, 0));
  // An empty body cannot hold data.
  for (Codec::type codec : kWritableCodecs) {
    SCOPED_TRACE(CodecName(codec));
    EXPECT_THROW(DecompressTo(codec, "", 10), CorruptFileError);
  }
  EXPECT_THROW(DecompressTo(Codec::LZ4, "", 10), CorruptFileError);
}

TEST(ParquetCompressTest, WrongOutputSizeIsCorrupt) {
  for (Codec::type codec : kWritableCodecs) {
    for (bool compressible : {false, true}) {
      SCOPED_TRACE(std::string(CodecName(codec)) + (compressible ? " compressible" : " random"));
      std::string input = compressible ? CompressibleBytes(5000) : RandomBytes(5000, 3);
      std::string compressed = Compress(codec, U8(input), input.size());
      for (size_t size : {size_t{0}, size_t{1}, size_t{4999}, size_t{5001}, size_t{10000}}) {
        SCOPED_TRACE("output_size " + std::to_string(size));
        EXPECT_THROW(DecompressTo(codec, compressed, size), CorruptFileError);
      }
    }
  }
}

TEST(ParquetCompressTest, ErrorMessagesNameCodecAndSizes) {
  std::string input = CompressibleBytes(100);
  std::string snappy = Compress(Codec::SNAPPY, U8(input), input.size());
  EXPECT_EQ(ErrorMessage(Codec::SNAPPY, snappy, 120),
            "SNAPPY page decompressed to 100 bytes, header says 120");
  std::string zstd = Compress(Codec::ZSTD, U8(input), input.size());
  EXPECT_NE(ErrorMessage(Codec::ZSTD, zstd, 99).find("ZSTD page decompresses to more than"),
            std::string::npos);
  EXPECT_EQ(ErrorMessage(Codec::ZSTD, zstd, 120),
            "ZSTD page decompressed to 100 bytes, header says 120");
  // zstd magic followed by garbage.
  std::string bad = std::string("\x28\xb5\x2f\xfd", 4) + RandomBytes(40, 1);
  EXPECT_EQ(ErrorMessage(Codec::ZSTD, bad, 100).rfind("ZSTD data is corrupt: ", 0), 0u);
  std::string gzip = Compress(Codec::GZIP, U8(input), input.size());
  EXPECT_EQ(ErrorMessage(Codec::GZIP, gzip, 120),
            "GZIP page decompressed to 100 bytes, header says 120");
  EXPECT_EQ(ErrorMessage(Codec::UNCOMPRESSED, input, 120),
            "UNCOMPRESSED page has 100 bytes, header says 120");
}

TEST(ParquetCompressTest, TruncatedInputIsCorrupt) {
  for (Codec::type codec : kCompressingCodecs) {
    for (bool compressible : {false, true}) {
      SCOPED_TRACE(std::string(CodecName(codec)) + (compressible ? " compressible" : " random"));
      std::string input = compressible ? CompressibleBytes(3000) : RandomBytes(3000, 5);
      std::string compressed = Compress(codec, U8(input), input.size());
      for (size_t cut = 0; cut < compressed.size(); ++cut) {
        // Each cut in a fresh heap buffer of exactly that size, so ASan sees overreads.
        std::string prefix = compressed.substr(0, cut);
        EXPECT_THROW(DecompressTo(codec, prefix, input.size()), CorruptFileError)
            << "cut at " << cut << " of " << compressed.size();
      }
    }
  }
}

TEST(ParquetCompressTest, CorruptedBytesNeverCrash) {
  // Flipped bytes must give CorruptFileError or (codecs without checksums) some output of the
  // right size; never a crash, an overrun or another exception.
  std::mt19937 rng(42);
  int errors = 0;
  for (Codec::type codec : kCompressingCodecs) {
    SCOPED_TRACE(CodecName(codec));
    std::string input = CompressibleBytes(4000);
    std::string compressed = Compress(codec, U8(input), input.size());
    for (int trial = 0; trial < 300; ++trial) {
      std::string damaged = compressed;
      int flips = 1 + static_cast<int>(rng() % 4);
      for (int f = 0; f < flips; ++f) {
        damaged[rng() % damaged.size()] ^= static_cast<char>(1 + rng() % 255);
      }
      try {
        EXPECT_EQ(DecompressTo(codec, damaged, input.size()).size(), input.size());
      } catch (const CorruptFileError&) {
        ++errors;
      }
    }
  }
  EXPECT_GT(errors, 0);
  // Pure garbage, including for the LZ4 Hadoop/raw fallback.
  for (Codec::type codec :
       {Codec::SNAPPY, Codec::GZIP, Codec::ZSTD, Codec::LZ4_RAW, Codec::BROTLI, Codec::LZ4}) {
    SCOPED_TRACE(CodecName(codec));
    for (uint32_t seed = 0; seed < 200; ++seed) {
      std::string garbage = RandomBytes(1 + seed * 7 % 300, seed);
      try {
        DecompressTo(codec, garbage, 1000);
      } catch (const CorruptFileError&) {
      }
    }
  }
}

TEST(ParquetCompressTest, GzipDetectsAnyChangedByte) {
  // gzip carries a CRC-32 and the length, so damage past the 10-byte header must be caught.
  // (The last deflate byte is skipped: flipping only its padding bits changes nothing.)
  std::string input = CompressibleBytes(3000);
  std::string compressed = Compress(Codec::GZIP, U8(input), input.size());
  ASSERT_GT(compressed.size(), 20u);
  for (size_t pos = 10; pos < compressed.size(); ++pos) {
    if (pos == compressed.size() - 9) continue;
    std::string damaged = compressed;
    damaged[pos] ^= 0x5a;
    EXPECT_THROW(DecompressTo(Codec::GZIP, damaged, input.size()), CorruptFileError)
        << "byte " << pos;
  }
}

TEST(ParquetCompressTest, GzipConcatenatedMembers) {
  std::string a = CompressibleBytes(3000);
  std::string b = RandomBytes(500, 9);
  std::string c = "tail";
  std::string stream = Compress(Codec::GZIP, U8(a), a.size()) +
                       Compress(Codec::GZIP, U8(b), b.size()) + Compress(Codec::GZIP, nullptr, 0) +
                       Compress(Codec::GZIP, U8(c), c.size());
  EXPECT_EQ(DecompressTo(Codec::GZIP, stream, a.size() + b.size() + c.size()), a + b + c);
  // The sizes must still add up, and a cut last member is still truncation.
  EXPECT_THROW(DecompressTo(Codec::GZIP, stream, a.size() + b.size()), CorruptFileError);
  EXPECT_THROW(DecompressTo(Codec::GZIP, stream.substr(0, stream.size() - 3),
                            a.size() + b.size() + c.size()),
               CorruptFileError);
  // Bytes after the last member that are not another member are corrupt.
  EXPECT_THROW(DecompressTo(Codec::GZIP, stream + "junk", a.size() + b.size() + c.size()),
               CorruptFileError);
}

TEST(ParquetCompressTest, GzipAcceptsZlibStream) {
  std::string input = CompressibleBytes(10000);
  uLongf size = compressBound(static_cast<uLong>(input.size()));
  std::string zlib_stream(size, '\0');
  ASSERT_EQ(compress2(reinterpret_cast<Bytef*>(zlib_stream.data()), &size, U8(input),
                      static_cast<uLong>(input.size()), 6),
            Z_OK);
  zlib_stream.resize(size);
  EXPECT_EQ(static_cast<uint8_t>(zlib_stream[0]), 0x78);  // zlib, not gzip
  EXPECT_EQ(DecompressTo(Codec::GZIP, zlib_stream, input.size()), input);
}

TEST(ParquetCompressTest, Lz4HadoopFraming) {
  std::string input = CompressibleBytes(10000) + RandomBytes(3000, 11);
  // One block, several blocks, and blocks of uneven sizes.
  for (const auto& blocks :
       std::vector<std::vector<size_t>>{{13000}, {6500, 6500}, {1, 4096, 8000, 903}, {12999, 1}}) {
    std::string framed = HadoopLz4(input, blocks);
    EXPECT_EQ(DecompressTo(Codec::LZ4, framed, input.size()), input);
    // Not what LZ4_RAW means: the framing bytes are not a raw block.
    EXPECT_THROW(DecompressTo(Codec::LZ4_RAW, framed, input.size()), CorruptFileError);
    // The framing must add up to the header's size.
    EXPECT_THROW(DecompressTo(Codec::LZ4, framed, input.size() + 1), CorruptFileError);
    EXPECT_THROW(DecompressTo(Codec::LZ4, framed, input.size() - 1), CorruptFileError);
  }
  // A tiny page as parquet-mr writes it (like the hadoop_lz4_compressed fixture).
  std::string tiny = "\x01\x02\x03";
  EXPECT_EQ(DecompressTo(Codec::LZ4, HadoopLz4(tiny, {3}), 3), tiny);
}

TEST(ParquetCompressTest, Lz4RawBlockFallback) {
  // codec 5 written by old Arrow/parquet-cpp: a plain LZ4 block without framing.
  for (size_t size : {size_t{9}, size_t{100}, size_t{70000}}) {
    std::string input = CompressibleBytes(size);
    std::string block = Lz4Block(input);
    EXPECT_EQ(DecompressTo(Codec::LZ4, block, input.size()), input);
    EXPECT_THROW(DecompressTo(Codec::LZ4, block, input.size() + 1), CorruptFileError);
  }
}

TEST(ParquetCompressTest, Lz4HostileFraming) {
  std::string input = CompressibleBytes(1000);
  std::string block = Lz4Block(input);
  std::vector<std::pair<uint32_t, uint32_t>> prefixes = {
      {0xffffffffu, static_cast<uint32_t>(block.size())},  // decompressed size too large
      {1000, 0xffffffffu},                                 // compressed size past the end
      {1000, static_cast<uint32_t>(block.size()) - 1},     // block cut short
      {999, static_cast<uint32_t>(block.size())},          // wrong decompressed size
      {0x80000000u, 0x80000000u},
  };
  for (auto [decompressed, compressed] : prefixes) {
    std::string framed;
    AppendBigEndian32(&framed, decompressed);
    AppendBigEndian32(&framed, compressed);
    framed += block;
    EXPECT_THROW(DecompressTo(Codec::LZ4, framed, input.size()), CorruptFileError);
  }
  // A valid frame followed by a partial prefix.
  std::string framed = HadoopLz4(input, {1000}) + std::string("\0\0\0", 3);
  EXPECT_THROW(DecompressTo(Codec::LZ4, framed, input.size()), CorruptFileError);
}

TEST(ParquetCompressTest, HostileSizesDoNotAllocate) {
  // Snappy's preamble claims 2^31 bytes; only the header's size (10) counts.
  std::string snappy = "\x80\x80\x80\x80\x08" + std::string(10, 'a');
  EXPECT_THROW(DecompressTo(Codec::SNAPPY, snappy, 10), CorruptFileError);
  // Sizes no page header can state are rejected before touching the buffers.
  uint8_t byte = 0;
  for (Codec::type codec : kWritableCodecs) {
    EXPECT_THROW(Decompress(codec, &byte, 1, &byte, size_t{1} << 40), CorruptFileError);
  }
}

TEST(ParquetCompressTest, UnsupportedCodecs) {
  uint8_t in[4] = {1, 2, 3, 4};
  uint8_t out[4];
  EXPECT_THROW(Decompress(Codec::LZO, in, 4, out, 4), NotSupportedError);
  EXPECT_THROW(Decompress(static_cast<Codec::type>(42), in, 4, out, 4), NotSupportedError);
  EXPECT_THROW(Decompress(static_cast<Codec::type>(-1), in, 4, out, 4), NotSupportedError);
  EXPECT_THROW(Compress(Codec::LZO, in, 4), NotSupportedError);
  EXPECT_THROW(Compress(Codec::LZ4, in, 4), NotSupportedError);
  EXPECT_THROW(Compress(static_cast<Codec::type>(42), in, 4), NotSupportedError);
}

TEST(ParquetCompressTest, CodecNames) {
  EXPECT_STREQ(CodecName(Codec::UNCOMPRESSED), "UNCOMPRESSED");
  EXPECT_STREQ(CodecName(Codec::SNAPPY), "SNAPPY");
  EXPECT_STREQ(CodecName(Codec::GZIP), "GZIP");
  EXPECT_STREQ(CodecName(Codec::LZO), "LZO");
  EXPECT_STREQ(CodecName(Codec::BROTLI), "BROTLI");
  EXPECT_STREQ(CodecName(Codec::LZ4), "LZ4");
  EXPECT_STREQ(CodecName(Codec::ZSTD), "ZSTD");
  EXPECT_STREQ(CodecName(Codec::LZ4_RAW), "LZ4_RAW");
  EXPECT_STREQ(CodecName(static_cast<Codec::type>(99)), "UNKNOWN");
}

TEST(ParquetCompressTest, Crc32) {
  const std::string check = "123456789";
  EXPECT_EQ(Crc32(U8(check), check.size()), 0xCBF43926u);  // the standard CRC-32 check value
  EXPECT_EQ(Crc32(nullptr, 0), 0u);
  std::string data = RandomBytes(100000, 17);
  EXPECT_EQ(Crc32(U8(data), data.size()),
            static_cast<uint32_t>(crc32(0, U8(data), static_cast<uInt>(data.size()))));
}

}  // namespace
}  // namespace shears::parquet

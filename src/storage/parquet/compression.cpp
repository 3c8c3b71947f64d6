#include "storage/parquet/compression.h"

#include <brotli/decode.h>
#include <brotli/encode.h>
#include <lz4.h>
#include <lz4hc.h>
#include <snappy.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include <climits>
#include <cstring>
#include <memory>

#include "common/error.h"

namespace shears::parquet {

namespace {

using Codec = format::CompressionCodec;

// Page sizes are i32 in the page header, so nothing larger can be a real page; the bound also
// lets every library below take the sizes as int / uInt without truncation.
constexpr size_t kMaxPageSize = INT32_MAX;

[[noreturn]] void ThrowSizeMismatch(Codec::type codec, size_t produced, size_t expected) {
  throw CorruptFileError("{} page decompressed to {} bytes, header says {}", CodecName(codec),
                         produced, expected);
}

[[noreturn]] void ThrowTooLarge(Codec::type codec, size_t expected) {
  throw CorruptFileError("{} page decompresses to more than the {} bytes the header says",
                         CodecName(codec), expected);
}

void DecompressSnappy(const uint8_t* input, size_t input_size, uint8_t* output,
                      size_t output_size) {
  const char* in = reinterpret_cast<const char*>(input);
  size_t length = 0;
  if (!snappy::GetUncompressedLength(in, input_size, &length)) {
    throw CorruptFileError("SNAPPY data is corrupt: bad length preamble");
  }
  // RawUncompress writes exactly `length` bytes, so it must match the buffer before we call it.
  if (length != output_size) ThrowSizeMismatch(Codec::SNAPPY, length, output_size);
  if (!snappy::RawUncompress(in, input_size, reinterpret_cast<char*>(output))) {
    throw CorruptFileError("SNAPPY data is corrupt");
  }
}

void DecompressGzip(const uint8_t* input, size_t input_size, uint8_t* output, size_t output_size) {
  z_stream zs;
  std::memset(&zs, 0, sizeof(zs));
  // 15 + 32: largest window, and detect gzip or zlib framing from the header.
  if (inflateInit2(&zs, 15 + 32) != Z_OK) throw OutOfMemoryError("cannot initialise zlib");
  struct Guard {
    z_stream* zs;
    ~Guard() { inflateEnd(zs); }
  } guard{&zs};

  zs.next_in = const_cast<Bytef*>(input);
  zs.avail_in = static_cast<uInt>(input_size);
  zs.next_out = output;
  zs.avail_out = static_cast<uInt>(output_size);
  while (true) {
    int rc = inflate(&zs, Z_NO_FLUSH);
    if (rc == Z_STREAM_END) {
      if (zs.avail_in == 0) break;
      // Some writers emit several gzip members back to back; the page is their concatenation.
      if (inflateReset(&zs) != Z_OK) throw CorruptFileError("GZIP data is corrupt");
      continue;
    }
    if (rc == Z_OK) continue;  // progress was made
    if (rc == Z_BUF_ERROR) {
      if (zs.avail_out == 0) ThrowTooLarge(Codec::GZIP, output_size);
      throw CorruptFileError("GZIP data is truncated");
    }
    throw CorruptFileError("GZIP data is corrupt: {}", zs.msg != nullptr ? zs.msg : zError(rc));
  }
  size_t produced = output_size - zs.avail_out;
  if (produced != output_size) ThrowSizeMismatch(Codec::GZIP, produced, output_size);
}

struct ZstdDCtxDeleter {
  void operator()(ZSTD_DCtx* ctx) const { ZSTD_freeDCtx(ctx); }
};
struct ZstdCCtxDeleter {
  void operator()(ZSTD_CCtx* ctx) const { ZSTD_freeCCtx(ctx); }
};

void DecompressZstd(const uint8_t* input, size_t input_size, uint8_t* output, size_t output_size) {
  // A context per thread: creating one per page costs an allocation of ~100 KiB.
  thread_local std::unique_ptr<ZSTD_DCtx, ZstdDCtxDeleter> ctx(ZSTD_createDCtx());
  if (!ctx) throw OutOfMemoryError("cannot create a ZSTD decompression context");
  // One-shot decompression into a flat buffer needs no window buffer, so a hostile frame
  // header cannot make it allocate; concatenated and skippable frames are handled.
  size_t n = ZSTD_decompressDCtx(ctx.get(), output, output_size, input, input_size);
  if (ZSTD_isError(n)) {
    if (ZSTD_getErrorCode(n) == ZSTD_error_dstSize_tooSmall) {
      ThrowTooLarge(Codec::ZSTD, output_size);
    }
    throw CorruptFileError("ZSTD data is corrupt: {}", ZSTD_getErrorName(n));
  }
  if (n != output_size) ThrowSizeMismatch(Codec::ZSTD, n, output_size);
}

void DecompressLz4Raw(Codec::type codec, const uint8_t* input, size_t input_size, uint8_t* output,
                      size_t output_size) {
  int n = LZ4_decompress_safe(reinterpret_cast<const char*>(input), reinterpret_cast<char*>(output),
                              static_cast<int>(input_size), static_cast<int>(output_size));
  // LZ4 reports "too small output" and "corrupt" alike as a negative result.
  if (n < 0) {
    throw CorruptFileError(
        "{} data is corrupt or decompresses to more than the {} bytes the "
        "header says",
        CodecName(codec), output_size);
  }
  if (static_cast<size_t>(n) != output_size) {
    ThrowSizeMismatch(codec, static_cast<size_t>(n), output_size);
  }
}

uint32_t LoadBigEndian32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}

// Hadoop's framing (parquet-mr, old Arrow): blocks of [BE32 decompressed size][BE32 compressed
// size][LZ4 block]. Returns false unless the input is exactly such a sequence filling the
// output, so the caller can try the raw-block interpretation instead.
bool TryDecompressHadoopLz4(const uint8_t* input, size_t input_size, uint8_t* output,
                            size_t output_size) {
  constexpr size_t kPrefix = 8;
  size_t in_pos = 0;
  size_t out_pos = 0;
  while (input_size - in_pos >= kPrefix) {
    size_t decompressed = LoadBigEndian32(input + in_pos);
    size_t compressed = LoadBigEndian32(input + in_pos + 4);
    in_pos += kPrefix;
    if (compressed > input_size - in_pos || decompressed > output_size - out_pos) return false;
    if (compressed == 0) {
      if (decompressed != 0) return false;
      continue;
    }
    int n = LZ4_decompress_safe(reinterpret_cast<const char*>(input + in_pos),
                                reinterpret_cast<char*>(output + out_pos),
                                static_cast<int>(compressed), static_cast<int>(decompressed));
    if (n < 0 || static_cast<size_t>(n) != decompressed) return false;
    in_pos += compressed;
    out_pos += decompressed;
  }
  return in_pos == input_size && out_pos == output_size;
}

void DecompressBrotli(const uint8_t* input, size_t input_size, uint8_t* output,
                      size_t output_size) {
  struct Deleter {
    void operator()(BrotliDecoderState* s) const { BrotliDecoderDestroyInstance(s); }
  };
  std::unique_ptr<BrotliDecoderState, Deleter> state(
      BrotliDecoderCreateInstance(nullptr, nullptr, nullptr));
  if (!state) throw OutOfMemoryError("cannot create a BROTLI decoder");
  size_t avail_in = input_size;
  const uint8_t* next_in = input;
  size_t avail_out = output_size;
  uint8_t* next_out = output;
  BrotliDecoderResult result;
  while (true) {
    size_t before_in = avail_in;
    size_t before_out = avail_out;
    result = BrotliDecoderDecompressStream(state.get(), &avail_in, &next_in, &avail_out, &next_out,
                                           nullptr);
    // NEEDS_MORE_OUTPUT with room left can happen when the decoder flushes its ring buffer in
    // steps; loop while it makes progress.
    if (result != BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT || avail_out == 0) break;
    if (avail_in == before_in && avail_out == before_out) break;
  }
  switch (result) {
    case BROTLI_DECODER_RESULT_SUCCESS:
      if (avail_in != 0) {
        throw CorruptFileError("BROTLI data is corrupt: {} bytes after the end of the stream",
                               avail_in);
      }
      if (avail_out != 0) ThrowSizeMismatch(Codec::BROTLI, output_size - avail_out, output_size);
      return;
    case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT:
      throw CorruptFileError("BROTLI data is truncated");
    case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT:
      ThrowTooLarge(Codec::BROTLI, output_size);
    default:
      throw CorruptFileError("BROTLI data is corrupt: {}",
                             BrotliDecoderErrorString(BrotliDecoderGetErrorCode(state.get())));
  }
}

}  // namespace

const char* CodecName(format::CompressionCodec::type codec) {
  switch (codec) {
    case Codec::UNCOMPRESSED:
      return "UNCOMPRESSED";
    case Codec::SNAPPY:
      return "SNAPPY";
    case Codec::GZIP:
      return "GZIP";
    case Codec::LZO:
      return "LZO";
    case Codec::BROTLI:
      return "BROTLI";
    case Codec::LZ4:
      return "LZ4";
    case Codec::ZSTD:
      return "ZSTD";
    case Codec::LZ4_RAW:
      return "LZ4_RAW";
  }
  return "UNKNOWN";
}

void Decompress(format::CompressionCodec::type codec, const uint8_t* input, size_t input_size,
                uint8_t* output, size_t output_size) {
  switch (codec) {
    case Codec::UNCOMPRESSED:
    case Codec::SNAPPY:
    case Codec::GZIP:
    case Codec::BROTLI:
    case Codec::LZ4:
    case Codec::ZSTD:
    case Codec::LZ4_RAW:
      break;
    case Codec::LZO:
      throw NotSupportedError("LZO compression is not supported");
    default:
      throw NotSupportedError("unknown compression codec id {}", static_cast<int>(codec));
  }
  if (input_size > kMaxPageSize || output_size > kMaxPageSize) {
    throw CorruptFileError(
        "{} page of {} compressed / {} uncompressed bytes exceeds the 2 GiB "
        "limit of a page",
        CodecName(codec), input_size, output_size);
  }
  // Writers store an empty page body (e.g. the values of an all-NULL v2 page) as zero bytes
  // whatever the codec, although no codec encodes nothing as nothing.
  if (input_size == 0 && output_size == 0) return;
  // Libraries may reject null buffers even when empty.
  uint8_t dummy_out = 0;
  if (output == nullptr && output_size == 0) output = &dummy_out;
  static const uint8_t kDummyIn = 0;
  if (input == nullptr && input_size == 0) input = &kDummyIn;

  switch (codec) {
    case Codec::UNCOMPRESSED:
      if (input_size != output_size) {
        throw CorruptFileError("UNCOMPRESSED page has {} bytes, header says {}", input_size,
                               output_size);
      }
      std::memcpy(output, input, input_size);
      return;
    case Codec::SNAPPY:
      return DecompressSnappy(input, input_size, output, output_size);
    case Codec::GZIP:
      return DecompressGzip(input, input_size, output, output_size);
    case Codec::ZSTD:
      return DecompressZstd(input, input_size, output, output_size);
    case Codec::LZ4_RAW:
      return DecompressLz4Raw(codec, input, input_size, output, output_size);
    case Codec::LZ4:
      if (TryDecompressHadoopLz4(input, input_size, output, output_size)) return;
      return DecompressLz4Raw(codec, input, input_size, output, output_size);
    case Codec::BROTLI:
      return DecompressBrotli(input, input_size, output, output_size);
    default:
      break;
  }
  throw InternalError("unhandled codec {}", static_cast<int>(codec));
}

std::string Compress(format::CompressionCodec::type codec, const uint8_t* input, size_t size,
                     int level) {
  if (size > kMaxPageSize) {
    throw InvalidInputError("cannot compress {} bytes: a Parquet page holds at most 2 GiB", size);
  }
  static const uint8_t kDummyIn = 0;
  if (input == nullptr) {
    if (size != 0) throw InvalidInputError("null input of {} bytes", size);
    input = &kDummyIn;
  }
  std::string out;
  switch (codec) {
    case Codec::UNCOMPRESSED:
      out.assign(reinterpret_cast<const char*>(input), size);
      return out;

    case Codec::SNAPPY: {
      out.resize(snappy::MaxCompressedLength(size));
      size_t n = 0;
      snappy::RawCompress(reinterpret_cast<const char*>(input), size, out.data(), &n);
      out.resize(n);
      return out;
    }

    case Codec::GZIP: {
      if (level == 0) level = Z_DEFAULT_COMPRESSION;
      if (level != Z_DEFAULT_COMPRESSION && (level < 1 || level > 9)) {
        throw InvalidInputError("GZIP compression level must be 1-9, got {}", level);
      }
      z_stream zs;
      std::memset(&zs, 0, sizeof(zs));
      // 15 + 16: gzip framing, which is what the Parquet spec means by GZIP.
      if (deflateInit2(&zs, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        throw OutOfMemoryError("cannot initialise zlib");
      }
      out.resize(deflateBound(&zs, size));
      zs.next_in = const_cast<Bytef*>(input);
      zs.avail_in = static_cast<uInt>(size);
      zs.next_out = reinterpret_cast<Bytef*>(out.data());
      zs.avail_out = static_cast<uInt>(out.size());
      int rc = deflate(&zs, Z_FINISH);
      size_t n = zs.total_out;
      deflateEnd(&zs);
      if (rc != Z_STREAM_END) throw InternalError("zlib deflate failed: {}", zError(rc));
      out.resize(n);
      return out;
    }

    case Codec::ZSTD: {
      if (level < ZSTD_minCLevel() || level > ZSTD_maxCLevel()) {
        throw InvalidInputError("ZSTD compression level must be {}-{}, got {}", ZSTD_minCLevel(),
                                ZSTD_maxCLevel(), level);
      }
      thread_local std::unique_ptr<ZSTD_CCtx, ZstdCCtxDeleter> ctx(ZSTD_createCCtx());
      if (!ctx) throw OutOfMemoryError("cannot create a ZSTD compression context");
      out.resize(ZSTD_compressBound(size));
      // Level 0 is zstd's own "default level".
      size_t n = ZSTD_compressCCtx(ctx.get(), out.data(), out.size(), input, size, level);
      if (ZSTD_isError(n)) throw InternalError("ZSTD compression failed: {}", ZSTD_getErrorName(n));
      out.resize(n);
      return out;
    }

    case Codec::LZ4_RAW: {
      if (level < 0 || level > LZ4HC_CLEVEL_MAX) {
        throw InvalidInputError("LZ4_RAW compression level must be 0-{}, got {}", LZ4HC_CLEVEL_MAX,
                                level);
      }
      out.resize(static_cast<size_t>(LZ4_compressBound(static_cast<int>(size))));
      const char* in = reinterpret_cast<const char*>(input);
      int n = level == 0 ? LZ4_compress_default(in, out.data(), static_cast<int>(size),
                                                static_cast<int>(out.size()))
                         : LZ4_compress_HC(in, out.data(), static_cast<int>(size),
                                           static_cast<int>(out.size()), level);
      if (n <= 0) throw InternalError("LZ4 compression of {} bytes failed", size);
      out.resize(static_cast<size_t>(n));
      return out;
    }

    case Codec::BROTLI: {
      // Brotli's own default (11) is very slow; 8 is the usual speed/size balance (Arrow's).
      if (level == 0) level = 8;
      if (level < 1 || level > BROTLI_MAX_QUALITY) {
        throw InvalidInputError("BROTLI quality must be 1-{}, got {}", BROTLI_MAX_QUALITY, level);
      }
      size_t n = BrotliEncoderMaxCompressedSize(size);
      if (n == 0) throw InvalidInputError("cannot BROTLI-compress {} bytes", size);
      out.resize(n);
      if (!BrotliEncoderCompress(level, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC, size, input, &n,
                                 reinterpret_cast<uint8_t*>(out.data()))) {
        throw InternalError("BROTLI compression of {} bytes failed", size);
      }
      out.resize(n);
      return out;
    }

    case Codec::LZ4:
      throw NotSupportedError("writing the deprecated LZ4 codec is not supported; use LZ4_RAW");
    case Codec::LZO:
      throw NotSupportedError("LZO compression is not supported");
  }
  throw NotSupportedError("unknown compression codec id {}", static_cast<int>(codec));
}

uint32_t Crc32(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  return static_cast<uint32_t>(crc32_z(0, data, size));
}

}  // namespace shears::parquet

// Fuzzes the value and level decoders and the page codecs directly (no file around them), which
// reaches their corners faster than whole files do. Input: [decoder][parameter][count lo][count
// hi][data...]; the count is the values to decode (at most 4096) or, for the codecs, the
// uncompressed size; the decoder byte picks one of kDecoders.

#include <algorithm>
#include <cstring>
#include <vector>

#include "fuzz_util.h"
#include "storage/parquet/compression.h"
#include "storage/parquet/encoding.h"

using namespace shears;
using namespace shears::parquet;

namespace {

constexpr size_t kMaxCount = 4096;

struct Input {
  uint8_t parameter;
  size_t count;  // values to ask for, 0..kMaxCount
  const uint8_t* data;
  size_t size;
};

void Rle(const Input& in) {
  const int width = in.parameter % 33;
  std::vector<uint32_t> out(in.count);
  RleBitPackedDecoder bounded(in.data, in.size, width, in.count);
  bounded.GetBatch(out.data(), out.size());
  // Without a limit one run header can promise 2^32 values: ask for a bounded number.
  RleBitPackedDecoder unbounded(in.data, in.size, width);
  out.resize(std::max<size_t>(out.size(), 1));
  for (int i = 0; i < 16 && unbounded.GetBatch(out.data(), out.size()) > 0; i++) {
  }
}

void LengthPrefixedRle(const Input& in) {
  size_t consumed = 0;
  auto decoder = MakeLengthPrefixedRleDecoder(in.data, in.size, in.parameter % 33, &consumed);
  if (consumed > in.size) std::abort();
  std::vector<uint32_t> out(in.count);
  decoder.GetBatch(out.data(), out.size());
}

void DictionaryIndexes(const Input& in) {
  auto decoder = MakeDictionaryIndexDecoder(in.data, in.size, in.count);
  std::vector<uint32_t> out(in.count);
  const uint32_t bound = in.parameter;
  const size_t n = decoder.GetBatchBounded(out.data(), out.size(), bound);
  for (size_t i = 0; i < n; i++) {
    if (out[i] >= bound) std::abort();  // an index the dictionary does not have got through
  }
}

void LegacyBitPacked(const Input& in) {
  std::vector<uint32_t> out(in.count);
  const int width = in.parameter % 33;
  const size_t n = DecodeLegacyBitPacked(in.data, in.size, width, out.data(), out.size());
  if (n > out.size()) std::abort();
  LegacyBitPackedSize(in.count, width);
}

template <typename T>
void DeltaBinaryPacked(const Input& in) {
  DeltaBinaryPackedDecoder<T> decoder(in.data, in.size);
  if (decoder.bytes_consumed() > in.size) std::abort();
  std::vector<T> out(std::max<size_t>(in.count, 1));
  // The header may claim billions of values; asking for a bounded number must stay cheap.
  for (int i = 0; i < 8 && decoder.GetBatch(out.data(), out.size()) > 0; i++) {
  }
}

void DeltaLength(const Input& in) {
  DeltaLengthByteArrayDecoder decoder(in.data, in.size);
  std::vector<StringRef> out(std::max<size_t>(in.count, 1));
  for (int i = 0; i < 8; i++) {
    const size_t n = decoder.GetBatch(out.data(), out.size());
    if (n == 0) break;
    for (size_t v = 0; v < n; v++) {
      // Each value must lie inside the input.
      const auto* begin = reinterpret_cast<const uint8_t*>(out[v].ptr);
      if (out[v].len > 0 && (begin < in.data || begin + out[v].len > in.data + in.size)) {
        std::abort();
      }
    }
  }
}

void DeltaByteArray(const Input& in) {
  DeltaByteArrayDecoder decoder(in.data, in.size);
  std::vector<StringRef> out(std::max<size_t>(in.count, 1));
  StringHeap heap;
  for (int i = 0; i < 8; i++) {
    const size_t n = decoder.GetBatch(out.data(), out.size(), heap);
    if (n == 0) break;
    volatile uint8_t sink = 0;
    for (size_t v = 0; v < n; v++) {
      for (size_t b = 0; b < out[v].len; b++)
        sink = sink ^ static_cast<uint8_t>(out[v].ptr[b]);
    }
  }
}

void ByteStreamSplit(const Input& in) {
  const int width = in.parameter % 17 + 1;
  const size_t values = std::min(in.count, in.size / static_cast<size_t>(width));
  std::vector<uint8_t> out(values * static_cast<size_t>(width) + 1);
  DecodeByteStreamSplit(in.data, in.size, width, values, out.data());
  if (values > 1) {
    DecodeByteStreamSplitRange(in.data, in.size, width, 1, values - 1, out.data());
  }
}

void PlainByteArray(const Input& in) {
  std::vector<StringRef> out(in.count);
  const size_t consumed = DecodePlainByteArray(in.data, in.size, out.size(), out.data());
  if (consumed > in.size) std::abort();
}

void PlainBoolean(const Input& in) {
  const size_t values = std::min(in.count, in.size * 8);
  std::vector<uint8_t> out(values);
  DecodePlainBoolean(in.data, in.size, in.parameter % 8,
                     values - std::min<size_t>(values, in.parameter % 8), out.data());
}

void DecompressPage(const Input& in) {
  static constexpr format::CompressionCodec::type kCodecs[] = {
      format::CompressionCodec::UNCOMPRESSED, format::CompressionCodec::SNAPPY,
      format::CompressionCodec::GZIP,         format::CompressionCodec::BROTLI,
      format::CompressionCodec::LZ4,          format::CompressionCodec::ZSTD,
      format::CompressionCodec::LZ4_RAW,
  };
  const auto codec = kCodecs[in.parameter % std::size(kCodecs)];
  // The page header's uncompressed size (up to 64 KiB, so a lying header costs little).
  std::vector<uint8_t> out(in.count);
  Decompress(codec, in.data, in.size, out.data(), out.size());
}

using Decoder = void (*)(const Input&);
constexpr Decoder kDecoders[] = {
    Rle,
    DictionaryIndexes,
    LengthPrefixedRle,
    LegacyBitPacked,
    DeltaBinaryPacked<int32_t>,
    DeltaBinaryPacked<int64_t>,
    DeltaLength,
    DeltaByteArray,
    ByteStreamSplit,
    PlainByteArray,
    PlainBoolean,
    DecompressPage,
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 4) return 0;
  const Decoder decoder = kDecoders[data[0] % std::size(kDecoders)];
  const size_t count = static_cast<size_t>(data[2]) | static_cast<size_t>(data[3]) << 8;
  const bool decompress = decoder == DecompressPage;
  Input input{data[1], decompress ? count : std::min(count, kMaxCount), nullptr, size - 4};
  // A copy of exactly the data bytes, so ASan sees any read past them.
  std::vector<uint8_t> copy(data + 4, data + size);
  input.data = copy.data();
  fuzz::ExpectOnlyUserErrors([&] { decoder(input); });
  return 0;
}

// Decoding throughput of the Parquet value/level decoders. Each benchmark encodes 1M values
// once (with the small encoders below), then decodes them in batches of kBatchSize as a
// column reader would. items/s counts decoded values; bytes/s counts encoded input bytes.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "common/vector.h"
#include "storage/parquet/encoding.h"

namespace shears::parquet {
namespace {

using Bytes = std::vector<uint8_t>;
constexpr size_t kValues = size_t{1} << 20;

void PutUleb(Bytes& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<uint8_t>(v) | 0x80);
    v >>= 7;
  }
  out.push_back(static_cast<uint8_t>(v));
}

/// Appends values LSB first, `width` bits each.
void PackLsb(Bytes& out, const uint64_t* values, size_t n, int width) {
  size_t start = out.size();
  out.resize(start + (n * width + 7) / 8, 0);
  size_t bit = 0;
  for (size_t i = 0; i < n; i++) {
    for (int b = 0; b < width; b++, bit++) {
      if ((values[i] >> b) & 1) out[start + bit / 8] |= static_cast<uint8_t>(1u << (bit % 8));
    }
  }
}

/// RLE hybrid: runs of >= 8 equal values become RLE runs, the rest bit-packed runs of up to
/// 64 groups (only the final group padded).
Bytes EncodeRle(const std::vector<uint32_t>& values, int width) {
  Bytes out;
  size_t i = 0;
  while (i < values.size()) {
    size_t same = 1;
    while (i + same < values.size() && values[i + same] == values[i])
      same++;
    if (same >= 8) {
      PutUleb(out, uint64_t{same} << 1);
      for (int b = 0; b < (width + 7) / 8; b++)
        out.push_back(static_cast<uint8_t>(values[i] >> (8 * b)));
      i += same;
      continue;
    }
    size_t end = i + 8;
    while (end < values.size() && end - i < 512) {
      size_t run = 1;
      while (end + run < values.size() && run < 8 && values[end + run] == values[end])
        run++;
      if (run >= 8) break;
      end += 8;
    }
    end = std::min(end, values.size());
    size_t groups = (end - i + 7) / 8;
    PutUleb(out, (uint64_t{groups} << 1) | 1);
    std::vector<uint64_t> group(groups * 8, 0);
    std::copy(values.begin() + i, values.begin() + end, group.begin());
    PackLsb(out, group.data(), group.size(), width);
    i = end;
  }
  return out;
}

template <typename T>
Bytes EncodeDelta(const std::vector<T>& values) {
  using U = std::make_unsigned_t<T>;
  constexpr size_t kBlock = 128, kMiniblocks = 4, kPerMiniblock = kBlock / kMiniblocks;
  auto zigzag = [](T v) -> uint64_t {
    return static_cast<U>((static_cast<U>(v) << 1) ^ static_cast<U>(v < 0 ? ~U{0} : 0));
  };
  Bytes out;
  PutUleb(out, kBlock);
  PutUleb(out, kMiniblocks);
  PutUleb(out, values.size());
  PutUleb(out, zigzag(values.empty() ? 0 : values[0]));
  std::vector<U> deltas;
  for (size_t i = 1; i < values.size(); i++) {
    deltas.push_back(static_cast<U>(static_cast<U>(values[i]) - static_cast<U>(values[i - 1])));
  }
  for (size_t start = 0; start < deltas.size(); start += kBlock) {
    size_t count = std::min(kBlock, deltas.size() - start);
    T min_delta = static_cast<T>(deltas[start]);
    for (size_t i = 0; i < count; i++)
      min_delta = std::min(min_delta, static_cast<T>(deltas[start + i]));
    PutUleb(out, zigzag(min_delta));
    size_t widths_at = out.size();
    out.resize(out.size() + kMiniblocks, 0);
    for (size_t m = 0; m * kPerMiniblock < count; m++) {
      std::vector<uint64_t> rel(kPerMiniblock, 0);
      U max = 0;
      for (size_t i = 0; i < kPerMiniblock && m * kPerMiniblock + i < count; i++) {
        rel[i] = static_cast<U>(deltas[start + m * kPerMiniblock + i] - static_cast<U>(min_delta));
        max = std::max<U>(max, static_cast<U>(rel[i]));
      }
      int width = 0;
      while (width < static_cast<int>(sizeof(T) * 8) && (max >> width) != 0)
        width++;
      out[widths_at + m] = static_cast<uint8_t>(width);
      PackLsb(out, rel.data(), rel.size(), width);
    }
  }
  return out;
}

Bytes EncodeDeltaLength(const std::vector<std::string>& values) {
  std::vector<int32_t> lengths;
  for (const auto& v : values)
    lengths.push_back(static_cast<int32_t>(v.size()));
  Bytes out = EncodeDelta(lengths);
  for (const auto& v : values)
    out.insert(out.end(), v.begin(), v.end());
  return out;
}

Bytes EncodeDeltaByteArray(const std::vector<std::string>& values) {
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
  Bytes out = EncodeDelta(prefixes);
  Bytes rest = EncodeDeltaLength(suffixes);
  out.insert(out.end(), rest.begin(), rest.end());
  return out;
}

std::vector<std::string> RandomStrings(std::mt19937_64& rng) {
  std::vector<std::string> values(kValues);
  for (auto& v : values) {
    v.resize(rng() % 33);
    for (auto& c : v)
      c = static_cast<char>('a' + rng() % 26);
  }
  return values;
}

void Report(benchmark::State& state, size_t encoded_bytes) {
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kValues));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * encoded_bytes));
}

// ---- RLE / bit-packed ----------------------------------------------------------------------

/// Dictionary indexes at bit width `range(0)` with a dictionary of 2^w - 1 entries (so the
/// bound check runs), random order: nearly all bit-packed.
void BM_RleDictionaryIndexes(benchmark::State& state) {
  int width = static_cast<int>(state.range(0));
  uint32_t dict_size = width == 1 ? 2 : (1u << width) - 1;
  std::mt19937_64 rng(1);
  std::vector<uint32_t> values(kValues);
  for (auto& v : values)
    v = static_cast<uint32_t>(rng() % dict_size);
  Bytes data = EncodeRle(values, width);
  std::vector<uint32_t> out(kBatchSize);
  for (auto _ : state) {
    RleBitPackedDecoder decoder(data.data(), data.size(), width);
    for (size_t done = 0; done < kValues; done += kBatchSize) {
      decoder.GetBatchBounded(out.data(), kBatchSize, dict_size);
    }
    benchmark::DoNotOptimize(out.data());
  }
  Report(state, data.size());
}
BENCHMARK(BM_RleDictionaryIndexes)->Arg(1)->Arg(8)->Arg(17);

/// Definition levels of an optional column (width 1): runs of nulls and values mixed with
/// scattered nulls, so both RLE and bit-packed runs occur.
void BM_RleLevels(benchmark::State& state) {
  std::mt19937_64 rng(2);
  std::vector<uint32_t> values;
  while (values.size() < kValues) {
    bool run = rng() % 2;
    size_t len = std::min<size_t>(kValues - values.size(), 8 + rng() % 200);
    for (size_t i = 0; i < len; i++)
      values.push_back(run ? 1 : (rng() % 10 != 0));
  }
  Bytes data = EncodeRle(values, 1);
  std::vector<uint32_t> out(kBatchSize);
  for (auto _ : state) {
    RleBitPackedDecoder decoder(data.data(), data.size(), 1);
    for (size_t done = 0; done < kValues; done += kBatchSize)
      decoder.GetBatch(out.data(), kBatchSize);
    benchmark::DoNotOptimize(out.data());
  }
  Report(state, data.size());
}
BENCHMARK(BM_RleLevels);

/// Levels at width `range(0)`, random, so every run is bit-packed.
void BM_BitPackedLevels(benchmark::State& state) {
  int width = static_cast<int>(state.range(0));
  std::mt19937_64 rng(3);
  std::vector<uint32_t> values(kValues);
  for (auto& v : values)
    v = static_cast<uint32_t>(rng()) & ((1u << width) - 1);
  Bytes data = EncodeRle(values, width);
  std::vector<uint32_t> out(kBatchSize);
  for (auto _ : state) {
    RleBitPackedDecoder decoder(data.data(), data.size(), width);
    for (size_t done = 0; done < kValues; done += kBatchSize)
      decoder.GetBatch(out.data(), kBatchSize);
    benchmark::DoNotOptimize(out.data());
  }
  Report(state, data.size());
}
BENCHMARK(BM_BitPackedLevels)->Arg(1)->Arg(2)->Arg(3);

/// The deprecated BIT_PACKED (MSB-first) level encoding.
void BM_LegacyBitPackedLevels(benchmark::State& state) {
  int width = static_cast<int>(state.range(0));
  std::mt19937_64 rng(4);
  Bytes data((kValues * width + 7) / 8);
  for (auto& b : data)
    b = static_cast<uint8_t>(rng());
  std::vector<uint32_t> out(kBatchSize);
  for (auto _ : state) {
    for (size_t done = 0; done < kValues; done += kBatchSize) {
      size_t offset = done * width / 8;  // kBatchSize is a multiple of 8
      DecodeLegacyBitPacked(data.data() + offset, data.size() - offset, width, out.data(),
                            kBatchSize);
    }
    benchmark::DoNotOptimize(out.data());
  }
  Report(state, data.size());
}
BENCHMARK(BM_LegacyBitPackedLevels)->Arg(1)->Arg(3);

// ---- DELTA_BINARY_PACKED -------------------------------------------------------------------

/// range(0) == 0: increasing values with small random steps (ids, timestamps);
/// range(0) == 1: uniformly random values (widest miniblocks).
template <typename T>
void BM_DeltaBinaryPacked(benchmark::State& state) {
  std::mt19937_64 rng(5);
  std::vector<T> values(kValues);
  T acc = 1000;
  for (auto& v : values) {
    acc = static_cast<T>(acc + static_cast<T>(rng() % 1000));
    v = state.range(0) == 0 ? acc : static_cast<T>(rng());
  }
  Bytes data = EncodeDelta(values);
  std::vector<T> out(kBatchSize);
  for (auto _ : state) {
    DeltaBinaryPackedDecoder<T> decoder(data.data(), data.size());
    while (decoder.GetBatch(out.data(), kBatchSize) > 0) {
    }
    benchmark::DoNotOptimize(out.data());
  }
  Report(state, data.size());
}
BENCHMARK(BM_DeltaBinaryPacked<int32_t>)->Arg(0)->Arg(1);
BENCHMARK(BM_DeltaBinaryPacked<int64_t>)->Arg(0)->Arg(1);

// ---- byte arrays ---------------------------------------------------------------------------

/// Random strings of 0..32 bytes.
void BM_DeltaLengthByteArray(benchmark::State& state) {
  std::mt19937_64 rng(6);
  Bytes data = EncodeDeltaLength(RandomStrings(rng));
  std::vector<StringRef> out(kBatchSize);
  for (auto _ : state) {
    DeltaLengthByteArrayDecoder decoder(data.data(), data.size());
    while (decoder.GetBatch(out.data(), kBatchSize) > 0) {
    }
    benchmark::DoNotOptimize(out.data());
  }
  Report(state, data.size());
}
BENCHMARK(BM_DeltaLengthByteArray);

/// Sorted keys sharing long prefixes ("customer#000012345-..."), copied into a fresh heap
/// per batch as a vector would.
void BM_DeltaByteArray(benchmark::State& state) {
  std::mt19937_64 rng(7);
  std::vector<std::string> values(kValues);
  for (size_t i = 0; i < kValues; i++) {
    values[i] = "customer#" + std::to_string(100000000 + i * 7) + "-" +
                std::string(rng() % 8, static_cast<char>('a' + rng() % 26));
  }
  Bytes data = EncodeDeltaByteArray(values);
  std::vector<StringRef> out(kBatchSize);
  for (auto _ : state) {
    DeltaByteArrayDecoder decoder(data.data(), data.size());
    while (true) {
      StringHeap heap;
      if (decoder.GetBatch(out.data(), kBatchSize, heap) == 0) break;
      benchmark::DoNotOptimize(out.data());
    }
  }
  Report(state, data.size());
}
BENCHMARK(BM_DeltaByteArray);

/// Random strings of 0..32 bytes, PLAIN.
void BM_PlainByteArray(benchmark::State& state) {
  std::mt19937_64 rng(8);
  Bytes data;
  for (const auto& v : RandomStrings(rng)) {
    uint32_t len = static_cast<uint32_t>(v.size());
    data.insert(data.end(), reinterpret_cast<uint8_t*>(&len), reinterpret_cast<uint8_t*>(&len) + 4);
    data.insert(data.end(), v.begin(), v.end());
  }
  std::vector<StringRef> out(kBatchSize);
  for (auto _ : state) {
    size_t pos = 0;
    for (size_t done = 0; done < kValues; done += kBatchSize) {
      pos += DecodePlainByteArray(data.data() + pos, data.size() - pos, kBatchSize, out.data());
    }
    benchmark::DoNotOptimize(out.data());
  }
  Report(state, data.size());
}
BENCHMARK(BM_PlainByteArray);

// ---- fixed width ---------------------------------------------------------------------------

/// BYTE_STREAM_SPLIT of `range(0)`-byte values (4: FLOAT, 8: DOUBLE), decoded in batches.
void BM_ByteStreamSplit(benchmark::State& state) {
  int width = static_cast<int>(state.range(0));
  std::mt19937_64 rng(9);
  Bytes data(kValues * width);
  for (auto& b : data)
    b = static_cast<uint8_t>(rng());
  std::vector<uint8_t> out(kBatchSize * width);
  for (auto _ : state) {
    for (size_t done = 0; done < kValues; done += kBatchSize) {
      DecodeByteStreamSplitRange(data.data(), data.size(), width, done, kBatchSize, out.data());
    }
    benchmark::DoNotOptimize(out.data());
  }
  Report(state, data.size());
}
BENCHMARK(BM_ByteStreamSplit)->Arg(4)->Arg(8);

void BM_PlainBoolean(benchmark::State& state) {
  std::mt19937_64 rng(10);
  Bytes data(kValues / 8);
  for (auto& b : data)
    b = static_cast<uint8_t>(rng());
  std::vector<uint8_t> out(kBatchSize);
  for (auto _ : state) {
    for (size_t done = 0; done < kValues; done += kBatchSize) {
      DecodePlainBoolean(data.data(), data.size(), done, kBatchSize, out.data());
    }
    benchmark::DoNotOptimize(out.data());
  }
  Report(state, data.size());
}
BENCHMARK(BM_PlainBoolean);

}  // namespace
}  // namespace shears::parquet

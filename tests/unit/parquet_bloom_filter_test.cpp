#include "storage/parquet/bloom_filter.h"

#include <gtest/gtest.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "common/error.h"
#include "test_util.h"

namespace shears::parquet {
namespace {

using BF = SplitBlockBloomFilter;

const std::string kDataDir = test::DataDir() + "/parquet/";

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string ReadRange(const std::string& path, uint64_t offset, size_t length) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  in.seekg(static_cast<std::streamoff>(offset));
  std::string bytes(length, '\0');
  in.read(bytes.data(), static_cast<std::streamsize>(length));
  bytes.resize(static_cast<size_t>(in.gcount()));
  return bytes;
}

const uint8_t* U8(const std::string& s) {
  return reinterpret_cast<const uint8_t*>(s.data());
}

std::string SerializeHeader(const format::BloomFilterHeader& header) {
  auto buffer = std::make_shared<apache::thrift::transport::TMemoryBuffer>();
  apache::thrift::protocol::TCompactProtocolT<apache::thrift::transport::TMemoryBuffer> protocol(
      buffer);
  header.write(&protocol);
  return buffer->getBufferAsString();
}

format::BloomFilterHeader ValidHeader(int32_t num_bytes) {
  format::BloomFilterHeader header;
  header.numBytes = num_bytes;
  header.algorithm.__set_BLOCK(format::SplitBlockAlgorithm());
  header.hash.__set_XXHASH(format::XxHash());
  header.compression.__set_UNCOMPRESSED(format::Uncompressed());
  return header;
}

// ---- filters built here ----

TEST(ParquetBloomFilterTest, NoFalseNegativesAndOnePercentFpp) {
  // ForNdv(100000, 0.01) asks for ~121 KB and rounds up to 128 KiB, so the real rate is a bit
  // under 1%; a wrong salt, block choice or bit mapping pushes it far outside [0.5%, 2%].
  constexpr int64_t kInserted = 100000;
  constexpr int64_t kProbes = 100000;
  BF filter = BF::ForNdv(kInserted, 0.01);
  EXPECT_EQ(filter.bytes().size(), 131072u);
  for (int64_t i = 0; i < kInserted; ++i)
    filter.InsertHash(BF::HashInt64(i * 7919));
  for (int64_t i = 0; i < kInserted; ++i) {
    ASSERT_TRUE(filter.MightContainHash(BF::HashInt64(i * 7919))) << i;
  }
  int64_t false_positives = 0;
  for (int64_t i = 0; i < kProbes; ++i) {
    // i * 7919 + 1 is never a multiple of 7919, so never inserted.
    false_positives += filter.MightContainHash(BF::HashInt64(i * 7919 + 1)) ? 1 : 0;
  }
  double fpp = static_cast<double>(false_positives) / kProbes;
  std::printf("[bloom] int64 keys: measured FPP %.4f%% (%lld of %lld absent keys)\n", fpp * 100,
              static_cast<long long>(false_positives), static_cast<long long>(kProbes));
  EXPECT_GE(fpp, 0.005);
  EXPECT_LE(fpp, 0.02);
}

TEST(ParquetBloomFilterTest, StringKeysFpp) {
  constexpr int kInserted = 50000;
  BF filter = BF::ForNdv(kInserted, 0.01);
  for (int i = 0; i < kInserted; ++i) {
    std::string key = "key_" + std::to_string(i);
    filter.InsertHash(BF::HashBytes(key.data(), key.size()));
  }
  for (int i = 0; i < kInserted; ++i) {
    std::string key = "key_" + std::to_string(i);
    ASSERT_TRUE(filter.MightContainHash(BF::HashBytes(key.data(), key.size()))) << key;
  }
  int false_positives = 0;
  constexpr int kProbes = 100000;
  for (int i = 0; i < kProbes; ++i) {
    std::string key = "absent_" + std::to_string(i);
    false_positives += filter.MightContainHash(BF::HashBytes(key.data(), key.size())) ? 1 : 0;
  }
  double fpp = static_cast<double>(false_positives) / kProbes;
  std::printf("[bloom] string keys (filter %zu bytes for %d keys): measured FPP %.4f%%\n",
              filter.bytes().size(), kInserted, fpp * 100);
  // 50000 keys need ~60 KB, rounded up to 64 KiB.
  EXPECT_GE(fpp, 0.005);
  EXPECT_LE(fpp, 0.02);
}

TEST(ParquetBloomFilterTest, EmptyFilterContainsNothing) {
  BF filter = BF::ForNdv(1000, 0.01);
  for (int64_t i = 0; i < 10000; ++i)
    EXPECT_FALSE(filter.MightContainHash(BF::HashInt64(i)));
}

TEST(ParquetBloomFilterTest, Sizing) {
  EXPECT_EQ(BF::OptimalNumBytes(0, 0.01), 32u);
  EXPECT_EQ(BF::OptimalNumBytes(1, 0.01), 32u);
  EXPECT_EQ(BF::OptimalNumBytes(100000, 0.01), 131072u);
  EXPECT_EQ(BF::OptimalNumBytes(1000000, 0.01), 2097152u);  // ~1.21 MB -> 2 MiB
  EXPECT_EQ(BF::OptimalNumBytes(uint64_t{1} << 40, 0.01), BF::kMaxBytes);
  EXPECT_EQ(BF::OptimalNumBytes(1000, 1e-300), BF::kMaxBytes);
  for (uint64_t ndv : {uint64_t{3}, uint64_t{777}, uint64_t{123456}}) {
    size_t n = BF::OptimalNumBytes(ndv, 0.05);
    EXPECT_EQ(n & (n - 1), 0u) << "power of two";
    EXPECT_GE(n, 32u);
  }
  // A lower fpp never gives a smaller filter.
  EXPECT_LE(BF::OptimalNumBytes(5000, 0.1), BF::OptimalNumBytes(5000, 0.001));
  EXPECT_THROW(BF::ForNdv(10, 0.0), InvalidInputError);
  EXPECT_THROW(BF::ForNdv(10, 1.0), InvalidInputError);
  EXPECT_THROW(BF::ForNdv(10, -0.5), InvalidInputError);
  EXPECT_THROW(BF::ForNdv(10, std::nan("")), InvalidInputError);
}

TEST(ParquetBloomFilterTest, FromBytesChecksSize) {
  EXPECT_THROW(BF::FromBytes(""), CorruptFileError);
  EXPECT_THROW(BF::FromBytes(std::string(31, '\0')), CorruptFileError);
  EXPECT_THROW(BF::FromBytes(std::string(33, '\0')), CorruptFileError);
  EXPECT_THROW(BF::FromBytes(std::string(100, '\0')), CorruptFileError);
  BF one_block = BF::FromBytes(std::string(32, '\0'));
  EXPECT_EQ(one_block.num_blocks(), 1u);
  // Not a power of two is still a valid split-block filter.
  BF three = BF::FromBytes(std::string(96, '\0'));
  EXPECT_EQ(three.num_blocks(), 3u);
  for (int64_t i = 0; i < 100; ++i)
    three.InsertHash(BF::HashInt64(i));
  for (int64_t i = 0; i < 100; ++i)
    EXPECT_TRUE(three.MightContainHash(BF::HashInt64(i)));
}

TEST(ParquetBloomFilterTest, InsertSetsOneBitPerWordOfOneBlock) {
  BF filter = BF::FromBytes(std::string(32 * 16, '\0'));
  const uint64_t hash = 0x0123456789abcdefULL;
  filter.InsertHash(hash);
  const size_t block = static_cast<size_t>(((hash >> 32) * 16) >> 32);
  const std::string& bytes = filter.bytes();
  for (size_t b = 0; b < 16; ++b) {
    for (size_t w = 0; w < 8; ++w) {
      uint32_t word;
      std::memcpy(&word, bytes.data() + b * 32 + w * 4, 4);
      EXPECT_EQ(__builtin_popcount(word), b == block ? 1 : 0) << "block " << b << " word " << w;
    }
  }
  EXPECT_TRUE(filter.MightContainHash(hash));
}

TEST(ParquetBloomFilterTest, Hashes) {
  // XXH64 with seed 0: the empty input's known value, and plain encodings (little-endian bytes).
  EXPECT_EQ(BF::HashBytes(nullptr, 0), 0xEF46DB3751D8E999ULL);
  int32_t i32 = -7;
  EXPECT_EQ(BF::HashInt32(-7), BF::HashBytes(&i32, 4));
  int64_t i64 = 1000000007;
  EXPECT_EQ(BF::HashInt64(1000000007), BF::HashBytes(&i64, 8));
  float f = 1.5f;
  EXPECT_EQ(BF::HashFloat(1.5f), BF::HashBytes(&f, 4));
  double d = -2.25;
  EXPECT_EQ(BF::HashDouble(-2.25), BF::HashBytes(&d, 8));
  EXPECT_NE(BF::HashInt32(1), BF::HashInt64(1));
}

// ---- headers ----

TEST(ParquetBloomFilterTest, ParsesHandWrittenFilter) {
  BF built = BF::ForNdv(500, 0.01);
  for (int32_t i = 0; i < 500; ++i)
    built.InsertHash(BF::HashInt32(i));
  std::string header = SerializeHeader(ValidHeader(static_cast<int32_t>(built.bytes().size())));
  std::string file = header + built.bytes();

  format::BloomFilterHeader parsed;
  EXPECT_EQ(ParseBloomFilterHeader(U8(file), file.size(), &parsed), header.size());
  EXPECT_EQ(static_cast<size_t>(parsed.numBytes), built.bytes().size());
  BF filter = ParseBloomFilter(U8(file), file.size());
  EXPECT_EQ(filter.bytes(), built.bytes());
  // Extra bytes after the bitset (a larger read) are fine.
  std::string longer = file + "trailing";
  EXPECT_EQ(ParseBloomFilter(U8(longer), longer.size()).bytes(), built.bytes());
  // The header alone, as the first step of a two-step read.
  EXPECT_EQ(ParseBloomFilterHeader(U8(header), header.size(), &parsed), header.size());
}

TEST(ParquetBloomFilterTest, RejectsBadHeaders) {
  std::string bitset(64, '\0');
  std::string good = SerializeHeader(ValidHeader(64));
  // Truncated header or bitset.
  for (size_t cut = 0; cut < good.size() + bitset.size(); ++cut) {
    std::string data = (good + bitset).substr(0, cut);
    EXPECT_THROW(ParseBloomFilter(U8(data), data.size()), CorruptFileError) << cut;
  }
  // Sizes that are not a positive multiple of 32, or far beyond the data (no allocation).
  for (int32_t n : {0, -32, 33, 100, 1 << 30, INT32_MAX}) {
    std::string data = SerializeHeader(ValidHeader(n)) + bitset;
    EXPECT_THROW(ParseBloomFilter(U8(data), data.size()), CorruptFileError) << n;
  }
  // Unions with no (known) member set: other algorithms, hashes or compression.
  format::BloomFilterHeader no_algorithm = ValidHeader(64);
  no_algorithm.algorithm = format::BloomFilterAlgorithm();
  format::BloomFilterHeader no_hash = ValidHeader(64);
  no_hash.hash = format::BloomFilterHash();
  format::BloomFilterHeader no_compression = ValidHeader(64);
  no_compression.compression = format::BloomFilterCompression();
  for (const auto& header : {no_algorithm, no_hash, no_compression}) {
    std::string data = SerializeHeader(header) + bitset;
    EXPECT_THROW(ParseBloomFilter(U8(data), data.size()), NotSupportedError);
  }
  // Not thrift at all.
  EXPECT_THROW(ParseBloomFilter(nullptr, 0), CorruptFileError);
  std::string junk(200, '\xff');
  EXPECT_THROW(ParseBloomFilter(U8(junk), junk.size()), CorruptFileError);
}

TEST(ParquetBloomFilterTest, RandomBytesNeverCrash) {
  std::mt19937 rng(1);
  std::string good = SerializeHeader(ValidHeader(64)) + std::string(64, '\0');
  for (int trial = 0; trial < 2000; ++trial) {
    std::string data;
    if (trial % 2 == 0) {
      data.resize(rng() % 100);
      for (auto& c : data)
        c = static_cast<char>(rng());
    } else {
      data = good;
      data[rng() % 8] = static_cast<char>(rng());  // damage the header
    }
    try {
      ParseBloomFilter(U8(data), data.size());
    } catch (const CorruptFileError&) {
    } catch (const NotSupportedError&) {
    }
  }
}

// ---- DuckDB-written filters (tests/data/parquet/generated/bloom_filter.parquet) ----

struct Chunk {
  std::string column;
  std::string physical_type;
  int row_group = 0;
  uint64_t offset = 0;
  size_t length = 0;
};

// Reads "key": <number> or "key": "<text>" after `from` in `json`, stopping at `end`.
std::string JsonField(const std::string& json, const std::string& key, size_t from, size_t end) {
  size_t pos = json.find("\"" + key + "\": ", from);
  if (pos == std::string::npos || pos >= end) return "";
  pos += key.size() + 4;
  if (json[pos] == '"') {
    size_t close = json.find('"', pos + 1);
    return json.substr(pos + 1, close - pos - 1);
  }
  size_t stop = json.find_first_of(",\n}", pos);
  return json.substr(pos, stop - pos);
}

// The column chunks with a bloom filter, from the fixture's .meta.json (written by the
// fixture tools from the file's footer): each chunk object starts with "path" and carries
// physical_type, bloom_filter_offset and bloom_filter_length. Chunks are listed row group by
// row group, so the row group is the chunk's index divided by the number of columns.
std::vector<Chunk> BloomChunks(const std::string& json) {
  std::vector<size_t> starts;
  for (size_t pos = json.find("\"path\": "); pos != std::string::npos;
       pos = json.find("\"path\": ", pos + 1)) {
    starts.push_back(pos);
  }
  const int num_columns = std::stoi(JsonField(json, "num_children", 0, json.size()));
  std::vector<Chunk> chunks;
  for (size_t i = 0; i < starts.size(); ++i) {
    size_t end = i + 1 < starts.size() ? starts[i + 1] : json.size();
    std::string offset = JsonField(json, "bloom_filter_offset", starts[i], end);
    if (offset.empty()) continue;
    Chunk chunk;
    chunk.column = JsonField(json, "path", starts[i], end);
    chunk.physical_type = JsonField(json, "physical_type", starts[i], end);
    chunk.row_group = static_cast<int>(i) / num_columns;
    chunk.offset = std::stoull(offset);
    chunk.length = std::stoul(JsonField(json, "bloom_filter_length", starts[i], end));
    chunks.push_back(chunk);
  }
  return chunks;
}

struct Probe {
  std::string column;
  std::string value;
  int row_group = 0;
  bool present = false;
  bool excluded = false;
};

// RFC 4180 fields of one line (the probe file has no multi-line fields).
std::vector<std::string> SplitCsvLine(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

std::vector<Probe> LoadProbes(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line,
            "column_name,value,row_group_id,value_present_in_row_group,"
            "duckdb_bloom_filter_excludes");
  std::vector<Probe> probes;
  while (std::getline(in, line)) {
    std::vector<std::string> f = SplitCsvLine(line);
    EXPECT_EQ(f.size(), 5u) << line;
    if (f.size() != 5) continue;
    probes.push_back({f[0], f[1], std::stoi(f[2]), f[3] == "true", f[4] == "true"});
  }
  return probes;
}

uint64_t HashValue(const std::string& physical_type, const std::string& value) {
  if (physical_type == "INT32") return BF::HashInt32(static_cast<int32_t>(std::stol(value)));
  if (physical_type == "INT64") return BF::HashInt64(std::stoll(value));
  if (physical_type == "BYTE_ARRAY") return BF::HashBytes(value.data(), value.size());
  ADD_FAILURE() << "unexpected type " << physical_type;
  return 0;
}

class DuckDbBloomFilterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    file_ = kDataDir + "generated/bloom_filter.parquet";
    chunks_ = BloomChunks(ReadFile(kDataDir + "expected/bloom_filter.meta.json"));
    probes_ = LoadProbes(kDataDir + "expected/bloom_filter.bloom_probe.csv");
    // Values from the .meta.json: city, code and big_code have filters in both row groups.
    ASSERT_EQ(chunks_.size(), 6u);
    EXPECT_EQ(chunks_[0].column, "city");
    EXPECT_EQ(chunks_[0].offset, 39513u);
    EXPECT_EQ(chunks_[0].length, 144u);
    ASSERT_EQ(probes_.size(), 734u);
  }

  const Chunk* FindChunk(const std::string& column, int row_group) const {
    for (const Chunk& c : chunks_) {
      if (c.column == column && c.row_group == row_group) return &c;
    }
    return nullptr;
  }

  std::string file_;
  std::vector<Chunk> chunks_;
  std::vector<Probe> probes_;
};

TEST_F(DuckDbBloomFilterTest, ProbesMatchDuckDb) {
  std::map<std::pair<std::string, int>, BF> filters;
  for (const Chunk& chunk : chunks_) {
    std::string bytes = ReadRange(file_, chunk.offset, chunk.length);
    ASSERT_EQ(bytes.size(), chunk.length);
    format::BloomFilterHeader header;
    size_t header_size = ParseBloomFilterHeader(U8(bytes), bytes.size(), &header);
    // bloom_filter_length covers exactly the header and the bitset.
    EXPECT_EQ(header_size + static_cast<size_t>(header.numBytes), chunk.length);
    filters.emplace(std::make_pair(chunk.column, chunk.row_group),
                    ParseBloomFilter(U8(bytes), bytes.size()));
  }
  int present = 0;
  int excluded = 0;
  for (const Probe& p : probes_) {
    SCOPED_TRACE(p.column + " = '" + p.value + "' in row group " + std::to_string(p.row_group));
    const Chunk* chunk = FindChunk(p.column, p.row_group);
    ASSERT_NE(chunk, nullptr);
    const BF& filter = filters.at({p.column, p.row_group});
    bool hit = filter.MightContainHash(HashValue(chunk->physical_type, p.value));
    if (p.present) {
      EXPECT_TRUE(hit) << "false negative";
      ++present;
    }
    if (p.excluded) {
      EXPECT_FALSE(hit) << "DuckDB's filter excludes this value";
      ++excluded;
    }
  }
  EXPECT_EQ(present, 700);
  EXPECT_EQ(excluded, 34);
}

TEST_F(DuckDbBloomFilterTest, TwoStepReadWithoutLength) {
  // As for files without bloom_filter_length: read a guess for the header, then the bitset.
  for (const Chunk& chunk : chunks_) {
    SCOPED_TRACE(chunk.column + " row group " + std::to_string(chunk.row_group));
    std::string guess = ReadRange(file_, chunk.offset, 64);
    format::BloomFilterHeader header;
    size_t header_size = ParseBloomFilterHeader(U8(guess), guess.size(), &header);
    BF filter = BF::FromBytes(
        ReadRange(file_, chunk.offset + header_size, static_cast<size_t>(header.numBytes)));
    std::string whole = ReadRange(file_, chunk.offset, chunk.length);
    EXPECT_EQ(filter.bytes(), ParseBloomFilter(U8(whole), whole.size()).bytes());
  }
}

TEST_F(DuckDbBloomFilterTest, RebuildingFromPresentValuesGivesDuckDbsBitset) {
  // The probe file lists every distinct value of each row group (present=true), so inserting
  // them into an empty filter of the same size must reproduce DuckDB's bytes exactly: this
  // checks hashing, block choice and bit mapping bit for bit.
  for (const Chunk& chunk : chunks_) {
    SCOPED_TRACE(chunk.column + " row group " + std::to_string(chunk.row_group));
    std::string bytes = ReadRange(file_, chunk.offset, chunk.length);
    BF from_file = ParseBloomFilter(U8(bytes), bytes.size());
    BF rebuilt = BF::FromBytes(std::string(from_file.bytes().size(), '\0'));
    int inserted = 0;
    for (const Probe& p : probes_) {
      if (p.column == chunk.column && p.row_group == chunk.row_group && p.present) {
        rebuilt.InsertHash(HashValue(chunk.physical_type, p.value));
        ++inserted;
      }
    }
    EXPECT_GT(inserted, 0);
    EXPECT_EQ(rebuilt.bytes(), from_file.bytes());
  }
}

}  // namespace
}  // namespace shears::parquet

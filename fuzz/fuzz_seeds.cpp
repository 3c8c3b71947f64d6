// Builds seed corpora for the fuzz targets from real Parquet files (not a fuzz target itself):
//   fuzz_seeds footer   OUTDIR FILE...   the FileMetaData bytes of each file
//   fuzz_seeds decoders OUTDIR FILE...   every page of every file, decompressed and split into
//                                        its level and value sections, in the input format of
//                                        fuzz_page_decoders, plus the compressed page bodies
//   fuzz_seeds sql      OUTDIR COUNT DICT FILE...
//                                        COUNT variants of the SQL seeds FILE..., made by a
//                                        fixed-seed token mutator without coverage feedback
//                                        (see MutateSql)
//   fuzz_seeds bytes    OUTDIR COUNT FILE...
//                                        COUNT variants of the binary seeds FILE..., made by a
//                                        fixed-seed byte mutator without coverage feedback
//                                        (see MutateBytes)
// Unreadable files are skipped (bad fixtures are seeds for fuzz_parquet_file instead).

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "common/error.h"
#include "storage/parquet/compression.h"
#include "storage/parquet/encoding.h"
#include "storage/parquet/parquet_file.h"

using namespace shears;
using namespace shears::parquet;

namespace {

std::string out_dir;
int seeds_written = 0;

void WriteSeed(const std::string& bytes) {
  const std::string path = out_dir + "/" + std::to_string(std::hash<std::string>{}(bytes));
  std::ofstream(path, std::ios::binary) << bytes;
  seeds_written++;
}

// Selectors of fuzz_page_decoders.cpp's kDecoders.
enum Selector : uint8_t {
  kRle = 0,
  kDictionaryIndexes = 1,
  kLengthPrefixedRle = 2,
  kDelta32 = 4,
  kDelta64 = 5,
  kDeltaLength = 6,
  kDeltaByteArray = 7,
  kByteStreamSplit = 8,
  kPlainByteArray = 9,
  kPlainBoolean = 10,
  kDecompress = 11,
};

void WriteDecoderSeed(uint8_t selector, uint8_t parameter, size_t count, const uint8_t* data,
                      size_t size) {
  if (count > 0xffff) count = 0xffff;
  std::string seed = {static_cast<char>(selector), static_cast<char>(parameter),
                      static_cast<char>(count & 0xff), static_cast<char>(count >> 8)};
  seed.append(reinterpret_cast<const char*>(data), size);
  WriteSeed(seed);
}

int CodecIndex(format::CompressionCodec::type codec) {
  switch (codec) {
    case format::CompressionCodec::UNCOMPRESSED:
      return 0;
    case format::CompressionCodec::SNAPPY:
      return 1;
    case format::CompressionCodec::GZIP:
      return 2;
    case format::CompressionCodec::BROTLI:
      return 3;
    case format::CompressionCodec::LZ4:
      return 4;
    case format::CompressionCodec::ZSTD:
      return 5;
    case format::CompressionCodec::LZ4_RAW:
      return 6;
    default:
      return -1;
  }
}

void ValueSeed(const ColumnDescriptor& column, format::Encoding::type encoding, size_t values,
               size_t dictionary_size, const uint8_t* data, size_t size) {
  switch (encoding) {
    case format::Encoding::PLAIN:
      if (column.physical_type == format::Type::BYTE_ARRAY) {
        WriteDecoderSeed(kPlainByteArray, 0, values, data, size);
      } else if (column.physical_type == format::Type::BOOLEAN) {
        WriteDecoderSeed(kPlainBoolean, 0, values, data, size);
      }
      break;
    case format::Encoding::RLE_DICTIONARY:
    case format::Encoding::PLAIN_DICTIONARY:
      WriteDecoderSeed(kDictionaryIndexes,
                       static_cast<uint8_t>(std::min<size_t>(dictionary_size, 255)), values, data,
                       size);
      break;
    case format::Encoding::DELTA_BINARY_PACKED:
      WriteDecoderSeed(column.physical_type == format::Type::INT64 ? kDelta64 : kDelta32, 0, values,
                       data, size);
      break;
    case format::Encoding::DELTA_LENGTH_BYTE_ARRAY:
      WriteDecoderSeed(kDeltaLength, 0, values, data, size);
      break;
    case format::Encoding::DELTA_BYTE_ARRAY:
      WriteDecoderSeed(kDeltaByteArray, 0, values, data, size);
      break;
    case format::Encoding::BYTE_STREAM_SPLIT: {
      const int width = column.physical_type == format::Type::FIXED_LEN_BYTE_ARRAY
                            ? column.type_length
                        : column.physical_type == format::Type::INT64 ||
                                column.physical_type == format::Type::DOUBLE
                            ? 8
                            : 4;
      WriteDecoderSeed(kByteStreamSplit, static_cast<uint8_t>(width - 1), values, data, size);
      break;
    }
    case format::Encoding::RLE:
      WriteDecoderSeed(kLengthPrefixedRle, 1, values, data, size);
      break;
    default:
      break;
  }
}

void PageSeeds(const ParquetFile& file, const ColumnDescriptor& column,
               format::CompressionCodec::type codec, const std::vector<uint8_t>& chunk) {
  size_t position = 0;
  size_t dictionary_size = 0;
  const int level_width = BitWidthForMaxValue(static_cast<uint32_t>(column.max_definition_level));
  while (position < chunk.size()) {
    format::PageHeader header;
    position += DeserializeThrift(chunk.data() + position, chunk.size() - position, &header,
                                  "a page header");
    const size_t compressed = static_cast<size_t>(header.compressed_page_size);
    if (compressed > chunk.size() - position) return;
    const uint8_t* body = chunk.data() + position;
    position += compressed;
    size_t levels = 0;  // v2: level bytes, stored uncompressed before the values
    if (header.type == format::PageType::DATA_PAGE_V2) {
      levels = static_cast<size_t>(header.data_page_header_v2.repetition_levels_byte_length +
                                   header.data_page_header_v2.definition_levels_byte_length);
    }
    std::vector<uint8_t> page(static_cast<size_t>(header.uncompressed_page_size));
    const bool compressed_values =
        header.type != format::PageType::DATA_PAGE_V2 || header.data_page_header_v2.is_compressed;
    if (levels > compressed || page.size() < levels) return;
    std::copy(body, body + levels, page.begin());
    if (compressed_values) {
      const int codec_index = CodecIndex(codec);
      if (codec_index > 0 && page.size() - levels <= 0xffff) {
        WriteDecoderSeed(kDecompress, static_cast<uint8_t>(codec_index), page.size() - levels,
                         body + levels, compressed - levels);
      }
      Decompress(codec, body + levels, compressed - levels, page.data() + levels,
                 page.size() - levels);
    } else {
      std::copy(body + levels, body + compressed, page.begin() + static_cast<long>(levels));
    }
    if (header.type == format::PageType::DICTIONARY_PAGE) {
      dictionary_size = static_cast<size_t>(header.dictionary_page_header.num_values);
      ValueSeed(column, format::Encoding::PLAIN, dictionary_size, 0, page.data(), page.size());
    } else if (header.type == format::PageType::DATA_PAGE) {
      const size_t values = static_cast<size_t>(header.data_page_header.num_values);
      size_t offset = 0;
      if (column.max_definition_level > 0) {
        size_t consumed = 0;
        MakeLengthPrefixedRleDecoder(page.data(), page.size(), level_width, &consumed);
        WriteDecoderSeed(kLengthPrefixedRle, static_cast<uint8_t>(level_width), values, page.data(),
                         consumed);
        offset = consumed;
      }
      ValueSeed(column, header.data_page_header.encoding, values, dictionary_size,
                page.data() + offset, page.size() - offset);
    } else if (header.type == format::PageType::DATA_PAGE_V2) {
      const auto& v2 = header.data_page_header_v2;
      const size_t values = static_cast<size_t>(v2.num_values);
      const size_t rep = static_cast<size_t>(v2.repetition_levels_byte_length);
      if (v2.definition_levels_byte_length > 0) {
        WriteDecoderSeed(kRle, static_cast<uint8_t>(level_width), values, page.data() + rep,
                         levels - rep);
      }
      ValueSeed(column, v2.encoding, values, dictionary_size, page.data() + levels,
                page.size() - levels);
    }
  }
}

void DecoderSeeds(const std::string& path) {
  auto file = ParquetFile::Open(path);
  for (int rg = 0; rg < file->num_row_groups(); rg++) {
    for (size_t c = 0; c < file->columns().size(); c++) {
      const ColumnDescriptor& column = file->columns()[c];
      if (!column.unsupported_reason.empty() || column.leaf_index < 0) continue;
      const auto& meta = file->chunk(rg, static_cast<int>(c)).meta_data;
      int64_t start = meta.data_page_offset;
      if (meta.__isset.dictionary_page_offset && meta.dictionary_page_offset > 0 &&
          meta.dictionary_page_offset < start) {
        start = meta.dictionary_page_offset;
      }
      std::vector<uint8_t> chunk(static_cast<size_t>(meta.total_compressed_size));
      file->file().ReadAt(static_cast<uint64_t>(start), chunk.size(), chunk.data());
      PageSeeds(*file, column, meta.codec, chunk);
    }
  }
}

void FooterSeed(const std::string& path) {
  auto file = ParquetFile::Open(path);
  std::string footer(file->footer_length(), '\0');
  file->file().ReadAt(file->file_size() - 8 - file->footer_length(), footer.size(),
                      reinterpret_cast<uint8_t*>(footer.data()));
  WriteSeed(footer);
}

// ---------------------------------------------------------------- SQL variants
//
// The fuzz gate's SQL inputs. libFuzzer's coverage-guided mutation cannot repeat itself in
// fuzz_sql: the engine keeps caches across inputs and hashes by address, so heap addresses
// (which move with the scheduler, however deterministic the code) change coverage counts, and
// with them every later mutation. These variants depend only on the seeds, the dictionary and
// a fixed seed, so the gate runs the same inputs on every machine; coverage-guided exploration
// stays in `make fuzz`.

struct SplitMix {
  uint64_t state;
  uint64_t Next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  size_t Below(size_t n) { return n == 0 ? 0 : static_cast<size_t>(Next() % n); }
};

/// Words, numbers, quoted strings, runs of spaces and single other characters.
std::vector<std::string> Tokenize(const std::string& sql) {
  std::vector<std::string> tokens;
  for (size_t i = 0; i < sql.size();) {
    size_t j = i + 1;
    const auto c = static_cast<unsigned char>(sql[i]);
    if (std::isalnum(c) || c == '_') {
      while (j < sql.size() && (std::isalnum(static_cast<unsigned char>(sql[j])) || sql[j] == '_'))
        j++;
    } else if (c == '\'' || c == '"') {
      while (j < sql.size() && sql[j] != sql[i])
        j++;
      j = std::min(j + 1, sql.size());
    } else if (std::isspace(c)) {
      while (j < sql.size() && std::isspace(static_cast<unsigned char>(sql[j])))
        j++;
    }
    tokens.push_back(sql.substr(i, j - i));
    i = j;
  }
  return tokens;
}

/// The entries of a libFuzzer dictionary ("word" per line; \\, \" and \xNN escapes).
std::vector<std::string> ReadDictionary(const std::string& path) {
  std::vector<std::string> words;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    const size_t open = line.find('"');
    const size_t close = line.rfind('"');
    if (open == std::string::npos || close <= open) continue;
    std::string word;
    for (size_t i = open + 1; i < close; i++) {
      if (line[i] == '\\' && i + 1 < close) {
        if (line[i + 1] == 'x' && i + 3 < close) {
          word += static_cast<char>(std::stoi(line.substr(i + 2, 2), nullptr, 16));
          i += 3;
        } else {
          word += line[++i];
        }
      } else {
        word += line[i];
      }
    }
    if (!word.empty()) words.push_back(word);
  }
  return words;
}

/// One variant of seed `tokens`: one to four edits, each replacing, inserting, deleting or
/// repeating tokens, splicing in the tail of another seed, swapping a number for a boundary
/// value, or flipping a bit of one byte.
std::string MutateSql(std::vector<std::string> tokens, const std::vector<std::string>& other,
                      const std::vector<std::string>& words, SplitMix& random) {
  static const char* const kNumbers[] = {"0",
                                         "-1",
                                         "1",
                                         "2147483647",
                                         "-2147483648",
                                         "9223372036854775807",
                                         "-9223372036854775808",
                                         "18446744073709551616",
                                         "1e308",
                                         "-0.0",
                                         "0.000000000000000000000000000000000001",
                                         "NULL"};
  const size_t edits = 1 + random.Below(4);
  for (size_t e = 0; e < edits; e++) {
    const size_t at = random.Below(tokens.size() + 1);
    const std::string word = words.empty() ? "NULL" : words[random.Below(words.size())];
    switch (random.Below(7)) {
      case 0:
        if (at < tokens.size()) tokens[at] = word;
        break;
      case 1:
        tokens.insert(tokens.begin() + static_cast<std::ptrdiff_t>(at), " " + word + " ");
        break;
      case 2:
        if (at < tokens.size()) tokens.erase(tokens.begin() + static_cast<std::ptrdiff_t>(at));
        break;
      case 3: {
        const size_t length =
            std::min<size_t>(1 + random.Below(8), tokens.size() - std::min(at, tokens.size()));
        std::vector<std::string> span(tokens.begin() + static_cast<std::ptrdiff_t>(at),
                                      tokens.begin() + static_cast<std::ptrdiff_t>(at + length));
        tokens.insert(tokens.begin() + static_cast<std::ptrdiff_t>(at), span.begin(), span.end());
        break;
      }
      case 4: {
        tokens.resize(at);
        const size_t from = random.Below(other.size() + 1);
        tokens.insert(tokens.end(), other.begin() + static_cast<std::ptrdiff_t>(from), other.end());
        break;
      }
      case 5: {
        std::vector<size_t> numbers;
        for (size_t i = 0; i < tokens.size(); i++) {
          if (std::isdigit(static_cast<unsigned char>(tokens[i][0]))) numbers.push_back(i);
        }
        if (!numbers.empty()) {
          tokens[numbers[random.Below(numbers.size())]] =
              kNumbers[random.Below(sizeof(kNumbers) / sizeof(kNumbers[0]))];
        }
        break;
      }
      default:
        if (at < tokens.size() && !tokens[at].empty()) {
          std::string& token = tokens[at];
          token[random.Below(token.size())] ^= static_cast<char>(1 << random.Below(8));
        }
        break;
    }
  }
  std::string sql;
  for (const auto& token : tokens)
    sql += token;
  return sql;
}

std::vector<std::string> ReadSeeds(std::vector<std::string> paths);
void WriteVariant(size_t i, const std::string& bytes);

int SqlVariants(size_t count, const std::string& dictionary,
                const std::vector<std::string>& paths) {
  std::vector<std::vector<std::string>> seeds;
  for (const auto& sql : ReadSeeds(paths))
    seeds.push_back(Tokenize(sql));
  if (seeds.empty()) {
    std::cerr << "sql: no seeds\n";
    return 2;
  }
  const std::vector<std::string> words = ReadDictionary(dictionary);
  SplitMix random{1};
  for (size_t i = 0; i < count; i++) {
    const auto& seed = seeds[random.Below(seeds.size())];
    const auto& other = seeds[random.Below(seeds.size())];
    WriteVariant(i, MutateSql(seed, other, words, random));
  }
  std::cout << "sql: " << seeds_written << " variants of " << seeds.size() << " seeds in "
            << out_dir << "\n";
  return 0;
}

// ---------------------------------------------------------------- binary variants
//
// The gate's inputs for the Parquet and path targets, for the reason given above for SQL: their
// coverage-guided runs repeat themselves on one machine but not across machines (heap and
// mapping addresses reach hash tables and so coverage), so the verdict could differ between a
// developer's machine and CI's.

/// Appends `value`'s `width` low bytes, little-endian (Parquet's and Thrift's order).
void PutLittleEndian(std::string& bytes, size_t at, uint64_t value, size_t width) {
  for (size_t i = 0; i < width && at + i < bytes.size(); i++)
    bytes[at + i] = static_cast<char>(value >> (8 * i));
}

/// One variant of `bytes`: one to four edits, each flipping a bit, changing a byte by a small
/// amount or to any value, writing a boundary integer of 1, 2, 4 or 8 bytes, erasing,
/// repeating or inserting a run, truncating, or splicing in the tail of another seed.
std::string MutateBytes(std::string bytes, const std::string& other, SplitMix& random) {
  static const uint64_t kBoundaries[] = {
      0,      1,          0x7f,       0x80,       0xff,       0x100,      0x7fff,     0x8000,
      0xffff, 0x7fffffff, 0x80000000, 0xffffffff, 1ULL << 32, ~0ULL >> 1, 1ULL << 63, ~0ULL};
  const size_t edits = 1 + random.Below(4);
  for (size_t e = 0; e < edits; e++) {
    const size_t at = random.Below(bytes.size() + 1);
    const bool inside = at < bytes.size();
    switch (random.Below(9)) {
      case 0:
        if (inside) bytes[at] ^= static_cast<char>(1 << random.Below(8));
        break;
      case 1:
        if (inside) bytes[at] = static_cast<char>(random.Below(256));
        break;
      case 2:
        if (inside) bytes[at] = static_cast<char>(bytes[at] + 1 + random.Below(16) - 8);
        break;
      case 3:
        PutLittleEndian(bytes, at,
                        kBoundaries[random.Below(sizeof(kBoundaries) / sizeof(kBoundaries[0]))],
                        size_t{1} << random.Below(4));
        break;
      case 4:
        bytes.erase(at, 1 + random.Below(64));
        break;
      case 5: {
        const std::string run = bytes.substr(at, 1 + random.Below(64));
        bytes.insert(at, run);
        break;
      }
      case 6: {
        std::string run(1 + random.Below(16), '\0');
        for (auto& c : run)
          c = static_cast<char>(random.Below(256));
        bytes.insert(at, run);
        break;
      }
      case 7:
        bytes.resize(at);
        break;
      default:
        bytes = bytes.substr(0, at) + other.substr(random.Below(other.size() + 1));
        break;
    }
  }
  return bytes;
}

/// The contents of `paths`, in the order of their names (the order of the arguments must not
/// matter), empty files left out.
std::vector<std::string> ReadSeeds(std::vector<std::string> paths) {
  std::sort(paths.begin(), paths.end());
  std::vector<std::string> seeds;
  for (const auto& path : paths) {
    std::ifstream in(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!bytes.empty()) seeds.push_back(std::move(bytes));
  }
  return seeds;
}

void WriteVariant(size_t i, const std::string& bytes) {
  char name[32];
  std::snprintf(name, sizeof(name), "/v%06zu", i);
  std::ofstream(out_dir + name, std::ios::binary) << bytes;
  seeds_written++;
}

int ByteVariants(size_t count, const std::vector<std::string>& paths) {
  const std::vector<std::string> seeds = ReadSeeds(paths);
  if (seeds.empty()) {
    std::cerr << "bytes: no seeds\n";
    return 2;
  }
  SplitMix random{1};
  for (size_t i = 0; i < count; i++) {
    const auto& seed = seeds[random.Below(seeds.size())];
    const auto& other = seeds[random.Below(seeds.size())];
    WriteVariant(i, MutateBytes(seed, other, random));
  }
  std::cout << "bytes: " << seeds_written << " variants of " << seeds.size() << " seeds in "
            << out_dir << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr
        << "usage: fuzz_seeds footer|decoders OUTDIR FILE... | sql OUTDIR COUNT DICT FILE... | "
           "bytes OUTDIR COUNT FILE...\n";
    return 2;
  }
  const std::string mode = argv[1];
  out_dir = argv[2];
  if (mode == "sql") {
    if (argc < 5) {
      std::cerr << "usage: fuzz_seeds sql OUTDIR COUNT DICT FILE...\n";
      return 2;
    }
    return SqlVariants(std::stoul(argv[3]), argv[4],
                       std::vector<std::string>(argv + 5, argv + argc));
  }
  if (mode == "bytes") {
    if (argc < 4) {
      std::cerr << "usage: fuzz_seeds bytes OUTDIR COUNT FILE...\n";
      return 2;
    }
    return ByteVariants(std::stoul(argv[3]), std::vector<std::string>(argv + 4, argv + argc));
  }
  for (int i = 3; i < argc; i++) {
    try {
      if (mode == "footer") {
        FooterSeed(argv[i]);
      } else if (mode == "decoders") {
        DecoderSeeds(argv[i]);
      } else {
        std::cerr << "unknown mode " << mode << "\n";
        return 2;
      }
    } catch (const Error& error) {
      // Broken fixtures give what they can; their errors are the reader's business.
    }
  }
  std::cout << mode << ": " << seeds_written << " seeds in " << out_dir << "\n";
  return 0;
}

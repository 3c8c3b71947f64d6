// Hostile and broken input: valid files written by ParquetWriter, then corrupted byte by byte
// (truncation, magic, footer, chunk offsets, page headers that lie, dictionary indexes, bit
// widths, UTF-8), and broken Hive layouts. Every case must be a typed error naming the file and
// what was wrong, and the same Connection must answer a good query right afterwards.

#include <gtest/gtest.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>

#include "common/error.h"
#include "main/connection.h"
#include "storage/parquet/parquet_file.h"
#include "storage/parquet/parquet_writer.h"
#include "test_util.h"

namespace shears {
namespace {

namespace fs = std::filesystem;
using parquet::ParquetFile;

constexpr int kRows = 3000;

// id INTEGER, name VARCHAR (dictionary-encoded: 7 distinct values), amount BIGINT.
void WriteGoodFile(const std::string& path,
                   format::CompressionCodec::type codec = format::CompressionCodec::UNCOMPRESSED) {
  fs::create_directories(fs::path(path).parent_path());
  parquet::WriterOptions options;
  options.codec = codec;
  parquet::ParquetWriter writer(
      path, {"id", "name", "amount"},
      {LogicalType::Integer(), LogicalType::Varchar(), LogicalType::Bigint()}, options);
  Batch batch({LogicalType::Integer(), LogicalType::Varchar(), LogicalType::Bigint()}, kRows);
  for (int i = 0; i < kRows; i++) {
    batch.column(0).data<int32_t>()[i] = i;
    batch.column(1).data<StringRef>()[i] =
        batch.column(1).AddString("name_" + std::to_string(i % 7));
    batch.column(2).data<int64_t>()[i] = int64_t{i} * 1000;
  }
  batch.SetSize(kRows);
  writer.Write(batch);
  writer.Close();
}

std::string ReadBytes(const std::string& path) {
  return test::ReadFileToString(path);
}

void WriteBytes(const std::string& path, const std::string& bytes) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

template <typename T>
std::string Serialize(const T& value) {
  using apache::thrift::protocol::TCompactProtocolT;
  using apache::thrift::transport::TMemoryBuffer;
  auto buffer = std::make_shared<TMemoryBuffer>();
  TCompactProtocolT<TMemoryBuffer> protocol(buffer);
  value.write(&protocol);
  return buffer->getBufferAsString();
}

// Rewrites the footer of `bytes` after `mutate` changed its metadata.
std::string WithFooter(const std::string& bytes,
                       const std::function<void(format::FileMetaData&)>& mutate) {
  uint32_t length = 0;
  std::memcpy(&length, bytes.data() + bytes.size() - 8, 4);
  const size_t footer_start = bytes.size() - 8 - length;
  format::FileMetaData metadata;
  parquet::DeserializeThrift(reinterpret_cast<const uint8_t*>(bytes.data()) + footer_start, length,
                             &metadata, "footer");
  mutate(metadata);
  const std::string footer = Serialize(metadata);
  std::string out = bytes.substr(0, footer_start) + footer;
  const uint32_t new_length = static_cast<uint32_t>(footer.size());
  out.append(reinterpret_cast<const char*>(&new_length), 4);
  return out + "PAR1";
}

// Rewrites the page header at `offset` in place; the mutation must keep its encoded length.
std::string WithPageHeader(const std::string& bytes, size_t offset,
                           const std::function<void(format::PageHeader&)>& mutate) {
  format::PageHeader header;
  const uint32_t length =
      parquet::DeserializeThrift(reinterpret_cast<const uint8_t*>(bytes.data()) + offset,
                                 bytes.size() - offset, &header, "page header");
  mutate(header);
  const std::string encoded = Serialize(header);
  EXPECT_EQ(encoded.size(), length) << "the mutated page header changed length";
  std::string out = bytes;
  out.replace(offset, length, encoded);
  return out;
}

struct ChunkInfo {
  size_t first_page = 0;  // the dictionary page when there is one
  size_t data_page = 0;
  bool has_dictionary = false;
};

ChunkInfo Chunk(const std::string& path, int column) {
  auto file = ParquetFile::Open(path);
  const auto& meta = file->chunk(0, column).meta_data;
  ChunkInfo info;
  info.data_page = static_cast<size_t>(meta.data_page_offset);
  info.has_dictionary = meta.__isset.dictionary_page_offset && meta.dictionary_page_offset > 0;
  info.first_page =
      info.has_dictionary ? static_cast<size_t>(meta.dictionary_page_offset) : info.data_page;
  return info;
}

// Where the body of the page whose header starts at `offset` begins.
size_t PageBody(const std::string& bytes, size_t offset) {
  format::PageHeader header;
  return offset +
         parquet::DeserializeThrift(reinterpret_cast<const uint8_t*>(bytes.data()) + offset,
                                    bytes.size() - offset, &header, "page header");
}

class HostileFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    good_ = dir_.path() + "/good.parquet";
    WriteGoodFile(good_);
    bytes_ = ReadBytes(good_);
  }

  std::string Write(const std::string& name, const std::string& bytes) {
    const std::string path = dir_.path() + "/bad/" + name;
    WriteBytes(path, bytes);
    return path;
  }

  // Querying `path` fails with `kind`, naming the file and containing `what`; the connection
  // then still answers a good query.
  void ExpectError(const std::string& path, ErrorKind kind, const std::string& what,
                   const std::string& select = "*") {
    SCOPED_TRACE(path);
    try {
      auto result = con_.Query("SELECT " + select + " FROM '" + path + "'");
      ADD_FAILURE() << "no error; " << result.row_count() << " rows";
    } catch (const Error& error) {
      EXPECT_EQ(ErrorKindName(error.kind()), std::string(ErrorKindName(kind))) << error.what();
      EXPECT_NE(std::string(error.what()).find(fs::path(path).filename().string()),
                std::string::npos)
          << "the error does not name the file: " << error.what();
      EXPECT_NE(std::string(error.what()).find(what), std::string::npos) << error.what();
    }
    ExpectUsable();
  }

  void ExpectUsable() {
    auto result = con_.Query("SELECT count(*), sum(amount) FROM '" + good_ + "'");
    ASSERT_EQ(result.ToStrings(),
              (std::vector<std::vector<std::string>>{{std::to_string(kRows), "4498500000"}}));
  }

  test::TempDir dir_;
  std::string good_;
  std::string bytes_;
  Database db_;
  Connection con_{db_};
};

TEST_F(HostileFileTest, TruncatedFiles) {
  ExpectError(Write("empty.parquet", ""), ErrorKind::kCorruptFile, "too short for Parquet");
  ExpectError(Write("magic_only.parquet", "PAR1"), ErrorKind::kCorruptFile,
              "too short for Parquet");
  ExpectError(Write("half.parquet", bytes_.substr(0, bytes_.size() / 2)), ErrorKind::kCorruptFile,
              "magic");
  ExpectError(Write("no_tail.parquet", bytes_.substr(0, bytes_.size() - 1)),
              ErrorKind::kCorruptFile, "magic");
}

TEST_F(HostileFileTest, BadMagic) {
  std::string head = bytes_;
  head[0] = 'X';
  ExpectError(Write("bad_head.parquet", head), ErrorKind::kCorruptFile, "magic");
  std::string tail = bytes_;
  tail[tail.size() - 1] = 'X';
  ExpectError(Write("bad_tail.parquet", tail), ErrorKind::kCorruptFile, "magic");
}

TEST_F(HostileFileTest, FooterLengthPastTheStart) {
  for (uint32_t length : {static_cast<uint32_t>(bytes_.size()), 0xffffffffu}) {
    std::string bytes = bytes_;
    std::memcpy(bytes.data() + bytes.size() - 8, &length, 4);
    ExpectError(Write("footer_" + std::to_string(length) + ".parquet", bytes),
                ErrorKind::kCorruptFile, "footer");
  }
  // A footer length that points inside the data: the bytes there are not a FileMetaData.
  std::string bytes = bytes_;
  const uint32_t length = static_cast<uint32_t>(bytes_.size() / 2);
  std::memcpy(bytes.data() + bytes.size() - 8, &length, 4);
  ExpectError(Write("footer_inside.parquet", bytes), ErrorKind::kCorruptFile, "footer");
}

TEST_F(HostileFileTest, ColumnChunkPastTheEnd) {
  ExpectError(Write("chunk_past_end.parquet",
                    WithFooter(bytes_,
                               [&](format::FileMetaData& meta) {
                                 auto& chunk = meta.row_groups[0].columns[2].meta_data;
                                 chunk.data_page_offset = static_cast<int64_t>(bytes_.size()) + 100;
                               })),
              ErrorKind::kCorruptFile, "outside the file", "amount");
  ExpectError(Write("chunk_too_long.parquet",
                    WithFooter(bytes_,
                               [&](format::FileMetaData& meta) {
                                 meta.row_groups[0].columns[0].meta_data.total_compressed_size =
                                     1 << 30;
                               })),
              ErrorKind::kCorruptFile, "outside the file", "id");
  ExpectError(Write("chunk_negative.parquet",
                    WithFooter(bytes_,
                               [&](format::FileMetaData& meta) {
                                 meta.row_groups[0].columns[0].meta_data.data_page_offset = -5;
                               })),
              ErrorKind::kCorruptFile, "outside the file", "id");
}

TEST_F(HostileFileTest, PageSizesThatLie) {
  const ChunkInfo id = Chunk(good_, 0);
  // Compressed size larger than the chunk holds / smaller than the page is.
  ExpectError(Write("compressed_bigger.parquet",
                    WithPageHeader(bytes_, id.data_page,
                                   [](format::PageHeader& h) { h.compressed_page_size += 4000; })),
              ErrorKind::kCorruptFile, "runs past the end of the column chunk", "id");
  ExpectError(Write("compressed_smaller.parquet",
                    WithPageHeader(bytes_, id.data_page,
                                   [](format::PageHeader& h) { h.compressed_page_size -= 16; })),
              ErrorKind::kCorruptFile, "bytes of values", "id");
  ExpectError(Write("compressed_negative.parquet", WithPageHeader(bytes_, id.data_page,
                                                                  [](format::PageHeader& h) {
                                                                    h.compressed_page_size =
                                                                        -h.compressed_page_size;
                                                                  })),
              ErrorKind::kCorruptFile, "invalid sizes", "id");
  // Uncompressed size that does not match what the codec produces.
  const std::string snappy = dir_.path() + "/snappy.parquet";
  WriteGoodFile(snappy, format::CompressionCodec::SNAPPY);
  const std::string snappy_bytes = ReadBytes(snappy);
  const ChunkInfo amount = Chunk(snappy, 2);
  ExpectError(Write("uncompressed_lies.parquet",
                    WithPageHeader(snappy_bytes, amount.data_page,
                                   [](format::PageHeader& h) { h.uncompressed_page_size -= 8; })),
              ErrorKind::kCorruptFile, "header says", "amount");
}

TEST_F(HostileFileTest, NumValuesLies) {
  const ChunkInfo id = Chunk(good_, 0);
  ExpectError(Write("num_values_more.parquet", WithPageHeader(bytes_, id.data_page,
                                                              [](format::PageHeader& h) {
                                                                h.data_page_header.num_values += 5;
                                                              })),
              ErrorKind::kCorruptFile, "definition levels end early", "id");
  ExpectError(Write("num_values_fewer.parquet", WithPageHeader(bytes_, id.data_page,
                                                               [](format::PageHeader& h) {
                                                                 h.data_page_header.num_values -= 5;
                                                               })),
              ErrorKind::kCorruptFile, "fewer values than the row group's row count", "id");
  // The footer's row count disagreeing with the pages.
  ExpectError(Write("num_rows_more.parquet", WithFooter(bytes_,
                                                        [](format::FileMetaData& meta) {
                                                          meta.num_rows += 10;
                                                          meta.row_groups[0].num_rows += 10;
                                                        })),
              ErrorKind::kCorruptFile, "fewer values than the row group's row count", "id");
}

TEST_F(HostileFileTest, DictionaryIndexOutOfRange) {
  const ChunkInfo name = Chunk(good_, 1);
  ASSERT_TRUE(name.has_dictionary);
  // The dictionary claims fewer entries than the indexes use (7 -> 3).
  ExpectError(
      Write("dictionary_short.parquet",
            WithPageHeader(bytes_, name.first_page,
                           [](format::PageHeader& h) { h.dictionary_page_header.num_values = 3; })),
      ErrorKind::kCorruptFile, "out of range for a dictionary of 3 entries", "name");
}

TEST_F(HostileFileTest, WrongBitWidths) {
  const ChunkInfo name = Chunk(good_, 1);
  // DATA_PAGE v1 of an OPTIONAL column: 4-byte level length, levels, then the index bit width.
  const size_t body = PageBody(bytes_, name.data_page);
  uint32_t levels = 0;
  std::memcpy(&levels, bytes_.data() + body, 4);
  for (uint8_t width : {33, 200}) {
    std::string bytes = bytes_;
    bytes[body + 4 + levels] = static_cast<char>(width);
    ExpectError(Write("index_width_" + std::to_string(width) + ".parquet", bytes),
                ErrorKind::kCorruptFile, "bit width", "name");
  }
}

TEST_F(HostileFileTest, InvalidUtf8) {
  const ChunkInfo name = Chunk(good_, 1);
  // The first dictionary entry: 4-byte length, then "name_0"; make it "\xffame_0".
  std::string bytes = bytes_;
  bytes[PageBody(bytes_, name.first_page) + 4] = '\xff';
  ExpectError(Write("bad_utf8.parquet", bytes), ErrorKind::kCorruptFile, "UTF-8", "name");
}

TEST_F(HostileFileTest, NestedAndUnsupportedTypes) {
  const std::string fixtures = test::SharedFixturesDir();
  if (fixtures.empty()) GTEST_SKIP() << "shared fixtures not present";
  // Nested lists read (parquet_nested_test.cpp checks their values).
  const std::string nested = fixtures + "/external/data/nested_lists.snappy.parquet";
  EXPECT_EQ(con_.Query("SELECT count(a) FROM '" + nested + "'").ToStrings(),
            (std::vector<std::vector<std::string>>{{"3"}}));
}

TEST_F(HostileFileTest, SchemaMismatchBetweenPartitions) {
  const std::string root = dir_.path() + "/mismatch";
  WriteGoodFile(root + "/p=1/a.parquet");
  {
    fs::create_directories(root + "/p=2");
    parquet::ParquetWriter writer(root + "/p=2/b.parquet", {"id"}, {LogicalType::Varchar()});
    Batch batch({LogicalType::Varchar()}, 1);
    batch.column(0).data<StringRef>()[0] = batch.column(0).AddString("x");
    batch.SetSize(1);
    writer.Write(batch);
    writer.Close();
  }
  try {
    con_.Query("SELECT id FROM '" + root + "'");
    ADD_FAILURE() << "no error";
  } catch (const Error& error) {
    EXPECT_TRUE(error.IsUserError()) << error.what();
    EXPECT_NE(std::string(error.what()).find("b.parquet"), std::string::npos) << error.what();
  }
  ExpectUsable();
}

TEST_F(HostileFileTest, PartitionDirectoriesThatDoNotParse) {
  // A malformed escape in a partition value.
  const std::string escape = dir_.path() + "/escape";
  WriteGoodFile(escape + "/p=%zz/a.parquet");
  try {
    con_.Query("SELECT count(*) FROM '" + escape + "'");
    ADD_FAILURE() << "no error";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kInvalidInput) << error.what();
    EXPECT_NE(std::string(error.what()).find("%zz"), std::string::npos) << error.what();
  }
  ExpectUsable();
  // Files at different partition depths / with different keys at one depth.
  const std::string mixed = dir_.path() + "/mixed";
  WriteGoodFile(mixed + "/p=1/a.parquet");
  WriteGoodFile(mixed + "/q=1/b.parquet");
  EXPECT_THROW(con_.Query("SELECT count(*) FROM '" + mixed + "'"), InvalidInputError);
  ExpectUsable();
  // `x=` is the empty string, not an error: its rows are there with x = ''.
  const std::string empty = dir_.path() + "/empty";
  WriteGoodFile(empty + "/x=/a.parquet");
  WriteGoodFile(empty + "/x=b/a.parquet");
  EXPECT_EQ(con_.Query("SELECT x, count(*) FROM '" + empty + "' GROUP BY x ORDER BY x").ToStrings(),
            (std::vector<std::vector<std::string>>{{"", "3000"}, {"b", "3000"}}));
}

// Every single-byte corruption of the footer region is an error or a correct read of some
// file, never a crash: a cheap deterministic sweep next to the fuzzers.
TEST_F(HostileFileTest, EveryFooterByteFlipped) {
  uint32_t length = 0;
  std::memcpy(&length, bytes_.data() + bytes_.size() - 8, 4);
  const std::string path = dir_.path() + "/flip.parquet";
  int errors = 0;
  for (size_t i = bytes_.size() - 8 - length; i < bytes_.size(); i += 3) {
    std::string bytes = bytes_;
    bytes[i] = static_cast<char>(bytes[i] ^ 0x5a);
    WriteBytes(path, bytes);
    try {
      con_.Query("SELECT count(*), sum(amount), min(name) FROM '" + path + "'");
    } catch (const Error& error) {
      EXPECT_TRUE(error.IsUserError()) << "byte " << i << ": " << error.what();
      errors++;
    }
  }
  EXPECT_GT(errors, 0);
  ExpectUsable();
}

}  // namespace
}  // namespace shears

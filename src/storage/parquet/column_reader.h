#pragma once
// Reads one column chunk, page by page, into vectors: levels first, then values (dictionary
// indexes gathered from the already-converted dictionary, or decoded and converted).

#include <memory>
#include <optional>
#include <vector>

#include "common/vector.h"
#include "storage/parquet/encoding.h"
#include "storage/parquet/parquet_file.h"

namespace shears::parquet {

struct ScanCounters {
  uint64_t bytes_read = 0;
  uint64_t row_groups_total = 0;
  uint64_t row_groups_read = 0;
  uint64_t row_groups_skipped = 0;
  uint64_t pages_read = 0;
  uint64_t pages_skipped = 0;
  uint64_t rows_read = 0;
  void Add(const ScanCounters& other);
};

/// Bytes of a column chunk already read from the file, shared by the chunks of a row group
/// whose ranges were coalesced into one read.
struct ChunkBytes {
  std::shared_ptr<const std::vector<uint8_t>> buffer;
  size_t offset = 0;  // where the chunk starts in buffer
  size_t size = 0;
};

class ColumnChunkReader {
 public:
  ColumnChunkReader(const ParquetFile& file, int row_group, int column, ChunkBytes bytes,
                    ScanCounters* counters);
  ~ColumnChunkReader();

  /// Reads `count` rows into out[out_offset, out_offset + count).
  void Read(idx_t count, Vector& out, idx_t out_offset);
  /// Skips `count` rows (decoding levels and values it must, to stay in step).
  void Skip(idx_t count);

 private:
  struct PageState;
  void ReadInternal(idx_t count, Vector& out, idx_t out_offset);
  bool LoadNextDataPage();
  void ReadDictionaryPage(const format::PageHeader& header, const uint8_t* body);
  void StartDataPage(const format::PageHeader& header, const uint8_t* body);
  std::shared_ptr<std::vector<uint8_t>> Decompress(const uint8_t* body, size_t compressed,
                                                   size_t uncompressed);
  void DecodeValues(idx_t count, Vector& out, idx_t out_offset);
  [[noreturn]] void Fail(const std::string& what) const;

  const ParquetFile& file_;
  const ColumnDescriptor& column_;
  int row_group_;
  format::CompressionCodec::type codec_;
  ChunkBytes bytes_;
  size_t position_ = 0;  // next page header, relative to the chunk start
  ScanCounters* counters_;

  std::unique_ptr<Vector> dictionary_;
  std::shared_ptr<const void> dictionary_owner_;
  size_t dictionary_size_ = 0;
  std::vector<std::pair<uint32_t, std::string>> bad_dictionary_entries_;
  std::unique_ptr<PageState> page_;
  std::vector<uint8_t> scratch_;
};

}  // namespace shears::parquet

#pragma once
// Internal to the Parquet writer (parquet_writer.cpp): the encoder of one column, made per type
// by MakeColumnWriter (column_writer.cpp), and the thrift serializer both use.

#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "storage/parquet/bloom_filter.h"
#include "storage/parquet/parquet_writer.h"

namespace shears::parquet {

// Serializes thrift structs with the compact protocol, reusing one buffer.
class ThriftSerializer {
 public:
  ThriftSerializer()
      : buffer_(std::make_shared<apache::thrift::transport::TMemoryBuffer>()),
        protocol_(std::make_unique<Protocol>(buffer_)) {}

  template <typename T>
  void Append(const T& object, std::string* out) {
    buffer_->resetBuffer();
    object.write(protocol_.get());
    uint8_t* data;
    uint32_t size;
    buffer_->getBuffer(&data, &size);
    out->append(reinterpret_cast<const char*>(data), size);
  }
  template <typename T>
  std::string ToString(const T& object) {
    std::string out;
    Append(object, &out);
    return out;
  }

 private:
  using Protocol =
      apache::thrift::protocol::TCompactProtocolT<apache::thrift::transport::TMemoryBuffer>;
  std::shared_ptr<apache::thrift::transport::TMemoryBuffer> buffer_;
  std::unique_ptr<Protocol> protocol_;
};

/// One finished column chunk; offsets are relative to the chunk's first byte.
struct ChunkOutput {
  std::string dictionary_page;  // header + body, empty when none
  std::string data_pages;
  format::ColumnMetaData meta;
  std::optional<format::ColumnIndex> column_index;
  std::optional<format::OffsetIndex> offset_index;
  std::optional<SplitBlockBloomFilter> bloom;
};

/// Encodes one column: values into pages as they come, pages into a chunk buffer, chunks into
/// ChunkOutputs at the end of each row group. The typed part is TypedColumnWriter below.
class ColumnChunkWriter {
 public:
  /// `type` is the type of the values Parquet stores: a LIST column's element type, with
  /// `list` set (the column is then `<optional> group name (LIST) { repeated group list {
  /// <optional> T element } }`, repetition and definition levels in every page).
  ColumnChunkWriter(std::string name, LogicalType type, format::Type::type physical,
                    const WriterOptions& options, bool bloom, bool list)
      : name_(std::move(name)),
        type_(type),
        physical_(physical),
        options_(options),
        bloom_(bloom),
        list_(list) {}
  virtual ~ColumnChunkWriter() = default;

  /// Throws InvalidInputError for values this column cannot store (rows [0, count)).
  virtual void Validate(const Vector& vector, idx_t count) const = 0;
  /// Appends rows [begin, end) of `vector`.
  virtual void Write(const Vector& vector, idx_t begin, idx_t end) = 0;
  /// Ends the current chunk and starts the next one.
  virtual ChunkOutput FinishChunk() = 0;
  /// The same for a column of several leaves (nested_writer.h): a chunk per leaf.
  virtual std::vector<ChunkOutput> FinishChunks() {
    std::vector<ChunkOutput> chunks;
    chunks.push_back(FinishChunk());
    return chunks;
  }
  virtual WrittenColumnStats FileStats() const = 0;
  /// Bytes of the chunk buffered so far (the encoded pages of the current row group).
  virtual size_t buffered_bytes() const { return data_pages_.capacity(); }
  /// Makes a `list` writer a nested column's leaf at `path`: each row written is the leaf's
  /// level entries (LeafEntries, nested_schema.h), levels up to these maxima.
  void SetLeaf(std::vector<std::string> path, int max_rep, int max_def) {
    leaf_path_ = std::move(path);
    max_rep_ = max_rep;
    max_def_ = max_def;
  }

 protected:
  // Compresses a data page body and appends it (header first) to the chunk. `entries`: its
  // level entries (a LIST column's elements, NULL and empty lists; the rows of a flat one);
  // `nulls`: the entries without a value.
  void EmitDataPage(const std::string& body, int64_t rows, int64_t entries, int64_t nulls,
                    format::Encoding::type encoding, const std::string* min,
                    const std::string* max);

  std::string CompressPage(const std::string& body);

  // Builds the chunk's metadata and page indexes from what EmitDataPage recorded, and resets
  // that record for the next chunk.
  ChunkOutput FinishChunkCommon(const std::string* dictionary_body, int32_t dictionary_values,
                                std::optional<format::Statistics> statistics,
                                format::BoundaryOrder::type boundary_order);

  const std::string name_;
  const LogicalType type_;
  const format::Type::type physical_;
  const WriterOptions& options_;
  const bool bloom_;
  const bool list_;
  // A leaf's path (empty for the others) and the maximum levels of a `list_` writer: a LIST
  // column's are 1 and 3 (0 a NULL list, 1 an empty one, 2 a NULL element, 3 a value).
  std::vector<std::string> leaf_path_;
  int max_rep_ = 1;
  int max_def_ = 3;
  ThriftSerializer serializer_;

  // The chunk so far.
  std::string data_pages_;
  int64_t uncompressed_bytes_ = 0;  // data pages, headers included
  int64_t compressed_bytes_ = 0;
  int64_t chunk_rows_ = 0;
  int64_t chunk_entries_ = 0;  // level entries (num_values)
  int64_t chunk_nulls_ = 0;
  int64_t plain_pages_ = 0;
  int64_t dictionary_pages_ = 0;
  std::vector<format::PageLocation> page_locations_;
  std::vector<bool> null_pages_;
  std::vector<std::string> page_mins_, page_maxes_;
  std::vector<int64_t> page_null_counts_;
  bool column_index_valid_ = true;
};

/// Bytes the writers buffer (their chunks' encoded pages so far).
inline size_t BufferedBytes(const std::vector<std::unique_ptr<ColumnChunkWriter>>& writers) {
  size_t bytes = 0;
  for (const auto& writer : writers)
    bytes += writer->buffered_bytes();
  return bytes;
}

/// The writer of the values of `type` (a LIST column's elements, or a nested column's leaf's
/// values, when `list`).
std::unique_ptr<ColumnChunkWriter> MakeValueWriter(const std::string& name, const LogicalType& type,
                                                   const WriterOptions& options, bool bloom,
                                                   bool list);

/// The writer of one column of `type` (InvalidInputError when it has no valid type).
std::unique_ptr<ColumnChunkWriter> MakeColumnWriter(const std::string& name,
                                                    const LogicalType& type,
                                                    const WriterOptions& options, bool bloom);

}  // namespace shears::parquet

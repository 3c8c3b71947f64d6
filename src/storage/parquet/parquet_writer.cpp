#include "storage/parquet/parquet_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <unordered_set>

#include "common/error.h"
#include "storage/parquet/bloom_filter.h"
#include "storage/parquet/column_writer.h"
#include "storage/parquet/compression.h"
#include "storage/parquet/parquet_file.h"
#include "storage/parquet/schema_mapping.h"

namespace shears::parquet {

namespace {

constexpr char kMagic[] = "PAR1";
constexpr char kCreatedBy[] = "shears version 0.1.0";
constexpr size_t kOutputBufferBytes = 1 << 20;

}  // namespace

// ---- output file ----------------------------------------------------------------------------

class OutputFile {
 public:
  explicit OutputFile(std::string path) : path_(std::move(path)) {
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) throw IOError("cannot create '{}': {}", path_, std::strerror(errno));
    buffer_.reserve(kOutputBufferBytes);
  }
  ~OutputFile() {
    if (fd_ >= 0) ::close(fd_);
  }

  uint64_t position() const { return position_; }

  void Append(const void* data, size_t size) {
    if (buffer_.size() + size > kOutputBufferBytes) {
      Flush();
      if (size >= kOutputBufferBytes) {
        WriteAll(static_cast<const char*>(data), size);
        position_ += size;
        return;
      }
    }
    buffer_.append(static_cast<const char*>(data), size);
    position_ += size;
  }
  void Append(std::string_view bytes) { Append(bytes.data(), bytes.size()); }

  void Close() {
    Flush();
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) throw IOError("cannot close '{}': {}", path_, std::strerror(errno));
  }

 private:
  void Flush() {
    WriteAll(buffer_.data(), buffer_.size());
    buffer_.clear();
  }
  void WriteAll(const char* data, size_t size) {
    while (size > 0) {
      const ssize_t n = ::write(fd_, data, size);
      if (n < 0) {
        if (errno == EINTR) continue;
        throw IOError("cannot write to '{}': {}", path_, std::strerror(errno));
      }
      data += n;
      size -= static_cast<size_t>(n);
    }
  }

  std::string path_;
  int fd_ = -1;
  std::string buffer_;
  uint64_t position_ = 0;
};

// ---- the file -------------------------------------------------------------------------------

ParquetWriter::ParquetWriter(std::string path, std::vector<std::string> names,
                             std::vector<LogicalType> types, WriterOptions options)
    : path_(std::move(path)),
      names_(std::move(names)),
      types_(std::move(types)),
      options_(std::move(options)) {
  if (names_.size() != types_.size()) {
    throw InvalidInputError("writing '{}': {} column names but {} types", path_, names_.size(),
                            types_.size());
  }
  std::unordered_set<std::string> seen;
  for (size_t i = 0; i < names_.size(); i++) {
    if (names_[i].empty()) throw InvalidInputError("writing '{}': column {} has no name", path_, i);
    if (!seen.insert(names_[i]).second) {
      throw InvalidInputError("writing '{}': column name '{}' appears twice", path_, names_[i]);
    }
    if (!types_[i].valid()) {
      throw InvalidInputError("writing '{}': column '{}' has no valid type", path_, names_[i]);
    }
  }
  if (options_.row_group_rows < 1 || options_.page_size_bytes < 1 || options_.page_row_limit < 1 ||
      options_.dictionary_page_limit_bytes < 0) {
    throw InvalidInputError(
        "writing '{}': row_group_rows, page_size_bytes and page_row_limit must be positive and "
        "dictionary_page_limit_bytes not negative",
        path_);
  }
  // Page row counts are i32 in page headers, and null positions are kept as uint32_t.
  options_.page_row_limit = std::min<int64_t>(options_.page_row_limit, INT32_MAX);
  std::vector<bool> bloom(names_.size(), false);
  for (const auto& column : options_.bloom_filter_columns) {
    auto it = std::find(names_.begin(), names_.end(), column);
    if (it == names_.end()) {
      throw InvalidInputError("writing '{}': bloom filter column '{}' is not a column", path_,
                              column);
    }
    const size_t index = static_cast<size_t>(it - names_.begin());
    if (types_[index].id() == TypeId::kBoolean) {
      throw InvalidInputError("writing '{}': BOOLEAN column '{}' cannot have a bloom filter", path_,
                              column);
    }
    // Readers cannot tell a row from its elements by a filter of elements.
    if (types_[index].IsNested()) {
      throw InvalidInputError("writing '{}': {} column '{}' cannot have a bloom filter", path_,
                              types_[index].IsList()  ? "LIST"
                              : types_[index].IsMap() ? "MAP"
                                                      : "STRUCT",
                              column);
    }
    bloom[index] = true;
  }
  if (!options_.bloom_filter_columns.empty()) {
    SplitBlockBloomFilter::OptimalNumBytes(1, options_.bloom_filter_fpp);  // checks the fpp
  }
  // Rejects unwritable codecs and bad levels before the file exists.
  Compress(options_.codec, nullptr, 0, options_.compression_level);

  metadata_ = std::make_unique<format::FileMetaData>();
  metadata_->version = 1;
  metadata_->num_rows = 0;
  format::SchemaElement root;
  root.name = "schema";
  root.__set_num_children(static_cast<int32_t>(names_.size()));
  metadata_->schema.push_back(root);
  std::vector<format::ColumnOrder> orders;
  for (size_t i = 0; i < names_.size(); i++) {
    for (auto& element : SchemaElementsFor(names_[i], types_[i]))
      metadata_->schema.push_back(std::move(element));
    format::ColumnOrder order;
    order.__set_TYPE_ORDER(format::TypeDefinedOrder());
    orders.push_back(order);
    columns_.push_back(MakeColumnWriter(names_[i], types_[i], options_, bloom[i]));
  }
  metadata_->__set_column_orders(orders);
  metadata_->__set_created_by(kCreatedBy);
  std::vector<format::KeyValue> pairs;
  for (const auto& [key, value] : options_.key_value_metadata) {
    format::KeyValue kv;
    kv.key = key;
    kv.__set_value(value);
    pairs.push_back(kv);
  }
  // Readers may trust this file's FLOAT/DOUBLE bounds: a chunk or page holding a NaN has none.
  format::KeyValue complete;
  complete.key = kCompleteFloatBoundsKey;
  complete.__set_value("true");
  pairs.push_back(complete);
  metadata_->__set_key_value_metadata(pairs);

  out_ = std::make_unique<OutputFile>(path_);
  out_->Append(kMagic, 4);
}

ParquetWriter::~ParquetWriter() = default;

void ParquetWriter::CheckUsable() const {
  if (closed_) throw InvalidInputError("writing '{}': the writer is already closed", path_);
  if (failed_) {
    throw InvalidInputError("writing '{}': an earlier error left the file incomplete", path_);
  }
}

void ParquetWriter::Write(const Batch& batch) {
  CheckUsable();
  if (batch.column_count() != columns_.size()) {
    throw InvalidInputError("writing '{}': the batch has {} columns, the file {}", path_,
                            batch.column_count(), columns_.size());
  }
  for (size_t c = 0; c < columns_.size(); c++) {
    if (!(batch.column(c).type() == types_[c])) {
      throw InvalidInputError("writing '{}': column '{}' is {} but the batch has {}", path_,
                              names_[c], types_[c].ToString(), batch.column(c).type().ToString());
    }
  }
  const idx_t rows = batch.size();
  for (size_t c = 0; c < columns_.size(); c++)
    columns_[c]->Validate(batch.column(c), rows);
  try {
    idx_t offset = 0;
    while (offset < rows) {
      const idx_t take = std::min<idx_t>(
          rows - offset, static_cast<idx_t>(options_.row_group_rows - row_group_rows_));
      for (size_t c = 0; c < columns_.size(); c++) {
        columns_[c]->Write(batch.column(c), offset, offset + take);
      }
      offset += take;
      row_group_rows_ += static_cast<int64_t>(take);
      rows_ += static_cast<int64_t>(take);
      if (row_group_rows_ >= options_.row_group_rows) FlushRowGroup();
    }
  } catch (...) {
    failed_ = true;
    throw;
  }
}

void ParquetWriter::FlushRowGroup() {
  format::RowGroup group;
  group.num_rows = row_group_rows_;
  group.__set_file_offset(static_cast<int64_t>(out_->position()));
  if (metadata_->row_groups.size() <= static_cast<size_t>(INT16_MAX)) {
    group.__set_ordinal(static_cast<int16_t>(metadata_->row_groups.size()));
  }
  int64_t uncompressed = 0, compressed = 0;
  std::vector<std::optional<SplitBlockBloomFilter>> blooms;
  auto& column_indexes = column_indexes_.emplace_back();
  auto& offset_indexes = offset_indexes_.emplace_back();
  std::vector<ChunkOutput> chunks;
  for (auto& column : columns_) {
    for (auto& chunk : column->FinishChunks())
      chunks.push_back(std::move(chunk));
  }
  for (auto& chunk : chunks) {
    const auto start = static_cast<int64_t>(out_->position());
    out_->Append(chunk.dictionary_page);
    out_->Append(chunk.data_pages);
    auto& meta = chunk.meta;
    meta.data_page_offset += start;
    if (meta.__isset.dictionary_page_offset) meta.dictionary_page_offset += start;
    if (chunk.offset_index) {
      for (auto& location : chunk.offset_index->page_locations)
        location.offset += start;
    }
    uncompressed += meta.total_uncompressed_size;
    compressed += meta.total_compressed_size;
    format::ColumnChunk column_chunk;
    column_chunk.file_offset =
        0;  // deprecated; the spec asks for 0 (no metadata outside the footer)
    column_chunk.__set_meta_data(meta);
    group.columns.push_back(std::move(column_chunk));
    column_indexes.push_back(std::move(chunk.column_index));
    offset_indexes.push_back(std::move(chunk.offset_index));
    blooms.push_back(std::move(chunk.bloom));
  }
  // Bloom filters follow their row group, so none has to be kept until the end of the file.
  ThriftSerializer serializer;
  for (size_t c = 0; c < blooms.size(); c++) {
    if (!blooms[c]) continue;
    format::BloomFilterHeader header;
    header.numBytes = static_cast<int32_t>(blooms[c]->bytes().size());
    header.algorithm.__set_BLOCK(format::SplitBlockAlgorithm());
    header.hash.__set_XXHASH(format::XxHash());
    header.compression.__set_UNCOMPRESSED(format::Uncompressed());
    const std::string header_bytes = serializer.ToString(header);
    auto& meta = group.columns[c].meta_data;
    meta.__set_bloom_filter_offset(static_cast<int64_t>(out_->position()));
    meta.__set_bloom_filter_length(
        static_cast<int32_t>(header_bytes.size() + blooms[c]->bytes().size()));
    out_->Append(header_bytes);
    out_->Append(blooms[c]->bytes());
  }
  group.total_byte_size = uncompressed;
  group.__set_total_compressed_size(compressed);
  metadata_->row_groups.push_back(std::move(group));
  metadata_->num_rows += row_group_rows_;
  row_group_rows_ = 0;
}

void ParquetWriter::WriteTail() {
  if (row_group_rows_ > 0) FlushRowGroup();
  ThriftSerializer serializer;
  // All column indexes, then all offset indexes, as other writers lay them out.
  for (size_t rg = 0; rg < column_indexes_.size(); rg++) {
    for (size_t c = 0; c < column_indexes_[rg].size(); c++) {
      if (!column_indexes_[rg][c]) continue;
      const std::string bytes = serializer.ToString(*column_indexes_[rg][c]);
      auto& chunk = metadata_->row_groups[rg].columns[c];
      chunk.__set_column_index_offset(static_cast<int64_t>(out_->position()));
      chunk.__set_column_index_length(static_cast<int32_t>(bytes.size()));
      out_->Append(bytes);
    }
  }
  for (size_t rg = 0; rg < offset_indexes_.size(); rg++) {
    for (size_t c = 0; c < offset_indexes_[rg].size(); c++) {
      if (!offset_indexes_[rg][c]) continue;
      const std::string bytes = serializer.ToString(*offset_indexes_[rg][c]);
      auto& chunk = metadata_->row_groups[rg].columns[c];
      chunk.__set_offset_index_offset(static_cast<int64_t>(out_->position()));
      chunk.__set_offset_index_length(static_cast<int32_t>(bytes.size()));
      out_->Append(bytes);
    }
  }
  const std::string footer = serializer.ToString(*metadata_);
  if (footer.size() > UINT32_MAX) {
    throw InvalidInputError("writing '{}': the footer of {} bytes is too large", path_,
                            footer.size());
  }
  out_->Append(footer);
  const auto length = static_cast<uint32_t>(footer.size());
  out_->Append(&length, 4);
  out_->Append(kMagic, 4);
}

WrittenFile ParquetWriter::Close() {
  CheckUsable();
  WrittenFile result;
  try {
    WriteTail();
    result.size = out_->position();
    out_->Close();
  } catch (...) {
    failed_ = true;
    throw;
  }
  closed_ = true;
  result.path = path_;
  result.rows = rows_;
  result.row_groups = static_cast<int>(metadata_->row_groups.size());
  for (const auto& column : columns_)
    result.columns.push_back(column->FileStats());
  column_indexes_.clear();
  offset_indexes_.clear();
  return result;
}

uint64_t ParquetWriter::buffered_bytes() const {
  return BufferedBytes(columns_);
}

}  // namespace shears::parquet

#include <cstdint>
#include <string>

#include "common/error.h"
#include "storage/parquet/column_writer.h"
#include "storage/parquet/compression.h"

// The page and chunk framing every column writer shares (column_writer.cpp has the typed
// writers that encode values).
namespace shears::parquet {

// ---- column chunks --------------------------------------------------------------------------

// Compresses a data page body and appends it (header first) to the chunk.
void ColumnChunkWriter::EmitDataPage(const std::string& body, int64_t rows, int64_t entries,
                                     int64_t nulls, format::Encoding::type encoding,
                                     const std::string* min, const std::string* max) {
  const std::string compressed = CompressPage(body);
  format::PageHeader header;
  header.type = format::PageType::DATA_PAGE;
  header.uncompressed_page_size = static_cast<int32_t>(body.size());
  header.compressed_page_size = static_cast<int32_t>(compressed.size());
  if (options_.page_checksums) {
    header.__set_crc(static_cast<int32_t>(
        Crc32(reinterpret_cast<const uint8_t*>(compressed.data()), compressed.size())));
  }
  format::DataPageHeader data_header;
  data_header.num_values = static_cast<int32_t>(entries);
  data_header.encoding = encoding;
  data_header.definition_level_encoding = format::Encoding::RLE;
  data_header.repetition_level_encoding = format::Encoding::RLE;
  header.__set_data_page_header(data_header);
  const size_t start = data_pages_.size();
  serializer_.Append(header, &data_pages_);
  const size_t header_size = data_pages_.size() - start;
  data_pages_.append(compressed);
  uncompressed_bytes_ += static_cast<int64_t>(header_size + body.size());
  compressed_bytes_ += static_cast<int64_t>(header_size + compressed.size());

  format::PageLocation location;
  location.offset = static_cast<int64_t>(start);  // made absolute by FinishChunk's caller
  location.compressed_page_size = static_cast<int32_t>(header_size + compressed.size());
  location.first_row_index = chunk_rows_;
  page_locations_.push_back(location);
  const bool null_page = entries == nulls;
  null_pages_.push_back(null_page);
  page_null_counts_.push_back(nulls);
  if (min != nullptr) {
    page_mins_.push_back(*min);
    page_maxes_.push_back(*max);
  } else {
    page_mins_.emplace_back();
    page_maxes_.emplace_back();
    // A page of values without bounds (only NaN) cannot be described honestly.
    if (!null_page) column_index_valid_ = false;
  }
  chunk_rows_ += rows;
  chunk_entries_ += entries;
  chunk_nulls_ += nulls;
  (encoding == format::Encoding::PLAIN ? plain_pages_ : dictionary_pages_)++;
}

std::string ColumnChunkWriter::CompressPage(const std::string& body) {
  if (body.size() > static_cast<size_t>(INT32_MAX)) {
    throw InvalidInputError("column '{}': a page of {} bytes exceeds Parquet's 2 GiB limit", name_,
                            body.size());
  }
  return Compress(options_.codec, reinterpret_cast<const uint8_t*>(body.data()), body.size(),
                  options_.compression_level);
}

// Builds the chunk's metadata and page indexes from what EmitDataPage recorded, and resets
// that record for the next chunk.
ChunkOutput ColumnChunkWriter::FinishChunkCommon(const std::string* dictionary_body,
                                                 int32_t dictionary_values,
                                                 std::optional<format::Statistics> statistics,
                                                 format::BoundaryOrder::type boundary_order) {
  ChunkOutput out;
  auto& meta = out.meta;
  int64_t uncompressed = uncompressed_bytes_;
  int64_t compressed = compressed_bytes_;
  std::vector<format::PageEncodingStats> encoding_stats;
  if (dictionary_body != nullptr) {
    const std::string body = CompressPage(*dictionary_body);
    format::PageHeader header;
    header.type = format::PageType::DICTIONARY_PAGE;
    header.uncompressed_page_size = static_cast<int32_t>(dictionary_body->size());
    header.compressed_page_size = static_cast<int32_t>(body.size());
    if (options_.page_checksums) {
      header.__set_crc(
          static_cast<int32_t>(Crc32(reinterpret_cast<const uint8_t*>(body.data()), body.size())));
    }
    format::DictionaryPageHeader dictionary_header;
    dictionary_header.num_values = dictionary_values;
    dictionary_header.encoding = format::Encoding::PLAIN;
    header.__set_dictionary_page_header(dictionary_header);
    serializer_.Append(header, &out.dictionary_page);
    const size_t header_size = out.dictionary_page.size();
    out.dictionary_page.append(body);
    uncompressed += static_cast<int64_t>(header_size + dictionary_body->size());
    compressed += static_cast<int64_t>(out.dictionary_page.size());
    meta.__set_dictionary_page_offset(0);
    format::PageEncodingStats stats;
    stats.page_type = format::PageType::DICTIONARY_PAGE;
    stats.encoding = format::Encoding::PLAIN;
    stats.count = 1;
    encoding_stats.push_back(stats);
  }
  const auto dictionary_size = static_cast<int64_t>(out.dictionary_page.size());
  meta.type = physical_;
  // Levels are RLE; PLAIN is listed for the dictionary page and PLAIN data pages.
  meta.encodings = {format::Encoding::RLE};
  if (dictionary_body != nullptr || plain_pages_ > 0) {
    meta.encodings.push_back(format::Encoding::PLAIN);
  }
  if (dictionary_pages_ > 0) meta.encodings.push_back(format::Encoding::RLE_DICTIONARY);
  for (auto [encoding, count] : {std::pair{format::Encoding::RLE_DICTIONARY, dictionary_pages_},
                                 std::pair{format::Encoding::PLAIN, plain_pages_}}) {
    if (count == 0) continue;
    format::PageEncodingStats stats;
    stats.page_type = format::PageType::DATA_PAGE;
    stats.encoding = encoding;
    stats.count = static_cast<int32_t>(count);
    encoding_stats.push_back(stats);
  }
  meta.__set_encoding_stats(encoding_stats);
  meta.path_in_schema = {name_};
  if (list_) meta.path_in_schema = {name_, "list", "element"};
  if (!leaf_path_.empty()) meta.path_in_schema = leaf_path_;
  meta.codec = options_.codec;
  meta.num_values = chunk_entries_;
  meta.total_uncompressed_size = uncompressed;
  meta.total_compressed_size = compressed;
  meta.data_page_offset = dictionary_size;
  if (statistics) meta.__set_statistics(*statistics);

  if (options_.write_page_index) {
    format::OffsetIndex offset_index;
    offset_index.page_locations = std::move(page_locations_);
    for (auto& location : offset_index.page_locations)
      location.offset += dictionary_size;
    out.offset_index = std::move(offset_index);
    // A LIST column's page bounds would be its elements', which no reader may take for the
    // rows': no column index (the offset index still lets pages be skipped).
    if (column_index_valid_ && !list_) {
      format::ColumnIndex column_index;
      column_index.null_pages = std::move(null_pages_);
      column_index.min_values = std::move(page_mins_);
      column_index.max_values = std::move(page_maxes_);
      column_index.boundary_order = boundary_order;
      // __set_null_counts takes a const reference: move the counts in directly.
      column_index.null_counts = std::move(page_null_counts_);
      column_index.__isset.null_counts = true;
      out.column_index = std::move(column_index);
    }
  }
  out.data_pages = std::move(data_pages_);

  data_pages_ = std::string();
  page_locations_.clear();
  null_pages_.clear();
  page_mins_.clear();
  page_maxes_.clear();
  page_null_counts_.clear();
  column_index_valid_ = true;
  uncompressed_bytes_ = compressed_bytes_ = 0;
  chunk_rows_ = chunk_entries_ = chunk_nulls_ = 0;
  plain_pages_ = dictionary_pages_ = 0;
  return out;
}

}  // namespace shears::parquet

#pragma once
// Internal to ColumnChunkReader (column_reader.cpp, column_reader_rows.cpp): the data page
// being read, its levels decoded and its values' decoder.

#include <memory>
#include <optional>
#include <vector>

#include "storage/parquet/column_reader.h"

namespace shears::parquet {

struct ColumnChunkReader::PageState {
  std::shared_ptr<const void> owner;  // keeps the bytes values point into alive
  format::Encoding::type encoding = format::Encoding::PLAIN;
  idx_t num_values = 0;  // level entries (= rows for flat columns)
  idx_t level_pos = 0;
  std::vector<uint8_t> def_levels;  // empty when the column is required (or all present)
  std::vector<uint8_t> rep_levels;  // a LIST column's
  const uint8_t* values = nullptr;
  size_t values_size = 0;
  size_t values_pos = 0;
  size_t bool_bit = 0;
  std::optional<RleBitPackedDecoder> rle;
  std::unique_ptr<DeltaBinaryPackedDecoder<int32_t>> delta32;
  std::unique_ptr<DeltaBinaryPackedDecoder<int64_t>> delta64;
  std::unique_ptr<DeltaLengthByteArrayDecoder> delta_length;
  std::unique_ptr<DeltaByteArrayDecoder> delta_bytes;
  std::shared_ptr<StringHeap> heap;
  std::shared_ptr<std::vector<uint8_t>> split;  // BYTE_STREAM_SPLIT values, re-laid as PLAIN
  std::vector<uint32_t> indexes;
  size_t decompressed_bytes = 0;  // of the page's own decompressed copy
};

}  // namespace shears::parquet

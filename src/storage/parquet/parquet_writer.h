#pragma once
// Writes batches to one Parquet file: flat OPTIONAL columns and LIST columns of them, data
// pages v1 (RLE levels; RLE_DICTIONARY with a PLAIN dictionary page, or PLAIN), chunk
// statistics, the page index (ColumnIndex + OffsetIndex) and split-block bloom filters.
//
// Layout: "PAR1", then per row group its column chunks (dictionary page, data pages) followed
// by that row group's bloom filters; after the last row group all column indexes, then all
// offset indexes, then the footer. One row group per column is buffered in memory, as
// compressed pages.
//
// Type mapping (shears -> Parquet physical + annotations):
//   BOOLEAN    BOOLEAN
//   INTEGER    INT32
//   BIGINT     INT64
//   DOUBLE     DOUBLE
//   FLOAT      FLOAT
//   DECIMAL    p <= 9: INT32, p <= 18: INT64, else FIXED_LEN_BYTE_ARRAY(16) big-endian;
//              DECIMAL(p,s) logical and converted type
//   DATE       INT32 DATE
//   TIMESTAMP  INT64 TIMESTAMP(isAdjustedToUTC=false, MICROS) + TIMESTAMP_MICROS
//   VARCHAR    BYTE_ARRAY STRING + UTF8
//   BLOB       BYTE_ARRAY
//   LIST(T)    <optional> group (LIST) { repeated group list { <optional> T element } }: levels
//              rep 0/1, def 0 NULL list, 1 empty list, 2 NULL element, 3 value; a page ends
//              with a row; no statistics, column index or bloom filter (they would describe
//              elements, not rows), an offset index
//   STRUCT, MAP, LIST of a nested type: <optional> groups, LIST in the three-level form, MAP
//              as (MAP) { repeated group key_value { required key; <optional> value } }; a
//              chunk per leaf, levels of any width, no statistics, column index or bloom filter
//              (nested_writer.h)
//
// Bloom filters hash a value's PLAIN encoding without length prefix, with the helpers of
// SplitBlockBloomFilter, so a probe must compute:
//   INTEGER, DATE, DECIMAL(p<=9)   HashInt32(value as int32_t)
//   BIGINT, TIMESTAMP, DECIMAL(p<=18)  HashInt64(value)
//   DOUBLE                         HashDouble(value); both 0.0 and -0.0 are inserted for a zero
//   FLOAT                          HashFloat(value), zeros as for DOUBLE
//   DECIMAL(p>18)                  HashBytes(16-byte big-endian two's complement)
//   VARCHAR, BLOB                  HashBytes(bytes)
// BOOLEAN columns cannot have bloom filters.

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/types.h"
#include "common/value.h"
#include "common/vector.h"
#include "parquet_types.h"

namespace shears::parquet {

struct WriterOptions {
  format::CompressionCodec::type codec = format::CompressionCodec::SNAPPY;
  int compression_level = 0;          // codec default when 0
  int64_t row_group_rows = 122880;    // rows per row group
  int64_t page_size_bytes = 1 << 20;  // target uncompressed data page size
  /// A page also ends after this many rows, so the page index stays selective for narrow
  /// columns (a 1 MiB page of small dictionary indexes would cover the whole row group).
  int64_t page_row_limit = 20000;
  /// Dictionary-encode, falling back to PLAIN mid-chunk when the dictionary exceeds
  /// dictionary_page_limit_bytes. A chunk whose first page is smaller PLAIN than dictionary
  /// encoded (nearly unique values) is written PLAIN from the start.
  bool dictionary = true;
  int64_t dictionary_page_limit_bytes = 1 << 20;
  bool write_statistics = true;  // chunk min/max/null_count (min_value/max_value fields)
  bool write_page_index = true;  // ColumnIndex + OffsetIndex
  /// CRC-32 in every page header (readers then verify it, which costs scan time).
  bool page_checksums = false;
  std::vector<std::string> bloom_filter_columns;  // split-block bloom filters (XXH64) for these
  double bloom_filter_fpp = 0.01;
  std::vector<std::pair<std::string, std::string>> key_value_metadata;
};

/// Min/max over the whole file (exact, never truncated; NaN skipped; a zero min is -0.0 and a
/// zero max +0.0 as Parquet orders them), absent when the column has no ordered value.
struct WrittenColumnStats {
  std::optional<Value> min, max;
  int64_t null_count = 0;
};

struct WrittenFile {
  std::string path;
  int64_t rows = 0;
  uint64_t size = 0;
  std::vector<WrittenColumnStats> columns;
  int row_groups = 0;
};

class ColumnChunkWriter;
class OutputFile;

class ParquetWriter {
 public:
  /// Creates/truncates `path`; IOError naming it on failure. `names`/`types`: one per column;
  /// every column is OPTIONAL. InvalidInputError for bad options (sizes < 1, unknown, BOOLEAN or
  /// nested bloom filter column, fpp outside (0,1), duplicate or empty names); NotSupportedError
  /// for codecs that cannot be written (LZO, LZ4).
  ParquetWriter(std::string path, std::vector<std::string> names, std::vector<LogicalType> types,
                WriterOptions options = {});
  /// Closes the fd without a footer if Close() was not called (caller deletes the partial file).
  ~ParquetWriter();
  ParquetWriter(const ParquetWriter&) = delete;
  ParquetWriter& operator=(const ParquetWriter&) = delete;

  /// Appends the batch's rows; its columns are in the writer's column order and types.
  /// InvalidInputError (naming the column) for a wrong column count or type, invalid UTF-8 in
  /// a VARCHAR, or a DECIMAL beyond its precision; nothing of the batch is written then.
  void Write(const Batch& batch);
  /// Flushes the last row group, writes page indexes and footer; returns stats.
  WrittenFile Close();

  const std::string& path() const { return path_; }
  int64_t rows_written() const { return rows_; }
  /// Bytes of the current row group buffered in memory (its columns' encoded pages).
  uint64_t buffered_bytes() const;

 private:
  void CheckUsable() const;
  void FlushRowGroup();
  void WriteTail();

  std::string path_;
  std::vector<std::string> names_;
  std::vector<LogicalType> types_;
  WriterOptions options_;
  std::unique_ptr<OutputFile> out_;
  std::vector<std::unique_ptr<ColumnChunkWriter>> columns_;
  std::unique_ptr<format::FileMetaData> metadata_;
  // Page indexes of every chunk written so far: [row group][column].
  std::vector<std::vector<std::optional<format::ColumnIndex>>> column_indexes_;
  std::vector<std::vector<std::optional<format::OffsetIndex>>> offset_indexes_;
  int64_t rows_ = 0;
  int64_t row_group_rows_ = 0;  // rows buffered for the current row group
  bool closed_ = false;
  bool failed_ = false;
};

}  // namespace shears::parquet

#pragma once
// The page index of a row group (ColumnIndex: per-page min/max/null pages; OffsetIndex: where
// each page lies and its first row), read lazily for the columns a filter can use, plus row
// ranges: the rows of a row group that may match, which the reader turns into the pages it
// reads. A page index that is missing or malformed is simply absent: readers then read every
// page, so a bad index never breaks a query.

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "storage/parquet/parquet_file.h"

namespace shears::parquet {

/// Rows [begin, end) of a row group.
struct RowRange {
  int64_t begin = 0;
  int64_t end = 0;
  bool operator==(const RowRange&) const = default;
};
/// Sorted, disjoint, non-empty, non-adjacent ranges.
using RowRanges = std::vector<RowRange>;

/// Rows in both `a` and `b`.
RowRanges IntersectRowRanges(const RowRanges& a, const RowRanges& b);
int64_t RowRangesCount(const RowRanges& ranges);
/// Indexes of the pages (of `index`, in a row group of `num_rows`) holding a row of `ranges`.
std::vector<size_t> PagesOverlapping(const format::OffsetIndex& index, int64_t num_rows,
                                     const RowRanges& ranges);
/// Rows [first, end) of page `page`.
RowRange PageRows(const format::OffsetIndex& index, int64_t num_rows, size_t page);

/// True when `index` can be trusted for a chunk with `meta` in a row group of `num_rows`:
/// pages in order inside the chunk, the first at data_page_offset, first rows increasing.
bool OffsetIndexFitsChunk(const format::ColumnMetaData& meta, int64_t num_rows,
                          const format::OffsetIndex& index);

/// True when every data page of the chunk is dictionary encoded (from encoding_stats, or
/// else from the encodings list when it names no PLAIN), so its dictionary holds every value.
bool ChunkFullyDictionaryEncoded(const format::ColumnMetaData& meta);

/// Column and offset indexes of some columns of one row group.
class RowGroupPageIndex {
 public:
  RowGroupPageIndex(const ParquetFile& file, int row_group);

  /// Reads the column indexes of `column_index_columns` and offset indexes of
  /// `offset_index_columns` (top-level file columns) not loaded yet, ranges lying close
  /// together with one request. Adds the bytes read to *bytes_read. Indexes that are absent,
  /// do not parse or contradict the chunk's metadata are left out (see the accessors).
  void Load(const std::vector<int>& column_index_columns,
            const std::vector<int>& offset_index_columns, uint64_t* bytes_read);

  /// nullptr when the column has no usable index (absent, malformed, or the column index and
  /// offset index disagree on the page count).
  const ColumnIndexData* column_index(int column) const;
  const format::OffsetIndex* offset_index(int column) const;
  int64_t num_rows() const { return num_rows_; }
  int row_group() const { return row_group_; }
  /// Indexes found malformed so far (for EXPLAIN ANALYZE).
  uint64_t invalid_indexes() const { return invalid_; }

 private:
  const ParquetFile& file_;
  int row_group_;
  int64_t num_rows_;
  // Loaded entries; nullopt when the index was looked at and is unusable.
  std::map<int, std::optional<ColumnIndexData>> column_indexes_;
  std::map<int, std::optional<format::OffsetIndex>> offset_indexes_;
  uint64_t invalid_ = 0;
};

}  // namespace shears::parquet

#pragma once
// Reads the projected columns of chosen row groups of one Parquet file into batches. Only the
// projected column chunks' bytes are read; chunks that lie close together are read with one
// request.

#include <map>
#include <memory>
#include <vector>

#include "common/vector.h"
#include "storage/parquet/column_reader.h"
#include "storage/parquet/page_index.h"
#include "storage/parquet/parquet_file.h"

namespace shears::parquet {

struct ReaderOptions {
  /// Two chunk ranges closer than this are read as one (the gap is read and discarded).
  uint64_t coalesce_gap_bytes = 1 << 20;
};

class ParquetReader {
 public:
  /// `columns` are top-level column indexes of `file`, in output order. Throws
  /// NotSupportedError when one of them cannot be read (nested, encrypted, ...).
  ParquetReader(std::shared_ptr<ParquetFile> file, std::vector<int> columns,
                ReaderOptions options = {});
  ~ParquetReader();

  /// Restricts reading to these row groups (in this order). Default: all.
  void SelectRowGroups(std::vector<int> row_groups);
  /// Of row group `index.row_group()`, reads only the rows in `ranges` (empty: none). Columns
  /// whose offset index `index` holds read only the pages overlapping the ranges; the others
  /// read every page and drop the rows outside. Columns stay row-aligned.
  void SelectRows(std::shared_ptr<const RowGroupPageIndex> index, RowRanges ranges);
  /// Types of the output columns.
  std::vector<LogicalType> output_types() const;

  /// Fills `out` with up to kBatchSize rows (out must have one vector per projected column of
  /// the right type). Returns false when everything was read.
  bool Next(Batch& out);

  const ScanCounters& counters() const { return counters_; }
  const ParquetFile& file() const { return *file_; }

 private:
  void StartRowGroup(int row_group);
  /// For a column with an offset index and partial row ranges: reads the dictionary page and
  /// the pages overlapping the ranges; nullptr when the whole chunk must be read.
  std::unique_ptr<ColumnChunkReader> StartSparseChunk(int row_group, int column);

  std::shared_ptr<ParquetFile> file_;
  std::vector<int> columns_;
  ReaderOptions options_;
  std::vector<int> row_groups_;
  size_t next_row_group_ = 0;
  int current_row_group_ = -1;
  int64_t rows_left_in_group_ = 0;
  std::vector<std::unique_ptr<ColumnChunkReader>> readers_;
  // Row selections by row group (SelectRows), and the current row group's.
  std::map<int, std::pair<std::shared_ptr<const RowGroupPageIndex>, RowRanges>> selections_;
  const RowGroupPageIndex* current_index_ = nullptr;
  RowRanges current_ranges_;  // empty with current_index_ null: every row
  size_t next_range_ = 0;
  int64_t next_row_ = 0;  // next row to read within the current range
  ScanCounters counters_;
  bool pad_chunks_ = false;
};

/// True for files from writers known to under-report column chunk sizes.
bool NeedsChunkPadding(const ParquetFile& file);

}  // namespace shears::parquet

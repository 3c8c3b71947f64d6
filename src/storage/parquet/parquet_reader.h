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
  /// Two chunk ranges closer than this are read as one (the gap is read and discarded). Small:
  /// a wider gap reads the unwanted columns between wanted ones (a megabyte read most of every
  /// daily partition file of the star schema for a two-column scan, 2.7x the bytes).
  uint64_t coalesce_gap_bytes = 64 << 10;
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
  /// Dictionaries of row group `row_group`'s chunks already read and decoded (by the split's
  /// pruning checks): its reader takes them instead of reading and decoding the pages again.
  void AdoptDictionaries(int row_group,
                         std::vector<std::shared_ptr<const DecodedDictionary>> dictionaries);
  /// Types of the output columns.
  std::vector<LogicalType> output_types() const;

  /// Fills `out` with up to kBatchSize rows (out must have one vector per projected column of
  /// the right type). Returns false when everything was read.
  bool Next(Batch& out);

  /// Late materialization, step 1: like Next, but reads only the columns marked in `first`
  /// (the others are left unset). Step 2, FinishSelected, must follow.
  bool NextFirst(Batch& out, const std::vector<bool>& first);
  /// Step 2: keeps rows sel[0..count) (ascending) of what NextFirst read: the `first` columns
  /// are compacted, the others read for the kept rows only (pages holding none are passed over
  /// without decompressing, rows in between skipped).
  void FinishSelected(Batch& out, const std::vector<bool>& first, const uint32_t* sel, idx_t count);

  /// Records the dictionary codes of the output columns marked in `columns` as they are read
  /// (by Next and NextFirst), for dictionary_codes.
  void RecordDictionaryCodes(const std::vector<bool>& columns);
  /// The codes of output column `column` in the batch last read; nullptr when not recorded or
  /// not usable (see DictionaryCodes). Valid until the next read.
  const DictionaryCodes* dictionary_codes(size_t column) const {
    return column < codes_.size() && codes_[column] && codes_[column]->usable()
               ? codes_[column].get()
               : nullptr;
  }

  const ScanCounters& counters() const { return counters_; }
  const ParquetFile& file() const { return *file_; }
  /// Bytes held now: the current row group's chunks as read, decoded dictionaries and pages.
  uint64_t buffered_bytes() const;

 private:
  void StartRowGroup(int row_group);
  void FinishRowGroup();
  /// Chooses the rows of the next batch (pieces_); 0 at the end.
  idx_t NextPieces();
  /// Reads the pieces' rows of output column `column` into `out`.
  void ReadPieces(size_t column, Vector& out);
  /// For a column with an offset index and partial row ranges: reads the dictionary page and
  /// the pages overlapping the ranges; nullptr when the whole chunk must be read.
  std::unique_ptr<ColumnChunkReader> StartSparseChunk(int row_group, int column);
  /// The dictionary adopted for `column` of `row_group`, or null.
  const DecodedDictionary* AdoptedDictionary(int row_group, int column) const;

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
  // The current batch: out[offset, offset + count) holds rows [row, row + count).
  struct Piece {
    idx_t offset;
    int64_t row;
    idx_t count;
  };
  std::vector<Piece> pieces_;
  int adopted_row_group_ = -1;
  std::vector<std::shared_ptr<const DecodedDictionary>> adopted_;  // of adopted_row_group_
  std::vector<std::unique_ptr<DictionaryCodes>> codes_;  // by output column; null: not recorded
  // Past this many runs of kept rows, FinishSelected decodes whole pieces and drops rows.
  static constexpr size_t kMaxLateRuns = 64;
  ScanCounters counters_;
  uint64_t chunk_bytes_ = 0;  // of the current row group's chunk buffers
  bool pad_chunks_ = false;
};

/// True for files from writers known to under-report column chunk sizes.
bool NeedsChunkPadding(const ParquetFile& file);

}  // namespace shears::parquet

#pragma once
// Reads chosen columns of a dataset, file after file: file columns through ParquetReader
// (widened to the dataset's unified types), partition columns filled from the path values,
// columns a file lacks as NULL.

#include <functional>
#include <memory>
#include <vector>

#include "common/vector.h"
#include "storage/dataset.h"
#include "storage/parquet/parquet_reader.h"

namespace shears {

class DatasetReader {
 public:
  /// `columns` are indexes into dataset->columns(), in output order.
  DatasetReader(std::shared_ptr<const Dataset> dataset, std::vector<int> columns);
  ~DatasetReader();

  /// Restricts reading to these files (indexes into dataset->files()). Default: all.
  void SelectFiles(std::vector<size_t> files);
  /// Reads only `row_groups` of file `file_index` (already opened as `file`) next; after
  /// them Next returns false. This is how parallel scans hand out morsels.
  void StartMorsel(size_t file_index, std::shared_ptr<parquet::ParquetFile> file,
                   std::vector<int> row_groups);
  /// Like StartMorsel for one row group, reading only the rows in `ranges` (page pruning; see
  /// ParquetReader::SelectRows).
  void StartMorsel(size_t file_index, std::shared_ptr<parquet::ParquetFile> file,
                   std::shared_ptr<const parquet::RowGroupPageIndex> index,
                   parquet::RowRanges ranges);
  /// After StartMorsel: dictionaries of the morsel's row group `row_group` that pruning checks
  /// decoded, for its reader (ParquetReader::AdoptDictionaries).
  void AdoptDictionaries(
      int row_group, std::vector<std::shared_ptr<const parquet::DecodedDictionary>> dictionaries);
  std::vector<LogicalType> output_types() const;
  std::vector<std::string> output_names() const;

  /// Fills `out` with up to kBatchSize rows; false at the end.
  bool Next(Batch& out);
  /// Decides which rows to keep from some columns of a batch: returns how many, their
  /// positions (ascending) in `sel`. May change the batch.
  using RowSelector = std::function<idx_t(Batch& batch, SelectionVector& sel)>;
  /// Late materialization: reads the next rows of the output columns marked in `first` (and
  /// fills partition and missing columns), lets `select` choose rows, then reads the other
  /// columns for the chosen rows only. `out` holds the chosen rows (maybe none); false at
  /// the end.
  bool NextSelected(Batch& out, const std::vector<bool>& first, const RowSelector& select,
                    SelectionVector& sel);
  /// Records the dictionary codes of the output columns marked in `columns` (see
  /// parquet::DictionaryCodes), for filters evaluated once per dictionary entry.
  void RecordDictionaryCodes(std::vector<bool> columns);
  /// The codes of output column `column` in the batch last read (its rows as read, before any
  /// selection); nullptr when not recorded, not all from one dictionary, or widened.
  const parquet::DictionaryCodes* dictionary_codes(size_t column) const;
  /// Counters summed over the files read so far.
  parquet::ScanCounters counters() const;
  uint64_t files_read() const { return files_read_; }
  /// Bytes the current file's reader holds (ParquetReader::buffered_bytes).
  uint64_t buffered_bytes() const { return reader_ ? reader_->buffered_bytes() : 0; }

 private:
  void OpenFile(size_t file_index, std::shared_ptr<parquet::ParquetFile> file = nullptr);
  /// Moves to the next file with rows left; false at the end.
  bool NextReader(const std::function<bool()>& read);
  /// Fills output columns from file_batch_ (all, or only those marked in `only`; file columns
  /// are shared, not copied, when `share` and moved otherwise) and partition/missing columns.
  void FillOutput(Batch& out, idx_t count, const std::vector<bool>* only, bool share);

  std::shared_ptr<const Dataset> dataset_;
  std::vector<int> columns_;
  std::vector<size_t> files_;
  size_t next_file_ = 0;
  const DatasetFile* current_file_ = nullptr;
  std::unique_ptr<parquet::ParquetReader> reader_;
  // For each output column: position in the file reader's output, or -1 (partition / missing).
  std::vector<int> reader_position_;
  std::vector<bool> record_codes_;   // by output column
  std::vector<bool> widened_;        // by file reader position: the file's type differs
  std::vector<bool> first_in_file_;  // NextSelected's `first`, by file reader position
  Batch file_batch_;
  parquet::ScanCounters finished_counters_;
  uint64_t files_read_ = 0;
};

/// Converts `count` values of `in` to `out`'s type, for the widening a dataset allows
/// (INTEGER -> BIGINT, DECIMAL -> wider DECIMAL, any -> same). Strings are shared, not copied.
void WidenVector(const Vector& in, Vector& out, idx_t count);

}  // namespace shears

#pragma once
// Parsing CSV bytes into the engine's vectors. A file is mapped into memory (a .gz file is
// decompressed into it); a CsvChunkReader turns the rows that start in one byte range into
// batches, converting each projected field straight into its column's vector (strings point
// into the mapping unless they need unescaping). A bad row is an InvalidInputError naming the
// file, line and column, or is skipped and counted with ignore_errors.

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "common/vector.h"
#include "storage/csv/csv_options.h"

namespace shears {

/// The bytes of one CSV file, kept alive by the vectors whose strings point into them.
class CsvFileBuffer {
 public:
  /// Maps `path` (or decompresses it: compression "gzip", or "auto" with a .gz name). IOError
  /// when it cannot be opened, CorruptFileError for a broken gzip stream.
  static std::shared_ptr<const CsvFileBuffer> Open(const std::string& path,
                                                   const std::string& compression);
  ~CsvFileBuffer();
  CsvFileBuffer(const CsvFileBuffer&) = delete;
  CsvFileBuffer& operator=(const CsvFileBuffer&) = delete;
  const char* data() const { return data_; }
  size_t size() const { return size_; }
  const std::string& path() const { return path_; }
  /// The 1-based line `offset` lies on (counted when an error is reported).
  int64_t LineOf(size_t offset) const;

 private:
  CsvFileBuffer() = default;
  std::string path_;
  const char* data_ = nullptr;
  size_t size_ = 0;
  void* mapping_ = nullptr;  // munmap'ed on destruction
  std::string owned_;        // decompressed bytes
};

/// One field of a row: its bytes (quotes stripped, escapes not yet resolved).
struct CsvField {
  const char* ptr = nullptr;
  uint32_t len = 0;
  bool quoted = false;
  bool escaped = false;  // holds escape sequences ("" or \x) to resolve
};

/// What went wrong in a row, for the error message.
struct CsvRowProblem {
  std::string message;
  size_t offset = 0;  // where, in the file
  int column = -1;    // 0-based file column, -1 for the row as a whole
};

/// Splits rows. Stateless besides the dialect: a chunk reader and the sniffer share it.
class CsvTokenizer {
 public:
  CsvTokenizer(const CsvDialect& dialect, int64_t max_line_size);
  /// Splits the row starting at `pos` (< size) into `fields` (at most `max_fields` kept;
  /// `*count` says how many there were) and returns where the next row starts. An empty line
  /// gives one empty field. On a malformed row (unterminated quote, text after a closing
  /// quote, a line longer than max_line_size) fills `problem` and returns 0.
  size_t NextRow(const char* data, size_t size, size_t pos, CsvField* fields, size_t max_fields,
                 size_t* count, CsvRowProblem* problem) const;
  /// The start of the first row at or after `pos` (the byte after a newline), or `size`.
  size_t SkipToLineStart(const char* data, size_t size, size_t pos) const;
  const CsvDialect& dialect() const { return dialect_; }

 private:
  CsvDialect dialect_;
  int64_t max_line_size_;
  bool special_[256] = {};  // delimiter, CR, LF
};

/// Where a projected output column comes from.
struct CsvTarget {
  idx_t out_column = 0;  // the column of the batch it fills
  int file_column = -1;  // -1: NULL (a column the file lacks)
  LogicalType type;
  std::string name;
};

/// Reads the rows starting in [begin, end) of one file.
class CsvChunkReader {
 public:
  CsvChunkReader(const CsvScanInfo& info, std::shared_ptr<const CsvFileBuffer> buffer,
                 size_t file_columns, std::vector<CsvTarget> targets, size_t begin, size_t end,
                 std::atomic<uint64_t>* rows_rejected);
  /// Fills the targets' columns of `out` with up to kBatchSize rows (sets its size); false when
  /// the chunk has no rows left.
  bool Read(Batch& out);
  /// Where the first row of the chunk started and where the row after its last one starts
  /// (valid once Read returned false), for checking that chunks met at a row boundary.
  size_t first_row() const { return first_row_; }
  size_t stop() const { return pos_; }

 private:
  /// Converts field `f` into row `row` of `v`; false (and `problem`) when it does not fit.
  bool Convert(const CsvField& f, Vector& v, idx_t row, const CsvTarget& target,
               std::string* problem);
  [[noreturn]] void Fail(const CsvRowProblem& problem) const;
  /// One batch of Read: the rows kept (0 when all were bad or none was left).
  idx_t ReadBatch(Batch& out);
  /// Converts column `target` of the batch's split rows, through Fast when allowed.
  template <typename Fast>
  void ConvertColumn(const CsvTarget& target, Vector& v, idx_t rows, bool fast_allowed);
  /// Marks `row` bad; without ignore_errors remembers the first bad field to report.
  void Reject(idx_t row, const CsvTarget& target);

  const CsvScanInfo& info_;
  std::shared_ptr<const CsvFileBuffer> buffer_;
  CsvTokenizer tokenizer_;
  size_t file_columns_;
  std::vector<CsvTarget> targets_;
  size_t pos_;
  size_t end_;
  size_t first_row_;
  std::atomic<uint64_t>* rows_rejected_;
  std::vector<CsvField> fields_;
  std::string scratch_;
  // The batch's rows split into fields (row-major), where each started, which are bad.
  std::vector<CsvField> matrix_;
  std::vector<size_t> row_starts_;
  std::vector<uint8_t> rejected_;
  bool any_rejected_ = false;
  int64_t pending_row_ = -1;
  CsvRowProblem pending_;
  std::string message_;
  std::vector<uint32_t> sel_ = std::vector<uint32_t>(kBatchSize);
};

/// Field parsers shared by the reader and the sniffer (blanks around the value allowed).
std::string_view TrimBlanks(std::string_view s);
bool ParseCsvInt64(std::string_view s, int64_t* out);
bool ParseCsvDouble(std::string_view s, double* out);
bool ParseCsvBool(std::string_view s, bool* out);
/// `scale` fraction digits (more are rounded half away from zero); false when malformed or
/// wider than `precision` digits.
bool ParseCsvDecimal(std::string_view s, int precision, int scale, int128_t* out);

/// Resolves the escapes of a field ("" -> ", \x -> x) into `out`.
void UnescapeCsvField(const CsvField& f, const CsvDialect& dialect, std::string* out);

/// Names column `i` of `count` as DuckDB does for files without a header: column0 ... (zero
/// padded to the width of the last index).
std::string DefaultCsvColumnName(size_t i, size_t count);

}  // namespace shears

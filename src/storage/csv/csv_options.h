#pragma once
// What read_csv and COPY ... FROM are told (CsvOptions, DuckDB's option names), what the
// sniffer decides from them and the file (CsvDialect), and what a scan of a CSV dataset needs
// (CsvScanInfo, hung on the Dataset). See docs/reading.md, "CSV".

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/types.h"
#include "common/value.h"

namespace shears {

/// A date or timestamp layout read_csv understands: the strptime specifiers %Y %m %d (and
/// %H %M %S %f for timestamps) with any separators, e.g. "%d/%m/%Y", "%Y-%m-%d %H:%M:%S".
struct CsvDateFormat {
  std::string text;  // as given or as the sniffer names it ("%m/%d/%Y"); empty: ISO 8601
  /// Parses `field` into days (dates) or microseconds (timestamps); false when it does not fit.
  bool ParseDate(std::string_view field, int32_t* days) const;
  bool ParseTimestamp(std::string_view field, int64_t* micros) const;
  /// Throws InvalidInputError for a specifier other than the ones above.
  static CsvDateFormat Make(std::string text);
  bool iso() const { return text.empty(); }
};

struct CsvOptions {
  std::optional<char> delimiter;  // delim / sep / delimiter
  std::optional<char> quote;
  std::optional<char> escape;  // default: the quote character (RFC 4180's "")
  std::optional<bool> header;
  bool auto_detect = true;
  bool ignore_errors = false;
  bool all_varchar = false;
  bool parallel = true;
  std::string null_string;  // nullstr: unquoted fields equal to it are NULL ("" always is)
  int64_t skip = 0;         // lines skipped before the header / first row
  int64_t sample_size = 20480;
  int64_t max_line_size = 2 << 20;
  /// names: column names by position (the rest keep the header's or columnN).
  std::vector<std::string> names;
  /// columns: names and types of every column; no type detection.
  std::vector<std::pair<std::string, LogicalType>> columns;
  /// types: by position, or by name (types_by_name).
  std::vector<LogicalType> types;
  std::vector<std::pair<std::string, LogicalType>> types_by_name;
  std::optional<CsvDateFormat> date_format;
  std::optional<CsvDateFormat> timestamp_format;
  std::string compression = "auto";  // auto (by extension), gzip, none
  std::optional<bool> hive_partitioning;
  bool union_by_name = false;
  bool filename = false;  // adds a column `filename` with the file each row came from

  /// Applies one named option (DuckDB's names; case-insensitive); throws BinderError for an
  /// unknown name or InvalidInputError for a value that does not fit. `what` names the caller
  /// in errors ("read_csv", "COPY").
  /// `resolve_type` turns a type name ("DECIMAL(10,2)") into a type (the binder's rules).
  using TypeResolver = LogicalType (*)(const std::string& text);
  void Set(const std::string& name, const Value& value, const char* what,
           TypeResolver resolve_type);
};

/// How the files are laid out, decided by the sniffer (or given).
struct CsvDialect {
  char delimiter = ',';
  char quote = '"';
  char escape = '"';
  bool header = false;
};

/// Everything a CSV scan needs; shared by every scan of the dataset.
struct CsvScanInfo {
  CsvOptions options;
  CsvDialect dialect;
  /// File columns in file order (names and types), before the partition columns.
  std::vector<std::string> names;
  std::vector<LogicalType> types;
  CsvDateFormat date_format;
  CsvDateFormat timestamp_format;
  /// For union_by_name: per file, each dataset file column's index in that file (-1: NULL);
  /// empty when every file has the dataset's columns in order.
  std::vector<std::vector<int>> column_maps;
  /// Per file: its number of columns (the rows of each file must have that many fields).
  std::vector<size_t> file_columns;
  bool has_filename_column = false;  // the last file column is `filename`
  /// The sniffer saw quoted fields with line breaks: files are not split into byte ranges.
  bool quoted_newlines = false;
};

}  // namespace shears

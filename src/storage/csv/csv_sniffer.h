#pragma once
// The CSV sniffer, after DuckDB's: from samples of the file (its start and a few places further
// in) it picks the delimiter (, | ; tab) and quote that split the rows most consistently, tells
// whether the first row is a header (it does not fit the types the other rows have), and gives
// each column the narrowest type all its sampled values fit: BOOLEAN, BIGINT, DOUBLE, DATE,
// TIMESTAMP (with common date formats), else VARCHAR. What the options give is not sniffed.

#include <string>
#include <vector>

#include "storage/csv/csv_options.h"
#include "storage/csv/csv_reader.h"

namespace shears {

struct CsvSniffResult {
  CsvDialect dialect;
  std::vector<std::string> names;
  std::vector<LogicalType> types;
  CsvDateFormat date_format;
  CsvDateFormat timestamp_format;
  double bytes_per_row = 64;  // for row estimates of the dataset's files
  bool empty = false;         // no row at all (and no header)
  /// A sampled quoted field holds a line break: byte ranges of the file could start inside
  /// one, so the scan reads such files whole (one thread per file).
  bool quoted_newlines = false;
};

/// Throws InvalidInputError when the options contradict the file (a given column count that
/// the rows do not have) or when nothing can be read from it.
CsvSniffResult SniffCsv(const CsvFileBuffer& buffer, const CsvOptions& options);

}  // namespace shears

#include "storage/csv/csv_sniffer.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

#include "common/error.h"
#include "common/string_util.h"

namespace shears {

namespace {

constexpr size_t kFirstSampleBytes = 1 << 20;   // rows sniffed at the start of the file
constexpr size_t kOtherSampleBytes = 64 << 10;  // at each of the other places
constexpr int kOtherSamples = 4;
constexpr size_t kDialectRows = 64;  // rows compared for the delimiter and quote

const char* const kDateFormats[] = {"%Y-%m-%d", "%m/%d/%Y", "%d/%m/%Y", "%Y/%m/%d",
                                    "%m-%d-%Y", "%d-%m-%Y", "%d.%m.%Y", "%Y.%m.%d"};
const char* const kTimestampFormats[] = {
    "%Y-%m-%d %H:%M:%S",    "%m/%d/%Y %H:%M:%S",   "%d/%m/%Y %H:%M:%S", "%Y/%m/%d %H:%M:%S",
    "%m/%d/%Y %H:%M",       "%d/%m/%Y %H:%M",      "%d.%m.%Y %H:%M:%S", "%Y-%m-%d %H:%M",
    "%m/%d/%Y %H:%M:%S.%f", "%d/%m/%Y %H:%M:%S.%f"};
constexpr size_t kNumDateFormats = sizeof(kDateFormats) / sizeof(kDateFormats[0]);
constexpr size_t kNumTimestampFormats = sizeof(kTimestampFormats) / sizeof(kTimestampFormats[0]);

using Row = std::vector<std::string>;

/// Splits up to `max_rows` rows of [pos, end) (rows starting there); stops at a malformed row.
/// `error` tells whether one was met.
std::vector<Row> SampleRows(const CsvTokenizer& tokenizer, const CsvFileBuffer& buffer, size_t pos,
                            size_t end, size_t max_rows, bool* error, size_t* stopped,
                            bool* quoted_newlines = nullptr) {
  std::vector<Row> rows;
  std::vector<CsvField> fields(4096);
  std::string text;
  *error = false;
  while (pos < end && pos < buffer.size() && rows.size() < max_rows) {
    size_t count = 0;
    CsvRowProblem problem;
    const size_t next = tokenizer.NextRow(buffer.data(), buffer.size(), pos, fields.data(),
                                          fields.size(), &count, &problem);
    if (next == 0) {
      *error = true;
      break;
    }
    pos = next;
    if (count == 1 && fields[0].len == 0 && !fields[0].quoted) continue;  // empty line
    Row row;
    for (size_t i = 0; i < std::min(count, fields.size()); i++) {
      if (quoted_newlines && fields[i].quoted &&
          (std::memchr(fields[i].ptr, '\n', fields[i].len) ||
           std::memchr(fields[i].ptr, '\r', fields[i].len))) {
        *quoted_newlines = true;
      }
      if (fields[i].escaped) {
        UnescapeCsvField(fields[i], tokenizer.dialect(), &text);
        row.push_back(text);
      } else {
        row.emplace_back(fields[i].ptr, fields[i].len);
      }
    }
    rows.push_back(std::move(row));
  }
  *stopped = pos;
  return rows;
}

/// What a column's sampled values still fit.
struct ColumnGuess {
  bool any = false;  // a non-NULL value was seen
  bool boolean = true, bigint = true, dbl = true;
  uint32_t dates = (1u << kNumDateFormats) - 1;
  uint32_t timestamps = (1u << (kNumTimestampFormats + 1)) - 1;  // bit 0: ISO

  void Add(const std::string& value, const std::string& null_string) {
    if (value.empty() || (!null_string.empty() && value == null_string)) return;
    any = true;
    bool b;
    int64_t i;
    double d;
    if (boolean && !ParseCsvBool(value, &b)) boolean = false;
    // "1"/"0" fit BOOLEAN too, but a column of them is numbers (DuckDB: BIGINT).
    if (boolean && (value == "1" || value == "0")) boolean = false;
    if (bigint && !ParseCsvInt64(value, &i)) bigint = false;
    if (dbl && !ParseCsvDouble(value, &d)) dbl = false;
    const std::string_view v = TrimBlanks(value);
    for (size_t f = 0; f < kNumDateFormats && dates; f++) {
      int32_t days;
      if ((dates >> f & 1) && !CsvDateFormat::Make(kDateFormats[f]).ParseDate(v, &days)) {
        dates &= ~(1u << f);
      }
    }
    int64_t micros;
    if ((timestamps & 1) && !ParseTimestamp(v, &micros)) timestamps &= ~1u;
    for (size_t f = 0; f < kNumTimestampFormats && timestamps; f++) {
      if ((timestamps >> (f + 1) & 1) &&
          !CsvDateFormat::Make(kTimestampFormats[f]).ParseTimestamp(v, &micros)) {
        timestamps &= ~(1u << (f + 1));
      }
    }
  }
};

bool FitsType(const std::string& value, const LogicalType& type, const CsvDateFormat& date,
              const CsvDateFormat& timestamp) {
  if (value.empty()) return true;
  bool b;
  int64_t i;
  double d;
  int32_t days;
  int64_t micros;
  switch (type.id()) {
    case TypeId::kBoolean:
      return ParseCsvBool(value, &b);
    case TypeId::kBigint:
    case TypeId::kInteger:
      return ParseCsvInt64(value, &i);
    case TypeId::kDouble:
    case TypeId::kDecimal:
      return ParseCsvDouble(value, &d);
    case TypeId::kDate:
      return date.ParseDate(TrimBlanks(value), &days);
    case TypeId::kTimestamp:
      return timestamp.ParseTimestamp(TrimBlanks(value), &micros) ||
             date.ParseDate(TrimBlanks(value), &days);
    default:
      return true;
  }
}

}  // namespace

CsvSniffResult SniffCsv(const CsvFileBuffer& buffer, const CsvOptions& options) {
  CsvSniffResult result;
  const char* data = buffer.data();
  const size_t size = buffer.size();
  // Skipped lines are not sniffed.
  size_t start = 0;
  {
    CsvTokenizer plain(CsvDialect{}, options.max_line_size);
    for (int64_t i = 0; i < options.skip && start < size; i++)
      start = plain.SkipToLineStart(data, size, start + 1);
  }
  const size_t first_end = std::min(size, start + kFirstSampleBytes);

  // Dialect: the candidate whose rows agree most on their field count (ties: more columns,
  // then the earlier candidate).
  std::vector<char> delimiters = options.delimiter ? std::vector<char>{*options.delimiter}
                                                   : std::vector<char>{',', '|', ';', '\t'};
  // A single quote is a candidate only where one occurs: else it would read a file whose
  // double quotes are malformed as if it had no quoting, hiding the error. (An empty file has
  // no data pointer, which memchr must not get even for 0 bytes.)
  std::vector<char> quotes{'"'};
  if (options.quote) {
    quotes = {*options.quote};
  } else if (first_end > start && std::memchr(data + start, '\'', first_end - start)) {
    quotes.push_back('\'');
  }
  bool found = false;
  size_t best_rows = 0, best_columns = 0;
  for (char quote : quotes) {
    for (char delimiter : delimiters) {
      CsvDialect dialect;
      dialect.delimiter = delimiter;
      dialect.quote = quote;
      dialect.escape = options.escape ? *options.escape : quote;
      CsvTokenizer tokenizer(dialect, options.max_line_size);
      bool error;
      size_t stopped;
      auto rows = SampleRows(tokenizer, buffer, start, first_end, kDialectRows, &error, &stopped);
      if (error && rows.empty()) continue;
      std::map<size_t, size_t> by_count;
      for (const auto& row : rows)
        by_count[row.size()]++;
      // The field count of the first row that most rows share (a header row counts too).
      size_t columns = 0, consistent = 0;
      for (const auto& [count, n] : by_count) {
        if (n > consistent || (n == consistent && count > columns)) {
          columns = count;
          consistent = n;
        }
      }
      if (error) consistent /= 2;  // a malformed row speaks against the candidate
      const bool better =
          !found || (columns > 1 && best_columns <= 1) ||
          ((columns > 1) == (best_columns > 1) &&
           (consistent > best_rows || (consistent == best_rows && columns > best_columns)));
      if (better) {
        found = true;
        best_rows = consistent;
        best_columns = columns;
        result.dialect = dialect;
      }
    }
  }
  if (!found) {
    // Not one row splits: the first candidate, so that reading reports the row.
    result.dialect.delimiter = delimiters.front();
    result.dialect.quote = quotes.front();
    result.dialect.escape = options.escape ? *options.escape : quotes.front();
  }
  CsvTokenizer tokenizer(result.dialect, options.max_line_size);

  // Sample rows: the start, then a few places further in (from a line start; a place that
  // does not split cleanly is left out).
  bool error;
  size_t stopped;
  const size_t first_rows_limit =
      static_cast<size_t>(std::min<int64_t>(options.sample_size, 1 << 20));
  std::vector<Row> rows = SampleRows(tokenizer, buffer, start, first_end, first_rows_limit, &error,
                                     &stopped, &result.quoted_newlines);
  if (rows.empty()) {
    if (error) {
      // Let the reader report what is wrong where.
      std::vector<CsvField> fields(4096);
      size_t count;
      CsvRowProblem problem;
      tokenizer.NextRow(data, size, start, fields.data(), fields.size(), &count, &problem);
      throw InvalidInputError("CSV file '{}', line {}: {}", buffer.path(),
                              buffer.LineOf(problem.offset), problem.message);
    }
    result.empty = true;
  }
  const size_t first_sample_rows = rows.size();
  if (!rows.empty() && stopped > start) {
    result.bytes_per_row = static_cast<double>(stopped - start) / static_cast<double>(rows.size());
  }
  if (stopped < size && first_rows_limit > first_sample_rows / 2) {
    for (int s = 1; s <= kOtherSamples; s++) {
      const size_t at = start + (size - start) / (kOtherSamples + 1) * static_cast<size_t>(s);
      if (at < stopped) continue;
      size_t pos = tokenizer.SkipToLineStart(data, size, at);
      auto more = SampleRows(tokenizer, buffer, pos, std::min(size, pos + kOtherSampleBytes),
                             first_rows_limit, &error, &stopped, &result.quoted_newlines);
      if (!more.empty() && stopped < size && !error) more.pop_back();  // may be cut short
      if (error) continue;
      for (auto& row : more)
        rows.push_back(std::move(row));
    }
  }

  // Column count: the given columns', else the most common row width.
  size_t columns = 0;
  if (!options.columns.empty()) {
    columns = options.columns.size();
  } else {
    std::map<size_t, size_t> by_count;
    for (const auto& row : rows)
      by_count[row.size()]++;
    size_t most = 0;
    for (const auto& [count, n] : by_count) {
      if (n > most) {
        most = n;
        columns = count;
      }
    }
  }
  // Types of every column from the rows after the first (the first may be a header).
  std::vector<ColumnGuess> guesses(columns), with_first(columns);
  for (size_t r = 0; r < rows.size(); r++) {
    if (rows[r].size() != columns) continue;
    for (size_t c = 0; c < columns; c++) {
      if (r > 0) guesses[c].Add(rows[r][c], options.null_string);
      with_first[c].Add(rows[r][c], options.null_string);
    }
  }
  auto decide = [&](std::vector<ColumnGuess>& g, std::vector<LogicalType>* types,
                    CsvDateFormat* date, CsvDateFormat* timestamp) {
    uint32_t dates = (1u << kNumDateFormats) - 1;
    uint32_t stamps = (1u << (kNumTimestampFormats + 1)) - 1;
    for (const auto& guess : g) {
      if (!guess.any || guess.boolean || guess.bigint || guess.dbl) continue;
      if (guess.dates)
        dates &= guess.dates;
      else if (guess.timestamps)
        stamps &= guess.timestamps;
    }
    const int date_format = dates ? __builtin_ctz(dates) : -1;
    const int stamp_format = stamps ? __builtin_ctz(stamps) : -1;
    *date = date_format > 0 ? CsvDateFormat::Make(kDateFormats[date_format]) : CsvDateFormat();
    *timestamp = stamp_format > 0 ? CsvDateFormat::Make(kTimestampFormats[stamp_format - 1])
                                  : CsvDateFormat();
    types->clear();
    for (const auto& guess : g) {
      LogicalType type = LogicalType::Varchar();
      if (!guess.any) {
        type = LogicalType::Varchar();
      } else if (guess.boolean) {
        type = LogicalType::Boolean();
      } else if (guess.bigint) {
        type = LogicalType::Bigint();
      } else if (guess.dbl) {
        type = LogicalType::Double();
      } else if (date_format >= 0 && (guess.dates >> date_format & 1)) {
        type = LogicalType::Date();
      } else if (stamp_format >= 0 && (guess.timestamps >> stamp_format & 1)) {
        type = LogicalType::Timestamp();
      }
      types->push_back(type);
    }
  };
  std::vector<LogicalType> types;
  decide(guesses, &types, &result.date_format, &result.timestamp_format);
  if (options.date_format) result.date_format = *options.date_format;
  if (options.timestamp_format) result.timestamp_format = *options.timestamp_format;

  // Header: given, or the first row does not fit the types of the others (or every column is
  // text and the first row holds distinct non-empty names, as DuckDB assumes).
  const Row* first = rows.empty() ? nullptr : &rows.front();
  if (options.header) {
    result.dialect.header = *options.header;
  } else if (!first || first->size() != columns || rows.size() == 1) {
    bool names_like = first && first->size() == columns;
    for (size_t c = 0; names_like && c < columns; c++) {
      ColumnGuess g;
      g.Add((*first)[c], options.null_string);
      names_like = g.any && !g.boolean && !g.bigint && !g.dbl && !g.dates && !g.timestamps;
    }
    result.dialect.header = names_like && options.auto_detect;
  } else if (options.auto_detect) {
    bool mismatch = false, all_text = true;
    std::set<std::string> distinct;
    bool names_ok = true;
    for (size_t c = 0; c < columns; c++) {
      const LogicalType& type = options.columns.empty() ? types[c] : options.columns[c].second;
      if (type.id() != TypeId::kVarchar) all_text = false;
      if (!(*first)[c].empty() && type.id() != TypeId::kVarchar &&
          !FitsType((*first)[c], type, result.date_format, result.timestamp_format)) {
        mismatch = true;
      }
      if ((*first)[c].empty() || !distinct.insert((*first)[c]).second) names_ok = false;
    }
    result.dialect.header = mismatch || (all_text && names_ok);
  }
  if (!result.dialect.header) {
    // The first row is data: its values count for the types.
    decide(with_first, &types, &result.date_format, &result.timestamp_format);
    if (options.date_format) result.date_format = *options.date_format;
    if (options.timestamp_format) result.timestamp_format = *options.timestamp_format;
  } else if (rows.size() == first_sample_rows && rows.size() <= 1) {
    result.empty = true;  // a header and no rows
  }

  // Names: the header's (deduplicated, empty ones numbered), else column0, column1, ...
  std::set<std::string> used;
  for (size_t c = 0; c < columns; c++) {
    std::string name;
    if (!options.columns.empty()) {
      name = options.columns[c].first;
    } else if (result.dialect.header && first && c < first->size()) {
      name = std::string(TrimBlanks((*first)[c]));
    }
    if (c < options.names.size()) name = options.names[c];
    if (name.empty()) name = DefaultCsvColumnName(c, columns);
    std::string unique = name;
    for (int k = 1; used.count(AsciiLower(unique)); k++)
      unique = name + "_" + std::to_string(k);
    used.insert(AsciiLower(unique));
    result.names.push_back(unique);
  }
  if (!options.columns.empty()) {
    for (const auto& [name, type] : options.columns)
      result.types.push_back(type);
  } else {
    result.types = options.all_varchar || !options.auto_detect
                       ? std::vector<LogicalType>(columns, LogicalType::Varchar())
                       : types;
    if (!options.types.empty()) {
      if (options.types.size() > columns) {
        throw InvalidInputError("read_csv: {} types are given but '{}' has {} columns",
                                options.types.size(), buffer.path(), columns);
      }
      for (size_t c = 0; c < options.types.size(); c++)
        result.types[c] = options.types[c];
    }
    for (const auto& [name, type] : options.types_by_name) {
      bool matched = false;
      for (size_t c = 0; c < columns; c++) {
        if (AsciiLower(result.names[c]) == AsciiLower(name)) {
          result.types[c] = type;
          matched = true;
        }
      }
      if (!matched) {
        throw InvalidInputError("read_csv: types names the column '{}', which '{}' does not have",
                                name, buffer.path());
      }
    }
  }
  return result;
}

}  // namespace shears

#include "storage/csv/csv_options.h"

#include "common/error.h"
#include "common/string_util.h"
#include "function/function.h"
#include "storage/csv/csv_reader.h"

namespace shears {

namespace {

/// Reads 1..max_digits digits at `pos`.
bool ReadNumber(std::string_view s, size_t* pos, int max_digits, int64_t* out) {
  int64_t v = 0;
  int digits = 0;
  while (*pos < s.size() && digits < max_digits && s[*pos] >= '0' && s[*pos] <= '9') {
    v = v * 10 + (s[*pos] - '0');
    ++*pos;
    digits++;
  }
  *out = v;
  return digits > 0;
}

/// Walks `format` over `field`, filling the parts it names; false when the field does not fit.
bool ParseWithFormat(const std::string& format, std::string_view field, int64_t parts[7]) {
  // parts: year, month, day, hour, minute, second, microsecond
  size_t pos = 0;
  for (size_t i = 0; i < format.size(); i++) {
    if (format[i] != '%' || i + 1 == format.size()) {
      if (pos >= field.size() || field[pos] != format[i]) return false;
      pos++;
      continue;
    }
    const char spec = format[++i];
    int64_t v = 0;
    switch (spec) {
      case 'Y':
        if (!ReadNumber(field, &pos, 4, &v)) return false;
        parts[0] = v;
        break;
      case 'm':
        if (!ReadNumber(field, &pos, 2, &v)) return false;
        parts[1] = v;
        break;
      case 'd':
        if (!ReadNumber(field, &pos, 2, &v)) return false;
        parts[2] = v;
        break;
      case 'H':
        if (!ReadNumber(field, &pos, 2, &v)) return false;
        parts[3] = v;
        break;
      case 'M':
        if (!ReadNumber(field, &pos, 2, &v)) return false;
        parts[4] = v;
        break;
      case 'S':
        if (!ReadNumber(field, &pos, 2, &v)) return false;
        parts[5] = v;
        break;
      case 'f': {
        const size_t start = pos;
        if (!ReadNumber(field, &pos, 6, &v)) return false;
        for (size_t d = pos - start; d < 6; d++)
          v *= 10;
        while (pos < field.size() && field[pos] >= '0' && field[pos] <= '9')
          pos++;  // digits past microseconds are dropped
        parts[6] = v;
        break;
      }
      case '%':
        if (pos >= field.size() || field[pos] != '%') return false;
        pos++;
        break;
      default:
        return false;
    }
  }
  return pos == field.size();
}

bool ValidDate(int64_t y, int64_t m, int64_t d) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (m < 1 || m > 12 || d < 1) return false;
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return d <= kDays[m - 1] + (m == 2 && leap ? 1 : 0);
}

char OptionChar(const Value& value, const std::string& name, const char* what) {
  const std::string text = value.is_null() ? std::string() : value.ToString();
  if (text == "\\t") return '\t';
  if (text.size() != 1) {
    throw InvalidInputError("{} option {} takes a single character, not '{}'", what, name, text);
  }
  return text[0];
}

bool OptionBool(const Value& value, const std::string& name, const char* what) {
  if (value.type().id() == TypeId::kBoolean) return value.GetBoolean();
  const std::string text = AsciiLower(value.ToString());
  if (text == "true" || text == "1" || text == "on") return true;
  if (text == "false" || text == "0" || text == "off") return false;
  throw InvalidInputError("{} option {} takes true or false, not '{}'", what, name,
                          value.ToString());
}

int64_t OptionInt(const Value& value, const std::string& name, const char* what) {
  try {
    return CastValue(value, LogicalType::Bigint()).GetInt64();
  } catch (const Error&) {
    throw InvalidInputError("{} option {} takes a number, not '{}'", what, name, value.ToString());
  }
}

/// Splits "a, b, c" at commas outside parentheses (DECIMAL(10,2) stays whole), trimmed.
std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> out;
  std::string current;
  int depth = 0;
  for (char c : text) {
    if (c == '(') depth++;
    if (c == ')') depth--;
    if (c == ',' && depth == 0) {
      out.push_back(std::string(TrimBlanks(current)));
      current.clear();
    } else {
      current += c;
    }
  }
  if (!TrimBlanks(current).empty() || !out.empty()) out.push_back(std::string(TrimBlanks(current)));
  return out;
}

}  // namespace

CsvDateFormat CsvDateFormat::Make(std::string text) {
  for (size_t i = 0; i < text.size(); i++) {
    if (text[i] != '%') continue;
    if (i + 1 == text.size() ||
        std::string_view("YmdHMSf%").find(text[i + 1]) == std::string::npos) {
      throw InvalidInputError(
          "date format '{}': only %Y, %m, %d, %H, %M, %S, %f and %% are supported", text);
    }
    i++;
  }
  CsvDateFormat format;
  if (text != "%Y-%m-%d" && text != "ISO" && text != "iso") format.text = std::move(text);
  return format;
}

bool CsvDateFormat::ParseDate(std::string_view field, int32_t* days) const {
  if (text.empty()) return shears::ParseDate(field, days);
  int64_t parts[7] = {-1, -1, -1, 0, 0, 0, 0};
  if (!ParseWithFormat(text, field, parts) || parts[0] < 0 || parts[1] < 0 || parts[2] < 0 ||
      !ValidDate(parts[0], parts[1], parts[2])) {
    return false;
  }
  *days = DaysFromCivil(parts[0], static_cast<unsigned>(parts[1]), static_cast<unsigned>(parts[2]));
  return true;
}

bool CsvDateFormat::ParseTimestamp(std::string_view field, int64_t* micros) const {
  if (text.empty()) return shears::ParseTimestamp(field, micros);
  int64_t parts[7] = {-1, -1, -1, 0, 0, 0, 0};
  if (!ParseWithFormat(text, field, parts) || parts[0] < 0 || parts[1] < 0 || parts[2] < 0 ||
      !ValidDate(parts[0], parts[1], parts[2]) || parts[3] > 23 || parts[4] > 59 || parts[5] > 59) {
    return false;
  }
  const int64_t days =
      DaysFromCivil(parts[0], static_cast<unsigned>(parts[1]), static_cast<unsigned>(parts[2]));
  *micros = ((days * 24 + parts[3]) * 60 + parts[4]) * 60 * 1000000 + parts[5] * 1000000 + parts[6];
  return true;
}

void CsvOptions::Set(const std::string& option, const Value& value, const char* what,
                     TypeResolver resolve_type) {
  const std::string name = AsciiLower(option);
  if (value.is_null()) throw InvalidInputError("{} option {} must not be NULL", what, option);
  auto text = [&] { return value.ToString(); };
  if (name == "delim" || name == "delimiter" || name == "sep" || name == "separator") {
    delimiter = OptionChar(value, option, what);
  } else if (name == "quote") {
    quote = text().empty() ? '\0' : OptionChar(value, option, what);
  } else if (name == "escape") {
    escape = text().empty() ? '\0' : OptionChar(value, option, what);
  } else if (name == "header") {
    header = OptionBool(value, option, what);
  } else if (name == "auto_detect") {
    auto_detect = OptionBool(value, option, what);
  } else if (name == "ignore_errors") {
    ignore_errors = OptionBool(value, option, what);
  } else if (name == "all_varchar") {
    all_varchar = OptionBool(value, option, what);
  } else if (name == "parallel") {
    parallel = OptionBool(value, option, what);
  } else if (name == "nullstr" || name == "null") {
    null_string = text();
  } else if (name == "skip") {
    skip = OptionInt(value, option, what);
    if (skip < 0) throw InvalidInputError("{} option skip must be >= 0", what);
  } else if (name == "sample_size") {
    sample_size = OptionInt(value, option, what);
    if (sample_size == -1) sample_size = INT64_MAX;  // DuckDB: -1 samples the whole file
    if (sample_size < 1) throw InvalidInputError("{} option sample_size must be >= 1", what);
  } else if (name == "max_line_size" || name == "maximum_line_size") {
    max_line_size = OptionInt(value, option, what);
    if (max_line_size < 1) throw InvalidInputError("{} option max_line_size must be >= 1", what);
  } else if (name == "names" || name == "column_names") {
    names = SplitList(text());
  } else if (name == "types" || name == "column_types" || name == "dtypes") {
    // 'INTEGER, VARCHAR' by position, or 'a INTEGER, b VARCHAR' by name.
    types.clear();
    types_by_name.clear();
    for (const auto& item : SplitList(text())) {
      const size_t space = item.find(' ');
      if (space != std::string::npos && item.find('(') > space) {
        types_by_name.emplace_back(std::string(TrimBlanks(item.substr(0, space))),
                                   resolve_type(std::string(TrimBlanks(item.substr(space + 1)))));
      } else {
        types.push_back(resolve_type(item));
      }
    }
    if (!types.empty() && !types_by_name.empty()) {
      throw InvalidInputError("{} option types: give every column a name, or none", what);
    }
  } else if (name == "columns") {
    columns.clear();
    for (const auto& item : SplitList(text())) {
      const size_t space = item.find(' ');
      if (space == std::string::npos) {
        throw InvalidInputError("{} option columns takes 'name TYPE, name TYPE, ...', not '{}'",
                                what, item);
      }
      columns.emplace_back(std::string(TrimBlanks(item.substr(0, space))),
                           resolve_type(std::string(TrimBlanks(item.substr(space + 1)))));
    }
    if (columns.empty()) throw InvalidInputError("{} option columns names no column", what);
  } else if (name == "dateformat" || name == "date_format") {
    date_format = CsvDateFormat::Make(text());
  } else if (name == "timestampformat" || name == "timestamp_format") {
    timestamp_format = CsvDateFormat::Make(text());
  } else if (name == "compression") {
    compression = AsciiLower(text());
    if (compression == "gz") compression = "gzip";
    if (compression == "uncompressed") compression = "none";
    if (compression != "auto" && compression != "gzip" && compression != "none") {
      throw InvalidInputError("{} option compression takes auto, gzip or none, not '{}'", what,
                              text());
    }
  } else if (name == "hive_partitioning") {
    hive_partitioning = OptionBool(value, option, what);
  } else if (name == "union_by_name") {
    union_by_name = OptionBool(value, option, what);
  } else if (name == "filename") {
    filename = OptionBool(value, option, what);
  } else if (name == "new_line" || name == "newline") {
    const std::string t = text();
    if (t != "\\n" && t != "\\r\\n" && t != "\n" && t != "\r\n") {
      throw InvalidInputError("{} option new_line takes '\\n' or '\\r\\n'", what);
    }  // both are always accepted
  } else {
    throw BinderError(
        "unknown {} option '{}' (known: delim, quote, escape, header, auto_detect, columns, "
        "types, names, nullstr, skip, sample_size, ignore_errors, all_varchar, dateformat, "
        "timestampformat, max_line_size, compression, parallel, hive_partitioning, "
        "union_by_name, filename, new_line)",
        what, option);
  }
}

}  // namespace shears

// strftime(x, format) and strptime / try_strptime(text, format): C's specifiers without locale,
// as DuckDB.

#include <cctype>
#include <optional>
#include <string>
#include <string_view>

#include "function/date_internal.h"

namespace shears {
namespace function_internal {

namespace {

using Args = std::vector<const Vector*>;

/// strftime(x, format): C's specifiers without locale (English names), as DuckDB: %a %A %w %u
/// %d %-d %j %-j %b %h %B %m %-m %y %-y %Y %G %V %U %W %H %-H %I %-I %p %M %-M %S %-S %f
/// (microseconds) %g (milliseconds) %n (nanoseconds) %c %x %X %T %z (+00) %Z (empty) %%.
void FormatTimestampAs(int64_t micros, std::string_view format, std::string* out) {
  if (!IsFiniteTimestamp(micros)) {
    *out += FormatTimestamp(micros);  // DuckDB: infinity / -infinity, whatever the format
    return;
  }
  int64_t days, time;
  SplitTimestamp(micros, &days, &time);
  const Civil c = ToCivil(days);
  const int64_t hour = time / (3600 * kMicrosPerSecond);
  const int64_t minute = time / (60 * kMicrosPerSecond) % 60;
  const int64_t second = time / kMicrosPerSecond % 60;
  const int64_t fraction = time % kMicrosPerSecond;
  const int64_t dow = DayOfWeek(days);
  const int64_t doy = days - DaysFromCivil(c.year, 1, 1);  // 0-based
  auto number = [out](int64_t value, int width) {
    if (width > 0) {
      *out += fmt::format("{:0{}}", value, width);
    } else {
      *out += std::to_string(value);
    }
  };
  for (size_t i = 0; i < format.size(); i++) {
    if (format[i] != '%') {
      out->push_back(format[i]);
      continue;
    }
    if (i + 1 == format.size()) {
      throw InvalidInputError("strftime: format '{}' ends in a lone '%'", format);
    }
    char spec = format[++i];
    bool padded = true;
    if (spec == '-' && i + 1 < format.size()) {
      padded = false;
      spec = format[++i];
    }
    auto pad = [padded](int width) { return padded ? width : 0; };
    const int64_t hour12 = hour % 12 == 0 ? 12 : hour % 12;
    switch (spec) {
      case 'a':
        out->append(kDayNames[dow], 3);
        break;
      case 'A':
        *out += kDayNames[dow];
        break;
      case 'w':
        number(dow, 0);
        break;
      case 'u':
        number(dow == 0 ? 7 : dow, 0);
        break;
      case 'd':
        number(c.day, pad(2));
        break;
      case 'j':
        number(doy + 1, pad(3));
        break;
      case 'b':
      case 'h':
        out->append(kMonthNames[c.month - 1], 3);
        break;
      case 'B':
        *out += kMonthNames[c.month - 1];
        break;
      case 'm':
        number(c.month, pad(2));
        break;
      case 'y':
        number(FloorMod(c.year, 100), pad(2));
        break;
      case 'Y':
        number(c.year, 0);
        break;
      case 'G':
      case 'V': {
        int64_t iso_year, week;
        IsoWeek(days, &iso_year, &week);
        if (spec == 'G') {
          number(iso_year, 0);
        } else {
          number(week, pad(2));
        }
        break;
      }
      case 'U':  // weeks starting on Sunday; days before the first Sunday are week 0
        number((doy + 7 - dow) / 7, pad(2));
        break;
      case 'W':  // weeks starting on Monday
        number((doy + 7 - (dow + 6) % 7) / 7, pad(2));
        break;
      case 'H':
        number(hour, pad(2));
        break;
      case 'I':
        number(hour12, pad(2));
        break;
      case 'p':
        *out += hour < 12 ? "AM" : "PM";
        break;
      case 'M':
        number(minute, pad(2));
        break;
      case 'S':
        number(second, pad(2));
        break;
      case 'f':
        number(fraction, 6);
        break;
      case 'g':
        number(fraction / 1000, 3);
        break;
      case 'n':
        number(fraction * 1000, 9);
        break;
      case 'c':
        FormatTimestampAs(micros, "%Y-%m-%d %H:%M:%S", out);
        break;
      case 'x':
        FormatTimestampAs(micros, "%Y-%m-%d", out);
        break;
      case 'X':
      case 'T':
        FormatTimestampAs(micros, "%H:%M:%S", out);
        break;
      case 'z':
        *out += "+00";  // TIMESTAMP has no zone: UTC
        break;
      case 'Z':
        break;
      case '%':
        out->push_back('%');
        break;
      default:
        throw InvalidInputError("strftime: unknown format specifier '%{}' in '{}'",
                                std::string(1, spec), format);
    }
  }
}

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

char LowerAscii(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c;
}

/// Parses `text` by `format` (the specifiers of strftime, numbers with or without leading
/// zeros, names case-insensitive, whitespace in the format matching any run of whitespace,
/// leading whitespace skipped). Returns the TIMESTAMP, or an error text saying what failed.
std::optional<int64_t> ParseTimestampAs(std::string_view text, std::string_view format,
                                        std::string* error) {
  int64_t year = 1900, month = 1, day = 1, hour = 0, minute = 0, second = 0, micros = 0;
  int64_t day_of_year = -1;
  bool pm = false, has_ampm = false, two_digit_year = false;
  size_t pos = 0;
  while (pos < text.size() && IsSpace(text[pos]))
    pos++;
  auto fail = [&](std::string message) -> std::optional<int64_t> {
    *error = fmt::format("{} at position {}", message, pos + 1);
    return std::nullopt;
  };
  auto read_number = [&](int max_digits, int64_t* value) {
    size_t start = pos;
    bool negative = false;
    if (max_digits > 4 && pos < text.size() && (text[pos] == '-' || text[pos] == '+')) {
      negative = text[pos] == '-';
      pos++;
    }
    int64_t v = 0;
    int digits = 0;
    while (pos < text.size() && digits < max_digits && text[pos] >= '0' && text[pos] <= '9') {
      v = v * 10 + (text[pos] - '0');
      pos++;
      digits++;
    }
    if (digits == 0) {
      pos = start;
      return false;
    }
    *value = negative ? -v : v;
    return true;
  };
  auto read_name = [&](const char* const* names, int n, int64_t* index) {
    for (int k = 0; k < n; k++) {
      std::string_view full(names[k]);
      for (size_t len : {full.size(), size_t{3}}) {
        if (pos + len > text.size()) continue;
        bool same = true;
        for (size_t j = 0; j < len && same; j++)
          same = LowerAscii(text[pos + j]) == LowerAscii(full[j]);
        if (same) {
          pos += len;
          *index = k;
          return true;
        }
      }
    }
    return false;
  };
  for (size_t i = 0; i < format.size(); i++) {
    char f = format[i];
    if (IsSpace(f)) {
      while (pos < text.size() && IsSpace(text[pos]))
        pos++;
      continue;
    }
    if (f != '%') {
      if (pos >= text.size() || text[pos] != f) {
        return fail(fmt::format("expected '{}'", std::string(1, f)));
      }
      pos++;
      continue;
    }
    if (i + 1 == format.size()) {
      throw InvalidInputError("strptime: format '{}' ends in a lone '%'", format);
    }
    char spec = format[++i];
    if (spec == '-' && i + 1 < format.size()) spec = format[++i];
    int64_t value = 0;
    auto need = [&](bool ok, const char* what) { return ok ? std::string() : std::string(what); };
    std::string problem;
    switch (spec) {
      case 'Y':
        problem = need(read_number(7, &year), "expected a year");
        break;
      case 'y':
        problem = need(read_number(2, &year), "expected a two-digit year");
        two_digit_year = true;
        break;
      case 'm':
        problem = need(read_number(2, &month), "expected a month");
        if (problem.empty() && (month < 1 || month > 12)) problem = "month out of range 1-12";
        break;
      case 'd':
        problem = need(read_number(2, &day), "expected a day");
        if (problem.empty() && (day < 1 || day > 31)) problem = "day out of range 1-31";
        break;
      case 'j':
        problem = need(read_number(3, &day_of_year), "expected a day of the year");
        if (problem.empty() && (day_of_year < 1 || day_of_year > 366)) {
          problem = "day of the year out of range 1-366";
        }
        break;
      case 'H':
        problem = need(read_number(2, &hour), "expected an hour");
        if (problem.empty() && hour > 23) problem = "hour out of range 0-23";
        break;
      case 'I':
        problem = need(read_number(2, &hour), "expected an hour");
        if (problem.empty() && (hour < 1 || hour > 12)) problem = "hour out of range 1-12";
        break;
      case 'M':
        problem = need(read_number(2, &minute), "expected minutes");
        if (problem.empty() && minute > 59) problem = "minutes out of range 0-59";
        break;
      case 'S':
        problem = need(read_number(2, &second), "expected seconds");
        if (problem.empty() && second > 59) problem = "seconds out of range 0-59";
        break;
      case 'f':
      case 'g':
      case 'n': {
        // Up to 6 / 3 / 9 digits, scaled to microseconds (nanoseconds are truncated).
        const int max_digits = spec == 'f' ? 6 : spec == 'g' ? 3 : 9;
        size_t start = pos;
        problem = need(read_number(max_digits, &value), "expected a fraction of a second");
        if (problem.empty()) {
          int digits = static_cast<int>(pos - start);
          for (; digits < 6; digits++)
            value *= 10;
          for (; digits > 6; digits--)
            value /= 10;
          micros = value;
        }
        break;
      }
      case 'p': {
        if (pos + 2 <= text.size() && LowerAscii(text[pos + 1]) == 'm' &&
            (LowerAscii(text[pos]) == 'a' || LowerAscii(text[pos]) == 'p')) {
          pm = LowerAscii(text[pos]) == 'p';
          has_ampm = true;
          pos += 2;
        } else {
          problem = "expected AM or PM";
        }
        break;
      }
      case 'b':
      case 'h':
      case 'B':
        problem = need(read_name(kMonthNames, 12, &value), "expected a month name");
        month = value + 1;
        break;
      case 'a':
      case 'A':  // parsed and checked for form only: the date comes from the other fields
        problem = need(read_name(kDayNames, 7, &value), "expected a day name");
        break;
      case 'w':
      case 'u':
        problem = need(read_number(1, &value), "expected a weekday number");
        break;
      case 'z':
        // Only UTC offsets of zero: a TIMESTAMP has no zone to keep another.
        if (pos < text.size() && (text[pos] == 'Z' || text[pos] == 'z')) {
          pos++;
        } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
          pos++;
          int64_t offset = 0;
          if (!read_number(4, &offset)) {
            problem = "expected a UTC offset";
          } else if (offset != 0) {
            problem = "only a zero UTC offset is supported";
          }
          if (problem.empty() && pos < text.size() && text[pos] == ':') {
            pos++;
            if (!read_number(2, &offset) || offset != 0)
              problem = "only a zero UTC offset is supported";
          }
        } else {
          problem = "expected a UTC offset";
        }
        break;
      case '%':
        if (pos < text.size() && text[pos] == '%') {
          pos++;
        } else {
          problem = "expected '%'";
        }
        break;
      default:
        throw InvalidInputError("strptime: unknown format specifier '%{}' in '{}'",
                                std::string(1, spec), format);
    }
    if (!problem.empty()) return fail(problem);
  }
  while (pos < text.size() && IsSpace(text[pos]))
    pos++;
  if (pos != text.size()) return fail("trailing characters");
  if (two_digit_year) year += year < 69 ? 2000 : 1900;  // POSIX: 69-99 are 1969-1999
  if (has_ampm) hour = hour % 12 + (pm ? 12 : 0);
  if (year < -290000 || year > 290000) return fail("year out of the TIMESTAMP range");
  int64_t days;
  if (day_of_year > 0) {
    if (day_of_year > (IsLeapYear(year) ? 366 : 365)) return fail("day of the year out of range");
    days = DaysFromCivil(year, 1, 1) + day_of_year - 1;
  } else {
    if (day > DaysInMonth(year, static_cast<unsigned>(month))) {
      return fail(fmt::format("{}-{:02}-{:02} is not a date", year, month, day));
    }
    days = DaysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  }
  const int128_t value = int128_t{days} * kMicrosPerDay +
                         ((hour * 60 + minute) * 60 + second) * kMicrosPerSecond + micros;
  if (value > std::numeric_limits<int64_t>::max() || value < std::numeric_limits<int64_t>::min()) {
    return fail("out of the TIMESTAMP range");
  }
  return static_cast<int64_t>(value);
}

}  // namespace

ScalarKernel StrftimeKernel() {
  return [](const Args& args, idx_t count, Vector& result) {
    const StringRef* formats = args[1]->data<StringRef>();
    StringRef* out = result.data<StringRef>();
    std::string buffer;
    ForEachValidRow(args, count, result, [&](idx_t row) {
      buffer.clear();
      FormatTimestampAs(TimestampArg(*args[0], row), formats[row].view(), &buffer);
      out[row] = result.AddString(buffer);
    });
  };
}

namespace {

/// PostgreSQL's to_char template for one timestamp: YYYY YY MM DD DDD D HH24 HH12 HH MI SS MS
/// US AM PM Q (numbers, any case), Month Mon Day Dy (names: MONTH, Month and month set the
/// case; full names blank-padded to 9 as PostgreSQL does), the FM prefix (no padding, no
/// leading zeros), "quoted text"; any other character stands for itself.
void FormatToChar(int64_t micros, std::string_view pattern, std::string* out) {
  int64_t days, micros_of_day;
  SplitTimestamp(micros, &days, &micros_of_day);
  const Civil civil = ToCivil(days);
  constexpr int64_t kMicrosPerSecond = 1000000;
  const int64_t hour = micros_of_day / (3600 * kMicrosPerSecond);
  const int64_t minute = micros_of_day / (60 * kMicrosPerSecond) % 60;
  const int64_t second = micros_of_day / kMicrosPerSecond % 60;
  const int64_t fraction = micros_of_day % kMicrosPerSecond;
  const int64_t weekday = DayOfWeek(days);  // 0 = Sunday
  bool fill_mode = false;                   // FM: for the next pattern only
  auto starts = [&](size_t pos, std::string_view word) {
    if (pattern.size() - pos < word.size()) return false;
    for (size_t i = 0; i < word.size(); i++) {
      if (std::toupper(static_cast<unsigned char>(pattern[pos + i])) != word[i]) return false;
    }
    return true;
  };
  auto number = [&](int64_t value, int width) {
    std::string digits = std::to_string(value < 0 ? -value : value);
    if (!fill_mode && static_cast<int>(digits.size()) < width)
      digits.insert(0, static_cast<size_t>(width) - digits.size(), '0');
    if (value < 0) out->push_back('-');
    *out += digits;
  };
  // A name in the case the pattern's first two letters give.
  auto name = [&](size_t pos, std::string_view text, bool pad) {
    const bool upper_first = std::isupper(static_cast<unsigned char>(pattern[pos]));
    const bool upper_all =
        upper_first && std::isupper(static_cast<unsigned char>(pattern[pos + 1]));
    std::string word(text);
    for (size_t i = 0; i < word.size(); i++) {
      const auto c = static_cast<unsigned char>(word[i]);
      word[i] = static_cast<char>(upper_all || (upper_first && i == 0) ? std::toupper(c)
                                                                       : std::tolower(c));
    }
    if (pad && !fill_mode && word.size() < 9) word.append(9 - word.size(), ' ');
    *out += word;
  };
  size_t pos = 0;
  while (pos < pattern.size()) {
    const bool fill = fill_mode;
    size_t used = 0;
    if (starts(pos, "FM")) {
      fill_mode = true;
      pos += 2;
      continue;
    }
    if (pattern[pos] == '"') {
      const size_t end = pattern.find('"', pos + 1);
      const size_t stop = end == std::string_view::npos ? pattern.size() : end;
      out->append(pattern.substr(pos + 1, stop - pos - 1));
      pos = end == std::string_view::npos ? stop : end + 1;
      continue;
    }
    if (starts(pos, "YYYY")) {
      number(civil.year, 4), used = 4;
    } else if (starts(pos, "YY")) {
      number(FloorMod(civil.year, 100), 2), used = 2;
    } else if (starts(pos, "MONTH")) {
      name(pos, kMonthNames[civil.month - 1], true), used = 5;
    } else if (starts(pos, "MON")) {
      name(pos, std::string_view(kMonthNames[civil.month - 1]).substr(0, 3), false), used = 3;
    } else if (starts(pos, "MM")) {
      number(civil.month, 2), used = 2;
    } else if (starts(pos, "MI")) {
      number(minute, 2), used = 2;
    } else if (starts(pos, "MS")) {
      number(fraction / 1000, 3), used = 2;
    } else if (starts(pos, "DAY")) {
      name(pos, kDayNames[weekday], true), used = 3;
    } else if (starts(pos, "DY")) {
      name(pos, std::string_view(kDayNames[weekday]).substr(0, 3), false), used = 2;
    } else if (starts(pos, "DDD")) {
      number(days - DaysFromCivil(civil.year, 1, 1) + 1, 3), used = 3;
    } else if (starts(pos, "DD")) {
      number(civil.day, 2), used = 2;
    } else if (starts(pos, "D")) {
      number(weekday + 1, 1), used = 1;
    } else if (starts(pos, "HH24")) {
      number(hour, 2), used = 4;
    } else if (starts(pos, "HH12") || starts(pos, "HH")) {
      number(hour % 12 == 0 ? 12 : hour % 12, 2), used = starts(pos, "HH12") ? 4 : 2;
    } else if (starts(pos, "SS")) {
      number(second, 2), used = 2;
    } else if (starts(pos, "US")) {
      number(fraction, 6), used = 2;
    } else if (starts(pos, "AM") || starts(pos, "PM")) {
      const bool upper = std::isupper(static_cast<unsigned char>(pattern[pos]));
      *out += hour < 12 ? (upper ? "AM" : "am") : (upper ? "PM" : "pm");
      used = 2;
    } else if (starts(pos, "Q")) {
      number((civil.month - 1) / 3 + 1, 1), used = 1;
    }
    if (used == 0) {
      out->push_back(pattern[pos]);
      pos++;
      continue;
    }
    pos += used;
    if (fill) fill_mode = false;
  }
}

}  // namespace

ScalarKernel ToCharKernel() {
  return [](const Args& args, idx_t count, Vector& result) {
    const StringRef* patterns = args[1]->data<StringRef>();
    StringRef* out = result.data<StringRef>();
    std::string buffer;
    ForEachValidRow(args, count, result, [&](idx_t row) {
      buffer.clear();
      const int64_t micros = TimestampArg(*args[0], row);
      if (!IsFiniteTimestamp(micros)) return result.validity().SetNull(row);  // PostgreSQL's
      FormatToChar(micros, patterns[row].view(), &buffer);
      out[row] = result.AddString(buffer);
    });
  };
}

ScalarKernel StrptimeKernel(bool try_only) {
  return [try_only](const Args& args, idx_t count, Vector& result) {
    const StringRef* texts = args[0]->data<StringRef>();
    const StringRef* formats = args[1]->data<StringRef>();
    int64_t* out = result.data<int64_t>();
    std::string error;
    ForEachValidRow(args, count, result, [&](idx_t row) {
      std::optional<int64_t> value =
          ParseTimestampAs(texts[row].view(), formats[row].view(), &error);
      if (value) {
        out[row] = *value;
      } else if (try_only) {
        result.validity().SetNull(row);
      } else {
        throw InvalidInputError("strptime: could not parse '{}' with format '{}': {}",
                                texts[row].view(), formats[row].view(), error);
      }
    });
  };
}

}  // namespace function_internal
}  // namespace shears

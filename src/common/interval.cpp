// INTERVAL values: packing into an int128, text form, and the parser of interval text.

#include "common/interval.h"

#include <fmt/format.h>

#include <limits>
#include <vector>

#include "common/error.h"
#include "common/string_util.h"

namespace shears {

int128_t IntervalLength(const Interval& interval) {
  return (int128_t{interval.months} * kDaysPerIntervalMonth + interval.days) *
             kMicrosPerIntervalDay +
         interval.micros;
}

bool PackInterval(const Interval& interval, int128_t* packed) {
  const int128_t length = IntervalLength(interval);
  if (length > std::numeric_limits<int64_t>::max() ||
      length < std::numeric_limits<int64_t>::min()) {
    return false;
  }
  // Months and days biased to unsigned so the low half orders them too (only ties of equal
  // length reach it); built in unsigned arithmetic, no shift of a negative number.
  const uint64_t low = (uint64_t{static_cast<uint32_t>(interval.months) ^ 0x80000000u} << 32) |
                       (static_cast<uint32_t>(interval.days) ^ 0x80000000u);
  const uint128_t bits =
      (static_cast<uint128_t>(static_cast<uint64_t>(static_cast<int64_t>(length))) << 64) | low;
  *packed = static_cast<int128_t>(bits);
  return true;
}

Interval UnpackInterval(int128_t packed) {
  const uint128_t bits = static_cast<uint128_t>(packed);
  const int64_t length = static_cast<int64_t>(static_cast<uint64_t>(bits >> 64));
  const uint64_t low = static_cast<uint64_t>(bits);
  Interval interval;
  interval.months = static_cast<int32_t>(static_cast<uint32_t>(low >> 32) ^ 0x80000000u);
  interval.days = static_cast<int32_t>(static_cast<uint32_t>(low) ^ 0x80000000u);
  interval.micros = static_cast<int64_t>(
      length -
      (int128_t{interval.months} * kDaysPerIntervalMonth + interval.days) * kMicrosPerIntervalDay);
  return interval;
}

int128_t PackIntervalChecked(const Interval& interval) {
  int128_t packed;
  if (!PackInterval(interval, &packed)) {
    throw OutOfRangeError("INTERVAL out of range: {} months {} days {} microseconds",
                          interval.months, interval.days, interval.micros);
  }
  return packed;
}

namespace {

std::string Plural(int64_t n, const char* unit) {
  return fmt::format("{} {}{}", n, unit, n == 1 || n == -1 ? "" : "s");
}

}  // namespace

std::string FormatInterval(const Interval& interval) {
  std::string out;
  auto add = [&out](const std::string& part) {
    if (!out.empty()) out += ' ';
    out += part;
  };
  if (interval.months / 12 != 0) add(Plural(interval.months / 12, "year"));
  if (interval.months % 12 != 0) add(Plural(interval.months % 12, "month"));
  if (interval.days != 0) add(Plural(interval.days, "day"));
  if (interval.micros != 0 || out.empty()) {
    const int64_t micros = interval.micros;
    const uint64_t abs =
        micros < 0 ? 0 - static_cast<uint64_t>(micros) : static_cast<uint64_t>(micros);
    const uint64_t seconds = abs / 1000000;
    std::string time = fmt::format("{}{:02}:{:02}:{:02}", micros < 0 ? "-" : "", seconds / 3600,
                                   seconds / 60 % 60, seconds % 60);
    if (abs % 1000000 != 0) {
      time += fmt::format(".{:06}", abs % 1000000);
      while (time.back() == '0')
        time.pop_back();
    }
    add(time);
  }
  return out;
}

namespace {

bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}

enum class IntervalUnit {
  kYear,
  kMonth,
  kWeek,
  kDay,
  kHour,
  kMinute,
  kSecond,
  kMilli,
  kMicro,
  kQuarter,
  kDecade,
  kCentury,
  kMillennium,
};

bool LookupIntervalUnit(std::string_view word, IntervalUnit* unit) {
  struct Entry {
    const char* name;
    IntervalUnit unit;
  };
  static const Entry kUnits[] = {
      {"y", IntervalUnit::kYear},
      {"yr", IntervalUnit::kYear},
      {"yrs", IntervalUnit::kYear},
      {"year", IntervalUnit::kYear},
      {"years", IntervalUnit::kYear},
      {"mon", IntervalUnit::kMonth},
      {"mons", IntervalUnit::kMonth},
      {"month", IntervalUnit::kMonth},
      {"months", IntervalUnit::kMonth},
      {"w", IntervalUnit::kWeek},
      {"week", IntervalUnit::kWeek},
      {"weeks", IntervalUnit::kWeek},
      {"d", IntervalUnit::kDay},
      {"day", IntervalUnit::kDay},
      {"days", IntervalUnit::kDay},
      {"h", IntervalUnit::kHour},
      {"hr", IntervalUnit::kHour},
      {"hrs", IntervalUnit::kHour},
      {"hour", IntervalUnit::kHour},
      {"hours", IntervalUnit::kHour},
      {"m", IntervalUnit::kMinute},
      {"min", IntervalUnit::kMinute},
      {"mins", IntervalUnit::kMinute},
      {"minute", IntervalUnit::kMinute},
      {"minutes", IntervalUnit::kMinute},
      {"s", IntervalUnit::kSecond},
      {"sec", IntervalUnit::kSecond},
      {"secs", IntervalUnit::kSecond},
      {"second", IntervalUnit::kSecond},
      {"seconds", IntervalUnit::kSecond},
      {"ms", IntervalUnit::kMilli},
      {"msec", IntervalUnit::kMilli},
      {"msecs", IntervalUnit::kMilli},
      {"millisecond", IntervalUnit::kMilli},
      {"milliseconds", IntervalUnit::kMilli},
      {"us", IntervalUnit::kMicro},
      {"usec", IntervalUnit::kMicro},
      {"usecs", IntervalUnit::kMicro},
      {"microsecond", IntervalUnit::kMicro},
      {"microseconds", IntervalUnit::kMicro},
      {"quarter", IntervalUnit::kQuarter},
      {"quarters", IntervalUnit::kQuarter},
      {"decade", IntervalUnit::kDecade},
      {"decades", IntervalUnit::kDecade},
      {"century", IntervalUnit::kCentury},
      {"centuries", IntervalUnit::kCentury},
      {"millennium", IntervalUnit::kMillennium},
      {"millennia", IntervalUnit::kMillennium},
      {"millenniums", IntervalUnit::kMillennium},
  };
  std::string lowered = AsciiLower(word);
  for (const Entry& e : kUnits) {
    if (lowered == e.name) {
      *unit = e.unit;
      return true;
    }
  }
  return false;
}

// PostgreSQL's typmod bits for INTERVAL fields (datetime.h: INTERVAL_MASK).
constexpr int kMaskMonth = 1 << 1;
constexpr int kMaskYear = 1 << 2;
constexpr int kMaskDay = 1 << 3;
constexpr int kMaskHour = 1 << 10;
constexpr int kMaskMinute = 1 << 11;
constexpr int kMaskSecond = 1 << 12;

/// A bare number takes the smallest field of `INTERVAL '3' DAY TO HOUR`, else seconds (as
/// PostgreSQL does).
IntervalUnit BareNumberUnit(int mask) {
  if (mask < 0 || (mask & kMaskSecond)) return IntervalUnit::kSecond;
  if (mask & kMaskMinute) return IntervalUnit::kMinute;
  if (mask & kMaskHour) return IntervalUnit::kHour;
  if (mask & kMaskDay) return IntervalUnit::kDay;
  if (mask & kMaskMonth) return IntervalUnit::kMonth;
  if (mask & kMaskYear) return IntervalUnit::kYear;
  return IntervalUnit::kSecond;
}

/// Months in the units of many months.
int64_t MonthsPerUnit(IntervalUnit unit) {
  switch (unit) {
    case IntervalUnit::kQuarter:
      return 3;
    case IntervalUnit::kDecade:
      return 120;
    case IntervalUnit::kCentury:
      return 1200;
    case IntervalUnit::kMillennium:
      return 12000;
    default:
      return 0;
  }
}

struct IntervalAccumulator {
  // Wide enough that one addition of a checked quantity cannot overflow.
  int128_t months = 0, days = 0, micros = 0;

  /// Adds a quantity of a calendar unit (year, month, week, day).
  bool AddCalendar(IntervalUnit unit, int128_t whole, std::string* error) {
    switch (unit) {
      case IntervalUnit::kYear:
        months += whole * 12;
        break;
      case IntervalUnit::kMonth:
        months += whole;
        break;
      case IntervalUnit::kQuarter:
      case IntervalUnit::kDecade:
      case IntervalUnit::kCentury:
      case IntervalUnit::kMillennium:
        months += whole * MonthsPerUnit(unit);
        break;
      case IntervalUnit::kWeek:
        days += whole * 7;
        break;
      case IntervalUnit::kDay:
        days += whole;
        break;
      default:
        break;
    }
    return InRange(error);
  }

  bool InRange(std::string* error) const {
    constexpr int128_t kInt32Max = std::numeric_limits<int32_t>::max();
    constexpr int128_t kInt64Max = std::numeric_limits<int64_t>::max();
    if (months > kInt32Max || months < -kInt32Max || days > kInt32Max || days < -kInt32Max ||
        micros > kInt64Max || micros < -kInt64Max) {
      *error = "out of range";
      return false;
    }
    return true;
  }
};

int64_t MicrosPerUnit(IntervalUnit unit) {
  switch (unit) {
    case IntervalUnit::kHour:
      return 3600LL * 1000000;
    case IntervalUnit::kMinute:
      return 60LL * 1000000;
    case IntervalUnit::kSecond:
      return 1000000;
    case IntervalUnit::kMilli:
      return 1000;
    case IntervalUnit::kMicro:
      return 1;
    default:
      return 0;  // calendar units
  }
}

/// Reads up to 18 digits (more is out of range for any field) into *value.
bool ReadDigits(std::string_view text, size_t* pos, int128_t* value, size_t* count) {
  *value = 0;
  *count = 0;
  while (*pos < text.size() && IsDigit(text[*pos])) {
    if (*count >= 18) return false;
    *value = *value * 10 + (text[*pos] - '0');
    (*pos)++;
    (*count)++;
  }
  return true;
}

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}
bool IsAlpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

}  // namespace

bool IsIntervalUnit(std::string_view word) {
  IntervalUnit unit;
  return LookupIntervalUnit(word, &unit);
}

bool ParseIntervalText(std::string_view text, int field_mask, Interval* interval,
                       std::string* error) {
  IntervalAccumulator acc;
  size_t pos = 0;
  bool any = false;
  bool pending_bare_days = false;  // "1 02:03:04": a bare number before a time means days
  int128_t pending_value = 0;
  auto skip_spaces = [&] {
    while (pos < text.size() && IsSpace(text[pos]))
      pos++;
  };
  while (true) {
    skip_spaces();
    if (pos >= text.size()) break;
    size_t item_start = pos;
    if (IsAlpha(text[pos])) {
      size_t word_start = pos;
      while (pos < text.size() && IsAlpha(text[pos]))
        pos++;
      if (AsciiLower(text.substr(word_start, pos - word_start)) == "ago" && any) {
        acc.months = -acc.months;
        acc.days = -acc.days;
        acc.micros = -acc.micros;
        continue;
      }
      *error = fmt::format("unexpected \"{}\"", text.substr(word_start, pos - word_start));
      return false;
    }
    bool negative = false;
    if (text[pos] == '+' || text[pos] == '-') {
      negative = text[pos] == '-';
      pos++;
    }
    int128_t whole;
    size_t digits;
    if (!ReadDigits(text, &pos, &whole, &digits)) {
      *error = "out of range";
      return false;
    }
    // H:MM[:SS[.ffffff]]
    if (digits > 0 && pos < text.size() && text[pos] == ':') {
      int128_t parts[3] = {whole, 0, 0};
      int n = 1;
      while (n < 3 && pos < text.size() && text[pos] == ':') {
        pos++;
        size_t d;
        if (!ReadDigits(text, &pos, &parts[n], &d) || d == 0 || d > 2 || parts[n] > 59) {
          *error = "invalid time";
          return false;
        }
        n++;
      }
      int128_t frac = 0;
      if (n == 3 && pos < text.size() && text[pos] == '.') {
        pos++;
        size_t d = 0;
        while (pos < text.size() && IsDigit(text[pos])) {
          if (d < 6) frac = frac * 10 + (text[pos] - '0');
          d++;
          pos++;
        }
        for (; d < 6; d++)
          frac *= 10;
      }
      int128_t value = ((parts[0] * 60 + parts[1]) * 60 + parts[2]) * 1000000 + frac;
      acc.micros += negative ? -value : value;
      if (pending_bare_days) {
        acc.days += pending_value;
        pending_bare_days = false;
      }
      any = true;
      if (!acc.InRange(error)) return false;
      continue;
    }
    // Y-M (YEAR TO MONTH syntax)
    if (digits > 0 && pos + 1 < text.size() && text[pos] == '-' && IsDigit(text[pos + 1])) {
      pos++;
      int128_t month;
      size_t d;
      if (!ReadDigits(text, &pos, &month, &d) || month > 11) {
        *error = "invalid year-month";
        return false;
      }
      int128_t value = whole * 12 + month;
      acc.months += negative ? -value : value;
      any = true;
      if (!acc.InRange(error)) return false;
      continue;
    }
    // Fractional quantity (only for time units)
    int128_t frac = 0;
    size_t frac_digits = 0;
    if (pos < text.size() && text[pos] == '.') {
      pos++;
      while (pos < text.size() && IsDigit(text[pos])) {
        if (frac_digits < 9) {
          frac = frac * 10 + (text[pos] - '0');
          frac_digits++;
        }
        pos++;
      }
      if (digits == 0 && frac_digits == 0) {
        *error = "invalid number";
        return false;
      }
    } else if (digits == 0) {
      *error = fmt::format("unexpected \"{}\"", text.substr(item_start, 1));
      return false;
    }
    skip_spaces();
    size_t word_start = pos;
    while (pos < text.size() && IsAlpha(text[pos]))
      pos++;
    std::string_view word = text.substr(word_start, pos - word_start);
    IntervalUnit unit;
    if (word.empty()) {
      // A bare number directly before H:MM:SS is a day count ("1 02:03:04").
      size_t d = pos;
      if (d < text.size() && (text[d] == '+' || text[d] == '-')) d++;
      size_t digits_end = d;
      while (digits_end < text.size() && IsDigit(text[digits_end]))
        digits_end++;
      if (frac_digits == 0 && digits_end > d && digits_end < text.size() &&
          text[digits_end] == ':') {
        pending_bare_days = true;
        pending_value = negative ? -whole : whole;
        any = true;
        continue;
      }
      // Elsewhere only the last item may lack a unit ('1 day 5' is 1 day 5 seconds).
      if (pos < text.size()) {
        *error = "a number without a unit";
        return false;
      }
      unit = BareNumberUnit(field_mask);
    } else if (!LookupIntervalUnit(word, &unit)) {
      *error = fmt::format("unknown unit \"{}\"", word);
      return false;
    }
    int64_t unit_micros = MicrosPerUnit(unit);
    int128_t scale = 1;
    for (size_t i = 0; i < frac_digits; i++)
      scale *= 10;
    if (unit_micros > 0) {
      int128_t value = whole * unit_micros + frac * unit_micros / scale;
      acc.micros += negative ? -value : value;
      if (!acc.InRange(error)) return false;
    } else {
      if (!acc.AddCalendar(unit, negative ? -whole : whole, error)) return false;
      // A fraction of a calendar unit goes to the next smaller part, as in DuckDB: '1.5
      // years' is 1 year 6 months, '1.5 months' 1 month 15 days, '2.5 weeks' 17 days 12:00:00.
      if (frac_digits > 0) {
        const int sign = negative ? -1 : 1;
        switch (unit) {
          case IntervalUnit::kYear:
            acc.months += sign * (frac * 12 / scale);
            break;
          // DuckDB: a fraction of a decade, century or millennium is whole months (the rest
          // dropped, as for years); of a quarter, months and then days.
          case IntervalUnit::kDecade:
          case IntervalUnit::kCentury:
          case IntervalUnit::kMillennium:
            acc.months += sign * (frac * MonthsPerUnit(unit) / scale);
            break;
          case IntervalUnit::kQuarter: {
            const int128_t months = frac * 3 / scale;
            acc.months += sign * months;
            acc.days += sign * (frac * 3 * kDaysPerIntervalMonth / scale - months * 30);
            break;
          }
          case IntervalUnit::kMonth:
            acc.days += sign * (frac * kDaysPerIntervalMonth / scale);
            break;
          case IntervalUnit::kWeek: {
            const int128_t micros = frac * 7 * kMicrosPerIntervalDay / scale;
            acc.days += sign * (micros / kMicrosPerIntervalDay);
            acc.micros += sign * (micros % kMicrosPerIntervalDay);
            break;
          }
          default:
            acc.micros += sign * (frac * kMicrosPerIntervalDay / scale);
            break;
        }
        if (!acc.InRange(error)) return false;
      }
    }
    any = true;
  }
  if (pending_bare_days) {
    *error = "a number without a unit";
    return false;
  }
  if (!any) {
    *error = "empty interval";
    return false;
  }
  interval->months = static_cast<int32_t>(acc.months);
  interval->days = static_cast<int32_t>(acc.days);
  interval->micros = static_cast<int64_t>(acc.micros);
  int128_t packed;
  if (!PackInterval(*interval, &packed)) {
    *error = "out of range";
    return false;
  }
  return true;
}

}  // namespace shears

// Date and timestamp functions: extract / date_part, date_trunc, the year()/month()/...
// shortcuts, interval arithmetic (date_add_days, date_add_months, timestamp_add_micros: the
// binder lowers `x + INTERVAL ...` to them), make_date, last_day, date_diff, dayname,
// monthname, current_date and current_timestamp; strftime and strptime are in strftime.cpp.
//
// extract returns BIGINT for every field (the return type cannot depend on the field's
// value): `second` is the whole seconds 0-59, `millisecond` / `microsecond` count from the
// start of the minute including the seconds (PostgreSQL's 12.345 s -> 12345 ms), and `epoch`
// is whole seconds since 1970-01-01, rounded down (so negative before 1970). Years are
// astronomical (year 0 is 1 BC).

#include <cmath>
#include <memory>

#include "common/clock.h"
#include "function/date_internal.h"
#include "function/function_internal.h"

namespace shears {
namespace function_internal {

bool IsLeapYear(int64_t year) {
  return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

unsigned DaysInMonth(int64_t year, unsigned month) {
  static const unsigned kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && IsLeapYear(year) ? 29 : kDays[month - 1];
}

bool ParseDatePart(std::string_view text, DatePart* field) {
  std::string name;
  for (char c : text) {
    if (c == ' ') continue;
    name.push_back((c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c);
  }
  static const std::pair<const char*, DatePart> kNames[] = {
      {"year", DatePart::kYear},
      {"years", DatePart::kYear},
      {"y", DatePart::kYear},
      {"yr", DatePart::kYear},
      {"yrs", DatePart::kYear},
      {"quarter", DatePart::kQuarter},
      {"quarters", DatePart::kQuarter},
      {"month", DatePart::kMonth},
      {"months", DatePart::kMonth},
      {"mon", DatePart::kMonth},
      {"week", DatePart::kWeek},
      {"weeks", DatePart::kWeek},
      {"w", DatePart::kWeek},
      {"day", DatePart::kDay},
      {"days", DatePart::kDay},
      {"d", DatePart::kDay},
      {"dayofmonth", DatePart::kDay},
      {"dow", DatePart::kDayOfWeek},
      {"dayofweek", DatePart::kDayOfWeek},
      {"weekday", DatePart::kDayOfWeek},
      {"isodow", DatePart::kIsoDayOfWeek},
      {"doy", DatePart::kDayOfYear},
      {"dayofyear", DatePart::kDayOfYear},
      {"hour", DatePart::kHour},
      {"hours", DatePart::kHour},
      {"h", DatePart::kHour},
      {"minute", DatePart::kMinute},
      {"minutes", DatePart::kMinute},
      {"min", DatePart::kMinute},
      {"second", DatePart::kSecond},
      {"seconds", DatePart::kSecond},
      {"sec", DatePart::kSecond},
      {"s", DatePart::kSecond},
      {"millisecond", DatePart::kMillisecond},
      {"milliseconds", DatePart::kMillisecond},
      {"ms", DatePart::kMillisecond},
      {"msec", DatePart::kMillisecond},
      {"microsecond", DatePart::kMicrosecond},
      {"microseconds", DatePart::kMicrosecond},
      {"us", DatePart::kMicrosecond},
      {"usec", DatePart::kMicrosecond},
      {"epoch", DatePart::kEpoch},
      {"isoyear", DatePart::kIsoYear},
      {"decade", DatePart::kDecade},
      {"decades", DatePart::kDecade},
      {"century", DatePart::kCentury},
      {"centuries", DatePart::kCentury},
      {"millennium", DatePart::kMillennium},
      {"millennia", DatePart::kMillennium},
      {"era", DatePart::kEra},
  };
  for (const auto& [candidate, value] : kNames) {
    if (name == candidate) {
      *field = value;
      return true;
    }
  }
  return false;
}

/// Adds months, clamping the day to the target month's last day (Jan 31 + 1 month = Feb 28/29).
/// Returns a value past the int32 range when the year leaves what a DATE can hold.
int64_t AddMonthsToDays(int64_t days, int64_t months) {
  int64_t year0;
  unsigned month0, day0;
  CivilFromDays(days, &year0, &month0, &day0);
  const int64_t total = year0 * 12 + (month0 - 1) + months;
  const int64_t year = FloorDiv(total, 12);
  if (year < -5'000'000 || year > 5'000'000) return std::numeric_limits<int64_t>::max();
  const unsigned month = static_cast<unsigned>(FloorMod(total, 12) + 1);
  const unsigned day = std::min(day0, DaysInMonth(year, month));
  return DaysFromCivil(year, month, day);
}

namespace {

using Args = std::vector<const Vector*>;

using Field = DatePart;

int64_t ExtractField(Field field, int64_t days, int64_t micros_of_day) {
  switch (field) {
    case Field::kYear:
      return ToCivil(days).year;
    case Field::kQuarter:
      return (ToCivil(days).month - 1) / 3 + 1;
    case Field::kMonth:
      return ToCivil(days).month;
    case Field::kWeek: {
      int64_t iso_year, week;
      IsoWeek(days, &iso_year, &week);
      return week;
    }
    case Field::kIsoYear: {
      int64_t iso_year, week;
      IsoWeek(days, &iso_year, &week);
      return iso_year;
    }
    case Field::kDay:
      return ToCivil(days).day;
    case Field::kDayOfWeek:
      return DayOfWeek(days);
    case Field::kIsoDayOfWeek: {
      int64_t dow = DayOfWeek(days);
      return dow == 0 ? 7 : dow;
    }
    case Field::kDayOfYear:
      return days - DaysFromCivil(ToCivil(days).year, 1, 1) + 1;
    case Field::kHour:
      return micros_of_day / (3600 * kMicrosPerSecond);
    case Field::kMinute:
      return micros_of_day / (60 * kMicrosPerSecond) % 60;
    case Field::kSecond:
      return micros_of_day / kMicrosPerSecond % 60;
    case Field::kMillisecond:
      return micros_of_day % (60 * kMicrosPerSecond) / 1000;
    case Field::kMicrosecond:
      return micros_of_day % (60 * kMicrosPerSecond);
    case Field::kEpoch:
      return days * 86400 + micros_of_day / kMicrosPerSecond;
    case Field::kDecade:  // truncated toward zero: 44 BC (year -43) is decade -4 (DuckDB)
      return ToCivil(days).year / 10;
    case Field::kCentury: {
      int64_t year = ToCivil(days).year;
      return year > 0 ? (year + 99) / 100 : -((99 - (year - 1)) / 100);
    }
    case Field::kMillennium: {
      int64_t year = ToCivil(days).year;
      return year > 0 ? (year + 999) / 1000 : -((999 - (year - 1)) / 1000);
    }
    case Field::kEra:  // 1 AD, 0 BC (DuckDB)
      return ToCivil(days).year > 0 ? 1 : 0;
  }
  return 0;
}

/// extract(field, DATE | TIMESTAMP) -> BIGINT.
ScalarKernel ExtractKernel(bool timestamp, const char* function) {
  return [timestamp, function](const Args& args, idx_t count, Vector& result) {
    DatePartReader reader(function);
    const StringRef* fields = args[0]->data<StringRef>();
    int64_t* out = result.data<int64_t>();
    ForEachValidRow(args, count, result, [&](idx_t row) {
      Field field = reader.Read(fields[row].view());
      int64_t days, micros_of_day = 0;
      if (timestamp) {
        const int64_t micros = args[1]->data<int64_t>()[row];
        if (!IsFiniteTimestamp(micros)) {
          result.validity().SetNull(row);  // every part of an infinity is NULL (DuckDB)
          return;
        }
        SplitTimestamp(micros, &days, &micros_of_day);
      } else {
        days = args[1]->data<int32_t>()[row];
        if (!IsFiniteDate(days)) {
          result.validity().SetNull(row);
          return;
        }
      }
      out[row] = ExtractField(field, days, micros_of_day);
    });
  };
}

/// The fields a TIME has (DuckDB's): the others are an error naming the field.
bool IsTimeOfDayField(Field field) {
  return field == Field::kHour || field == Field::kMinute || field == Field::kSecond ||
         field == Field::kMillisecond || field == Field::kMicrosecond || field == Field::kEpoch;
}

/// extract(field, TIME) -> BIGINT: the day is 1970-01-01, so epoch counts seconds since midnight.
ScalarKernel ExtractTimeKernel(const char* function) {
  return [function](const Args& args, idx_t count, Vector& result) {
    DatePartReader reader(function);
    const StringRef* fields = args[0]->data<StringRef>();
    int64_t* out = result.data<int64_t>();
    ForEachValidRow(args, count, result, [&](idx_t row) {
      const Field field = reader.Read(fields[row].view());
      if (!IsTimeOfDayField(field)) {
        throw InvalidInputError("{}: the field '{}' is not part of a TIME", function,
                                fields[row].view());
      }
      out[row] = ExtractField(field, 0, args[1]->data<int64_t>()[row]);
    });
  };
}

/// year(x), month(x), ...: extract with a fixed field.
/// The part of an infinite DATE or TIMESTAMP is NULL (DuckDB); a TIME is always finite.
ScalarKernel FixedFieldKernel(bool timestamp, Field field) {
  return [timestamp, field](const Args& args, idx_t count, Vector& result) {
    int64_t* out = result.data<int64_t>();
    ForEachValidRow(args, count, result, [&](idx_t row) {
      int64_t days, micros_of_day = 0;
      if (timestamp) {
        const int64_t micros = args[0]->data<int64_t>()[row];
        if (!IsFiniteTimestamp(micros)) return result.validity().SetNull(row);
        SplitTimestamp(micros, &days, &micros_of_day);
      } else {
        days = args[0]->data<int32_t>()[row];
        if (!IsFiniteDate(days)) return result.validity().SetNull(row);
      }
      out[row] = ExtractField(field, days, micros_of_day);
    });
  };
}

int64_t TruncateTimestamp(Field field, int64_t micros) {
  int64_t days, micros_of_day;
  SplitTimestamp(micros, &days, &micros_of_day);
  auto at_day = [micros](int64_t d) {
    int64_t out;
    if (__builtin_mul_overflow(d, kMicrosPerDay, &out)) {
      throw OutOfRangeError("date_trunc({}): result out of range", FormatTimestamp(micros));
    }
    return out;
  };
  auto first_of_year = [&](int64_t year) { return at_day(DaysFromCivil(year, 1, 1)); };
  switch (field) {
    case Field::kMicrosecond:
      return micros;
    case Field::kMillisecond:
      return micros - FloorMod(micros, 1000);
    case Field::kSecond:
      return micros - FloorMod(micros, kMicrosPerSecond);
    case Field::kMinute:
      return micros - FloorMod(micros, 60 * kMicrosPerSecond);
    case Field::kHour:
      return micros - FloorMod(micros, 3600 * kMicrosPerSecond);
    case Field::kDay:
      return at_day(days);
    case Field::kWeek:
      return at_day(days - (DayOfWeek(days) + 6) % 7);  // back to Monday
    case Field::kMonth: {
      Civil c = ToCivil(days);
      return at_day(DaysFromCivil(c.year, c.month, 1));
    }
    case Field::kQuarter: {
      Civil c = ToCivil(days);
      return at_day(DaysFromCivil(c.year, (c.month - 1) / 3 * 3 + 1, 1));
    }
    case Field::kYear:
      return first_of_year(ToCivil(days).year);
    // Decades, centuries and millennia start at years ...0 / ...00 / ...000, the astronomical
    // year truncated toward zero (DuckDB: 2019 -> 2000, 44 BC (year -43) -> year -40 for the
    // decade and year 0 for the century), not PostgreSQL's centuries from years ...01.
    case Field::kDecade:
    case Field::kCentury:
    case Field::kMillennium: {
      const int64_t unit = field == Field::kDecade ? 10 : field == Field::kCentury ? 100 : 1000;
      const int64_t year = ToCivil(days).year;
      return first_of_year(year - year % unit);
    }
    case Field::kIsoYear: {
      // The Monday of the ISO year's first week, the one holding January 4th.
      int64_t iso_year, week;
      IsoWeek(days, &iso_year, &week);
      const int64_t january4 = DaysFromCivil(iso_year, 1, 4);
      return at_day(january4 - (DayOfWeek(january4) + 6) % 7);
    }
    default:
      throw InvalidInputError("date_trunc: unsupported date part");
  }
}

ScalarKernel DateTruncKernel(bool timestamp) {
  return [timestamp](const Args& args, idx_t count, Vector& result) {
    DatePartReader reader("date_trunc");
    const StringRef* fields = args[0]->data<StringRef>();
    int64_t* out = result.data<int64_t>();
    ForEachValidRow(args, count, result, [&](idx_t row) {
      Field field = reader.Read(fields[row].view());
      const int64_t micros = TimestampArg(*args[1], row);
      // An infinity truncates to itself.
      out[row] = IsFiniteTimestamp(micros) ? TruncateTimestamp(field, micros) : micros;
    });
  };
}

// ---------------------------------------------------------------- date_diff

/// date_diff(part, start, end): the number of `part` boundaries crossed from start to end
/// (DuckDB's semantics): month compares year * 12 + month, hour compares whole hours since
/// 1970, ...; week and the day-based parts compare days (week is whole weeks of days).
int64_t DateDiff(Field field, int64_t start, int64_t end) {
  int64_t start_days, start_time, end_days, end_time;
  SplitTimestamp(start, &start_days, &start_time);
  SplitTimestamp(end, &end_days, &end_time);
  auto units = [&](int64_t micros_per_unit) {
    return FloorDiv(end, micros_per_unit) - FloorDiv(start, micros_per_unit);
  };
  const Civil a = ToCivil(start_days), b = ToCivil(end_days);
  switch (field) {
    case Field::kYear:
      return b.year - a.year;
    case Field::kQuarter:
      return (b.year * 4 + (b.month - 1) / 3) - (a.year * 4 + (a.month - 1) / 3);
    case Field::kMonth:
      return (b.year * 12 + b.month) - (a.year * 12 + a.month);
    case Field::kDecade:
      return b.year / 10 - a.year / 10;
    case Field::kCentury:
      return b.year / 100 - a.year / 100;
    case Field::kMillennium:
      return b.year / 1000 - a.year / 1000;
    case Field::kEra:
      throw InvalidInputError("date_diff: the date part 'era' is not supported");
    case Field::kIsoYear: {
      int64_t iso_a, iso_b, week;
      IsoWeek(start_days, &iso_a, &week);
      IsoWeek(end_days, &iso_b, &week);
      return iso_b - iso_a;
    }
    case Field::kWeek:
      return (end_days - start_days) / 7;
    case Field::kDay:
    case Field::kDayOfWeek:
    case Field::kIsoDayOfWeek:
    case Field::kDayOfYear:
      return end_days - start_days;
    case Field::kHour:
      return units(3600 * kMicrosPerSecond);
    case Field::kMinute:
      return units(60 * kMicrosPerSecond);
    case Field::kSecond:
    case Field::kEpoch:
      return units(kMicrosPerSecond);
    case Field::kMillisecond:
      return units(1000);
    case Field::kMicrosecond: {
      int64_t out;
      if (__builtin_sub_overflow(end, start, &out)) {
        throw OutOfRangeError("date_diff: the microseconds from {} to {} overflow BIGINT",
                              FormatTimestamp(start), FormatTimestamp(end));
      }
      return out;
    }
  }
  return 0;
}

ScalarKernel DateDiffKernel(const char* function) {
  return [function](const Args& args, idx_t count, Vector& result) {
    DatePartReader reader(function);
    const StringRef* fields = args[0]->data<StringRef>();
    int64_t* out = result.data<int64_t>();
    ForEachValidRow(args, count, result, [&](idx_t row) {
      const int64_t start = TimestampArg(*args[1], row), end = TimestampArg(*args[2], row);
      // No count of parts reaches an infinity: NULL, as DuckDB.
      if (!IsFiniteTimestamp(start) || !IsFiniteTimestamp(end)) {
        return result.validity().SetNull(row);
      }
      out[row] = DateDiff(reader.Read(fields[row].view()), start, end);
    });
  };
}

// ---------------------------------------------------------------- interval arithmetic

[[noreturn]] void ThrowDateOutOfRange(const char* function, const std::string& value,
                                      int64_t amount) {
  throw OutOfRangeError("{}({}, {}): result out of range", function, value, amount);
}

int32_t CheckedDate(int64_t days, const char* function, int64_t input_days, int64_t amount) {
  // The int32 extremes are the infinities, no finite result.
  if (days <= kDateNegativeInfinity || days >= kDateInfinity) {
    ThrowDateOutOfRange(function, FormatDate(static_cast<int32_t>(input_days)), amount);
  }
  return static_cast<int32_t>(days);
}

void RegisterIntervalArithmetic(FunctionRegistry& registry) {
  const LogicalType date = LogicalType::Date(), timestamp = LogicalType::Timestamp(),
                    integer = LogicalType::Integer(), bigint = LogicalType::Bigint();
  RegisterFixed(registry, "date_add_days", {date, integer}, date,
                [](const Args& args, idx_t count, Vector& result) {
                  BinaryLoop<int32_t, int32_t, int32_t>(
                      *args[0], *args[1], count, result, [](int32_t d, int32_t n) {
                        if (!IsFiniteDate(d)) return d;  // infinities stay
                        return CheckedDate(int64_t{d} + n, "date_add_days", d, n);
                      });
                });
  RegisterFixed(registry, "date_add_days", {timestamp, integer}, timestamp,
                [](const Args& args, idx_t count, Vector& result) {
                  BinaryLoop<int64_t, int32_t, int64_t>(
                      *args[0], *args[1], count, result, [](int64_t ts, int32_t n) {
                        int64_t out;
                        if (!IsFiniteTimestamp(ts)) return ts;
                        if (__builtin_mul_overflow(int64_t{n}, kMicrosPerDay, &out) ||
                            __builtin_add_overflow(ts, out, &out)) {
                          ThrowDateOutOfRange("date_add_days", FormatTimestamp(ts), n);
                        }
                        return out;
                      });
                });
  RegisterFixed(registry, "date_add_months", {date, integer}, date,
                [](const Args& args, idx_t count, Vector& result) {
                  BinaryLoop<int32_t, int32_t, int32_t>(
                      *args[0], *args[1], count, result, [](int32_t d, int32_t n) {
                        if (!IsFiniteDate(d)) return d;
                        return CheckedDate(AddMonthsToDays(d, n), "date_add_months", d, n);
                      });
                });
  RegisterFixed(registry, "date_add_months", {timestamp, integer}, timestamp,
                [](const Args& args, idx_t count, Vector& result) {
                  BinaryLoop<int64_t, int32_t, int64_t>(
                      *args[0], *args[1], count, result, [](int64_t ts, int32_t n) {
                        if (!IsFiniteTimestamp(ts)) return ts;
                        int64_t days, micros_of_day, out;
                        SplitTimestamp(ts, &days, &micros_of_day);
                        int64_t new_days = AddMonthsToDays(days, n);
                        if (__builtin_mul_overflow(new_days, kMicrosPerDay, &out) ||
                            __builtin_add_overflow(out, micros_of_day, &out)) {
                          ThrowDateOutOfRange("date_add_months", FormatTimestamp(ts), n);
                        }
                        return out;
                      });
                });
  RegisterFixed(registry, "timestamp_add_micros", {timestamp, bigint}, timestamp,
                [](const Args& args, idx_t count, Vector& result) {
                  BinaryLoop<int64_t, int64_t, int64_t>(
                      *args[0], *args[1], count, result, [](int64_t ts, int64_t n) {
                        int64_t out;
                        if (!IsFiniteTimestamp(ts)) return ts;
                        if (__builtin_add_overflow(ts, n, &out) || !IsFiniteTimestamp(out)) {
                          ThrowDateOutOfRange("timestamp_add_micros", FormatTimestamp(ts), n);
                        }
                        return out;
                      });
                });
}

// ---------------------------------------------------------------- constructors

int32_t MakeDate(int64_t year, int64_t month, int64_t day) {
  if (year < -5'000'000 || year > 5'000'000 || month < 1 || month > 12 || day < 1 ||
      day > DaysInMonth(year, static_cast<unsigned>(month))) {
    throw OutOfRangeError("make_date({}, {}, {}): not a valid date", year, month, day);
  }
  return DaysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
}

int32_t LastDay(int64_t days) {
  Civil c = ToCivil(days);
  return DaysFromCivil(c.year, c.month, DaysInMonth(c.year, c.month));
}

int64_t NowMicros() {
  return clock::WallNanos() / 1000;
}

enum class Now { kDate, kTime, kTimestamp };

/// current_date / current_time / current_timestamp: the clock is read when the call is bound,
/// so the value is the same for every row and batch of a query.
FunctionRegistry::Resolver CurrentTimeResolver(Now what) {
  return [what](const std::vector<LogicalType>& args) -> std::optional<BoundScalarFunction> {
    if (!args.empty()) return std::nullopt;
    const int64_t now = NowMicros();
    if (what == Now::kTime) {
      const int64_t time_of_day = now - FloorDiv(now, kMicrosPerDay) * kMicrosPerDay;
      return MakeBound(
          {}, LogicalType::Time(),
          [time_of_day](const Args&, idx_t count, Vector& result) {
            std::fill_n(result.data<int64_t>(), count, time_of_day);
          },
          true, /*deterministic=*/false);
    }
    if (what == Now::kDate) {
      const int32_t today = static_cast<int32_t>(FloorDiv(now, kMicrosPerDay));
      return MakeBound(
          {}, LogicalType::Date(),
          [today](const Args&, idx_t count, Vector& result) {
            std::fill_n(result.data<int32_t>(), count, today);
          },
          true, /*deterministic=*/false);
    }
    return MakeBound(
        {}, LogicalType::Timestamp(),
        [now](const Args&, idx_t count, Vector& result) {
          std::fill_n(result.data<int64_t>(), count, now);
        },
        true, /*deterministic=*/false);
  };
}

}  // namespace

void RegisterDateFunctions(FunctionRegistry& registry) {
  const LogicalType date = LogicalType::Date(), timestamp = LogicalType::Timestamp(),
                    varchar = LogicalType::Varchar(), bigint = LogicalType::Bigint();
  for (const char* name : {"extract", "date_part", "datepart"}) {
    RegisterFixed(registry, name, {varchar, date}, bigint, ExtractKernel(false, name));
    RegisterFixed(registry, name, {varchar, timestamp}, bigint, ExtractKernel(true, name));
    RegisterFixed(registry, name, {varchar, LogicalType::Time()}, bigint, ExtractTimeKernel(name));
  }
  for (const char* name : {"date_trunc", "datetrunc"}) {
    RegisterFixed(registry, name, {varchar, date}, timestamp, DateTruncKernel(false));
    RegisterFixed(registry, name, {varchar, timestamp}, timestamp, DateTruncKernel(true));
  }

  static const std::pair<const char*, Field> kShortcuts[] = {
      {"year", Field::kYear},
      {"quarter", Field::kQuarter},
      {"month", Field::kMonth},
      {"week", Field::kWeek},
      {"weekofyear", Field::kWeek},
      {"day", Field::kDay},
      {"dayofmonth", Field::kDay},
      {"dayofweek", Field::kDayOfWeek},
      {"isodow", Field::kIsoDayOfWeek},
      {"dayofyear", Field::kDayOfYear},
      {"hour", Field::kHour},
      {"minute", Field::kMinute},
      {"second", Field::kSecond},
      {"isoyear", Field::kIsoYear},
      {"epoch", Field::kEpoch},
      {"weekday", Field::kDayOfWeek},
      {"millisecond", Field::kMillisecond},
      {"microsecond", Field::kMicrosecond},
      {"decade", Field::kDecade},
      {"century", Field::kCentury},
      {"millennium", Field::kMillennium},
      {"era", Field::kEra},
  };
  for (const auto& [name, field] : kShortcuts) {
    RegisterFixed(registry, name, {date}, bigint, FixedFieldKernel(false, field));
    RegisterFixed(registry, name, {timestamp}, bigint, FixedFieldKernel(true, field));
    if (IsTimeOfDayField(field)) {
      // A TIME is a timestamp on 1970-01-01.
      RegisterFixed(registry, name, {LogicalType::Time()}, bigint, FixedFieldKernel(true, field));
    }
  }

  RegisterIntervalArithmetic(registry);

  for (const char* name : {"date_diff", "datediff"}) {
    for (const LogicalType& type : {date, timestamp}) {
      RegisterFixed(registry, name, {varchar, type, type}, bigint, DateDiffKernel(name));
    }
  }
  for (const LogicalType& type : {date, timestamp}) {
    RegisterFixed(registry, "strftime", {type, varchar}, varchar, StrftimeKernel());
    RegisterFixed(registry, "to_char", {type, varchar}, varchar, ToCharKernel());
    RegisterFixed(registry, "dayname", {type}, varchar,
                  [](const Args& args, idx_t count, Vector& result) {
                    StringRef* out = result.data<StringRef>();
                    ForEachValidRow(args, count, result, [&](idx_t row) {
                      const int64_t ts = TimestampArg(*args[0], row);
                      if (!IsFiniteTimestamp(ts)) return result.validity().SetNull(row);
                      int64_t days = FloorDiv(ts, kMicrosPerDay);
                      out[row] = result.AddString(kDayNames[DayOfWeek(days)]);
                    });
                  });
    RegisterFixed(registry, "monthname", {type}, varchar,
                  [](const Args& args, idx_t count, Vector& result) {
                    StringRef* out = result.data<StringRef>();
                    ForEachValidRow(args, count, result, [&](idx_t row) {
                      const int64_t ts = TimestampArg(*args[0], row);
                      if (!IsFiniteTimestamp(ts)) return result.validity().SetNull(row);
                      int64_t days = FloorDiv(ts, kMicrosPerDay);
                      out[row] = result.AddString(kMonthNames[ToCivil(days).month - 1]);
                    });
                  });
  }
  RegisterFixed(registry, "strptime", {varchar, varchar}, timestamp, StrptimeKernel(false));
  RegisterFixed(registry, "try_strptime", {varchar, varchar}, timestamp, StrptimeKernel(true));

  RegisterFixed(registry, "make_date", {bigint, bigint, bigint}, date,
                [](const Args& args, idx_t count, Vector& result) {
                  int32_t* out = result.data<int32_t>();
                  ForEachValidRow(args, count, result, [&](idx_t row) {
                    out[row] =
                        MakeDate(args[0]->data<int64_t>()[row], args[1]->data<int64_t>()[row],
                                 args[2]->data<int64_t>()[row]);
                  });
                });
  // last_day of an infinity is NULL (DuckDB).
  for (const LogicalType& type : {date, timestamp}) {
    RegisterFixed(registry, "last_day", {type}, date,
                  [](const Args& args, idx_t count, Vector& result) {
                    int32_t* out = result.data<int32_t>();
                    ForEachValidRow(args, count, result, [&](idx_t row) {
                      const int64_t ts = TimestampArg(*args[0], row);
                      if (!IsFiniteTimestamp(ts)) return result.validity().SetNull(row);
                      out[row] = LastDay(FloorDiv(ts, kMicrosPerDay));
                    });
                  });
  }
  // yearweek: the ISO year * 100 + the ISO week (DuckDB).
  for (const LogicalType& type : {date, timestamp}) {
    const bool ts = type == timestamp;
    ScalarKernel iso_year = FixedFieldKernel(ts, Field::kIsoYear);
    ScalarKernel iso_week = FixedFieldKernel(ts, Field::kWeek);
    RegisterFixed(registry, "yearweek", {type}, bigint,
                  [iso_year, iso_week](const Args& args, idx_t count, Vector& result) {
                    Vector week(LogicalType::Bigint(), count);
                    iso_year(args, count, result);
                    iso_week(args, count, week);
                    int64_t* out = result.data<int64_t>();
                    for (idx_t row = 0; row < count; row++)
                      out[row] = out[row] * 100 + week.data<int64_t>()[row];
                  });
  }
  // CAST(x AS TIMESTAMP_S | TIMESTAMP_MS): DuckDB stores seconds / milliseconds and rounds
  // to them; here the TIMESTAMP keeps microseconds, rounded. Infinities stay.
  for (const auto& [name, unit] : {std::pair<const char*, int64_t>{"__round_timestamp_s", 1000000},
                                   {"__round_timestamp_ms", 1000}}) {
    const int64_t step = unit;
    RegisterFixed(registry, name, {timestamp}, timestamp,
                  [step](const Args& args, idx_t count, Vector& result) {
                    UnaryLoop<int64_t, int64_t>(*args[0], count, result, [step](int64_t ts) {
                      if (!IsFiniteTimestamp(ts)) return ts;
                      // Halves away from zero; the extremes round toward zero instead of
                      // onto an infinity.
                      const int64_t magnitude = ts < 0 ? -ts : ts;
                      int64_t rounded = magnitude / step * step;
                      if (magnitude - rounded >= step / 2 && rounded < kTimestampInfinity - step)
                        rounded += step;
                      return ts < 0 ? -rounded : rounded;
                    });
                  });
  }
  // julian(x): the Julian day number, days since 4714-11-24 (BC) with the time of day as a
  // fraction (DuckDB's; PostgreSQL's is a whole number for a DATE); NULL for an infinity.
  for (const LogicalType& type : {date, timestamp}) {
    RegisterFixed(registry, "julian", {type}, LogicalType::Double(),
                  [](const Args& args, idx_t count, Vector& result) {
                    double* out = result.data<double>();
                    ForEachValidRow(args, count, result, [&](idx_t row) {
                      const int64_t ts = TimestampArg(*args[0], row);
                      if (!IsFiniteTimestamp(ts)) return result.validity().SetNull(row);
                      int64_t days, micros_of_day;
                      SplitTimestamp(ts, &days, &micros_of_day);
                      constexpr int64_t kJulianDayOf1970 = 2440588;
                      out[row] = static_cast<double>(days + kJulianDayOf1970) +
                                 static_cast<double>(micros_of_day) / kMicrosPerDay;
                    });
                  });
  }
  // epoch_ms(TIMESTAMP) is milliseconds since 1970, epoch_ms(BIGINT) the TIMESTAMP of so many
  // milliseconds (DuckDB); to_timestamp(seconds) likewise (PostgreSQL, DuckDB; UTC).
  RegisterFixed(
      registry, "epoch_ms", {timestamp}, bigint, [](const Args& args, idx_t count, Vector& result) {
        FiniteTimestampLoop(*args[0], count, result, [](int64_t us) { return FloorDiv(us, 1000); });
      });
  RegisterFixed(registry, "epoch_ms", {bigint}, timestamp,
                [](const Args& args, idx_t count, Vector& result) {
                  UnaryLoop<int64_t, int64_t>(*args[0], count, result, [](int64_t ms) {
                    int64_t us;
                    if (__builtin_mul_overflow(ms, int64_t{1000}, &us)) {
                      throw OutOfRangeError("epoch_ms({}) is out of the TIMESTAMP range", ms);
                    }
                    return us;
                  });
                });
  RegisterFixed(registry, "to_timestamp", {LogicalType::Double()}, timestamp,
                [](const Args& args, idx_t count, Vector& result) {
                  UnaryLoop<double, int64_t>(*args[0], count, result, [](double seconds) {
                    const double us = std::round(seconds * 1e6);
                    if (!(us >= -9.2e18 && us <= 9.2e18)) {
                      throw OutOfRangeError("to_timestamp({}) is out of the TIMESTAMP range",
                                            seconds);
                    }
                    return static_cast<int64_t>(us);
                  });
                });
  // make_timestamp(year, month, day, hour, minute, seconds) (DuckDB, PostgreSQL).
  RegisterFixed(registry, "make_timestamp",
                {bigint, bigint, bigint, bigint, bigint, LogicalType::Double()}, timestamp,
                [](const Args& args, idx_t count, Vector& result) {
                  int64_t* out = result.data<int64_t>();
                  ForEachValidRow(args, count, result, [&](idx_t row) {
                    const int64_t days =
                        MakeDate(args[0]->data<int64_t>()[row], args[1]->data<int64_t>()[row],
                                 args[2]->data<int64_t>()[row]);
                    const int64_t hour = args[3]->data<int64_t>()[row];
                    const int64_t minute = args[4]->data<int64_t>()[row];
                    const double seconds = args[5]->data<double>()[row];
                    if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || !(seconds >= 0) ||
                        !(seconds < 60)) {
                      throw OutOfRangeError("make_timestamp: time {}:{}:{} is out of range", hour,
                                            minute, seconds);
                    }
                    out[row] = days * kMicrosPerDay + (hour * 3600 + minute * 60) * 1000000 +
                               static_cast<int64_t>(std::round(seconds * 1e6));
                  });
                });
  registry.Register("current_date", CurrentTimeResolver(Now::kDate), "current_date()");
  registry.Register("today", CurrentTimeResolver(Now::kDate), "today()");
  for (const char* name : {"current_time", "get_current_time"}) {
    registry.Register(name, CurrentTimeResolver(Now::kTime), std::string(name) + "()");
  }
  for (const char* name : {"current_timestamp", "now"}) {
    registry.Register(name, CurrentTimeResolver(Now::kTimestamp), std::string(name) + "()");
  }
}

}  // namespace function_internal
}  // namespace shears

// Date and timestamp functions: extract / date_part, date_trunc, the year()/month()/...
// shortcuts, interval arithmetic (date_add_days, date_add_months, timestamp_add_micros: the
// binder lowers `x + INTERVAL ...` to them), make_date, last_day, current_date and
// current_timestamp.
//
// extract returns BIGINT for every field (the return type cannot depend on the field's
// value): `second` is the whole seconds 0-59, `millisecond` / `microsecond` count from the
// start of the minute including the seconds (PostgreSQL's 12.345 s -> 12345 ms), and `epoch`
// is whole seconds since 1970-01-01, rounded down (so negative before 1970). Years are
// astronomical (year 0 is 1 BC).

#include <memory>

#include "common/clock.h"
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

namespace {

using Args = std::vector<const Vector*>;

enum class Field {
  kYear,
  kQuarter,
  kMonth,
  kWeek,
  kDay,
  kDayOfWeek,
  kIsoDayOfWeek,
  kDayOfYear,
  kHour,
  kMinute,
  kSecond,
  kMillisecond,
  kMicrosecond,
  kEpoch,
  kIsoYear,
  kDecade,
  kCentury,
  kMillennium,
};

bool ParseField(std::string_view text, Field* field) {
  std::string name;
  for (char c : text) {
    if (c == ' ') continue;
    name.push_back((c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c);
  }
  static const std::pair<const char*, Field> kNames[] = {
      {"year", Field::kYear},
      {"years", Field::kYear},
      {"y", Field::kYear},
      {"yr", Field::kYear},
      {"yrs", Field::kYear},
      {"quarter", Field::kQuarter},
      {"quarters", Field::kQuarter},
      {"month", Field::kMonth},
      {"months", Field::kMonth},
      {"mon", Field::kMonth},
      {"week", Field::kWeek},
      {"weeks", Field::kWeek},
      {"w", Field::kWeek},
      {"day", Field::kDay},
      {"days", Field::kDay},
      {"d", Field::kDay},
      {"dayofmonth", Field::kDay},
      {"dow", Field::kDayOfWeek},
      {"dayofweek", Field::kDayOfWeek},
      {"weekday", Field::kDayOfWeek},
      {"isodow", Field::kIsoDayOfWeek},
      {"doy", Field::kDayOfYear},
      {"dayofyear", Field::kDayOfYear},
      {"hour", Field::kHour},
      {"hours", Field::kHour},
      {"h", Field::kHour},
      {"minute", Field::kMinute},
      {"minutes", Field::kMinute},
      {"min", Field::kMinute},
      {"second", Field::kSecond},
      {"seconds", Field::kSecond},
      {"sec", Field::kSecond},
      {"s", Field::kSecond},
      {"millisecond", Field::kMillisecond},
      {"milliseconds", Field::kMillisecond},
      {"ms", Field::kMillisecond},
      {"msec", Field::kMillisecond},
      {"microsecond", Field::kMicrosecond},
      {"microseconds", Field::kMicrosecond},
      {"us", Field::kMicrosecond},
      {"usec", Field::kMicrosecond},
      {"epoch", Field::kEpoch},
      {"isoyear", Field::kIsoYear},
      {"decade", Field::kDecade},
      {"decades", Field::kDecade},
      {"century", Field::kCentury},
      {"centuries", Field::kCentury},
      {"millennium", Field::kMillennium},
      {"millennia", Field::kMillennium},
  };
  for (const auto& [candidate, value] : kNames) {
    if (name == candidate) {
      *field = value;
      return true;
    }
  }
  return false;
}

struct Civil {
  int64_t year;
  unsigned month, day;
};

Civil ToCivil(int64_t days) {
  Civil c;
  CivilFromDays(days, &c.year, &c.month, &c.day);
  return c;
}

/// 0 = Sunday.
int64_t DayOfWeek(int64_t days) {
  return FloorMod(days + 4, 7);
}  // 1970-01-01 was a Thursday

/// The ISO 8601 year and week: weeks start on Monday; week 1 holds the year's first Thursday.
void IsoWeek(int64_t days, int64_t* iso_year, int64_t* week) {
  const int64_t iso_dow = (DayOfWeek(days) + 6) % 7;  // 0 = Monday
  const int64_t thursday = days - iso_dow + 3;
  *iso_year = ToCivil(thursday).year;
  *week = (thursday - DaysFromCivil(*iso_year, 1, 1)) / 7 + 1;
}

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
    case Field::kDecade:
      return FloorDiv(ToCivil(days).year, 10);
    case Field::kCentury: {
      int64_t year = ToCivil(days).year;
      return year > 0 ? (year + 99) / 100 : -((99 - (year - 1)) / 100);
    }
    case Field::kMillennium: {
      int64_t year = ToCivil(days).year;
      return year > 0 ? (year + 999) / 1000 : -((999 - (year - 1)) / 1000);
    }
  }
  return 0;
}

/// Parses the field of the current row, reusing the previous row's parse when the text is
/// the same (the field is a constant in practice).
class FieldReader {
 public:
  explicit FieldReader(const char* function) : function_(function) {}
  Field Read(std::string_view text) {
    if (!valid_ || text != text_) {
      if (!ParseField(text, &field_)) {
        throw InvalidInputError("{}: unknown date part '{}'", function_, text);
      }
      text_.assign(text);
      valid_ = true;
    }
    return field_;
  }

 private:
  const char* function_;
  bool valid_ = false;
  std::string text_;
  Field field_ = Field::kYear;
};

void SplitTimestamp(int64_t micros, int64_t* days, int64_t* micros_of_day) {
  *days = FloorDiv(micros, kMicrosPerDay);
  *micros_of_day = micros - *days * kMicrosPerDay;
}

/// extract(field, DATE | TIMESTAMP) -> BIGINT.
ScalarKernel ExtractKernel(bool timestamp, const char* function) {
  return [timestamp, function](const Args& args, idx_t count, Vector& result) {
    FieldReader reader(function);
    const StringRef* fields = args[0]->data<StringRef>();
    int64_t* out = result.data<int64_t>();
    ForEachValidRow(args, count, result, [&](idx_t row) {
      Field field = reader.Read(fields[row].view());
      int64_t days, micros_of_day = 0;
      if (timestamp) {
        SplitTimestamp(args[1]->data<int64_t>()[row], &days, &micros_of_day);
      } else {
        days = args[1]->data<int32_t>()[row];
      }
      out[row] = ExtractField(field, days, micros_of_day);
    });
  };
}

/// year(x), month(x), ...: extract with a fixed field.
ScalarKernel FixedFieldKernel(bool timestamp, Field field) {
  return [timestamp, field](const Args& args, idx_t count, Vector& result) {
    if (timestamp) {
      UnaryLoop<int64_t, int64_t>(*args[0], count, result, [field](int64_t micros) {
        int64_t days, micros_of_day;
        SplitTimestamp(micros, &days, &micros_of_day);
        return ExtractField(field, days, micros_of_day);
      });
    } else {
      UnaryLoop<int32_t, int64_t>(*args[0], count, result,
                                  [field](int32_t days) { return ExtractField(field, days, 0); });
    }
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
    case Field::kDecade:
      return first_of_year(FloorDiv(ToCivil(days).year, 10) * 10);
    case Field::kCentury: {
      // Centuries start at years ...01: 1901, 2001 (PostgreSQL).
      int64_t year = ToCivil(days).year;
      return first_of_year(FloorDiv(year - 1, 100) * 100 + 1);
    }
    case Field::kMillennium: {
      int64_t year = ToCivil(days).year;
      return first_of_year(FloorDiv(year - 1, 1000) * 1000 + 1);
    }
    default:
      throw InvalidInputError("date_trunc: unsupported date part");
  }
}

ScalarKernel DateTruncKernel(bool timestamp) {
  return [timestamp](const Args& args, idx_t count, Vector& result) {
    FieldReader reader("date_trunc");
    const StringRef* fields = args[0]->data<StringRef>();
    int64_t* out = result.data<int64_t>();
    ForEachValidRow(args, count, result, [&](idx_t row) {
      Field field = reader.Read(fields[row].view());
      int64_t micros;
      if (timestamp) {
        micros = args[1]->data<int64_t>()[row];
      } else if (__builtin_mul_overflow(int64_t{args[1]->data<int32_t>()[row]}, kMicrosPerDay,
                                        &micros)) {
        throw OutOfRangeError("date_trunc: {} is out of the TIMESTAMP range",
                              FormatDate(args[1]->data<int32_t>()[row]));
      }
      out[row] = TruncateTimestamp(field, micros);
    });
  };
}

// ---------------------------------------------------------------- interval arithmetic

[[noreturn]] void ThrowDateOutOfRange(const char* function, const std::string& value,
                                      int64_t amount) {
  throw OutOfRangeError("{}({}, {}): result out of range", function, value, amount);
}

int32_t CheckedDate(int64_t days, const char* function, int64_t input_days, int64_t amount) {
  if (days < std::numeric_limits<int32_t>::min() || days > std::numeric_limits<int32_t>::max()) {
    ThrowDateOutOfRange(function, FormatDate(static_cast<int32_t>(input_days)), amount);
  }
  return static_cast<int32_t>(days);
}

/// Adds months, clamping the day to the target month's last day (Jan 31 + 1 month = Feb 28/29).
/// Returns a value past the int32 range when the year leaves what a DATE can hold.
int64_t AddMonthsToDays(int64_t days, int64_t months) {
  Civil c = ToCivil(days);
  const int64_t total = c.year * 12 + (c.month - 1) + months;
  const int64_t year = FloorDiv(total, 12);
  if (year < -5'000'000 || year > 5'000'000) return std::numeric_limits<int64_t>::max();
  const unsigned month = static_cast<unsigned>(FloorMod(total, 12) + 1);
  const unsigned day = std::min(c.day, DaysInMonth(year, month));
  return DaysFromCivil(year, month, day);
}

void RegisterIntervalArithmetic(FunctionRegistry& registry) {
  const LogicalType date = LogicalType::Date(), timestamp = LogicalType::Timestamp(),
                    integer = LogicalType::Integer(), bigint = LogicalType::Bigint();
  RegisterFixed(registry, "date_add_days", {date, integer}, date,
                [](const Args& args, idx_t count, Vector& result) {
                  BinaryLoop<int32_t, int32_t, int32_t>(
                      *args[0], *args[1], count, result, [](int32_t d, int32_t n) {
                        return CheckedDate(int64_t{d} + n, "date_add_days", d, n);
                      });
                });
  RegisterFixed(registry, "date_add_days", {timestamp, integer}, timestamp,
                [](const Args& args, idx_t count, Vector& result) {
                  BinaryLoop<int64_t, int32_t, int64_t>(
                      *args[0], *args[1], count, result, [](int64_t ts, int32_t n) {
                        int64_t out;
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
                        return CheckedDate(AddMonthsToDays(d, n), "date_add_months", d, n);
                      });
                });
  RegisterFixed(registry, "date_add_months", {timestamp, integer}, timestamp,
                [](const Args& args, idx_t count, Vector& result) {
                  BinaryLoop<int64_t, int32_t, int64_t>(
                      *args[0], *args[1], count, result, [](int64_t ts, int32_t n) {
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
                        if (__builtin_add_overflow(ts, n, &out)) {
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

/// current_date / current_timestamp: the clock is read when the call is bound, so the value
/// is the same for every row and batch of a query.
FunctionRegistry::Resolver CurrentTimeResolver(bool date_only) {
  return [date_only](const std::vector<LogicalType>& args) -> std::optional<BoundScalarFunction> {
    if (!args.empty()) return std::nullopt;
    const int64_t now = NowMicros();
    if (date_only) {
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
  }
  RegisterFixed(registry, "date_trunc", {varchar, date}, timestamp, DateTruncKernel(false));
  RegisterFixed(registry, "date_trunc", {varchar, timestamp}, timestamp, DateTruncKernel(true));

  static const std::pair<const char*, Field> kShortcuts[] = {
      {"year", Field::kYear},           {"quarter", Field::kQuarter},
      {"month", Field::kMonth},         {"week", Field::kWeek},
      {"weekofyear", Field::kWeek},     {"day", Field::kDay},
      {"dayofmonth", Field::kDay},      {"dayofweek", Field::kDayOfWeek},
      {"isodow", Field::kIsoDayOfWeek}, {"dayofyear", Field::kDayOfYear},
      {"hour", Field::kHour},           {"minute", Field::kMinute},
      {"second", Field::kSecond},       {"isoyear", Field::kIsoYear},
      {"epoch", Field::kEpoch},
  };
  for (const auto& [name, field] : kShortcuts) {
    RegisterFixed(registry, name, {date}, bigint, FixedFieldKernel(false, field));
    RegisterFixed(registry, name, {timestamp}, bigint, FixedFieldKernel(true, field));
  }

  RegisterIntervalArithmetic(registry);

  RegisterFixed(registry, "make_date", {bigint, bigint, bigint}, date,
                [](const Args& args, idx_t count, Vector& result) {
                  int32_t* out = result.data<int32_t>();
                  ForEachValidRow(args, count, result, [&](idx_t row) {
                    out[row] =
                        MakeDate(args[0]->data<int64_t>()[row], args[1]->data<int64_t>()[row],
                                 args[2]->data<int64_t>()[row]);
                  });
                });
  RegisterFixed(registry, "last_day", {date}, date,
                [](const Args& args, idx_t count, Vector& result) {
                  UnaryLoop<int32_t, int32_t>(*args[0], count, result, LastDay);
                });
  RegisterFixed(registry, "last_day", {timestamp}, date,
                [](const Args& args, idx_t count, Vector& result) {
                  UnaryLoop<int64_t, int32_t>(*args[0], count, result, [](int64_t ts) {
                    return LastDay(FloorDiv(ts, kMicrosPerDay));
                  });
                });
  registry.Register("current_date", CurrentTimeResolver(true), "current_date()");
  for (const char* name : {"current_timestamp", "now"}) {
    registry.Register(name, CurrentTimeResolver(false), std::string(name) + "()");
  }
}

}  // namespace function_internal
}  // namespace shears

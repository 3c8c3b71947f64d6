// INTERVAL arithmetic and functions, as DuckDB defines them:
//   TIMESTAMP | DATE +- INTERVAL -> TIMESTAMP (months first, the day clamped to the month's
//     last day: Jan 31 + 1 month = Feb 29 in 2024; then days, then microseconds)
//   TIMESTAMP - TIMESTAMP -> INTERVAL (days and microseconds, no months)
//   INTERVAL +- INTERVAL, -INTERVAL, INTERVAL * number, number * INTERVAL, INTERVAL / number
//     (a fraction of a month goes to days at 30 per month, of a day to microseconds)
//   date_add(x, INTERVAL) (x + INTERVAL); to_years, to_months, to_weeks, to_days, to_hours,
//   to_minutes, to_seconds, to_milliseconds, to_microseconds; extract / date_part of an interval's
//   parts; age(a, b) (PostgreSQL's symbolic difference in years, months, days and time).
// Every result is checked: a part past its range is an OutOfRangeError, never a wrap.

#include <cmath>
#include <limits>

#include "common/interval.h"
#include "function/date_internal.h"
#include "function/function_internal.h"

namespace shears {
namespace function_internal {
namespace {

using Args = std::vector<const Vector*>;

[[noreturn]] void ThrowIntervalOverflow(const char* operation) {
  throw OutOfRangeError("INTERVAL out of range in {}", operation);
}

/// Interval parts summed in 128 bits, checked into an Interval.
Interval CheckedInterval(int128_t months, int128_t days, int128_t micros, const char* operation) {
  constexpr int128_t kInt32Max = std::numeric_limits<int32_t>::max();
  constexpr int128_t kInt64Max = std::numeric_limits<int64_t>::max();
  if (months > kInt32Max || months < -kInt32Max || days > kInt32Max || days < -kInt32Max ||
      micros > kInt64Max || micros < -kInt64Max) {
    ThrowIntervalOverflow(operation);
  }
  return Interval{static_cast<int32_t>(months), static_cast<int32_t>(days),
                  static_cast<int64_t>(micros)};
}

int128_t Pack(const Interval& interval, const char* operation) {
  int128_t packed;
  if (!PackInterval(interval, &packed)) ThrowIntervalOverflow(operation);
  return packed;
}

/// TIMESTAMP + sign * INTERVAL.
int64_t AddToTimestamp(int64_t ts, const Interval& interval, int sign) {
  if (!IsFiniteTimestamp(ts)) return ts;  // infinities stay
  int64_t out = ts;
  if (interval.months != 0) {
    const int64_t days = FloorDiv(ts, kMicrosPerDay);
    const int64_t micros_of_day = ts - days * kMicrosPerDay;
    const int64_t new_days = AddMonthsToDays(days, int64_t{sign} * interval.months);
    if (__builtin_mul_overflow(new_days, kMicrosPerDay, &out) ||
        __builtin_add_overflow(out, micros_of_day, &out)) {
      throw OutOfRangeError("TIMESTAMP out of range: {} + {}", FormatTimestamp(ts),
                            FormatInterval(interval));
    }
  }
  const int128_t rest =
      sign * (int128_t{interval.days} * kMicrosPerDay + int128_t{interval.micros}) + out;
  if (rest >= kTimestampInfinity || rest <= kTimestampNegativeInfinity) {
    throw OutOfRangeError("TIMESTAMP out of range: {} {} {}", FormatTimestamp(ts),
                          sign > 0 ? "+" : "-", FormatInterval(interval));
  }
  return static_cast<int64_t>(rest);
}

ScalarKernel TimestampPlusInterval(int sign, bool interval_first) {
  return [sign, interval_first](const Args& args, idx_t count, Vector& result) {
    const Vector& ts = *args[interval_first ? 1 : 0];
    const Vector& iv = *args[interval_first ? 0 : 1];
    BinaryLoop<int64_t, int128_t, int64_t>(ts, iv, count, result, [sign](int64_t t, int128_t i) {
      return AddToTimestamp(t, UnpackInterval(i), sign);
    });
  };
}

/// TIME +- INTERVAL: the interval's time part only, around the clock (DuckDB: months and days
/// do not move a time of day; 23:00 + 2 hours is 01:00).
ScalarKernel TimePlusInterval(int sign, bool interval_first) {
  return [sign, interval_first](const Args& args, idx_t count, Vector& result) {
    const Vector& time = *args[interval_first ? 1 : 0];
    const Vector& iv = *args[interval_first ? 0 : 1];
    BinaryLoop<int64_t, int128_t, int64_t>(time, iv, count, result, [sign](int64_t t, int128_t i) {
      const int64_t shift = FloorMod(UnpackInterval(i).micros, kMicrosPerDay);
      return FloorMod(t + sign * shift, kMicrosPerDay);
    });
  };
}

/// DATE + TIME, TIME + DATE -> TIMESTAMP.
ScalarKernel DatePlusTime(bool time_first) {
  return [time_first](const Args& args, idx_t count, Vector& result) {
    const Vector& date = *args[time_first ? 1 : 0];
    const Vector& time = *args[time_first ? 0 : 1];
    BinaryLoop<int32_t, int64_t, int64_t>(date, time, count, result, [](int32_t d, int64_t t) {
      // Far dates (past about 292,000 years) leave the TIMESTAMP range; infinities stay.
      int64_t out;
      if (!DateToTimestamp(d, &out)) {
        throw OutOfRangeError("TIMESTAMP out of range: {} + {}", FormatDate(d), FormatTimeOfDay(t));
      }
      if (!IsFiniteTimestamp(out)) return out;
      if (__builtin_add_overflow(out, t, &out) || !IsFiniteTimestamp(out)) {
        throw OutOfRangeError("TIMESTAMP out of range: {} + {}", FormatDate(d), FormatTimeOfDay(t));
      }
      return out;
    });
  };
}

ScalarKernel IntervalPlusInterval(int sign) {
  return [sign](const Args& args, idx_t count, Vector& result) {
    const char* op = sign > 0 ? "INTERVAL + INTERVAL" : "INTERVAL - INTERVAL";
    BinaryLoop<int128_t, int128_t, int128_t>(
        *args[0], *args[1], count, result, [sign, op](int128_t a, int128_t b) {
          const Interval x = UnpackInterval(a), y = UnpackInterval(b);
          return Pack(CheckedInterval(int128_t{x.months} + sign * int128_t{y.months},
                                      int128_t{x.days} + sign * int128_t{y.days},
                                      int128_t{x.micros} + sign * int128_t{y.micros}, op),
                      op);
        });
  };
}

/// An interval scaled by a double: a fraction of a month goes to days (30 per month), a
/// fraction of a day to microseconds, as DuckDB does ('1 month' * 1.5 = 1 month 15 days).
Interval ScaleInterval(const Interval& interval, double factor, const char* operation) {
  if (!std::isfinite(factor)) ThrowIntervalOverflow(operation);
  const double months = interval.months * factor;
  const double whole_months = std::trunc(months);
  // The days in microseconds, rounded, so 0.7 * 30 days is 21 days, not 20 days 24:00:00.
  const double day_micros =
      std::round((interval.days * factor + (months - whole_months) * kDaysPerIntervalMonth) *
                 static_cast<double>(kMicrosPerDay));
  const double micros = std::round(static_cast<double>(interval.micros) * factor);
  // Limits that keep the casts below in range (past them it is an overflow, not a saturation).
  if (std::fabs(whole_months) > 2.1e9 || std::fabs(day_micros) > 1.8e20 ||
      std::fabs(micros) > 9.2e18) {
    ThrowIntervalOverflow(operation);
  }
  const double whole_days = std::trunc(day_micros / static_cast<double>(kMicrosPerDay));
  const double rest = day_micros - whole_days * static_cast<double>(kMicrosPerDay);
  return CheckedInterval(static_cast<int128_t>(whole_months), static_cast<int128_t>(whole_days),
                         static_cast<int128_t>(micros) + static_cast<int128_t>(rest), operation);
}

ScalarKernel IntervalTimesBigint(bool interval_first) {
  return [interval_first](const Args& args, idx_t count, Vector& result) {
    const Vector& iv = *args[interval_first ? 0 : 1];
    const Vector& n = *args[interval_first ? 1 : 0];
    BinaryLoop<int128_t, int64_t, int128_t>(iv, n, count, result, [](int128_t i, int64_t k) {
      const Interval x = UnpackInterval(i);
      const char* op = "INTERVAL * number";
      // Parts are at most 64 bits and k too, so each product fits in 128 bits.
      return Pack(
          CheckedInterval(int128_t{x.months} * k, int128_t{x.days} * k, int128_t{x.micros} * k, op),
          op);
    });
  };
}

ScalarKernel IntervalTimesDouble(bool interval_first) {
  return [interval_first](const Args& args, idx_t count, Vector& result) {
    const Vector& iv = *args[interval_first ? 0 : 1];
    const Vector& n = *args[interval_first ? 1 : 0];
    BinaryLoop<int128_t, double, int128_t>(iv, n, count, result, [](int128_t i, double k) {
      const char* op = "INTERVAL * number";
      return Pack(ScaleInterval(UnpackInterval(i), k, op), op);
    });
  };
}

/// INTERVAL / BIGINT: exact, each part's remainder carried into the next smaller part
/// ('1 month' / 3 = 10 days); division by zero is NULL, as for integers.
void IntervalDivideBigint(const Args& args, idx_t count, Vector& result) {
  const int128_t* in = args[0]->data<int128_t>();
  const int64_t* divisor = args[1]->data<int64_t>();
  int128_t* out = result.data<int128_t>();
  ForEachValidRow(args, count, result, [&](idx_t row) {
    const int128_t n = divisor[row];
    if (n == 0) {
      result.validity().SetNull(row);
      return;
    }
    const Interval x = UnpackInterval(in[row]);
    const int128_t months = x.months / n;
    const int128_t days_total = x.days + (x.months % n) * kDaysPerIntervalMonth;
    const int128_t days = days_total / n;
    const int128_t micros = (x.micros + (days_total % n) * kMicrosPerDay) / n;
    const char* op = "INTERVAL / number";
    out[row] = Pack(CheckedInterval(months, days, micros, op), op);
  });
}

void IntervalDivideDouble(const Args& args, idx_t count, Vector& result) {
  const int128_t* in = args[0]->data<int128_t>();
  const double* divisor = args[1]->data<double>();
  int128_t* out = result.data<int128_t>();
  ForEachValidRow(args, count, result, [&](idx_t row) {
    if (divisor[row] == 0) {
      result.validity().SetNull(row);
      return;
    }
    const char* op = "INTERVAL / number";
    out[row] = Pack(ScaleInterval(UnpackInterval(in[row]), 1.0 / divisor[row], op), op);
  });
}

void NegateInterval(const Args& args, idx_t count, Vector& result) {
  UnaryLoop<int128_t, int128_t>(*args[0], count, result, [](int128_t i) {
    const Interval x = UnpackInterval(i);
    const char* op = "-INTERVAL";
    return Pack(CheckedInterval(-int128_t{x.months}, -int128_t{x.days}, -int128_t{x.micros}, op),
                op);
  });
}

/// TIMESTAMP - TIMESTAMP: whole days and the rest in microseconds (DuckDB: `1 day 03:00:00`).
void TimestampDifference(const Args& args, idx_t count, Vector& result) {
  BinaryLoop<int64_t, int64_t, int128_t>(
      *args[0], *args[1], count, result, [](int64_t a, int64_t b) {
        const char* op = "TIMESTAMP - TIMESTAMP";
        // No interval reaches an infinity (DuckDB's error).
        if (!IsFiniteTimestamp(a) || !IsFiniteTimestamp(b)) {
          throw InvalidInputError("Cannot subtract infinite timestamps");
        }
        const int128_t diff = int128_t{a} - b;
        return Pack(CheckedInterval(0, diff / kMicrosPerDay, diff % kMicrosPerDay, op), op);
      });
}

/// to_days(n) and friends: an interval of n units.
template <typename T>
ScalarKernel ToIntervalKernel(int64_t months_per_unit, int64_t days_per_unit,
                              int64_t micros_per_unit, const char* name) {
  return [=](const Args& args, idx_t count, Vector& result) {
    UnaryLoop<T, int128_t>(*args[0], count, result, [=](T n) {
      if constexpr (std::is_same_v<T, double>) {
        const double micros = std::round(n * static_cast<double>(micros_per_unit));
        if (!(std::fabs(micros) <= 9.2e18)) ThrowIntervalOverflow(name);
        return Pack(Interval{0, 0, static_cast<int64_t>(micros)}, name);
      } else {
        return Pack(CheckedInterval(int128_t{n} * months_per_unit, int128_t{n} * days_per_unit,
                                    int128_t{n} * micros_per_unit, name),
                    name);
      }
    });
  };
}

/// extract(part FROM interval) -> BIGINT, as DuckDB: year = months / 12, month = months % 12,
/// day = days, hour = micros / 1 h (not reduced modulo 24), minute / second the clock
/// positions, millisecond / microsecond including the seconds, epoch the whole seconds of
/// the length (a month 30 days).
int64_t ExtractInterval(DatePart part, const Interval& x) {
  switch (part) {
    case DatePart::kYear:
      return x.months / 12;
    case DatePart::kQuarter:
      return x.months % 12 / 3 + 1;
    case DatePart::kMonth:
      return x.months % 12;
    case DatePart::kDay:
      return x.days;
    case DatePart::kHour:
      return x.micros / (3600 * kMicrosPerSecond);
    case DatePart::kMinute:
      return x.micros / (60 * kMicrosPerSecond) % 60;
    case DatePart::kSecond:
      return x.micros / kMicrosPerSecond % 60;
    case DatePart::kMillisecond:
      return x.micros / 1000 % 60000;
    case DatePart::kMicrosecond:
      return x.micros % (60 * kMicrosPerSecond);
    case DatePart::kEpoch:
      return static_cast<int64_t>(IntervalLength(x) / kMicrosPerSecond);
    case DatePart::kDecade:
      return x.months / 120;
    case DatePart::kCentury:
      return x.months / 1200;
    case DatePart::kMillennium:
      return x.months / 12000;
    default:
      break;
  }
  throw InvalidInputError("extract: this date part is not defined for an INTERVAL");
}

ScalarKernel ExtractIntervalKernel(const char* function) {
  return [function](const Args& args, idx_t count, Vector& result) {
    DatePartReader reader(function);
    const StringRef* parts = args[0]->data<StringRef>();
    const int128_t* values = args[1]->data<int128_t>();
    int64_t* out = result.data<int64_t>();
    ForEachValidRow(args, count, result, [&](idx_t row) {
      const std::string_view text = parts[row].view();
      const DatePart part = reader.Read(text);
      try {
        out[row] = ExtractInterval(part, UnpackInterval(values[row]));
      } catch (const InvalidInputError&) {
        throw InvalidInputError("{}: date part '{}' is not defined for an INTERVAL", function,
                                text);
      }
    });
  };
}

/// date_trunc(part, interval), as DuckDB: the fields below `part` zeroed, truncated toward
/// zero (months to whole years for year, days to whole weeks for week, time to whole hours for
/// hour, ...); epoch keeps the interval.
Interval TruncateInterval(DatePart part, Interval x) {
  auto months_to = [&](int32_t unit) { return Interval{x.months / unit * unit, 0, 0}; };
  auto micros_to = [&](int64_t unit) { return Interval{x.months, x.days, x.micros / unit * unit}; };
  switch (part) {
    case DatePart::kMillennium:
      return months_to(12000);
    case DatePart::kCentury:
      return months_to(1200);
    case DatePart::kDecade:
      return months_to(120);
    case DatePart::kYear:
    case DatePart::kIsoYear:
      return months_to(12);
    case DatePart::kQuarter:
      return months_to(3);
    case DatePart::kMonth:
      return months_to(1);
    case DatePart::kWeek:
      return Interval{x.months, x.days / 7 * 7, 0};
    case DatePart::kDay:
    case DatePart::kDayOfWeek:
    case DatePart::kIsoDayOfWeek:
    case DatePart::kDayOfYear:
      return Interval{x.months, x.days, 0};
    case DatePart::kHour:
      return micros_to(3600 * kMicrosPerSecond);
    case DatePart::kMinute:
      return micros_to(60 * kMicrosPerSecond);
    case DatePart::kSecond:
      return micros_to(kMicrosPerSecond);
    case DatePart::kMillisecond:
      return micros_to(1000);
    case DatePart::kMicrosecond:
    case DatePart::kEpoch:
      return x;
    case DatePart::kEra:
      break;
  }
  throw InvalidInputError("date_trunc: date part 'era' is not defined for an INTERVAL");
}

void DateTruncIntervalKernel(const Args& args, idx_t count, Vector& result) {
  DatePartReader reader("date_trunc");
  const StringRef* parts = args[0]->data<StringRef>();
  const int128_t* values = args[1]->data<int128_t>();
  int128_t* out = result.data<int128_t>();
  ForEachValidRow(args, count, result, [&](idx_t row) {
    out[row] = PackIntervalChecked(
        TruncateInterval(reader.Read(parts[row].view()), UnpackInterval(values[row])));
  });
}

/// age(a, b): a - b as years, months, days and time, counted field by field with borrows (a
/// negative day borrows the length of b's month), as PostgreSQL and DuckDB; a < b gives the
/// negated age(b, a).
Interval Age(int64_t a, int64_t b) {
  if (a < b) {
    const Interval swapped = Age(b, a);
    return Interval{-swapped.months, -swapped.days, -swapped.micros};
  }
  auto split = [](int64_t ts, int64_t* year, unsigned* month, unsigned* day, int64_t* time) {
    int64_t days = ts / kMicrosPerIntervalDay;
    *time = ts % kMicrosPerIntervalDay;
    if (*time < 0) {
      *time += kMicrosPerIntervalDay;
      days--;
    }
    CivilFromDays(days, year, month, day);
  };
  int64_t y1, y2, t1, t2;
  unsigned m1, m2, d1, d2;
  split(a, &y1, &m1, &d1, &t1);
  split(b, &y2, &m2, &d2, &t2);
  int64_t years = y1 - y2, months = int64_t{m1} - m2, days = int64_t{d1} - d2, time = t1 - t2;
  if (time < 0) {
    time += kMicrosPerIntervalDay;
    days--;
  }
  if (days < 0) {
    days += DaysInMonth(y2, m2);
    months--;
  }
  if (months < 0) {
    months += 12;
    years--;
  }
  return CheckedInterval(int128_t{years} * 12 + months, days, time, "age");
}

// ---- time_bucket ----

/// DuckDB's default origins (TimescaleDB's): Monday 2000-01-03 for widths of days and time,
/// January 2000 for widths of months.
constexpr int64_t kBucketOriginMicros = 10959 * kMicrosPerDay;
constexpr int64_t kBucketOriginMonths = 360;

/// A bucket width: whole months, or days and time (as microseconds); a mix or a width not above
/// zero is an error (DuckDB's rules).
struct BucketWidth {
  bool months;
  int64_t length;  // months or microseconds
};

BucketWidth ClassifyBucketWidth(int128_t packed) {
  const Interval w = UnpackInterval(packed);
  if (w.months == 0) {
    const int128_t micros = int128_t{w.days} * kMicrosPerDay + w.micros;
    if (micros <= 0) throw InvalidInputError("time_bucket: the bucket width must be above zero");
    if (micros > std::numeric_limits<int64_t>::max()) {
      throw OutOfRangeError("time_bucket: the bucket width is out of range");
    }
    return {false, static_cast<int64_t>(micros)};
  }
  if (w.days != 0 || w.micros != 0) {
    throw InvalidInputError(
        "time_bucket: a bucket width of months cannot have a day or time part ({})",
        FormatInterval(w));
  }
  if (w.months < 0) throw InvalidInputError("time_bucket: the bucket width must be above zero");
  return {true, w.months};
}

/// Months since January 1970 of a timestamp's date.
int64_t EpochMonths(int64_t ts) {
  int64_t year;
  unsigned month, day;
  CivilFromDays(FloorDiv(ts, kMicrosPerDay), &year, &month, &day);
  return (year - 1970) * 12 + month - 1;
}

/// The start of the bucket of `ts`: buckets of `width` laid from `origin` (microseconds or
/// months since 1970); a month bucket starts on the 1st at midnight.
int64_t BucketStart(const BucketWidth& width, int64_t ts, int64_t origin) {
  if (!width.months) {
    // The origin moved next to 1970 first, so that ts - origin stays in range.
    const int64_t shift = origin % width.length;
    int64_t diff;
    if (__builtin_sub_overflow(ts, shift, &diff)) {
      throw OutOfRangeError("time_bucket: TIMESTAMP out of range");
    }
    const int128_t start = int128_t{FloorDiv(diff, width.length)} * width.length + shift;
    if (start < std::numeric_limits<int64_t>::min()) {
      throw OutOfRangeError("time_bucket: TIMESTAMP out of range");
    }
    return static_cast<int64_t>(start);
  }
  const int64_t shift = origin % width.length;
  const int64_t months = FloorDiv(EpochMonths(ts) - shift, width.length) * width.length + shift;
  const int64_t days = DaysFromCivil(1970 + FloorDiv(months, 12),
                                     static_cast<unsigned>(FloorMod(months, 12) + 1), 1);
  return days * kMicrosPerDay;
}

enum class BucketThird { kNone, kOffset, kOrigin };
/// What time_bucket's argument (and origin) is: a DATE's days, a TIMESTAMP, or a TIME, which
/// is bucketed as that time on 1970-01-01 and gives the time of the bucket's start (DuckDB's).
enum class BucketOf { kDate, kTimestamp, kTime };

/// time_bucket(width, ts [, offset | origin]).
template <BucketOf kOf, BucketThird kThird>
void TimeBucketKernel(const Args& in, idx_t count, Vector& result) {
  auto micros_at = [](const Vector& v, idx_t row) -> int64_t {
    if constexpr (kOf == BucketOf::kDate) {
      return TimestampArg(v, row);
    } else {
      return v.data<int64_t>()[row];
    }
  };
  ForEachValidRow(in, count, result, [&](idx_t row) {
    const BucketWidth width = ClassifyBucketWidth(in[0]->data<int128_t>()[row]);
    int64_t ts = micros_at(*in[1], row);
    if (!IsFiniteTimestamp(ts)) {  // an infinity is its own bucket (DuckDB)
      if constexpr (kOf == BucketOf::kDate) {
        result.data<int32_t>()[row] = TimestampToDate(ts);
      } else {
        result.data<int64_t>()[row] = ts;
      }
      return;
    }
    int64_t origin = width.months ? kBucketOriginMonths : kBucketOriginMicros;
    Interval offset;
    if constexpr (kThird == BucketThird::kOffset) {
      offset = UnpackInterval(in[2]->data<int128_t>()[row]);
      ts = AddToTimestamp(ts, offset, -1);
    } else if constexpr (kThird == BucketThird::kOrigin) {
      const int64_t o = micros_at(*in[2], row);
      origin = width.months ? EpochMonths(o) : o;
    }
    int64_t start = BucketStart(width, ts, origin);
    if constexpr (kThird == BucketThird::kOffset) start = AddToTimestamp(start, offset, 1);
    if constexpr (kOf == BucketOf::kDate) {
      result.data<int32_t>()[row] = static_cast<int32_t>(FloorDiv(start, kMicrosPerDay));
    } else if constexpr (kOf == BucketOf::kTime) {
      result.data<int64_t>()[row] = FloorMod(start, kMicrosPerDay);
    } else {
      result.data<int64_t>()[row] = start;
    }
  });
}

}  // namespace

void RegisterIntervalFunctions(FunctionRegistry& registry) {
  const LogicalType interval = LogicalType::Interval(), timestamp = LogicalType::Timestamp(),
                    bigint = LogicalType::Bigint(), dbl = LogicalType::Double(),
                    integer = LogicalType::Integer(), varchar = LogicalType::Varchar();
  // DATE arguments take the TIMESTAMP overloads (an implicit cast): DATE + INTERVAL is a
  // TIMESTAMP, as in DuckDB and PostgreSQL.
  RegisterFixed(registry, "+", {timestamp, interval}, timestamp, TimestampPlusInterval(1, false));
  RegisterFixed(registry, "+", {interval, timestamp}, timestamp, TimestampPlusInterval(1, true));
  RegisterFixed(registry, "-", {timestamp, interval}, timestamp, TimestampPlusInterval(-1, false));
  // DuckDB's date_add(DATE | TIMESTAMP, INTERVAL), the same as +.
  RegisterFixed(registry, "date_add", {timestamp, interval}, timestamp,
                TimestampPlusInterval(1, false));
  RegisterFixed(registry, "+", {interval, interval}, interval, IntervalPlusInterval(1));
  for (const char* name : {"date_trunc", "datetrunc"}) {
    RegisterFixed(registry, name, {varchar, interval}, interval, DateTruncIntervalKernel);
  }
  RegisterFixed(registry, "-", {interval, interval}, interval, IntervalPlusInterval(-1));
  RegisterFixed(registry, "-", {interval}, interval, NegateInterval);
  RegisterFixed(
      registry, "+", {interval}, interval,
      [](const Args& args, idx_t count, Vector& result) { CastVector(*args[0], result, count); });
  RegisterFixed(registry, "-", {timestamp, timestamp}, interval, TimestampDifference);
  RegisterFixed(registry, "age", {timestamp, timestamp}, interval,
                [](const Args& args, idx_t count, Vector& result) {
                  BinaryLoop<int64_t, int64_t, int128_t>(
                      *args[0], *args[1], count, result,
                      [](int64_t a, int64_t b) { return Pack(Age(a, b), "age"); });
                });
  const LogicalType time = LogicalType::Time(), date = LogicalType::Date();
  RegisterFixed(registry, "+", {time, interval}, time, TimePlusInterval(1, false));
  RegisterFixed(registry, "+", {interval, time}, time, TimePlusInterval(1, true));
  RegisterFixed(registry, "-", {time, interval}, time, TimePlusInterval(-1, false));
  RegisterFixed(registry, "+", {date, time}, timestamp, DatePlusTime(false));
  RegisterFixed(registry, "+", {time, date}, timestamp, DatePlusTime(true));
  // TIME - TIME is PostgreSQL's (DuckDB has none): the difference as an interval.
  RegisterFixed(registry, "-", {time, time}, interval,
                [](const Args& args, idx_t count, Vector& result) {
                  BinaryLoop<int64_t, int64_t, int128_t>(
                      *args[0], *args[1], count, result, [](int64_t a, int64_t b) {
                        return Pack(Interval{0, 0, a - b}, "TIME - TIME");
                      });
                });
  RegisterFixed(registry, "*", {interval, bigint}, interval, IntervalTimesBigint(true));
  RegisterFixed(registry, "*", {bigint, interval}, interval, IntervalTimesBigint(false));
  RegisterFixed(registry, "*", {interval, dbl}, interval, IntervalTimesDouble(true));
  RegisterFixed(registry, "*", {dbl, interval}, interval, IntervalTimesDouble(false));
  RegisterFixed(registry, "/", {interval, bigint}, interval, IntervalDivideBigint);
  RegisterFixed(registry, "/", {interval, dbl}, interval, IntervalDivideDouble);

  constexpr int64_t kHour = 3600 * kMicrosPerSecond;
  // to_years, to_months and DuckDB's to_quarters, to_decades, to_centuries, to_millennia
  // (INTERVAL (n) QUARTER, ...): whole months.
  for (const auto& [name, months] : {std::pair<const char*, int64_t>{"to_years", 12},
                                     {"to_months", 1},
                                     {"to_quarters", 3},
                                     {"to_decades", 120},
                                     {"to_centuries", 1200},
                                     {"to_millennia", 12000}}) {
    RegisterFixed(registry, name, {integer}, interval,
                  ToIntervalKernel<int32_t>(months, 0, 0, name));
  }
  RegisterFixed(registry, "to_weeks", {integer}, interval,
                ToIntervalKernel<int32_t>(0, 7, 0, "to_weeks"));
  RegisterFixed(registry, "to_days", {integer}, interval,
                ToIntervalKernel<int32_t>(0, 1, 0, "to_days"));
  RegisterFixed(registry, "to_hours", {bigint}, interval,
                ToIntervalKernel<int64_t>(0, 0, kHour, "to_hours"));
  RegisterFixed(registry, "to_minutes", {bigint}, interval,
                ToIntervalKernel<int64_t>(0, 0, 60 * kMicrosPerSecond, "to_minutes"));
  RegisterFixed(registry, "to_seconds", {dbl}, interval,
                ToIntervalKernel<double>(0, 0, kMicrosPerSecond, "to_seconds"));
  RegisterFixed(registry, "to_milliseconds", {dbl}, interval,
                ToIntervalKernel<double>(0, 0, 1000, "to_milliseconds"));
  RegisterFixed(registry, "to_microseconds", {bigint}, interval,
                ToIntervalKernel<int64_t>(0, 0, 1, "to_microseconds"));

  for (const char* name : {"extract", "date_part", "datepart"}) {
    RegisterFixed(registry, name, {varchar, interval}, bigint, ExtractIntervalKernel(name));
  }

  const auto register_bucket = [&](const LogicalType& type, auto none, auto offset, auto origin) {
    RegisterFixed(registry, "time_bucket", {interval, type}, type, none);
    RegisterFixed(registry, "time_bucket", {interval, type, interval}, type, offset);
    RegisterFixed(registry, "time_bucket", {interval, type, type}, type, origin);
  };
  register_bucket(date, TimeBucketKernel<BucketOf::kDate, BucketThird::kNone>,
                  TimeBucketKernel<BucketOf::kDate, BucketThird::kOffset>,
                  TimeBucketKernel<BucketOf::kDate, BucketThird::kOrigin>);
  register_bucket(timestamp, TimeBucketKernel<BucketOf::kTimestamp, BucketThird::kNone>,
                  TimeBucketKernel<BucketOf::kTimestamp, BucketThird::kOffset>,
                  TimeBucketKernel<BucketOf::kTimestamp, BucketThird::kOrigin>);
  register_bucket(time, TimeBucketKernel<BucketOf::kTime, BucketThird::kNone>,
                  TimeBucketKernel<BucketOf::kTime, BucketThird::kOffset>,
                  TimeBucketKernel<BucketOf::kTime, BucketThird::kOrigin>);
}

}  // namespace function_internal
}  // namespace shears

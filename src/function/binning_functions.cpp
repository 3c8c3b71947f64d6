// equi_width_bins(min, max, bins, nice): the upper bounds of about `bins` equal-width bins
// over [min, max], as DuckDB computes them (for histogram(x, bounds)). With `nice` the width is
// rounded to 1, 2 or 5 times a power of ten and the bounds are multiples of it, so there may be
// up to twice as many bins; the last bound is always max. Integers are computed in thousandths
// (128 bits) so that truncation does not pile up; doubles round each bound at the width's
// decimal; timestamps step in calendar units (months, days, rounded hours, ...) down from max
// rounded up to the step's unit. The result is a LIST of max's type (DOUBLE for DECIMAL and
// REAL).

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "common/interval.h"
#include "common/list.h"
#include "function/function_internal.h"

namespace shears {
namespace function_internal {
namespace {

using Args = std::vector<const Vector*>;

constexpr int64_t kMaxBinCount = 1000000;

enum class Rounding { kNearest, kUp };

int128_t Abs128(int128_t x) {
  return x < 0 ? -x : x;
}

/// The largest power of ten below `x` (1 for x <= 10).
int128_t PowerOfTenBelow(int128_t x) {
  int128_t power = 1;
  while (power < x)
    power *= 10;
  return power / 10;
}

/// x rounded to a multiple of `unit` (truncating division, as DuckDB's).
int128_t RoundTo(int128_t x, int128_t unit, Rounding rounding) {
  return rounding == Rounding::kNearest ? (x + unit / 2) / unit * unit
                                        : (x + unit - 1) / unit * unit;
}

/// x rounded to a multiple of 2 or of 5 times the power of ten below `step` (for larger steps
/// 10 and 5 times), whichever is closer.
int128_t Nice(int128_t x, int128_t step, Rounding rounding) {
  const int128_t power = PowerOfTenBelow(step);
  if (power == 0) return x;  // a step of one thousandth has nothing nicer
  const int128_t two = power * (power * 3 <= step ? 10 : 2);
  const int128_t five = power * (power * 2 <= step ? 5 : 1);
  const int128_t by_two = RoundTo(x, two, rounding), by_five = RoundTo(x, five, rounding);
  return Abs128(x - by_two) < Abs128(x - by_five) ? by_two : by_five;
}

/// The bounds from max down (the caller reverses them).
std::vector<int64_t> IntegerBounds(int64_t input_min, int64_t input_max, int64_t bins, bool nice) {
  constexpr int128_t kScale = 1000;
  const int128_t min = int128_t{input_min} * kScale;
  int128_t max = int128_t{input_max} * kScale;
  // At least a thousandth: more bins than thousandths would repeat a bound forever.
  int128_t step = std::max<int128_t>(1, (max - min) / bins);
  auto limit = static_cast<size_t>(bins);
  if (nice) {
    const int128_t nice_step = Nice(step, step, Rounding::kNearest);
    if (nice_step != 0) {
      const int128_t nice_max = RoundTo(max, nice_step, Rounding::kUp);
      if (nice_max != min) {
        max = nice_max;
        step = nice_step;
      }
    }
    limit *= 2;  // the count is approximate once rounded
  }
  std::vector<int64_t> out;
  for (int128_t bound = max; bound > min; bound -= step) {
    const int128_t scaled = bound / kScale;
    const auto value = static_cast<int64_t>(std::clamp<int128_t>(
        scaled, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()));
    if (!out.empty()) {
      if (value < input_min || out.size() >= limit) break;
      if (value == out.back()) continue;
    }
    out.push_back(value);
  }
  return out;
}

double PowerOfTenBelow(double x) {
  double power = 1;
  if (x < 1) {
    while (power > x)
      power /= 10;
    return power;
  }
  while (power < x)
    power *= 10;
  return power / 10;
}

double RoundTo(double x, double unit, Rounding rounding) {
  const double rounded =
      (rounding == Rounding::kNearest ? std::round(x / unit) : std::ceil(x / unit)) * unit;
  return std::isfinite(rounded) ? rounded : x;
}

double Nice(double x, double step) {
  if (x == 0) return 0;
  const double power = PowerOfTenBelow(step);
  const double two = power * (power * 3 <= step ? 10 : 2);
  const double five = power * (power * 2 <= step ? 5 : 1);
  const double by_two = RoundTo(x, two, Rounding::kNearest);
  const double by_five = RoundTo(x, five, Rounding::kNearest);
  return std::abs(x - by_two) < std::abs(x - by_five) ? by_two : by_five;
}

std::vector<double> DoubleBounds(double min, double input_max, int64_t bins, bool nice) {
  if (!std::isfinite(min) || !std::isfinite(input_max)) {
    throw InvalidInputError("equi_width_bins: min and max must be finite, not {} and {}", min,
                            input_max);
  }
  const auto count = static_cast<double>(bins);
  const double span = input_max - min;
  // A span past the doubles' range is computed in halves.
  double step = std::isfinite(span) ? span / count : input_max / count - min / count;
  const double step_power = PowerOfTenBelow(step);
  double max = input_max;
  auto limit = static_cast<size_t>(bins);
  if (nice) {
    step = Nice(step, step);
    max = RoundTo(input_max, step, Rounding::kUp);
    limit *= 2;
  }
  if (!(step > 0)) {
    throw InvalidInputError("equi_width_bins: the bins of [{}, {}] are too narrow", min, input_max);
  }
  // Repeated subtraction drifts: each bound is rounded at the step's decimal.
  const double decimals = 10 / step_power;
  std::vector<double> out;
  for (double bound = max; bound > min; bound -= step) {
    const double value = nice ? std::round(bound * decimals) / decimals : bound;
    if (!out.empty() && out.back() == value) continue;
    if (value <= min || out.size() >= limit) break;
    out.push_back(value);
  }
  return out;
}

// ---- TIMESTAMP bins ----

/// A timestamp's calendar fields.
struct Fields {
  int64_t year;
  unsigned month, day;
  int64_t hour, minute, second, micros;
};

constexpr int64_t kHourMicros = 3600 * kMicrosPerSecond, kMinuteMicros = 60 * kMicrosPerSecond;

Fields FieldsOf(int64_t ts) {
  Fields f;
  const int64_t days = FloorDiv(ts, kMicrosPerDay);
  CivilFromDays(days, &f.year, &f.month, &f.day);
  int64_t rest = ts - days * kMicrosPerDay;
  f.hour = rest / kHourMicros;
  rest %= kHourMicros;
  f.minute = rest / kMinuteMicros;
  rest %= kMinuteMicros;
  f.second = rest / kMicrosPerSecond;
  f.micros = rest % kMicrosPerSecond;
  return f;
}

int64_t TimestampOf(const Fields& f) {
  return int64_t{DaysFromCivil(f.year, f.month, f.day)} * kMicrosPerDay + f.hour * kHourMicros +
         f.minute * kMinuteMicros + f.second * kMicrosPerSecond + f.micros;
}

void NextMonth(Fields& f) {
  if (++f.month == 13) {
    f.year++;
    f.month = 1;
  }
}
void NextDay(Fields& f) {
  if (++f.day > DaysInMonth(f.year, f.month)) {
    NextMonth(f);
    f.day = 1;
  }
}
void NextHour(Fields& f) {
  if (++f.hour == 24) {
    NextDay(f);
    f.hour = 0;
  }
}
void NextMinute(Fields& f) {
  if (++f.minute == 60) {
    NextHour(f);
    f.minute = 0;
  }
}
void NextSecond(Fields& f) {
  if (++f.second == 60) {
    NextMinute(f);
    f.second = 0;
  }
}

/// The step rounded to units that suit its size (DuckDB's): no days beside half a year or more,
/// no time beside months or 5 days, whole hours from 6 hours, quarter hours from an hour, ...
Interval NiceStep(Interval step) {
  auto round_to = [](int64_t n, int64_t unit) { return (n + unit / 2) / unit * unit; };
  if (step.months >= 6) {
    step.days = 0;
    step.micros = 0;
  } else if (step.months > 0 || step.days >= 5) {
    step.micros = 0;
  } else if (step.days > 0 || step.micros >= 6 * kHourMicros) {
    step.micros = round_to(step.micros, kHourMicros);
  } else if (step.micros >= kHourMicros) {
    step.micros = round_to(step.micros, 15 * kMinuteMicros);
  } else if (step.micros >= 10 * kMinuteMicros) {
    step.micros = round_to(step.micros, kMinuteMicros);
  } else if (step.micros >= kMinuteMicros) {
    step.micros = round_to(step.micros, 15 * kMicrosPerSecond);
  } else if (step.micros >= 10 * kMicrosPerSecond) {
    step.micros = round_to(step.micros, kMicrosPerSecond);
  }
  return step;
}

/// `f` rounded up to the unit the step counts in (months from a year, days, hours, ...).
int64_t NiceTimestamp(Fields f, const Interval& step) {
  const bool has_time = f.hour > 0 || f.minute > 0 || f.second > 0 || f.micros > 0;
  if (step.months >= 12) {
    if (f.day > 1 || has_time) {
      NextMonth(f);
      f.day = 1;
      f.hour = f.minute = f.second = f.micros = 0;
    }
  } else if (step.months > 0 || step.days >= 1) {
    if (has_time) {
      NextDay(f);
      f.hour = f.minute = f.second = f.micros = 0;
    }
  } else if (step.micros >= kHourMicros) {
    if (f.minute > 0 || f.second > 0 || f.micros > 0) {
      NextHour(f);
      f.minute = f.second = f.micros = 0;
    }
  } else if (step.micros >= kMinuteMicros) {
    if (f.second > 0 || f.micros > 0) {
      NextMinute(f);
      f.second = f.micros = 0;
    }
  } else if (step.micros >= kMicrosPerSecond) {
    if (f.micros > 0) {
      NextSecond(f);
      f.micros = 0;
    }
  }
  return TimestampOf(f);
}

/// ts - step (months first, the day clamped to the month's end), or nullopt past the range.
std::optional<int64_t> MinusStep(int64_t ts, const Interval& step) {
  int64_t days = FloorDiv(ts, kMicrosPerDay);
  const int64_t time_of_day = ts - days * kMicrosPerDay;
  if (step.months != 0) days = AddMonthsToDays(days, -int64_t{step.months});
  const int128_t out = int128_t{days - step.days} * kMicrosPerDay + time_of_day - step.micros;
  if (out < std::numeric_limits<int64_t>::min() || out > std::numeric_limits<int64_t>::max()) {
    return std::nullopt;
  }
  return static_cast<int64_t>(out);
}

/// The bounds from max down: without `nice` those of the microseconds; with it a step in the
/// calendar's units from the fields' differences, and max rounded up to the step's unit.
std::vector<int64_t> TimestampBounds(int64_t min, int64_t max, int64_t bins, bool nice) {
  if (!nice) return IntegerBounds(min, max, bins, false);
  const Fields lo = FieldsOf(min), hi = FieldsOf(max);
  const auto count = static_cast<double>(bins);
  double months =
      static_cast<double>((hi.year - lo.year) * 12 + (int64_t{hi.month} - lo.month)) / count;
  double days = static_cast<double>(int64_t{hi.day} - lo.day) / count;
  double micros = static_cast<double>(
                      (hi.hour - lo.hour) * kHourMicros + (hi.minute - lo.minute) * kMinuteMicros +
                      (hi.second - lo.second) * kMicrosPerSecond + (hi.micros - lo.micros)) /
                  count;
  // Fractions of a month go to days (30 a month), of a day to microseconds.
  if (months > 0) days += (months - std::floor(months)) * 30;
  if (days > 0) micros += (days - std::floor(days)) * static_cast<double>(kMicrosPerDay);
  Interval step{static_cast<int32_t>(months), static_cast<int32_t>(days),
                static_cast<int64_t>(micros)};
  step = NiceStep(step);
  std::optional<int64_t> bound = NiceTimestamp(hi, step);
  if (step.months <= 0 && step.days <= 0 && step.micros <= 0) step = Interval{0, 0, 1};
  std::vector<int64_t> out;
  while (bound && *bound >= min && static_cast<int64_t>(out.size()) < bins) {
    out.push_back(*bound);
    bound = MinusStep(*bound, step);
  }
  return out;
}

void CheckBinArguments(double min, double max, int64_t bins) {
  if (max < min) {
    throw InvalidInputError("equi_width_bins: max ({}) is smaller than min ({})", max, min);
  }
  if (bins <= 0) throw InvalidInputError("equi_width_bins: there must be > 0 bins, not {}", bins);
  if (bins > kMaxBinCount) {
    throw InvalidInputError("equi_width_bins: at most {} bins, not {}", kMaxBinCount, bins);
  }
}

/// The kernel over TIMESTAMP arguments (DATEs cast); the bounds are written as `element`.
ScalarKernel TimestampBinsKernel(LogicalType element) {
  return [element](const Args& in, idx_t count, Vector& result) {
    ListWriter writer(element);
    ForEachValidRow(in, count, result, [&](idx_t row) {
      const int64_t min = in[0]->data<int64_t>()[row], max = in[1]->data<int64_t>()[row];
      const int64_t bins = in[2]->data<int64_t>()[row];
      CheckBinArguments(static_cast<double>(min), static_cast<double>(max), bins);
      std::vector<int64_t> bounds{max};
      if (max != min) {
        bounds = TimestampBounds(min, max, bins, in[3]->data<uint8_t>()[row] != 0);
        bounds[0] = std::max(bounds[0], max);
        std::reverse(bounds.begin(), bounds.end());
      }
      writer.Clear();
      for (int64_t b : bounds)
        writer.AppendValue(CastValue(Value::Timestamp(b), element));
      result.data<StringRef>()[row] = result.AddString(writer.bytes());
    });
  };
}

/// The kernel over BIGINT (kInteger) or DOUBLE arguments; the bounds are written as `element`.
template <bool kInteger>
ScalarKernel BinsKernel(LogicalType element) {
  return [element](const Args& in, idx_t count, Vector& result) {
    ListWriter writer(element);
    ForEachValidRow(in, count, result, [&](idx_t row) {
      const int64_t bins = in[2]->data<int64_t>()[row];
      const bool nice = in[3]->data<uint8_t>()[row] != 0;
      writer.Clear();
      if constexpr (kInteger) {
        const int64_t min = in[0]->data<int64_t>()[row], max = in[1]->data<int64_t>()[row];
        CheckBinArguments(static_cast<double>(min), static_cast<double>(max), bins);
        std::vector<int64_t> bounds{max};
        if (max != min) {
          bounds = IntegerBounds(min, max, bins, nice);
          bounds[0] = std::max(bounds[0], max);
          std::reverse(bounds.begin(), bounds.end());
        }
        for (int64_t b : bounds)
          writer.AppendValue(CastValue(Value::Bigint(b), element));
      } else {
        const double min = in[0]->data<double>()[row], max = in[1]->data<double>()[row];
        CheckBinArguments(min, max, bins);
        std::vector<double> bounds{max};
        if (max != min) {
          bounds = DoubleBounds(min, max, bins, nice);
          if (bounds.empty()) bounds.push_back(max);
          bounds[0] = std::max(bounds[0], max);
          std::reverse(bounds.begin(), bounds.end());
        }
        for (double b : bounds)
          writer.AppendValue(Value::Double(b));
      }
      result.data<StringRef>()[row] = result.AddString(writer.bytes());
    });
  };
}

std::optional<BoundScalarFunction> ResolveBins(const std::vector<LogicalType>& args) {
  if (args.size() != 4) return std::nullopt;
  const LogicalType bigint = LogicalType::Bigint(), boolean = LogicalType::Boolean();
  auto temporal = [](const LogicalType& t) {
    return t.id() == TypeId::kDate || t.id() == TypeId::kTimestamp;
  };
  if ((temporal(args[0]) || temporal(args[1])) && (!args[0].valid() || temporal(args[0])) &&
      (!args[1].valid() || temporal(args[1])) &&
      (!args[2].valid() || args[2].id() == TypeId::kInteger || args[2].id() == TypeId::kBigint) &&
      (!args[3].valid() || args[3].id() == TypeId::kBoolean)) {
    // The bounds have max's type (a DATE's are the dates of the bounds).
    const LogicalType ts = LogicalType::Timestamp();
    const LogicalType element = args[1].valid() ? args[1] : ts;
    return MakeBound({ts, ts, bigint, boolean}, LogicalType::List(element),
                     TimestampBinsKernel(element));
  }
  for (size_t i = 0; i < 2; i++) {
    if (args[i].valid() && !args[i].IsNumeric()) return std::nullopt;
  }
  if ((args[2].valid() && args[2].id() != TypeId::kInteger && args[2].id() != TypeId::kBigint) ||
      (args[3].valid() && args[3].id() != TypeId::kBoolean)) {
    return std::nullopt;
  }
  auto exact = [](const LogicalType& t) {
    return !t.valid() || t.id() == TypeId::kInteger || t.id() == TypeId::kBigint;
  };
  if (exact(args[0]) && exact(args[1])) {
    // The bounds have max's type, as DuckDB's.
    const LogicalType element = args[1].valid() ? args[1] : bigint;
    return MakeBound({bigint, bigint, bigint, boolean}, LogicalType::List(element),
                     BinsKernel<true>(element));
  }
  const LogicalType dbl = LogicalType::Double();
  return MakeBound({dbl, dbl, bigint, boolean}, LogicalType::List(dbl), BinsKernel<false>(dbl));
}

}  // namespace

void RegisterBinningFunctions(FunctionRegistry& registry) {
  registry.Register("equi_width_bins", ResolveBins,
                    "equi_width_bins(min, max, BIGINT, BOOLEAN) (numbers, DATE, TIMESTAMP)");
}

}  // namespace function_internal
}  // namespace shears

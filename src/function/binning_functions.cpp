// equi_width_bins(min, max, bins, nice): the upper bounds of about `bins` equal-width bins
// over [min, max], as DuckDB computes them (for histogram(x, bounds)). With `nice` the width is
// rounded to 1, 2 or 5 times a power of ten and the bounds are multiples of it, so there may be
// up to twice as many bins; the last bound is always max. Integers are computed in thousandths
// (128 bits) so that truncation does not pile up; doubles round each bound at the width's
// decimal. The result is a LIST of max's type (DOUBLE for DECIMAL and REAL).

#include <algorithm>
#include <cmath>
#include <limits>

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
  int128_t step = (max - min) / bins;
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
    throw InvalidInputError("equi_width_bins: the bins of [{}, {}] are too narrow", min,
                            input_max);
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

void CheckBinArguments(double min, double max, int64_t bins) {
  if (max < min) {
    throw InvalidInputError("equi_width_bins: max ({}) is smaller than min ({})", max, min);
  }
  if (bins <= 0) throw InvalidInputError("equi_width_bins: there must be > 0 bins, not {}", bins);
  if (bins > kMaxBinCount) {
    throw InvalidInputError("equi_width_bins: at most {} bins, not {}", kMaxBinCount, bins);
  }
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
                    "equi_width_bins(min, max, BIGINT, BOOLEAN) (numbers)");
}

}  // namespace function_internal
}  // namespace shears

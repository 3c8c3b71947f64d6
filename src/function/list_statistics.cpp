// Statistics of a list's non-NULL elements, DuckDB's list_ functions of the aggregates that
// need every value at once: list_mad, list_entropy, list_histogram, list_skewness,
// list_kurtosis, list_kurtosis_pop, list_any_value. The aggregates mad(x), entropy(x), ... are
// these over list(x) (planner/bind_aggregate.cpp), so both forms share one kernel.

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "common/interval.h"
#include "common/list.h"
#include "function/function_internal.h"

namespace shears {
namespace function_internal {
namespace {

using Args = std::vector<const Vector*>;

std::string_view ListAt(const Vector& vector, idx_t row) {
  return vector.data<StringRef>()[row].view();
}

/// The list argument's type: an untyped NULL is a NULL LIST(INTEGER); nullopt for another
/// type or arity.
std::optional<LogicalType> ListArgument(const std::vector<LogicalType>& args) {
  if (args.size() != 1) return std::nullopt;
  if (!args[0].valid()) return LogicalType::List(LogicalType::Integer());
  if (!args[0].IsList()) return std::nullopt;
  return args[0];
}

/// The non-NULL elements' raw bytes (tag included), sorted: equal values are equal bytes and
/// the bytes sort as the values do (common/list.h).
std::vector<std::string_view> SortedRawValues(const LogicalType& element, std::string_view list) {
  std::vector<std::string_view> raw;
  ListReader reader(element, list);
  while (reader.Next()) {
    if (!reader.IsNull()) raw.push_back(reader.raw());
  }
  std::sort(raw.begin(), raw.end());
  return raw;
}

/// Calls fn(begin, end) for each run of equal values in sorted `raw`.
template <typename Fn>
void ForEachRun(const std::vector<std::string_view>& raw, Fn fn) {
  for (size_t i = 0; i < raw.size();) {
    size_t j = i + 1;
    while (j < raw.size() && raw[j] == raw[i])
      j++;
    fn(i, j);
    i = j;
  }
}

/// A numeric element as a double (DECIMALs scaled).
double NumberOf(const Value& value, const LogicalType& type) {
  if (type.IsFloatingPoint()) return value.GetDouble();
  const auto unscaled = static_cast<double>(value.GetInt128());
  return type.id() == TypeId::kDecimal ? unscaled / std::pow(10.0, type.scale()) : unscaled;
}

std::vector<double> Numbers(const LogicalType& element, std::string_view list) {
  std::vector<double> out;
  ListReader reader(element, list);
  while (reader.Next()) {
    if (!reader.IsNull()) out.push_back(NumberOf(reader.GetValue(), element));
  }
  return out;
}

// ---------------------------------------------------------------- entropy, histogram

/// list_entropy: -sum(p log2 p) over the frequencies p of the distinct values; 0 without
/// values. kAggregate (entropy(x) over list(x)): a NULL list (no rows) is 0 too.
template <bool kAggregate>
std::optional<BoundScalarFunction> ResolveEntropy(const std::vector<LogicalType>& args) {
  const auto list = ListArgument(args);
  if (!list) return std::nullopt;
  return MakeBound(
      {*list}, LogicalType::Double(),
      [element = list->element()](const Args& in, idx_t count, Vector& result) {
        for (idx_t row = 0; row < count; row++) {
          if (in[0]->IsNull(row)) {
            if (kAggregate) {
              result.data<double>()[row] = 0;
            } else {
              result.validity().SetNull(row);
            }
            continue;
          }
          const auto raw = SortedRawValues(element, ListAt(*in[0], row));
          const auto n = static_cast<double>(raw.size());
          double entropy = 0;
          ForEachRun(raw, [&](size_t begin, size_t end) {
            const double p = static_cast<double>(end - begin) / n;
            entropy -= p * std::log2(p);
          });
          result.data<double>()[row] = entropy;
        }
      },
      /*null_propagating=*/!kAggregate);
}

/// list_histogram: MAP(value, count) of the non-NULL values, keys in order; NULL without
/// values. Counts are BIGINT (DuckDB's UBIGINT).
std::optional<BoundScalarFunction> ResolveHistogram(const std::vector<LogicalType>& args) {
  const auto list = ListArgument(args);
  if (!list) return std::nullopt;
  const LogicalType element = list->element().valid() ? list->element() : LogicalType::Integer();
  const LogicalType map = LogicalType::Map(element, LogicalType::Bigint());
  return MakeBound({LogicalType::List(element)}, map,
                   [element](const Args& in, idx_t count, Vector& result) {
                     ListWriter entries(element);
                     ListWriter entry(LogicalType::Bigint());
                     for (idx_t row = 0; row < count; row++) {
                       if (in[0]->IsNull(row)) {
                         result.validity().SetNull(row);
                         continue;
                       }
                       const auto raw = SortedRawValues(element, ListAt(*in[0], row));
                       if (raw.empty()) {
                         result.validity().SetNull(row);
                         continue;
                       }
                       entries.Clear();
                       ForEachRun(raw, [&](size_t begin, size_t end) {
                         // An entry is a STRUCT(key, value): its fields as list elements.
                         entry.Clear();
                         entry.AppendRaw(raw[begin]);
                         entry.AppendValue(Value::Bigint(static_cast<int64_t>(end - begin)));
                         entries.AppendNested(entry.bytes());
                       });
                       result.data<StringRef>()[row] = result.AddString(entries.bytes());
                     }
                   });
}

// ---------------------------------------------------------------- moments

struct PowerSums {
  double n = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0;
};

PowerSums SumsOf(const std::vector<double>& values) {
  PowerSums p;
  for (double x : values) {
    p.n += 1;
    p.s1 += x;
    p.s2 += x * x;
    p.s3 += x * x * x;
    p.s4 += x * x * x * x;
  }
  return p;
}

enum class Moment { kSkewness, kKurtosis, kKurtosisPop };

/// DuckDB's formulas over the power sums: skewness is the sample skewness (NULL for fewer
/// than 3 values, NaN without spread), kurtosis the sample excess kurtosis (NULL for fewer than 4
/// or no spread), kurtosis_pop the population's.
std::optional<double> MomentOf(Moment moment, const PowerSums& p) {
  const double n = p.n;
  const double t = 1 / n;
  if (moment == Moment::kSkewness) {
    if (n <= 2) return std::nullopt;
    const double cube = std::pow(t * (p.s2 - p.s1 * p.s1 * t), 3);
    const double div = std::sqrt(std::max(cube, 0.0));
    if (div == 0) return std::nan("");  // no spread: NaN, as DuckDB (kurtosis gives NULL)
    const double scale = std::sqrt(n * (n - 1)) / (n - 2);
    const double skewness =
        scale * t * (p.s3 - 3 * p.s2 * p.s1 * t + 2 * std::pow(p.s1, 3) * t * t) / div;
    if (!std::isfinite(skewness)) {
      throw OutOfRangeError("skewness is out of range (the sums overflow a DOUBLE)");
    }
    return skewness;
  }
  if (n <= (moment == Moment::kKurtosis ? 3 : 1)) return std::nullopt;
  const double m2 = t * (p.s2 - p.s1 * p.s1 * t);
  if (!(m2 > 0)) return std::nullopt;  // constant values (or rounding below 0)
  const double m4 = t * (p.s4 - 4 * p.s3 * p.s1 * t + 6 * p.s2 * p.s1 * p.s1 * t * t -
                         3 * std::pow(p.s1, 4) * std::pow(t, 3));
  const double kurtosis =
      moment == Moment::kKurtosisPop
          ? m4 / (m2 * m2) - 3
          : (n - 1) * ((n + 1) * m4 / (m2 * m2) - 3 * (n - 1)) / ((n - 2) * (n - 3));
  if (!std::isfinite(kurtosis)) {
    throw OutOfRangeError("kurtosis is out of range (the sums overflow a DOUBLE)");
  }
  return kurtosis;
}

template <Moment kMoment>
std::optional<BoundScalarFunction> ResolveMoment(const std::vector<LogicalType>& args) {
  const auto list = ListArgument(args);
  if (!list) return std::nullopt;
  const LogicalType element = list->element();
  if (element.valid() && !element.IsNumeric()) return std::nullopt;
  return MakeBound(
      {*list}, LogicalType::Double(), [element](const Args& in, idx_t count, Vector& result) {
        for (idx_t row = 0; row < count; row++) {
          if (in[0]->IsNull(row) || !element.valid()) {
            result.validity().SetNull(row);
            continue;
          }
          const auto value = MomentOf(kMoment, SumsOf(Numbers(element, ListAt(*in[0], row))));
          if (!value) {
            result.validity().SetNull(row);
            continue;
          }
          result.data<double>()[row] = *value;
        }
      });
}

// ---------------------------------------------------------------- mad

/// The median of `values` as quantile_cont computes it: the two middle values interpolated,
/// the step converted by `step` (truncated for DECIMALs, rounded for times).
template <typename T, typename Step>
T MedianOf(std::vector<T>& values, Step step) {
  std::sort(values.begin(), values.end());
  const double rn = static_cast<double>(values.size() - 1) * 0.5;
  const auto lo_index = static_cast<size_t>(std::floor(rn));
  const T lo = values[lo_index];
  if (std::ceil(rn) == std::floor(rn)) return lo;
  const T hi = values[lo_index + 1];
  return lo + step(hi - lo, rn - std::floor(rn));
}

/// The median absolute deviation: median(|x - median(x)|).
template <typename T, typename Step>
T MadOf(std::vector<T> values, Step step) {
  const T median = MedianOf(values, step);
  for (T& x : values)
    x = x < median ? median - x : x - median;
  return MedianOf(values, step);
}

/// list_mad: numbers give DOUBLE (REAL and DECIMAL keep their type), DATE and TIMESTAMP an
/// INTERVAL (days and time); NULL without values.
std::optional<BoundScalarFunction> ResolveMad(const std::vector<LogicalType>& args) {
  const auto list = ListArgument(args);
  if (!list) return std::nullopt;
  const LogicalType element = list->element();
  LogicalType result_type;
  if (!element.valid() || element.id() == TypeId::kInteger || element.id() == TypeId::kBigint ||
      element.id() == TypeId::kDouble) {
    result_type = LogicalType::Double();
  } else if (element.id() == TypeId::kFloat || element.id() == TypeId::kDecimal) {
    result_type = element;
  } else if (element.id() == TypeId::kDate || element.id() == TypeId::kTimestamp) {
    result_type = LogicalType::Interval();
  } else {
    return std::nullopt;
  }
  return MakeBound({*list}, result_type, [element](const Args& in, idx_t count, Vector& result) {
    for (idx_t row = 0; row < count; row++) {
      if (in[0]->IsNull(row) || !element.valid()) {
        result.validity().SetNull(row);
        continue;
      }
      ListReader reader(element, ListAt(*in[0], row));
      if (element.id() == TypeId::kDecimal) {
        std::vector<int128_t> values;
        while (reader.Next()) {
          if (!reader.IsNull()) values.push_back(reader.GetValue().GetInt128());
        }
        if (values.empty()) {
          result.validity().SetNull(row);
          continue;
        }
        StoreDecimal(result, row, MadOf(std::move(values), [](int128_t diff, double d) {
                       return static_cast<int128_t>(static_cast<double>(diff) * d);
                     }));
      } else if (element.id() == TypeId::kDate || element.id() == TypeId::kTimestamp) {
        // In microseconds, as TIMESTAMPs (a DATE is its midnight); in 128 bits, as the
        // difference of two far-apart times does not fit 64.
        std::vector<int128_t> values;
        while (reader.Next()) {
          if (reader.IsNull()) continue;
          const Value v = reader.GetValue();
          values.push_back(element.id() == TypeId::kDate ? v.GetInt128() * kMicrosPerIntervalDay
                                                         : v.GetInt128());
        }
        if (values.empty()) {
          result.validity().SetNull(row);
          continue;
        }
        const auto micros =
            static_cast<int64_t>(MadOf(std::move(values), [](int128_t diff, double d) {
              return static_cast<int128_t>(std::round(static_cast<double>(diff) * d));
            }));
        Interval interval;
        interval.days = static_cast<int32_t>(micros / kMicrosPerIntervalDay);
        interval.micros = micros % kMicrosPerIntervalDay;
        result.data<int128_t>()[row] = PackIntervalChecked(interval);
      } else {
        std::vector<double> values = Numbers(element, ListAt(*in[0], row));
        if (values.empty()) {
          result.validity().SetNull(row);
          continue;
        }
        result.data<double>()[row] =
            MadOf(std::move(values), [](double diff, double d) { return diff * d; });
      }
    }
  });
}

/// list_any_value: the first non-NULL element (NULL when there is none).
std::optional<BoundScalarFunction> ResolveAnyValue(const std::vector<LogicalType>& args) {
  const auto list = ListArgument(args);
  if (!list) return std::nullopt;
  const LogicalType element = list->element().valid() ? list->element() : LogicalType::Integer();
  return MakeBound({LogicalType::List(element)}, element,
                   [element](const Args& in, idx_t count, Vector& result) {
                     for (idx_t row = 0; row < count; row++) {
                       bool found = false;
                       if (!in[0]->IsNull(row)) {
                         ListReader reader(element, ListAt(*in[0], row));
                         while (!found && reader.Next()) {
                           if (reader.IsNull()) continue;
                           reader.WriteTo(result, row);
                           found = true;
                         }
                       }
                       if (!found) result.validity().SetNull(row);
                     }
                   });
}

}  // namespace

void RegisterListStatisticsFunctions(FunctionRegistry& registry) {
  // Each as list_<name> and array_<name>.
  const struct {
    const char* name;
    FunctionRegistry::Resolver resolver;
    const char* argument;
  } functions[] = {{"entropy", ResolveEntropy<false>, "LIST"},
                   {"histogram", ResolveHistogram, "LIST"},
                   {"skewness", ResolveMoment<Moment::kSkewness>, "numeric LIST"},
                   {"kurtosis", ResolveMoment<Moment::kKurtosis>, "numeric LIST"},
                   {"kurtosis_pop", ResolveMoment<Moment::kKurtosisPop>, "numeric LIST"},
                   {"mad", ResolveMad, "numeric, DATE or TIMESTAMP LIST"},
                   {"any_value", ResolveAnyValue, "LIST"}};
  for (const auto& f : functions) {
    for (const char* prefix : {"list_", "array_"}) {
      const std::string name = std::string(prefix) + f.name;
      registry.Register(name, f.resolver, name + "(" + f.argument + ")");
    }
  }
  registry.Register("__aggregate_entropy", ResolveEntropy<true>, "__aggregate_entropy(LIST)");
}

}  // namespace function_internal
}  // namespace shears

// Conditional functions (coalesce, nullif, greatest, least), math, hash(), md5 / sha256 and
// random().

#include <openssl/evp.h>
#include <xxhash.h>

#include <atomic>
#include <bit>
#include <cmath>
#include <numbers>
#include <random>
#include <string_view>
#include <type_traits>
#include <utility>

#include "common/version.h"
#include "function/function_internal.h"

namespace shears {

// ---- random(): one generator per thread (splitmix64), reseeded when SetRandomSeed runs ----

namespace {
std::atomic<uint64_t> g_seed{0};
std::atomic<uint64_t> g_seed_generation{0};  // 0: never seeded, threads pick a random seed
// Threads that restarted since the last seed: the first continues the seed's own sequence
// (so one thread is reproducible), later ones derive distinct streams from it.
std::atomic<uint64_t> g_seeded_threads{0};

struct ThreadRandom {
  uint64_t generation = ~uint64_t{0};
  uint64_t state = 0;
};
thread_local ThreadRandom t_random;

uint64_t Mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

double NextRandom() {
  const uint64_t generation = g_seed_generation.load(std::memory_order_acquire);
  if (t_random.generation != generation) {
    t_random.generation = generation;
    if (generation == 0) {
      std::random_device device;
      t_random.state = (uint64_t{device()} << 32) ^ device();
    } else {
      const uint64_t index = g_seeded_threads.fetch_add(1, std::memory_order_relaxed);
      const uint64_t seed = g_seed.load(std::memory_order_relaxed);
      t_random.state = index == 0 ? seed : Mix(seed ^ Mix(index));
    }
  }
  const uint64_t z = Mix(t_random.state += 0x9E3779B97F4A7C15ULL);
  return static_cast<double>(z >> 11) * 0x1.0p-53;  // [0, 1)
}
}  // namespace

void SetRandomSeed(uint64_t seed) {
  g_seed.store(seed, std::memory_order_relaxed);
  g_seeded_threads.store(0, std::memory_order_relaxed);
  g_seed_generation.fetch_add(1, std::memory_order_release);
}

namespace function_internal {
namespace {

using Args = std::vector<const Vector*>;

// ---------------------------------------------------------------- conditional

/// The common type of all arguments (NULLs ignored; all-NULL gives VARCHAR, as PostgreSQL
/// resolves unknown to text).
std::optional<LogicalType> CommonTypeOf(const std::vector<LogicalType>& args) {
  LogicalType common;
  for (const LogicalType& arg : args) {
    std::optional<LogicalType> next = CommonType(common, arg);
    if (!next) return std::nullopt;
    common = *next;
  }
  if (!common.valid()) return LogicalType::Varchar();
  return common;
}

template <typename T>
inline void CopyValue(Vector& result, idx_t row, const Vector& from) {
  result.data<T>()[row] = from.data<T>()[row];
}
template <>
inline void CopyValue<StringRef>(Vector& result, idx_t row, const Vector& from) {
  result.data<StringRef>()[row] = result.AddString(from.data<StringRef>()[row].view());
}

inline bool LessThan(uint8_t a, uint8_t b) {
  return a < b;
}
inline bool LessThan(int32_t a, int32_t b) {
  return a < b;
}
inline bool LessThan(int64_t a, int64_t b) {
  return a < b;
}
inline bool LessThan(int128_t a, int128_t b) {
  return a < b;
}
inline bool LessThan(double a, double b) {
  return !std::isnan(a) && (std::isnan(b) || a < b);
}
inline bool LessThan(StringRef a, StringRef b) {
  return a.view() < b.view();
}

inline bool Equals(double a, double b) {
  return a == b || (std::isnan(a) && std::isnan(b));
}
template <typename T>
inline bool Equals(T a, T b) {
  return a == b;
}

template <typename T>
void Coalesce(const Args& args, idx_t count, Vector& result) {
  for (idx_t row = 0; row < count; row++) {
    size_t i = 0;
    while (i < args.size() && args[i]->IsNull(row))
      i++;
    if (i == args.size()) {
      result.validity().SetNull(row);
    } else {
      CopyValue<T>(result, row, *args[i]);
    }
  }
}

/// greatest (kGreatest) / least: the extreme non-NULL argument.
template <typename T, bool kGreatest>
void Extreme(const Args& args, idx_t count, Vector& result) {
  for (idx_t row = 0; row < count; row++) {
    const Vector* best = nullptr;
    for (const Vector* arg : args) {
      if (arg->IsNull(row)) continue;
      if (!best) {
        best = arg;
        continue;
      }
      T value = arg->data<T>()[row], current = best->data<T>()[row];
      if (kGreatest ? LessThan(current, value) : LessThan(value, current)) best = arg;
    }
    if (best) {
      CopyValue<T>(result, row, *best);
    } else {
      result.validity().SetNull(row);
    }
  }
}

template <typename T>
void NullIf(const Args& args, idx_t count, Vector& result) {
  const Vector& a = *args[0];
  const Vector& b = *args[1];
  for (idx_t row = 0; row < count; row++) {
    if (a.IsNull(row) || (!b.IsNull(row) && Equals(a.data<T>()[row], b.data<T>()[row]))) {
      result.validity().SetNull(row);
    } else {
      CopyValue<T>(result, row, a);
    }
  }
}

using KernelFunction = void (*)(const Args&, idx_t, Vector&);

#define SHEARS_FOR_PHYSICAL(physical, TEMPLATE, ...)         \
  switch (physical) {                                        \
    case PhysicalType::kBool:                                \
      return TEMPLATE<uint8_t __VA_OPT__(, ) __VA_ARGS__>;   \
    case PhysicalType::kInt32:                               \
      return TEMPLATE<int32_t __VA_OPT__(, ) __VA_ARGS__>;   \
    case PhysicalType::kInt64:                               \
      return TEMPLATE<int64_t __VA_OPT__(, ) __VA_ARGS__>;   \
    case PhysicalType::kInt128:                              \
      return TEMPLATE<int128_t __VA_OPT__(, ) __VA_ARGS__>;  \
    case PhysicalType::kDouble:                              \
      return TEMPLATE<double __VA_OPT__(, ) __VA_ARGS__>;    \
    case PhysicalType::kString:                              \
      return TEMPLATE<StringRef __VA_OPT__(, ) __VA_ARGS__>; \
    case PhysicalType::kInvalid:                             \
      break;                                                 \
  }                                                          \
  throw InternalError("no kernel for an invalid type")

KernelFunction CoalesceFor(PhysicalType physical) {
  SHEARS_FOR_PHYSICAL(physical, Coalesce);
}
KernelFunction NullIfFor(PhysicalType physical) {
  SHEARS_FOR_PHYSICAL(physical, NullIf);
}
KernelFunction GreatestFor(PhysicalType physical) {
  SHEARS_FOR_PHYSICAL(physical, Extreme, true);
}
KernelFunction LeastFor(PhysicalType physical) {
  SHEARS_FOR_PHYSICAL(physical, Extreme, false);
}

#undef SHEARS_FOR_PHYSICAL

/// coalesce / greatest / least / nullif: every argument cast to the common type.
FunctionRegistry::Resolver VariadicResolver(KernelFunction (*kernel_for)(PhysicalType),
                                            size_t min_args, size_t max_args) {
  return [=](const std::vector<LogicalType>& args) -> std::optional<BoundScalarFunction> {
    if (args.size() < min_args || args.size() > max_args) return std::nullopt;
    std::optional<LogicalType> common = CommonTypeOf(args);
    if (!common) return std::nullopt;
    return MakeBound(std::vector<LogicalType>(args.size(), *common), *common,
                     kernel_for(common->physical()), /*null_propagating=*/false);
  };
}

// ---------------------------------------------------------------- math

const LogicalType kInteger = LogicalType::Integer();
const LogicalType kBigint = LogicalType::Bigint();
const LogicalType kDouble = LogicalType::Double();

ScalarKernel DoubleFunction(double (*fn)(double)) {
  return [fn](const Args& args, idx_t count, Vector& result) {
    UnaryLoop<double, double>(*args[0], count, result, fn);
  };
}

double CheckedSqrt(double x) {
  if (x < 0)
    throw OutOfRangeError("cannot take square root of a negative number ({})", FormatDouble(x));
  return std::sqrt(x);
}

enum class LogBase { kE, k10, k2 };

template <LogBase kBase>
double CheckedLog(double x) {
  if (x == 0) throw OutOfRangeError("cannot take logarithm of zero");
  if (x < 0)
    throw OutOfRangeError("cannot take logarithm of a negative number ({})", FormatDouble(x));
  switch (kBase) {
    case LogBase::kE:
      return std::log(x);
    case LogBase::k10:
      return std::log10(x);
    case LogBase::k2:
      break;
  }
  return std::log2(x);
}

double CheckedExp(double x) {
  double result = std::exp(x);
  if (std::isinf(result) && std::isfinite(x)) {
    throw OutOfRangeError("Overflow in exp({})", FormatDouble(x));
  }
  return result;
}

double CheckedPower(double base, double exponent) {
  if (base == 0 && exponent < 0) {
    throw OutOfRangeError("zero raised to a negative power is undefined");
  }
  if (base < 0 && std::isfinite(exponent) && std::floor(exponent) != exponent) {
    throw OutOfRangeError(
        "a negative number raised to a non-integer power yields a complex result");
  }
  double result = std::pow(base, exponent);
  if (std::isinf(result) && std::isfinite(base) && std::isfinite(exponent)) {
    throw OutOfRangeError("Overflow in power({}, {})", FormatDouble(base), FormatDouble(exponent));
  }
  return result;
}

double RoundDouble(double x, int64_t digits) {
  if (!std::isfinite(x)) return x;
  if (digits > 300 || digits < -300) return digits > 0 ? x : 0.0 * x;
  const double factor = std::pow(10.0, static_cast<double>(std::abs(digits)));
  double rounded = digits >= 0 ? std::round(x * factor) / factor : std::round(x / factor) * factor;
  return std::isfinite(rounded) ? rounded : x;  // x * factor overflowed: x has no such digits
}

/// Half to even at `digits` places: the scaled value rounded in the default (to nearest, ties
/// to even) mode.
double RoundEvenDouble(double x, int64_t digits) {
  if (!std::isfinite(x)) return x;
  if (digits > 300 || digits < -300) return digits > 0 ? x : 0.0 * x;
  const double factor = std::pow(10.0, static_cast<double>(std::abs(digits)));
  double rounded =
      digits >= 0 ? std::nearbyint(x * factor) / factor : std::nearbyint(x / factor) * factor;
  return std::isfinite(rounded) ? rounded : x;
}

double CheckedGamma(double x) {
  if (x == 0) throw OutOfRangeError("cannot take gamma of zero");
  return std::tgamma(x);
}

double TruncDouble(double x, int64_t digits) {
  if (!std::isfinite(x)) return x;
  if (digits > 300 || digits < -300) return digits > 0 ? x : 0.0 * x;
  const double factor = std::pow(10.0, static_cast<double>(std::abs(digits)));
  double cut = digits >= 0 ? std::trunc(x * factor) / factor : std::trunc(x / factor) * factor;
  return std::isfinite(cut) ? cut : x;
}

/// A decimal kernel reading and writing unscaled values of either width.
template <typename Op>
ScalarKernel DecimalUnary(Op op) {
  return [op](const Args& args, idx_t count, Vector& result) {
    ForEachValidRow(args, count, result, [&](idx_t row) {
      StoreDecimal(result, row, op(DecimalAt(*args[0], row), args, row));
    });
  };
}

int128_t FloorDecimal(int128_t v, int scale, bool ceiling) {
  if (scale == 0) return v;
  const int128_t divisor = Pow10(scale);
  int128_t q = v / divisor;
  const int128_t r = v % divisor;
  if (r != 0 && !ceiling && v < 0) q -= 1;
  if (r != 0 && ceiling && v > 0) q += 1;
  return q;
}

/// round(DECIMAL(p,s), digits): the value rounded to `digits` places, kept at scale s; the
/// result type has one more integer digit (99.95 rounds to 100.0).
int128_t RoundDecimalTo(int128_t v, int scale, int64_t digits, int128_t limit) {
  if (digits >= scale) return v;
  const int64_t drop = scale - digits;
  if (drop > 38) return 0;
  int128_t out;
  if (__builtin_mul_overflow(DivPow10Round(v, static_cast<int>(drop)),
                             Pow10(static_cast<int>(drop)), &out) ||
      out >= limit || out <= -limit) {
    throw OutOfRangeError("Overflow in round({}, {})", FormatDecimal(v, scale), digits);
  }
  return out;
}

/// trunc(DECIMAL(p,s), digits): the digits past `digits` places dropped (toward zero), kept at
/// scale s; the magnitude never grows, so DECIMAL(p,s) holds it.
int128_t TruncDecimalTo(int128_t v, int scale, int64_t digits) {
  if (digits >= scale) return v;
  const int64_t drop = scale - digits;
  if (drop > 38) return 0;
  const int128_t unit = Pow10(static_cast<int>(drop));
  return v / unit * unit;
}

void RegisterRoundingFamily(FunctionRegistry& registry) {
  // round / floor / ceil / trunc on INTEGER and BIGINT change nothing.
  for (const char* name : {"round", "floor", "ceil", "ceiling", "trunc"}) {
    for (const LogicalType& type : {kInteger, kBigint}) {
      RegisterFixed(registry, name, {type}, type,
                    [](const Args& args, idx_t count, Vector& result) {
                      CastVector(*args[0], result, count);
                    });
    }
  }
  RegisterFixed(registry, "round", {kDouble}, kDouble,
                DoubleFunction([](double x) { return std::round(x); }));
  RegisterFixed(registry, "round", {kDouble, kInteger}, kDouble,
                [](const Args& args, idx_t count, Vector& result) {
                  BinaryLoop<double, int32_t, double>(*args[0], *args[1], count, result,
                                                      RoundDouble);
                });
  RegisterFixed(registry, "floor", {kDouble}, kDouble,
                DoubleFunction([](double x) { return std::floor(x); }));
  for (const char* name : {"ceil", "ceiling"}) {
    RegisterFixed(registry, name, {kDouble}, kDouble,
                  DoubleFunction([](double x) { return std::ceil(x); }));
  }
  RegisterFixed(registry, "trunc", {kDouble}, kDouble,
                DoubleFunction([](double x) { return std::trunc(x); }));
  RegisterFixed(registry, "trunc", {kDouble, kInteger}, kDouble,
                [](const Args& args, idx_t count, Vector& result) {
                  BinaryLoop<double, int32_t, double>(*args[0], *args[1], count, result,
                                                      TruncDouble);
                });

  // DECIMAL forms: exact numerics come in as DECIMAL only when no integer form fits.
  auto decimal_resolver = [](int mode) {
    // mode 0: round(x), 1: floor, 2: ceil, 3: trunc, 4: round(x, digits), 5: trunc(x, digits)
    return [mode](const std::vector<LogicalType>& args) -> std::optional<BoundScalarFunction> {
      if (args.size() != (mode >= 4 ? 2u : 1u)) return std::nullopt;
      std::optional<LogicalType> type = AsDecimal(args[0]);
      if (!args[0].valid()) type = LogicalType::Decimal(18, 3);
      if (!type) return std::nullopt;
      if (mode >= 4 && !CanImplicitCast(args[1], kInteger)) return std::nullopt;
      const int p = type->precision(), s = type->scale();
      if (mode == 5) {
        return MakeBound({*type, kInteger}, *type,
                         DecimalUnary([s](int128_t v, const Args& a, idx_t row) {
                           return TruncDecimalTo(v, s, a[1]->data<int32_t>()[row]);
                         }));
      }
      if (mode == 4) {
        LogicalType out = LogicalType::Decimal(std::min(p + 1, 38), s);
        const int128_t limit = Pow10(out.precision());
        return MakeBound({*type, kInteger}, out,
                         DecimalUnary([s, limit](int128_t v, const Args& a, idx_t row) {
                           return RoundDecimalTo(v, s, a[1]->data<int32_t>()[row], limit);
                         }));
      }
      LogicalType out =
          LogicalType::Decimal(std::max(1, std::min(p - s + (mode == 3 ? 0 : 1), 38)), 0);
      return MakeBound({*type}, out, DecimalUnary([s, mode](int128_t v, const Args&, idx_t) {
                         switch (mode) {
                           case 0:
                             return DivPow10Round(v, s);
                           case 1:
                             return FloorDecimal(v, s, false);
                           case 2:
                             return FloorDecimal(v, s, true);
                           default:
                             return s == 0 ? v : v / Pow10(s);
                         }
                       }));
    };
  };
  registry.Register("round", decimal_resolver(0), "round(DECIMAL)");
  registry.Register("round", decimal_resolver(4), "round(DECIMAL, INTEGER)");
  registry.Register("floor", decimal_resolver(1), "floor(DECIMAL)");
  registry.Register("ceil", decimal_resolver(2), "ceil(DECIMAL)");
  registry.Register("ceiling", decimal_resolver(2), "ceiling(DECIMAL)");
  registry.Register("trunc", decimal_resolver(3), "trunc(DECIMAL)");
  registry.Register("trunc", decimal_resolver(5), "trunc(DECIMAL, INTEGER)");
}

void RegisterAbsAndSign(FunctionRegistry& registry) {
  RegisterFixed(registry, "abs", {kInteger}, kInteger,
                [](const Args& args, idx_t count, Vector& result) {
                  UnaryLoop<int32_t, int32_t>(*args[0], count, result, [](int32_t v) {
                    if (v == std::numeric_limits<int32_t>::min()) {
                      throw OutOfRangeError("Overflow in abs of INTEGER ({})", v);
                    }
                    return v < 0 ? -v : v;
                  });
                });
  RegisterFixed(registry, "abs", {kBigint}, kBigint,
                [](const Args& args, idx_t count, Vector& result) {
                  UnaryLoop<int64_t, int64_t>(*args[0], count, result, [](int64_t v) {
                    if (v == std::numeric_limits<int64_t>::min()) {
                      throw OutOfRangeError("Overflow in abs of BIGINT ({})", v);
                    }
                    return v < 0 ? -v : v;
                  });
                });
  registry.Register(
      "abs",
      [](const std::vector<LogicalType>& args) -> std::optional<BoundScalarFunction> {
        if (args.size() != 1 || args[0].id() != TypeId::kDecimal) return std::nullopt;
        return MakeBound({args[0]}, args[0], DecimalUnary([](int128_t v, const Args&, idx_t) {
                           return v < 0 ? -v : v;
                         }));
      },
      "abs(DECIMAL)");
  RegisterFixed(registry, "abs", {kDouble}, kDouble,
                DoubleFunction([](double x) { return std::fabs(x); }));

  auto sign_of = [](auto v) -> int32_t { return (v > 0) - (v < 0); };
  RegisterFixed(registry, "sign", {kInteger}, kInteger,
                [sign_of](const Args& args, idx_t count, Vector& result) {
                  UnaryLoop<int32_t, int32_t>(*args[0], count, result, sign_of);
                });
  RegisterFixed(registry, "sign", {kBigint}, kInteger,
                [sign_of](const Args& args, idx_t count, Vector& result) {
                  UnaryLoop<int64_t, int32_t>(*args[0], count, result, sign_of);
                });
  registry.Register(
      "sign",
      [](const std::vector<LogicalType>& args) -> std::optional<BoundScalarFunction> {
        if (args.size() != 1 || args[0].id() != TypeId::kDecimal) return std::nullopt;
        return MakeBound({args[0]}, kInteger, [](const Args& a, idx_t count, Vector& result) {
          int32_t* out = result.data<int32_t>();
          ForEachValidRow(a, count, result, [&](idx_t row) {
            int128_t v = DecimalAt(*a[0], row);
            out[row] = (v > 0) - (v < 0);
          });
        });
      },
      "sign(DECIMAL)");
  RegisterFixed(registry, "sign", {kDouble}, kDouble, DoubleFunction([](double x) {
                  return std::isnan(x) ? x : static_cast<double>((x > 0) - (x < 0));
                }));
}

// ---------------------------------------------------------------- hash

constexpr uint64_t kHashSeed = 0x5348454152530001ULL;  // "SHEARS", fixed across runs
constexpr uint64_t kNullHashInput = 0x9AE16A3B2F90404FULL;

/// Folds each row's value of `arg` into `hashes` (one running hash per row).
void HashColumn(const Vector& arg, idx_t count, uint64_t* hashes) {
  const bool all_valid = arg.validity().AllValid();
  auto fold = [&](idx_t row, const void* data, size_t size) {
    if (!all_valid && arg.IsNull(row)) {
      hashes[row] = XXH64(&kNullHashInput, sizeof(kNullHashInput), hashes[row]);
    } else {
      hashes[row] = XXH64(data, size, hashes[row]);
    }
  };
  switch (arg.type().physical()) {
    case PhysicalType::kDouble: {
      const double* values = arg.data<double>();
      for (idx_t row = 0; row < count; row++) {
        // Equal values hash equally: -0.0 as 0.0, every NaN as one NaN.
        double v = values[row];
        if (v == 0) v = 0.0;
        if (std::isnan(v)) v = std::numeric_limits<double>::quiet_NaN();
        fold(row, &v, sizeof(v));
      }
      return;
    }
    case PhysicalType::kString: {
      const StringRef* values = arg.data<StringRef>();
      for (idx_t row = 0; row < count; row++)
        fold(row, values[row].ptr, values[row].len);
      return;
    }
    default: {
      const size_t width = arg.type().value_size();
      const uint8_t* values = arg.data<uint8_t>();
      for (idx_t row = 0; row < count; row++)
        fold(row, values + row * width, width);
      return;
    }
  }
}

std::optional<BoundScalarFunction> ResolveHash(const std::vector<LogicalType>& args) {
  if (args.empty()) return std::nullopt;
  std::vector<LogicalType> types;
  for (const LogicalType& arg : args)
    types.push_back(arg.valid() ? arg : kInteger);
  return MakeBound(
      std::move(types), kBigint,
      [](const Args& a, idx_t count, Vector& result) {
        int64_t* out = result.data<int64_t>();
        std::vector<uint64_t> hashes(count, kHashSeed);
        for (const Vector* arg : a)
          HashColumn(*arg, count, hashes.data());
        for (idx_t row = 0; row < count; row++) {
          out[row] = static_cast<int64_t>(hashes[row]);
        }
      },
      /*null_propagating=*/false);
}

// ---------------------------------------------------------------- more math

double CheckedInverseTrig(double x, double (*fn)(double), const char* name) {
  if (x < -1 || x > 1)
    throw OutOfRangeError("{}({}) is out of range [-1, 1]", name, FormatDouble(x));
  return fn(x);
}

template <typename T>
T Gcd(T a, T b) {
  // On magnitudes as unsigned values: gcd(INT64_MIN, 0) is 2^63, which does not fit.
  using U = std::make_unsigned_t<T>;
  U x = a < 0 ? U(0) - U(a) : U(a), y = b < 0 ? U(0) - U(b) : U(b);
  while (y != 0)
    x = std::exchange(y, x % y);
  if (x > static_cast<U>(std::numeric_limits<T>::max())) {
    throw OutOfRangeError("Overflow in gcd({}, {})", a, b);
  }
  return static_cast<T>(x);
}

template <typename T>
T Lcm(T a, T b) {
  if (a == 0 || b == 0) return 0;
  T product;
  if (__builtin_mul_overflow(a / Gcd(a, b), b, &product) ||
      product == std::numeric_limits<T>::min()) {
    throw OutOfRangeError("Overflow in lcm({}, {})", a, b);
  }
  return product < 0 ? -product : product;
}

template <typename T>
void RegisterIntegerPair(FunctionRegistry& registry, const char* name, const LogicalType& type,
                         T (*fn)(T, T)) {
  RegisterFixed(registry, name, {type, type}, type,
                [fn](const Args& args, idx_t count, Vector& result) {
                  BinaryLoop<T, T, T>(*args[0], *args[1], count, result, fn);
                });
}

/// Bitwise operators on INTEGER and BIGINT (PostgreSQL's and DuckDB's): & | # (xor) << >> and
/// the prefix ~. A shift by a negative count or by the width or more is an error.
template <typename T>
void RegisterBitwise(FunctionRegistry& registry, const LogicalType& type) {
  RegisterIntegerPair<T>(registry, "&", type, [](T a, T b) -> T { return a & b; });
  RegisterIntegerPair<T>(registry, "|", type, [](T a, T b) -> T { return a | b; });
  for (const char* name : {"#", "xor"}) {
    RegisterIntegerPair<T>(registry, name, type, [](T a, T b) -> T { return a ^ b; });
  }
  constexpr T kBits = sizeof(T) * 8;
  RegisterIntegerPair<T>(registry, "<<", type, [](T a, T b) -> T {
    if (b < 0 || b >= kBits) throw OutOfRangeError("shift by {} is out of range", b);
    return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) << b);
  });
  RegisterIntegerPair<T>(registry, ">>", type, [](T a, T b) -> T {
    if (b < 0 || b >= kBits) throw OutOfRangeError("shift by {} is out of range", b);
    return a >> b;
  });
  RegisterFixed(registry, "~", {type}, type, [](const Args& args, idx_t count, Vector& result) {
    UnaryLoop<T, T>(*args[0], count, result, [](T v) -> T { return ~v; });
  });
  RegisterFixed(registry, "bit_count", {type}, kInteger,
                [](const Args& args, idx_t count, Vector& result) {
                  UnaryLoop<T, int32_t>(*args[0], count, result, [](T v) {
                    return std::popcount(static_cast<std::make_unsigned_t<T>>(v));
                  });
                });
}

void RegisterMoreMath(FunctionRegistry& registry) {
  RegisterFixed(registry, "sin", {kDouble}, kDouble,
                DoubleFunction([](double x) { return std::sin(x); }));
  RegisterFixed(registry, "cos", {kDouble}, kDouble,
                DoubleFunction([](double x) { return std::cos(x); }));
  RegisterFixed(registry, "tan", {kDouble}, kDouble,
                DoubleFunction([](double x) { return std::tan(x); }));
  RegisterFixed(registry, "cot", {kDouble}, kDouble,
                DoubleFunction([](double x) { return 1.0 / std::tan(x); }));
  RegisterFixed(registry, "asin", {kDouble}, kDouble, DoubleFunction([](double x) {
                  return CheckedInverseTrig(
                      x, [](double v) { return std::asin(v); }, "asin");
                }));
  RegisterFixed(registry, "acos", {kDouble}, kDouble, DoubleFunction([](double x) {
                  return CheckedInverseTrig(
                      x, [](double v) { return std::acos(v); }, "acos");
                }));
  RegisterFixed(registry, "atan", {kDouble}, kDouble,
                DoubleFunction([](double x) { return std::atan(x); }));
  RegisterFixed(registry, "atan2", {kDouble, kDouble}, kDouble,
                [](const Args& args, idx_t count, Vector& result) {
                  BinaryLoop<double, double, double>(
                      *args[0], *args[1], count, result,
                      [](double y, double x) { return std::atan2(y, x); });
                });
  // nextafter(x, y): the next representable number after x toward y, in x's precision (REAL
  // values are held as doubles, so their step is a float's).
  RegisterFixed(registry, "nextafter", {kDouble, kDouble}, kDouble,
                [](const Args& args, idx_t count, Vector& result) {
                  BinaryLoop<double, double, double>(
                      *args[0], *args[1], count, result,
                      [](double x, double y) { return std::nextafter(x, y); });
                });
  RegisterFixed(registry, "nextafter", {LogicalType::Float(), LogicalType::Float()},
                LogicalType::Float(), [](const Args& args, idx_t count, Vector& result) {
                  BinaryLoop<double, double, double>(
                      *args[0], *args[1], count, result, [](double x, double y) {
                        return static_cast<double>(
                            std::nextafter(static_cast<float>(x), static_cast<float>(y)));
                      });
                });
  RegisterFixed(registry, "degrees", {kDouble}, kDouble,
                DoubleFunction([](double x) { return x * (180.0 / std::numbers::pi); }));
  RegisterFixed(registry, "radians", {kDouble}, kDouble,
                DoubleFunction([](double x) { return x * (std::numbers::pi / 180.0); }));
  // log(b, x): the logarithm of x to base b (PostgreSQL, DuckDB).
  RegisterFixed(registry, "log", {kDouble, kDouble}, kDouble,
                [](const Args& args, idx_t count, Vector& result) {
                  BinaryLoop<double, double, double>(
                      *args[0], *args[1], count, result, [](double base, double x) {
                        if (base <= 0 || base == 1) {
                          throw OutOfRangeError("cannot take logarithm to base {}",
                                                FormatDouble(base));
                        }
                        return CheckedLog<LogBase::kE>(x) / std::log(base);
                      });
                });
  // even(x): rounded away from zero to the next even integer (DuckDB).
  RegisterFixed(registry, "even", {kDouble}, kDouble, DoubleFunction([](double x) {
                  const double up = x < 0 ? std::floor(x) : std::ceil(x);
                  return std::fmod(up, 2.0) == 0 ? up : up + (x < 0 ? -1 : 1);
                }));
  const LogicalType boolean = LogicalType::Boolean();
  for (const auto& entry :
       {std::pair<const char*, bool (*)(double)>{"isnan", [](double x) { return std::isnan(x); }},
        {"isinf", [](double x) { return std::isinf(x); }},
        {"isfinite", [](double x) { return std::isfinite(x); }},
        {"signbit", [](double x) { return std::signbit(x); }}}) {
    // Not a structured binding: clang before 16 cannot capture one (the fuzz build is clang).
    bool (*test)(double) = entry.second;
    RegisterFixed(registry, entry.first, {kDouble}, boolean,
                  [test](const Args& args, idx_t count, Vector& result) {
                    UnaryLoop<double, uint8_t>(*args[0], count, result,
                                               [test](double x) -> uint8_t { return test(x); });
                  });
  }
  // isinf / isfinite of DuckDB's infinite DATEs and TIMESTAMPs (common/datetime.h).
  for (const bool finite : {false, true}) {
    const char* name = finite ? "isfinite" : "isinf";
    RegisterFixed(registry, name, {LogicalType::Date()}, boolean,
                  [finite](const Args& args, idx_t count, Vector& result) {
                    UnaryLoop<int32_t, uint8_t>(*args[0], count, result, [finite](int32_t d) {
                      return static_cast<uint8_t>(IsFiniteDate(d) == finite);
                    });
                  });
    RegisterFixed(registry, name, {LogicalType::Timestamp()}, boolean,
                  [finite](const Args& args, idx_t count, Vector& result) {
                    UnaryLoop<int64_t, uint8_t>(*args[0], count, result, [finite](int64_t t) {
                      return static_cast<uint8_t>(IsFiniteTimestamp(t) == finite);
                    });
                  });
  }
  RegisterIntegerPair<int32_t>(registry, "gcd", kInteger, Gcd<int32_t>);
  RegisterIntegerPair<int64_t>(registry, "gcd", kBigint, Gcd<int64_t>);
  RegisterIntegerPair<int32_t>(registry, "lcm", kInteger, Lcm<int32_t>);
  RegisterIntegerPair<int64_t>(registry, "lcm", kBigint, Lcm<int64_t>);
  // factorial(n) as DECIMAL(38,0): up to 33! (DuckDB's HUGEINT reaches the same).
  RegisterFixed(registry, "factorial", {kInteger}, LogicalType::Decimal(38, 0),
                [](const Args& args, idx_t count, Vector& result) {
                  ForEachValidRow(args, count, result, [&](idx_t row) {
                    const int32_t n = args[0]->data<int32_t>()[row];
                    if (n > 33) throw OutOfRangeError("Overflow in factorial({})", n);
                    int128_t f = 1;
                    for (int32_t i = 2; i <= n; i++)
                      f *= i;
                    StoreDecimal(result, row, f);
                  });
                });
  RegisterBitwise<int32_t>(registry, kInteger);
  RegisterBitwise<int64_t>(registry, kBigint);
}

/// md5 / sha256 of VARCHAR or BLOB bytes as lower-case hex (PostgreSQL's and DuckDB's form),
/// with OpenSSL's libcrypto.
ScalarKernel DigestKernel(const EVP_MD* (*algorithm)()) {
  return [algorithm](const Args& a, idx_t count, Vector& result) {
    const StringRef* in = a[0]->data<StringRef>();
    StringRef* out = result.data<StringRef>();
    const EVP_MD* md = algorithm();
    ForEachValidRow(a, count, result, [&](idx_t row) {
      unsigned char digest[EVP_MAX_MD_SIZE];
      unsigned int size = 0;
      if (EVP_Digest(in[row].ptr, in[row].len, digest, &size, md, nullptr) != 1) {
        throw InternalError("EVP_Digest failed");
      }
      static constexpr char kHex[] = "0123456789abcdef";
      char text[2 * EVP_MAX_MD_SIZE];
      for (unsigned int i = 0; i < size; i++) {
        text[2 * i] = kHex[digest[i] >> 4];
        text[2 * i + 1] = kHex[digest[i] & 15];
      }
      out[row] = result.AddString(std::string_view(text, 2 * size));
    });
  };
}

}  // namespace

// CAST(x AS UTINYINT / USMALLINT / UINTEGER / UBIGINT / TINYINT / SMALLINT): the binder casts
// to the type the narrow one maps onto (INTEGER, INTEGER, BIGINT, DECIMAL(20,0); INTEGER for
// both signed ones) and then calls one of these, which pass the values the narrow type holds
// and refuse the others (TRY_CAST: NULL), as DuckDB's casts do.
static void RegisterRangeChecks(FunctionRegistry& registry) {
  struct Narrow {
    const char* name;
    LogicalType type;
    int128_t min, max;
  };
  const Narrow types[] = {
      {"utinyint", kInteger, 0, 255},
      {"usmallint", kInteger, 0, 65535},
      {"uinteger", kBigint, 0, 4294967295},
      {"ubigint", LogicalType::Decimal(20, 0), 0, (static_cast<int128_t>(1) << 64) - 1},
      {"tinyint", kInteger, -128, 127},
      {"smallint", kInteger, -32768, 32767}};
  for (const Narrow& u : types) {
    for (const bool try_cast : {false, true}) {
      std::string upper = u.name;
      for (char& c : upper)
        c = static_cast<char>(c - 'a' + 'A');
      RegisterFixed(
          registry, std::string(try_cast ? "__try_check_" : "__check_") + u.name, {u.type}, u.type,
          [u, try_cast, upper](const Args& a, idx_t count, Vector& result) {
            const PhysicalType physical = u.type.physical();
            ForEachValidRow(a, count, result, [&](idx_t row) {
              int128_t value = 0;
              if (physical == PhysicalType::kInt32) {
                value = result.data<int32_t>()[row] = a[0]->data<int32_t>()[row];
              } else if (physical == PhysicalType::kInt64) {
                value = result.data<int64_t>()[row] = a[0]->data<int64_t>()[row];
              } else {
                value = result.data<int128_t>()[row] = a[0]->data<int128_t>()[row];
              }
              if (value >= u.min && value <= u.max) return;
              if (!try_cast) {
                throw OutOfRangeError("{} is out of range for {} ({} to {})", FormatInt128(value),
                                      upper, FormatInt128(u.min), FormatInt128(u.max));
              }
              result.validity().SetNull(row);
            });
          });
    }
  }
}

void RegisterMiscFunctions(FunctionRegistry& registry) {
  RegisterRangeChecks(registry);
  const size_t kMany = std::numeric_limits<size_t>::max();
  registry.Register("coalesce", VariadicResolver(CoalesceFor, 1, kMany), "coalesce(ANY, ...)");
  registry.Register("greatest", VariadicResolver(GreatestFor, 1, kMany), "greatest(ANY, ...)");
  registry.Register("least", VariadicResolver(LeastFor, 1, kMany), "least(ANY, ...)");
  registry.Register("nullif", VariadicResolver(NullIfFor, 2, 2), "nullif(ANY, ANY)");

  RegisterAbsAndSign(registry);
  RegisterRoundingFamily(registry);
  RegisterFixed(registry, "sqrt", {kDouble}, kDouble, DoubleFunction(CheckedSqrt));
  RegisterFixed(registry, "cbrt", {kDouble}, kDouble,
                DoubleFunction([](double x) { return std::cbrt(x); }));
  // gamma / lgamma (DuckDB): Γ(x) and ln|Γ(x)|; lgamma_r, as std::lgamma writes a global sign.
  RegisterFixed(registry, "gamma", {kDouble}, kDouble, DoubleFunction(CheckedGamma));
  RegisterFixed(registry, "lgamma", {kDouble}, kDouble, DoubleFunction([](double x) {
                  if (x == 0) throw OutOfRangeError("cannot take log gamma of zero");
                  int sign;
                  return ::lgamma_r(x, &sign);
                }));
  // round_even(x, digits): half to even at `digits` places, in DOUBLE (DuckDB).
  RegisterFixed(registry, "round_even", {kDouble, kInteger}, kDouble,
                [](const Args& args, idx_t count, Vector& result) {
                  BinaryLoop<double, int32_t, double>(*args[0], *args[1], count, result,
                                                      RoundEvenDouble);
                });
  RegisterFixed(registry, "ln", {kDouble}, kDouble, DoubleFunction(CheckedLog<LogBase::kE>));
  RegisterFixed(registry, "log10", {kDouble}, kDouble, DoubleFunction(CheckedLog<LogBase::k10>));
  RegisterFixed(registry, "log", {kDouble}, kDouble, DoubleFunction(CheckedLog<LogBase::k10>));
  RegisterFixed(registry, "log2", {kDouble}, kDouble, DoubleFunction(CheckedLog<LogBase::k2>));
  RegisterFixed(registry, "exp", {kDouble}, kDouble, DoubleFunction(CheckedExp));
  for (const char* name : {"power", "pow", "^"}) {
    RegisterFixed(registry, name, {kDouble, kDouble}, kDouble,
                  [](const Args& args, idx_t count, Vector& result) {
                    BinaryLoop<double, double, double>(*args[0], *args[1], count, result,
                                                       CheckedPower);
                  });
  }
  RegisterFixed(registry, "pi", {}, kDouble, [](const Args&, idx_t count, Vector& result) {
    std::fill_n(result.data<double>(), count, std::numbers::pi);
  });

  RegisterMoreMath(registry);

  registry.Register("hash", ResolveHash, "hash(ANY, ...)");
  for (const LogicalType& type : {LogicalType::Varchar(), LogicalType::Blob()}) {
    RegisterFixed(registry, "md5", {type}, LogicalType::Varchar(), DigestKernel(EVP_md5));
    RegisterFixed(registry, "sha256", {type}, LogicalType::Varchar(), DigestKernel(EVP_sha256));
    RegisterFixed(registry, "sha1", {type}, LogicalType::Varchar(), DigestKernel(EVP_sha1));
  }
  for (const char* name : {"random", "rand"}) {
    registry.Register(
        name,
        [](const std::vector<LogicalType>& args) -> std::optional<BoundScalarFunction> {
          if (!args.empty()) return std::nullopt;
          return MakeBound(
              {}, kDouble,
              [](const Args&, idx_t count, Vector& result) {
                double* out = result.data<double>();
                for (idx_t row = 0; row < count; row++)
                  out[row] = NextRandom();
              },
              true, /*deterministic=*/false);
        },
        std::string(name) + "()");
  }
  // uuid() / gen_random_uuid(): a random (version 4) UUID in its canonical text form, as
  // VARCHAR (shears has no UUID type). Drawn from a generator of its own per thread, seeded
  // from the system, so setseed does not make UUIDs repeat.
  for (const char* name : {"uuid", "gen_random_uuid"}) {
    registry.Register(
        name,
        [](const std::vector<LogicalType>& args) -> std::optional<BoundScalarFunction> {
          if (!args.empty()) return std::nullopt;
          return MakeBound(
              {}, LogicalType::Varchar(),
              [](const Args&, idx_t count, Vector& result) {
                thread_local std::mt19937_64 generator{(uint64_t{std::random_device{}()} << 32) ^
                                                       std::random_device{}()};
                StringRef* out = result.data<StringRef>();
                static constexpr char kHex[] = "0123456789abcdef";
                for (idx_t row = 0; row < count; row++) {
                  uint8_t bytes[16];
                  const uint64_t high = generator(), low = generator();
                  for (int i = 0; i < 8; i++) {
                    bytes[i] = static_cast<uint8_t>(high >> (8 * i));
                    bytes[8 + i] = static_cast<uint8_t>(low >> (8 * i));
                  }
                  bytes[6] = static_cast<uint8_t>((bytes[6] & 0x0F) | 0x40);  // version 4
                  bytes[8] = static_cast<uint8_t>((bytes[8] & 0x3F) | 0x80);  // RFC 4122 variant
                  char text[36];
                  size_t pos = 0;
                  for (int i = 0; i < 16; i++) {
                    if (i == 4 || i == 6 || i == 8 || i == 10) text[pos++] = '-';
                    text[pos++] = kHex[bytes[i] >> 4];
                    text[pos++] = kHex[bytes[i] & 15];
                  }
                  out[row] = result.AddString(std::string_view(text, sizeof(text)));
                }
              },
              true, /*deterministic=*/false);
        },
        std::string(name) + "()");
  }
  // version(): which engine answers, for scripts that ask.
  registry.Register(
      "version",
      [](const std::vector<LogicalType>& args) -> std::optional<BoundScalarFunction> {
        if (!args.empty()) return std::nullopt;
        return MakeBound({}, LogicalType::Varchar(), [](const Args&, idx_t count, Vector& result) {
          const std::string text = std::string("shears v") + kShearsVersion;
          StringRef* out = result.data<StringRef>();
          for (idx_t row = 0; row < count; row++)
            out[row] = result.AddString(text);
        });
      },
      "version()");
  // setseed(x), x in [-1, 1] as in PostgreSQL and DuckDB: later random() calls repeat the same
  // sequence (on one thread). Runs when the query runs, not when it is planned.
  registry.Register(
      "setseed",
      [](const std::vector<LogicalType>& args) -> std::optional<BoundScalarFunction> {
        if (args.size() != 1 ||
            !(args[0].id() == TypeId::kInvalid || CanImplicitCast(args[0], kDouble))) {
          return std::nullopt;
        }
        return MakeBound(
            {kDouble}, LogicalType::Varchar(),
            [](const Args& in, idx_t count, Vector& result) {
              for (idx_t row = 0; row < count; row++) {
                result.validity().SetNull(row);
                if (in[0]->IsNull(row)) throw InvalidInputError("setseed() needs a seed, not NULL");
                const double seed = in[0]->data<double>()[row];
                if (!(seed >= -1.0 && seed <= 1.0)) {
                  throw OutOfRangeError("setseed() takes a seed between -1 and 1, not {}", seed);
                }
                SetRandomSeed(static_cast<uint64_t>((seed + 1.0) * 0x1.0p52));
              }
            },
            /*null_propagating=*/false, /*deterministic=*/false);
      },
      "setseed(DOUBLE)");
}

}  // namespace function_internal
}  // namespace shears

// Arithmetic operators + - * / % and unary - / +, for INTEGER, BIGINT, DECIMAL, DOUBLE and
// the DATE / TIMESTAMP differences.
//
// Result types (docs/types.md): INTEGER op INTEGER stays INTEGER (overflow is an error, /
// truncates toward zero, as PostgreSQL), DECIMAL + - keep max(s1, s2) fraction digits and one
// more integer digit, * adds the scales, % keeps the larger scale; DECIMAL / is DOUBLE (DuckDB).
// REAL op INTEGER / DECIMAL is REAL, DOUBLE when an operand is DOUBLE. Division or modulo of
// integers and DECIMALs by zero is NULL; DOUBLE and REAL give IEEE's inf / NaN (DuckDB).
// `//` is integer division (INTEGER and BIGINT only).

#include <cmath>

#include "function/function_internal.h"

namespace shears {
namespace function_internal {
namespace {

/// Division and modulo of exact numbers by zero give NULL, as DuckDB's `//` and `%` and
/// SQLite's `/` do (PostgreSQL raises an error): the rows whose divisor `is_zero` become NULL.
template <typename IsZero>
void NullWhereZero(const Vector& divisor, idx_t count, Vector& result, IsZero is_zero) {
  const bool all_valid = divisor.validity().AllValid();
  for (idx_t i = 0; i < count; i++) {
    if ((all_valid || divisor.validity().IsValid(i)) && is_zero(divisor, i)) {
      result.validity().SetNull(i);
    }
  }
}

const char* OperationName(char op) {
  switch (op) {
    case '+':
      return "addition";
    case '-':
      return "subtraction";
    case '*':
      return "multiplication";
    case '/':
      return "division";
    default:
      return "modulo";
  }
}

bool AllValid(const Vector& a, const Vector& b) {
  return a.validity().AllValid() && b.validity().AllValid();
}

void PropagateNulls(const Vector& a, const Vector& b, idx_t count, Vector& result) {
  if (AllValid(a, b)) return;
  for (idx_t i = 0; i < count; i++) {
    if (!a.validity().IsValid(i) || !b.validity().IsValid(i)) result.validity().SetNull(i);
  }
}

// ---------------------------------------------------------------- integers

/// + - * on INTEGER / BIGINT (and DATE +/- days): computes every row with an overflow flag
/// (a loop the compiler vectorizes), then looks for the failing row only when a flag was set,
/// so garbage under NULL rows never raises an error.
template <typename T, typename Op>
void CheckedIntegerLoop(const Vector& a, const Vector& b, idx_t count, Vector& result, char op_char,
                        const LogicalType& type, Op op) {
  const T* left = a.data<T>();
  const T* right = b.data<T>();
  T* out = result.data<T>();
  bool overflow = false;
  for (idx_t i = 0; i < count; i++)
    overflow |= op(left[i], right[i], &out[i]);
  PropagateNulls(a, b, count, result);
  if (!overflow) [[likely]]
    return;
  for (idx_t i = 0; i < count; i++) {
    T ignored;
    if (a.validity().IsValid(i) && b.validity().IsValid(i) && op(left[i], right[i], &ignored)) {
      throw OutOfRangeError("Overflow in {} of {} ({} {} {})", OperationName(op_char),
                            type.ToString(), left[i], op_char, right[i]);
    }
  }
}

template <typename T>
ScalarKernel IntegerKernel(char op, LogicalType type) {
  switch (op) {
    case '+':
      return [type](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
        CheckedIntegerLoop<T>(*args[0], *args[1], count, result, '+', type,
                              [](T l, T r, T* o) { return __builtin_add_overflow(l, r, o); });
      };
    case '-':
      return [type](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
        CheckedIntegerLoop<T>(*args[0], *args[1], count, result, '-', type,
                              [](T l, T r, T* o) { return __builtin_sub_overflow(l, r, o); });
      };
    case '*':
      return [type](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
        CheckedIntegerLoop<T>(*args[0], *args[1], count, result, '*', type,
                              [](T l, T r, T* o) { return __builtin_mul_overflow(l, r, o); });
      };
    case '/':
      return [type](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
        BinaryLoop<T, T, T>(*args[0], *args[1], count, result, [&](T l, T r) -> T {
          if (r == 0) return 0;  // NULL, below
          if (r == -1) {
            if (l == std::numeric_limits<T>::min()) {
              throw OutOfRangeError("Overflow in division of {} ({} / {})", type.ToString(), l, r);
            }
            return -l;
          }
          return l / r;
        });
        NullWhereZero(*args[1], count, result,
                      [](const Vector& v, idx_t i) { return v.data<T>()[i] == 0; });
      };
    default:  // '%': the sign follows the dividend, as in C and PostgreSQL
      return [](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
        BinaryLoop<T, T, T>(*args[0], *args[1], count, result,
                            [](T l, T r) -> T { return r == 0 || r == -1 ? 0 : l % r; });
        NullWhereZero(*args[1], count, result,
                      [](const Vector& v, idx_t i) { return v.data<T>()[i] == 0; });
      };
  }
}

// ---------------------------------------------------------------- doubles

ScalarKernel DoubleKernel(char op) {
  switch (op) {
    case '+':
      return [](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
        BinaryLoop<double, double, double>(*args[0], *args[1], count, result,
                                           [](double l, double r) { return l + r; });
      };
    case '-':
      return [](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
        BinaryLoop<double, double, double>(*args[0], *args[1], count, result,
                                           [](double l, double r) { return l - r; });
      };
    case '*':
      return [](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
        BinaryLoop<double, double, double>(*args[0], *args[1], count, result,
                                           [](double l, double r) { return l * r; });
      };
    case '/':  // IEEE: x / 0 is +-inf, 0 / 0 NaN (DuckDB)
      return [](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
        BinaryLoop<double, double, double>(*args[0], *args[1], count, result,
                                           [](double l, double r) { return l / r; });
      };
    default:  // x % 0 is NaN (DuckDB)
      return [](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
        BinaryLoop<double, double, double>(*args[0], *args[1], count, result,
                                           [](double l, double r) { return std::fmod(l, r); });
      };
  }
}

/// REAL op REAL: the double operation, rounded to float; a finite result past the float
/// range is an overflow error (PostgreSQL's "value out of range" for real).
ScalarKernel FloatKernel(char op) {
  ScalarKernel wide = DoubleKernel(op);
  return [wide, op](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
    wide(args, count, result);
    double* out = result.data<double>();
    const bool all_valid = result.validity().AllValid();
    for (idx_t i = 0; i < count; i++) {
      if (!all_valid && !result.validity().IsValid(i)) continue;
      const float f = static_cast<float>(out[i]);
      if (std::isinf(f) && !std::isinf(out[i])) [[unlikely]] {
        throw OutOfRangeError("Overflow in {} of REAL ({} {} {})", OperationName(op),
                              FormatFloat(static_cast<float>(args[0]->data<double>()[i])), op,
                              FormatFloat(static_cast<float>(args[1]->data<double>()[i])));
      }
      out[i] = f;
    }
  };
}

// ---------------------------------------------------------------- decimals

struct DecimalOperands {
  LogicalType left, right, result;
};

[[noreturn]] void ThrowDecimalOverflow(char op, const DecimalOperands& types, int128_t l,
                                       int128_t r) {
  throw OutOfRangeError("Overflow in {} of {} ({} {} {})", OperationName(op),
                        types.result.ToString(), FormatDecimal(l, types.left.scale()), op,
                        FormatDecimal(r, types.right.scale()));
}

/// The checked int128 form of one decimal operation; `op` gets unscaled inputs and returns
/// false on overflow.
template <typename Op>
void DecimalWideLoop(const Vector& a, const Vector& b, idx_t count, Vector& result, char op_char,
                     const DecimalOperands& types, Op op) {
  const bool all_valid = AllValid(a, b);
  for (idx_t i = 0; i < count; i++) {
    if (!all_valid && (!a.validity().IsValid(i) || !b.validity().IsValid(i))) {
      result.validity().SetNull(i);
      continue;
    }
    int128_t l = DecimalAt(a, i), r = DecimalAt(b, i), out;
    if (!op(l, r, &out)) [[unlikely]]
      ThrowDecimalOverflow(op_char, types, l, r);
    StoreDecimal(result, i, out);
  }
}

bool AllInt64(const Vector& a, const Vector& b, const Vector& result) {
  return a.type().physical() == PhysicalType::kInt64 &&
         b.type().physical() == PhysicalType::kInt64 &&
         result.type().physical() == PhysicalType::kInt64;
}

ScalarKernel DecimalKernel(char op, DecimalOperands types) {
  const int128_t limit = Pow10(types.result.precision());
  switch (op) {
    case '+':
    case '-': {
      const int scale = types.result.scale();
      const int128_t left_factor = Pow10(scale - types.left.scale());
      const int128_t right_factor = Pow10(scale - types.right.scale());
      const bool subtract = op == '-';
      return [=](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
        const Vector& a = *args[0];
        const Vector& b = *args[1];
        if (AllInt64(a, b, result)) {
          // The result precision is at most 18 digits, so nothing here can overflow.
          const int64_t lf = static_cast<int64_t>(left_factor);
          const int64_t rf = static_cast<int64_t>(right_factor);
          BinaryLoop<int64_t, int64_t, int64_t>(a, b, count, result, [=](int64_t l, int64_t r) {
            return subtract ? l * lf - r * rf : l * lf + r * rf;
          });
          return;
        }
        DecimalWideLoop(a, b, count, result, op, types, [=](int128_t l, int128_t r, int128_t* o) {
          int128_t ls, rs;
          if (__builtin_mul_overflow(l, left_factor, &ls) ||
              __builtin_mul_overflow(r, right_factor, &rs)) {
            return false;
          }
          bool overflow =
              subtract ? __builtin_sub_overflow(ls, rs, o) : __builtin_add_overflow(ls, rs, o);
          return !overflow && *o<limit&& * o> - limit;
        });
      };
    }
    case '*':
      return [=](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
        const Vector& a = *args[0];
        const Vector& b = *args[1];
        if (AllInt64(a, b, result)) {
          // p1 + p2 <= 18: the product fits.
          BinaryLoop<int64_t, int64_t, int64_t>(a, b, count, result,
                                                [](int64_t l, int64_t r) { return l * r; });
          return;
        }
        DecimalWideLoop(a, b, count, result, '*', types, [=](int128_t l, int128_t r, int128_t* o) {
          return !__builtin_mul_overflow(l, r, o) && *o<limit&& * o> - limit;
        });
      };
    default: {  // '%'
      const int scale = types.result.scale();
      const int128_t left_factor = Pow10(scale - types.left.scale());
      const int128_t right_factor = Pow10(scale - types.right.scale());
      return [=](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
        DecimalWideLoop(*args[0], *args[1], count, result, '%', types,
                        [=](int128_t l, int128_t r, int128_t* o) {
                          if (r == 0) {  // NULL, below
                            *o = 0;
                            return true;
                          }
                          int128_t ls, rs;
                          if (__builtin_mul_overflow(l, left_factor, &ls) ||
                              __builtin_mul_overflow(r, right_factor, &rs)) {
                            return false;
                          }
                          *o = ls % rs;
                          return true;
                        });
        NullWhereZero(*args[1], count, result,
                      [](const Vector& v, idx_t i) { return DecimalAt(v, i) == 0; });
      };
    }
  }
}

/// Resolves DECIMAL op DECIMAL, where INTEGER / BIGINT arguments count as DECIMAL(10,0) /
/// DECIMAL(19,0) and a NULL takes the other side's type.
FunctionRegistry::Resolver DecimalResolver(char op) {
  return [op](const std::vector<LogicalType>& args) -> std::optional<BoundScalarFunction> {
    if (args.size() != 2) return std::nullopt;
    std::optional<LogicalType> left = AsDecimal(args[0]), right = AsDecimal(args[1]);
    if (!args[0].valid()) left = right;
    if (!args[1].valid()) right = left;
    if (!left || !right) return std::nullopt;
    const int p1 = left->precision(), s1 = left->scale();
    const int p2 = right->precision(), s2 = right->scale();
    LogicalType result;
    if (op == '*') {
      if (s1 + s2 > LogicalType::kMaxDecimalPrecision) {
        throw BinderError("DECIMAL multiplication needs scale {} ({} * {}), more than {} digits",
                          s1 + s2, left->ToString(), right->ToString(),
                          LogicalType::kMaxDecimalPrecision);
      }
      result = LogicalType::Decimal(std::min(p1 + p2, 38), s1 + s2);
    } else {
      const int scale = std::max(s1, s2);
      const int extra = op == '%' ? 0 : 1;  // a sum needs one more digit; a remainder none
      result =
          LogicalType::Decimal(std::min(std::max(p1 - s1, p2 - s2) + scale + extra, 38), scale);
    }
    BoundScalarFunction bound =
        MakeBound({*left, *right}, result, DecimalKernel(op, {*left, *right, result}));
    // + - * run BinaryLoop or DecimalWideLoop, which pass over NULL rows.
    bound.skips_null_rows = op != '%';
    return bound;
  };
}

// ---------------------------------------------------------------- unary

template <typename T>
ScalarKernel NegateInteger(LogicalType type) {
  return [type](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
    UnaryLoop<T, T>(*args[0], count, result, [&](T v) {
      if (v == std::numeric_limits<T>::min()) [[unlikely]] {
        throw OutOfRangeError("Overflow in negation of {} (-({}))", type.ToString(), v);
      }
      return -v;
    });
  };
}

void Identity(const std::vector<const Vector*>& args, idx_t count, Vector& result) {
  CastVector(*args[0], result, count);
}

/// Unary "-" and "+": the argument's own numeric type (DECIMAL keeps precision and scale).
FunctionRegistry::Resolver UnaryResolver(bool negate) {
  return [negate](const std::vector<LogicalType>& args) -> std::optional<BoundScalarFunction> {
    if (args.size() != 1) return std::nullopt;
    LogicalType type = args[0].valid() ? args[0] : LogicalType::Integer();
    if (!type.IsNumeric()) return std::nullopt;
    if (!negate) return MakeBound({type}, type, Identity);
    switch (type.id()) {
      case TypeId::kInteger:
        return MakeBound({type}, type, NegateInteger<int32_t>(type));
      case TypeId::kBigint:
        return MakeBound({type}, type, NegateInteger<int64_t>(type));
      case TypeId::kDouble:
      case TypeId::kFloat:
        return MakeBound(
            {type}, type, [](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
              UnaryLoop<double, double>(*args[0], count, result, [](double v) { return -v; });
            });
      default:
        return MakeBound(
            {type}, type, [](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
              if (args[0]->type().physical() == PhysicalType::kInt64) {
                UnaryLoop<int64_t, int64_t>(*args[0], count, result, [](int64_t v) { return -v; });
              } else {
                UnaryLoop<int128_t, int128_t>(*args[0], count, result,
                                              [](int128_t v) { return -v; });
              }
            });
    }
  };
}

// ---------------------------------------------------------------- dates

void RegisterDateArithmetic(FunctionRegistry& registry) {
  const LogicalType date = LogicalType::Date(), integer = LogicalType::Integer();
  // DATE + INTEGER days: an infinity stays (DuckDB); a result past the finite dates fails.
  const auto plus_days = [](int sign, bool date_first) -> ScalarKernel {
    return [sign, date_first](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
      BinaryLoop<int32_t, int32_t, int32_t>(
          *args[date_first ? 0 : 1], *args[date_first ? 1 : 0], count, result,
          [sign](int32_t days, int32_t n) {
            if (!IsFiniteDate(days)) return days;
            const int64_t out = int64_t{days} + int64_t{sign} * n;
            if (out <= kDateNegativeInfinity || out >= kDateInfinity) {
              throw OutOfRangeError("Overflow in {} of DATE ({} {} {})",
                                    sign > 0 ? "addition" : "subtraction", FormatDate(days),
                                    sign > 0 ? '+' : '-', n);
            }
            return static_cast<int32_t>(out);
          });
    };
  };
  RegisterFixed(registry, "+", {date, integer}, date, plus_days(1, true));
  RegisterFixed(registry, "+", {integer, date}, date, plus_days(1, false));
  RegisterFixed(registry, "-", {date, integer}, date, plus_days(-1, true));
  // DATE - DATE is a BIGINT count of days, as in DuckDB (TIMESTAMP - TIMESTAMP is an
  // INTERVAL: interval_functions.cpp).
  RegisterFixed(registry, "-", {date, date}, LogicalType::Bigint(),
                [](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
                  BinaryLoop<int32_t, int32_t, int64_t>(
                      *args[0], *args[1], count, result,
                      [](int32_t a, int32_t b) { return int64_t{a} - b; });
                });
}

}  // namespace

void RegisterArithmeticFunctions(FunctionRegistry& registry) {
  const LogicalType integer = LogicalType::Integer(), bigint = LogicalType::Bigint(),
                    dbl = LogicalType::Double();
  for (char op : {'+', '-', '*', '/', '%'}) {
    const std::string name(1, op);
    // Registration order breaks ties between equally cheap overloads (e.g. NULL + NULL).
    RegisterFixed(registry, name, {integer, integer}, integer, IntegerKernel<int32_t>(op, integer));
    RegisterFixed(registry, name, {bigint, bigint}, bigint, IntegerKernel<int64_t>(op, bigint));
    // DECIMAL / DECIMAL has no DECIMAL overload: it divides in DOUBLE, as DuckDB does.
    if (op != '/') registry.Register(name, DecimalResolver(op), name + "(DECIMAL, DECIMAL)");
    RegisterFixed(registry, name, {LogicalType::Float(), LogicalType::Float()},
                  LogicalType::Float(), FloatKernel(op));
    RegisterFixed(registry, name, {dbl, dbl}, dbl, DoubleKernel(op));
  }
  // `//` divides integers, truncating toward zero (DuckDB's spelling of PostgreSQL's div()).
  RegisterFixed(registry, "//", {integer, integer}, integer, IntegerKernel<int32_t>('/', integer));
  RegisterFixed(registry, "//", {bigint, bigint}, bigint, IntegerKernel<int64_t>('/', bigint));
  registry.Register("-", UnaryResolver(true), "-(NUMERIC)");
  registry.Register("+", UnaryResolver(false), "+(NUMERIC)");
  RegisterDateArithmetic(registry);
}

}  // namespace function_internal
}  // namespace shears

// Casts: implicit-cast rules, common types, and the vectorized conversions between all types.
//
// Exact numerics (BOOLEAN, INTEGER, BIGINT, DECIMAL) convert through int128 with their scale,
// rounding half away from zero when the scale shrinks; DOUBLE -> DECIMAL goes through the
// shortest decimal text of the double, so 0.285 becomes 0.29 at scale 2 (as the user wrote
// it), not 0.28 (what 0.285 * 100 = 28.4999... would give).

#include <charconv>
#include <cmath>
#include <limits>
#include <optional>

#include "common/datetime.h"
#include "common/interval.h"
#include "common/string_util.h"
#include "function/function_internal.h"

namespace shears {

using namespace function_internal;

// ---------------------------------------------------------------- rules

bool CanImplicitCast(const LogicalType& from, const LogicalType& to) {
  if (!from.valid() || from == to) return true;
  switch (from.id()) {
    case TypeId::kList:  // element by element: INTEGER[] -> BIGINT[], "NULL"[] -> anything[]
      return to.IsList() && CanImplicitCast(from.element(), to.element());
    case TypeId::kStruct: {  // field by field, of the same names
      if (!to.IsStruct() || to.children().size() != from.children().size()) return false;
      for (size_t i = 0; i < from.children().size(); i++) {
        if (!EqualsAsciiLower(from.field_names()[i], AsciiLower(to.field_names()[i])) ||
            !CanImplicitCast(from.children()[i], to.children()[i])) {
          return false;
        }
      }
      return true;
    }
    case TypeId::kMap:
      return to.IsMap() && CanImplicitCast(from.children()[0], to.children()[0]) &&
             CanImplicitCast(from.children()[1], to.children()[1]);
    // Exact numbers widen to REAL as well as DOUBLE (DuckDB): REAL op INTEGER / DECIMAL is
    // REAL, and `r = 66.4` compares in REAL, so it holds for r = CAST(66.4 AS REAL).
    case TypeId::kInteger:
      return to.id() == TypeId::kBigint || to.IsFloatingPoint() ||
             (to.id() == TypeId::kDecimal && to.precision() - to.scale() >= 10);
    case TypeId::kBigint:
      return to.IsFloatingPoint() ||
             (to.id() == TypeId::kDecimal && to.precision() - to.scale() >= 19);
    case TypeId::kDecimal:
      return to.IsFloatingPoint() ||
             (to.id() == TypeId::kDecimal && to.scale() >= from.scale() &&
              to.precision() - to.scale() >= from.precision() - from.scale());
    case TypeId::kFloat:
      return to.id() == TypeId::kDouble;
    case TypeId::kDate:
      return to.id() == TypeId::kTimestamp;
    default:
      return false;
  }
}

std::optional<LogicalType> CommonType(const LogicalType& a, const LogicalType& b) {
  if (!a.valid()) return b;
  if (!b.valid() || a == b) return a;
  if (a.IsList() && b.IsList()) {
    std::optional<LogicalType> element = CommonType(a.element(), b.element());
    if (!element) return std::nullopt;
    return LogicalType::List(*element);
  }
  if (a.IsStruct() && b.IsStruct()) {
    // Field by field when the names agree (DuckDB's); the first's names.
    if (a.children().size() != b.children().size()) return std::nullopt;
    std::vector<std::pair<std::string, LogicalType>> fields;
    for (size_t i = 0; i < a.children().size(); i++) {
      if (!EqualsAsciiLower(a.field_names()[i], AsciiLower(b.field_names()[i]))) {
        return std::nullopt;
      }
      std::optional<LogicalType> field = CommonType(a.children()[i], b.children()[i]);
      if (!field) return std::nullopt;
      fields.emplace_back(a.field_names()[i], *field);
    }
    return LogicalType::Struct(fields);
  }
  if (a.IsMap() && b.IsMap()) {
    std::optional<LogicalType> key = CommonType(a.children()[0], b.children()[0]);
    std::optional<LogicalType> value = CommonType(a.children()[1], b.children()[1]);
    if (!key || !value) return std::nullopt;
    return LogicalType::Map(*key, *value);
  }
  if (a.IsNumeric() && b.IsNumeric()) {
    if (a.id() == TypeId::kDouble || b.id() == TypeId::kDouble) return LogicalType::Double();
    if (a.IsFloatingPoint() || b.IsFloatingPoint()) return LogicalType::Float();
    if (a.id() != TypeId::kDecimal && b.id() != TypeId::kDecimal) return LogicalType::Bigint();
    LogicalType da = *AsDecimal(a), db = *AsDecimal(b);
    int scale = std::max(da.scale(), db.scale());
    int integer_digits = std::max(da.precision() - da.scale(), db.precision() - db.scale());
    return LogicalType::Decimal(std::min(integer_digits + scale, 38), scale);
  }
  auto is_temporal = [](const LogicalType& t) {
    return t.id() == TypeId::kDate || t.id() == TypeId::kTimestamp;
  };
  if (is_temporal(a) && is_temporal(b)) return LogicalType::Timestamp();
  return std::nullopt;
}

bool CastExists(const LogicalType& from, const LogicalType& to) {
  if (from.IsList() && to.IsList()) return CastExists(from.element(), to.element());
  if (from.IsStruct() && to.IsStruct()) return StructCastFields(from, to).has_value();
  if (from.IsMap() && to.IsMap()) {
    return CastExists(from.children()[0], to.children()[0]) &&
           CastExists(from.children()[1], to.children()[1]);
  }
  if ((from.IsStruct() || from.IsMap()) && to.id() != TypeId::kVarchar) return false;
  if ((to.IsStruct() || to.IsMap()) && from.valid() && from.id() != TypeId::kVarchar) return false;
  if (!from.valid() || from.id() == to.id()) return true;
  if (to.id() == TypeId::kVarchar || from.id() == TypeId::kVarchar) return to.valid();
  auto exact_or_numeric = [](const LogicalType& t) {
    return t.IsNumeric() || t.id() == TypeId::kBoolean;
  };
  if (exact_or_numeric(from) && exact_or_numeric(to)) return true;
  auto is_temporal = [](const LogicalType& t) {
    return t.id() == TypeId::kDate || t.id() == TypeId::kTimestamp;
  };
  // TIMESTAMP -> TIME keeps the time of day (DuckDB has no cast the other way, nor from DATE).
  if (from.id() == TypeId::kTimestamp && to.id() == TypeId::kTime) return true;
  return is_temporal(from) && is_temporal(to);
}

// ---------------------------------------------------------------- vector casts

namespace {

/// DOUBLE -> integer rounds half to even, as PostgreSQL's and DuckDB's casts do (2.5 -> 2,
/// 3.5 -> 4); written out rather than std::nearbyint, which follows the thread's rounding mode.
double RoundHalfEven(double v) {
  const double rounded = std::round(v);
  return std::fabs(v - std::trunc(v)) == 0.5 ? 2.0 * std::round(v / 2.0) : rounded;
}

enum class CastStatus { kOk, kInvalid, kOverflow };

[[noreturn]] void ThrowCastError(const Vector& in, idx_t row, const LogicalType& to,
                                 CastStatus status) {
  std::string message;
  if (in.type().id() == TypeId::kVarchar) {
    message = fmt::format("Could not convert string '{}' to {}", in.data<StringRef>()[row].view(),
                          to.ToString());
    if (to.id() == TypeId::kBlob) {
      message += ": a BLOB's text is ASCII with \\xHH escapes for other bytes (e.g. 'A\\xAA')";
    }
  } else {
    message = fmt::format("Could not convert {} to {}", in.ValueToString(row), to.ToString());
  }
  if (status == CastStatus::kInvalid) throw InvalidInputError(message);
  throw OutOfRangeError(message);
}

/// Runs `op(in_value, &out_value) -> CastStatus` over the valid rows; a failed row is NULL
/// for TRY_CAST and an error otherwise.
template <typename In, typename Out, typename Op>
void CastLoop(const Vector& in, Vector& out, idx_t count, bool try_cast, Op op) {
  const In* src = in.data<In>();
  Out* dst = out.data<Out>();
  const bool all_valid = in.validity().AllValid();
  for (idx_t i = 0; i < count; i++) {
    if (!all_valid && !in.validity().IsValid(i)) {
      out.validity().SetNull(i);
      continue;
    }
    CastStatus status = op(src[i], &dst[i]);
    if (status != CastStatus::kOk) [[unlikely]] {
      if (!try_cast) ThrowCastError(in, i, out.type(), status);
      out.validity().SetNull(i);
    }
  }
}

/// Conversions that cannot fail.
template <typename In, typename Out, typename Op>
void WideningLoop(const Vector& in, Vector& out, idx_t count, Op op) {
  UnaryLoop<In, Out>(in, count, out, op);
}

/// Exact numeric source (BOOLEAN, INTEGER, BIGINT, DECIMAL) as int128 plus scale.
template <typename In>
void ExactToExact(const Vector& in, Vector& out, idx_t count, bool try_cast) {
  const int in_scale = in.type().id() == TypeId::kDecimal ? in.type().scale() : 0;
  const LogicalType& to = out.type();
  if (to.id() == TypeId::kBoolean) {
    CastLoop<In, uint8_t>(in, out, count, try_cast, [](In v, uint8_t* r) {
      *r = v != 0;
      return CastStatus::kOk;
    });
    return;
  }
  const int out_scale = to.id() == TypeId::kDecimal ? to.scale() : 0;
  if (CanImplicitCast(in.type(), to)) {
    // Widening (INTEGER -> BIGINT, exact numerics to a DECIMAL with room): every value fits,
    // so a plain multiply the compiler vectorizes, without range checks.
    if (to.physical() == PhysicalType::kInt64 && sizeof(In) <= sizeof(int64_t)) {
      const int64_t factor = static_cast<int64_t>(Pow10(out_scale - in_scale));
      WideningLoop<In, int64_t>(in, out, count,
                                [factor](In v) { return static_cast<int64_t>(v) * factor; });
      return;
    }
    if (to.physical() == PhysicalType::kInt128) {
      const int128_t factor = Pow10(out_scale - in_scale);
      WideningLoop<In, int128_t>(in, out, count,
                                 [factor](In v) { return static_cast<int128_t>(v) * factor; });
      return;
    }
  }
  int128_t low, high;
  switch (to.id()) {
    case TypeId::kInteger:
      low = std::numeric_limits<int32_t>::min();
      high = std::numeric_limits<int32_t>::max();
      break;
    case TypeId::kBigint:
      low = std::numeric_limits<int64_t>::min();
      high = std::numeric_limits<int64_t>::max();
      break;
    default:
      high = Pow10(to.precision()) - 1;
      low = -high;
      break;
  }
  auto convert = [=](In v, int128_t* r) {
    int128_t value = v;
    if (out_scale > in_scale) {
      if (__builtin_mul_overflow(value, Pow10(out_scale - in_scale), &value)) {
        return CastStatus::kOverflow;
      }
    } else if (out_scale < in_scale) {
      value = DivPow10Round(value, in_scale - out_scale);
    }
    if (value < low || value > high) return CastStatus::kOverflow;
    *r = value;
    return CastStatus::kOk;
  };
  switch (to.physical()) {
    case PhysicalType::kInt32:
      CastLoop<In, int32_t>(in, out, count, try_cast, [&](In v, int32_t* r) {
        int128_t value = 0;  // convert() leaves it unset on overflow
        CastStatus status = convert(v, &value);
        *r = static_cast<int32_t>(value);
        return status;
      });
      return;
    case PhysicalType::kInt64:
      // The common widening case (INTEGER -> BIGINT, DECIMAL scale-up in 64 bits) takes
      // this path too; convert() is cheap enough and inlines.
      CastLoop<In, int64_t>(in, out, count, try_cast, [&](In v, int64_t* r) {
        int128_t value = 0;  // convert() leaves it unset on overflow
        CastStatus status = convert(v, &value);
        *r = static_cast<int64_t>(value);
        return status;
      });
      return;
    case PhysicalType::kInt128:
      CastLoop<In, int128_t>(in, out, count, try_cast,
                             [&](In v, int128_t* r) { return convert(v, r); });
      return;
    default:
      throw InternalError("exact cast to {}", to.ToString());
  }
}

template <typename In>
void ExactToDouble(const Vector& in, Vector& out, idx_t count) {
  const int scale = in.type().id() == TypeId::kDecimal ? in.type().scale() : 0;
  if (scale == 0) {
    WideningLoop<In, double>(in, out, count, [](In v) { return static_cast<double>(v); });
    return;
  }
  // Below 2^53 with at most 22 fraction digits both operands are exact doubles, so one
  // correctly rounded division; otherwise parse the decimal text, also correctly rounded.
  constexpr int128_t kExactLimit = int128_t{1} << 53;
  static constexpr double kExactPowers[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                            1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                            1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  const double divisor = kExactPowers[std::min(scale, 22)];
  WideningLoop<In, double>(in, out, count, [=](In v) {
    if (scale <= 22 && v < kExactLimit && v > -kExactLimit) {
      return static_cast<double>(v) / divisor;
    }
    std::string text = FormatDecimal(v, scale);
    double result = 0;
    std::from_chars(text.data(), text.data() + text.size(), result);
    return result;
  });
}

template <typename In>
void ExactToVarchar(const Vector& in, Vector& out, idx_t count) {
  const In* src = in.data<In>();
  StringRef* dst = out.data<StringRef>();
  const TypeId id = in.type().id();
  const int scale = in.type().scale();
  for (idx_t i = 0; i < count; i++) {
    if (in.IsNull(i)) {
      out.validity().SetNull(i);
      continue;
    }
    if (id == TypeId::kBoolean) {
      dst[i] = out.AddString(src[i] ? "true" : "false");
    } else if (id == TypeId::kDecimal) {
      dst[i] = out.AddString(FormatDecimal(src[i], scale));
    } else {
      char buffer[48];
      auto result = std::to_chars(buffer, buffer + sizeof(buffer), static_cast<int64_t>(src[i]));
      dst[i] = out.AddString(std::string_view(buffer, result.ptr - buffer));
    }
  }
}

void DoubleToExact(const Vector& in, Vector& out, idx_t count, bool try_cast) {
  const LogicalType& to = out.type();
  switch (to.id()) {
    case TypeId::kBoolean:
      CastLoop<double, uint8_t>(in, out, count, try_cast, [](double v, uint8_t* r) {
        *r = v != 0;
        return CastStatus::kOk;
      });
      return;
    case TypeId::kInteger:
      CastLoop<double, int32_t>(in, out, count, try_cast, [](double v, int32_t* r) {
        double rounded = RoundHalfEven(v);
        if (!(rounded >= -2147483648.0 && rounded <= 2147483647.0)) {
          return CastStatus::kOverflow;  // also NaN
        }
        *r = static_cast<int32_t>(rounded);
        return CastStatus::kOk;
      });
      return;
    case TypeId::kBigint:
      CastLoop<double, int64_t>(in, out, count, try_cast, [](double v, int64_t* r) {
        double rounded = RoundHalfEven(v);
        if (!(rounded >= -9223372036854775808.0 && rounded < 9223372036854775808.0)) {
          return CastStatus::kOverflow;
        }
        *r = static_cast<int64_t>(rounded);
        return CastStatus::kOk;
      });
      return;
    case TypeId::kDecimal: {
      const int precision = to.precision(), scale = to.scale();
      auto convert = [=](double v, int128_t* r) {
        if (!std::isfinite(v)) return CastStatus::kOverflow;
        char buffer[64];
        auto result = std::to_chars(buffer, buffer + sizeof(buffer), v);
        DecimalParse parsed =
            ParseDecimalText(std::string_view(buffer, result.ptr - buffer), precision, scale, r);
        return parsed == DecimalParse::kOk ? CastStatus::kOk : CastStatus::kOverflow;
      };
      if (to.physical() == PhysicalType::kInt64) {
        CastLoop<double, int64_t>(in, out, count, try_cast, [&](double v, int64_t* r) {
          int128_t value = 0;
          CastStatus status = convert(v, &value);
          *r = static_cast<int64_t>(value);
          return status;
        });
      } else {
        CastLoop<double, int128_t>(in, out, count, try_cast, convert);
      }
      return;
    }
    default:
      throw InternalError("double cast to {}", to.ToString());
  }
}

// ---- from VARCHAR ----

bool ParseBoolean(std::string_view text, bool* out) {
  text = TrimWhitespace(text);
  if (text.size() > 5) return false;
  char lower[6];
  for (size_t i = 0; i < text.size(); i++) {
    char c = text[i];
    lower[i] = (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c;
  }
  std::string_view word(lower, text.size());
  if (word == "true" || word == "t" || word == "yes" || word == "y" || word == "1" ||
      word == "on") {
    *out = true;
    return true;
  }
  if (word == "false" || word == "f" || word == "no" || word == "n" || word == "0" ||
      word == "off") {
    *out = false;
    return true;
  }
  return false;
}

/// Text to an integer as DuckDB reads it: surrounding spaces, a sign, digits with single
/// underscores between them, an optional fraction and exponent (rounded half away from zero:
/// '0.5' -> 1, '1.235e2' -> 124), or unsigned hex / binary ('0x1F', '0b101').
CastStatus ParseInteger(std::string_view text, int128_t low, int128_t high, int128_t* out) {
  text = TrimWhitespace(text);
  size_t pos = 0;
  bool negative = false;
  if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    negative = text[pos] == '-';
    pos++;
  }
  if (pos == text.size()) return CastStatus::kInvalid;
  // The value grows digit by digit; past 10^20 it is out of range for every integer type,
  // but scanning goes on so later junk is still invalid input.
  const int128_t kCap = Pow10(20);
  int128_t value = 0;
  bool overflow = false;
  auto push = [&](int digit, int base) {
    if (value > kCap) {
      overflow = true;
    } else {
      value = value * base + digit;
    }
  };
  if (pos == 0 && text.size() > 2 && text[0] == '0' &&
      (text[1] == 'x' || text[1] == 'X' || text[1] == 'b' || text[1] == 'B')) {
    const int base = (text[1] == 'x' || text[1] == 'X') ? 16 : 2;
    for (pos = 2; pos < text.size(); pos++) {
      const char c = text[pos];
      int digit;
      if (c >= '0' && c <= '9') {
        digit = c - '0';
      } else if (base == 16 && c >= 'a' && c <= 'f') {
        digit = c - 'a' + 10;
      } else if (base == 16 && c >= 'A' && c <= 'F') {
        digit = c - 'A' + 10;
      } else {
        return CastStatus::kInvalid;
      }
      if (digit >= base) return CastStatus::kInvalid;
      push(digit, base);
    }
    if (overflow || value > high) return CastStatus::kOverflow;
    *out = value;
    return CastStatus::kOk;
  }
  // Digits of the integer part and the fraction; an underscore only between two digits.
  auto digits = [&](std::string* collected) {
    size_t start = pos;
    for (; pos < text.size(); pos++) {
      const char c = text[pos];
      if (c >= '0' && c <= '9') {
        collected->push_back(c);
      } else if (c == '_' && pos > start && pos + 1 < text.size() && text[pos - 1] != '_' &&
                 text[pos + 1] >= '0' && text[pos + 1] <= '9') {
        continue;
      } else {
        break;
      }
    }
  };
  std::string mantissa;
  digits(&mantissa);
  size_t fraction_digits = 0;
  if (pos < text.size() && text[pos] == '.') {
    pos++;
    const size_t before = mantissa.size();
    digits(&mantissa);
    fraction_digits = mantissa.size() - before;
  }
  if (mantissa.empty()) return CastStatus::kInvalid;
  int64_t exponent = 0;
  if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
    pos++;
    bool exponent_negative = false;
    if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
      exponent_negative = text[pos] == '-';
      pos++;
    }
    if (pos == text.size()) return CastStatus::kInvalid;
    for (; pos < text.size(); pos++) {
      const char c = text[pos];
      if (c < '0' || c > '9') return CastStatus::kInvalid;
      if (exponent < 100000) exponent = exponent * 10 + (c - '0');
    }
    if (exponent_negative) exponent = -exponent;
  }
  if (pos != text.size()) return CastStatus::kInvalid;
  // mantissa * 10^shift, rounded half away from zero at the first dropped digit.
  const int64_t shift = exponent - static_cast<int64_t>(fraction_digits);
  size_t kept = mantissa.size();
  bool round_up = false;
  if (shift < 0) {
    const uint64_t dropped = static_cast<uint64_t>(-shift);
    kept = dropped >= mantissa.size() ? 0 : mantissa.size() - dropped;
    round_up = dropped <= mantissa.size() && mantissa[kept] >= '5';
  }
  for (size_t i = 0; i < kept; i++)
    push(mantissa[i] - '0', 10);
  if (round_up) value += 1;
  for (int64_t i = 0; i < shift && value != 0 && !overflow; i++)
    push(0, 10);
  if (overflow) return CastStatus::kOverflow;
  if (negative) value = -value;
  if (value < low || value > high) return CastStatus::kOverflow;
  *out = value;
  return CastStatus::kOk;
}

CastStatus ParseDouble(std::string_view text, double* out) {
  text = TrimWhitespace(text);
  // DuckDB reads '1_000.5': an underscore between two digits is dropped.
  std::string without_underscores;
  if (text.find('_') != std::string_view::npos) {
    auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
    for (size_t i = 0; i < text.size(); i++) {
      if (text[i] != '_') {
        without_underscores.push_back(text[i]);
      } else if (i == 0 || i + 1 == text.size() || !is_digit(text[i - 1]) ||
                 !is_digit(text[i + 1])) {
        return CastStatus::kInvalid;
      }
    }
    text = without_underscores;
  }
  bool negative = false;
  if (!text.empty() && text[0] == '+') {
    text.remove_prefix(1);
    if (!text.empty() && text[0] == '-') return CastStatus::kInvalid;
  } else if (!text.empty() && text[0] == '-') {
    negative = true;
    text.remove_prefix(1);
    if (!text.empty() && (text[0] == '-' || text[0] == '+')) return CastStatus::kInvalid;
  }
  if (text.empty()) return CastStatus::kInvalid;
  double value;
  auto result = std::from_chars(text.data(), text.data() + text.size(), value);
  if (result.ptr != text.data() + text.size()) return CastStatus::kInvalid;
  if (result.ec == std::errc::result_out_of_range) return CastStatus::kOverflow;
  if (result.ec != std::errc()) return CastStatus::kInvalid;
  *out = negative ? -value : value;
  return CastStatus::kOk;
}

/// A timestamp's text in the forms DuckDB reads beyond ParseTimestamp's: 'epoch', '/' between
/// the date's fields, several spaces before the time, 24:00:00 (the next midnight), and a zone
/// suffix ('Z', 'UTC', '+02', '-0530', '+05:30') that a TIMESTAMP drops, as DuckDB does.
bool ParseTimestampText(std::string_view text, int64_t* micros) {
  text = TrimWhitespace(text);
  if (ParseTimestamp(text, micros)) return IsFiniteTimestamp(*micros);
  switch (ParseSpecialDatetime(text)) {
    case SpecialDatetime::kInfinity:
      *micros = kTimestampInfinity;
      return true;
    case SpecialDatetime::kNegativeInfinity:
      *micros = kTimestampNegativeInfinity;
      return true;
    case SpecialDatetime::kEpoch:
      *micros = 0;
      return true;
    case SpecialDatetime::kNone:
      break;
  }
  auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  std::string normal(text);
  // The date: fields separated by '-' or by '/' throughout.
  size_t pos = normal[0] == '-' ? 1 : 0;
  char separator = 0;
  int separators = 0;
  for (; pos < normal.size() && separators < 2; pos++) {
    const char c = normal[pos];
    if (is_digit(c)) continue;
    if (c != '-' && c != '/') return false;
    if (separator != 0 && c != separator) return false;
    separator = c;
    normal[pos] = '-';
    separators++;
  }
  while (pos < normal.size() && is_digit(normal[pos]))
    pos++;
  if (pos == normal.size()) return ParseTimestamp(normal, micros);
  // Between date and time: 'T' or one or more spaces.
  size_t time_start = pos;
  if (normal[pos] == 'T') {
    time_start = pos + 1;
  } else {
    while (time_start < normal.size() && normal[time_start] == ' ')
      time_start++;
  }
  if (time_start == pos || time_start == normal.size()) return false;
  // The time ends at its first character that is not a digit, ':' or '.'.
  size_t time_end = time_start;
  while (time_end < normal.size() &&
         (is_digit(normal[time_end]) || normal[time_end] == ':' || normal[time_end] == '.'))
    time_end++;
  // 'Z' and an offset follow the time directly; ' UTC' may have spaces before it.
  const std::string_view zone = std::string_view(normal).substr(time_end);
  if (!zone.empty() && zone != "Z" && !EqualsAsciiLower(TrimWhitespace(zone), "utc")) {
    if (zone[0] != '+' && zone[0] != '-') return false;
    std::string digits;
    for (size_t i = 1; i < zone.size(); i++) {
      if (zone[i] == ':' && i == 3) continue;
      if (!is_digit(zone[i])) return false;
      digits.push_back(zone[i]);
    }
    if (digits.size() != 2 && digits.size() != 4) return false;
  }
  std::string time(std::string_view(normal).substr(time_start, time_end - time_start));
  bool next_day = false;
  if (time.rfind("24:", 0) == 0) {
    // Only 24:00[:00[.000...]], the next midnight.
    const std::string_view rest = std::string_view(time).substr(3);
    const bool zero = rest == "00" || rest == "00:00" ||
                      (rest.size() > 6 && rest.rfind("00:00.", 0) == 0 &&
                       rest.find_first_not_of('0', 6) == std::string_view::npos);
    if (!zero) return false;
    time = "00:00:00";
    next_day = true;
  }
  const std::string rebuilt = normal.substr(0, pos) + " " + time;
  if (!ParseTimestamp(rebuilt, micros)) return false;
  if (next_day) *micros += kMicrosPerDay;
  return true;
}

void VarcharToType(const Vector& in, Vector& out, idx_t count, bool try_cast) {
  const LogicalType& to = out.type();
  switch (to.id()) {
    case TypeId::kBoolean:
      CastLoop<StringRef, uint8_t>(in, out, count, try_cast, [](StringRef s, uint8_t* r) {
        bool value;
        if (!ParseBoolean(s.view(), &value)) return CastStatus::kInvalid;
        *r = value;
        return CastStatus::kOk;
      });
      return;
    case TypeId::kInteger:
      CastLoop<StringRef, int32_t>(in, out, count, try_cast, [](StringRef s, int32_t* r) {
        int128_t value;
        CastStatus status = ParseInteger(s.view(), std::numeric_limits<int32_t>::min(),
                                         std::numeric_limits<int32_t>::max(), &value);
        *r = static_cast<int32_t>(value);
        return status;
      });
      return;
    case TypeId::kBigint:
      CastLoop<StringRef, int64_t>(in, out, count, try_cast, [](StringRef s, int64_t* r) {
        int128_t value;
        CastStatus status = ParseInteger(s.view(), std::numeric_limits<int64_t>::min(),
                                         std::numeric_limits<int64_t>::max(), &value);
        *r = static_cast<int64_t>(value);
        return status;
      });
      return;
    case TypeId::kDouble:
      CastLoop<StringRef, double>(in, out, count, try_cast,
                                  [](StringRef s, double* r) { return ParseDouble(s.view(), r); });
      return;
    case TypeId::kDecimal: {
      const int precision = to.precision(), scale = to.scale();
      auto convert = [=](StringRef s, int128_t* r) {
        switch (ParseDecimalText(s.view(), precision, scale, r)) {
          case DecimalParse::kOk:
            return CastStatus::kOk;
          case DecimalParse::kInvalid:
            return CastStatus::kInvalid;
          case DecimalParse::kOverflow:
            break;
        }
        return CastStatus::kOverflow;
      };
      if (to.physical() == PhysicalType::kInt64) {
        CastLoop<StringRef, int64_t>(in, out, count, try_cast, [&](StringRef s, int64_t* r) {
          int128_t value = 0;
          CastStatus status = convert(s, &value);
          *r = static_cast<int64_t>(value);
          return status;
        });
      } else {
        CastLoop<StringRef, int128_t>(in, out, count, try_cast, convert);
      }
      return;
    }
    case TypeId::kDate:
      CastLoop<StringRef, int32_t>(in, out, count, try_cast, [](StringRef s, int32_t* r) {
        const std::string_view text = TrimWhitespace(s.view());
        if (ParseDate(text, r)) return CastStatus::kOk;
        switch (ParseSpecialDatetime(text)) {
          case SpecialDatetime::kInfinity:
            *r = kDateInfinity;
            return CastStatus::kOk;
          case SpecialDatetime::kNegativeInfinity:
            *r = kDateNegativeInfinity;
            return CastStatus::kOk;
          case SpecialDatetime::kEpoch:
          case SpecialDatetime::kNone:
            break;
        }
        // DuckDB reads a timestamp's text as its date ('2020-01-01 10:00:00'::DATE): the date
        // before a valid time, whatever the time (24:00:00 too, and past the TIMESTAMP range).
        const size_t split = text.find_first_of(" T", 1);
        const size_t time = text.find_first_not_of(" T", split);
        if (split != std::string_view::npos && time != std::string_view::npos &&
            text[time] >= '0' && text[time] <= '9' && ParseDate(text.substr(0, split), r)) {
          int64_t ignored;
          std::string probe = "2000-01-01";
          probe.append(text.substr(split));
          if (ParseTimestampText(probe, &ignored)) return CastStatus::kOk;
        }
        int64_t micros;
        if (!ParseTimestampText(text, &micros)) return CastStatus::kInvalid;
        const int64_t days = FloorDiv(micros, kMicrosPerDay);
        if (!IsFiniteDate(days) || days < std::numeric_limits<int32_t>::min() ||
            days > std::numeric_limits<int32_t>::max())
          return CastStatus::kOverflow;
        *r = static_cast<int32_t>(days);
        return CastStatus::kOk;
      });
      return;
    case TypeId::kTimestamp:
      CastLoop<StringRef, int64_t>(in, out, count, try_cast, [](StringRef s, int64_t* r) {
        return ParseTimestampText(s.view(), r) ? CastStatus::kOk : CastStatus::kInvalid;
      });
      return;
    case TypeId::kTime:
      CastLoop<StringRef, int64_t>(in, out, count, try_cast, [](StringRef s, int64_t* r) {
        const std::string_view text = TrimWhitespace(s.view());
        if (ParseTime(text, r)) return CastStatus::kOk;
        // A timestamp's text gives its time of day (DuckDB: '2024-01-02 03:04:05'::TIME).
        int64_t micros;
        if (!ParseTimestampText(text, &micros) || !IsFiniteTimestamp(micros))
          return CastStatus::kInvalid;
        *r = micros - FloorDiv(micros, kMicrosPerDay) * kMicrosPerDay;
        return CastStatus::kOk;
      });
      return;
    case TypeId::kInterval:
      CastLoop<StringRef, int128_t>(in, out, count, try_cast, [](StringRef s, int128_t* r) {
        Interval interval;
        std::string error;
        if (!ParseIntervalText(s.view(), -1, &interval, &error)) return CastStatus::kInvalid;
        *r = PackIntervalChecked(interval);
        return CastStatus::kOk;
      });
      return;
    case TypeId::kVarchar:
      CastLoop<StringRef, StringRef>(in, out, count, try_cast, [&](StringRef s, StringRef* r) {
        *r = out.AddString(s.view());
        return CastStatus::kOk;
      });
      return;
    case TypeId::kBlob: {
      // DuckDB's text form: \xHH escapes, ASCII as is (FormatBlob's inverse).
      std::string bytes, error;
      CastLoop<StringRef, StringRef>(in, out, count, try_cast, [&](StringRef s, StringRef* r) {
        if (!ParseBlob(s.view(), &bytes, &error)) return CastStatus::kInvalid;
        *r = out.AddString(bytes);
        return CastStatus::kOk;
      });
      return;
    }
    case TypeId::kFloat:   // CastFloat's
    case TypeId::kList:    // CastListVector's
    case TypeId::kStruct:  // CastNestedVector's
    case TypeId::kMap:
    case TypeId::kInvalid:
      break;
  }
  throw InternalError("cast from VARCHAR to {}", to.ToString());
}

/// DATE, TIMESTAMP, DOUBLE -> VARCHAR through the shared formatting functions.
template <typename In, typename Format>
void FormatToVarchar(const Vector& in, Vector& out, idx_t count, Format format) {
  const In* src = in.data<In>();
  StringRef* dst = out.data<StringRef>();
  for (idx_t i = 0; i < count; i++) {
    if (in.IsNull(i)) {
      out.validity().SetNull(i);
      continue;
    }
    dst[i] = out.AddString(format(src[i]));
  }
}

template <typename In>
void DispatchExact(const Vector& in, Vector& out, idx_t count, bool try_cast) {
  switch (out.type().id()) {
    case TypeId::kDouble:
      ExactToDouble<In>(in, out, count);
      return;
    case TypeId::kVarchar:
      ExactToVarchar<In>(in, out, count);
      return;
    default:
      ExactToExact<In>(in, out, count, try_cast);
      return;
  }
}

void CopyVector(const Vector& in, Vector& out, idx_t count) {
  if (in.type().physical() == PhysicalType::kString) {
    const StringRef* src = in.data<StringRef>();
    StringRef* dst = out.data<StringRef>();
    for (idx_t i = 0; i < count; i++) {
      if (in.IsNull(i)) {
        out.validity().SetNull(i);
      } else {
        dst[i] = out.AddString(src[i].view());
      }
    }
    return;
  }
  std::memcpy(out.raw_data(), in.data<uint8_t>(), count * in.type().value_size());
  if (!in.validity().AllValid()) {
    for (idx_t i = 0; i < count; i++) {
      if (in.IsNull(i)) out.validity().SetNull(i);
    }
  }
}

/// Casts from or to FLOAT. A FLOAT is stored as a double holding a float value, so FLOAT ->
/// DOUBLE copies, FLOAT -> anything else converts as a DOUBLE would (VARCHAR through the float's
/// own shortest text), and X -> FLOAT converts to DOUBLE first and rounds to the nearest float
/// (a finite value past the float range is an overflow).
void CastFloat(const Vector& in, Vector& out, idx_t count, bool try_cast) {
  const LogicalType& to = out.type();
  if (in.type().id() == TypeId::kFloat) {
    if (to.id() == TypeId::kDouble) {
      CopyVector(in, out, count);
    } else if (to.id() == TypeId::kVarchar) {
      FormatToVarchar<double>(in, out, count,
                              [](double v) { return FormatFloat(static_cast<float>(v)); });
    } else {
      DoubleToExact(in, out, count, try_cast);
    }
    return;
  }
  const Vector* wide = &in;
  std::optional<Vector> converted;
  if (in.type().id() != TypeId::kDouble) {
    converted.emplace(LogicalType::Double(), std::max<idx_t>(count, 1));
    CastVector(in, *converted, count, try_cast);
    wide = &*converted;
  }
  CastLoop<double, double>(*wide, out, count, try_cast, [](double v, double* r) {
    const float f = static_cast<float>(v);
    if (std::isinf(f) && !std::isinf(v)) return CastStatus::kOverflow;
    *r = f;
    return CastStatus::kOk;
  });
}

}  // namespace

void CastVector(const Vector& in, Vector& out, idx_t count, bool try_cast) {
  const LogicalType& from = in.type();
  const LogicalType& to = out.type();
  out.validity().Reset();
  if (from == to) {
    CopyVector(in, out, count);
    return;
  }
  if (!CastExists(from, to)) {
    throw BinderError("Cannot cast {} to {}", from.ToString(), to.ToString());
  }
  if (from.IsStruct() || to.IsStruct() || from.IsMap() || to.IsMap()) {
    CastNestedVector(in, out, count, try_cast);
    return;
  }
  if (from.IsList() || to.IsList()) {
    CastListVector(in, out, count, try_cast);
    return;
  }
  if (from.id() == TypeId::kFloat || to.id() == TypeId::kFloat) {
    CastFloat(in, out, count, try_cast);
    return;
  }
  switch (from.id()) {
    case TypeId::kBoolean:
      DispatchExact<uint8_t>(in, out, count, try_cast);
      return;
    case TypeId::kInteger:
      DispatchExact<int32_t>(in, out, count, try_cast);
      return;
    case TypeId::kBigint:
      DispatchExact<int64_t>(in, out, count, try_cast);
      return;
    case TypeId::kDecimal:
      if (from.physical() == PhysicalType::kInt64) {
        DispatchExact<int64_t>(in, out, count, try_cast);
      } else {
        DispatchExact<int128_t>(in, out, count, try_cast);
      }
      return;
    case TypeId::kDouble:
      if (to.id() == TypeId::kVarchar) {
        FormatToVarchar<double>(in, out, count, FormatDouble);
      } else {
        DoubleToExact(in, out, count, try_cast);
      }
      return;
    case TypeId::kDate:
      if (to.id() == TypeId::kVarchar) {
        FormatToVarchar<int32_t>(in, out, count, FormatDate);
      } else {
        CastLoop<int32_t, int64_t>(in, out, count, try_cast, [](int32_t days, int64_t* r) {
          return DateToTimestamp(days, r) ? CastStatus::kOk : CastStatus::kOverflow;
        });
      }
      return;
    case TypeId::kTimestamp:
      if (to.id() == TypeId::kVarchar) {
        FormatToVarchar<int64_t>(in, out, count, FormatTimestamp);
      } else if (to.id() == TypeId::kTime) {
        // An infinite timestamp has no time of day (DuckDB: a conversion error).
        CastLoop<int64_t, int64_t>(in, out, count, try_cast, [](int64_t micros, int64_t* r) {
          if (!IsFiniteTimestamp(micros)) return CastStatus::kInvalid;
          *r = micros - FloorDiv(micros, kMicrosPerDay) * kMicrosPerDay;
          return CastStatus::kOk;
        });
      } else {
        WideningLoop<int64_t, int32_t>(in, out, count, TimestampToDate);
      }
      return;
    case TypeId::kVarchar:
      VarcharToType(in, out, count, try_cast);
      return;
    case TypeId::kInterval:  // only to VARCHAR (CastExists)
      FormatToVarchar<int128_t>(in, out, count,
                                [](int128_t v) { return FormatInterval(UnpackInterval(v)); });
      return;
    case TypeId::kTime:  // only to VARCHAR (CastExists)
      FormatToVarchar<int64_t>(in, out, count, FormatTimeOfDay);
      return;
    case TypeId::kBlob:
      // DuckDB's text of a BLOB: printable ASCII, \xHH for the rest (always valid UTF-8).
      FormatToVarchar<StringRef>(in, out, count, [](StringRef s) { return FormatBlob(s.view()); });
      return;
    case TypeId::kFloat:   // CastFloat's
    case TypeId::kList:    // CastListVector's
    case TypeId::kStruct:  // CastNestedVector's
    case TypeId::kMap:
    case TypeId::kInvalid:
      break;
  }
  throw InternalError("cast from {} to {}", from.ToString(), to.ToString());
}

Value CastValue(const Value& value, const LogicalType& to, bool try_cast) {
  if (value.is_null() || !value.type().valid()) return Value::Null(to);
  if (value.type() == to) return value;
  Vector in(value.type(), 1);
  WriteValue(in, 0, value);
  Vector out(to, 1);
  CastVector(in, out, 1, try_cast);
  return ReadValue(out, 0);
}

}  // namespace shears

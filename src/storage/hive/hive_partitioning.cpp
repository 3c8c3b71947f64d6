#include "storage/hive/hive_partitioning.h"

#include <charconv>
#include <cmath>
#include <limits>

#include "common/decimal.h"
#include "common/error.h"
#include "common/interval.h"

namespace shears {

namespace {

bool NeedsEscape(unsigned char c) {
  if (c < 0x20 || c >= 0x7F) return true;  // control characters, DEL, non-ASCII bytes
  switch (c) {
    case ' ':
    case '"':
    case '#':
    case '%':
    case '\'':
    case '*':
    case '/':
    case ':':
    case '=':
    case '?':
    case '\\':
    case '{':
    case '[':
    case ']':
    case '^':
      return true;
    default:
      return false;
  }
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// [+-]digits fitting int64; nothing else (no spaces, no fraction).
bool ParseInt64Strict(std::string_view text, int64_t* out) {
  if (text.empty()) return false;
  // from_chars rejects '+', so skip it by hand (but not "+-5").
  if (text[0] == '+') {
    text.remove_prefix(1);
    if (text.empty() || text[0] == '-') return false;
  }
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && end == text.data() + text.size();
}

/// Exactly YYYY-MM-DD with a valid calendar day.
bool ParseIsoDate(std::string_view text, int32_t* days) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return false;
  for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if (text[i] < '0' || text[i] > '9') return false;
  }
  return ParseDate(text, days);
}

bool ParseBoolean(std::string_view text, bool* out) {
  std::string lower;
  for (char c : text)
    lower.push_back(static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c));
  if (lower == "true" || lower == "t" || lower == "1") {
    *out = true;
    return true;
  }
  if (lower == "false" || lower == "f" || lower == "0") {
    *out = false;
    return true;
  }
  return false;
}

bool ParseDouble(std::string_view text, double* out) {
  if (!text.empty() && text[0] == '+') {
    text.remove_prefix(1);
    if (!text.empty() && text[0] == '-') return false;
  }
  if (text.empty() || text[0] == '+') return false;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && end == text.data() + text.size();
}

/// [+-]digits[.digits] into an unscaled value of DECIMAL(precision, scale); extra fraction
/// digits round half away from zero, as a cast would. A directory name has no white space or
/// exponent, so text with either is not a decimal partition value.
bool ParseDecimal(std::string_view text, int precision, int scale, int128_t* out) {
  for (char c : text) {
    if (!(c >= '0' && c <= '9') && c != '.' && c != '-' && c != '+') return false;
  }
  return ParseDecimalText(text, precision, scale, out) == DecimalParse::kOk;
}

}  // namespace

bool IsHiveLevel(std::string_view level) {
  size_t eq = level.find('=');
  return eq != std::string_view::npos && eq > 0;
}

std::vector<HiveKeyValue> ParseHivePath(std::string_view relative_path) {
  std::vector<HiveKeyValue> result;
  size_t last_slash = relative_path.rfind('/');
  if (last_slash == std::string_view::npos) return result;  // a file directly in the root
  std::string_view dirs = relative_path.substr(0, last_slash);
  while (!dirs.empty()) {
    size_t slash = dirs.find('/');
    std::string_view level = dirs.substr(0, slash);
    dirs = slash == std::string_view::npos ? std::string_view() : dirs.substr(slash + 1);
    if (!IsHiveLevel(level)) continue;
    size_t eq = level.find('=');
    HiveKeyValue kv;
    kv.key = HiveUnescape(level.substr(0, eq));
    // Compare the raw text: an escaped "%5F_HIVE_DEFAULT_PARTITION__" is the literal string.
    std::string_view raw = level.substr(eq + 1);
    if (raw != kHiveNullPartition) kv.value = HiveUnescape(raw);
    result.push_back(std::move(kv));
  }
  return result;
}

std::string HiveEscape(std::string_view value) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(value.size());
  for (size_t i = 0; i < value.size(); i++) {
    auto c = static_cast<unsigned char>(value[i]);
    // Keep a real string "__HIVE_DEFAULT_PARTITION__" distinguishable from NULL.
    if ((i == 0 && value == kHiveNullPartition) || NeedsEscape(c)) {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  return out;
}

std::string HiveUnescape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); i++) {
    if (text[i] != '%') {
      out.push_back(text[i]);
      continue;
    }
    int hi = i + 1 < text.size() ? HexDigit(text[i + 1]) : -1;
    int lo = i + 2 < text.size() ? HexDigit(text[i + 2]) : -1;
    if (hi < 0 || lo < 0) {
      throw InvalidInputError(
          "invalid percent escape at offset {} of Hive partition directory name '{}' (expected "
          "%XX with two hex digits)",
          i, text);
    }
    out.push_back(static_cast<char>(hi * 16 + lo));
    i += 2;
  }
  return out;
}

LogicalType InferPartitionType(const std::vector<std::optional<std::string>>& values) {
  bool any = false, all_int = true, all_date = true;
  for (const auto& v : values) {
    if (!v) continue;
    any = true;
    int64_t i;
    int32_t d;
    if (all_int && !ParseInt64Strict(*v, &i)) all_int = false;
    if (all_date && !ParseIsoDate(*v, &d)) all_date = false;
    if (!all_int && !all_date) break;
  }
  if (!any) return LogicalType::Varchar();
  if (all_int) return LogicalType::Bigint();
  if (all_date) return LogicalType::Date();
  return LogicalType::Varchar();
}

Value ParsePartitionValue(const std::optional<std::string>& text, const LogicalType& type,
                          const std::string& column) {
  if (!text) return Value::Null(type);
  const std::string& s = *text;
  bool ok = false;
  Value result;
  switch (type.id()) {
    case TypeId::kBoolean: {
      bool b;
      if ((ok = ParseBoolean(s, &b))) result = Value::Boolean(b);
      break;
    }
    case TypeId::kInteger: {
      int64_t i;
      ok = ParseInt64Strict(s, &i) && i >= std::numeric_limits<int32_t>::min() &&
           i <= std::numeric_limits<int32_t>::max();
      if (ok) result = Value::Integer(static_cast<int32_t>(i));
      break;
    }
    case TypeId::kBigint: {
      int64_t i;
      if ((ok = ParseInt64Strict(s, &i))) result = Value::Bigint(i);
      break;
    }
    case TypeId::kDouble: {
      double d;
      if ((ok = ParseDouble(s, &d))) result = Value::Double(d);
      break;
    }
    case TypeId::kFloat: {
      double d;
      if ((ok = ParseDouble(s, &d) && std::isfinite(static_cast<float>(d)) == std::isfinite(d))) {
        result = Value::Float(static_cast<float>(d));
      }
      break;
    }
    case TypeId::kDecimal: {
      int128_t unscaled;
      if ((ok = ParseDecimal(s, type.precision(), type.scale(), &unscaled))) {
        result = Value::Decimal(unscaled, type.precision(), type.scale());
      }
      break;
    }
    case TypeId::kDate: {
      int32_t days;
      if ((ok = ParseDate(s, &days))) result = Value::Date(days);
      break;
    }
    case TypeId::kTimestamp: {
      int64_t micros;
      if ((ok = ParseTimestamp(s, &micros))) result = Value::Timestamp(micros);
      break;
    }
    case TypeId::kTime: {
      int64_t micros;
      if ((ok = ParseTime(s, &micros))) result = Value::Time(micros);
      break;
    }
    case TypeId::kVarchar:
      return Value::Varchar(s);
    case TypeId::kBlob:
      return Value::Blob(s);
    case TypeId::kInterval: {
      Interval interval;
      std::string error;
      if ((ok = ParseIntervalText(s, -1, &interval, &error))) result = Value::Interval(interval);
      break;
    }
    case TypeId::kList:
    case TypeId::kStruct:
    case TypeId::kMap:
      throw NotSupportedError("partition column '{}' cannot be a {}", column, type.ToString());
    case TypeId::kInvalid:
      throw InvalidInputError("partition column '{}' has no valid type", column);
  }
  if (!ok) {
    throw InvalidInputError("partition value '{}' of column '{}' cannot be converted to {}", s,
                            column, type.ToString());
  }
  return result;
}

}  // namespace shears

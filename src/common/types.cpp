#include "common/types.h"

#include <atomic>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "common/datetime.h"
#include "common/error.h"

namespace shears {

LogicalType LogicalType::Decimal(int precision, int scale) {
  if (precision < 1 || precision > kMaxDecimalPrecision) {
    throw InvalidInputError("DECIMAL precision must be between 1 and {}, got {}",
                            kMaxDecimalPrecision, precision);
  }
  if (scale < 0 || scale > precision) {
    throw InvalidInputError("DECIMAL scale must be between 0 and the precision ({}), got {}",
                            precision, scale);
  }
  LogicalType type(TypeId::kDecimal);
  type.precision_ = static_cast<uint8_t>(precision);
  type.scale_ = static_cast<uint8_t>(scale);
  return type;
}

namespace {

// The registry of described types: interned (one entry per distinct type, so equal types get
// equal indexes) and append-only, in chunks that never move, so reading an entry takes no
// lock. Its index has 16 bits: at most 65,536 distinct nested types per process.
class NestedTypeRegistry {
 public:
  static constexpr size_t kChunkSize = 256;
  static constexpr size_t kChunks = 256;

  static NestedTypeRegistry& Get() {
    static NestedTypeRegistry* registry = new NestedTypeRegistry();  // never destroyed
    return *registry;
  }

  uint16_t Intern(NestedTypeInfo info) {
    std::string key = Key(info);
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = index_.find(key);
    if (it != index_.end()) return it->second;
    if (size_ == kChunkSize * kChunks) {
      throw NotSupportedError("more than {} distinct nested types in one process",
                              kChunkSize * kChunks);
    }
    const size_t chunk = size_ / kChunkSize;
    NestedTypeInfo* entries = chunks_[chunk].load(std::memory_order_acquire);
    if (entries == nullptr) {
      entries = new NestedTypeInfo[kChunkSize];
      chunks_[chunk].store(entries, std::memory_order_release);
    }
    entries[size_ % kChunkSize] = std::move(info);
    const auto index = static_cast<uint16_t>(size_++);
    index_.emplace(std::move(key), index);
    return index;
  }

  const NestedTypeInfo& At(uint16_t index) const {
    return chunks_[index / kChunkSize].load(std::memory_order_acquire)[index % kChunkSize];
  }

 private:
  // The children's four bytes identify them (they are interned too), the names their bytes.
  static std::string Key(const NestedTypeInfo& info) {
    std::string key(1, static_cast<char>(info.id));
    for (size_t i = 0; i < info.children.size(); i++) {
      key.append(reinterpret_cast<const char*>(&info.children[i]), sizeof(LogicalType));
      const std::string& name = i < info.names.size() ? info.names[i] : std::string();
      const auto length = static_cast<uint32_t>(name.size());
      key.append(reinterpret_cast<const char*>(&length), sizeof(length));
      key += name;
    }
    return key;
  }

  std::mutex mutex_;
  std::unordered_map<std::string, uint16_t> index_;
  std::atomic<NestedTypeInfo*> chunks_[kChunks] = {};
  size_t size_ = 0;
};

// DuckDB quotes a field name that is not a plain identifier.
std::string FieldNameText(const std::string& name) {
  bool plain = !name.empty() && !(name[0] >= '0' && name[0] <= '9');
  for (char c : name) {
    const bool word =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    plain = plain && word;
  }
  if (plain) return name;
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string NestedChildText(const LogicalType& type) {
  return type.valid() ? type.ToString() : std::string("\"NULL\"");
}

}  // namespace

LogicalType LogicalType::Describe(NestedTypeInfo info) {
  const TypeId id = info.id;
  const uint16_t index = NestedTypeRegistry::Get().Intern(std::move(info));
  LogicalType type(id);
  type.element_id_ = id;  // the mark of a described type
  type.precision_ = static_cast<uint8_t>(index >> 8);
  type.scale_ = static_cast<uint8_t>(index & 0xFF);
  return type;
}

const NestedTypeInfo& LogicalType::info() const {
  if (!described()) throw InternalError("{} has no nested type description", ToString());
  return NestedTypeRegistry::Get().At(described_index());
}

const std::vector<LogicalType>& LogicalType::children() const {
  return info().children;
}

const std::vector<std::string>& LogicalType::field_names() const {
  return info().names;
}

LogicalType LogicalType::DescribedElement() const {
  const NestedTypeInfo& described = info();
  if (described.id == TypeId::kList) return described.children[0];
  if (described.id == TypeId::kMap) {
    return Struct({{"key", described.children[0]}, {"value", described.children[1]}});
  }
  throw InternalError("{} has no element type", ToString());
}

LogicalType LogicalType::List(const LogicalType& element) {
  if (element.IsNested()) {
    NestedTypeInfo info;
    info.id = TypeId::kList;
    info.children.push_back(element);
    return Describe(std::move(info));
  }
  LogicalType type(TypeId::kList);
  type.element_id_ = element.id_;
  type.precision_ = element.precision_;
  type.scale_ = element.scale_;
  return type;
}

LogicalType LogicalType::Struct(const std::vector<std::pair<std::string, LogicalType>>& fields) {
  NestedTypeInfo info;
  info.id = TypeId::kStruct;
  for (const auto& [name, type] : fields) {
    info.names.push_back(name);
    info.children.push_back(type);
  }
  return Describe(std::move(info));
}

LogicalType LogicalType::Map(const LogicalType& key, const LogicalType& value) {
  NestedTypeInfo info;
  info.id = TypeId::kMap;
  info.children = {key, value};
  return Describe(std::move(info));
}

PhysicalType LogicalType::physical() const {
  switch (id_) {
    case TypeId::kBoolean:
      return PhysicalType::kBool;
    case TypeId::kInteger:
    case TypeId::kDate:
      return PhysicalType::kInt32;
    case TypeId::kBigint:
    case TypeId::kTimestamp:
    case TypeId::kTime:
      return PhysicalType::kInt64;
    case TypeId::kDouble:
    case TypeId::kFloat:
      return PhysicalType::kDouble;
    case TypeId::kDecimal:
      return precision_ <= kMaxInt64DecimalPrecision ? PhysicalType::kInt64 : PhysicalType::kInt128;
    case TypeId::kInterval:
      return PhysicalType::kInt128;
    case TypeId::kVarchar:
    case TypeId::kBlob:
    case TypeId::kList:
    case TypeId::kStruct:
    case TypeId::kMap:
      return PhysicalType::kString;
    case TypeId::kInvalid:
      break;
  }
  return PhysicalType::kInvalid;
}

size_t LogicalType::value_size() const {
  switch (physical()) {
    case PhysicalType::kBool:
      return 1;
    case PhysicalType::kInt32:
      return 4;
    case PhysicalType::kInt64:
    case PhysicalType::kDouble:
      return 8;
    case PhysicalType::kInt128:
      return 16;
    case PhysicalType::kString:
      return sizeof(StringRef);
    case PhysicalType::kInvalid:
      break;
  }
  return 0;
}

bool LogicalType::IsNumeric() const {
  return id_ == TypeId::kInteger || id_ == TypeId::kBigint || id_ == TypeId::kDouble ||
         id_ == TypeId::kDecimal || id_ == TypeId::kFloat;
}

std::string LogicalType::ToString() const {
  switch (id_) {
    case TypeId::kInvalid:
      return "INVALID";
    case TypeId::kBoolean:
      return "BOOLEAN";
    case TypeId::kInteger:
      return "INTEGER";
    case TypeId::kBigint:
      return "BIGINT";
    case TypeId::kDouble:
      return "DOUBLE";
    case TypeId::kFloat:
      return "REAL";  // the spelling that reads back as this type (FLOAT is DOUBLE in PostgreSQL)
    case TypeId::kDecimal:
      return fmt::format("DECIMAL({},{})", precision_, scale_);
    case TypeId::kDate:
      return "DATE";
    case TypeId::kTimestamp:
      return "TIMESTAMP";
    case TypeId::kTime:
      return "TIME";
    case TypeId::kVarchar:
      return "VARCHAR";
    case TypeId::kBlob:
      return "BLOB";
    case TypeId::kInterval:
      return "INTERVAL";
    case TypeId::kList:
      // DuckDB's spelling; the element type of `[]` is its "NULL" type.
      return NestedChildText(element()) + "[]";
    case TypeId::kStruct: {
      const NestedTypeInfo& described = info();
      std::string out = "STRUCT(";
      for (size_t i = 0; i < described.children.size(); i++) {
        if (i > 0) out += ", ";
        if (!described.names[i].empty()) out += FieldNameText(described.names[i]) + " ";
        out += NestedChildText(described.children[i]);
      }
      return out + ")";
    }
    case TypeId::kMap:
      return "MAP(" + NestedChildText(children()[0]) + ", " + NestedChildText(children()[1]) + ")";
  }
  return "INVALID";
}

// Howard Hinnant's days_from_civil / civil_from_days, valid for the whole int range used here.
int32_t DaysFromCivil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return static_cast<int32_t>(era * 146097 + static_cast<int64_t>(doe) - 719468);
}

void CivilFromDays(int64_t z, int64_t* year, unsigned* month, unsigned* day) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t y = static_cast<int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  *day = doy - (153 * mp + 2) / 5 + 1;
  *month = mp < 10 ? mp + 3 : mp - 9;
  *year = y + (*month <= 2);
}

static bool IsLeap(int64_t y) {
  return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static unsigned DaysInMonth(int64_t y, unsigned m) {
  static const unsigned kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && IsLeap(y) ? 29 : kDays[m - 1];
}

static bool ParseUnsigned(std::string_view text, size_t* pos, size_t min_digits, size_t max_digits,
                          int64_t* out) {
  size_t start = *pos;
  int64_t value = 0;
  while (*pos < text.size() && *pos - start < max_digits && text[*pos] >= '0' &&
         text[*pos] <= '9') {
    value = value * 10 + (text[*pos] - '0');
    ++*pos;
  }
  if (*pos - start < min_digits) return false;
  *out = value;
  return true;
}

/// DuckDB's range of finite dates: 5877642-06-25 (BC) to 5881580-07-10, the int32 days short
/// of the infinities (common/datetime.h).
static bool InDateRange(int64_t year, unsigned month, unsigned day) {
  constexpr int64_t kMinYear = -5877641, kMaxYear = 5881580;
  if (year < kMinYear || year > kMaxYear) return false;
  if (year == kMinYear) return month > 6 || (month == 6 && day >= 25);
  if (year == kMaxYear) return month < 7 || (month == 7 && day <= 10);
  return true;
}

static bool ParseDatePart(std::string_view text, size_t* pos, int32_t* days) {
  bool negative = false;
  if (*pos < text.size() && text[*pos] == '-') {
    negative = true;
    ++*pos;
  }
  int64_t year, month, day;
  if (!ParseUnsigned(text, pos, 1, 7, &year)) return false;
  if (*pos >= text.size() || text[*pos] != '-') return false;
  ++*pos;
  if (!ParseUnsigned(text, pos, 1, 2, &month)) return false;
  if (*pos >= text.size() || text[*pos] != '-') return false;
  ++*pos;
  if (!ParseUnsigned(text, pos, 1, 2, &day)) return false;
  if (negative) year = -year;
  // DuckDB's era marker: year N (BC) is the astronomical year 1 - N (1 BC is year 0).
  if (text.size() - *pos >= 5 && text.substr(*pos, 2) == " (" &&
      (text[*pos + 2] == 'B' || text[*pos + 2] == 'b') &&
      (text[*pos + 3] == 'C' || text[*pos + 3] == 'c') && text[*pos + 4] == ')') {
    if (negative || year == 0) return false;
    year = 1 - year;
    *pos += 5;
  }
  if (month < 1 || month > 12 || day < 1 || day > DaysInMonth(year, static_cast<unsigned>(month)) ||
      !InDateRange(year, static_cast<unsigned>(month), static_cast<unsigned>(day))) {
    return false;
  }
  *days = DaysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  return true;
}

bool ParseDate(std::string_view text, int32_t* days) {
  size_t pos = 0;
  return ParseDatePart(text, &pos, days) && pos == text.size();
}

/// HH:MM[:SS[.ffffff]] from *pos to the end of `text`, as microseconds (hours up to 99;
/// digits past microseconds are truncated). False when malformed.
static bool ParseTimeOfDay(std::string_view text, size_t* pos, int64_t* micros, int64_t* hour) {
  int64_t minute, second = 0, fraction = 0;
  if (!ParseUnsigned(text, pos, 1, 2, hour)) return false;
  if (*pos >= text.size() || text[*pos] != ':') return false;
  ++*pos;
  if (!ParseUnsigned(text, pos, 1, 2, &minute)) return false;
  if (*pos < text.size() && text[*pos] == ':') {
    ++*pos;
    if (!ParseUnsigned(text, pos, 1, 2, &second)) return false;
    if (*pos < text.size() && text[*pos] == '.') {
      ++*pos;
      const size_t start = *pos;
      if (!ParseUnsigned(text, pos, 1, 6, &fraction)) return false;
      for (size_t digits = *pos - start; digits < 6; digits++)
        fraction *= 10;
      while (*pos < text.size() && text[*pos] >= '0' && text[*pos] <= '9')
        ++*pos;
    }
  }
  if (minute > 59 || second > 59 || *pos != text.size()) return false;
  *micros = ((*hour * 60 + minute) * 60 + second) * 1000000LL + fraction;
  return true;
}

bool ParseTimestamp(std::string_view text, int64_t* micros) {
  size_t pos = 0;
  int32_t days;
  if (!ParseDatePart(text, &pos, &days)) return false;
  int64_t midnight;
  if (__builtin_mul_overflow(static_cast<int64_t>(days), 86400LL * 1000000LL, &midnight)) {
    return false;  // past the TIMESTAMP range (about 294,000 years)
  }
  if (pos == text.size()) {
    *micros = midnight;
    return true;
  }
  if (text[pos] != ' ' && text[pos] != 'T') return false;
  ++pos;
  int64_t time, hour;
  if (!ParseTimeOfDay(text, &pos, &time, &hour) || hour > 23) return false;
  return !__builtin_add_overflow(midnight, time, micros);
}

bool ParseTime(std::string_view text, int64_t* micros) {
  size_t pos = 0;
  int64_t time, hour;
  // 24:00:00 is the last time of day.
  if (!ParseTimeOfDay(text, &pos, &time, &hour) || time > kMicrosPerDayTime) return false;
  *micros = time;
  return true;
}

std::string FormatDate(int32_t days) {
  if (days == kDateInfinity) return "infinity";
  if (days == kDateNegativeInfinity) return "-infinity";
  int64_t year;
  unsigned month, day;
  CivilFromDays(days, &year, &month, &day);
  // Years before 1 as DuckDB prints them: 0044-03-15 (BC) is the astronomical year -43.
  if (year <= 0) return fmt::format("{:04}-{:02}-{:02} (BC)", 1 - year, month, day);
  return fmt::format("{:04}-{:02}-{:02}", year, month, day);
}

std::string FormatTimestamp(int64_t micros) {
  if (micros == kTimestampInfinity) return "infinity";
  if (micros == kTimestampNegativeInfinity) return "-infinity";
  constexpr int64_t kMicrosPerDay = 86400LL * 1000000LL;
  int64_t days = micros / kMicrosPerDay;
  int64_t rest = micros % kMicrosPerDay;
  if (rest < 0) {
    rest += kMicrosPerDay;
    days -= 1;
  }
  int64_t year;
  unsigned month, day;
  CivilFromDays(days, &year, &month, &day);
  if (year <= 0) {
    return fmt::format("{:04}-{:02}-{:02} (BC) {}", 1 - year, month, day, FormatTimeOfDay(rest));
  }
  return fmt::format("{:04}-{:02}-{:02} {}", year, month, day, FormatTimeOfDay(rest));
}

std::string FormatTimeOfDay(int64_t micros) {
  const int64_t seconds = micros / 1000000;
  int64_t fraction = micros % 1000000;
  std::string text =
      fmt::format("{:02}:{:02}:{:02}", seconds / 3600, (seconds / 60) % 60, seconds % 60);
  if (fraction != 0) {
    // DuckDB's rule: the fraction without its trailing zeros (.5, .123, .000001).
    int digits = 6;
    while (fraction % 10 == 0) {
      fraction /= 10;
      digits--;
    }
    text += fmt::format(".{:0{}}", fraction, digits);
  }
  return text;
}

std::string FormatInt128(int128_t value) {
  if (value == 0) return "0";
  bool negative = value < 0;
  uint128_t magnitude = negative ? -static_cast<uint128_t>(value) : static_cast<uint128_t>(value);
  char buffer[48];
  int pos = sizeof(buffer);
  while (magnitude > 0) {
    buffer[--pos] = static_cast<char>('0' + static_cast<int>(magnitude % 10));
    magnitude /= 10;
  }
  if (negative) buffer[--pos] = '-';
  return std::string(buffer + pos, sizeof(buffer) - pos);
}

std::string FormatDecimal(int128_t unscaled, int scale) {
  bool negative = unscaled < 0;
  uint128_t magnitude =
      negative ? -static_cast<uint128_t>(unscaled) : static_cast<uint128_t>(unscaled);
  std::string digits = FormatInt128(static_cast<int128_t>(magnitude));
  if (magnitude > static_cast<uint128_t>(std::numeric_limits<int128_t>::max())) {
    digits = "170141183460469231731687303715884105728";  // |INT128_MIN|
  }
  if (scale > 0) {
    if (digits.size() <= static_cast<size_t>(scale)) {
      digits.insert(0, static_cast<size_t>(scale) + 1 - digits.size(), '0');
    }
    digits.insert(digits.size() - static_cast<size_t>(scale), ".");
  }
  if (negative) digits.insert(digits.begin(), '-');
  return digits;
}

namespace {
template <typename T>
std::string FormatFloatingPoint(T value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
  if (value == 0) return std::signbit(value) ? "-0.0" : "0.0";
  char buffer[64];
  T magnitude = std::fabs(value);
  std::to_chars_result result;
  if (magnitude >= 1e16 || magnitude < 1e-4) {
    result = std::to_chars(buffer, buffer + sizeof(buffer), value, std::chars_format::scientific);
  } else {
    result = std::to_chars(buffer, buffer + sizeof(buffer), value, std::chars_format::fixed);
  }
  std::string text(buffer, result.ptr);
  auto exponent = text.find('e');
  if (exponent != std::string::npos) {
    // to_chars writes e+16 / e-05 already; keep as is.
    return text;
  }
  if (text.find('.') == std::string::npos) text += ".0";
  return text;
}
}  // namespace

std::string FormatDouble(double value) {
  return FormatFloatingPoint(value);
}

std::string FormatFloat(float value) {
  return FormatFloatingPoint(value);
}

std::string FormatBlob(std::string_view bytes) {
  static const char kDigits[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(bytes.size());
  for (unsigned char c : bytes) {
    if (c >= 0x20 && c <= 0x7E && c != '\\' && c != '\'' && c != '"') {
      out.push_back(static_cast<char>(c));
    } else {
      out += "\\x";
      out.push_back(kDigits[c >> 4]);
      out.push_back(kDigits[c & 15]);
    }
  }
  return out;
}

bool ParseBlob(std::string_view text, std::string* bytes, std::string* error) {
  auto hex_value = [](char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  bytes->clear();
  bytes->reserve(text.size());
  for (size_t i = 0; i < text.size(); i++) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      *error = "non-ASCII characters must be escaped with hex codes (e.g. \\xAA)";
      return false;
    }
    if (c != '\\') {
      bytes->push_back(static_cast<char>(c));
      continue;
    }
    if (i + 4 > text.size()) {
      *error = "unterminated escape code at the end of the blob";
      return false;
    }
    const int high = text[i + 1] == 'x' ? hex_value(text[i + 2]) : -1;
    const int low = high < 0 ? -1 : hex_value(text[i + 3]);
    if (low < 0) {
      *error = fmt::format("invalid escape code {}", text.substr(i, 4));
      return false;
    }
    bytes->push_back(static_cast<char>(high * 16 + low));
    i += 3;
  }
  return true;
}

std::string FormatHex(std::string_view bytes) {
  static const char kDigits[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

}  // namespace shears

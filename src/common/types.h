#pragma once
// SQL types and how their values are stored in memory.
//
//   type        storage (one value)        notes
//   BOOLEAN     uint8_t (0/1)
//   INTEGER     int32_t
//   BIGINT      int64_t
//   DOUBLE      double
//   REAL        double holding a float     4-byte float (TypeId::kFloat, Parquet FLOAT): every
//   value is exactly a float (casts
//                                          and arithmetic round to float); kept as double in
//                                          vectors so every double path serves it, 4 bytes in
//                                          Parquet
//   DECIMAL     int64_t  (precision <= 18)  unscaled value
//               int128_t (precision <= 38)
//   DATE        int32_t                     days since 1970-01-01
//   TIMESTAMP   int64_t                     microseconds since 1970-01-01 00:00:00 (no zone)
//   TIME        int64_t                     microseconds since midnight, 0 to 86,400,000,000
//                                           (24:00:00 included, as DuckDB and PostgreSQL)
//   VARCHAR     StringRef                   UTF-8 bytes owned by the vector's buffers
//   BLOB        StringRef                   raw bytes
//   INTERVAL    int128_t                    months, days, microseconds packed so the int128
//                                           orders as the interval (common/interval.h)
//   LIST(T)     StringRef                   the elements in one order-preserving byte string
//                                           (common/list.h): every operator that moves,
//                                           hashes, compares or spills strings serves lists
//   STRUCT(...) StringRef                   the fields' bytes one after the other, as a list's
//                                           elements (common/list.h)
//   MAP(K, V)   StringRef                   as LIST(STRUCT(key K, value V))
//
// A nested type that does not fit in four bytes (a LIST of a nested type, every STRUCT and
// MAP) is described by an interned entry of a process-wide, append-only registry
// (NestedTypeInfo) and carries the entry's 16-bit index: equal types have equal indexes, so
// equality stays a compare of four bytes and a LogicalType stays trivially copyable.

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace shears {

using idx_t = uint64_t;
using int128_t = __int128;
using uint128_t = unsigned __int128;

enum class TypeId : uint8_t {
  kInvalid,
  kBoolean,
  kInteger,
  kBigint,
  kDouble,
  kDecimal,
  kDate,
  kTimestamp,
  kVarchar,
  kBlob,
  kFloat,     // appended: the order of the others is unchanged
  kInterval,  // appended
  kTime,      // appended
  kList,      // appended: LIST(T) (a scalar T packed in LogicalType, a nested one described)
  kStruct,    // appended: STRUCT(name T, ...), described
  kMap,       // appended: MAP(K, V), described
};

struct NestedTypeInfo;

/// How a type's values are laid out in a vector.
enum class PhysicalType : uint8_t { kInvalid, kBool, kInt32, kInt64, kInt128, kDouble, kString };

class LogicalType {
 public:
  static constexpr int kMaxDecimalPrecision = 38;
  static constexpr int kMaxInt64DecimalPrecision = 18;

  constexpr LogicalType() = default;
  constexpr explicit LogicalType(TypeId id) : id_(id) {}

  static constexpr LogicalType Boolean() { return LogicalType(TypeId::kBoolean); }
  static constexpr LogicalType Integer() { return LogicalType(TypeId::kInteger); }
  static constexpr LogicalType Bigint() { return LogicalType(TypeId::kBigint); }
  static constexpr LogicalType Double() { return LogicalType(TypeId::kDouble); }
  static constexpr LogicalType Float() { return LogicalType(TypeId::kFloat); }
  static constexpr LogicalType Date() { return LogicalType(TypeId::kDate); }
  static constexpr LogicalType Timestamp() { return LogicalType(TypeId::kTimestamp); }
  static constexpr LogicalType Varchar() { return LogicalType(TypeId::kVarchar); }
  static constexpr LogicalType Blob() { return LogicalType(TypeId::kBlob); }
  static constexpr LogicalType Interval() { return LogicalType(TypeId::kInterval); }
  static constexpr LogicalType Time() { return LogicalType(TypeId::kTime); }
  /// Throws InvalidInputError when precision/scale are out of range.
  static LogicalType Decimal(int precision, int scale);
  /// LIST(element): element is any type, or kInvalid for the element type of `[]` and
  /// `[NULL]` (DuckDB's "NULL"[]).
  static LogicalType List(const LogicalType& element);
  /// STRUCT(name type, ...): names may be empty (row()'s unnamed fields); a field may be of
  /// the invalid type (DuckDB's "NULL", the type of a NULL literal).
  static LogicalType Struct(const std::vector<std::pair<std::string, LogicalType>>& fields);
  /// MAP(key, value).
  static LogicalType Map(const LogicalType& key, const LogicalType& value);

  TypeId id() const { return id_; }
  int precision() const { return precision_; }
  int scale() const { return scale_; }
  PhysicalType physical() const;
  /// Bytes per value in a vector's data buffer.
  size_t value_size() const;
  bool IsNumeric() const;
  /// DOUBLE or FLOAT.
  bool IsFloatingPoint() const { return id_ == TypeId::kDouble || id_ == TypeId::kFloat; }
  /// Values stored as StringRefs (VARCHAR, BLOB, and LIST in its byte form): what decides
  /// whether a vector's string buffers travel with its values.
  bool IsString() const { return id_ == TypeId::kVarchar || id_ == TypeId::kBlob || IsNested(); }
  bool IsList() const { return id_ == TypeId::kList; }
  bool IsStruct() const { return id_ == TypeId::kStruct; }
  bool IsMap() const { return id_ == TypeId::kMap; }
  /// LIST, STRUCT or MAP: values are byte strings of common/list.h.
  bool IsNested() const {
    return id_ == TypeId::kList || id_ == TypeId::kStruct || id_ == TypeId::kMap;
  }
  /// The element type of a LIST; of a MAP, its STRUCT(key K, value V) (a MAP's bytes are a
  /// list's of those).
  LogicalType element() const {
    if (described()) return DescribedElement();
    LogicalType type(element_id_);
    type.precision_ = precision_;
    type.scale_ = scale_;
    return type;
  }
  /// The registry's entry of a described type (a STRUCT, a MAP, a LIST of a nested type).
  const NestedTypeInfo& info() const;
  /// A STRUCT's fields (types and names), a MAP's key and value types.
  const std::vector<LogicalType>& children() const;
  const std::vector<std::string>& field_names() const;
  bool valid() const { return id_ != TypeId::kInvalid; }

  /// SQL spelling: INTEGER, DECIMAL(18,4), VARCHAR, ...
  std::string ToString() const;

  friend bool operator==(const LogicalType& a, const LogicalType& b) {
    return a.id_ == b.id_ && a.precision_ == b.precision_ && a.scale_ == b.scale_ &&
           a.element_id_ == b.element_id_;
  }

 private:
  // Described types hold a nested TypeId in element_id_ and their registry index in
  // precision_ (high byte) and scale_.
  bool described() const {
    return element_id_ == TypeId::kList || element_id_ == TypeId::kStruct ||
           element_id_ == TypeId::kMap;
  }
  uint16_t described_index() const { return static_cast<uint16_t>((precision_ << 8) | scale_); }
  static LogicalType Describe(NestedTypeInfo info);
  LogicalType DescribedElement() const;

  TypeId id_ = TypeId::kInvalid;
  // A LIST's scalar element type: its id here, its DECIMAL precision and scale in the two
  // below, so the type stays four bytes and trivially copyable.
  TypeId element_id_ = TypeId::kInvalid;
  uint8_t precision_ = 0;
  uint8_t scale_ = 0;
};
static_assert(sizeof(LogicalType) == 4);

/// What the registry keeps of a nested type.
struct NestedTypeInfo {
  TypeId id = TypeId::kInvalid;       // kList, kStruct or kMap
  std::vector<LogicalType> children;  // LIST: the element; STRUCT: the fields; MAP: key, value
  std::vector<std::string> names;     // STRUCT: the field names
};

/// A non-owning reference to string bytes; the owner is the vector (or page) it came from.
struct StringRef {
  const char* ptr = nullptr;
  uint32_t len = 0;

  StringRef() = default;
  StringRef(const char* p, uint32_t n) : ptr(p), len(n) {}
  explicit StringRef(std::string_view sv) : ptr(sv.data()), len(static_cast<uint32_t>(sv.size())) {}
  std::string_view view() const { return std::string_view(ptr, len); }
  friend bool operator==(const StringRef& a, const StringRef& b) {
    if (a.len != b.len) return false;
    const uint32_t n = a.len;
    // Short strings (group and join keys: codes, flags, names) by two overlapping loads each:
    // a memcmp call per comparison cost more than the comparison.
    if (n <= 16) {
      if (n >= 8)
        return Load8(a.ptr) == Load8(b.ptr) && Load8(a.ptr + n - 8) == Load8(b.ptr + n - 8);
      if (n >= 4)
        return Load4(a.ptr) == Load4(b.ptr) && Load4(a.ptr + n - 4) == Load4(b.ptr + n - 4);
      for (uint32_t i = 0; i < n; i++) {
        if (a.ptr[i] != b.ptr[i]) return false;
      }
      return true;
    }
    return std::memcmp(a.ptr, b.ptr, n) == 0;
  }

 private:
  static uint64_t Load8(const char* p) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
  }
  static uint32_t Load4(const char* p) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
};

// ---- calendar and rendering helpers shared by every output path ----

/// Days since 1970-01-01 for a proleptic Gregorian date.
int32_t DaysFromCivil(int64_t year, unsigned month, unsigned day);
void CivilFromDays(int64_t days, int64_t* year, unsigned* month, unsigned* day);
/// Parses YYYY-MM-DD; returns false when malformed or out of range.
bool ParseDate(std::string_view text, int32_t* days);
/// Parses 'YYYY-MM-DD[ HH:MM:SS[.ffffff]]'; returns false when malformed.
bool ParseTimestamp(std::string_view text, int64_t* micros);
/// Parses a time of day 'HH:MM[:SS[.ffffff]]' (up to 24:00:00) into microseconds since
/// midnight; returns false when malformed or out of range.
bool ParseTime(std::string_view text, int64_t* micros);
constexpr int64_t kMicrosPerDayTime = 86400LL * 1000000LL;

std::string FormatDate(int32_t days);
/// YYYY-MM-DD HH:MM:SS[.f]: the fraction without trailing zeros, none when zero (DuckDB's text).
std::string FormatTimestamp(int64_t micros);
/// HH:MM:SS[.f] of microseconds since midnight (0 <= micros <= 86,400,000,000), fraction as
/// FormatTimestamp's.
std::string FormatTimeOfDay(int64_t micros);
/// Plain decimal with exactly `scale` fraction digits: -0.01, 0.00, 12.3400.
std::string FormatDecimal(int128_t unscaled, int scale);
/// Shortest text that round-trips; 42.0, 1e+16, 1e-05, nan, inf, -0.0.
std::string FormatDouble(double value);
/// The same for a FLOAT: the shortest text that round-trips as a float (1.1, not
/// 1.100000023841858).
std::string FormatFloat(float value);
std::string FormatInt128(int128_t value);
/// Upper-case hex of raw bytes.
std::string FormatHex(std::string_view bytes);
/// A BLOB as DuckDB prints it: printable ASCII as is, other bytes (and \ ' ") as \xHH.
std::string FormatBlob(std::string_view bytes);
/// The inverse of FormatBlob (DuckDB's VARCHAR -> BLOB): \xHH escapes become bytes, other
/// ASCII characters stay; a malformed escape or a non-ASCII byte sets *error and returns false.
bool ParseBlob(std::string_view text, std::string* bytes, std::string* error);

}  // namespace shears

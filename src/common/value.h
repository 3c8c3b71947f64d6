#pragma once
// A single typed value (or NULL): partition values, statistics bounds, literals.

#include <string>
#include <variant>
#include <vector>

#include "common/types.h"

namespace shears {

struct Interval;

class Value {
 public:
  Value() = default;  // NULL of invalid type
  static Value Null(LogicalType type);
  static Value Boolean(bool v);
  static Value Integer(int32_t v);
  static Value Bigint(int64_t v);
  static Value Double(double v);
  /// A FLOAT (GetDouble() gives it widened).
  static Value Float(float v);
  static Value Decimal(int128_t unscaled, int precision, int scale);
  static Value Date(int32_t days);
  static Value Timestamp(int64_t micros);
  /// Microseconds since midnight.
  static Value Time(int64_t micros);
  static Value Varchar(std::string v);
  static Value Blob(std::string v);
  static Value Interval(const struct Interval& v);
  /// A LIST of `element` (common/list.h) from its elements, each of the element type or NULL.
  static Value List(LogicalType element, const std::vector<Value>& elements);
  /// A LIST, STRUCT or MAP from its bytes (common/list.h).
  static Value ListFromBytes(LogicalType list_type, std::string bytes);
  /// A STRUCT from its field values, each of its field's type or NULL.
  static Value Struct(LogicalType struct_type, const std::vector<Value>& fields);

  const LogicalType& type() const { return type_; }
  bool is_null() const { return is_null_; }

  bool GetBoolean() const { return std::get<int64_t>(data_) != 0; }
  /// INTEGER, BIGINT, DATE, TIMESTAMP, TIME and DECIMAL(<=18) values.
  int64_t GetInt64() const { return std::get<int64_t>(data_); }
  int128_t GetInt128() const;  // any DECIMAL, and the integer types widened
  double GetDouble() const { return std::get<double>(data_); }
  /// VARCHAR and BLOB values; a LIST's bytes.
  const std::string& GetString() const { return std::get<std::string>(data_); }
  /// A LIST's (or MAP's) elements.
  std::vector<Value> GetList() const;
  /// A STRUCT's field values.
  std::vector<Value> GetStruct() const;
  struct Interval GetInterval() const;

  /// Rendering used by the CLI and CSV output ("NULL" for null).
  std::string ToString() const;

  /// Total order within one type; NULLs compare equal to each other and below values.
  /// Comparing values of different types is an internal error.
  int Compare(const Value& other) const;
  friend bool operator==(const Value& a, const Value& b) {
    return a.type_ == b.type_ && a.Compare(b) == 0;
  }

 private:
  LogicalType type_;
  bool is_null_ = true;
  std::variant<std::monostate, int64_t, int128_t, double, std::string> data_;
};

}  // namespace shears

namespace shears {
class Vector;
/// Stores `value` (of the vector's type, or NULL) at `row` of `vector`.
void WriteValue(Vector& vector, idx_t row, const Value& value);
/// The value at `row` of `vector` (NULL when invalid).
Value ReadValue(const Vector& vector, idx_t row);
}  // namespace shears

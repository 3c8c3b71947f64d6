#include "common/value.h"

#include <cmath>

#include "common/error.h"
#include "common/interval.h"
#include "common/list.h"

namespace shears {

Value Value::Null(LogicalType type) {
  Value v;
  v.type_ = type;
  return v;
}

Value Value::Boolean(bool b) {
  Value v;
  v.type_ = LogicalType::Boolean();
  v.is_null_ = false;
  v.data_ = int64_t{b ? 1 : 0};
  return v;
}
Value Value::Integer(int32_t i) {
  Value v;
  v.type_ = LogicalType::Integer();
  v.is_null_ = false;
  v.data_ = int64_t{i};
  return v;
}
Value Value::Bigint(int64_t i) {
  Value v;
  v.type_ = LogicalType::Bigint();
  v.is_null_ = false;
  v.data_ = i;
  return v;
}
Value Value::Double(double d) {
  Value v;
  v.type_ = LogicalType::Double();
  v.is_null_ = false;
  v.data_ = d;
  return v;
}
Value Value::Float(float f) {
  Value v = Double(f);
  v.type_ = LogicalType::Float();
  return v;
}
Value Value::Decimal(int128_t unscaled, int precision, int scale) {
  Value v;
  v.type_ = LogicalType::Decimal(precision, scale);
  v.is_null_ = false;
  if (v.type_.physical() == PhysicalType::kInt64) {
    v.data_ = static_cast<int64_t>(unscaled);
  } else {
    v.data_ = unscaled;
  }
  return v;
}
Value Value::Date(int32_t days) {
  Value v;
  v.type_ = LogicalType::Date();
  v.is_null_ = false;
  v.data_ = int64_t{days};
  return v;
}
Value Value::Timestamp(int64_t micros) {
  Value v;
  v.type_ = LogicalType::Timestamp();
  v.is_null_ = false;
  v.data_ = micros;
  return v;
}
Value Value::Time(int64_t micros) {
  Value v = Bigint(micros);  // the same storage
  v.type_ = LogicalType::Time();
  return v;
}
Value Value::Varchar(std::string s) {
  Value v;
  v.type_ = LogicalType::Varchar();
  v.is_null_ = false;
  v.data_ = std::move(s);
  return v;
}
Value Value::Blob(std::string s) {
  Value v;
  v.type_ = LogicalType::Blob();
  v.is_null_ = false;
  v.data_ = std::move(s);
  return v;
}

Value Value::Interval(const struct Interval& interval) {
  Value v;
  v.type_ = LogicalType::Interval();
  v.is_null_ = false;
  v.data_ = PackIntervalChecked(interval);
  return v;
}
Value Value::List(LogicalType element, const std::vector<Value>& elements) {
  return ListFromBytes(LogicalType::List(element), EncodeList(element, elements));
}
Value Value::ListFromBytes(LogicalType list_type, std::string bytes) {
  Value v;
  v.type_ = list_type;
  v.is_null_ = false;
  v.data_ = std::move(bytes);
  return v;
}
std::vector<Value> Value::GetList() const {
  return DecodeList(type_.element(), GetString());
}
Value Value::Struct(LogicalType struct_type, const std::vector<Value>& fields) {
  return ListFromBytes(struct_type, EncodeStruct(struct_type, fields));
}
std::vector<Value> Value::GetStruct() const {
  return DecodeStruct(type_, GetString());
}

struct Interval Value::GetInterval() const {
  return UnpackInterval(std::get<int128_t>(data_));
}

int128_t Value::GetInt128() const {
  if (std::holds_alternative<int128_t>(data_)) return std::get<int128_t>(data_);
  return std::get<int64_t>(data_);
}

std::string Value::ToString() const {
  if (is_null_) return "NULL";
  switch (type_.id()) {
    case TypeId::kBoolean:
      return GetBoolean() ? "true" : "false";
    case TypeId::kInteger:
    case TypeId::kBigint:
      return std::to_string(GetInt64());
    case TypeId::kDouble:
      return FormatDouble(GetDouble());
    case TypeId::kFloat:
      return FormatFloat(static_cast<float>(GetDouble()));
    case TypeId::kDecimal:
      return FormatDecimal(GetInt128(), type_.scale());
    case TypeId::kDate:
      return FormatDate(static_cast<int32_t>(GetInt64()));
    case TypeId::kTimestamp:
      return FormatTimestamp(GetInt64());
    case TypeId::kTime:
      return FormatTimeOfDay(GetInt64());
    case TypeId::kVarchar:
      return GetString();
    case TypeId::kBlob:
      return FormatBlob(GetString());
    case TypeId::kInterval:
      return FormatInterval(GetInterval());
    case TypeId::kList:
    case TypeId::kStruct:
    case TypeId::kMap:
      return NestedToString(type_, GetString());
    case TypeId::kInvalid:
      break;
  }
  return "NULL";
}

int Value::Compare(const Value& other) const {
  if (is_null_ || other.is_null_) return static_cast<int>(!is_null_) - !other.is_null_;
  SHEARS_CHECK(type_.physical() == other.type_.physical());
  switch (type_.physical()) {
    case PhysicalType::kBool:
    case PhysicalType::kInt32:
    case PhysicalType::kInt64: {
      int64_t a = GetInt64(), b = other.GetInt64();
      return (a > b) - (a < b);
    }
    case PhysicalType::kInt128: {
      int128_t a = GetInt128(), b = other.GetInt128();
      return (a > b) - (a < b);
    }
    case PhysicalType::kDouble: {
      // NaN sorts above every number, as in Parquet and most SQL engines.
      double a = GetDouble(), b = other.GetDouble();
      bool an = std::isnan(a), bn = std::isnan(b);
      if (an || bn) return static_cast<int>(an) - static_cast<int>(bn);
      return (a > b) - (a < b);
    }
    case PhysicalType::kString: {
      int c = GetString().compare(other.GetString());
      return (c > 0) - (c < 0);
    }
    case PhysicalType::kInvalid:
      break;
  }
  throw InternalError("compare of invalid values");
}

}  // namespace shears

#include "common/vector.h"

namespace shears {

Value ReadValue(const Vector& vector, idx_t row) {
  const auto& type = vector.type();
  if (vector.IsNull(row)) return Value::Null(type);
  switch (type.id()) {
    case TypeId::kBoolean:
      return Value::Boolean(vector.data<uint8_t>()[row] != 0);
    case TypeId::kInteger:
      return Value::Integer(vector.data<int32_t>()[row]);
    case TypeId::kBigint:
      return Value::Bigint(vector.data<int64_t>()[row]);
    case TypeId::kDouble:
      return Value::Double(vector.data<double>()[row]);
    case TypeId::kFloat:
      return Value::Float(static_cast<float>(vector.data<double>()[row]));
    case TypeId::kDecimal:
      return Value::Decimal(type.physical() == PhysicalType::kInt64 ? vector.data<int64_t>()[row]
                                                                    : vector.data<int128_t>()[row],
                            type.precision(), type.scale());
    case TypeId::kDate:
      return Value::Date(vector.data<int32_t>()[row]);
    case TypeId::kTimestamp:
      return Value::Timestamp(vector.data<int64_t>()[row]);
    case TypeId::kTime:
      return Value::Time(vector.data<int64_t>()[row]);
    case TypeId::kVarchar:
      return Value::Varchar(std::string(vector.data<StringRef>()[row].view()));
    case TypeId::kBlob:
      return Value::Blob(std::string(vector.data<StringRef>()[row].view()));
    case TypeId::kInterval:
      return Value::Interval(UnpackInterval(vector.data<int128_t>()[row]));
    case TypeId::kList:
    case TypeId::kStruct:
    case TypeId::kMap:
      return Value::ListFromBytes(type, std::string(vector.data<StringRef>()[row].view()));
    case TypeId::kInvalid:
      break;
  }
  throw InternalError("VectorValue of invalid type");
}

void WriteValue(Vector& vector, idx_t row, const Value& value) {
  if (value.is_null()) {
    vector.validity().SetNull(row);
    return;
  }
  vector.validity().SetValid(row);
  switch (vector.type().physical()) {
    case PhysicalType::kBool:
      vector.data<uint8_t>()[row] = value.GetBoolean();
      return;
    case PhysicalType::kInt32:
      vector.data<int32_t>()[row] = static_cast<int32_t>(value.GetInt64());
      return;
    case PhysicalType::kInt64:
      vector.data<int64_t>()[row] = value.GetInt64();
      return;
    case PhysicalType::kInt128:
      vector.data<int128_t>()[row] = value.GetInt128();
      return;
    case PhysicalType::kDouble:
      vector.data<double>()[row] = value.GetDouble();
      return;
    case PhysicalType::kString:
      vector.data<StringRef>()[row] = vector.AddString(value.GetString());
      return;
    case PhysicalType::kInvalid:
      break;
  }
  throw InternalError("WriteValue into a vector of invalid type");
}

}  // namespace shears

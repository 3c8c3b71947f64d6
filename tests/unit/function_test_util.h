#pragma once
// Compact Value builders and evaluation helpers shared by the function_*_test files.

#include <string>
#include <vector>

#include "function/function.h"
#include "function/function_internal.h"

namespace shears::function_test {

inline Value I(int32_t v) {
  return Value::Integer(v);
}
inline Value BI(int64_t v) {
  return Value::Bigint(v);
}
inline Value D(double v) {
  return Value::Double(v);
}
inline Value S(std::string v) {
  return Value::Varchar(std::move(v));
}
inline Value N() {
  return Value();
}
inline Value Dec(const std::string& text, int p, int s) {
  return CastValue(Value::Varchar(text), LogicalType::Decimal(p, s));
}
inline Value Dt(const std::string& text) {
  return CastValue(Value::Varchar(text), LogicalType::Date());
}
inline Value Ts(const std::string& text) {
  return CastValue(Value::Varchar(text), LogicalType::Timestamp());
}
/// "TYPE value", so expectations check the result type too.
inline std::string Show(const Value& v) {
  return v.type().ToString() + " " + v.ToString();
}
inline std::string Eval(const std::string& name, const std::vector<Value>& args) {
  return Show(function_internal::EvaluateFunction(name, args));
}

}  // namespace shears::function_test

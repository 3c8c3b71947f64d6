#pragma once
// Internals shared by the files of src/function: registration entry points, resolver and
// kernel-building helpers, and the loops every kernel is made of. Only src/function and its
// tests include this; the rest of the engine sees function.h.

#include <string>
#include <string_view>
#include <vector>

#include "common/datetime.h"
#include "common/decimal.h"
#include "common/error.h"
#include "common/value.h"
#include "function/function.h"

namespace shears {
namespace function_internal {

// ---- registration, one entry point per source file ----
void RegisterArithmeticFunctions(FunctionRegistry& registry);
void RegisterComparisonFunctions(FunctionRegistry& registry);
void RegisterStringFunctions(FunctionRegistry& registry);
void RegisterLikeFunctions(FunctionRegistry& registry);
void RegisterDateFunctions(FunctionRegistry& registry);
void RegisterMiscFunctions(FunctionRegistry& registry);
void RegisterRegexpFunctions(FunctionRegistry& registry);
void RegisterIntervalFunctions(FunctionRegistry& registry);
void RegisterFormatFunctions(FunctionRegistry& registry);
void RegisterEpochFunctions(FunctionRegistry& registry);
void RegisterJsonFunctions(FunctionRegistry& registry);
void RegisterListFunctions(FunctionRegistry& registry);
void RegisterStringFunctionsExtended(FunctionRegistry& registry);
void RegisterBinningFunctions(FunctionRegistry& registry);
void RegisterNestedFunctions(FunctionRegistry& registry);
void RegisterListStatisticsFunctions(FunctionRegistry& registry);
void RegisterListResizeFunctions(FunctionRegistry& registry);

/// Casts to, from and between LISTs (list_functions.cpp): LIST -> VARCHAR its text, VARCHAR
/// -> LIST DuckDB's list text parsed, LIST(A) -> LIST(B) element by element.
void CastListVector(const Vector& in, Vector& out, idx_t count, bool try_cast);
/// Casts to, from and between STRUCTs and MAPs (nested_functions.cpp): STRUCT -> STRUCT by
/// field name (by position from row()'s unnamed fields), MAP -> MAP key and value by key and
/// value, both to VARCHAR as their text and from VARCHAR DuckDB's text parsed.
void CastNestedVector(const Vector& in, Vector& out, idx_t count, bool try_cast);
/// For each field of `to`, the field of `from` it is cast from (by name; by position when
/// either has unnamed fields), or -1 for a field `from` lacks (NULL); nullopt when no field
/// matches (DuckDB's "at least one matching member").
std::optional<std::vector<int>> StructCastFields(const LogicalType& from, const LogicalType& to);

BoundScalarFunction MakeBound(std::vector<LogicalType> arg_types, LogicalType return_type,
                              ScalarKernel kernel, bool null_propagating = true,
                              bool deterministic = true);

/// A resolver for one fixed signature: each actual argument must equal the parameter type,
/// be NULL (kInvalid), or cast to it implicitly.
FunctionRegistry::Resolver FixedResolver(std::vector<LogicalType> arg_types,
                                         LogicalType return_type, ScalarKernel kernel,
                                         bool null_propagating = true);
/// Registers `name` with one fixed signature; the help text is derived from the types.
void RegisterFixed(FunctionRegistry& registry, const std::string& name,
                   std::vector<LogicalType> arg_types, LogicalType return_type, ScalarKernel kernel,
                   bool null_propagating = true);
/// "name(T1, T2)".
std::string SignatureText(const std::string& name, const std::vector<LogicalType>& arg_types);

/// The DECIMAL an exact numeric converts to: INTEGER -> DECIMAL(10,0), BIGINT ->
/// DECIMAL(19,0), DECIMAL -> itself; nullopt otherwise (also for NULL).
std::optional<LogicalType> AsDecimal(const LogicalType& type);
/// Cost of converting an argument of `from` to a parameter of `to` (0 when equal or NULL);
/// used to rank overloads. Larger for wider jumps so INTEGER prefers BIGINT over DOUBLE.
int ConversionCost(const LogicalType& from, const LogicalType& to);

// ---- values <-> vectors ----

/// Runs `function` once over `count` rows given column by column (each value cast to the
/// argument type). Unlike EvaluateScalar, the kernel sees the NULL rows too (tests use this
/// to check kernels' own NULL handling and both the all-valid and the mixed loops).
std::vector<Value> EvaluateRows(const BoundScalarFunction& function,
                                const std::vector<std::vector<Value>>& columns, idx_t count);
/// Binds `name` for the types of `args` in the default registry and runs it on them as one
/// row through EvaluateRows (the kernel sees NULLs). For tests and debugging.
Value EvaluateFunction(const std::string& name, const std::vector<Value>& args);

// ---- decimals ----
/// Reads an unscaled DECIMAL value of either physical width as int128.
inline int128_t DecimalAt(const Vector& vector, idx_t row) {
  return vector.type().physical() == PhysicalType::kInt64 ? vector.data<int64_t>()[row]
                                                          : vector.data<int128_t>()[row];
}
inline void StoreDecimal(Vector& vector, idx_t row, int128_t value) {
  if (vector.type().physical() == PhysicalType::kInt64) {
    vector.data<int64_t>()[row] = static_cast<int64_t>(value);
  } else {
    vector.data<int128_t>()[row] = value;
  }
}

// ---- calendar ----
bool IsLeapYear(int64_t year);
unsigned DaysInMonth(int64_t year, unsigned month);
constexpr int64_t kMicrosPerSecond = 1000000;
constexpr int64_t kMicrosPerDay = 86400 * kMicrosPerSecond;
/// Floor division and modulo (for dates before 1970).
inline int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
inline int64_t FloorMod(int64_t a, int64_t b) {
  return a - FloorDiv(a, b) * b;
}

/// The parts extract / date_part / date_trunc name ("year", "months", "dow", ...).
enum class DatePart {
  kYear,
  kQuarter,
  kMonth,
  kWeek,
  kDay,
  kDayOfWeek,
  kIsoDayOfWeek,
  kDayOfYear,
  kHour,
  kMinute,
  kSecond,
  kMillisecond,
  kMicrosecond,
  kEpoch,
  kIsoYear,
  kDecade,
  kCentury,
  kMillennium,
  kEra,
};
bool ParseDatePart(std::string_view text, DatePart* part);

/// Parses the field of the current row, reusing the previous row's parse when the text is
/// the same (the field is a constant in practice).
class DatePartReader {
 public:
  explicit DatePartReader(const char* function) : function_(function) {}
  DatePart Read(std::string_view text) {
    if (!valid_ || text != text_) {
      if (!ParseDatePart(text, &field_)) {
        throw InvalidInputError("{}: unknown date part '{}'", function_, text);
      }
      text_.assign(text);
      valid_ = true;
    }
    return field_;
  }

 private:
  const char* function_;
  bool valid_ = false;
  std::string text_;
  DatePart field_ = DatePart::kYear;
};

/// Adds months, clamping the day to the target month's last day (Jan 31 + 1 month = Feb 28/29).
/// Returns a value past the int32 range when the year leaves what a DATE can hold.
int64_t AddMonthsToDays(int64_t days, int64_t months);

// ---- strings ----
/// Byte length of the UTF-8 sequence starting with `lead`.
inline int Utf8SequenceLength(unsigned char lead) {
  if (lead < 0x80) return 1;
  if (lead < 0xE0) return 2;
  if (lead < 0xF0) return 3;
  return 4;
}
/// Number of code points in valid UTF-8.
inline int64_t Utf8Length(std::string_view s) {
  int64_t n = 0;
  for (unsigned char c : s)
    n += (c & 0xC0) != 0x80;
  return n;
}
/// Lower-/upper-cases ASCII, Latin-1 Supplement, Greek and basic Cyrillic letters; every
/// mapping keeps the byte length, so offsets stay valid (ILIKE relies on it).
void Utf8Lower(std::string_view in, std::string* out);
void Utf8Upper(std::string_view in, std::string* out);

// ---- loops ----
// Every kernel is one of these loops. Rows where an input is NULL become NULL and the
// operation does not see them (so garbage under a NULL never raises an error); when all
// inputs are all-valid the loop has no per-row validity checks.

template <typename A, typename R, typename Op>
void UnaryLoop(const Vector& a, idx_t count, Vector& result, Op op) {
  const A* in = a.data<A>();
  R* out = result.data<R>();
  if (a.validity().AllValid()) {
    for (idx_t i = 0; i < count; i++)
      out[i] = op(in[i]);
    return;
  }
  for (idx_t i = 0; i < count; i++) {
    if (a.validity().IsValid(i)) {
      out[i] = op(in[i]);
    } else {
      result.validity().SetNull(i);
    }
  }
}

template <typename A, typename B, typename R, typename Op>
void BinaryLoop(const Vector& a, const Vector& b, idx_t count, Vector& result, Op op) {
  const A* left = a.data<A>();
  const B* right = b.data<B>();
  R* out = result.data<R>();
  if (a.validity().AllValid() && b.validity().AllValid()) {
    for (idx_t i = 0; i < count; i++)
      out[i] = op(left[i], right[i]);
    return;
  }
  for (idx_t i = 0; i < count; i++) {
    if (a.validity().IsValid(i) && b.validity().IsValid(i)) {
      out[i] = op(left[i], right[i]);
    } else {
      result.validity().SetNull(i);
    }
  }
}

/// Calls `op(row)` for every row where all `args` are valid; the other rows become NULL.
template <typename Op>
void ForEachValidRow(const std::vector<const Vector*>& args, idx_t count, Vector& result, Op op) {
  bool all_valid = true;
  for (const Vector* arg : args)
    all_valid = all_valid && arg->validity().AllValid();
  if (all_valid) {
    for (idx_t i = 0; i < count; i++)
      op(i);
    return;
  }
  for (idx_t i = 0; i < count; i++) {
    bool valid = true;
    for (const Vector* arg : args)
      valid = valid && arg->validity().IsValid(i);
    if (valid) {
      op(i);
    } else {
      result.validity().SetNull(i);
    }
  }
}

}  // namespace function_internal
}  // namespace shears

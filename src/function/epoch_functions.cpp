// Conversions between timestamps and counts since 1970 beyond date_functions.cpp's epoch_ms,
// and make_time: epoch_us / epoch_ns of a TIMESTAMP (DuckDB's; a DATE is its midnight, an
// implicit cast), make_time(hour, minute, seconds) (PostgreSQL, DuckDB).

#include <cmath>

#include "function/date_internal.h"
#include "function/function_internal.h"

namespace shears {
namespace function_internal {

namespace {
using Args = std::vector<const Vector*>;
}  // namespace

void RegisterEpochFunctions(FunctionRegistry& registry) {
  const LogicalType timestamp = LogicalType::Timestamp(), bigint = LogicalType::Bigint();
  RegisterFixed(registry, "epoch_us", {timestamp}, bigint,
                [](const Args& args, idx_t count, Vector& result) {
                  FiniteTimestampLoop(*args[0], count, result, [](int64_t us) { return us; });
                });
  RegisterFixed(registry, "epoch_ns", {timestamp}, bigint,
                [](const Args& args, idx_t count, Vector& result) {
                  FiniteTimestampLoop(*args[0], count, result, [](int64_t us) {
                    int64_t ns;
                    if (__builtin_mul_overflow(us, int64_t{1000}, &ns)) {
                      throw OutOfRangeError(
                          "epoch_ns: the timestamp is out of the range of BIGINT nanoseconds");
                    }
                    return ns;
                  });
                });
  RegisterFixed(registry, "make_time", {bigint, bigint, LogicalType::Double()}, LogicalType::Time(),
                [](const Args& args, idx_t count, Vector& result) {
                  int64_t* out = result.data<int64_t>();
                  ForEachValidRow(args, count, result, [&](idx_t row) {
                    const int64_t hour = args[0]->data<int64_t>()[row];
                    const int64_t minute = args[1]->data<int64_t>()[row];
                    const double seconds = args[2]->data<double>()[row];
                    if (hour < 0 || hour > 23 || minute < 0 || minute > 59 ||
                        !(seconds >= 0 && seconds < 60)) {
                      throw OutOfRangeError("make_time({}, {}, {}): time out of range", hour,
                                            minute, seconds);
                    }
                    out[row] = (hour * 60 + minute) * 60000000 +
                               static_cast<int64_t>(std::llround(seconds * 1e6));
                  });
                });
}

}  // namespace function_internal
}  // namespace shears

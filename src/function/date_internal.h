#pragma once
// What the date functions' files share: civil dates, weekdays, ISO weeks, day and month
// names, and the strftime / strptime kernels (strftime.cpp).

#include <cstdint>

#include "function/function_internal.h"

namespace shears {
namespace function_internal {

struct Civil {
  int64_t year;
  unsigned month, day;
};

inline Civil ToCivil(int64_t days) {
  Civil c;
  CivilFromDays(days, &c.year, &c.month, &c.day);
  return c;
}

/// 0 = Sunday.
inline int64_t DayOfWeek(int64_t days) {
  return FloorMod(days + 4, 7);
}  // 1970-01-01 was a Thursday

/// The ISO 8601 year and week: weeks start on Monday; week 1 holds the year's first Thursday.
inline void IsoWeek(int64_t days, int64_t* iso_year, int64_t* week) {
  const int64_t iso_dow = (DayOfWeek(days) + 6) % 7;  // 0 = Monday
  const int64_t thursday = days - iso_dow + 3;
  *iso_year = ToCivil(thursday).year;
  *week = (thursday - DaysFromCivil(*iso_year, 1, 1)) / 7 + 1;
}

inline void SplitTimestamp(int64_t micros, int64_t* days, int64_t* micros_of_day) {
  *days = FloorDiv(micros, kMicrosPerDay);
  *micros_of_day = micros - *days * kMicrosPerDay;
}

/// A DATE's midnight (an infinite DATE the infinite TIMESTAMP), or a TIMESTAMP.
inline int64_t TimestampArg(const Vector& v, idx_t row) {
  if (v.type().id() != TypeId::kDate) return v.data<int64_t>()[row];
  const int32_t days = v.data<int32_t>()[row];
  int64_t micros;
  if (!DateToTimestamp(days, &micros)) {
    throw OutOfRangeError("DATE {} is out of the TIMESTAMP range", FormatDate(days));
  }
  return micros;
}

/// A TIMESTAMP -> BIGINT function whose value at an infinity is NULL (DuckDB's epoch_ms and
/// the like).
template <typename Op>
void FiniteTimestampLoop(const Vector& in, idx_t count, Vector& result, Op op) {
  int64_t* out = result.data<int64_t>();
  ForEachValidRow({&in}, count, result, [&](idx_t row) {
    const int64_t micros = in.data<int64_t>()[row];
    if (!IsFiniteTimestamp(micros)) return result.validity().SetNull(row);
    out[row] = op(micros);
  });
}

inline constexpr const char* kDayNames[] = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                            "Thursday", "Friday", "Saturday"};
inline constexpr const char* kMonthNames[] = {"January",   "February", "March",    "April",
                                              "May",       "June",     "July",     "August",
                                              "September", "October",  "November", "December"};

/// strftime(x, format) -> VARCHAR.
ScalarKernel StrftimeKernel();
/// to_char(x, pattern) -> VARCHAR with PostgreSQL's template patterns (strftime.cpp).
ScalarKernel ToCharKernel();
/// strptime(text, format) -> TIMESTAMP; try_strptime (`try_only`) gives NULL where it fails.
ScalarKernel StrptimeKernel(bool try_only);

}  // namespace function_internal
}  // namespace shears

#pragma once
// DuckDB's infinite DATE and TIMESTAMP values ('infinity', '-infinity'): the extremes of the
// storage type (int32 days, int64 microseconds; the negative one is -max, not min), so they
// sort, compare, hash and are written to Parquet as the plain integers they are, as DuckDB
// writes them. Functions that compute with the calendar test IsFinite* first.

#include <cstdint>
#include <limits>
#include <string_view>

namespace shears {

constexpr int32_t kDateInfinity = std::numeric_limits<int32_t>::max();
constexpr int32_t kDateNegativeInfinity = -kDateInfinity;
constexpr int64_t kTimestampInfinity = std::numeric_limits<int64_t>::max();
constexpr int64_t kTimestampNegativeInfinity = -kTimestampInfinity;

constexpr bool IsFiniteDate(int64_t days) {
  return days != kDateInfinity && days != kDateNegativeInfinity;
}
constexpr bool IsFiniteTimestamp(int64_t micros) {
  return micros != kTimestampInfinity && micros != kTimestampNegativeInfinity;
}

/// The special words of date and timestamp text, as DuckDB reads them (any case, blanks
/// around): 'infinity' / 'inf', '-infinity' / '-inf', 'epoch' (1970-01-01; '-epoch' too).
enum class SpecialDatetime { kNone, kInfinity, kNegativeInfinity, kEpoch };
SpecialDatetime ParseSpecialDatetime(std::string_view text);

/// A DATE's midnight as a TIMESTAMP; infinities stay infinite. False when a finite date is
/// past the TIMESTAMP range (about 294,000 years).
bool DateToTimestamp(int32_t days, int64_t* micros);
/// The DATE of a TIMESTAMP (days rounded down); infinities stay infinite.
int32_t TimestampToDate(int64_t micros);

}  // namespace shears

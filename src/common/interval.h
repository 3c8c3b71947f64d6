#pragma once
// INTERVAL values: months, days and microseconds kept apart (a month has no fixed length, a
// day may be 23 or 25 hours elsewhere), as PostgreSQL and DuckDB keep them; their text form
// and the parser of interval text (literals, casts from VARCHAR).

#include <cstdint>
#include <string>
#include <string_view>

#include "common/types.h"

namespace shears {

struct Interval {
  int32_t months = 0;
  int32_t days = 0;
  int64_t micros = 0;
};

constexpr int64_t kMicrosPerIntervalDay = 86400LL * 1000000;
constexpr int64_t kDaysPerIntervalMonth = 30;

/// The interval's length in microseconds, a month counted as 30 days and a day as 24 hours
/// (DuckDB's normalization, which orders and compares intervals).
int128_t IntervalLength(const Interval& interval);

/// In vectors an INTERVAL is one int128: the high 64 bits hold its length (IntervalLength),
/// the low 64 bits its months and days, from which the microseconds follow exactly. The
/// int128's order is then DuckDB's order of intervals (by length), so sorting, min/max,
/// comparisons, hashing and statistics need no interval code. Two intervals of equal length
/// but different parts ('1 month', '30 days') are distinct values here (DuckDB: equal).
/// Returns false when the length does not fit in 64 bits (about 292,000 years).
bool PackInterval(const Interval& interval, int128_t* packed);
Interval UnpackInterval(int128_t packed);
/// PackInterval that throws OutOfRangeError ("INTERVAL out of range ...").
int128_t PackIntervalChecked(const Interval& interval);

/// DuckDB's text: `1 year 2 months 3 days 04:05:06.5`, `-1 day`, `00:00:00`.
std::string FormatInterval(const Interval& interval);

/// Whether `word` names an interval unit ("day", "Days", "hrs", ...).
bool IsIntervalUnit(std::string_view word);

/// Parses interval text ('1 day', '2 hours 30 minutes', '1 02:03:04', '1-2', '3 days ago').
/// `field_mask` is PostgreSQL's typmod of `INTERVAL '3' DAY` (-1 when absent): it gives the
/// unit of a bare number. Returns false with `error` set when the text is malformed or out of
/// range.
bool ParseIntervalText(std::string_view text, int field_mask, Interval* interval,
                       std::string* error);

}  // namespace shears

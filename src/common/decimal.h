#pragma once
// Decimal arithmetic helpers shared by every layer that handles unscaled DECIMAL values: casts,
// arithmetic and aggregates, Parquet conversion, Hive partition values.

#include <string_view>

#include "common/types.h"

namespace shears {

/// 10^n for 0 <= n <= 38 (DECIMAL's widest precision), from a table.
int128_t Pow10(int n);
/// Divides by 10^digits rounding half away from zero.
int128_t DivPow10Round(int128_t value, int digits);

/// Parses decimal text (sign, digits, point, exponent; surrounding whitespace allowed) into
/// an unscaled value at `scale`, rounding half away from zero. kOverflow when the result
/// has more than `precision` digits.
enum class DecimalParse { kOk, kInvalid, kOverflow };
DecimalParse ParseDecimalText(std::string_view text, int precision, int scale, int128_t* out);

}  // namespace shears

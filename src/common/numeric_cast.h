#pragma once
// Conversions of floating-point estimates, sizes and ratios to integers. Casting a double outside
// an integer type's range (or NaN) is undefined behaviour, and estimates multiply freely: every
// such conversion goes through here.

#include <cmath>
#include <limits>
#include <string>

namespace shears {

/// `value` truncated toward zero and clamped to Int's range; NaN gives 0.
template <class Int>
Int SaturatingCast(double value) {
  static_assert(std::numeric_limits<Int>::is_integer);
  if (std::isnan(value)) return 0;
  // The bounds as doubles: max() may round up (2^63 for int64_t), so compare with >=.
  constexpr double kMax = static_cast<double>(std::numeric_limits<Int>::max());
  constexpr double kMin = static_cast<double>(std::numeric_limits<Int>::min());
  if (value >= kMax) return std::numeric_limits<Int>::max();
  if (value <= kMin) return std::numeric_limits<Int>::min();
  return static_cast<Int>(value);
}

/// A row or byte estimate for EXPLAIN: whole numbers (truncated) below 10^15, then scientific
/// notation
/// (`1.0e+27`), "inf" when it overflowed a double.
std::string FormatEstimate(double value);

}  // namespace shears

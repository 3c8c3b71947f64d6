#include "common/numeric_cast.h"

#include <fmt/format.h>

namespace shears {

std::string FormatEstimate(double value) {
  if (std::isnan(value)) return "unknown";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  // Truncated, as estimates always printed (31.9 estimated rows show as 31).
  if (std::fabs(value) < 1e15) return fmt::format("{:.0f}", std::trunc(value));
  return fmt::format("{:.1e}", value);
}

}  // namespace shears

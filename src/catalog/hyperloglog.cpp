#include "catalog/hyperloglog.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "common/numeric_cast.h"

namespace shears {

void HyperLogLog::AddHash(uint64_t hash) {
  const auto index = static_cast<size_t>(hash >> (64 - kPrecision));
  // Rank of the first 1 bit in the remaining 52 bits (1-based); all zeros count as 53.
  const uint64_t rest = hash << kPrecision;
  const int rank =
      rest == 0 ? 64 - kPrecision + 1 : std::min(std::countl_zero(rest) + 1, 64 - kPrecision + 1);
  registers_[index] = std::max(registers_[index], static_cast<uint8_t>(rank));
}

void HyperLogLog::Merge(const HyperLogLog& other) {
  for (size_t i = 0; i < registers_.size(); i++)
    registers_[i] = std::max(registers_[i], other.registers_[i]);
}

int64_t HyperLogLog::Estimate() const {
  constexpr double m = kRegisters;
  const double alpha = 0.7213 / (1 + 1.079 / m);
  double sum = 0;
  int zeros = 0;
  for (uint8_t r : registers_) {
    sum += std::ldexp(1.0, -r);
    zeros += r == 0 ? 1 : 0;
  }
  double estimate = alpha * m * m / sum;
  if (estimate <= 2.5 * m && zeros > 0) estimate = m * std::log(m / zeros);
  return SaturatingCast<int64_t>(std::round(estimate));
}

}  // namespace shears

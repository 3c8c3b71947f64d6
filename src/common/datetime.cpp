#include "common/datetime.h"

#include "common/string_util.h"

namespace shears {

namespace {
constexpr int64_t kMicrosPerDay = 86400LL * 1000000LL;
}  // namespace

SpecialDatetime ParseSpecialDatetime(std::string_view text) {
  text = TrimWhitespace(text);
  const bool negative = !text.empty() && text[0] == '-';
  if (negative) text.remove_prefix(1);
  if (EqualsAsciiLower(text, "infinity") || EqualsAsciiLower(text, "inf")) {
    return negative ? SpecialDatetime::kNegativeInfinity : SpecialDatetime::kInfinity;
  }
  if (EqualsAsciiLower(text, "epoch")) return SpecialDatetime::kEpoch;  // '-epoch' too (DuckDB)
  return SpecialDatetime::kNone;
}

bool DateToTimestamp(int32_t days, int64_t* micros) {
  if (days == kDateInfinity) {
    *micros = kTimestampInfinity;
    return true;
  }
  if (days == kDateNegativeInfinity) {
    *micros = kTimestampNegativeInfinity;
    return true;
  }
  // The infinities are the int64 extremes: a finite date must not land on one.
  return !__builtin_mul_overflow(int64_t{days}, kMicrosPerDay, micros) &&
         IsFiniteTimestamp(*micros);
}

int32_t TimestampToDate(int64_t micros) {
  if (micros == kTimestampInfinity) return kDateInfinity;
  if (micros == kTimestampNegativeInfinity) return kDateNegativeInfinity;
  int64_t days = micros / kMicrosPerDay;
  if (micros % kMicrosPerDay < 0) days--;
  return static_cast<int32_t>(days);
}

}  // namespace shears

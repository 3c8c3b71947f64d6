#include "common/decimal.h"

#include "common/string_util.h"

namespace shears {

namespace {
struct Pow10Table {
  int128_t values[39];
  constexpr Pow10Table() : values() {
    int128_t v = 1;
    for (int i = 0; i <= 38; i++) {
      values[i] = v;
      if (i < 38) v *= 10;
    }
  }
};
constexpr Pow10Table kPow10;

}  // namespace

int128_t Pow10(int n) {
  return kPow10.values[n];
}

int128_t DivPow10Round(int128_t value, int digits) {
  if (digits <= 0) return value;
  if (digits > 38) return 0;  // |value| < 1.8e38 < 0.5e39
  const int128_t divisor = kPow10.values[digits];
  int128_t quotient = value / divisor;
  int128_t remainder = value % divisor;
  uint128_t magnitude =
      remainder < 0 ? -static_cast<uint128_t>(remainder) : static_cast<uint128_t>(remainder);
  if (magnitude * 2 >= static_cast<uint128_t>(divisor)) quotient += value < 0 ? -1 : 1;
  return quotient;
}

DecimalParse ParseDecimalText(std::string_view text, int precision, int scale, int128_t* out) {
  text = TrimWhitespace(text);
  size_t pos = 0;
  bool negative = false;
  if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    negative = text[pos] == '-';
    pos++;
  }
  // The value is D * 10^exponent, D being the significant digits kept in `digits`. Digits
  // past kMaxDigits cannot matter: a value that long overflows 38 digits before its
  // rounding position is reached.
  constexpr int kMaxDigits = 80;
  char digits[kMaxDigits];
  int digit_count = 0;
  int64_t exponent = 0;
  bool any_digit = false, seen_point = false;
  for (; pos < text.size(); pos++) {
    char c = text[pos];
    if (c == '.' && !seen_point) {
      seen_point = true;
      continue;
    }
    if (c < '0' || c > '9') break;
    any_digit = true;
    if (digit_count == 0 && c == '0') {
      if (seen_point) exponent--;
      continue;
    }
    if (digit_count < kMaxDigits) {
      digits[digit_count++] = c;
      if (seen_point) exponent--;
    } else if (!seen_point) {
      exponent++;
    }
  }
  if (!any_digit) return DecimalParse::kInvalid;
  if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
    pos++;
    bool exp_negative = false;
    if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
      exp_negative = text[pos] == '-';
      pos++;
    }
    size_t start = pos;
    int64_t exp_value = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      if (exp_value < 100000) exp_value = exp_value * 10 + (text[pos] - '0');
      pos++;
    }
    if (pos == start) return DecimalParse::kInvalid;
    exponent += exp_negative ? -exp_value : exp_value;
  }
  if (pos != text.size()) return DecimalParse::kInvalid;
  if (digit_count == 0) {
    *out = 0;
    return DecimalParse::kOk;
  }
  const int64_t shift = exponent + scale;
  int128_t unscaled = 0;
  if (shift >= 0) {
    if (digit_count + shift > 38) return DecimalParse::kOverflow;
    for (int i = 0; i < digit_count; i++)
      unscaled = unscaled * 10 + (digits[i] - '0');
    unscaled *= kPow10.values[shift];
  } else {
    const int64_t keep = digit_count + shift;
    if (keep > 38) return DecimalParse::kOverflow;
    if (keep >= 0) {
      for (int64_t i = 0; i < keep; i++)
        unscaled = unscaled * 10 + (digits[i] - '0');
      if (digits[keep] >= '5') unscaled += 1;
    }
  }
  if (unscaled >= kPow10.values[precision]) return DecimalParse::kOverflow;
  *out = negative ? -unscaled : unscaled;
  return DecimalParse::kOk;
}

}  // namespace shears

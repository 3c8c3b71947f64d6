#pragma once
// The comparison operators' semantics on one physical type, shared by the comparison kernels
// (comparison.cpp) and the executor's selection of `column OP constant`
// (expression/constant_comparison.cpp), so both agree on every value. Strings compare bytewise
// (UTF-8 code point order); DOUBLE follows PostgreSQL: NaN equals NaN and sorts above every
// number.

#include <algorithm>
#include <cmath>
#include <cstring>

#include "common/types.h"

namespace shears {
namespace compare_ops {

inline int CompareStrings(StringRef a, StringRef b) {
  const size_t common = std::min(a.len, b.len);
  int c = common == 0 ? 0 : std::memcmp(a.ptr, b.ptr, common);
  if (c != 0) return c;
  return a.len < b.len ? -1 : (a.len > b.len ? 1 : 0);
}

struct Equal {
  template <typename T>
  static bool Apply(T l, T r) {
    return l == r;
  }
  static bool Apply(double l, double r) { return l == r || (std::isnan(l) && std::isnan(r)); }
  static bool Apply(StringRef l, StringRef r) { return l == r; }
};
struct NotEqual {
  template <typename T>
  static bool Apply(T l, T r) {
    return !Equal::Apply(l, r);
  }
};
struct Less {
  template <typename T>
  static bool Apply(T l, T r) {
    return l < r;
  }
  static bool Apply(double l, double r) { return !std::isnan(l) && (std::isnan(r) || l < r); }
  static bool Apply(StringRef l, StringRef r) { return CompareStrings(l, r) < 0; }
};
struct LessEqual {
  template <typename T>
  static bool Apply(T l, T r) {
    return l <= r;
  }
  static bool Apply(double l, double r) { return std::isnan(r) || (!std::isnan(l) && l <= r); }
  static bool Apply(StringRef l, StringRef r) { return CompareStrings(l, r) <= 0; }
};
struct Greater {
  template <typename T>
  static bool Apply(T l, T r) {
    return Less::Apply(r, l);
  }
};
struct GreaterEqual {
  template <typename T>
  static bool Apply(T l, T r) {
    return LessEqual::Apply(r, l);
  }
};

}  // namespace compare_ops
}  // namespace shears

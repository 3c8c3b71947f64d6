#pragma once
// The expressions of an operator in its EXPLAIN line (FILTER's conditions, PROJECTION's list).

#include <string>
#include <vector>

#include "expression/expression.h"

namespace shears {

inline std::string JoinExprs(const std::vector<BoundExprPtr>& exprs, const char* sep) {
  std::string out;
  for (size_t i = 0; i < exprs.size(); i++)
    out += (i ? sep : "") + exprs[i]->ToString();
  return out;
}

}  // namespace shears

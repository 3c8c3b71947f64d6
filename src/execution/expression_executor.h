#pragma once
// Evaluates bound expressions (in physical form: BoundReference to input columns) over a
// batch, vector at a time.

#include "common/vector.h"
#include "planner/expression.h"

namespace shears {

class ExpressionExecutor {
 public:
  /// Evaluates `expr` over the `input.size()` rows of `input` into `result` (which must have
  /// expr.type; it is reset first).
  static void Execute(const BoundExpr& expr, const Batch& input, Vector& result);
  /// Writes the rows where `predicate` is TRUE (not FALSE, not NULL) into `sel`; returns how
  /// many.
  static idx_t Select(const BoundExpr& predicate, const Batch& input, SelectionVector& sel);
  /// Evaluates a constant expression (no column references) to a Value.
  static Value EvaluateConstant(const BoundExpr& expr);
};

}  // namespace shears

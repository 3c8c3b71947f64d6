#pragma once
// Evaluates bound expressions (in physical form: BoundReference to input columns) over a
// batch, vector at a time.

#include "common/vector.h"
#include "expression/expression.h"

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

/// The input columns (BoundReference indexes) `exprs` read, ascending, each once: those an
/// operator must see in order (flattened) to evaluate them.
std::vector<idx_t> ReferencedColumns(const std::vector<const BoundExpr*>& exprs);

/// Whether `expr` never raises an error on any row, so it may be evaluated on rows (or
/// values) that do not need it: column references, constants, comparisons, LIKE with constant
/// patterns, IN, IS NULL, CASE and logic over such. Conservative: arithmetic may overflow,
/// casts and most functions may reject a value. All of these are deterministic.
bool CannotFail(const BoundExpr& expr);

}  // namespace shears

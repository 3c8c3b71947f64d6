#pragma once
// The kernels of the list functions that take a lambda (list_transform, list_filter,
// list_reduce). A lambda's body is a bound expression over one batch whose columns are the
// lambda's parameters followed by the columns it captures from its row; the kernel lays the
// lists' elements out as rows of such batches and evaluates the body vector at a time.

#include <memory>

#include "expression/expression.h"
#include "function/function.h"

namespace shears {

/// What a lambda kernel needs: the body (over BoundReferences: parameters, then captures), the
/// parameters' count, and where the captured columns start among the call's arguments.
struct LambdaBody {
  std::shared_ptr<const BoundExpr> body;
  LogicalType element;       // the list's element type
  size_t params = 1;         // x, or (x, i) / (acc, x) / (acc, x, i)
  size_t first_capture = 1;  // argument index of the first captured column
  size_t captures = 0;
};

/// list_transform(l, x -> f(x)): each element replaced by the body's value (LIST of the body's
/// type); a NULL list gives NULL. With two parameters the second is the 1-based position.
ScalarKernel MakeListTransformKernel(LambdaBody lambda, LogicalType result_element);
/// list_filter(l, x -> p(x)): the elements where the body is TRUE, in order.
ScalarKernel MakeListFilterKernel(LambdaBody lambda);
/// list_reduce(l, (acc, x) -> f(acc, x) [, initial]): folds the elements left to right into an
/// accumulator of type `accumulator` (the first element, or argument 1 when `has_initial`); a
/// third parameter is the position of x. An empty list without an initial value is an
/// InvalidInputError.
ScalarKernel MakeListReduceKernel(LambdaBody lambda, LogicalType accumulator, bool has_initial);

}  // namespace shears

// list_transform, list_filter and list_reduce with DuckDB's lambdas: `x -> x + 1`,
// `(x, i) -> x * i`, `(acc, x) -> acc + x`. The parser hands the lambda over as an operator
// "lambda" (parameters, then body). The body is bound with the parameters in sight as columns
// of a table index of their own; then every column reference in it becomes a position in the
// batch the kernel evaluates it on (the parameters first, then each column of the row it
// captures, which become arguments of the call, so the plan provides them as for any function).

#include <memory>

#include "common/error.h"
#include "common/string_util.h"
#include "expression/lambda.h"
#include "planner/bind_context.h"

namespace shears {

namespace {

enum class LambdaKind { kTransform, kFilter, kReduce };

LambdaKind KindOf(const std::string& name) {
  if (name.find("filter") != std::string::npos) return LambdaKind::kFilter;
  if (name.find("reduce") != std::string::npos) return LambdaKind::kReduce;
  return LambdaKind::kTransform;
}

/// Replaces the references to the lambda's parameters (columns of `table_index`) by their
/// positions and every other column by a captured one after them, collected in `captures`.
BoundExprPtr Localize(BoundExprPtr expr, uint32_t table_index, size_t params,
                      std::vector<BoundExprPtr>& captures) {
  if (expr->kind == BoundExprKind::kColumnRef) {
    const auto& ref = static_cast<const BoundColumnRef&>(*expr);
    if (ref.binding.table_index == table_index) {
      return std::make_unique<BoundReference>(ref.type, ref.binding.column_index, ref.name);
    }
    size_t k = 0;
    while (k < captures.size() &&
           !(static_cast<const BoundColumnRef&>(*captures[k]).binding == ref.binding)) {
      k++;
    }
    if (k == captures.size()) captures.push_back(expr->Copy());
    return std::make_unique<BoundReference>(ref.type, params + k, ref.name);
  }
  if (expr->kind == BoundExprKind::kSubquery || expr->kind == BoundExprKind::kAggregate ||
      expr->kind == BoundExprKind::kWindow) {
    throw BinderError("a lambda's body cannot hold subqueries, aggregates or window functions");
  }
  for (BoundExprPtr* child : expr->Children())
    *child = Localize(std::move(*child), table_index, params, captures);
  return expr;
}

}  // namespace

BoundExprPtr Binder::BindLambdaParameter(const std::string& name) const {
  for (auto frame = lambda_frames_.rbegin(); frame != lambda_frames_.rend(); ++frame) {
    for (size_t i = 0; i < frame->names.size(); i++) {
      if (frame->names[i] == name) {
        return std::make_unique<BoundColumnRef>(
            frame->types[i], ColumnBinding{frame->table_index, static_cast<uint32_t>(i)}, name);
      }
    }
  }
  return nullptr;
}

BoundExprPtr Binder::BindLambdaCall(const ast::FunctionExpr& fn, const std::string& name,
                                    ExprContext& ctx) {
  const LambdaKind kind = KindOf(name);
  if (fn.distinct || fn.star || fn.filter || !fn.order_by.empty() || !fn.named_args.empty()) {
    throw BinderError("{} takes a list and a lambda, without DISTINCT, *, FILTER or ORDER BY",
                      name);
  }
  const size_t max_args = kind == LambdaKind::kReduce ? 3 : 2;
  if (fn.args.size() < 2 || fn.args.size() > max_args) {
    throw BinderError("{} takes a list and a lambda{} ({} arguments given)", name,
                      kind == LambdaKind::kReduce ? " and an optional initial value" : "",
                      fn.args.size());
  }
  const auto* lambda = fn.args[1]->kind == ast::ExprKind::kOperator
                           ? static_cast<const ast::OperatorExpr*>(fn.args[1].get())
                           : nullptr;
  if (lambda == nullptr || lambda->op != "lambda") {
    throw BinderError("{}: the second argument must be a lambda such as x -> x + 1, not {}", name,
                      fn.args[1]->ToString());
  }

  BoundExprPtr list = TypeUntyped(BindExpr(*fn.args[0], ctx));
  if (!list->type.IsList()) {
    throw BinderError("{} needs a LIST as its first argument, not {}", name, list->type.ToString());
  }
  LogicalType element = list->type.element();
  if (!element.valid()) {
    // [] and [NULL]: elements of no type yet, INTEGER as DuckDB makes them.
    element = LogicalType::Integer();
    list = CastTo(std::move(list), LogicalType::List(element));
  }

  std::vector<std::string> params;
  for (size_t i = 0; i + 1 < lambda->children.size(); i++) {
    params.push_back(static_cast<const ast::ColumnRefExpr&>(*lambda->children[i]).names.back());
  }
  const size_t min_params = kind == LambdaKind::kReduce ? 2 : 1;
  if (params.size() < min_params || params.size() > min_params + 1) {
    throw BinderError(
        "{}'s lambda takes {} or {} parameters ({}), not {}", name, min_params, min_params + 1,
        kind == LambdaKind::kReduce ? "accumulator, element [, position]" : "element [, position]",
        params.size());
  }

  std::vector<BoundExprPtr> args;
  args.push_back(std::move(list));
  LogicalType accumulator = element;
  if (fn.args.size() == 3) {
    BoundExprPtr initial = TypeUntyped(BindExpr(*fn.args[2], ctx));
    auto common = CommonType(element, initial->type);
    if (!common) {
      throw BinderError(
          "list_reduce: the initial value ({}) and the list's elements ({}) have no "
          "common type",
          initial->type.ToString(), element.ToString());
    }
    accumulator = *common;
    if (!(accumulator == element)) {
      element = accumulator;
      args[0] = CastTo(std::move(args[0]), LogicalType::List(element));
    }
    args.push_back(CastTo(std::move(initial), accumulator));
  }

  LambdaFrame frame;
  frame.names = params;
  frame.table_index = NewTableIndex();
  if (kind == LambdaKind::kReduce)
    frame.types = {accumulator, element};
  else
    frame.types = {element};
  if (params.size() > frame.types.size()) frame.types.push_back(LogicalType::Bigint());
  ExprContext body_ctx = ctx;
  body_ctx.aggregates = nullptr;
  body_ctx.windows = nullptr;
  body_ctx.subqueries = false;
  body_ctx.clause = "lambda";
  lambda_frames_.push_back(frame);
  BoundExprPtr body;
  try {
    body = TypeUntyped(BindExpr(*lambda->children.back(), body_ctx));
  } catch (...) {
    lambda_frames_.pop_back();
    throw;
  }
  lambda_frames_.pop_back();

  LogicalType return_type;
  switch (kind) {
    case LambdaKind::kTransform:
      return_type = LogicalType::List(body->type);
      break;
    case LambdaKind::kFilter:
      if (body->type.id() != TypeId::kBoolean) {
        if (!body->type.IsNumeric()) {
          throw BinderError("{}: the lambda must give a BOOLEAN, not {}", name,
                            body->type.ToString());
        }
        body = CastTo(std::move(body), LogicalType::Boolean());
      }
      return_type = args[0]->type;
      break;
    case LambdaKind::kReduce:
      body = CastTo(std::move(body), accumulator);
      return_type = accumulator;
      break;
  }

  LambdaBody lambda_body;
  lambda_body.element = element;
  lambda_body.params = params.size();
  lambda_body.first_capture = args.size();
  std::vector<BoundExprPtr> captures;
  body = Localize(std::move(body), frame.table_index, params.size(), captures);
  lambda_body.captures = captures.size();
  const bool deterministic = !CallsVolatile(*body);
  lambda_body.body = std::shared_ptr<const BoundExpr>(std::move(body));
  for (auto& capture : captures)
    args.push_back(std::move(capture));

  BoundScalarFunction function;
  function.name = name;
  function.lambda = lambda->ToString();
  for (const auto& arg : args)
    function.arg_types.push_back(arg->type);
  function.return_type = return_type;
  function.null_propagating = false;  // a NULL captured value is the body's business
  function.deterministic = deterministic;
  switch (kind) {
    case LambdaKind::kTransform:
      function.kernel = MakeListTransformKernel(std::move(lambda_body), return_type.element());
      break;
    case LambdaKind::kFilter:
      function.kernel = MakeListFilterKernel(std::move(lambda_body));
      break;
    case LambdaKind::kReduce:
      function.kernel =
          MakeListReduceKernel(std::move(lambda_body), accumulator, fn.args.size() == 3);
      break;
  }
  return std::make_unique<BoundFunction>(std::move(function), std::move(args));
}

}  // namespace shears

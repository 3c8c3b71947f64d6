// Aggregate calls: which AggregateKind a name and its arguments are, the result type (DuckDB's
// for each), the inputs the kernels get and the constant parameters (quantile fractions,
// string_agg's separator, the ORDER BY of ordered aggregates and of WITHIN GROUP). Used for
// plain aggregates and for aggregates over windows alike.

#include <cmath>

#include "common/error.h"
#include "function/function.h"
#include "planner/bind_context.h"
#include "planner/binder.h"

namespace shears {

namespace {

const char* const kAggregateNames[] = {"count",
                                       "sum",
                                       "avg",
                                       "mean",
                                       "min",
                                       "max",
                                       "stddev_samp",
                                       "stddev",
                                       "any_value",
                                       "first",
                                       "last",
                                       "arbitrary",
                                       "stddev_pop",
                                       "var_samp",
                                       "variance",
                                       "var_pop",
                                       "covar_pop",
                                       "covar_samp",
                                       "corr",
                                       "bool_and",
                                       "bool_or",
                                       "every",
                                       "arg_min",
                                       "arg_max",
                                       "argmin",
                                       "argmax",
                                       "min_by",
                                       "max_by",
                                       "median",
                                       "quantile",
                                       "quantile_cont",
                                       "quantile_disc",
                                       "percentile_cont",
                                       "percentile_disc",
                                       "mode",
                                       "string_agg",
                                       "list",
                                       "array_agg",
                                       "group_concat",
                                       "listagg",
                                       "approx_count_distinct",
                                       "bit_and",
                                       "bit_or",
                                       "bit_xor",
                                       "product",
                                       "regr_count",
                                       "regr_avgx",
                                       "regr_avgy",
                                       "regr_sxx",
                                       "regr_syy",
                                       "regr_sxy",
                                       "regr_slope",
                                       "regr_intercept",
                                       "regr_r2",
                                       "mad",
                                       "entropy",
                                       "histogram",
                                       "skewness",
                                       "kurtosis",
                                       "kurtosis_pop",
                                       "approx_quantile",
                                       "reservoir_quantile"};

/// Aggregates computed by a list function from the list of the values (list(x)): those that
/// need every value at once, finished by the same kernel as their list_ form.
const std::pair<const char*, const char*> kListFinished[] = {
    {"mad", "list_mad"},
    {"entropy", "__aggregate_entropy"},  // 0, not NULL, without rows (DuckDB's)
    {"histogram", "list_histogram"},
    {"skewness", "list_skewness"},
    {"kurtosis", "list_kurtosis"},
    {"kurtosis_pop", "list_kurtosis_pop"}};

/// Whether the order of the values cannot change the result (ORDER BY inside is ignored).
bool OrderInsensitive(AggregateKind kind) {
  return kind != AggregateKind::kStringAgg && kind != AggregateKind::kAny &&
         kind != AggregateKind::kFirst && kind != AggregateKind::kLast;
}

bool IsTemporal(const LogicalType& t) {
  return t.id() == TypeId::kDate || t.id() == TypeId::kTimestamp;
}

void RequireNumeric(const std::string& name, const BoundExprPtr& arg) {
  if (arg->type.valid() && !arg->type.IsNumeric()) {
    throw BinderError("{} is not defined for {}", name, arg->type.ToString());
  }
}

/// A quantile's fraction: a constant number in [0, 1]. DECIMAL constants are also kept exactly
/// (quantile_disc computes its position from them in integers, as DuckDB).
void SetFraction(const std::string& name, const BoundExpr& expr, AggregateParams& params) {
  if (expr.kind != BoundExprKind::kConstant) {
    throw BinderError("the fraction of {} must be a constant", name);
  }
  const Value& value = static_cast<const BoundConstant&>(expr).value;
  if (value.is_null()) throw BinderError("the fraction of {} must not be NULL", name);
  const LogicalType& t = value.type();
  if (!t.IsNumeric()) {
    throw BinderError("the fraction of {} must be a number, not {}{}", name, t.ToString(),
                      t.id() == TypeId::kVarchar ? "" : " (lists of fractions are not supported)");
  }
  const double fraction = CastValue(value, LogicalType::Double()).GetDouble();
  if (!(fraction >= 0 && fraction <= 1)) {
    throw BinderError("the fraction of {} must be between 0 and 1, not {}", name, value.ToString());
  }
  params.fraction = fraction;
  params.fraction_scale = -1;
  if (t.id() == TypeId::kDecimal && t.scale() <= 18) {
    params.fraction_units = static_cast<int64_t>(value.GetInt128());
    params.fraction_scale = t.scale();
  } else if (t.id() == TypeId::kInteger || t.id() == TypeId::kBigint) {
    params.fraction_units = static_cast<int64_t>(fraction);
    params.fraction_scale = 0;
  }
}

/// median / quantile_cont over `arg`: interpolating numbers and dates, discrete otherwise.
AggregateKind ContinuousQuantile(BoundExprPtr& arg, LogicalType* type) {
  const LogicalType& t = arg->type;
  if (t.id() == TypeId::kDecimal || t.id() == TypeId::kDouble) {
    *type = t;
  } else if (t.IsNumeric()) {
    *type = LogicalType::Double();
  } else if (IsTemporal(t)) {
    *type = LogicalType::Timestamp();
  } else {
    *type = t;
    return AggregateKind::kQuantileDisc;
  }
  return AggregateKind::kQuantileCont;
}

/// regr_count ... regr_r2 by name (the caller checked the prefix).
AggregateKind RegressionKind(const std::string& name) {
  static const std::pair<const char*, AggregateKind> kKinds[] = {
      {"regr_count", AggregateKind::kRegrCount},
      {"regr_avgx", AggregateKind::kRegrAvgX},
      {"regr_avgy", AggregateKind::kRegrAvgY},
      {"regr_sxx", AggregateKind::kRegrSxx},
      {"regr_syy", AggregateKind::kRegrSyy},
      {"regr_sxy", AggregateKind::kRegrSxy},
      {"regr_slope", AggregateKind::kRegrSlope},
      {"regr_r2", AggregateKind::kRegrR2},
      {"regr_intercept", AggregateKind::kRegrIntercept}};
  for (const auto& [known, kind] : kKinds) {
    if (name == known) return kind;
  }
  throw BinderError("unknown aggregate {}", name);
}

// The ORDER BY keys of an order-sensitive aggregate (string_agg, list, first / last) as
// inputs after its arguments, their directions in params.order.
void AppendOrderInputs(const std::string& name, bool distinct, std::vector<BoundOrderBy>& order_by,
                       ResolvedAggregate& out) {
  if (distinct && !order_by.empty()) {
    throw NotSupportedError("DISTINCT together with ORDER BY in {} is not supported", name);
  }
  for (auto& o : order_by) {
    out.params.order.push_back({o.descending, o.nulls_first});
    out.inputs.push_back(TypeUntyped(std::move(o.expr)));
  }
}

}  // namespace

bool IsAggregateFunction(const std::string& name) {
  for (const char* known : kAggregateNames) {
    if (name == known) return true;
  }
  return false;
}

ResolvedAggregate ResolveAggregateCall(const std::string& name, std::vector<BoundExprPtr> args,
                                       std::vector<BoundOrderBy> order_by, bool within_group,
                                       bool star, bool distinct) {
  ResolvedAggregate out;
  auto arity = [&](size_t low, size_t high) {
    if (args.size() >= low && args.size() <= high) return;
    if (low == high) {
      throw BinderError("{} takes {} argument{}", name, low, low == 1 ? "" : "s");
    }
    throw BinderError("{} takes {} to {} arguments", name, low, high);
  };
  if (within_group) {
    // Ordered-set aggregates: the ORDER BY key is the value, the arguments are parameters.
    if (name != "percentile_cont" && name != "percentile_disc" && name != "mode") {
      throw BinderError(
          "WITHIN GROUP is only allowed for percentile_cont, percentile_disc and mode, not {}",
          name);
    }
    if (order_by.size() != 1) {
      throw BinderError("WITHIN GROUP of {} takes exactly one ORDER BY key", name);
    }
    if (distinct) throw BinderError("DISTINCT is not allowed with WITHIN GROUP");
    BoundExprPtr value = TypeUntyped(std::move(order_by[0].expr));
    out.params.descending = order_by[0].descending;
    if (name == "mode") {
      arity(0, 0);
      out.kind = AggregateKind::kMode;
      out.type = value->type;
    } else {
      arity(1, 1);
      SetFraction(name, *args[0], out.params);
      if (name == "percentile_disc") {
        out.kind = AggregateKind::kQuantileDisc;
        out.type = value->type;
      } else {
        if (!value->type.IsNumeric() && !IsTemporal(value->type)) {
          throw BinderError("percentile_cont is not defined for {}", value->type.ToString());
        }
        out.kind = ContinuousQuantile(value, &out.type);
      }
    }
    out.inputs.push_back(std::move(value));
    return out;
  }
  if (name == "percentile_cont" || name == "percentile_disc") {
    throw BinderError("{} needs WITHIN GROUP (ORDER BY ...)", name);
  }
  if (star || (name == "count" && args.empty())) {
    if (name != "count") throw BinderError("{}(*) is not allowed", name);
    out.kind = AggregateKind::kCountStar;
    out.type = LogicalType::Bigint();
    return out;
  }
  if (args.empty()) throw BinderError("{} takes at least one argument", name);
  for (const auto& [aggregate, list_function] : kListFinished) {
    if (name != aggregate) continue;
    arity(1, 1);
    out =
        ResolveAggregateCall("list", std::move(args), std::move(order_by), false, false, distinct);
    out.finish = [function = std::string(list_function)](BoundExprPtr list) {
      std::vector<BoundExprPtr> call;
      call.push_back(std::move(list));
      return BindFunctionCall(function, std::move(call));
    };
    return out;
  }
  if (name == "approx_quantile" || name == "reservoir_quantile") {
    // An exact quantile stands in for DuckDB's sketch (t-digest) and sample: quantile_cont's
    // value in the argument's type (integers rounded), as DuckDB's sketch gives for small
    // inputs; DuckDB's tests accept any value near the exact one.
    arity(2, name == "reservoir_quantile" ? 3 : 2);
    args.resize(2);
    args[0] = TypeUntyped(std::move(args[0]));
    const LogicalType value_type = args[0]->type;
    const bool continuous = value_type.IsNumeric() || IsTemporal(value_type);
    out = ResolveAggregateCall(continuous ? "quantile_cont" : "quantile_disc", std::move(args),
                               std::move(order_by), false, false, distinct);
    if (out.type != value_type) {
      out.finish = [value_type](BoundExprPtr quantile) {
        return CastTo(std::move(quantile), value_type);
      };
    }
    return out;
  }
  args[0] = TypeUntyped(std::move(args[0]));
  BoundExprPtr& arg = args[0];
  const LogicalType& t = arg->type;

  if (name == "string_agg" || name == "group_concat" || name == "listagg") {
    arity(1, 2);
    out.kind = AggregateKind::kStringAgg;
    out.type = LogicalType::Varchar();
    out.params.separator = ",";
    if (args.size() == 2) {
      if (args[1]->kind != BoundExprKind::kConstant) {
        throw BinderError("the separator of {} must be a constant", name);
      }
      const Value& sep = static_cast<const BoundConstant&>(*args[1]).value;
      if (sep.is_null()) throw BinderError("the separator of {} must not be NULL", name);
      out.params.separator = sep.type().IsString() ? sep.GetString() : sep.ToString();
    }
    out.inputs.push_back(CastTo(std::move(arg), LogicalType::Varchar()));
    AppendOrderInputs(name, distinct, order_by, out);
    return out;
  }

  if (name == "list" || name == "array_agg") {
    // string_agg's machinery with no separator over one-element lists: a list's bytes are its
    // elements' bytes one after another (common/list.h), so concatenating [x] per row builds
    // the list, NULL elements kept, in the ORDER BY's order when there is one.
    arity(1, 1);
    out.kind = AggregateKind::kStringAgg;
    out.type = LogicalType::List(t.valid() ? t : LogicalType::Integer());
    out.params.separator = "";
    std::vector<BoundExprPtr> element;
    element.push_back(t.valid() ? std::move(arg) : CastTo(std::move(arg), LogicalType::Integer()));
    out.inputs.push_back(BindFunctionCall("list_value", std::move(element)));
    AppendOrderInputs(name, distinct, order_by, out);
    return out;
  }

  const bool ordered_any = name == "any_value" && !order_by.empty();
  if (name == "first" || name == "arbitrary" || name == "last" || ordered_any) {
    // DuckDB's: the first / last row's value, NULL or not, in the ORDER BY's order if any.
    // any_value(x ORDER BY k), the first non-NULL x, is first's with the condition x IS NOT
    // NULL as a FILTER would give it.
    arity(1, 1);
    out.kind = name == "last" ? AggregateKind::kLast : AggregateKind::kFirst;
    out.type = t.valid() ? t : LogicalType::Integer();
    out.inputs.push_back(t.valid() ? std::move(arg) : CastTo(std::move(arg), out.type));
    if (ordered_any) {
      out.inputs.push_back(std::make_unique<BoundIsNull>(out.inputs[0]->Copy(), true));
    }
    if (order_by.size() > 1) {
      throw NotSupportedError("{} with more than one ORDER BY key is not supported", name);
    }
    AppendOrderInputs(name, distinct, order_by, out);
    return out;
  }

  if (name.starts_with("regr_")) {
    arity(2, 2);
    args[1] = TypeUntyped(std::move(args[1]));
    RequireNumeric(name, args[0]);
    RequireNumeric(name, args[1]);
    out.kind = RegressionKind(name);
    out.type =
        out.kind == AggregateKind::kRegrCount ? LogicalType::Bigint() : LogicalType::Double();
  } else if (name == "covar_pop" || name == "covar_samp" || name == "corr") {
    arity(2, 2);
    args[1] = TypeUntyped(std::move(args[1]));
    RequireNumeric(name, args[0]);
    RequireNumeric(name, args[1]);
    out.kind = name == "covar_pop"    ? AggregateKind::kCovarPop
               : name == "covar_samp" ? AggregateKind::kCovarSamp
                                      : AggregateKind::kCorr;
    out.type = LogicalType::Double();
  } else if (name == "arg_min" || name == "arg_max" || name == "argmin" || name == "argmax" ||
             name == "min_by" || name == "max_by") {
    arity(2, 2);
    args[1] = TypeUntyped(std::move(args[1]));
    out.kind = (name == "arg_min" || name == "argmin" || name == "min_by") ? AggregateKind::kArgMin
                                                                           : AggregateKind::kArgMax;
    out.type = t;
  } else if (name == "quantile" || name == "quantile_cont" || name == "quantile_disc") {
    arity(2, 2);
    SetFraction(name, *args[1], out.params);
    args.pop_back();
    if (name == "quantile_cont") {
      if (!t.IsNumeric() && !IsTemporal(t)) {
        throw BinderError("quantile_cont is not defined for {}", t.ToString());
      }
      out.kind = ContinuousQuantile(arg, &out.type);
    } else {
      out.kind = AggregateKind::kQuantileDisc;
      out.type = t;
    }
  } else {
    arity(1, 1);
    if (name == "median") {
      out.params.fraction = 0.5;
      out.kind = ContinuousQuantile(arg, &out.type);
    } else if (name == "mode") {
      out.kind = AggregateKind::kMode;
      out.type = t;
    } else if (name == "bool_and" || name == "bool_or" || name == "every") {
      if (t.id() != TypeId::kBoolean) {
        throw BinderError("{} is not defined for {}: it takes a BOOLEAN", name, t.ToString());
      }
      out.kind = name == "bool_or" ? AggregateKind::kBoolOr : AggregateKind::kBoolAnd;
      out.type = t;
    } else if (name == "bit_and" || name == "bit_or" || name == "bit_xor") {
      if (t.id() != TypeId::kInteger && t.id() != TypeId::kBigint) {
        throw BinderError("{} is not defined for {}: it takes an INTEGER or BIGINT", name,
                          t.ToString());
      }
      out.kind = name == "bit_and"  ? AggregateKind::kBitAnd
                 : name == "bit_or" ? AggregateKind::kBitOr
                                    : AggregateKind::kBitXor;
      out.type = arg->type;
    } else if (name == "product") {
      RequireNumeric(name, arg);
      out.kind = AggregateKind::kProduct;
      out.type = LogicalType::Double();
    } else if (name == "approx_count_distinct") {
      out.kind = AggregateKind::kApproxCountDistinct;
      out.type = LogicalType::Bigint();
    } else if (name == "stddev_pop" || name == "var_samp" || name == "variance" ||
               name == "var_pop") {
      RequireNumeric(name, arg);
      out.kind = name == "stddev_pop" ? AggregateKind::kStddevPop
                 : name == "var_pop"  ? AggregateKind::kVarPop
                                      : AggregateKind::kVarSamp;
      out.type = LogicalType::Double();
    } else {
      const std::string base = name == "mean" ? "avg" : name;
      out.kind = ResolveAggregate(base, arg, &out.type);
    }
  }
  if (!order_by.empty() && !OrderInsensitive(out.kind)) {
    throw NotSupportedError("ORDER BY inside {} is not supported", name);
  }
  // Other aggregates give the same answer in any order: their ORDER BY changes nothing.
  if (distinct && args.size() > 1) {
    throw NotSupportedError("DISTINCT is not supported for {}, an aggregate of {} arguments", name,
                            args.size());
  }
  for (auto& a : args)
    out.inputs.push_back(std::move(a));
  return out;
}

void ApplyAggregateFilter(ResolvedAggregate& aggregate, BoundExprPtr condition) {
  // agg(x) FILTER (WHERE c) is agg(CASE WHEN c THEN x END): every aggregate skips rows whose
  // first input is NULL, and count(*) becomes count(CASE WHEN c THEN 1 END).
  if (condition->type.valid() && condition->type.id() != TypeId::kBoolean) {
    throw BinderError("FILTER condition must be BOOLEAN, not {}", condition->type.ToString());
  }
  condition = CastTo(std::move(condition), LogicalType::Boolean());
  if (aggregate.kind == AggregateKind::kFirst || aggregate.kind == AggregateKind::kLast) {
    // NULL is a value first / last keeps: the condition is an input of its own, after x
    // (ANDed with the one an ordered any_value has already).
    if (aggregate.inputs.size() > 1 + aggregate.params.order.size()) {
      std::vector<BoundExprPtr> both;
      both.push_back(std::move(aggregate.inputs[1]));
      both.push_back(std::move(condition));
      aggregate.inputs[1] = MakeConjunction(std::move(both));
    } else {
      aggregate.inputs.insert(aggregate.inputs.begin() + 1, std::move(condition));
    }
    return;
  }
  if (aggregate.kind == AggregateKind::kCountStar) {
    aggregate.kind = AggregateKind::kCount;
    aggregate.inputs.push_back(std::make_unique<BoundConstant>(Value::Integer(1)));
  }
  BoundExprPtr& arg = aggregate.inputs[0];
  if (!arg->type.valid()) arg = CastTo(std::move(arg), LogicalType::Integer());
  const LogicalType arg_type = arg->type;
  auto filtered = std::make_unique<BoundCase>(arg_type);
  filtered->when_then.emplace_back(std::move(condition), std::move(arg));
  filtered->else_expr = std::make_unique<BoundConstant>(Value::Null(arg_type));
  arg = std::move(filtered);
}

ResolvedAggregate Binder::BindAggregateCall(const ast::FunctionExpr& fn, const std::string& name,
                                            ExprContext& ctx) {
  std::vector<BoundExprPtr> args;
  for (const auto& a : fn.args)
    args.push_back(BindExpr(*a, ctx));
  return ResolveAggregateCall(name, std::move(args), BindAggregateOrderBy(fn, ctx), fn.within_group,
                              fn.star, fn.distinct);
}

std::vector<BoundOrderBy> Binder::BindAggregateOrderBy(const ast::FunctionExpr& fn,
                                                       ExprContext& ctx) {
  std::vector<BoundOrderBy> order_by;
  for (const auto& o : fn.order_by) {
    BoundOrderBy order;
    order.expr = BindExpr(*o.expr, ctx);
    order.descending = o.descending;
    // As the query's ORDER BY (default_null_order).
    order.nulls_first = o.nulls_first.value_or(DefaultNullsFirst(o.descending));
    order_by.push_back(std::move(order));
  }
  return order_by;
}

}  // namespace shears

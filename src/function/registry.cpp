// The function registry: overload resolution by cost, and the shared resolver helpers.

#include <algorithm>
#include <limits>

#include "function/function_internal.h"

namespace shears {

using namespace function_internal;

const FunctionRegistry& FunctionRegistry::Default() {
  // Built once, on first use; C++ guarantees thread-safe initialization of the static.
  static const FunctionRegistry registry = [] {
    FunctionRegistry r;
    RegisterArithmeticFunctions(r);
    RegisterComparisonFunctions(r);
    RegisterStringFunctions(r);
    RegisterLikeFunctions(r);
    RegisterDateFunctions(r);
    RegisterMiscFunctions(r);
    RegisterRegexpFunctions(r);
    RegisterIntervalFunctions(r);
    RegisterFormatFunctions(r);
    RegisterEpochFunctions(r);
    RegisterJsonFunctions(r);
    RegisterListFunctions(r);
    RegisterStringFunctionsExtended(r);
    RegisterBinningFunctions(r);
    RegisterNestedFunctions(r);
    RegisterListStatisticsFunctions(r);
    RegisterListResizeFunctions(r);
    return r;
  }();
  return registry;
}

void FunctionRegistry::Register(const std::string& name, Resolver resolver,
                                std::string signature_help) {
  for (auto& [entry_name, entry] : entries_) {
    if (entry_name == name) {
      entry.resolvers.push_back(std::move(resolver));
      entry.help.push_back(std::move(signature_help));
      return;
    }
  }
  Entry entry;
  entry.resolvers.push_back(std::move(resolver));
  entry.help.push_back(std::move(signature_help));
  entries_.emplace_back(name, std::move(entry));
}

const FunctionRegistry::Entry* FunctionRegistry::Find(const std::string& name) const {
  for (const auto& [entry_name, entry] : entries_) {
    if (entry_name == name) return &entry;
  }
  return nullptr;
}

bool FunctionRegistry::Exists(const std::string& name) const {
  return Find(name) != nullptr;
}

BoundScalarFunction FunctionRegistry::Bind(const std::string& name,
                                           const std::vector<LogicalType>& arg_types) const {
  const Entry* entry = Find(name);
  if (!entry) throw BinderError("Function '{}' does not exist", name);
  std::optional<BoundScalarFunction> best;
  int best_cost = std::numeric_limits<int>::max();
  for (const auto& resolver : entry->resolvers) {
    std::optional<BoundScalarFunction> candidate = resolver(arg_types);
    if (!candidate) continue;
    SHEARS_CHECK(candidate->arg_types.size() == arg_types.size());
    int cost = 0;
    for (size_t i = 0; i < arg_types.size(); i++) {
      cost += ConversionCost(arg_types[i], candidate->arg_types[i]);
    }
    // Strictly less: on a tie the overload registered first wins.
    if (cost < best_cost) {
      best_cost = cost;
      best = std::move(candidate);
      if (cost == 0) break;  // an exact match
    }
  }
  if (!best) {
    std::string candidates;
    for (const auto& help : entry->help) {
      if (!candidates.empty()) candidates += ", ";
      candidates += help;
    }
    throw BinderError("No function matches '{}'. Candidates: {}", SignatureText(name, arg_types),
                      candidates);
  }
  best->name = name;
  return std::move(*best);
}

Value EvaluateScalar(const BoundScalarFunction& function, const std::vector<Value>& args) {
  SHEARS_CHECK(args.size() == function.arg_types.size());
  if (function.null_propagating) {
    for (const Value& arg : args) {
      if (arg.is_null()) return Value::Null(function.return_type);
    }
  }
  std::vector<std::vector<Value>> columns;
  for (const Value& arg : args)
    columns.push_back({arg});
  return EvaluateRows(function, columns, 1)[0];
}

namespace function_internal {

std::vector<Value> EvaluateRows(const BoundScalarFunction& function,
                                const std::vector<std::vector<Value>>& columns, idx_t count) {
  SHEARS_CHECK(columns.size() == function.arg_types.size());
  std::vector<Vector> inputs;
  inputs.reserve(columns.size());
  std::vector<const Vector*> args;
  for (size_t i = 0; i < columns.size(); i++) {
    SHEARS_CHECK(columns[i].size() == count);
    inputs.emplace_back(function.arg_types[i], std::max<idx_t>(count, 1));
    for (idx_t row = 0; row < count; row++) {
      WriteValue(inputs.back(), row, CastValue(columns[i][row], function.arg_types[i]));
    }
  }
  for (const Vector& input : inputs)
    args.push_back(&input);
  Vector result(function.return_type, std::max<idx_t>(count, 1));
  function.kernel(args, count, result);
  std::vector<Value> values;
  values.reserve(count);
  for (idx_t row = 0; row < count; row++)
    values.push_back(ReadValue(result, row));
  return values;
}

Value EvaluateFunction(const std::string& name, const std::vector<Value>& args) {
  std::vector<LogicalType> types;
  std::vector<std::vector<Value>> columns;
  for (const Value& arg : args) {
    types.push_back(arg.type());
    columns.push_back({arg});
  }
  BoundScalarFunction function = FunctionRegistry::Default().Bind(name, types);
  return EvaluateRows(function, columns, 1)[0];
}

BoundScalarFunction MakeBound(std::vector<LogicalType> arg_types, LogicalType return_type,
                              ScalarKernel kernel, bool null_propagating, bool deterministic) {
  BoundScalarFunction bound;
  bound.arg_types = std::move(arg_types);
  bound.return_type = return_type;
  bound.kernel = std::move(kernel);
  bound.null_propagating = null_propagating;
  bound.deterministic = deterministic;
  return bound;
}

FunctionRegistry::Resolver FixedResolver(std::vector<LogicalType> params, LogicalType return_type,
                                         ScalarKernel kernel, bool null_propagating) {
  return [params = std::move(params), return_type, kernel = std::move(kernel), null_propagating](
             const std::vector<LogicalType>& args) -> std::optional<BoundScalarFunction> {
    if (args.size() != params.size()) return std::nullopt;
    for (size_t i = 0; i < args.size(); i++) {
      if (!CanImplicitCast(args[i], params[i])) return std::nullopt;
    }
    return MakeBound(params, return_type, kernel, null_propagating);
  };
}

void RegisterFixed(FunctionRegistry& registry, const std::string& name,
                   std::vector<LogicalType> arg_types, LogicalType return_type, ScalarKernel kernel,
                   bool null_propagating) {
  std::string help = SignatureText(name, arg_types);
  registry.Register(
      name, FixedResolver(std::move(arg_types), return_type, std::move(kernel), null_propagating),
      std::move(help));
}

std::string SignatureText(const std::string& name, const std::vector<LogicalType>& arg_types) {
  std::string text = name + "(";
  for (size_t i = 0; i < arg_types.size(); i++) {
    if (i > 0) text += ", ";
    text += arg_types[i].valid() ? arg_types[i].ToString() : "NULL";
  }
  return text + ")";
}

std::optional<LogicalType> AsDecimal(const LogicalType& type) {
  switch (type.id()) {
    case TypeId::kInteger:
      return LogicalType::Decimal(10, 0);
    case TypeId::kBigint:
      return LogicalType::Decimal(19, 0);
    case TypeId::kDecimal:
      return type;
    default:
      return std::nullopt;
  }
}

static int NumericRank(TypeId id) {
  switch (id) {
    case TypeId::kInteger:
      return 1;
    case TypeId::kBigint:
      return 2;
    case TypeId::kDecimal:
      return 3;
    case TypeId::kDouble:
      return 4;
    default:
      return 0;
  }
}

int ConversionCost(const LogicalType& from, const LogicalType& to) {
  if (!from.valid() || from == to) return 0;
  if (from.IsList() && to.IsList()) return ConversionCost(from.element(), to.element());
  // REAL sits between DECIMAL and DOUBLE (DuckDB's order), but an exact number prefers DOUBLE
  // to REAL, and REAL -> DOUBLE costs 2: REAL op INTEGER / DECIMAL stays REAL, while DECIMAL /
  // INTEGER (no DECIMAL overload) divides in DOUBLE, not REAL.
  if (from.id() == TypeId::kFloat && to.id() == TypeId::kDouble) return 2;
  if (to.id() == TypeId::kFloat && NumericRank(from.id()) > 0) {
    return ConversionCost(from, LogicalType::Double()) + 1;
  }
  int from_rank = NumericRank(from.id()), to_rank = NumericRank(to.id());
  if (from_rank > 0 && to_rank > 0 && to_rank >= from_rank) {
    return to_rank == from_rank ? 1 : to_rank - from_rank;
  }
  if (from.id() == TypeId::kDate && to.id() == TypeId::kTimestamp) return 1;
  // An explicit conversion a resolver asked for (e.g. INTEGER -> VARCHAR for ||).
  return 10;
}

}  // namespace function_internal
}  // namespace shears

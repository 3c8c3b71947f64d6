// Binding of expressions: names, types, functions, implicit casts.

#include <algorithm>
#include <cctype>

#include "common/error.h"
#include "common/interval.h"
#include "common/list.h"
#include "common/string_util.h"
#include "expression/expression_executor.h"
#include "function/function.h"
#include "planner/bind_context.h"

namespace shears {

namespace {

bool IsConstant(const BoundExpr& e) {
  return e.kind == BoundExprKind::kConstant;
}

}  // namespace

// Folds a deterministic expression of constants into a constant.
BoundExprPtr Fold(BoundExprPtr expr) {
  if (expr->kind == BoundExprKind::kConstant) return expr;
  TypeUntypedChildren(*expr);
  bool foldable = true;
  VisitExpression(*expr, [&](BoundExpr& e) {
    if (e.kind == BoundExprKind::kColumnRef || e.kind == BoundExprKind::kReference ||
        e.kind == BoundExprKind::kAggregate || e.kind == BoundExprKind::kSubquery ||
        e.kind == BoundExprKind::kWindow) {
      foldable = false;
    }
    if (e.kind == BoundExprKind::kFunction &&
        !static_cast<BoundFunction&>(e).function.deterministic) {
      foldable = false;
    }
    // A NULL literal a STRUCT field keeps untyped ({'i': NULL}) has no vector to be folded in.
    if (!e.type.valid()) foldable = false;
  });
  if (!foldable) return expr;
  std::string alias = expr->alias;
  std::unique_ptr<BoundConstant> folded;
  try {
    folded = std::make_unique<BoundConstant>(ExpressionExecutor::EvaluateConstant(*expr));
  } catch (const Error& e) {
    // `1 / 0` fails only if a row needs it (CASE, COALESCE, AND and OR short-circuit):
    // left unfolded, it raises its error when evaluated.
    if (!e.IsUserError()) throw;
    return expr;
  }
  folded->alias = alias;
  return folded;
}

AggregateKind ResolveAggregate(const std::string& name, BoundExprPtr& arg, LogicalType* type) {
  if (!arg) {
    *type = LogicalType::Bigint();
    return AggregateKind::kCountStar;
  }
  const auto& t = arg->type;
  if (name == "count") {
    *type = LogicalType::Bigint();
    return AggregateKind::kCount;
  }
  if (name == "sum") {
    // PostgreSQL's result types (docs/types.md): sum(INTEGER) is BIGINT (overflow is an error),
    // sum(BIGINT) and sum(DECIMAL(p,s)) are DECIMAL(38,0) / DECIMAL(38,s) where PostgreSQL's
    // NUMERIC is unbounded, as DuckDB.
    if (t.id() == TypeId::kInteger) {
      *type = LogicalType::Bigint();
    } else if (t.id() == TypeId::kBigint) {
      *type = LogicalType::Decimal(38, 0);
    } else if (t.id() == TypeId::kDecimal) {
      *type = LogicalType::Decimal(38, t.scale());
    } else if (t.IsFloatingPoint()) {
      *type = LogicalType::Double();  // sum(FLOAT) too, as DuckDB (PostgreSQL: REAL)
    } else if (!t.valid() || t.id() == TypeId::kBoolean) {
      // sum(BOOLEAN) counts the TRUEs, as DuckDB (PostgreSQL has no such sum).
      arg = CastTo(std::move(arg), LogicalType::Integer());
      *type = LogicalType::Bigint();
    } else {
      throw BinderError("sum is not defined for {}", t.ToString());
    }
    return AggregateKind::kSum;
  }
  if (name == "avg" || name == "stddev_samp" || name == "stddev") {
    if (!t.IsNumeric() && t.valid()) {
      throw BinderError("{} is not defined for {}", name, t.ToString());
    }
    *type = LogicalType::Double();
    return name == "avg" ? AggregateKind::kAvg : AggregateKind::kStddevSamp;
  }
  *type = t.valid() ? t : LogicalType::Integer();
  if (name == "min") return AggregateKind::kMin;
  if (name == "max") return AggregateKind::kMax;
  return AggregateKind::kAny;
}

BoundExprPtr AddInterval(BoundExprPtr base, const ast::IntervalExpr& interval, int sign) {
  // DuckDB and PostgreSQL give a TIMESTAMP for DATE +- INTERVAL.
  base = CastTo(std::move(base), LogicalType::Timestamp());
  if (interval.months != 0) {
    std::vector<BoundExprPtr> args;
    args.push_back(std::move(base));
    args.push_back(std::make_unique<BoundConstant>(Value::Integer(sign * interval.months)));
    base = BindFunctionCall("date_add_months", std::move(args));
  }
  int64_t micros = sign * (static_cast<int64_t>(interval.days) * 86400000000LL + interval.micros);
  if (micros != 0) {
    std::vector<BoundExprPtr> args;
    args.push_back(std::move(base));
    args.push_back(std::make_unique<BoundConstant>(Value::Bigint(micros)));
    base = BindFunctionCall("timestamp_add_micros", std::move(args));
  }
  return base;
}

BoundExprPtr CastTo(BoundExprPtr expr, const LogicalType& type) {
  if (expr->type == type) return expr;
  if (expr->kind == BoundExprKind::kConstant) {
    const auto& value = static_cast<BoundConstant&>(*expr).value;
    std::unique_ptr<BoundConstant> cast;
    try {
      cast = std::make_unique<BoundConstant>(value.is_null() ? Value::Null(type)
                                                             : CastValue(value, type));
    } catch (const Error& e) {
      if (!e.IsUserError()) throw;
      cast = nullptr;  // as in Fold: the cast fails when (if) a row is evaluated
    }
    if (cast) {
      cast->alias = expr->alias;
      return cast;
    }
  }
  std::string alias = expr->alias;
  auto cast = std::make_unique<BoundCast>(std::move(expr), type);
  cast->alias = alias;
  return cast;
}

BoundExprPtr TypeUntyped(BoundExprPtr expr) {
  if (expr->type.valid()) return expr;
  return CastTo(std::move(expr), LogicalType::Integer());
}

void TypeUntypedChildren(BoundExpr& expr) {
  for (BoundExprPtr* child : expr.Children()) {
    if (*child) *child = TypeUntyped(std::move(*child));
  }
}

static const char* UnsignedCheck(const std::string& type_name, bool try_cast) {
  static const char* const kNames[][3] = {
      {"utinyint", "__check_utinyint", "__try_check_utinyint"},
      {"uint8", "__check_utinyint", "__try_check_utinyint"},
      {"usmallint", "__check_usmallint", "__try_check_usmallint"},
      {"uint16", "__check_usmallint", "__try_check_usmallint"},
      {"uinteger", "__check_uinteger", "__try_check_uinteger"},
      {"uint32", "__check_uinteger", "__try_check_uinteger"},
      {"uint", "__check_uinteger", "__try_check_uinteger"},
      {"ubigint", "__check_ubigint", "__try_check_ubigint"},
      {"uint64", "__check_ubigint", "__try_check_ubigint"},
      // TINYINT and SMALLINT are INTEGERs here; a cast to one still refuses what it cannot hold.
      {"tinyint", "__check_tinyint", "__try_check_tinyint"},
      {"int1", "__check_tinyint", "__try_check_tinyint"},
      {"smallint", "__check_smallint", "__try_check_smallint"},
      {"int2", "__check_smallint", "__try_check_smallint"},
      {"short", "__check_smallint", "__try_check_smallint"},
      {"int16", "__check_smallint", "__try_check_smallint"},
      // DuckDB's TIMESTAMP_S / TIMESTAMP_MS are TIMESTAMPs here, rounded to their unit.
      {"timestamp_s", "__round_timestamp_s", "__round_timestamp_s"},
      {"timestamp_ms", "__round_timestamp_ms", "__round_timestamp_ms"}};
  const std::string name = AsciiLower(type_name);
  for (const auto& entry : kNames) {
    if (name == entry[0]) return entry[try_cast ? 2 : 1];
  }
  return nullptr;
}

LogicalType ResolveTypeName(const ast::TypeName& type) {
  const std::string name = AsciiLower(type.name);
  if (type.array_depth > 0) {
    ast::TypeName element = type;
    element.array_depth--;
    return LogicalType::List(ResolveTypeName(element));
  }
  if (name == "struct") {
    if (type.children.empty()) throw BinderError("a STRUCT type needs at least one field");
    std::vector<std::pair<std::string, LogicalType>> fields;
    for (size_t i = 0; i < type.children.size(); i++) {
      for (size_t j = 0; j < i; j++) {
        if (EqualsAsciiLower(type.field_names[j], AsciiLower(type.field_names[i]))) {
          throw BinderError("duplicate struct field name \"{}\"", type.field_names[i]);
        }
      }
      fields.emplace_back(type.field_names[i], ResolveTypeName(type.children[i]));
    }
    return LogicalType::Struct(fields);
  }
  if (name == "map") {
    if (type.children.size() != 2) throw BinderError("a MAP type needs a key and a value type");
    return LogicalType::Map(ResolveTypeName(type.children[0]), ResolveTypeName(type.children[1]));
  }
  if (name == "int" || name == "int4" || name == "integer" || name == "int2" ||
      name == "smallint" || name == "tinyint" || name == "int1" || name == "signed" ||
      name == "short" || name == "int16" || name == "int32") {
    return LogicalType::Integer();
  }
  if (name == "int8" || name == "bigint" || name == "long" || name == "int64") {
    return LogicalType::Bigint();
  }
  // DuckDB's unsigned integers as the narrowest signed type holding all their values (as the
  // Parquet reader maps them); a cast to one checks the range (UnsignedCheck).
  if (name == "utinyint" || name == "uint8" || name == "usmallint" || name == "uint16") {
    return LogicalType::Integer();
  }
  if (name == "uinteger" || name == "uint32" || name == "uint") return LogicalType::Bigint();
  if (name == "ubigint" || name == "uint64") return LogicalType::Decimal(20, 0);
  // DuckDB's 128-bit integer: the widest exact type here (38 digits; past them an overflow).
  if (name == "hugeint" || name == "int128") return LogicalType::Decimal(38, 0);
  if (name == "float8" || name == "double" || name == "double precision") {
    return LogicalType::Double();
  }
  // The 4-byte REAL. PostgreSQL's grammar turns a bare FLOAT into float8 (DOUBLE) before
  // this sees it, and FLOAT(1..24) into float4.
  if (name == "float4" || name == "real") return LogicalType::Float();
  // A FLOAT the grammar did not see (CREATE TABLE's column list is parsed by shears) means
  // what PostgreSQL's grammar makes of it: float8 bare or FLOAT(25..53), float4 for (1..24).
  // (DuckDB's FLOAT is 4 bytes; shears keeps CAST(x AS FLOAT) and columns alike.)
  if (name == "float") {
    const bool single = !type.modifiers.empty() && type.modifiers[0] <= 24;
    return single ? LogicalType::Float() : LogicalType::Double();
  }
  if (name == "numeric" || name == "decimal") {
    if (type.modifiers.empty()) return LogicalType::Decimal(18, 3);
    int precision = type.modifiers[0];
    int scale = type.modifiers.size() > 1 ? type.modifiers[1] : 0;
    return LogicalType::Decimal(precision, scale);
  }
  if (name == "date") return LogicalType::Date();
  if (name == "time" || name == "time without time zone") return LogicalType::Time();
  if (name == "interval") return LogicalType::Interval();
  // DuckDB's TIMESTAMP_US is TIMESTAMP; its TIMESTAMP_S and _MS are too (casts round them:
  // UnsignedCheck), and TIMESTAMP_NS keeps microseconds.
  if (name == "timestamp" || name == "datetime" || name == "timestamp without time zone" ||
      name == "timestamp_us" || name == "timestamp_s" || name == "timestamp_ms" ||
      name == "timestamp_ns") {
    return LogicalType::Timestamp();
  }
  if (name == "varchar" || name == "text" || name == "string" || name == "char" ||
      name == "bpchar" || name == "character varying" || name == "character") {
    return LogicalType::Varchar();
  }
  if (name == "bool" || name == "boolean") return LogicalType::Boolean();
  if (name == "blob" || name == "bytea" || name == "binary" || name == "varbinary") {
    return LogicalType::Blob();
  }
  throw BinderError("unknown type '{}'", type.name);
}

std::optional<ResolvedColumn> ResolveColumn(Binder::Scope& scope, const std::string& qualifier,
                                            const std::string& name) {
  for (Binder::Scope* s = &scope; s; s = s->outer) {
    std::optional<ResolvedColumn> found;
    for (const auto& entry : s->entries) {
      if (!qualifier.empty() && AsciiLower(entry.alias) != AsciiLower(qualifier)) continue;
      for (size_t i = 0; i < entry.names.size(); i++) {
        if (AsciiLower(entry.names[i]) != AsciiLower(name) || !entry.Matches(i, !qualifier.empty()))
          continue;
        if (found) {
          throw BinderError(
              "column reference '{}' is ambiguous (it exists in '{}' and another "
              "table); qualify it, e.g. {}.{}",
              name, entry.alias, entry.alias, name);
        }
        found = ResolvedColumn{entry.bindings[i], entry.types[i], entry.names[i], s != &scope,
                               entry.alias};
      }
    }
    if (found) {
      if (found->outer) scope.correlated.push_back(found->binding);
      return found;
    }
  }
  return std::nullopt;
}

namespace {

std::string CandidateColumns(Binder::Scope& scope) {
  std::string out;
  for (const auto& entry : scope.entries) {
    for (size_t i = 0; i < entry.names.size(); i++) {
      if (!entry.Matches(i, true)) continue;
      if (out.size() > 200) return out + ", ...";
      const std::string& n = entry.names[i];
      out += (out.empty() ? "" : ", ") + (entry.alias.empty() ? n : entry.alias + "." + n);
    }
  }
  return out;
}

// A VARCHAR literal next to a typed expression takes that type (PostgreSQL's "unknown"
// literal): `d = '2000-01-01'` compares dates, not strings; so does `'1' = 1` or
// `'2000-01-01' < DATE '2000-02-01'` between two constants (PostgreSQL and DuckDB agree).
void CoerceLiterals(std::vector<BoundExprPtr>& args) {
  if (args.size() != 2) return;
  for (int i = 0; i < 2; i++) {
    auto& lit = args[static_cast<size_t>(i)];
    auto& other = args[static_cast<size_t>(1 - i)];
    if (IsConstant(*lit) && lit->type.id() == TypeId::kVarchar && other->type.valid() &&
        (!other->type.IsString() || other->type.IsList())) {
      const Value& v = static_cast<BoundConstant&>(*lit).value;
      try {
        lit = std::make_unique<BoundConstant>(v.is_null() ? Value::Null(other->type)
                                                          : CastValue(v, other->type));
      } catch (const Error& e) {
        throw BinderError("cannot compare {} with '{}': {}", other->type.ToString(), v.ToString(),
                          e.what());
      }
    }
  }
}

bool IsExactNumeric(const LogicalType& type) {
  return type.id() == TypeId::kInteger || type.id() == TypeId::kBigint ||
         type.id() == TypeId::kDecimal;
}

bool IsComparisonOperator(const std::string& op) {
  return op == "=" || op == "<>" || op == "!=" || op == "<" || op == "<=" || op == ">" ||
         op == ">=";
}

// `price <= 18` with price DECIMAL(7,2) would compare in DECIMAL(12,2), casting the column on
// every row and hiding it from min/max statistics and dictionaries. When the constant is an
// integer or decimal the column's own exact type holds exactly, the constant is cast instead:
// both casts are exact and keep order, so the answer is the same. Floating point is left alone
// (converting a column to DOUBLE may merge distinct values).
void NarrowNumericLiterals(const std::string& op, std::vector<BoundExprPtr>& args) {
  if (args.size() != 2 || !IsComparisonOperator(op)) return;
  for (int i = 0; i < 2; i++) {
    auto& lit = args[static_cast<size_t>(i)];
    const auto& other = args[static_cast<size_t>(1 - i)];
    if (!IsConstant(*lit) || IsConstant(*other) || lit->type == other->type ||
        !IsExactNumeric(lit->type) || !IsExactNumeric(other->type))
      continue;
    const Value& v = static_cast<BoundConstant&>(*lit).value;
    if (v.is_null()) continue;
    try {
      Value narrowed = CastValue(v, other->type);
      if (!(CastValue(narrowed, v.type()) == v)) continue;  // rounded: not exact
      lit = std::make_unique<BoundConstant>(std::move(narrowed));
    } catch (const Error&) {
      // Out of the column type's range: compare in the common type as before.
    }
    return;
  }
}

}  // namespace

namespace {

// `round(DECIMAL(p,s), c)` with a constant c < s has scale c (scale 0 for c < 0), as in
// PostgreSQL and DuckDB: round(3.14159, 3) is 3.142, not 3.14200. The kernel already rounded
// to c digits, so narrowing the scale is exact; rounding adds at most one integer digit, which
// the s - c dropped digits make room for (p + 1 when s is 0).
BoundExprPtr NarrowRoundScale(BoundExprPtr call) {
  auto& fn = static_cast<BoundFunction&>(*call);
  if (fn.args.size() != 2 || call->type.id() != TypeId::kDecimal || !IsConstant(*fn.args[1])) {
    return call;
  }
  const Value& digits = static_cast<BoundConstant&>(*fn.args[1]).value;
  const int s = fn.args[0]->type.scale(), p = fn.args[0]->type.precision();
  if (digits.is_null() || fn.args[0]->type.id() != TypeId::kDecimal) return call;
  const int64_t c = CastValue(digits, LogicalType::Bigint()).GetInt64();
  if (c >= s) return call;
  const int scale = c < 0 ? 0 : static_cast<int>(c);
  const int precision = std::min(38, s == 0 ? p + 1 : p);
  return CastTo(std::move(call), LogicalType::Decimal(precision, scale));
}

}  // namespace

BoundExprPtr BindFunctionCall(const std::string& name, std::vector<BoundExprPtr> args) {
  std::vector<LogicalType> types;
  for (const auto& a : args)
    types.push_back(a->type);
  BoundScalarFunction fn = FunctionRegistry::Default().Bind(name, types);
  for (size_t i = 0; i < args.size() && i < fn.arg_types.size(); i++) {
    args[i] = CastTo(std::move(args[i]), fn.arg_types[i]);
  }
  BoundExprPtr call = std::make_unique<BoundFunction>(std::move(fn), std::move(args));
  if (name == "round") call = NarrowRoundScale(std::move(call));
  return Fold(std::move(call));
}

namespace {

BoundExprPtr MakeComparison(const std::string& op, BoundExprPtr left, BoundExprPtr right) {
  std::vector<BoundExprPtr> args;
  args.push_back(std::move(left));
  args.push_back(std::move(right));
  CoerceLiterals(args);
  NarrowNumericLiterals(op, args);
  return BindFunctionCall(op, std::move(args));
}

}  // namespace

/// A condition or logical operand: BOOLEAN (an untyped NULL becomes one), else a Binder Error
/// naming `what`. Every clause's condition goes through here too (binder.cpp), so none reaches
/// execution with another type (a filter writes its result as one byte per row).
BoundExprPtr RequireBoolean(BoundExprPtr expr, const char* what) {
  if (expr->type.id() == TypeId::kBoolean) return expr;
  if (!expr->type.valid()) return CastTo(std::move(expr), LogicalType::Boolean());
  throw BinderError("{} must be BOOLEAN, not {}: {}", what, expr->type.ToString(),
                    expr->ToString());
}

BoundExprPtr Binder::BindExpr(const ast::Expr& expr, ExprContext& ctx) {
  try {
    BoundExprPtr bound = BindExprAt(expr, ctx);
    // The node is built: its own children no longer need to stay open for inference.
    TypeUntypedChildren(*bound);
    return bound;
  } catch (const Error&) {
    RethrowAt(expr.location);
  }
}

BoundExprPtr Binder::BindExprAt(const ast::Expr& expr, ExprContext& ctx) {
  switch (expr.kind) {
    case ast::ExprKind::kColumnRef: {
      const auto& ref = static_cast<const ast::ColumnRefExpr&>(expr);
      // Inside a macro's body its parameters hide columns of the same name.
      if (ref.names.size() == 1) {
        // A lambda's parameters hide columns of the same name, as in DuckDB.
        if (BoundExprPtr param = BindLambdaParameter(ref.names[0])) return param;
        if (BoundExprPtr argument = BindMacroParameter(ref.names[0], ctx)) return argument;
      }
      std::string qualifier = ref.names.size() >= 2 ? ref.names[ref.names.size() - 2] : "";
      const std::string& name = ref.names.back();
      auto found = ctx.scope ? ResolveColumn(*ctx.scope, qualifier, name) : std::nullopt;
      if (!found && qualifier.empty() && ctx.select_aliases) {
        if (BoundExprPtr item = (*ctx.select_aliases)(name)) return item;
      }
      if (!found && ref.names.size() >= 2) {
        if (BoundExprPtr field = BindStructFieldPath(ref.names, ctx)) return field;
      }
      if (!found) {
        std::string full = qualifier.empty() ? name : qualifier + "." + name;
        throw BinderError("column '{}' does not exist{}", full,
                          ctx.scope && !ctx.scope->entries.empty()
                              ? " (candidates: " + CandidateColumns(*ctx.scope) + ")"
                              : "");
      }
      auto column = std::make_unique<BoundColumnRef>(found->type, found->binding, found->name);
      column->qualifier = found->qualifier;
      return column;
    }
    case ast::ExprKind::kStar:
      throw BinderError("* is only allowed in the select list or in count(*)");
    case ast::ExprKind::kDefault:
      throw BinderError("DEFAULT is only allowed in INSERT ... VALUES and UPDATE ... SET");
    case ast::ExprKind::kConstant:
      return std::make_unique<BoundConstant>(static_cast<const ast::ConstantExpr&>(expr).value);
    case ast::ExprKind::kParameter: {
      const int index = static_cast<const ast::ParameterExpr&>(expr).index;
      if (!parameters_) {
        throw BinderError(
            "query parameter ${} has no value (pass values with a prepared statement)", index);
      }
      if (static_cast<size_t>(index) > parameters_->size()) {
        throw BinderError("query parameter ${} has no value ({} given)", index,
                          parameters_->size());
      }
      return std::make_unique<BoundConstant>((*parameters_)[static_cast<size_t>(index) - 1]);
    }
    case ast::ExprKind::kOperator: {
      const auto& op = static_cast<const ast::OperatorExpr&>(expr);
      if (op.op == "AND" || op.op == "OR") {
        std::vector<BoundExprPtr> children;
        for (const auto& c : op.children) {
          children.push_back(
              RequireBoolean(BindExpr(*c, ctx), op.op == "AND" ? "AND operand" : "OR operand"));
        }
        return Fold(std::make_unique<BoundConjunction>(op.op == "AND", std::move(children)));
      }
      if (op.op == "lambda") {
        throw BinderError(
            "a lambda ({}) is only allowed as the second argument of list_transform, "
            "list_filter or list_reduce",
            op.ToString());
      }
      if (op.op == "NOT") {
        return Fold(std::make_unique<BoundNot>(
            RequireBoolean(BindExpr(*op.children[0], ctx), "NOT operand")));
      }
      std::vector<BoundExprPtr> args;
      for (const auto& c : op.children)
        args.push_back(BindExpr(*c, ctx));
      // '2024-01-01' + INTERVAL 1 DAY: the text is a timestamp, not an interval.
      if (args.size() == 2 && (op.op == "+" || op.op == "-")) {
        for (size_t i = 0; i < 2; i++) {
          if (args[1 - i]->type.id() == TypeId::kInterval && IsConstant(*args[i]) &&
              args[i]->type.id() == TypeId::kVarchar) {
            args[i] = CastTo(std::move(args[i]), LogicalType::Timestamp());
          }
        }
      }
      // `'id ' || 42` concatenates text: the literal stays VARCHAR (as in DuckDB, PostgreSQL).
      if (op.op != "||") CoerceLiterals(args);
      NarrowNumericLiterals(op.op, args);
      return BindFunctionCall(op.op, std::move(args));
    }
    case ast::ExprKind::kFunction: {
      const auto& fn = static_cast<const ast::FunctionExpr&>(expr);
      const std::string name = AsciiLower(fn.name);
      if (fn.over && fn.filter && !IsAggregateFunction(name)) {
        throw BinderError("FILTER is only allowed on aggregate functions, not {}", name);
      }
      if (fn.ignore_nulls && !fn.over) {
        throw BinderError("IGNORE NULLS is only allowed on window functions, not {}", name);
      }
      if (fn.over) return BindWindowFunction(fn, ctx);
      if (ast::IsLambdaFunction(name)) return BindLambdaCall(fn, name, ctx);
      if (BoundExprPtr built = BindStructConstructor(fn, name, ctx)) return built;
      if (name == "current_setting") {
        // DuckDB's and PostgreSQL's: a setting's value (SHOW name), fixed for the statement.
        if (fn.args.size() != 1) throw BinderError("current_setting takes one setting name");
        auto arg = BindExpr(*fn.args[0], ctx);
        if (arg->kind != BoundExprKind::kConstant || arg->type.id() != TypeId::kVarchar ||
            static_cast<BoundConstant&>(*arg).value.is_null()) {
          throw BinderError("current_setting needs a constant setting name");
        }
        if (!settings_) throw BinderError("current_setting is not available here");
        try {
          return std::make_unique<BoundConstant>(
              settings_->Get(static_cast<BoundConstant&>(*arg).value.GetString()));
        } catch (const Error& e) {
          throw BinderError("{}", e.what());
        }
      }
      if (name == "columns") {
        if (!ctx.columns) {
          throw BinderError("COLUMNS(...) is only supported in the select list, not in the {}",
                            ctx.clause);
        }
        return std::make_unique<BoundColumnRef>(ctx.columns->type, ctx.columns->binding,
                                                ctx.columns->name);
      }
      // A name no built-in function has may be a macro's.
      if (!FunctionRegistry::Default().Exists(name) && !IsAggregateFunction(name) &&
          !IsWindowOnlyFunction(name) && name != "nextval" && name != "currval") {
        if (auto macro = catalog_.FindMacro(name)) return BindMacroCall(fn, *macro, ctx);
      }
      if (!fn.named_args.empty()) {
        throw BinderError("{} takes no named arguments (only macros and table functions do)", name);
      }
      if (IsWindowOnlyFunction(name)) {
        throw BinderError("window function {} requires an OVER clause", name);
      }
      if (name == "grouping" || name == "grouping_id") {
        if (!ctx.aggregates) throw BinderError("{} is not allowed in the {}", name, ctx.clause);
        if (fn.filter) throw BinderError("FILTER is only allowed on aggregate functions");
        if (fn.args.empty() || fn.args.size() > 63)
          throw BinderError("{} takes 1 to 63 arguments", name);
        ExprContext inner = ctx;
        inner.aggregates = nullptr;
        inner.windows = nullptr;
        inner.clause = "argument of grouping()";
        inner.subqueries = false;
        auto& info = *ctx.aggregates;
        std::vector<size_t> call;
        for (const auto& a : fn.args) {
          auto arg = BindExpr(*a, inner);
          const auto at =
              std::find(info.group_keys.begin(), info.group_keys.end(), BoundIdentityKey(*arg));
          if (at == info.group_keys.end()) {
            throw BinderError("arguments of {} must be GROUP BY expressions, not {}", name,
                              arg->ToString());
          }
          call.push_back(static_cast<size_t>(at - info.group_keys.begin()));
        }
        // Without grouping sets nothing is rolled up.
        if (info.grouping_sets.empty()) return std::make_unique<BoundConstant>(Value::Bigint(0));
        auto at = std::find(info.grouping_calls.begin(), info.grouping_calls.end(), call);
        if (at == info.grouping_calls.end())
          at = info.grouping_calls.insert(info.grouping_calls.end(), std::move(call));
        const auto column = static_cast<uint32_t>(
            info.groups.size() + 1 + static_cast<size_t>(at - info.grouping_calls.begin()));
        return std::make_unique<BoundColumnRef>(
            LogicalType::Bigint(), ColumnBinding{info.group_index, column}, expr.ToString());
      }
      if (IsAggregateFunction(name)) {
        if (!ctx.aggregates) {
          throw BinderError("aggregate function {} is not allowed in the {}", name, ctx.clause);
        }
        // Arguments are bound without aggregates: no nesting.
        ExprContext inner = ctx;
        inner.aggregates = nullptr;
        inner.windows = nullptr;
        inner.clause = "argument of an aggregate function";
        inner.subqueries = false;
        // One aggregate of the query per call: a new one, or the same call's again.
        std::function<BoundExprPtr(ResolvedAggregate)> add_aggregate;
        add_aggregate = [&](ResolvedAggregate resolved) -> BoundExprPtr {
          // In SQL an aggregate whose arguments are only outer columns aggregates the outer
          // query (SELECT (SELECT max(t.x)) FROM t is one row); shears would aggregate each
          // outer row alone: an error, not a wrong answer.
          if (ctx.scope && ctx.scope->outer) {
            bool local = false, outer = false;
            std::function<void(BoundExpr&)> walk = [&](BoundExpr& e) {
              if (e.kind == BoundExprKind::kColumnRef) {
                const ColumnBinding& b = static_cast<const BoundColumnRef&>(e).binding;
                const auto& correlated = ctx.scope->correlated;
                (std::find(correlated.begin(), correlated.end(), b) != correlated.end() ? outer
                                                                                        : local) =
                    true;
              }
              for (BoundExprPtr* child : e.Children()) {
                if (*child) walk(**child);
              }
            };
            for (auto& input : resolved.inputs) {
              if (input) walk(*input);
            }
            if (outer && !local) {
              throw NotSupportedError(
                  "{} over columns of an outer query only, inside a subquery: SQL makes it an "
                  "aggregate of the outer query, which shears does not do yet; compute it in "
                  "the outer query",
                  name);
            }
          }
          if (fn.filter) {
            ExprContext filter_ctx = inner;
            filter_ctx.clause = "FILTER clause";
            ApplyAggregateFilter(resolved, BindExpr(*fn.filter, filter_ctx));
          }
          if (resolved.finish) {
            auto finish = std::move(resolved.finish);
            resolved.finish = nullptr;
            return finish(add_aggregate(std::move(resolved)));
          }
          const AggregateKind kind = resolved.kind;
          const LogicalType type = resolved.type;
          BoundExprPtr arg = resolved.inputs.empty() ? nullptr : std::move(resolved.inputs[0]);
          auto aggregate =
              std::make_unique<BoundAggregate>(kind, type, std::move(arg), fn.distinct);
          for (size_t i = 1; i < resolved.inputs.size(); i++)
            aggregate->extra_args.push_back(std::move(resolved.inputs[i]));
          aggregate->params = std::move(resolved.params);
          // sum(a.x) and sum(b.x) print alike: deduplicated by binding, not by text.
          const std::string key = BoundIdentityKey(*aggregate);
          const std::string display = aggregate->ToString();
          auto& info = *ctx.aggregates;
          for (size_t i = 0; i < info.aggregate_keys.size(); i++) {
            if (info.aggregate_keys[i] == key) {
              return std::make_unique<BoundColumnRef>(
                  type, ColumnBinding{info.aggregate_index, static_cast<uint32_t>(i)}, display);
            }
          }
          info.aggregates.push_back(std::move(aggregate));
          info.aggregate_keys.push_back(key);
          return std::make_unique<BoundColumnRef>(
              type,
              ColumnBinding{info.aggregate_index,
                            static_cast<uint32_t>(info.aggregates.size() - 1)},
              display);
        };
        if ((name == "quantile" || name == "quantile_cont" || name == "quantile_disc" ||
             name == "approx_quantile" || name == "reservoir_quantile") &&
            fn.args.size() >= 2 && fn.order_by.empty()) {
          std::vector<BoundExprPtr> args;
          for (const auto& a : fn.args)
            args.push_back(BindExpr(*a, inner));
          if (args[1]->type.id() == TypeId::kList) {
            // quantile(x, [0.25, 0.5]): the list of each fraction's quantile, as DuckDB.
            if (args[1]->kind != BoundExprKind::kConstant ||
                static_cast<const BoundConstant&>(*args[1]).value.is_null()) {
              throw BinderError("the fractions of {} must be a constant list", name);
            }
            const Value& list = static_cast<const BoundConstant&>(*args[1]).value;
            const std::vector<Value> fractions =
                DecodeList(args[1]->type.element(), list.GetString());
            if (fractions.empty()) {
              // An empty list, of the type one fraction's quantile has.
              std::vector<BoundExprPtr> probe;
              probe.push_back(args[0]->Copy());
              probe.push_back(std::make_unique<BoundConstant>(Value::Double(0.5)));
              const LogicalType element =
                  ResolveAggregateCall(name, std::move(probe), {}, false, false, false).type;
              return std::make_unique<BoundConstant>(Value::List(element, {}));
            }
            std::vector<BoundExprPtr> quantiles;
            for (const Value& fraction : fractions) {
              std::vector<BoundExprPtr> one;
              one.push_back(args[0]->Copy());
              one.push_back(std::make_unique<BoundConstant>(fraction));
              quantiles.push_back(add_aggregate(ResolveAggregateCall(
                  name, std::move(one), {}, fn.within_group, fn.star, fn.distinct)));
            }
            // No value in the group: every quantile is NULL, and the list is NULL (DuckDB's).
            BoundExprPtr first = quantiles[0]->Copy();
            BoundExprPtr values = BindFunctionCall("list_value", std::move(quantiles));
            auto result = std::make_unique<BoundCase>(values->type);
            result->when_then.emplace_back(
                std::make_unique<BoundIsNull>(std::move(first), false),
                std::make_unique<BoundConstant>(Value::Null(values->type)));
            result->else_expr = std::move(values);
            return result;
          }
          return add_aggregate(ResolveAggregateCall(name, std::move(args), {}, fn.within_group,
                                                    fn.star, fn.distinct));
        }
        return add_aggregate(BindAggregateCall(fn, name, inner));
      }
      if (fn.distinct)
        throw BinderError("DISTINCT is only allowed in aggregate functions, not {}", name);
      if (fn.filter)
        throw BinderError("FILTER is only allowed on aggregate functions, not {}", name);
      std::vector<BoundExprPtr> args;
      for (const auto& a : fn.args)
        args.push_back(BindExpr(*a, ctx));
      if (name == "nextval" || name == "currval") return BindSequenceCall(name, std::move(args));
      if (BoundExprPtr access = BindNestedAccess(name, args)) return access;
      if (name == "list_aggregate" || name == "list_aggr" || name == "array_aggregate" ||
          name == "array_aggr" || name == "aggregate") {
        // list_aggregate(l, 'sum'): the list function of that aggregate (list_functions.cpp).
        if (args.size() < 2 || args[1]->kind != BoundExprKind::kConstant ||
            args[1]->type.id() != TypeId::kVarchar ||
            static_cast<const BoundConstant&>(*args[1]).value.is_null()) {
          throw BinderError("{} takes a list and a constant aggregate name", name);
        }
        const std::string aggregate =
            AsciiLower(static_cast<const BoundConstant&>(*args[1]).value.GetString());
        static const std::pair<const char*, const char*> kListFunctions[] = {
            {"sum", "list_sum"},
            {"min", "list_min"},
            {"max", "list_max"},
            {"avg", "list_avg"},
            {"mean", "list_avg"},
            {"count", "list_count"},
            {"first", "list_first"},
            {"last", "list_last"},
            {"string_agg", "list_string_agg"},
            {"mad", "list_mad"},
            {"entropy", "list_entropy"},
            {"histogram", "list_histogram"},
            {"skewness", "list_skewness"},
            {"kurtosis", "list_kurtosis"},
            {"kurtosis_pop", "list_kurtosis_pop"},
            {"any_value", "list_any_value"},
            {"arbitrary", "list_first"},
            {"group_concat", "list_string_agg"},
            {"listagg", "list_string_agg"}};
        const char* function = nullptr;
        for (const auto& [agg, list_function] : kListFunctions) {
          if (aggregate == agg) function = list_function;
        }
        if (!function) {
          throw NotSupportedError(
              "{}: the aggregate '{}' is not supported (sum, min, max, avg, count, first, last, "
              "any_value, string_agg, mad, entropy, histogram, skewness, kurtosis, kurtosis_pop "
              "are)",
              name, aggregate);
        }
        args.erase(args.begin() + 1);
        const bool string_agg = std::string_view(function) == "list_string_agg";
        if (string_agg && args.size() == 1) {
          args.push_back(std::make_unique<BoundConstant>(Value::Varchar(",")));
        }
        if (!string_agg && args.size() != 1) {
          throw BinderError("{}: the aggregate '{}' takes no extra argument", name, aggregate);
        }
        return BindFunctionCall(function, std::move(args));
      }
      if (name == "typeof") {
        // The argument's type is known when binding: a constant (an untyped NULL is "NULL",
        // as in DuckDB). The argument is not evaluated.
        if (args.size() != 1) throw BinderError("typeof takes exactly one argument");
        const LogicalType& t = args[0]->type;
        return std::make_unique<BoundConstant>(Value::Varchar(t.valid() ? t.ToString() : "NULL"));
      }
      if (name == "coalesce" || name == "nullif" || name == "greatest" || name == "least") {
        // All arguments share one type.
        std::optional<LogicalType> common;
        for (auto& a : args) {
          if (!a->type.valid()) continue;
          common = common ? CommonType(*common, a->type) : std::optional<LogicalType>(a->type);
          if (!common) throw BinderError("{} arguments have incompatible types", name);
        }
        if (common) {
          for (auto& a : args)
            a = CastTo(std::move(a), *common);
        }
      }
      return BindFunctionCall(name, std::move(args));
    }
    case ast::ExprKind::kCast: {
      const auto& cast = static_cast<const ast::CastExpr&>(expr);
      BoundExprPtr child = BindExpr(*cast.child, ctx);
      LogicalType type = ResolveTypeName(cast.type);
      // CAST(x AS UBIGINT) and the other unsigned types: the cast to the signed type they map
      // onto, then a check of the unsigned range; TIMESTAMP_S / _MS: then a rounding.
      if (const char* check = UnsignedCheck(cast.type.name, cast.try_cast)) {
        // A NULL is in range; an untyped one would reach the check with no type to hold it.
        if (IsConstant(*child) && static_cast<BoundConstant&>(*child).value.is_null()) {
          return std::make_unique<BoundConstant>(Value::Null(type));
        }
        BoundExprPtr converted = child->type == type ? std::move(child)
                                                     : std::make_unique<BoundCast>(
                                                           std::move(child), type, cast.try_cast);
        std::vector<BoundExprPtr> args;
        args.push_back(std::move(converted));
        return Fold(BindFunctionCall(check, std::move(args)));
      }
      if (child->type.valid() && !CastExists(child->type, type)) {
        throw BinderError("cannot cast {} to {}", child->type.ToString(), type.ToString());
      }
      if (child->type == type) return child;
      if (IsConstant(*child)) {
        const Value& v = static_cast<BoundConstant&>(*child).value;
        if (v.is_null()) return std::make_unique<BoundConstant>(Value::Null(type));
        try {
          return std::make_unique<BoundConstant>(CastValue(v, type, cast.try_cast));
        } catch (const Error& e) {
          if (!e.IsUserError()) throw;  // as in Fold: fails when (if) a row is evaluated
        }
      }
      return std::make_unique<BoundCast>(std::move(child), type, cast.try_cast);
    }
    case ast::ExprKind::kCase: {
      const auto& c = static_cast<const ast::CaseExpr&>(expr);
      std::vector<std::pair<BoundExprPtr, BoundExprPtr>> branches;
      BoundExprPtr operand = c.operand ? BindExpr(*c.operand, ctx) : nullptr;
      for (const auto& [when, then] : c.when_then) {
        BoundExprPtr condition;
        if (operand) {
          condition = MakeComparison("=", operand->Copy(), BindExpr(*when, ctx));
        } else {
          condition = RequireBoolean(BindExpr(*when, ctx), "CASE WHEN condition");
        }
        branches.emplace_back(std::move(condition), BindExpr(*then, ctx));
      }
      BoundExprPtr else_expr = c.else_expr ? BindExpr(*c.else_expr, ctx) : nullptr;
      std::optional<LogicalType> type;
      auto unify = [&](const LogicalType& t) {
        if (!t.valid()) return;
        type = type ? CommonType(*type, t) : std::optional<LogicalType>(t);
        if (!type) throw BinderError("CASE branches have incompatible types");
      };
      for (auto& b : branches)
        unify(b.second->type);
      if (else_expr) unify(else_expr->type);
      LogicalType result = type ? *type : LogicalType::Integer();
      auto bound = std::make_unique<BoundCase>(result);
      for (auto& b : branches)
        bound->when_then.emplace_back(std::move(b.first), CastTo(std::move(b.second), result));
      bound->else_expr = else_expr ? CastTo(std::move(else_expr), result)
                                   : std::make_unique<BoundConstant>(Value::Null(result));
      return bound;
    }
    case ast::ExprKind::kInList: {
      const auto& in = static_cast<const ast::InListExpr&>(expr);
      BoundExprPtr value = BindExpr(*in.value, ctx);
      // SQLite's `x IN ()`: false and `x NOT IN ()` true, even for a NULL x (no element can
      // be unknown). x is bound all the same, so a wrong name is still an error.
      if (in.list.empty()) return std::make_unique<BoundConstant>(Value::Boolean(in.negated));
      std::vector<BoundExprPtr> ors;
      for (const auto& item : in.list) {
        ors.push_back(MakeComparison("=", value->Copy(), BindExpr(*item, ctx)));
      }
      BoundExprPtr result = Fold(std::make_unique<BoundConjunction>(false, std::move(ors)));
      if (in.negated) result = Fold(std::make_unique<BoundNot>(std::move(result)));
      return result;
    }
    case ast::ExprKind::kBetween: {
      const auto& b = static_cast<const ast::BetweenExpr&>(expr);
      BoundExprPtr value = BindExpr(*b.value, ctx);
      std::vector<BoundExprPtr> ands;
      ands.push_back(MakeComparison(">=", value->Copy(), BindExpr(*b.low, ctx)));
      ands.push_back(MakeComparison("<=", std::move(value), BindExpr(*b.high, ctx)));
      BoundExprPtr result = Fold(std::make_unique<BoundConjunction>(true, std::move(ands)));
      if (b.negated) result = Fold(std::make_unique<BoundNot>(std::move(result)));
      return result;
    }
    case ast::ExprKind::kLike: {
      const auto& like = static_cast<const ast::LikeExpr&>(expr);
      std::vector<BoundExprPtr> args;
      args.push_back(BindExpr(*like.value, ctx));
      args.push_back(BindExpr(*like.pattern, ctx));
      if (like.escape) args.push_back(BindExpr(*like.escape, ctx));
      std::string name =
          std::string(like.negated ? "not_" : "") + (like.case_insensitive ? "ilike" : "like");
      return BindFunctionCall(name, std::move(args));
    }
    case ast::ExprKind::kIsNull: {
      const auto& n = static_cast<const ast::IsNullExpr&>(expr);
      return Fold(std::make_unique<BoundIsNull>(BindExpr(*n.child, ctx), n.negated));
    }
    case ast::ExprKind::kIsBool: {
      const auto& b = static_cast<const ast::IsBoolExpr&>(expr);
      BoundExprPtr child = RequireBoolean(BindExpr(*b.child, ctx), "IS TRUE/FALSE operand");
      // x IS TRUE  ==  x IS NOT NULL AND x;   x IS FALSE  ==  x IS NOT NULL AND NOT x
      std::vector<BoundExprPtr> ands;
      ands.push_back(std::make_unique<BoundIsNull>(child->Copy(), true));
      ands.push_back(b.value ? std::move(child) : std::make_unique<BoundNot>(std::move(child)));
      BoundExprPtr result = std::make_unique<BoundConjunction>(true, std::move(ands));
      if (b.negated) result = std::make_unique<BoundNot>(std::move(result));
      return Fold(std::move(result));
    }
    case ast::ExprKind::kInterval: {
      const auto& interval = static_cast<const ast::IntervalExpr&>(expr);
      return std::make_unique<BoundConstant>(
          Value::Interval(Interval{interval.months, interval.days, interval.micros}));
    }
    case ast::ExprKind::kSubquery:
      if (!ctx.subqueries)
        throw NotSupportedError("subqueries are not supported in the {}", ctx.clause);
      return BindSubqueryExpr(static_cast<const ast::SubqueryExpr&>(expr), ctx);
  }
  throw InternalError("unknown expression kind");
}

}  // namespace shears

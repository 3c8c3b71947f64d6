// STRUCT construction and field access, bound here because their field names are constants
// of the call, not types a function resolver sees: struct_pack(a := x), row(x, y), DuckDB's
// {'a': x} (the parser's __shears_struct_literal), s.a / t.s.a, s['a'], struct_extract(s, 'a'
// | i), m[k] of a MAP, and DuckDB's date_part([parts], x), a STRUCT of the parts. The kernels are
// function/nested_functions.cpp's.

#include "common/error.h"
#include "common/list.h"
#include "common/string_util.h"
#include "planner/bind_context.h"

namespace shears {
namespace {

// The constant text or integer of an argument; nullopt when it is no non-NULL constant.
std::optional<Value> ConstantOf(const BoundExpr& expr) {
  if (expr.kind != BoundExprKind::kConstant) return std::nullopt;
  const Value& value = static_cast<const BoundConstant&>(expr).value;
  if (value.is_null()) return std::nullopt;
  return value;
}

size_t FieldIndex(const LogicalType& type, const std::string& name) {
  const auto& names = type.field_names();
  for (size_t i = 0; i < names.size(); i++) {
    if (EqualsAsciiLower(names[i], AsciiLower(name))) return i;
  }
  std::string candidates;
  for (const auto& field : names)
    candidates += (candidates.empty() ? "" : ", ") + field;
  throw BinderError("could not find key \"{}\" in struct {} (candidates: {})", name,
                    type.ToString(), candidates);
}

BoundExprPtr ExtractField(BoundExprPtr input, size_t field) {
  const LogicalType type = input->type;
  std::vector<BoundExprPtr> args;
  args.push_back(std::move(input));
  BoundExprPtr call =
      std::make_unique<BoundFunction>(MakeStructExtract(type, field), std::move(args));
  return Fold(std::move(call));
}

BoundExprPtr PackStruct(const std::vector<std::pair<std::string, LogicalType>>& fields,
                        std::vector<BoundExprPtr> values) {
  const LogicalType type = LogicalType::Struct(fields);
  BoundScalarFunction fn = MakeStructPack(type);
  for (size_t i = 0; i < values.size(); i++)
    values[i] = CastTo(std::move(values[i]), fn.arg_types[i]);
  BoundExprPtr call = std::make_unique<BoundFunction>(std::move(fn), std::move(values));
  return Fold(std::move(call));
}

void CheckUniqueNames(const std::vector<std::pair<std::string, LogicalType>>& fields) {
  for (size_t i = 0; i < fields.size(); i++) {
    for (size_t j = 0; j < i; j++) {
      if (!fields[i].first.empty() &&
          EqualsAsciiLower(fields[j].first, AsciiLower(fields[i].first))) {
        throw BinderError("duplicate struct entry name \"{}\"", fields[i].first);
      }
    }
  }
}

}  // namespace

BoundExprPtr Binder::BindStructConstructor(const ast::FunctionExpr& fn, const std::string& name,
                                           ExprContext& ctx) {
  std::vector<std::pair<std::string, LogicalType>> fields;
  std::vector<BoundExprPtr> values;
  if (name == "__shears_struct_literal") {
    // 'name', value, 'name', value, ... (sql_rewrite_nested.cpp).
    if (fn.args.empty()) throw BinderError("an empty struct literal {} is not supported");
    for (size_t i = 0; i < fn.args.size(); i += 2) {
      if (i + 1 >= fn.args.size() || fn.args[i]->kind != ast::ExprKind::kConstant ||
          static_cast<const ast::ConstantExpr&>(*fn.args[i]).value.type().id() !=
              TypeId::kVarchar) {
        throw BinderError("a struct literal's keys must be names: {'a': 1}");
      }
      const auto& key = static_cast<const ast::ConstantExpr&>(*fn.args[i]);
      values.push_back(BindExpr(*fn.args[i + 1], ctx));
      fields.emplace_back(key.value.GetString(), values.back()->type);
    }
  } else if (name == "struct_pack") {
    if (!fn.args.empty() || fn.named_args.empty()) {
      throw BinderError("struct_pack takes named arguments only: struct_pack(a := 1, b := 'x')");
    }
    for (const auto& [field, arg] : fn.named_args) {
      values.push_back(BindExpr(*arg, ctx));
      fields.emplace_back(field, values.back()->type);
    }
  } else if (name == "struct_insert") {
    // struct_insert(s, c := x): s's fields, then the new ones.
    if (fn.args.size() != 1 || fn.named_args.empty()) {
      throw BinderError(
          "struct_insert takes a STRUCT and named arguments: struct_insert(s, c := 1)");
    }
    BoundExprPtr base = BindExpr(*fn.args[0], ctx);
    if (!base->type.IsStruct()) {
      throw BinderError("struct_insert needs a STRUCT, not {}", base->type.ToString());
    }
    const LogicalType type = base->type;
    for (size_t i = 0; i < type.children().size(); i++) {
      values.push_back(ExtractField(base->Copy(), i));
      fields.emplace_back(type.field_names()[i], type.children()[i]);
    }
    for (const auto& [field, arg] : fn.named_args) {
      values.push_back(BindExpr(*arg, ctx));
      fields.emplace_back(field, values.back()->type);
    }
    // A NULL struct's fields are NULL, the new struct is not (DuckDB's).
  } else if ((name == "date_part" || name == "datepart") && fn.args.size() == 2 &&
             fn.args[0]->kind == ast::ExprKind::kFunction &&
             AsciiLower(static_cast<const ast::FunctionExpr&>(*fn.args[0]).name) == "list_value") {
    // DuckDB's date_part(['year', 'month'], x): a STRUCT of the parts, named as written.
    BoundExprPtr parts = BindExpr(*fn.args[0], ctx);
    const std::optional<Value> list = ConstantOf(*parts);
    if (!list || parts->type.element().id() != TypeId::kVarchar) {
      throw BinderError("date_part takes a constant list of part names");
    }
    BoundExprPtr input = BindExpr(*fn.args[1], ctx);
    for (const Value& part : DecodeList(parts->type.element(), list->GetString())) {
      if (part.is_null()) throw BinderError("date_part: a part name is NULL");
      std::vector<BoundExprPtr> args;
      args.push_back(std::make_unique<BoundConstant>(part));
      args.push_back(input->Copy());
      values.push_back(BindFunctionCall("date_part", std::move(args)));
      fields.emplace_back(part.GetString(), values.back()->type);
    }
    if (values.empty()) throw BinderError("date_part needs at least one part name");
    CheckUniqueNames(fields);
    // The parts of a NULL are a NULL struct, not a struct of NULLs (DuckDB).
    const LogicalType type = LogicalType::Struct(fields);
    auto null_input = std::make_unique<BoundCase>(type);
    null_input->when_then.emplace_back(std::make_unique<BoundIsNull>(std::move(input), false),
                                       std::make_unique<BoundConstant>(Value::Null(type)));
    null_input->else_expr = PackStruct(fields, std::move(values));
    return Fold(std::move(null_input));
  } else if (name == "row") {
    if (!fn.named_args.empty()) throw BinderError("row takes no named arguments");
    if (fn.args.empty()) throw BinderError("row() needs at least one value");
    for (const auto& arg : fn.args) {
      values.push_back(BindExpr(*arg, ctx));
      fields.emplace_back("", values.back()->type);
    }
  } else {
    return nullptr;
  }
  CheckUniqueNames(fields);
  // A NULL literal's field keeps DuckDB's "NULL" type (it casts to any type later).
  return PackStruct(fields, std::move(values));
}

BoundExprPtr Binder::BindStructFieldPath(const std::vector<std::string>& names, ExprContext& ctx) {
  // The longest prefix naming a column (or a lambda parameter) wins, as DuckDB reads t.s.a.
  for (size_t length = names.size() - 1; length >= 1; length--) {
    BoundExprPtr base;
    if (length == 1) base = BindLambdaParameter(names[0]);
    if (!base && ctx.scope) {
      const std::string qualifier = length >= 2 ? names[length - 2] : "";
      if (length <= 2) {
        auto found = ResolveColumn(*ctx.scope, qualifier, names[length - 1]);
        if (found) {
          auto column = std::make_unique<BoundColumnRef>(found->type, found->binding, found->name);
          column->qualifier = found->qualifier;
          base = std::move(column);
        }
      }
    }
    if (!base) continue;
    if (!base->type.IsStruct()) {
      throw BinderError("cannot extract field \"{}\" from {} of type {}", names[length],
                        names[length - 1], base->type.ToString());
    }
    for (size_t i = length; i < names.size(); i++) {
      if (!base->type.IsStruct()) {
        throw BinderError("cannot extract field \"{}\" from a value of type {}", names[i],
                          base->type.ToString());
      }
      const size_t field = FieldIndex(base->type, names[i]);
      base = ExtractField(std::move(base), field);
    }
    return base;
  }
  return nullptr;
}

BoundExprPtr BindNestedAccess(const std::string& name, std::vector<BoundExprPtr>& args) {
  const bool extract = name == "list_extract" || name == "list_element" ||
                       name == "array_extract" || name == "struct_extract";
  if (!extract || args.size() != 2 || !args[0]) return nullptr;
  const LogicalType type = args[0]->type;
  if (type.IsMap() && name != "struct_extract") {
    return BindFunctionCall(kMapValueFunction, std::move(args));
  }
  if (!type.IsStruct()) {
    if (name == "struct_extract") {
      throw BinderError("struct_extract needs a STRUCT, not {}", type.ToString());
    }
    return nullptr;
  }
  const std::optional<Value> key = ConstantOf(*args[1]);
  if (!key) throw BinderError("a STRUCT's field must be named by a constant name or position");
  size_t field = 0;
  if (key->type().id() == TypeId::kVarchar) {
    field = FieldIndex(type, key->GetString());
  } else if (key->type().id() == TypeId::kInteger || key->type().id() == TypeId::kBigint) {
    const int64_t position = key->GetInt64();
    if (position < 1 || static_cast<size_t>(position) > type.children().size()) {
      throw BinderError("struct_extract: position {} is out of range (1 to {})", position,
                        type.children().size());
    }
    field = static_cast<size_t>(position - 1);
  } else {
    throw BinderError("a STRUCT's field is named by a VARCHAR or an integer position, not {}",
                      key->type().ToString());
  }
  return ExtractField(std::move(args[0]), field);
}

}  // namespace shears

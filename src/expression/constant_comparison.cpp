#include "expression/constant_comparison.h"

#include <type_traits>

#include "common/error.h"
#include "function/comparison_ops.h"

namespace shears {

namespace {

enum class Op { kEq, kNe, kLt, kLe, kGt, kGe };

std::optional<Op> ParseOp(const std::string& name) {
  if (name == "=") return Op::kEq;
  if (name == "<>" || name == "!=") return Op::kNe;
  if (name == "<") return Op::kLt;
  if (name == "<=") return Op::kLe;
  if (name == ">") return Op::kGt;
  if (name == ">=") return Op::kGe;
  return std::nullopt;
}

// `5 < x` is `x > 5`.
Op Mirror(Op op) {
  switch (op) {
    case Op::kLt:
      return Op::kGt;
    case Op::kLe:
      return Op::kGe;
    case Op::kGt:
      return Op::kLt;
    case Op::kGe:
      return Op::kLe;
    default:
      return op;
  }
}

struct Parts {
  const BoundReference* column;
  const BoundConstant* constant;
  Op op;
};

std::optional<Parts> Split(const BoundExpr& predicate) {
  if (predicate.kind != BoundExprKind::kFunction) return std::nullopt;
  const auto& fn = static_cast<const BoundFunction&>(predicate);
  if (fn.args.size() != 2) return std::nullopt;
  auto op = ParseOp(fn.function.name);
  if (!op) return std::nullopt;
  const BoundExpr& a = *fn.args[0];
  const BoundExpr& b = *fn.args[1];
  Parts parts{};
  if (a.kind == BoundExprKind::kReference && b.kind == BoundExprKind::kConstant) {
    parts = {static_cast<const BoundReference*>(&a), static_cast<const BoundConstant*>(&b), *op};
  } else if (b.kind == BoundExprKind::kReference && a.kind == BoundExprKind::kConstant) {
    parts = {static_cast<const BoundReference*>(&b), static_cast<const BoundConstant*>(&a),
             Mirror(*op)};
  } else {
    return std::nullopt;
  }
  if (parts.constant->value.is_null() || !(parts.constant->type == parts.column->type) ||
      parts.column->type.physical() == PhysicalType::kInvalid ||
      parts.column->type.physical() == PhysicalType::kBool)
    return std::nullopt;
  return parts;
}

template <typename T, typename Cmp>
idx_t SelectLoop(const Vector& column, T constant, const uint32_t* rows, idx_t count,
                 uint32_t* out) {
  const T* values = column.data<T>();
  const ValidityMask& validity = column.validity();
  idx_t selected = 0;
  // Branch-free: every row is written, and counted when it passes.
  if (validity.AllValid()) {
    if (rows) {
      for (idx_t i = 0; i < count; i++) {
        const uint32_t r = rows[i];
        out[selected] = r;
        selected += Cmp::Apply(values[r], constant);
      }
    } else {
      for (idx_t i = 0; i < count; i++) {
        out[selected] = static_cast<uint32_t>(i);
        selected += Cmp::Apply(values[i], constant);
      }
    }
  } else {
    for (idx_t i = 0; i < count; i++) {
      const uint32_t r = rows ? rows[i] : static_cast<uint32_t>(i);
      out[selected] = r;
      if constexpr (std::is_same_v<T, StringRef>) {
        // A NULL row's string may point anywhere (a buffer of an earlier batch): not read.
        selected += validity.IsValid(r) && Cmp::Apply(values[r], constant);
      } else {
        // A number under a NULL is some number, harmless to compare: no branch.
        selected += static_cast<idx_t>(validity.IsValid(r)) & Cmp::Apply(values[r], constant);
      }
    }
  }
  return selected;
}

template <typename T>
idx_t SelectTyped(Op op, const Vector& column, T constant, const uint32_t* rows, idx_t count,
                  uint32_t* out) {
  switch (op) {
    case Op::kEq:
      return SelectLoop<T, compare_ops::Equal>(column, constant, rows, count, out);
    case Op::kNe:
      return SelectLoop<T, compare_ops::NotEqual>(column, constant, rows, count, out);
    case Op::kLt:
      return SelectLoop<T, compare_ops::Less>(column, constant, rows, count, out);
    case Op::kLe:
      return SelectLoop<T, compare_ops::LessEqual>(column, constant, rows, count, out);
    case Op::kGt:
      return SelectLoop<T, compare_ops::Greater>(column, constant, rows, count, out);
    case Op::kGe:
      return SelectLoop<T, compare_ops::GreaterEqual>(column, constant, rows, count, out);
  }
  return 0;
}

}  // namespace

bool IsConstantComparison(const BoundExpr& predicate) { return Split(predicate).has_value(); }

idx_t SelectConstantComparison(const BoundExpr& predicate, const Batch& input,
                               const uint32_t* rows, idx_t count, uint32_t* out) {
  const auto parts = Split(predicate);
  if (!parts) throw InternalError("not a constant comparison: {}", predicate.ToString());
  const Vector& column = input.column(parts->column->index);
  // The constant in the column's own layout (one row), so each type compares as its kernel does.
  Vector constant(parts->column->type, 1);
  WriteValue(constant, 0, parts->constant->value);
  switch (column.type().physical()) {
    case PhysicalType::kInt32:
      return SelectTyped(parts->op, column, constant.data<int32_t>()[0], rows, count, out);
    case PhysicalType::kInt64:
      return SelectTyped(parts->op, column, constant.data<int64_t>()[0], rows, count, out);
    case PhysicalType::kInt128:
      return SelectTyped(parts->op, column, constant.data<int128_t>()[0], rows, count, out);
    case PhysicalType::kDouble:
      return SelectTyped(parts->op, column, constant.data<double>()[0], rows, count, out);
    case PhysicalType::kString:
      return SelectTyped(parts->op, column, constant.data<StringRef>()[0], rows, count, out);
    default:
      throw InternalError("constant comparison of type {}", column.type().ToString());
  }
}

}  // namespace shears

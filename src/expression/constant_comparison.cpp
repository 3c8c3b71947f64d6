#include "expression/constant_comparison.h"

#include <cstring>

#include <type_traits>

#include "common/error.h"
#include "function/comparison_ops.h"

namespace shears {

namespace {

using Op = ConstantComparisons::Op;
using Term = ConstantComparisons::Term;

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

// With `rest` (kRest), the rows failing go there, in order (a CASE's remaining rows).
template <typename T, typename Cmp, bool kRest = false>
idx_t SelectLoop(const Vector& column, T constant, const uint32_t* rows, idx_t count, uint32_t* out,
                 uint32_t* rest = nullptr) {
  const T* values = column.data<T>();
  const ValidityMask& validity = column.validity();
  idx_t selected = 0;
  idx_t failed = 0;
  // Branch-free: every row is written (to both lists with kRest), and counted where it goes.
  auto emit = [&](uint32_t r, bool pass) {
    out[selected] = r;
    selected += pass;
    if constexpr (kRest) {
      rest[failed] = r;
      failed += !pass;
    }
  };
  if (validity.AllValid()) {
    if (rows) {
      for (idx_t i = 0; i < count; i++) {
        const uint32_t r = rows[i];
        emit(r, Cmp::Apply(values[r], constant));
      }
    } else {
      for (idx_t i = 0; i < count; i++)
        emit(static_cast<uint32_t>(i), Cmp::Apply(values[i], constant));
    }
  } else {
    for (idx_t i = 0; i < count; i++) {
      const uint32_t r = rows ? rows[i] : static_cast<uint32_t>(i);
      if constexpr (std::is_same_v<T, StringRef>) {
        // A NULL row's string may point anywhere (a buffer of an earlier batch): not read.
        emit(r, validity.IsValid(r) && Cmp::Apply(values[r], constant));
      } else {
        // A number under a NULL is some number, harmless to compare: no branch.
        emit(r, static_cast<bool>(validity.IsValid(r) & Cmp::Apply(values[r], constant)));
      }
    }
  }
  return selected;
}

// lower(v, lo) && upper(v, hi) in one pass: a BETWEEN's two bounds.
template <typename T, typename Lower, typename Upper>
idx_t RangeLoop(const Vector& column, T low, T high, const uint32_t* rows, idx_t count,
                uint32_t* out) {
  const T* values = column.data<T>();
  const ValidityMask& validity = column.validity();
  idx_t selected = 0;
  auto pass = [&](const T& v) {
    return static_cast<idx_t>(Lower::Apply(v, low)) & static_cast<idx_t>(Upper::Apply(v, high));
  };
  if (validity.AllValid()) {
    if (rows) {
      for (idx_t i = 0; i < count; i++) {
        const uint32_t r = rows[i];
        out[selected] = r;
        selected += pass(values[r]);
      }
    } else {
      for (idx_t i = 0; i < count; i++) {
        out[selected] = static_cast<uint32_t>(i);
        selected += pass(values[i]);
      }
    }
  } else {
    for (idx_t i = 0; i < count; i++) {
      const uint32_t r = rows ? rows[i] : static_cast<uint32_t>(i);
      out[selected] = r;
      if constexpr (std::is_same_v<T, StringRef>) {
        selected += validity.IsValid(r) && pass(values[r]);
      } else {
        selected += static_cast<idx_t>(validity.IsValid(r)) & pass(values[r]);
      }
    }
  }
  return selected;
}

template <typename T, typename Lower>
idx_t RangeUpper(Op upper, const Vector& column, T low, T high, const uint32_t* rows, idx_t count,
                 uint32_t* out) {
  if (upper == Op::kLt)
    return RangeLoop<T, Lower, compare_ops::Less>(column, low, high, rows, count, out);
  return RangeLoop<T, Lower, compare_ops::LessEqual>(column, low, high, rows, count, out);
}

template <typename T>
idx_t RangeTyped(const Term& term, const Vector& column, const uint32_t* rows, idx_t count,
                 uint32_t* out) {
  const T low = term.constants->data<T>()[0];
  const T high = term.constants->data<T>()[1];
  if (term.op == Op::kGt)
    return RangeUpper<T, compare_ops::Greater>(term.upper_op, column, low, high, rows, count, out);
  return RangeUpper<T, compare_ops::GreaterEqual>(term.upper_op, column, low, high, rows, count,
                                                  out);
}

template <typename T, bool kRest = false>
idx_t SelectTyped(Op op, const Vector& column, T constant, const uint32_t* rows, idx_t count,
                  uint32_t* out, uint32_t* rest = nullptr) {
  switch (op) {
    case Op::kEq:
      return SelectLoop<T, compare_ops::Equal, kRest>(column, constant, rows, count, out, rest);
    case Op::kNe:
      return SelectLoop<T, compare_ops::NotEqual, kRest>(column, constant, rows, count, out, rest);
    case Op::kLt:
      return SelectLoop<T, compare_ops::Less, kRest>(column, constant, rows, count, out, rest);
    case Op::kLe:
      return SelectLoop<T, compare_ops::LessEqual, kRest>(column, constant, rows, count, out, rest);
    case Op::kGt:
      return SelectLoop<T, compare_ops::Greater, kRest>(column, constant, rows, count, out, rest);
    case Op::kGe:
      return SelectLoop<T, compare_ops::GreaterEqual, kRest>(column, constant, rows, count, out,
                                                             rest);
  }
  return 0;
}

template <bool kRest = false>
idx_t SelectSingle(Op op, const Vector& column, const Vector& constants, idx_t at,
                   const uint32_t* rows, idx_t count, uint32_t* out, uint32_t* rest = nullptr) {
  switch (column.type().physical()) {
    case PhysicalType::kInt32:
      return SelectTyped<int32_t, kRest>(op, column, constants.data<int32_t>()[at], rows, count,
                                         out, rest);
    case PhysicalType::kInt64:
      return SelectTyped<int64_t, kRest>(op, column, constants.data<int64_t>()[at], rows, count,
                                         out, rest);
    case PhysicalType::kInt128:
      return SelectTyped<int128_t, kRest>(op, column, constants.data<int128_t>()[at], rows, count,
                                          out, rest);
    case PhysicalType::kDouble:
      return SelectTyped<double, kRest>(op, column, constants.data<double>()[at], rows, count, out,
                                        rest);
    case PhysicalType::kString:
      return SelectTyped<StringRef, kRest>(op, column, constants.data<StringRef>()[at], rows, count,
                                           out, rest);
    default:
      throw InternalError("constant comparison of type {}", column.type().ToString());
  }
}

idx_t SelectRange(const Term& term, const Vector& column, const uint32_t* rows, idx_t count,
                  uint32_t* out) {
  switch (column.type().physical()) {
    case PhysicalType::kInt32:
      return RangeTyped<int32_t>(term, column, rows, count, out);
    case PhysicalType::kInt64:
      return RangeTyped<int64_t>(term, column, rows, count, out);
    case PhysicalType::kInt128:
      return RangeTyped<int128_t>(term, column, rows, count, out);
    case PhysicalType::kDouble:
      return RangeTyped<double>(term, column, rows, count, out);
    case PhysicalType::kString:
      return RangeTyped<StringRef>(term, column, rows, count, out);
    default:
      throw InternalError("constant comparison of type {}", column.type().ToString());
  }
}

bool IsLower(Op op) {
  return op == Op::kGt || op == Op::kGe;
}
bool IsUpper(Op op) {
  return op == Op::kLt || op == Op::kLe;
}

}  // namespace

bool IsConstantComparison(const BoundExpr& predicate) {
  return Split(predicate).has_value();
}

idx_t SplitConstantComparison(const BoundExpr& predicate, const Batch& input, const uint32_t* rows,
                              idx_t count, uint32_t* out, uint32_t* rest) {
  auto parts = Split(predicate);
  if (!parts) throw InternalError("not a constant comparison: {}", predicate.ToString());
  // The constant in the column's own layout, as ConstantComparisons keeps it.
  Vector constant(parts->column->type, 1);
  WriteValue(constant, 0, parts->constant->value);
  return SelectSingle<true>(parts->op, input.column(parts->column->index), constant, 0, rows, count,
                            out, rest);
}

idx_t SelectConstantComparison(const BoundExpr& predicate, const Batch& input, idx_t count,
                               uint32_t* out) {
  auto parts = Split(predicate);
  if (!parts) throw InternalError("not a constant comparison: {}", predicate.ToString());
  Vector constant(parts->column->type, 1);
  WriteValue(constant, 0, parts->constant->value);
  return SelectSingle(parts->op, input.column(parts->column->index), constant, 0, nullptr, count,
                      out);
}

void EvaluateConstantComparison(const BoundExpr& predicate, const Batch& input, idx_t count,
                                Vector& result) {
  auto parts = Split(predicate);
  if (!parts) throw InternalError("not a constant comparison: {}", predicate.ToString());
  Vector constant(parts->column->type, 1);
  WriteValue(constant, 0, parts->constant->value);
  const Vector& column = input.column(parts->column->index);
  std::vector<uint32_t> passed(std::max<idx_t>(count, 1));
  const idx_t n = SelectSingle(parts->op, column, constant, 0, nullptr, count, passed.data());
  uint8_t* values = result.data<uint8_t>();
  std::memset(values, 0, count);
  for (idx_t i = 0; i < n; i++)
    values[passed[i]] = 1;
  // A NULL column value compares to NULL; the rows passing are all valid.
  result.validity().Reset();
  if (!column.validity().AllValid()) {
    for (idx_t i = 0; i < count; i++) {
      if (!column.validity().IsValid(i)) result.validity().SetNull(i);
    }
  }
}

ConstantComparisons::ConstantComparisons(const std::vector<const BoundExpr*>& filters) {
  covers_.assign(filters.size(), false);
  std::vector<std::pair<size_t, Parts>> singles;
  for (size_t f = 0; f < filters.size(); f++) {
    auto parts = Split(*filters[f]);
    if (!parts) continue;
    covers_[f] = true;
    singles.emplace_back(f, *parts);
  }
  std::vector<bool> used(singles.size(), false);
  for (size_t i = 0; i < singles.size(); i++) {
    if (used[i]) continue;
    used[i] = true;
    const auto& [filter, parts] = singles[i];
    Term term;
    term.column = parts.column->index;
    term.filter = filter;
    term.op = parts.op;
    // The constants in the column's own layout (so each type compares as its kernel does;
    // strings owned by the vector): row 0 the constant or a range's lower bound, row 1 its
    // upper bound.
    term.constants = std::make_shared<Vector>(parts.column->type, 2);
    WriteValue(*term.constants, 0, parts.constant->value);
    // A later bound of the same column from the other side makes this a range.
    for (size_t j = i + 1; j < singles.size() && (IsLower(parts.op) || IsUpper(parts.op)); j++) {
      const auto& [other_filter, other] = singles[j];
      if (used[j] || other.column->index != term.column) continue;
      const bool lower_first = IsLower(parts.op) && IsUpper(other.op);
      const bool upper_first = IsUpper(parts.op) && IsLower(other.op);
      if (!lower_first && !upper_first) continue;
      used[j] = true;
      term.range = true;
      if (lower_first) {
        term.upper_filter = other_filter;
        term.upper_op = other.op;
        WriteValue(*term.constants, 1, other.constant->value);
      } else {
        term.upper_filter = filter;
        term.upper_op = parts.op;
        term.filter = other_filter;
        term.op = other.op;
        WriteValue(*term.constants, 0, other.constant->value);
        WriteValue(*term.constants, 1, parts.constant->value);
      }
      break;
    }
    terms_.push_back(std::move(term));
  }
}

idx_t ConstantComparisons::Select(const Batch& input, const std::vector<bool>* skip, idx_t count,
                                  uint32_t* out, bool* selected) const {
  *selected = false;
  for (const Term& term : terms_) {
    const bool skip_first = skip && (*skip)[term.filter];
    const bool skip_upper = term.range && skip && (*skip)[term.upper_filter];
    const Vector& column = input.column(term.column);
    const uint32_t* rows = *selected ? out : nullptr;
    if (term.range && !skip_first && !skip_upper) {
      count = SelectRange(term, column, rows, count, out);
    } else if (!skip_first) {
      count = SelectSingle(term.op, column, *term.constants, 0, rows, count, out);
    } else if (term.range && !skip_upper) {
      count = SelectSingle(term.upper_op, column, *term.constants, 1, rows, count, out);
    } else {
      continue;
    }
    *selected = true;
    if (count == 0) return 0;
  }
  return count;
}

}  // namespace shears

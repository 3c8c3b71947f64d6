#include "expression/expression_executor.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

#include "common/error.h"
#include "common/hash.h"
#include "expression/constant_comparison.h"
#include "function/function.h"

namespace shears {

namespace {

void Evaluate(const BoundExpr& expr, const Batch& input, idx_t count, Vector& result);
void CallFunction(const BoundFunction& expr, std::vector<Vector>& args, idx_t count,
                  Vector& result);

// Copies `count` values of `width` bytes, the j-th from slot from_slot(j) of `from` to slot
// to_slot(j) of `to`: one loop per fixed width, so each copy is a move, not a call to memcpy
// per row (a memcpy of a run-time size is a call: 12% of a CASE query's time).
template <typename ToSlot, typename FromSlot>
void CopyValues(size_t width, idx_t count, uint8_t* to, ToSlot to_slot, const uint8_t* from,
                FromSlot from_slot) {
  auto copy = [&](auto fixed_width) {
    constexpr size_t w = decltype(fixed_width)::value;
    for (idx_t j = 0; j < count; j++)
      std::memcpy(to + to_slot(j) * w, from + from_slot(j) * w, w);
  };
  switch (width) {
    case 1:
      return copy(std::integral_constant<size_t, 1>{});
    case 4:
      return copy(std::integral_constant<size_t, 4>{});
    case 8:
      return copy(std::integral_constant<size_t, 8>{});
    case 16:
      return copy(std::integral_constant<size_t, 16>{});
    default:
      for (idx_t j = 0; j < count; j++)
        std::memcpy(to + to_slot(j) * width, from + from_slot(j) * width, width);
  }
}

// Slot maps as function objects, not functions: a function's pointer is the template argument
// then, and each row paid an indirect call (13% of a filtered scan filling its constants).
constexpr auto Same = [](idx_t j) { return j; };
constexpr auto First = [](idx_t) { return idx_t{0}; };

void FillConstant(const Value& value, idx_t count, Vector& result) {
  if (value.is_null()) {
    for (idx_t i = 0; i < count; i++)
      result.validity().SetNull(i);
    return;
  }
  if (count == 0) return;
  WriteValue(result, 0, value);
  uint8_t* data = result.raw_data();
  CopyValues(
      result.type().value_size(), count - 1, data, [](idx_t j) { return j + 1; }, data, First);
}

void MarkReferencedColumns(const BoundExpr& expr, std::vector<bool>& used) {
  if (expr.kind == BoundExprKind::kReference) {
    const idx_t index = static_cast<const BoundReference&>(expr).index;
    if (index < used.size()) used[index] = true;
    return;
  }
  for (BoundExprPtr* child : const_cast<BoundExpr&>(expr).Children())
    MarkReferencedColumns(**child, used);
}

// Rows `rows` of `input` as a batch of their own; only the columns `expr` reads are copied
// (the others stay empty), so a branch over one column of a wide batch copies one column.
Batch GatherRows(const Batch& input, const std::vector<uint32_t>& rows, const BoundExpr& expr) {
  std::vector<bool> used(input.column_count(), false);
  MarkReferencedColumns(expr, used);
  Batch subset;
  subset.columns().resize(input.column_count());
  for (idx_t c = 0; c < input.column_count(); c++) {
    if (!used[c]) continue;
    subset.column(c) = Vector(input.column(c).type(), std::max<idx_t>(rows.size(), 1));
    subset.column(c).CopyRows(input.column(c), rows.data(), rows.size());
  }
  subset.SetSize(rows.size());
  return subset;
}

// Evaluates `expr` only on rows `rows` of `input` (all of them when `rows` is every row):
// `values` gets one value per entry of `rows`, in that order.
void EvaluateOnRows(const BoundExpr& expr, const Batch& input, idx_t count,
                    const std::vector<uint32_t>& rows, Vector& values) {
  if (rows.size() == count) {
    Evaluate(expr, input, count, values);
  } else {
    Batch subset = GatherRows(input, rows, expr);
    Evaluate(expr, subset, rows.size(), values);
  }
}

// Writes values[j] to row rows[j] of `result` (value and validity).
void ScatterRows(const Vector& values, const std::vector<uint32_t>& rows, Vector& result) {
  CopyValues(
      result.type().value_size(), rows.size(), result.raw_data(), [&](idx_t j) { return rows[j]; },
      values.data<uint8_t>(), Same);
  for (size_t j = 0; j < rows.size(); j++)
    result.validity().Set(rows[j], values.validity().IsValid(j));
  if (result.type().IsString()) result.ShareStringBuffers(values);
}

// Booleans as stored: 0/1 with a validity mask.
// Whether `expr` is `x = c1 OR x = c2 OR ...` with one x (how IN lists are bound).
bool IsEqualityList(const BoundConjunction& expr) {
  if (expr.is_and || expr.children.size() < 2) return false;
  const BoundExpr* operand = nullptr;
  for (const auto& child : expr.children) {
    if (child->kind != BoundExprKind::kFunction) return false;
    const auto& eq = static_cast<const BoundFunction&>(*child);
    if (eq.function.name != "=" || eq.args.size() != 2 ||
        eq.args[1]->kind != BoundExprKind::kConstant) {
      return false;
    }
    if (operand && !ExpressionsEqual(*operand, *eq.args[0])) return false;
    operand = eq.args[0].get();
  }
  return true;
}

// From this many constants on, `x = c1 OR ... OR x = cn` probes a hash set of the constants
// instead of comparing every row with each of them (q08's 400 zip codes: 400 comparisons a row).
constexpr size_t kMinHashedEqualityList = 8;

// Whether the equality list can be a set lookup: x and every constant of one type (each `=`
// then compares values of that type as they are stored, so equal values are equal bits, up to
// the DOUBLE rules of ValuesEqual).
bool CanHashEqualityList(const BoundConjunction& expr) {
  if (expr.children.size() < kMinHashedEqualityList) return false;
  const LogicalType& type = static_cast<const BoundFunction&>(*expr.children[0]).args[0]->type;
  if (type.physical() == PhysicalType::kInvalid) return false;
  for (const auto& child : expr.children) {
    if (static_cast<const BoundFunction&>(*child).args[1]->type != type) return false;
  }
  return true;
}

// result[i] = x[i] IN constants, with the OR's NULLs: NULL for a NULL x, and for an x equal
// to no constant when one of them is NULL.
template <typename T>
void ProbeConstantSet(const Vector& x, const Vector& constants, idx_t n, bool null_constant,
                      idx_t count, Vector& result) {
  std::vector<uint64_t> constant_hashes(n);
  HashVector(constants, n, constant_hashes.data(), false);
  size_t capacity = 16;
  while (capacity < 2 * n)
    capacity *= 2;
  const size_t mask = capacity - 1;
  std::vector<int32_t> slots(capacity, -1);
  const T* values = constants.data<T>();
  for (idx_t c = 0; c < n; c++) {
    size_t pos = constant_hashes[c] & mask;
    while (slots[pos] >= 0)
      pos = (pos + 1) & mask;
    slots[pos] = static_cast<int32_t>(c);
  }
  std::vector<uint64_t> hashes(count);
  HashVector(x, count, hashes.data(), false);
  const T* data = x.data<T>();
  uint8_t* out = result.data<uint8_t>();
  for (idx_t i = 0; i < count; i++) {
    if (x.IsNull(i)) {
      out[i] = 0;
      result.validity().SetNull(i);
      continue;
    }
    bool found = false;
    for (size_t pos = hashes[i] & mask; slots[pos] >= 0; pos = (pos + 1) & mask) {
      const int32_t c = slots[pos];
      if (constant_hashes[c] == hashes[i] && ValuesEqual(values[c], data[i])) {
        found = true;
        break;
      }
    }
    out[i] = found ? 1 : 0;
    if (!found && null_constant) result.validity().SetNull(i);
  }
}

void EvaluateHashedEqualityList(const BoundConjunction& expr, const Batch& input, idx_t count,
                                Vector& result) {
  const BoundExpr& operand = *static_cast<const BoundFunction&>(*expr.children[0]).args[0];
  Vector x(operand.type, std::max<idx_t>(count, 1));
  Evaluate(operand, input, count, x);
  Vector constants(operand.type, expr.children.size());
  idx_t n = 0;
  bool null_constant = false;
  for (const auto& child : expr.children) {
    const Value& value =
        static_cast<const BoundConstant&>(*static_cast<const BoundFunction&>(*child).args[1]).value;
    if (value.is_null()) {
      null_constant = true;
    } else {
      WriteValue(constants, n++, value);
    }
  }
  switch (operand.type.physical()) {
    case PhysicalType::kBool:
      return ProbeConstantSet<uint8_t>(x, constants, n, null_constant, count, result);
    case PhysicalType::kInt32:
      return ProbeConstantSet<int32_t>(x, constants, n, null_constant, count, result);
    case PhysicalType::kInt64:
      return ProbeConstantSet<int64_t>(x, constants, n, null_constant, count, result);
    case PhysicalType::kInt128:
      return ProbeConstantSet<int128_t>(x, constants, n, null_constant, count, result);
    case PhysicalType::kDouble:
      return ProbeConstantSet<double>(x, constants, n, null_constant, count, result);
    case PhysicalType::kString:
      return ProbeConstantSet<StringRef>(x, constants, n, null_constant, count, result);
    case PhysicalType::kInvalid:
      break;
  }
  throw InternalError("IN list over a value of invalid type");
}

void EvaluateConjunction(const BoundConjunction& expr, const Batch& input, idx_t count,
                         Vector& result) {
  const bool equality_list = IsEqualityList(expr);
  if (equality_list && CanHashEqualityList(expr)) {
    EvaluateHashedEqualityList(expr, input, count, result);
    return;
  }
  // Three-valued logic: AND is FALSE if any child is FALSE, else NULL if any is NULL, else TRUE.
  // A child that may fail runs only on the rows still undecided, so `x <> 0 AND 10 / x > 1`
  // never divides by zero; children that cannot fail run on every row (no gathering) while
  // most rows are undecided, and on the undecided ones alone once few are left (q41's OR of
  // eight ANDs of string tests over item: most rows are decided by the first test).
  const bool is_and = expr.is_and;
  // A row keeps the neutral value (TRUE for AND, FALSE for OR) until some child decides it.
  const uint8_t neutral = is_and ? 1 : 0;
  const idx_t n = count;  // a local copy: stores through `out` may alias the captured count
  uint8_t* out = result.data<uint8_t>();
  std::memset(out, neutral, n);
  // Rows some child left NULL; allocated at the first NULL (most batches have none).
  std::vector<uint8_t> unknown;
  Vector child_result(LogicalType::Boolean(), std::max<idx_t>(n, 1));
  // Folds a child computed on every row. Branch-free: a branch per row mispredicts on filters
  // keeping a fraction of the rows (these loops were a fifth of q48's time).
  auto apply_all = [&]() {
    const uint8_t* c = child_result.data<uint8_t>();
    const ValidityMask& validity = child_result.validity();
    if (!validity.AllValid()) {
      if (unknown.empty()) unknown.assign(n, 0);
      for (idx_t i = 0; i < n; i++) {
        const uint8_t valid = validity.IsValid(i);
        unknown[i] |= static_cast<uint8_t>(!valid);
        // A NULL child leaves the row as it was (c[i] of a NULL row is never read as decided).
        if (is_and) {
          out[i] &= static_cast<uint8_t>((c[i] == 1) | !valid);
        } else {
          out[i] |= static_cast<uint8_t>((c[i] != 0) & valid);
        }
      }
    } else if (is_and) {
      for (idx_t i = 0; i < n; i++)
        out[i] &= static_cast<uint8_t>(c[i] == 1);
    } else {
      for (idx_t i = 0; i < n; i++)
        out[i] |= static_cast<uint8_t>(c[i] != 0);
    }
  };
  if (equality_list) {
    // x is computed once (on every row, as the first disjunct would be), then compared with
    // each constant: a 400-value IN over substring(zip, 1, 5) ran substring 400 times.
    const auto& first = static_cast<const BoundFunction&>(*expr.children[0]);
    std::vector<Vector> args;
    args.emplace_back(first.args[0]->type, std::max<idx_t>(n, 1));
    Evaluate(*first.args[0], input, n, args[0]);
    args.emplace_back(first.args[1]->type, std::max<idx_t>(n, 1));
    for (const auto& child : expr.children) {
      const auto& eq = static_cast<const BoundFunction&>(*child);
      child_result.Reset();
      args[1].Reset();
      FillConstant(static_cast<const BoundConstant&>(*eq.args[1]).value, n, args[1]);
      CallFunction(eq, args, n, child_result);
      apply_all();
    }
  } else {
    std::vector<uint32_t> rows;
    idx_t undecided = n;
    for (const auto& child : expr.children) {
      child_result.Reset();
      if (CannotFail(*child) && undecided > n / 4) {
        Evaluate(*child, input, n, child_result);
        apply_all();
        undecided = 0;
        for (idx_t i = 0; i < n; i++)
          undecided += out[i] == neutral;
        if (undecided == 0) break;
        continue;
      }
      // The undecided rows, listed without a branch per row.
      rows.resize(n);
      idx_t listed = 0;
      for (idx_t i = 0; i < n; i++) {
        rows[listed] = static_cast<uint32_t>(i);
        listed += out[i] == neutral;
      }
      rows.resize(listed);
      undecided = listed;
      if (rows.empty()) break;
      EvaluateOnRows(*child, input, n, rows, child_result);
      const uint8_t* c = child_result.data<uint8_t>();
      const ValidityMask& validity = child_result.validity();
      for (size_t j = 0; j < rows.size(); j++) {
        if (!validity.IsValid(j)) {
          if (unknown.empty()) unknown.assign(n, 0);
          unknown[rows[j]] = 1;
        } else if (c[j] != neutral) {
          out[rows[j]] = !neutral;
        }
      }
    }
  }
  if (unknown.empty()) return;
  for (idx_t i = 0; i < n; i++) {
    // The result is decided unless it still has its neutral value and some child was NULL.
    if (out[i] == neutral && unknown[i]) result.validity().SetNull(i);
  }
}

// coalesce(a, b, ...): each argument runs only on the rows all earlier ones left NULL, so
// `coalesce(x, 1 / 0)` fails only where x is NULL (arguments share the result type).
void EvaluateCoalesce(const BoundFunction& expr, const Batch& input, idx_t count, Vector& result) {
  std::vector<uint32_t> rows(count);
  for (idx_t i = 0; i < count; i++)
    rows[i] = static_cast<uint32_t>(i);
  const size_t width = result.type().value_size();
  std::vector<uint32_t> rest;
  for (const auto& arg : expr.args) {
    if (rows.empty()) break;
    Vector values(arg->type, std::max<idx_t>(rows.size(), 1));
    EvaluateOnRows(*arg, input, count, rows, values);
    rest.clear();
    if (rows.size() == count) {
      // Every row (the first argument): one block copy, then the NULL rows go on.
      std::memcpy(result.raw_data(), values.data<uint8_t>(), count * width);
      if (!values.validity().AllValid()) {
        for (idx_t i = 0; i < count; i++) {
          if (!values.validity().IsValid(i)) rest.push_back(static_cast<uint32_t>(i));
        }
      }
      if (result.type().IsString()) result.ShareStringBuffers(values);
      rows.swap(rest);
      continue;
    }
    for (size_t j = 0; j < rows.size(); j++) {
      if (values.validity().IsValid(j)) {
        std::memcpy(result.raw_data() + rows[j] * width, values.data<uint8_t>() + j * width, width);
      } else {
        rest.push_back(rows[j]);
      }
    }
    if (result.type().IsString()) result.ShareStringBuffers(values);
    rows.swap(rest);
  }
  for (uint32_t row : rows)
    result.validity().SetNull(row);
}

// Calls a NULL-propagating function only on the rows where every argument is valid, so a
// kernel never sees (and never fails on) the garbage a NULL slot holds.
void CallFunction(const BoundFunction& expr, std::vector<Vector>& args, idx_t count,
                  Vector& result) {
  std::vector<const Vector*> arg_ptrs;
  for (auto& a : args)
    arg_ptrs.push_back(&a);
  const auto& fn = expr.function;
  bool all_valid = true;
  for (auto& a : args)
    all_valid = all_valid && a.validity().AllValid();
  if (!fn.null_propagating || all_valid || fn.skips_null_rows) {
    fn.kernel(arg_ptrs, count, result);
    return;
  }
  std::vector<uint32_t> rows;
  rows.reserve(count);
  for (idx_t i = 0; i < count; i++) {
    bool valid = true;
    for (auto& a : args)
      valid = valid && a.validity().IsValid(i);
    if (valid) {
      rows.push_back(static_cast<uint32_t>(i));
    } else {
      result.validity().SetNull(i);
    }
  }
  if (rows.empty()) return;
  std::vector<Vector> dense;
  std::vector<const Vector*> dense_ptrs;
  dense.reserve(args.size());
  for (auto& a : args) {
    dense.emplace_back(a.type(), std::max<idx_t>(rows.size(), 1));
    dense.back().CopyRows(a, rows.data(), rows.size());
  }
  for (auto& d : dense)
    dense_ptrs.push_back(&d);
  Vector dense_result(result.type(), std::max<idx_t>(rows.size(), 1));
  fn.kernel(dense_ptrs, rows.size(), dense_result);
  // Scatter back.
  CopyValues(
      result.type().value_size(), rows.size(), result.raw_data(), [&](idx_t j) { return rows[j]; },
      dense_result.raw_data(), Same);
  for (size_t j = 0; j < rows.size(); j++) {
    if (!dense_result.validity().IsValid(j)) result.validity().SetNull(rows[j]);
  }
  if (result.type().IsString()) result.ShareStringBuffers(dense_result);
}

void EvaluateCase(const BoundCase& expr, const Batch& input, idx_t count, Vector& result) {
  // Each branch is evaluated only on the rows that reach it, so `CASE WHEN x = 0 THEN 0 ELSE
  // 1 / x END` never divides by zero.
  std::vector<uint32_t> remaining(count);
  for (idx_t i = 0; i < count; i++)
    remaining[i] = static_cast<uint32_t>(i);
  auto evaluate_on = [&](const BoundExpr& branch, const std::vector<uint32_t>& rows) {
    if (branch.kind == BoundExprKind::kConstant) {
      // THEN 'literal': one value written to the rows, nothing evaluated or gathered.
      Vector one(result.type(), 1);
      FillConstant(static_cast<const BoundConstant&>(branch).value, 1, one);
      if (one.IsNull(0)) {
        result.validity().SetNull(rows.data(), rows.size());
        return;
      }
      CopyValues(
          result.type().value_size(), rows.size(), result.raw_data(),
          [&](idx_t j) { return rows[j]; }, one.raw_data(), First);
      if (result.type().IsString()) result.ShareStringBuffers(one);
      return;
    }
    if (branch.kind == BoundExprKind::kReference ||
        (rows.size() > count / 4 && CannotFail(branch))) {
      // Evaluated on the whole batch, then its values for `rows` copied across: no gathering
      // into a batch of their own and scattering back, and a column costs nothing to evaluate
      // (q02 and q59 sum seven `CASE WHEN d_day_name = '...' THEN price END` a row).
      Vector computed;
      if (branch.kind != BoundExprKind::kReference) {
        computed = Vector(result.type(), std::max<idx_t>(count, 1));
        Evaluate(branch, input, count, computed);
      }
      const Vector& values = branch.kind == BoundExprKind::kReference
                                 ? input.column(static_cast<const BoundReference&>(branch).index)
                                 : computed;
      auto at = [&](idx_t j) { return rows[j]; };
      CopyValues(result.type().value_size(), rows.size(), result.raw_data(), at,
                 values.data<uint8_t>(), at);
      if (!values.validity().AllValid()) {
        for (uint32_t r : rows) {
          if (!values.validity().IsValid(r)) result.validity().SetNull(r);
        }
      }
      if (result.type().IsString()) result.ShareStringBuffers(values);
      return;
    }
    Vector values(result.type(), std::max<idx_t>(rows.size(), 1));
    EvaluateOnRows(branch, input, count, rows, values);
    ScatterRows(values, rows, result);
  };
  std::vector<uint32_t> matched, rest;
  for (const auto& [when, then] : expr.when_then) {
    if (remaining.empty()) break;
    const idx_t size = remaining.size();
    matched.resize(size);
    rest.resize(size);
    idx_t matched_count = 0, rest_count = 0;
    if (IsConstantComparison(*when)) {
      // `column OP constant` (q59's seven `d_day_name = 'Sunday'` a row): the rows split
      // straight from the column, with no boolean vector and no vector of the constant
      // filled per batch.
      matched_count =
          SplitConstantComparison(*when, input, size == count ? nullptr : remaining.data(), size,
                                  matched.data(), rest.data());
      rest_count = size - matched_count;
    } else {
      Vector condition(LogicalType::Boolean(), std::max<idx_t>(size, 1));
      EvaluateOnRows(*when, input, count, remaining, condition);
      // Split without branches: each row is written to both lists, and counts in one.
      const uint8_t* values = condition.data<uint8_t>();
      const auto& validity = condition.validity();
      for (size_t j = 0; j < size; j++) {
        const bool hit = values[j] != 0 && validity.IsValid(j);
        matched[matched_count] = remaining[j];
        rest[rest_count] = remaining[j];
        matched_count += hit;
        rest_count += !hit;
      }
    }
    matched.resize(matched_count);
    rest.resize(rest_count);
    if (!matched.empty()) evaluate_on(*then, matched);
    remaining.swap(rest);
  }
  if (!remaining.empty()) evaluate_on(*expr.else_expr, remaining);
}

void Evaluate(const BoundExpr& expr, const Batch& input, idx_t count, Vector& result) {
  switch (expr.kind) {
    case BoundExprKind::kReference: {
      const auto& ref = static_cast<const BoundReference&>(expr);
      result.Reference(input.column(ref.index));
      return;
    }
    case BoundExprKind::kConstant:
      FillConstant(static_cast<const BoundConstant&>(expr).value, count, result);
      return;
    case BoundExprKind::kFunction: {
      const auto& fn = static_cast<const BoundFunction&>(expr);
      if (fn.function.name == "coalesce") {
        EvaluateCoalesce(fn, input, count, result);
        return;
      }
      // `column OP constant`: no vector of the constant per batch, no generic kernel.
      if (count > 0 && IsConstantComparison(fn)) {
        EvaluateConstantComparison(fn, input, count, result);
        return;
      }
      std::vector<Vector> args;
      args.reserve(fn.args.size());
      for (const auto& arg : fn.args) {
        args.emplace_back(arg->type, std::max<idx_t>(count, 1));
        Evaluate(*arg, input, count, args.back());
      }
      CallFunction(fn, args, count, result);
      return;
    }
    case BoundExprKind::kCast: {
      const auto& cast = static_cast<const BoundCast&>(expr);
      Vector child(cast.child->type, std::max<idx_t>(count, 1));
      Evaluate(*cast.child, input, count, child);
      CastVector(child, result, count, cast.try_cast);
      return;
    }
    case BoundExprKind::kConjunction:
      EvaluateConjunction(static_cast<const BoundConjunction&>(expr), input, count, result);
      return;
    case BoundExprKind::kNot: {
      const auto& n = static_cast<const BoundNot&>(expr);
      Vector child(LogicalType::Boolean(), std::max<idx_t>(count, 1));
      Evaluate(*n.child, input, count, child);
      for (idx_t i = 0; i < count; i++) {
        result.data<uint8_t>()[i] = !child.data<uint8_t>()[i];
        if (!child.validity().IsValid(i)) result.validity().SetNull(i);
      }
      return;
    }
    case BoundExprKind::kIsNull: {
      const auto& is_null = static_cast<const BoundIsNull&>(expr);
      Vector child(is_null.child->type, std::max<idx_t>(count, 1));
      Evaluate(*is_null.child, input, count, child);
      for (idx_t i = 0; i < count; i++) {
        result.data<uint8_t>()[i] = child.validity().IsValid(i) == is_null.negated;
      }
      return;
    }
    case BoundExprKind::kCase:
      EvaluateCase(static_cast<const BoundCase&>(expr), input, count, result);
      return;
    case BoundExprKind::kInList:
    case BoundExprKind::kColumnRef:
    case BoundExprKind::kAggregate:
    case BoundExprKind::kSubquery:
    case BoundExprKind::kWindow:
    case BoundExprKind::kRuntimeFilter:  // the scan applies it (storage/scan_filter.h)
      break;
  }
  throw InternalError("cannot execute expression {} here", expr.ToString());
}

}  // namespace

void ExpressionExecutor::Execute(const BoundExpr& expr, const Batch& input, Vector& result) {
  result.Reset();
  if (result.capacity() < input.size()) result.Reserve(input.size());
  Evaluate(expr, input, input.size(), result);
}

idx_t ExpressionExecutor::Select(const BoundExpr& predicate, const Batch& input,
                                 SelectionVector& sel) {
  if (sel.capacity() < input.size()) sel = SelectionVector(input.size());
  // `column OP constant` selects in one typed pass: no boolean vector, no vector of the constant.
  if (input.size() > 0 && IsConstantComparison(predicate)) {
    return SelectConstantComparison(predicate, input, input.size(), sel.data());
  }
  Vector result(LogicalType::Boolean(), std::max<idx_t>(input.size(), 1));
  Evaluate(predicate, input, input.size(), result);
  if (sel.capacity() < input.size()) sel = SelectionVector(input.size());
  // Branch-free: a filter keeping a fraction of the rows mispredicts a branch per row (a quarter
  // of a filtered scan's time went to this loop).
  idx_t selected = 0;
  const uint8_t* values = result.data<uint8_t>();
  const auto& validity = result.validity();
  uint32_t* out = sel.data();
  const idx_t n = input.size();
  if (validity.AllValid()) {
    for (idx_t i = 0; i < n; i++) {
      out[selected] = static_cast<uint32_t>(i);
      selected += values[i] != 0;
    }
  } else {
    for (idx_t i = 0; i < n; i++) {
      out[selected] = static_cast<uint32_t>(i);
      selected += static_cast<idx_t>(values[i] != 0) & static_cast<idx_t>(validity.IsValid(i));
    }
  }
  return selected;
}

Value ExpressionExecutor::EvaluateConstant(const BoundExpr& expr) {
  Batch empty;
  empty.SetSize(1);
  Vector result(expr.type, 1);
  Evaluate(expr, empty, 1, result);
  return ReadValue(result, 0);
}

bool CannotFail(const BoundExpr& expr) {
  switch (expr.kind) {
    case BoundExprKind::kReference:
    case BoundExprKind::kConstant:
      return true;
    case BoundExprKind::kFunction: {
      const auto& fn = static_cast<const BoundFunction&>(expr);
      const std::string& name = fn.function.name;
      const bool comparison = name == "=" || name == "<>" || name == "!=" || name == "<" ||
                              name == "<=" || name == ">" || name == ">=" || name == "coalesce";
      // A pattern or escape that is not a constant may be malformed on some row only.
      const bool like = name == "like" || name == "not_like" || name == "ilike";
      if (!comparison && !like) return false;
      for (size_t i = 0; i < fn.args.size(); i++) {
        if (like && i > 0 && fn.args[i]->kind != BoundExprKind::kConstant) return false;
        if (!CannotFail(*fn.args[i])) return false;
      }
      return true;
    }
    case BoundExprKind::kConjunction:
    case BoundExprKind::kNot:
    case BoundExprKind::kIsNull:
    case BoundExprKind::kCase:
    case BoundExprKind::kInList: {
      bool safe = true;
      for (BoundExprPtr* child : const_cast<BoundExpr&>(expr).Children())
        safe = safe && CannotFail(**child);
      return safe;
    }
    default:
      return false;
  }
}

std::vector<idx_t> ReferencedColumns(const std::vector<const BoundExpr*>& exprs) {
  std::vector<idx_t> out;
  for (const BoundExpr* expr : exprs) {
    VisitExpression(const_cast<BoundExpr&>(*expr), [&](BoundExpr& e) {
      if (e.kind == BoundExprKind::kReference) out.push_back(static_cast<BoundReference&>(e).index);
    });
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace shears

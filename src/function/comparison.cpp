// Comparison operators = <> < <= > >= and IS [NOT] DISTINCT FROM for every type.
//
// Both sides are first cast to their common type (so DECIMALs of different scales and
// INTEGER vs DOUBLE compare numerically). Strings compare bytewise, which for UTF-8 is code
// point order. DOUBLE follows PostgreSQL: NaN equals NaN and sorts above every number.

#include <bit>

#include "function/comparison_ops.h"
#include "function/function_internal.h"

namespace shears {
namespace function_internal {
namespace {

using compare_ops::Equal;
using compare_ops::Greater;
using compare_ops::GreaterEqual;
using compare_ops::Less;
using compare_ops::LessEqual;
using compare_ops::NotEqual;

template <typename T, typename Op>
void CompareLoop(const std::vector<const Vector*>& args, idx_t count, Vector& result) {
  const Vector& a = *args[0];
  const Vector& b = *args[1];
  if constexpr (!std::is_same_v<T, StringRef>) {
    // A column with NULLs (most TPC-DS keys have some): compare every row branch-free (a
    // number under a NULL is some number, harmless to compare), then mark the NULL rows from
    // the masks' words, instead of a validity branch per row.
    if (!a.validity().AllValid() || !b.validity().AllValid()) {
      const T* left = a.data<T>();
      const T* right = b.data<T>();
      uint8_t* out = result.data<uint8_t>();
      for (idx_t i = 0; i < count; i++)
        out[i] = Op::Apply(left[i], right[i]);
      const uint64_t* a_bits = a.validity().AllValid() ? nullptr : a.validity().data();
      const uint64_t* b_bits = b.validity().AllValid() ? nullptr : b.validity().data();
      for (idx_t w = 0; w * 64 < count; w++) {
        uint64_t valid = (a_bits ? a_bits[w] : ~uint64_t{0}) & (b_bits ? b_bits[w] : ~uint64_t{0});
        const idx_t rows = std::min<idx_t>(64, count - w * 64);
        if (rows < 64) valid |= ~uint64_t{0} << rows;  // rows past count stay as they are
        for (uint64_t nulls = ~valid; nulls != 0; nulls &= nulls - 1)
          result.validity().SetNull(w * 64 + static_cast<idx_t>(std::countr_zero(nulls)));
      }
      return;
    }
  }
  BinaryLoop<T, T, uint8_t>(a, b, count, result,
                            [](T l, T r) -> uint8_t { return Op::Apply(l, r); });
}

/// IS DISTINCT FROM (negate = false) / IS NOT DISTINCT FROM: NULLs are ordinary values that
/// equal each other; the result is never NULL.
template <typename T, bool kNotDistinct>
void DistinctLoop(const std::vector<const Vector*>& args, idx_t count, Vector& result) {
  const Vector& a = *args[0];
  const Vector& b = *args[1];
  const T* left = a.data<T>();
  const T* right = b.data<T>();
  uint8_t* out = result.data<uint8_t>();
  const bool all_valid = a.validity().AllValid() && b.validity().AllValid();
  for (idx_t i = 0; i < count; i++) {
    bool same;
    if (all_valid) {
      same = Equal::Apply(left[i], right[i]);
    } else {
      const bool l_valid = a.validity().IsValid(i), r_valid = b.validity().IsValid(i);
      same = (l_valid && r_valid) ? Equal::Apply(left[i], right[i]) : l_valid == r_valid;
    }
    out[i] = same == kNotDistinct;
  }
}

using KernelFunction = void (*)(const std::vector<const Vector*>&, idx_t, Vector&);

template <template <typename> class Make>
KernelFunction ForPhysical(PhysicalType physical) {
  switch (physical) {
    case PhysicalType::kBool:
      return Make<uint8_t>::kFunction;
    case PhysicalType::kInt32:
      return Make<int32_t>::kFunction;
    case PhysicalType::kInt64:
      return Make<int64_t>::kFunction;
    case PhysicalType::kInt128:
      return Make<int128_t>::kFunction;
    case PhysicalType::kDouble:
      return Make<double>::kFunction;
    case PhysicalType::kString:
      return Make<StringRef>::kFunction;
    case PhysicalType::kInvalid:
      break;
  }
  throw InternalError("comparison of invalid physical type");
}

template <typename Op>
struct CompareMaker {
  template <typename T>
  struct Make {
    static constexpr KernelFunction kFunction = CompareLoop<T, Op>;
  };
};
template <bool kNotDistinct>
struct DistinctMaker {
  template <typename T>
  struct Make {
    static constexpr KernelFunction kFunction = DistinctLoop<T, kNotDistinct>;
  };
};

/// Both arguments go to their common type; a NULL literal takes the other side's type.
std::optional<LogicalType> ComparisonType(const std::vector<LogicalType>& args) {
  if (args.size() != 2) return std::nullopt;
  std::optional<LogicalType> common = CommonType(args[0], args[1]);
  if (common && !common->valid()) return LogicalType::Varchar();  // NULL = NULL
  return common;
}

template <typename Op>
void RegisterComparison(FunctionRegistry& registry, const std::string& name) {
  registry.Register(
      name,
      [](const std::vector<LogicalType>& args) -> std::optional<BoundScalarFunction> {
        std::optional<LogicalType> type = ComparisonType(args);
        if (!type) return std::nullopt;
        BoundScalarFunction bound =
            MakeBound({*type, *type}, LogicalType::Boolean(),
                      ForPhysical<CompareMaker<Op>::template Make>(type->physical()));
        bound.skips_null_rows = true;  // CompareLoop is a BinaryLoop
        return bound;
      },
      name + "(T, T)");
}

template <bool kNotDistinct>
void RegisterDistinct(FunctionRegistry& registry, const std::string& name) {
  registry.Register(
      name,
      [](const std::vector<LogicalType>& args) -> std::optional<BoundScalarFunction> {
        std::optional<LogicalType> type = ComparisonType(args);
        if (!type) return std::nullopt;
        return MakeBound({*type, *type}, LogicalType::Boolean(),
                         ForPhysical<DistinctMaker<kNotDistinct>::template Make>(type->physical()),
                         /*null_propagating=*/false);
      },
      name + "(T, T)");
}

}  // namespace

void RegisterComparisonFunctions(FunctionRegistry& registry) {
  RegisterComparison<Equal>(registry, "=");
  RegisterComparison<NotEqual>(registry, "<>");
  RegisterComparison<NotEqual>(registry, "!=");
  RegisterComparison<Less>(registry, "<");
  RegisterComparison<LessEqual>(registry, "<=");
  RegisterComparison<Greater>(registry, ">");
  RegisterComparison<GreaterEqual>(registry, ">=");
  RegisterDistinct<false>(registry, "is_distinct_from");
  RegisterDistinct<true>(registry, "is_not_distinct_from");
  // The names the parser gives the SQL operators.
  RegisterDistinct<false>(registry, "IS DISTINCT FROM");
  RegisterDistinct<true>(registry, "IS NOT DISTINCT FROM");
}

}  // namespace function_internal
}  // namespace shears

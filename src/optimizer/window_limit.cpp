// window_limit: a filter keeping the first rows of each window partition by a ranking
// function tells the window operator it may drop the others (top-N per group).
//
//   FILTER (rn <= 3)                      FILTER (rn <= 3)
//     WINDOW row_number() OVER (...) ==>    WINDOW row_number() OVER (...) limit rn <= 3
//
// Legal when the filter sits right above the window and one of its conjuncts is
// `w <= c`, `w < c` or `w = c` (either way round, c an integer constant) with w a
// row_number(), rank() or dense_rank() the window computes: a row whose w exceeds the limit
// cannot pass that conjunct. The filter stays, so the answer never depends on the operator
// dropping rows; PhysicalWindow drops them before they are emitted and, when the window
// computes nothing but ranking functions, never sorts them (see physical_window.h). Runs after
// filter_pushdown, which leaves the filters on window results right above their window.

#include <algorithm>
#include <optional>

#include "optimizer/optimizer.h"

namespace shears {

namespace {

bool IsRankingFunction(WindowFunction f) {
  return f == WindowFunction::kRowNumber || f == WindowFunction::kRank ||
         f == WindowFunction::kDenseRank;
}

// The integer a constant (or a cast of one) holds, if it is an INTEGER or BIGINT.
std::optional<int64_t> IntegerConstant(const BoundExpr& expr) {
  const BoundExpr* inner = &expr;
  if (inner->kind == BoundExprKind::kCast) inner = static_cast<const BoundCast&>(expr).child.get();
  if (inner->kind != BoundExprKind::kConstant) return std::nullopt;
  const Value& value = static_cast<const BoundConstant&>(*inner).value;
  if (value.is_null()) return std::nullopt;
  const TypeId id = value.type().id();
  if (id != TypeId::kInteger && id != TypeId::kBigint) return std::nullopt;
  // A cast around the constant: only a widening one (to BIGINT) keeps the value.
  if (inner != &expr && expr.type.id() != TypeId::kBigint) return std::nullopt;
  return value.GetInt64();
}

// The limit `condition` puts on window column `column` of `window`: the largest value a row
// passing it may have. None when it is not such a condition.
std::optional<int64_t> LimitOf(const BoundExpr& condition, const LogicalWindow& window,
                               size_t* column) {
  if (condition.kind != BoundExprKind::kFunction) return std::nullopt;
  const auto& function = static_cast<const BoundFunction&>(condition);
  if (function.args.size() != 2) return std::nullopt;
  const std::string& name = function.function.name;
  for (size_t side = 0; side < 2; side++) {
    const BoundExpr& ref = *function.args[side];
    if (ref.kind != BoundExprKind::kColumnRef) continue;
    const ColumnBinding& binding = static_cast<const BoundColumnRef&>(ref).binding;
    if (binding.table_index != window.window_index || binding.column_index >= window.windows.size())
      continue;
    const auto& win = static_cast<const BoundWindow&>(*window.windows[binding.column_index]);
    if (!IsRankingFunction(win.function)) continue;
    const auto constant = IntegerConstant(*function.args[1 - side]);
    if (!constant) continue;
    // Written as `w op c` (side 0) or `c op w` (side 1).
    const bool upper_le = (side == 0 && name == "<=") || (side == 1 && name == ">=");
    const bool upper_lt = (side == 0 && name == "<") || (side == 1 && name == ">");
    std::optional<int64_t> limit;
    if (upper_le || name == "=") limit = *constant;
    if (upper_lt) limit = *constant == INT64_MIN ? *constant : *constant - 1;
    if (!limit) continue;
    *column = binding.column_index;
    return std::max<int64_t>(*limit, 0);
  }
  return std::nullopt;
}

void Visit(LogicalOperator& op) {
  for (auto& child : op.children)
    Visit(*child);
  if (op.type != LogicalOperatorType::kFilter ||
      op.children[0]->type != LogicalOperatorType::kWindow) {
    return;
  }
  auto& window = static_cast<LogicalWindow&>(*op.children[0]);
  for (const auto& condition : static_cast<LogicalFilter&>(op).conditions) {
    size_t column = 0;
    const auto limit = LimitOf(*condition, window, &column);
    if (!limit) continue;
    // Of several limits the tightest; rows beyond any of them are dropped by the filter.
    if (window.row_limit < 0 || *limit < window.row_limit) {
      window.row_limit = *limit;
      window.limit_window = column;
    }
  }
}

}  // namespace

void LimitWindows(LogicalOperatorPtr& plan, const Settings&) {
  Visit(*plan);
}

}  // namespace shears

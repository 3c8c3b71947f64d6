// TraceToScan: follows a join key down to the scan column it comes from (see optimizer.h).

#include "optimizer/optimizer.h"

namespace shears {

TracedColumn TraceToScan(LogicalOperator& op, const ColumnBinding& binding) {
  switch (op.type) {
    case LogicalOperatorType::kGet: {
      auto& get = static_cast<LogicalGet&>(op);
      if (get.table_index == binding.table_index)
        return {&get, static_cast<int>(binding.column_index)};  // bindings are dataset ids
      return {};
    }
    case LogicalOperatorType::kFilter:
    case LogicalOperatorType::kOrderBy:
      return TraceToScan(*op.children[0], binding);
    case LogicalOperatorType::kProjection: {
      auto& projection = static_cast<LogicalProjection&>(op);
      if (projection.table_index != binding.table_index) return {};
      const auto& expr = projection.expressions[binding.column_index];
      if (expr->kind != BoundExprKind::kColumnRef) return {};
      return TraceToScan(*op.children[0], static_cast<BoundColumnRef&>(*expr).binding);
    }
    case LogicalOperatorType::kAggregate: {
      auto& agg = static_cast<LogicalAggregate&>(op);
      if (agg.group_index != binding.table_index) return {};
      const auto& expr = agg.groups[binding.column_index];
      if (expr->kind != BoundExprKind::kColumnRef) return {};
      return TraceToScan(*op.children[0], static_cast<BoundColumnRef&>(*expr).binding);
    }
    case LogicalOperatorType::kJoin: {
      auto& join = static_cast<LogicalJoin&>(op);
      TracedColumn left = TraceToScan(*op.children[0], binding);
      if (left.get) {
        // The left side's rows survive unchanged (or are dropped) in every join kind except
        // RIGHT and FULL, where they may be NULL-extended.
        if (join.join_kind == JoinKind::kRight || join.join_kind == JoinKind::kFull) return {};
        return left;
      }
      if (join.join_kind == JoinKind::kInner || join.join_kind == JoinKind::kCross) {
        return TraceToScan(*op.children[1], binding);
      }
      return {};
    }
    default:
      return {};
  }
}

}  // namespace shears

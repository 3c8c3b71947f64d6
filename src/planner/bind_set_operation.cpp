// Binding of UNION, INTERSECT and EXCEPT (ALL or DISTINCT).

#include "planner/binder.h"

#include <algorithm>
#include <cctype>
#include <deque>
#include <set>

#include "common/error.h"
#include "common/string_util.h"
#include "function/function.h"
#include "function/regex_match.h"
#include "parser/ast_visit.h"
#include "parser/parser.h"
#include "planner/bind_context.h"
#include "planner/dependent_join.h"
namespace shears {

namespace {

// Whether column `i` of a bound query is the NULL literal (typed INTEGER by the select list).
bool IsNullColumn(const LogicalOperator& op, size_t i) {
  switch (op.type) {
    case LogicalOperatorType::kOrderBy:
    case LogicalOperatorType::kLimit:
      return IsNullColumn(*op.children[0], i);
    case LogicalOperatorType::kSetOperation:
      return IsNullColumn(*op.children[0], i) && IsNullColumn(*op.children[1], i);
    case LogicalOperatorType::kProjection: {
      const auto& expr = *static_cast<const LogicalProjection&>(op).expressions[i];
      return expr.kind == BoundExprKind::kConstant &&
             static_cast<const BoundConstant&>(expr).value.is_null();
    }
    default:
      return false;
  }
}

}  // namespace

BoundQuery Binder::BindSetOperation(const ast::SetOperationNode& node, Scope* outer) {
  BoundQuery left = BindQueryNode(*node.left, outer);
  BoundQuery right = BindQueryNode(*node.right, outer);
  if (left.types.size() != right.types.size()) {
    throw BinderError(
        "each side of a set operation must have the same number of columns ({} vs {})",
        left.types.size(), right.types.size());
  }
  std::vector<LogicalType> types;
  for (size_t i = 0; i < left.types.size(); i++) {
    // A column that is the NULL literal on one side (`NULL AS s_state`) takes the other side's
    // type, as in DuckDB and PostgreSQL.
    const bool left_null = IsNullColumn(*left.plan, i);
    const bool right_null = IsNullColumn(*right.plan, i);
    if (left_null != right_null) {
      types.push_back(left_null ? right.types[i] : left.types[i]);
      continue;
    }
    auto common = CommonType(left.types[i], right.types[i]);
    if (!common) {
      throw BinderError("column {} of the set operation has incompatible types {} and {}", i + 1,
                        left.types[i].ToString(), right.types[i].ToString());
    }
    types.push_back(*common);
  }
  auto cast_side = [&](BoundQuery& side) {
    if (side.types == types) return std::move(side.plan);
    auto projection = std::make_unique<LogicalProjection>();
    projection->table_index = NewTableIndex();
    auto b = side.plan->GetColumnBindings();
    for (size_t i = 0; i < types.size(); i++) {
      projection->expressions.push_back(
          CastTo(std::make_unique<BoundColumnRef>(side.types[i], b[i], side.names[i]), types[i]));
    }
    projection->children.push_back(std::move(side.plan));
    return LogicalOperatorPtr(std::move(projection));
  };
  auto op = std::make_unique<LogicalSetOperation>();
  op->table_index = NewTableIndex();
  op->kind = node.op == ast::SetOperationType::kUnion       ? SetOperationKind::kUnion
             : node.op == ast::SetOperationType::kIntersect ? SetOperationKind::kIntersect
                                                            : SetOperationKind::kExcept;
  op->all = node.all;
  op->types = types;
  op->children.push_back(cast_side(left));
  op->children.push_back(cast_side(right));
  BoundQuery result;
  result.names = left.names;
  result.types = types;
  result.plan = std::move(op);
  return result;
}

}  // namespace shears

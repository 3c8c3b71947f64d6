// Binding of UNION, INTERSECT and EXCEPT (ALL or DISTINCT).

#include "planner/binder.h"

#include <algorithm>
#include <cctype>
#include <deque>
#include <optional>
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
  // Per output column, the input column of each side (nullopt: none, NULL there) and whether
  // that column is the NULL literal.
  std::vector<std::optional<size_t>> left_cols, right_cols;
  std::vector<bool> left_nulls, right_nulls;
  std::vector<std::string> names;
  if (node.by_name) {
    // DuckDB's order: the left's names, then the right's names the left lacks.
    auto check_unique = [](const BoundQuery& side) {
      std::set<std::string> seen;
      for (const auto& name : side.names) {
        if (!seen.insert(AsciiLower(name)).second) {
          throw BinderError(
              "UNION BY NAME needs distinct column names on each side; \"{}\" occurs more than "
              "once",
              name);
        }
      }
    };
    check_unique(left);
    check_unique(right);
    auto find = [](const BoundQuery& side, const std::string& name) -> std::optional<size_t> {
      for (size_t i = 0; i < side.names.size(); i++) {
        if (EqualsAsciiLower(side.names[i], AsciiLower(name))) return i;
      }
      return std::nullopt;
    };
    for (size_t i = 0; i < left.names.size(); i++) {
      names.push_back(left.names[i]);
      left_cols.push_back(i);
      right_cols.push_back(find(right, left.names[i]));
    }
    for (size_t i = 0; i < right.names.size(); i++) {
      if (find(left, right.names[i])) continue;
      names.push_back(right.names[i]);
      left_cols.push_back(std::nullopt);
      right_cols.push_back(i);
    }
  } else {
    if (left.types.size() != right.types.size()) {
      throw BinderError(
          "each side of a set operation must have the same number of columns ({} vs {})",
          left.types.size(), right.types.size());
    }
    names = left.names;
    for (size_t i = 0; i < left.types.size(); i++) {
      left_cols.push_back(i);
      right_cols.push_back(i);
    }
  }
  for (size_t i = 0; i < names.size(); i++) {
    left_nulls.push_back(!left_cols[i] || IsNullColumn(*left.plan, *left_cols[i]));
    right_nulls.push_back(!right_cols[i] || IsNullColumn(*right.plan, *right_cols[i]));
  }
  std::vector<LogicalType> types;
  for (size_t i = 0; i < names.size(); i++) {
    // A column that is the NULL literal (or missing, BY NAME) on one side takes the other
    // side's type, as in DuckDB and PostgreSQL.
    if (!left_cols[i] || !right_cols[i]) {
      types.push_back(left_cols[i] ? left.types[*left_cols[i]] : right.types[*right_cols[i]]);
      continue;
    }
    const LogicalType& left_type = left.types[*left_cols[i]];
    const LogicalType& right_type = right.types[*right_cols[i]];
    if (left_nulls[i] != right_nulls[i]) {
      types.push_back(left_nulls[i] ? right_type : left_type);
      continue;
    }
    auto common = CommonType(left_type, right_type);
    if (!common) {
      if (node.by_name) {
        throw BinderError("column \"{}\" of UNION BY NAME has incompatible types {} and {}",
                          names[i], left_type.ToString(), right_type.ToString());
      }
      throw BinderError("column {} of the set operation has incompatible types {} and {}", i + 1,
                        left_type.ToString(), right_type.ToString());
    }
    types.push_back(*common);
  }
  auto cast_side = [&](BoundQuery& side, const std::vector<std::optional<size_t>>& cols,
                       const std::vector<bool>& nulls) {
    bool identity = side.types.size() == types.size();
    for (size_t i = 0; identity && i < types.size(); i++) {
      identity = cols[i] == i && side.types[i] == types[i];
    }
    if (identity) return std::move(side.plan);
    auto projection = std::make_unique<LogicalProjection>();
    projection->table_index = NewTableIndex();
    auto b = side.plan->GetColumnBindings();
    for (size_t i = 0; i < types.size(); i++) {
      // A NULL literal column is typed INTEGER; no cast from INTEGER need exist to the
      // output type (DATE, a LIST), so it becomes a NULL of that type.
      if (!cols[i] || nulls[i]) {
        projection->expressions.push_back(std::make_unique<BoundConstant>(Value::Null(types[i])));
        continue;
      }
      const size_t col = *cols[i];
      projection->expressions.push_back(CastTo(
          std::make_unique<BoundColumnRef>(side.types[col], b[col], side.names[col]), types[i]));
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
  op->children.push_back(cast_side(left, left_cols, left_nulls));
  op->children.push_back(cast_side(right, right_cols, right_nulls));
  BoundQuery result;
  result.names = names;
  result.types = types;
  result.plan = std::move(op);
  return result;
}

}  // namespace shears

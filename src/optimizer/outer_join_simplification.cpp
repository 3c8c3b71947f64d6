// outer_join_simplification: an outer join whose NULL-extended rows a condition above it
// rejects is an inner join (or a one-sided outer join, for FULL):
//
//   FILTER(d.d_year = 2001)                   FILTER(d.d_year = 2001)
//     JOIN LEFT ON ss.k = d.k       ==>         JOIN INNER ON ss.k = d.k
//       GET store_sales                           GET store_sales
//       GET date_dim d                            GET date_dim d
//
// A row of `ss LEFT JOIN d` without a match has NULL in every column of d; `d_year = 2001` is
// not TRUE for it, so the filter drops every such row and the join might as well not make
// them. As an inner join, filter_pushdown (which runs next) moves the date filter into the
// dimension's scan and the join may prune the fact (dynamic partition pruning, runtime filters;
// join_legality forbids both on the preserved side of an outer join).
//
// A condition rejects a column when it cannot be TRUE while the column is NULL: a comparison or
// any NULL-propagating function of it, IN, IS NOT NULL, NOT of those, an AND with one
// conjunct rejecting it, an OR whose every branch rejects it. Not IS NULL, COALESCE, CASE, an
// OR with a branch accepting NULL. Rejected columns flow down through filters, ORDER BY,
// projections (a projected column rejected rejects the columns its NULL-propagating expression
// reads), both sides of inner joins (whose equi-keys reject their columns too), the preserved
// side of outer joins, the left side of semi, anti and mark joins; and the matching side of a
// LEFT/RIGHT/SEMI join takes its ON condition's rejections (its rows without a match never
// reach the output). Not through LIMIT, aggregates, windows or set operations.

#include "optimizer/optimizer.h"

namespace shears {

namespace {

using Bindings = std::set<ColumnBinding>;

void Add(Bindings& to, const Bindings& from) {
  to.insert(from.begin(), from.end());
}

// The columns whose NULL makes `e` NULL.
Bindings NullPropagating(const BoundExpr& e) {
  Bindings out;
  switch (e.kind) {
    case BoundExprKind::kColumnRef:
      out.insert(static_cast<const BoundColumnRef&>(e).binding);
      break;
    case BoundExprKind::kCast:
      out = NullPropagating(*static_cast<const BoundCast&>(e).child);
      break;
    case BoundExprKind::kNot:
      out = NullPropagating(*static_cast<const BoundNot&>(e).child);
      break;
    case BoundExprKind::kInList:
      out = NullPropagating(*static_cast<const BoundInList&>(e).value);
      break;
    case BoundExprKind::kFunction: {
      const auto& f = static_cast<const BoundFunction&>(e);
      if (!f.function.null_propagating) break;
      for (const auto& arg : f.args)
        Add(out, NullPropagating(*arg));
      break;
    }
    default:
      break;
  }
  return out;
}

// The columns whose NULL keeps condition `e` from being TRUE.
Bindings Rejected(const BoundExpr& e) {
  switch (e.kind) {
    case BoundExprKind::kConjunction: {
      const auto& c = static_cast<const BoundConjunction&>(e);
      Bindings out;
      for (size_t i = 0; i < c.children.size(); i++) {
        Bindings child = Rejected(*c.children[i]);
        if (c.is_and || i == 0) {
          Add(out, child);
          continue;
        }
        Bindings common;
        for (const auto& b : out) {
          if (child.count(b)) common.insert(b);
        }
        out = std::move(common);
      }
      return out;
    }
    case BoundExprKind::kIsNull: {
      const auto& n = static_cast<const BoundIsNull&>(e);
      return n.negated ? NullPropagating(*n.child) : Bindings{};
    }
    default:
      return NullPropagating(e);
  }
}

std::set<uint32_t> TablesOf(const LogicalOperator& op) {
  std::set<uint32_t> out;
  for (const auto& b : op.GetColumnBindings())
    out.insert(b.table_index);
  return out;
}

bool AnyOf(const Bindings& rejected, const std::set<uint32_t>& tables) {
  for (const auto& b : rejected) {
    if (tables.count(b.table_index)) return true;
  }
  return false;
}

// What the ON condition rejects on one side: its key on that side and its residual.
Bindings OnRejects(const LogicalJoin& join, bool left) {
  Bindings out;
  for (const auto& c : join.conditions) {
    if (!c.null_equal) Add(out, NullPropagating(left ? *c.left : *c.right));
  }
  if (join.residual) Add(out, Rejected(*join.residual));
  return out;
}

void Simplify(LogicalOperator& op, Bindings rejected) {
  switch (op.type) {
    case LogicalOperatorType::kFilter:
      for (const auto& c : static_cast<LogicalFilter&>(op).conditions)
        Add(rejected, Rejected(*c));
      Simplify(*op.children[0], std::move(rejected));
      return;
    case LogicalOperatorType::kOrderBy:
      Simplify(*op.children[0], std::move(rejected));
      return;
    case LogicalOperatorType::kProjection: {
      auto& projection = static_cast<LogicalProjection&>(op);
      Bindings below;
      for (const auto& b : rejected) {
        if (b.table_index == projection.table_index &&
            b.column_index < projection.expressions.size()) {
          Add(below, NullPropagating(*projection.expressions[b.column_index]));
        }
      }
      Simplify(*op.children[0], std::move(below));
      return;
    }
    case LogicalOperatorType::kJoin: {
      auto& join = static_cast<LogicalJoin&>(op);
      const auto left_tables = TablesOf(*op.children[0]);
      const auto right_tables = TablesOf(*op.children[1]);
      bool disjoint = true;
      for (uint32_t t : left_tables)
        disjoint = disjoint && !right_tables.count(t);
      if (!disjoint) break;  // a side's columns must be told apart
      const bool left_rejected = AnyOf(rejected, left_tables);
      const bool right_rejected = AnyOf(rejected, right_tables);
      JoinKind& kind = join.join_kind;
      if ((kind == JoinKind::kLeft && right_rejected) ||
          (kind == JoinKind::kRight && left_rejected) ||
          (kind == JoinKind::kFull && left_rejected && right_rejected)) {
        kind = JoinKind::kInner;
      } else if (kind == JoinKind::kFull && left_rejected) {
        kind = JoinKind::kLeft;  // the rows kept are the matches and the left's unmatched
      } else if (kind == JoinKind::kFull && right_rejected) {
        kind = JoinKind::kRight;
      }
      Bindings left, right;
      switch (kind) {
        case JoinKind::kInner:
        case JoinKind::kCross:
          left = rejected;
          Add(left, OnRejects(join, true));
          Add(left, OnRejects(join, false));
          right = left;
          break;
        case JoinKind::kLeft:
          left = std::move(rejected);
          right = OnRejects(join, false);
          break;
        case JoinKind::kRight:
          left = OnRejects(join, true);
          right = std::move(rejected);
          break;
        case JoinKind::kSemi:
          left = std::move(rejected);
          Add(left, OnRejects(join, true));
          right = OnRejects(join, false);
          break;
        case JoinKind::kAnti:
        case JoinKind::kMark:
          left = std::move(rejected);
          break;
        case JoinKind::kRightSemi:
          right = std::move(rejected);
          Add(right, OnRejects(join, false));
          left = OnRejects(join, true);
          break;
        case JoinKind::kRightAnti:
          right = std::move(rejected);
          break;
        case JoinKind::kFull:
          break;
      }
      Simplify(*op.children[0], std::move(left));
      Simplify(*op.children[1], std::move(right));
      return;
    }
    default:
      break;
  }
  for (auto& child : op.children)
    Simplify(*child, {});
}

}  // namespace

void SimplifyOuterJoins(LogicalOperatorPtr& plan, const Settings&) {
  Simplify(*plan, {});
}

}  // namespace shears

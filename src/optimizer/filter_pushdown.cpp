// filter_pushdown: moves filter conjuncts as close to the data as is legal.
//
//   FILTER(a.x = b.y AND a.z > 5)          JOIN INNER ON a.x = b.y
//     JOIN CROSS                   ==>        GET a  filters: a.z > 5
//       GET a                                 GET b
//       GET b
//
// Legal moves: through FILTER; through PROJECTION (columns replaced by their deterministic
// expressions); into both sides of INNER/CROSS joins (a conjunct over one side
// goes to that side; an equality between the two sides becomes a join key); into the
// preserved side of LEFT (left child) and RIGHT (right child) joins, and the left side of
// SEMI/ANTI/MARK joins; into GET as scan filters; below WINDOW when the conjunct is a
// deterministic function of PARTITION BY columns only (it keeps or drops whole partitions, so
// the windows of the others do not change); below AGGREGATE when over group columns only; into
// every input of a set operation; into the query (not the definition) of MATERIALIZED_CTE. Join
// residuals of inner joins are treated like filters above the join; ON conjuncts of a LEFT (RIGHT)
// join over its right (left) input alone filter that input; a filter on the preserved side's
// join key is copied onto the other side's key for LEFT, RIGHT and SEMI joins, and both ways
// for inner joins (TransferKeyFilters). Everything else stays where it is.

#include <functional>
#include <set>

#include "optimizer/optimizer.h"
#include "planner/bind_context.h"

namespace shears {

namespace {

std::set<uint32_t> TablesOf(const LogicalOperator& op) {
  std::set<uint32_t> out;
  for (const auto& b : op.GetColumnBindings())
    out.insert(b.table_index);
  return out;
}

bool Covers(const std::set<uint32_t>& tables, const BoundExpr& expr) {
  for (const auto& b : ReferencedBindings(expr)) {
    if (!tables.count(b.table_index)) return false;
  }
  return true;
}

void Push(LogicalOperatorPtr& op, std::vector<BoundExprPtr> filters);

// Replaces each column of `e` (an output column of a projection or a group of an aggregate) by
// the expression computing it.
void Substitute(BoundExprPtr& e, const std::vector<BoundExprPtr>& expressions) {
  if (e->kind == BoundExprKind::kColumnRef) {
    const auto& ref = static_cast<BoundColumnRef&>(*e);
    e = expressions[ref.binding.column_index]->Copy();
    e->alias.clear();
    return;
  }
  for (BoundExprPtr* child : e->Children())
    Substitute(*child, expressions);
}

// Wraps `op` in a filter of whatever could not be pushed further.
void Wrap(LogicalOperatorPtr& op, std::vector<BoundExprPtr> remaining) {
  if (remaining.empty()) return;
  auto filter = std::make_unique<LogicalFilter>();
  filter->conditions = std::move(remaining);
  filter->children.push_back(std::move(op));
  op = std::move(filter);
}

// The column an integer join key is, bare or widened by a cast (INTEGER to BIGINT), which
// keeps every value: the key equals another exactly when the column's value does.
const BoundColumnRef* KeyColumn(const BoundExpr& key) {
  const BoundExpr* column = &key;
  if (key.kind == BoundExprKind::kCast) {
    const auto& cast = static_cast<const BoundCast&>(key);
    if (cast.try_cast || cast.type.id() != TypeId::kBigint ||
        cast.child->type.id() != TypeId::kInteger)
      return nullptr;
    column = cast.child.get();
  }
  if (column->kind != BoundExprKind::kColumnRef) return nullptr;
  const TypeId id = column->type.id();
  if (id != TypeId::kInteger && id != TypeId::kBigint) return nullptr;
  return static_cast<const BoundColumnRef*>(column);
}

bool IsComparison(const std::string& name) {
  return name == "=" || name == "<>" || name == "!=" || name == "<" || name == "<=" ||
         name == ">" || name == ">=";
}

// `filter` (over `source`, an INTEGER column) rewritten over `target`, a BIGINT column whose
// value a matching row's `source` equals: comparisons and IN lists with constants compare
// `target` with the constants widened (so they still prune partitions and row groups), any
// other use of `source` reads TRY_CAST(target AS INTEGER) (a value out of INTEGER's range
// matches no row).
void WidenKeyFilter(BoundExprPtr& e, const ColumnBinding& source, const BoundExpr& target) {
  auto is_source = [&](const BoundExprPtr& arg) {
    return arg->kind == BoundExprKind::kColumnRef &&
           static_cast<const BoundColumnRef&>(*arg).binding == source;
  };
  auto widened = [&](const BoundExprPtr& constant) -> BoundExprPtr {
    return std::make_unique<BoundConstant>(
        CastValue(static_cast<const BoundConstant&>(*constant).value, target.type));
  };
  if (e->kind == BoundExprKind::kFunction) {
    auto& fn = static_cast<BoundFunction&>(*e);
    if (IsComparison(fn.function.name) && fn.args.size() == 2) {
      for (size_t i = 0; i < 2; i++) {
        if (!is_source(fn.args[i]) || fn.args[1 - i]->kind != BoundExprKind::kConstant) continue;
        std::vector<BoundExprPtr> args(2);
        args[i] = target.Copy();
        args[1 - i] = widened(fn.args[1 - i]);
        e = BindFunctionCall(fn.function.name, std::move(args));
        return;
      }
    }
  }
  if (e->kind == BoundExprKind::kInList) {
    auto& in = static_cast<BoundInList&>(*e);
    bool constants = true;
    for (const auto& item : in.list)
      constants = constants && item->kind == BoundExprKind::kConstant;
    if (is_source(in.value) && constants) {
      in.value = target.Copy();
      for (auto& item : in.list)
        item = widened(item);
      return;
    }
  }
  if (is_source(e)) {
    e = std::make_unique<BoundCast>(target.Copy(), e->type, /*try_cast=*/true);
    return;
  }
  for (BoundExprPtr* child : e->Children())
    WidenKeyFilter(*child, source, target);
}

// Copies of the filters `from` (going to one input of `join`) over a single join key column,
// rewritten over the key on the other input, into `to`. A row there matches only rows whose
// key equals its own, so one failing the filter matches no row that passes it: dropping it
// early changes nothing (q78: `ss_sold_year = 2000` above `ss LEFT JOIN ws ON ws_sold_year =
// ss_sold_year` also filters ws, so its date_dim scan prunes web_sales to one year's
// partitions instead of all; `d_date_sk BETWEEN a AND b` prunes store_sales' partitions
// statically). Only keys of one type that `=` compares as stored values (not floating point,
// where -0.0 = 0.0 yet a filter may tell them apart), or INTEGER and BIGINT columns compared
// as BIGINTs (the filter then reads the other column as its own type: widened exactly, or
// narrowed where it fits), and deterministic filters.
void TransferKeyFilters(const LogicalJoin& join, const std::vector<BoundExprPtr>& from,
                        bool from_left, std::vector<BoundExprPtr>& to) {
  for (const auto& f : from) {
    const auto referenced = ReferencedBindings(*f);
    if (referenced.empty() || CallsVolatile(*f)) continue;
    bool subquery = false;
    VisitExpression(
        *f, [&](BoundExpr& e) { subquery = subquery || e.kind == BoundExprKind::kSubquery; });
    if (subquery) continue;
    for (const auto& condition : join.conditions) {
      const BoundExpr& source = from_left ? *condition.left : *condition.right;
      const BoundExpr& target = from_left ? *condition.right : *condition.left;
      if (condition.null_equal || CallsVolatile(const_cast<BoundExpr&>(target))) continue;
      const BoundColumnRef* source_column = nullptr;
      const BoundColumnRef* target_column = nullptr;
      if (source.kind == BoundExprKind::kColumnRef && source.type == target.type &&
          !source.type.IsFloatingPoint()) {
        source_column = static_cast<const BoundColumnRef*>(&source);
      } else {
        source_column = KeyColumn(source);
        target_column = KeyColumn(target);
        if (!source_column || !target_column) continue;
      }
      const ColumnBinding key = source_column->binding;
      bool only_key = true;
      for (const auto& b : referenced)
        only_key = only_key && b == key;
      if (!only_key) continue;
      BoundExprPtr copy = f->Copy();
      if (target_column && source_column->type.id() == TypeId::kInteger &&
          target_column->type.id() == TypeId::kBigint) {
        WidenKeyFilter(copy, key, *target_column);
      } else {
        // The same type, or a BIGINT key's filter read over an INTEGER column widened.
        const BoundExpr& replacement = target_column ? *target_column : target;
        std::function<void(BoundExprPtr&)> replace = [&](BoundExprPtr& e) {
          if (e->kind == BoundExprKind::kColumnRef) {
            e = replacement.Copy();
            e->alias.clear();
            if (!(e->type == source_column->type))
              e = std::make_unique<BoundCast>(std::move(e), source_column->type);
            return;
          }
          for (BoundExprPtr* child : e->Children())
            replace(*child);
        };
        replace(copy);
      }
      to.push_back(std::move(copy));
      break;
    }
  }
}

void PushJoin(LogicalOperatorPtr& op, std::vector<BoundExprPtr> filters) {
  auto& join = static_cast<LogicalJoin&>(*op);
  const auto left_tables = TablesOf(*join.children[0]);
  const auto right_tables = TablesOf(*join.children[1]);
  std::vector<BoundExprPtr> left_filters, right_filters, remaining;
  const bool inner = join.join_kind == JoinKind::kInner || join.join_kind == JoinKind::kCross;
  if (inner && join.residual) {
    SplitConjunction(std::move(join.residual), filters);
    join.residual.reset();
  }
  std::vector<BoundExprPtr> residual;
  for (auto& f : filters) {
    const bool on_left = Covers(left_tables, *f);
    const bool on_right = Covers(right_tables, *f);
    const bool left_ok = inner || join.join_kind == JoinKind::kLeft ||
                         join.join_kind == JoinKind::kSemi || join.join_kind == JoinKind::kAnti ||
                         join.join_kind == JoinKind::kMark;
    // A RIGHT_SEMI/RIGHT_ANTI join outputs right rows, each decided by itself.
    const bool right_ok = inner || join.join_kind == JoinKind::kRight ||
                          join.join_kind == JoinKind::kRightSemi ||
                          join.join_kind == JoinKind::kRightAnti;
    if (on_left && left_ok) {
      left_filters.push_back(std::move(f));
    } else if (on_right && right_ok && !on_left) {
      right_filters.push_back(std::move(f));
    } else if (inner && f->kind == BoundExprKind::kFunction &&
               static_cast<BoundFunction&>(*f).function.name == "=") {
      auto& eq = static_cast<BoundFunction&>(*f);
      if (Covers(left_tables, *eq.args[0]) && Covers(right_tables, *eq.args[1])) {
        join.conditions.push_back({std::move(eq.args[0]), std::move(eq.args[1]), false});
      } else if (Covers(right_tables, *eq.args[0]) && Covers(left_tables, *eq.args[1])) {
        join.conditions.push_back({std::move(eq.args[1]), std::move(eq.args[0]), false});
      } else {
        residual.push_back(std::move(f));
      }
    } else if (inner && (Covers(left_tables, *f) || Covers(right_tables, *f) || [&] {
                 std::set<uint32_t> both = left_tables;
                 both.insert(right_tables.begin(), right_tables.end());
                 return Covers(both, *f);
               }())) {
      residual.push_back(std::move(f));
    } else {
      remaining.push_back(std::move(f));
    }
  }
  if (!join.conditions.empty() && join.join_kind == JoinKind::kCross)
    join.join_kind = JoinKind::kInner;
  if (!residual.empty()) join.residual = MakeConjunction(std::move(residual));
  // Outer joins keep their own ON residual; split its equalities into keys too, and conjuncts
  // over the null-supplying side alone into filters on that input (`LEFT JOIN d ON f.k = d.k
  // AND d.flag = 'Y'` builds only the flagged rows of d, not all of d checked per pair).
  if (!inner && join.residual &&
      (join.join_kind == JoinKind::kLeft || join.join_kind == JoinKind::kRight ||
       join.join_kind == JoinKind::kFull)) {
    std::vector<BoundExprPtr> parts;
    SplitConjunction(std::move(join.residual), parts);
    std::vector<BoundExprPtr> rest;
    for (auto& p : parts) {
      // ON conditions over the inner side only filter that side before the join. First, so
      // that `d.flag = 'Y'` (whose constant side covers any table) never becomes a join key.
      if (join.join_kind == JoinKind::kLeft && Covers(right_tables, *p)) {
        right_filters.push_back(std::move(p));
        continue;
      }
      if (join.join_kind == JoinKind::kRight && Covers(left_tables, *p)) {
        left_filters.push_back(std::move(p));
        continue;
      }
      if (p->kind == BoundExprKind::kFunction &&
          static_cast<BoundFunction&>(*p).function.name == "=") {
        auto& eq = static_cast<BoundFunction&>(*p);
        const bool both_sides_read =
            !ReferencedBindings(*eq.args[0]).empty() && !ReferencedBindings(*eq.args[1]).empty();
        if (both_sides_read && Covers(left_tables, *eq.args[0]) &&
            Covers(right_tables, *eq.args[1])) {
          join.conditions.push_back({std::move(eq.args[0]), std::move(eq.args[1]), false});
          continue;
        }
        if (both_sides_read && Covers(right_tables, *eq.args[0]) &&
            Covers(left_tables, *eq.args[1])) {
          join.conditions.push_back({std::move(eq.args[1]), std::move(eq.args[0]), false});
          continue;
        }
      }
      rest.push_back(std::move(p));
    }
    if (!rest.empty()) join.residual = MakeConjunction(std::move(rest));
  }
  // The null-supplying side of an outer join and the right side of a semi join take the
  // preserved (left) side's filters on join keys; the inputs of an inner join each other's.
  if (join.join_kind == JoinKind::kInner) {
    std::vector<BoundExprPtr> to_left, to_right;
    TransferKeyFilters(join, left_filters, true, to_right);
    TransferKeyFilters(join, right_filters, false, to_left);
    for (auto& f : to_left)
      left_filters.push_back(std::move(f));
    for (auto& f : to_right)
      right_filters.push_back(std::move(f));
  } else if (join.join_kind == JoinKind::kLeft || join.join_kind == JoinKind::kSemi) {
    TransferKeyFilters(join, left_filters, true, right_filters);
  } else if (join.join_kind == JoinKind::kRight || join.join_kind == JoinKind::kRightSemi) {
    TransferKeyFilters(join, right_filters, false, left_filters);
  }
  Push(join.children[0], std::move(left_filters));
  Push(join.children[1], std::move(right_filters));
  Wrap(op, std::move(remaining));
}

void Push(LogicalOperatorPtr& op, std::vector<BoundExprPtr> filters) {
  switch (op->type) {
    case LogicalOperatorType::kFilter: {
      auto& filter = static_cast<LogicalFilter&>(*op);
      for (auto& c : filter.conditions)
        filters.push_back(std::move(c));
      LogicalOperatorPtr child = std::move(filter.children[0]);
      op = std::move(child);
      Push(op, std::move(filters));
      return;
    }
    case LogicalOperatorType::kGet: {
      auto& get = static_cast<LogicalGet&>(*op);
      for (auto& f : filters)
        get.filters.push_back(std::move(f));
      return;
    }
    case LogicalOperatorType::kJoin:
      PushJoin(op, std::move(filters));
      return;
    case LogicalOperatorType::kProjection: {
      // A filter over projected columns holds below the projection with each column replaced
      // by the expression that computes it (when those are deterministic).
      auto& projection = static_cast<LogicalProjection&>(*op);
      std::vector<BoundExprPtr> below, above;
      for (auto& f : filters) {
        bool substitutable = true;
        for (const auto& b : ReferencedBindings(*f)) {
          if (b.table_index != projection.table_index) {
            substitutable = false;
            break;
          }
          bool deterministic = true;
          VisitExpression(*projection.expressions[b.column_index], [&](BoundExpr& e) {
            if (e.kind == BoundExprKind::kAggregate || e.kind == BoundExprKind::kWindow)
              deterministic = false;
            if (e.kind == BoundExprKind::kFunction &&
                !static_cast<BoundFunction&>(e).function.deterministic) {
              deterministic = false;
            }
          });
          substitutable = substitutable && deterministic;
        }
        if (!substitutable) {
          above.push_back(std::move(f));
          continue;
        }
        Substitute(f, projection.expressions);
        below.push_back(std::move(f));
      }
      Push(op->children[0], std::move(below));
      Wrap(op, std::move(above));
      return;
    }
    case LogicalOperatorType::kAggregate: {
      // A conjunct over group columns alone keeps or drops whole groups: it holds below the
      // aggregate with each group column replaced by its expression (rows of one group have
      // equal keys). Not over floating-point keys (0.0 and -0.0 group together but may test
      // apart), nor when empty input has rows (no groups, the empty grouping set).
      auto& aggregate = static_cast<LogicalAggregate&>(*op);
      std::vector<BoundExprPtr> below, above;
      for (auto& f : filters) {
        const auto referenced = ReferencedBindings(*f);
        bool on_groups = !referenced.empty() && aggregate.empty_input_groups.empty();
        for (const auto& b : referenced) {
          on_groups = on_groups && b.table_index == aggregate.group_index &&
                      b.column_index < aggregate.groups.size() &&
                      !aggregate.groups[b.column_index]->type.IsFloatingPoint();
        }
        if (!on_groups || CallsVolatile(*f)) {
          above.push_back(std::move(f));
          continue;
        }
        Substitute(f, aggregate.groups);
        below.push_back(std::move(f));
      }
      Push(op->children[0], std::move(below));
      Wrap(op, std::move(above));
      return;
    }
    case LogicalOperatorType::kSetOperation: {
      // A row passes a deterministic filter whichever input it comes from: the filter goes
      // into every input, over that input's columns (when their types are the output's; not
      // over floating-point columns when duplicates are removed, 0.0 and -0.0 being one row).
      // Not into a recursive CTE, whose iterations feed on each other.
      auto& set = static_cast<LogicalSetOperation&>(*op);
      std::vector<BoundExprPtr> below, above;
      for (auto& f : filters) {
        bool pushable = set.kind != SetOperationKind::kRecursiveUnion && !CallsVolatile(*f);
        for (const auto& b : ReferencedBindings(*f)) {
          pushable = pushable && b.table_index == set.table_index &&
                     b.column_index < set.types.size() &&
                     (set.all || !set.types[b.column_index].IsFloatingPoint());
          for (const auto& child : op->children)
            pushable = pushable && child->GetTypes()[b.column_index] == set.types[b.column_index];
        }
        (pushable ? below : above).push_back(std::move(f));
      }
      for (auto& child : op->children) {
        const auto child_bindings = child->GetColumnBindings();
        std::vector<BoundExprPtr> copies;
        for (const auto& f : below) {
          BoundExprPtr copy = f->Copy();
          VisitExpression(*copy, [&](BoundExpr& e) {
            if (e.kind != BoundExprKind::kColumnRef) return;
            auto& ref = static_cast<BoundColumnRef&>(e);
            ref.binding = child_bindings[ref.binding.column_index];
          });
          copies.push_back(std::move(copy));
        }
        Push(child, std::move(copies));
      }
      Wrap(op, std::move(above));
      return;
    }
    case LogicalOperatorType::kMaterializedCte:
      // The CTE's definition has filters of its own (cte_filter_pushdown); those above this
      // operator are over the query's columns.
      Push(op->children[0], {});
      Push(op->children[1], std::move(filters));
      return;
    case LogicalOperatorType::kWindow: {
      auto& window = static_cast<LogicalWindow&>(*op);
      // Every window of the operator shares its PARTITION BY.
      std::set<std::string> keys;
      for (const auto& p : static_cast<BoundWindow&>(*window.windows[0]).partitions)
        keys.insert(BindingKey(*p));
      // Whether every column of `e` is inside a PARTITION BY expression (and `e` deterministic).
      std::function<bool(BoundExpr&)> on_keys = [&](BoundExpr& e) {
        if (keys.count(BindingKey(e))) return true;
        if (e.kind == BoundExprKind::kColumnRef || e.kind == BoundExprKind::kSubquery) return false;
        if (e.kind == BoundExprKind::kFunction &&
            !static_cast<BoundFunction&>(e).function.deterministic) {
          return false;
        }
        for (BoundExprPtr* child : e.Children()) {
          if (!on_keys(**child)) return false;
        }
        return true;
      };
      std::vector<BoundExprPtr> below, above;
      for (auto& f : filters)
        (on_keys(*f) ? below : above).push_back(std::move(f));
      Push(op->children[0], std::move(below));
      Wrap(op, std::move(above));
      return;
    }
    default:
      break;
  }
  // Not pushable through this operator: optimize below it, keep the filters above it.
  for (auto& child : op->children)
    Push(child, {});
  Wrap(op, std::move(filters));
}

}  // namespace

void PushDownFilters(LogicalOperatorPtr& plan, const Settings&) {
  Push(plan, {});
}

}  // namespace shears

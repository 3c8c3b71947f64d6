// Window functions: f(...) OVER (PARTITION BY ... ORDER BY ... frame), named windows of the
// WINDOW clause, and their planning as LogicalWindow operators.
//
// A window function binds to a BoundWindow that stays inside its select-list expression
// through GROUP BY matching (its arguments and keys may use aggregates and group columns:
// sum(sum(x)) OVER (PARTITION BY y)) and subquery planning; PlanWindows then moves each into
// the LogicalWindow of its PARTITION BY / ORDER BY, between HAVING and the projection:
//
//   PROJECTION  rank#7.0 ...
//     FILTER    (QUALIFY)
//       WINDOW  rank() OVER (PARTITION BY ... ORDER BY ...)
//         FILTER (HAVING)
//           AGGREGATE
//
// Frames follow PostgreSQL: with ORDER BY the default frame is RANGE BETWEEN UNBOUNDED
// PRECEDING AND CURRENT ROW (the current row's peers included), without it the partition.

#include <fmt/format.h>

#include <map>

#include "common/error.h"
#include "common/string_util.h"
#include "planner/bind_context.h"

namespace shears {

namespace {

constexpr const char* kWindowArgumentClause = "arguments of a window function";

struct WindowFunctionName {
  const char* name;
  WindowFunction function;
};

constexpr WindowFunctionName kWindowFunctions[] = {
    {"row_number", WindowFunction::kRowNumber},
    {"rank", WindowFunction::kRank},
    {"dense_rank", WindowFunction::kDenseRank},
    {"percent_rank", WindowFunction::kPercentRank},
    {"cume_dist", WindowFunction::kCumeDist},
    {"ntile", WindowFunction::kNtile},
    {"lag", WindowFunction::kLag},
    {"lead", WindowFunction::kLead},
    {"first_value", WindowFunction::kFirstValue},
    {"last_value", WindowFunction::kLastValue},
    {"nth_value", WindowFunction::kNthValue},
};

/// A window specification with its WINDOW-clause references resolved.
struct ResolvedWindow {
  std::vector<const ast::Expr*> partition_by;
  std::vector<const ast::OrderByItem*> order_by;
  const ast::WindowSpec* frame = nullptr;  // where the frame clause is (may have none)
};

const ast::WindowSpec& FindNamedWindow(const WindowInfo& info, const std::string& name,
                                       size_t before) {
  if (info.named) {
    for (size_t i = 0; i < std::min(before, info.named->size()); i++) {
      if ((*info.named)[i].name == name) return (*info.named)[i];
    }
  }
  throw BinderError("window \"{}\" does not exist", name);
}

ResolvedWindow Resolve(const WindowInfo& info, const ast::WindowSpec& spec, size_t before,
                       int depth) {
  if (depth > 64) throw BinderError("window definitions refer to each other too deeply");
  // OVER w (a function's window, `before` unlimited): the named window as it is.
  if (before == SIZE_MAX && !spec.name.empty()) {
    const ast::WindowSpec& named = FindNamedWindow(info, spec.name, before);
    return Resolve(info, named, static_cast<size_t>(&named - info.named->data()), depth + 1);
  }
  ResolvedWindow out;
  if (!spec.refname.empty()) {
    const ast::WindowSpec& base = FindNamedWindow(info, spec.refname, before);
    out = Resolve(info, base, static_cast<size_t>(&base - info.named->data()), depth + 1);
    if (!spec.partition_by.empty()) {
      throw BinderError("cannot override PARTITION BY clause of window \"{}\"", spec.refname);
    }
    if (!spec.order_by.empty() && !out.order_by.empty()) {
      throw BinderError("cannot override ORDER BY clause of window \"{}\"", spec.refname);
    }
    if (out.frame && out.frame->has_frame) {
      throw BinderError("cannot copy window \"{}\" because it has a frame clause", spec.refname);
    }
  }
  for (const auto& p : spec.partition_by)
    out.partition_by.push_back(p.get());
  for (const auto& o : spec.order_by)
    out.order_by.push_back(&o);
  out.frame = &spec;
  return out;
}

/// A ROWS / GROUPS offset: a constant non-negative integer.
Binder::ExprContext OffsetContext(Binder::Scope* scope) {
  // The query's columns are visible only to say that an offset must not use them.
  Binder::ExprContext ctx;
  ctx.scope = scope;
  ctx.clause = "frame offset";
  return ctx;
}

int64_t RowsOffset(Binder& binder, Binder::Scope* scope, const ast::Expr& offset,
                   const char* which) {
  Binder::ExprContext ctx = OffsetContext(scope);
  BoundExprPtr bound = binder.BindExpr(offset, ctx);
  if (bound->kind != BoundExprKind::kConstant) {
    throw BinderError("frame {} offset must be a constant", which);
  }
  const Value& value = static_cast<BoundConstant&>(*bound).value;
  if (value.is_null()) throw BinderError("frame {} offset must not be null", which);
  if (!value.type().IsNumeric() || value.type().IsFloatingPoint() ||
      (value.type().id() == TypeId::kDecimal && value.type().scale() != 0)) {
    throw BinderError("frame {} offset must be an integer, not {}", which, value.type().ToString());
  }
  const int64_t n = CastValue(value, LogicalType::Bigint()).GetInt64();
  if (n < 0) throw BinderError("frame {} offset must not be negative", which);
  return n;
}

/// RANGE n PRECEDING / FOLLOWING: the ORDER BY key moved by the offset, towards the start of
/// the order (PRECEDING) or its end.
BoundExprPtr RangeBoundValue(Binder& binder, Binder::Scope* scope, const BoundExpr& key,
                             bool descending, const ast::Expr& offset, bool preceding,
                             const char* which) {
  // Towards larger values: FOLLOWING of ASC, PRECEDING of DESC.
  const int sign = preceding == descending ? 1 : -1;
  const TypeId key_type = key.type.id();
  if (key_type == TypeId::kDate || key_type == TypeId::kTimestamp) {
    if (offset.kind != ast::ExprKind::kInterval) {
      throw BinderError("RANGE offsets of a {} ORDER BY key must be an INTERVAL",
                        key.type.ToString());
    }
    const auto& interval = static_cast<const ast::IntervalExpr&>(offset);
    if (interval.months < 0 || interval.days < 0 || interval.micros < 0) {
      throw BinderError("frame {} offset must not be negative", which);
    }
    return AddInterval(key.Copy(), interval, sign);
  }
  if (!key.type.IsNumeric()) {
    throw BinderError("RANGE with an offset is not supported for an ORDER BY key of type {}",
                      key.type.ToString());
  }
  Binder::ExprContext ctx = OffsetContext(scope);
  BoundExprPtr bound = binder.BindExpr(offset, ctx);
  if (bound->kind != BoundExprKind::kConstant || !bound->type.IsNumeric()) {
    throw BinderError("frame {} offset must be a numeric constant", which);
  }
  const Value& value = static_cast<BoundConstant&>(*bound).value;
  if (value.is_null()) throw BinderError("frame {} offset must not be null", which);
  if (CastValue(value, LogicalType::Double()).GetDouble() < 0) {
    throw BinderError("frame {} offset must not be negative", which);
  }
  // Integer keys move as DECIMAL(38,0): key -/+ n cannot overflow then (as PostgreSQL's
  // in_range functions, which never fail on a bound beyond the type's range).
  BoundExprPtr base = key.Copy();
  if (key_type == TypeId::kInteger || key_type == TypeId::kBigint) {
    base = CastTo(std::move(base), LogicalType::Decimal(38, 0));
    if (bound->type.id() == TypeId::kInteger || bound->type.id() == TypeId::kBigint) {
      bound = CastTo(std::move(bound), LogicalType::Decimal(38, 0));
    }
  }
  std::vector<BoundExprPtr> args;
  args.push_back(std::move(base));
  args.push_back(std::move(bound));
  return BindFunctionCall(sign > 0 ? "+" : "-", std::move(args));
}

WindowBoundKind ToBoundKind(ast::FrameBoundKind kind) {
  switch (kind) {
    case ast::FrameBoundKind::kUnboundedPreceding:
      return WindowBoundKind::kUnboundedPreceding;
    case ast::FrameBoundKind::kOffsetPreceding:
      return WindowBoundKind::kOffsetPreceding;
    case ast::FrameBoundKind::kCurrentRow:
      return WindowBoundKind::kCurrentRow;
    case ast::FrameBoundKind::kOffsetFollowing:
      return WindowBoundKind::kOffsetFollowing;
    case ast::FrameBoundKind::kUnboundedFollowing:
      return WindowBoundKind::kUnboundedFollowing;
  }
  return WindowBoundKind::kCurrentRow;
}

bool IsOffset(WindowBoundKind kind) {
  return kind == WindowBoundKind::kOffsetPreceding || kind == WindowBoundKind::kOffsetFollowing;
}

void BindFrame(Binder& binder, Binder::Scope* scope, const ast::WindowSpec& spec,
               BoundWindow& window) {
  if (!spec.has_frame) {
    // Without ORDER BY every row is a peer of every other: the default frame is the partition.
    window.unit = WindowFrameUnit::kRange;
    window.start = WindowBoundKind::kUnboundedPreceding;
    window.end =
        window.orders.empty() ? WindowBoundKind::kUnboundedFollowing : WindowBoundKind::kCurrentRow;
    return;
  }
  window.unit = spec.unit == ast::FrameUnit::kRows     ? WindowFrameUnit::kRows
                : spec.unit == ast::FrameUnit::kGroups ? WindowFrameUnit::kGroups
                                                       : WindowFrameUnit::kRange;
  window.start = ToBoundKind(spec.start);
  window.end = ToBoundKind(spec.end);
  window.exclude = spec.exclude == ast::FrameExclude::kCurrentRow ? WindowExclude::kCurrentRow
                   : spec.exclude == ast::FrameExclude::kGroup    ? WindowExclude::kGroup
                   : spec.exclude == ast::FrameExclude::kTies     ? WindowExclude::kTies
                                                                  : WindowExclude::kNoOthers;
  if (window.unit == WindowFrameUnit::kGroups && window.orders.empty()) {
    throw BinderError("GROUPS mode requires an ORDER BY clause");
  }
  const bool offsets = IsOffset(window.start) || IsOffset(window.end);
  if (window.unit != WindowFrameUnit::kRange) {
    if (IsOffset(window.start)) {
      window.start_offset = RowsOffset(binder, scope, *spec.start_offset, "starting");
    }
    if (IsOffset(window.end)) {
      window.end_offset = RowsOffset(binder, scope, *spec.end_offset, "ending");
    }
    return;
  }
  if (!offsets) return;
  if (window.orders.size() != 1) {
    throw BinderError("RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column");
  }
  const BoundOrderBy& order = window.orders[0];
  BoundExprPtr start, end;
  if (IsOffset(window.start)) {
    start = RangeBoundValue(binder, scope, *order.expr, order.descending, *spec.start_offset,
                            window.start == WindowBoundKind::kOffsetPreceding, "starting");
  }
  if (IsOffset(window.end)) {
    end = RangeBoundValue(binder, scope, *order.expr, order.descending, *spec.end_offset,
                          window.end == WindowBoundKind::kOffsetPreceding, "ending");
  }
  // Key and bounds in one type, so that execution compares them directly.
  LogicalType common = order.expr->type;
  for (const BoundExprPtr* bound : {&start, &end}) {
    if (!*bound) continue;
    auto t = CommonType(common, (*bound)->type);
    if (!t) throw BinderError("cannot compare the RANGE offset bound with the ORDER BY key");
    common = *t;
  }
  window.range_key = CastTo(order.expr->Copy(), common);
  if (start) window.range_start = CastTo(std::move(start), common);
  if (end) window.range_end = CastTo(std::move(end), common);
}

BoundExprPtr ToBigint(BoundExprPtr expr, const char* what) {
  if (expr->type.valid() && expr->type.id() != TypeId::kInteger &&
      expr->type.id() != TypeId::kBigint) {
    throw BinderError("{} must be an integer, not {}", what, expr->type.ToString());
  }
  return CastTo(std::move(expr), LogicalType::Bigint());
}

}  // namespace

bool IsWindowOnlyFunction(const std::string& name) {
  for (const auto& f : kWindowFunctions) {
    if (name == f.name) return true;
  }
  return false;
}

BoundExprPtr Binder::BindWindowFunction(const ast::FunctionExpr& fn, ExprContext& ctx) {
  const std::string name = AsciiLower(fn.name);
  if (!ctx.windows) {
    if (std::string(ctx.clause) == kWindowArgumentClause) {
      throw BinderError("window function calls cannot be nested");
    }
    throw BinderError("window functions are not allowed in the {}", ctx.clause);
  }
  ResolvedWindow spec = Resolve(*ctx.windows, *fn.over, SIZE_MAX, 0);

  ExprContext inner = ctx;
  inner.windows = nullptr;
  inner.clause = kWindowArgumentClause;
  std::vector<BoundExprPtr> args;
  for (const auto& a : fn.args)
    args.push_back(BindExpr(*a, inner));

  std::optional<WindowFunction> function;
  for (const auto& f : kWindowFunctions) {
    if (name == f.name) function = f.function;
  }
  std::unique_ptr<BoundWindow> window;
  std::function<BoundExprPtr(BoundExprPtr)> finish;  // as ResolvedAggregate::finish
  if (!function) {
    if (!IsAggregateFunction(name)) {
      throw BinderError("OVER specified, but {} is not a window function nor an aggregate function",
                        name);
    }
    if (fn.within_group) throw BinderError("WITHIN GROUP is not allowed with OVER");
    ResolvedAggregate resolved = ResolveAggregateCall(
        name, std::move(args), BindAggregateOrderBy(fn, inner), false, fn.star, fn.distinct);
    if (fn.filter) {
      ExprContext filter_ctx = inner;
      filter_ctx.clause = "FILTER clause";
      ApplyAggregateFilter(resolved, BindExpr(*fn.filter, filter_ctx));
    }
    window = std::make_unique<BoundWindow>(WindowFunction::kAggregate, resolved.type);
    window->aggregate = resolved.kind;
    window->distinct = fn.distinct && !fn.star;
    window->params = std::move(resolved.params);
    args = std::move(resolved.inputs);
    finish = std::move(resolved.finish);
  } else {
    if (fn.distinct || fn.star) {
      throw BinderError("{} is not an aggregate: DISTINCT and * are not allowed", name);
    }
    auto arity = [&](size_t low, size_t high) {
      if (args.size() >= low && args.size() <= high) return;
      if (low == high) throw BinderError("{} takes {} argument(s)", name, low);
      throw BinderError("{} takes {} to {} arguments", name, low, high);
    };
    switch (*function) {
      case WindowFunction::kRowNumber:
      case WindowFunction::kRank:
      case WindowFunction::kDenseRank:
        arity(0, 0);
        window = std::make_unique<BoundWindow>(*function, LogicalType::Bigint());
        break;
      case WindowFunction::kPercentRank:
      case WindowFunction::kCumeDist:
        arity(0, 0);
        window = std::make_unique<BoundWindow>(*function, LogicalType::Double());
        break;
      case WindowFunction::kNtile:
        arity(1, 1);
        args[0] = ToBigint(std::move(args[0]), "the argument of ntile");
        window = std::make_unique<BoundWindow>(*function, LogicalType::Bigint());
        break;
      case WindowFunction::kLag:
      case WindowFunction::kLead: {
        arity(1, 3);
        LogicalType type = args[0]->type.valid() ? args[0]->type : LogicalType::Integer();
        if (args.size() == 3 && args[2]->type.valid()) {
          // A VARCHAR literal default takes the value's type ('unknown' in PostgreSQL).
          if (args[2]->kind == BoundExprKind::kConstant && args[2]->type.IsString() &&
              !type.IsString()) {
            args[2] = CastTo(std::move(args[2]), type);
          }
          auto common = CommonType(type, args[2]->type);
          if (!common) {
            throw BinderError("the default of {} ({}) does not match its value ({})", name,
                              args[2]->type.ToString(), type.ToString());
          }
          type = *common;
        }
        args[0] = CastTo(std::move(args[0]), type);
        if (args.size() < 2) args.push_back(std::make_unique<BoundConstant>(Value::Bigint(1)));
        args[1] = ToBigint(std::move(args[1]), "the offset of lag and lead");
        if (args.size() < 3) args.push_back(std::make_unique<BoundConstant>(Value::Null(type)));
        args[2] = CastTo(std::move(args[2]), type);
        window = std::make_unique<BoundWindow>(*function, type);
        break;
      }
      case WindowFunction::kFirstValue:
      case WindowFunction::kLastValue:
      case WindowFunction::kNthValue: {
        arity(*function == WindowFunction::kNthValue ? 2 : 1,
              *function == WindowFunction::kNthValue ? 2 : 1);
        LogicalType type = args[0]->type.valid() ? args[0]->type : LogicalType::Integer();
        args[0] = CastTo(std::move(args[0]), type);
        if (args.size() == 2) args[1] = ToBigint(std::move(args[1]), "the argument n of nth_value");
        window = std::make_unique<BoundWindow>(*function, type);
        break;
      }
      case WindowFunction::kAggregate:
        break;
    }
  }
  if (fn.ignore_nulls) {
    if (!function || *function < WindowFunction::kLag) {
      throw BinderError(
          "IGNORE NULLS is only allowed for first_value, last_value, nth_value, lag and lead, not "
          "{}",
          name);
    }
    window->ignore_nulls = true;
  }
  window->name = name;
  window->args = std::move(args);
  for (const ast::Expr* p : spec.partition_by)
    window->partitions.push_back(TypeUntyped(BindExpr(*p, inner)));
  for (const ast::OrderByItem* o : spec.order_by) {
    BoundOrderBy order;
    order.expr = TypeUntyped(BindExpr(*o->expr, inner));
    order.descending = o->descending;
    // As the query's ORDER BY (default_null_order).
    order.nulls_first = o->nulls_first.value_or(DefaultNullsFirst(o->descending));
    window->orders.push_back(std::move(order));
  }
  BindFrame(*this, ctx.scope, *spec.frame, *window);
  if (finish) return finish(std::move(window));
  return window;
}

LogicalOperatorPtr Binder::PlanWindows(LogicalOperatorPtr plan,
                                       const std::vector<BoundExprPtr*>& exprs) {
  // One operator per PARTITION BY / ORDER BY, in the order first used.
  std::vector<std::unique_ptr<LogicalWindow>> operators;
  std::map<std::string, size_t> by_spec;
  std::vector<std::map<std::string, uint32_t>> window_keys;
  std::function<void(BoundExprPtr&)> extract = [&](BoundExprPtr& e) {
    if (e->kind != BoundExprKind::kWindow) {
      for (BoundExprPtr* child : e->Children())
        extract(*child);
      return;
    }
    auto& window = static_cast<BoundWindow&>(*e);
    std::string spec;
    for (const auto& p : window.partitions)
      spec += BoundIdentityKey(*p) + ",";
    spec += "|";
    for (const auto& o : window.orders) {
      spec += BoundIdentityKey(*o.expr) + (o.descending ? " DESC" : " ASC") +
              (o.nulls_first ? " NULLS FIRST," : " NULLS LAST,");
    }
    auto [it, added] = by_spec.emplace(spec, operators.size());
    if (added) {
      operators.push_back(std::make_unique<LogicalWindow>());
      operators.back()->window_index = NewTableIndex();
      window_keys.emplace_back();
    }
    LogicalWindow& op = *operators[it->second];
    const std::string key = BoundIdentityKey(window);
    auto [at, is_new] =
        window_keys[it->second].emplace(key, static_cast<uint32_t>(op.windows.size()));
    std::string alias = e->alias;
    auto ref = std::make_unique<BoundColumnRef>(
        window.type, ColumnBinding{op.window_index, at->second}, window.ToString());
    ref->alias = alias;
    if (is_new) {
      e->alias.clear();
      op.windows.push_back(std::move(e));
    }
    e = std::move(ref);
  };
  for (BoundExprPtr* e : exprs)
    extract(*e);
  for (auto& op : operators) {
    op->children.push_back(std::move(plan));
    plan = std::move(op);
  }
  return plan;
}

}  // namespace shears

// Binding of a SELECT: its FROM, WHERE, GROUP BY (and GROUPING SETS), HAVING, the select list,
// DISTINCT, ORDER BY and LIMIT.

#include "planner/binder.h"

#include <algorithm>
#include <cctype>
#include <deque>
#include <functional>
#include <set>

#include "common/error.h"
#include "common/string_util.h"
#include "expression/expression_executor.h"
#include "function/function.h"
#include "function/regex_match.h"
#include "parser/ast_visit.h"
#include "parser/parser.h"
#include "planner/bind_context.h"
#include "planner/dependent_join.h"
namespace shears {

BoundExprPtr RequireBoolean(BoundExprPtr expr, const char* what);  // bind_expression.cpp

namespace {

// Replaces, inside `expr`, every subtree equal to a GROUP BY expression by a reference to the
// group column, then checks that no plain column is left outside aggregates.
BoundExprPtr BindToGroups(BoundExprPtr expr, AggregateInfo& info, const char* clause) {
  const std::string key = BoundIdentityKey(*expr);
  for (size_t i = 0; i < info.group_keys.size(); i++) {
    if (info.group_keys[i] == key &&
        (i >= info.group_types.size() || info.group_types[i] == expr->type)) {
      // expr->type: the group expressions may already have moved into the aggregate.
      auto ref = std::make_unique<BoundColumnRef>(
          expr->type, ColumnBinding{info.group_index, static_cast<uint32_t>(i)}, expr->ToString());
      ref->alias = expr->alias;
      return ref;
    }
  }
  if (expr->kind == BoundExprKind::kColumnRef) {
    auto& ref = static_cast<BoundColumnRef&>(*expr);
    if (ref.binding.table_index == info.aggregate_index ||
        ref.binding.table_index == info.group_index) {
      return expr;
    }
    if (info.outer_columns && std::find(info.outer_columns->begin(), info.outer_columns->end(),
                                        ref.binding) != info.outer_columns->end()) {
      return expr;
    }
    throw BinderError(
        "column '{}' must appear in the GROUP BY clause or be used in an aggregate "
        "function ({})",
        ref.name, clause);
  }
  for (BoundExprPtr* child : expr->Children())
    *child = BindToGroups(std::move(*child), info, clause);
  return expr;
}

/// DuckDB's COLUMNS('regex') / COLUMNS(*): the first such call in `expr` (not in subqueries).
const ast::FunctionExpr* FindColumnsCall(const ast::Expr& expr) {
  if (expr.kind == ast::ExprKind::kFunction &&
      AsciiLower(static_cast<const ast::FunctionExpr&>(expr).name) == "columns") {
    return &static_cast<const ast::FunctionExpr&>(expr);
  }
  const ast::FunctionExpr* found = nullptr;
  ast::ForEachChild(expr, [&found](const ast::Expr& child) {
    if (!found) found = FindColumnsCall(child);
  });
  return found;
}

/// Calls `emit(pick, name)` for each column of `scope` that `call` (COLUMNS(...) in a select
/// item) selects, in FROM order: the item stands for one select item per column, named as
/// DuckDB names them (the column's name, also for max(COLUMNS('x')), or the item's alias).
template <typename Emit>
void ExpandColumns(const ast::FunctionExpr& call, const std::string& alias, Binder::Scope& scope,
                   Emit emit) {
  const bool all = call.star;
  std::string pattern;
  if (!all) {
    if (call.args.size() != 1 || call.args[0]->kind != ast::ExprKind::kConstant ||
        static_cast<const ast::ConstantExpr&>(*call.args[0]).value.type().id() !=
            TypeId::kVarchar) {
      throw BinderError("COLUMNS takes a regular expression as a string constant, or *");
    }
    pattern = static_cast<const ast::ConstantExpr&>(*call.args[0]).value.GetString();
  }
  bool any = false;
  for (const auto& entry : scope.entries) {
    for (size_t i = 0; i < entry.names.size(); i++) {
      if (!entry.Matches(i, false) || entry.Hidden(i)) continue;
      if (!all && !RegexMatchesAnywhere(pattern, entry.names[i])) continue;
      any = true;
      emit(Binder::ExprContext::ColumnsPick{entry.bindings[i], entry.types[i], entry.names[i]},
           alias.empty() ? entry.names[i] : alias);
    }
  }
  if (!any) {
    throw BinderError(all ? std::string("COLUMNS(*) with no tables in FROM")
                          : fmt::format("COLUMNS('{}') matches no column", pattern));
  }
}

/// ORDER BY ALL as the positions 1..columns, each ordered the way the ALL item says.
std::vector<ast::OrderByItem> OrderByAllPositions(const ast::QueryNode& node, size_t columns) {
  std::vector<ast::OrderByItem> out;
  for (size_t i = 0; i < columns; i++) {
    ast::OrderByItem item;
    auto position = std::make_unique<ast::ConstantExpr>();
    position->value = Value::Integer(static_cast<int32_t>(i + 1));
    position->location = node.order_by[0].expr->location;
    item.expr = std::move(position);
    item.descending = node.order_by[0].descending;
    item.nulls_first = node.order_by[0].nulls_first;
    out.push_back(std::move(item));
  }
  return out;
}

}  // namespace

// unnest(l) in the select list (bound as the placeholder function "unnest") becomes a column
// of a LogicalUnnest just below the projection: the rows multiply there, after aggregates,
// HAVING and windows, as in DuckDB; several unnests of one SELECT zip.
static LogicalOperatorPtr PlanUnnests(LogicalOperatorPtr plan,
                                      std::vector<BoundExprPtr>& select_exprs,
                                      uint32_t table_index) {
  std::unique_ptr<LogicalUnnest> unnest;
  std::function<void(BoundExprPtr&)> extract = [&](BoundExprPtr& e) {
    if (e->kind == BoundExprKind::kFunction &&
        static_cast<BoundFunction&>(*e).function.name == "unnest") {
      auto& call = static_cast<BoundFunction&>(*e);
      if (!unnest) {
        unnest = std::make_unique<LogicalUnnest>();
        unnest->table_index = table_index;
      }
      const LogicalType type = e->type;
      const ColumnBinding binding{table_index, static_cast<uint32_t>(unnest->lists.size())};
      unnest->lists.push_back(std::move(call.args[0]));
      e = std::make_unique<BoundColumnRef>(type, binding, "unnest");
      return;
    }
    for (BoundExprPtr* child : e->Children())
      extract(*child);
  };
  for (auto& e : select_exprs)
    extract(e);
  if (!unnest) return plan;
  unnest->children.push_back(std::move(plan));
  return unnest;
}

BoundQuery Binder::BindSelect(const ast::SelectNode& node, Scope* outer) {
  Scope scope;
  scope.outer = outer;
  LogicalOperatorPtr plan;
  if (node.from) {
    plan = BindTableRef(*node.from, scope);
  } else {
    plan = std::make_unique<LogicalDummyScan>();
  }
  if (node.sample) plan = BindSample(*node.sample, std::move(plan));

  // Expand the select list (stars, COLUMNS(...)) into (AST expression, name) pairs.
  struct Item {
    const ast::Expr* expr = nullptr;  // null for star-expanded columns
    std::string name;
    ColumnBinding binding;
    LogicalType type;
    const ExprContext::ColumnsPick* pick = nullptr;  // what COLUMNS(...) in expr stands for
    bool alias = false;                              // named by AS: a lateral alias
  };
  std::vector<Item> items;
  std::deque<ExprContext::ColumnsPick> picks;  // stable addresses for the items
  // Binds an item's expression (with its COLUMNS pick, if any).
  auto bind_item = [this](const Item& item, ExprContext& ctx) {
    ExprContext item_ctx = ctx;
    item_ctx.columns = item.pick;
    return BindExpr(*item.expr, item_ctx);
  };
  for (const auto& select_item : node.select_list) {
    if (const ast::FunctionExpr* columns = FindColumnsCall(*select_item.expr)) {
      ExpandColumns(
          *columns, select_item.alias, scope, [&](ExprContext::ColumnsPick pick, std::string name) {
            picks.push_back(std::move(pick));
            items.push_back({select_item.expr.get(), std::move(name), {}, {}, &picks.back()});
          });
      continue;
    }
    if (select_item.expr->kind == ast::ExprKind::kStar) {
      const auto& star = static_cast<const ast::StarExpr&>(*select_item.expr);
      bool any = false;
      // * EXCLUDE / * REPLACE: each name must be one of the star's columns.
      std::vector<bool> excluded(star.exclude.size()), replaced(star.replace.size());
      for (const auto& entry : scope.entries) {
        if (!star.relation.empty() && AsciiLower(entry.alias) != AsciiLower(star.relation))
          continue;
        for (size_t i = 0; i < entry.names.size(); i++) {
          if (!entry.Matches(i, !star.relation.empty()) || entry.Hidden(i)) continue;
          any = true;
          const std::string name = AsciiLower(entry.names[i]);
          bool skip = false;
          for (size_t e = 0; e < star.exclude.size(); e++) {
            if (AsciiLower(star.exclude[e]) == name) skip = excluded[e] = true;
          }
          if (skip) continue;
          const ast::Expr* replacement = nullptr;
          for (size_t r = 0; r < star.replace.size(); r++) {
            if (AsciiLower(star.replace[r].first) == name) {
              replacement = star.replace[r].second.get();
              replaced[r] = true;
            }
          }
          items.push_back({replacement, entry.names[i], entry.bindings[i], entry.types[i]});
        }
      }
      for (size_t e = 0; e < star.exclude.size(); e++) {
        if (!excluded[e]) {
          throw BinderError("column '{}' in the EXCLUDE list is not a column of {}",
                            star.exclude[e], star.relation.empty() ? "*" : star.relation + ".*");
        }
      }
      for (size_t r = 0; r < star.replace.size(); r++) {
        if (!replaced[r]) {
          throw BinderError("column '{}' in the REPLACE list is not a column of {}",
                            star.replace[r].first,
                            star.relation.empty() ? "*" : star.relation + ".*");
        }
      }
      if (!any) {
        throw BinderError(star.relation.empty() ? "SELECT * with no tables in FROM"
                                                : "table '" + star.relation + "' not found for " +
                                                      star.relation + ".*");
      }
      continue;
    }
    std::string name = select_item.alias;
    if (name.empty()) {
      if (select_item.expr->kind == ast::ExprKind::kColumnRef) {
        name = static_cast<const ast::ColumnRefExpr&>(*select_item.expr).names.back();
      } else {
        name = select_item.expr->ToString();
      }
    }
    items.push_back({select_item.expr.get(), name, {}, {}, nullptr, !select_item.alias.empty()});
  }
  if (items.empty() && !node.select_list.empty()) {
    throw BinderError("the select list is empty once * EXCLUDE has removed its columns");
  }

  // DuckDB's lateral column aliases: a name that is no column may name the alias of an earlier
  // select item (`SELECT a * 2 AS d, d + 1 ... WHERE d > 3`). WHERE and GROUP BY bind the
  // item's expression again in their own context (an aggregate there is an error); the select
  // list and HAVING reuse the bound item. Among items of the same alias the last one wins.
  auto same_name = [](const std::string& a, const std::string& b) {
    return AsciiLower(a) == AsciiLower(b);
  };
  std::function<BoundExprPtr(size_t, ExprContext&)> bind_item_lateral;
  auto bind_lateral = [&](size_t limit, const std::string& name, ExprContext& ctx) -> BoundExprPtr {
    for (size_t j = limit; j-- > 0;) {
      if (items[j].alias && items[j].expr && same_name(items[j].name, name)) {
        return bind_item_lateral(j, ctx);
      }
    }
    return nullptr;
  };
  bind_item_lateral = [&](size_t j, ExprContext& ctx) {
    ExprContext inner = ctx;
    const std::function<BoundExprPtr(const std::string&)> earlier = [&](const std::string& name) {
      return bind_lateral(j, name, ctx);
    };
    inner.select_aliases = &earlier;
    return bind_item(items[j], inner);
  };
  if (node.where) {
    ExprContext where_ctx;
    where_ctx.scope = &scope;
    where_ctx.clause = "WHERE clause";
    where_ctx.subqueries = true;
    const std::function<BoundExprPtr(const std::string&)> where_aliases =
        [&](const std::string& name) { return bind_lateral(items.size(), name, where_ctx); };
    plan = BindWhere(*node.where, std::move(plan), scope, &where_aliases);
  }

  // GROUP BY ALL: the positions of the select items without aggregates or window functions.
  std::vector<ast::ExprPtr> all_groups;
  if (node.group_by_all) {
    for (size_t i = 0; i < items.size(); i++) {
      const ast::Expr* e = items[i].expr;
      if (e && (ContainsAggregateCall(*e) || (e->kind == ast::ExprKind::kFunction &&
                                              static_cast<const ast::FunctionExpr&>(*e).over))) {
        continue;
      }
      auto position = std::make_unique<ast::ConstantExpr>();
      position->value = Value::Integer(static_cast<int32_t>(i + 1));
      all_groups.push_back(std::move(position));
    }
  }
  const std::vector<ast::ExprPtr>& group_by = node.group_by_all ? all_groups : node.group_by;
  // HAVING without GROUP BY makes one group of all rows (SQL's rule, as PostgreSQL and DuckDB).
  const bool aggregate = !group_by.empty() || !node.grouping_sets.empty() || node.group_by_all ||
                         node.having || ContainsAggregateInQuery(node);
  AggregateInfo info;
  std::vector<size_t> group_of;  // per GROUP BY expression, its index in info.groups
  std::vector<BoundExprPtr> select_exprs;
  if (aggregate) {
    info.group_index = NewTableIndex();
    info.aggregate_index = NewTableIndex();
    info.outer_columns = &scope.correlated;
    ExprContext group_ctx;
    group_ctx.scope = &scope;
    group_ctx.clause = "GROUP BY clause";
    for (const auto& g : group_by) {
      BoundExprPtr bound;
      // GROUP BY 1 / GROUP BY alias refer to the select list.
      if (g->kind == ast::ExprKind::kConstant) {
        const Value& v = static_cast<const ast::ConstantExpr&>(*g).value;
        if (v.type().id() == TypeId::kInteger) {
          int64_t pos = v.GetInt64();
          if (pos < 1 || pos > static_cast<int64_t>(items.size())) {
            throw BinderError("GROUP BY position {} is not in the select list (1..{})", pos,
                              items.size());
          }
          const Item& item = items[static_cast<size_t>(pos - 1)];
          if (!item.expr) {
            bound = std::make_unique<BoundColumnRef>(item.type, item.binding, item.name);
          } else {
            if (ContainsAggregateCall(*item.expr))
              throw BinderError("cannot GROUP BY an aggregate");
            bound = bind_item_lateral(static_cast<size_t>(pos - 1), group_ctx);
          }
        }
      }
      if (!bound && g->kind == ast::ExprKind::kColumnRef &&
          static_cast<const ast::ColumnRefExpr&>(*g).names.size() == 1) {
        const std::string& n = static_cast<const ast::ColumnRefExpr&>(*g).names[0];
        if (!ResolveColumn(scope, "", n)) {
          for (size_t j = 0; j < items.size(); j++) {
            if (items[j].expr && same_name(items[j].name, n)) {
              bound = bind_item_lateral(j, group_ctx);
              break;
            }
          }
        }
      }
      if (!bound) {
        // As DuckDB: an alias may be a whole GROUP BY expression, not a part of one.
        const std::function<BoundExprPtr(const std::string&)> no_aliases =
            [&](const std::string& name) -> BoundExprPtr {
          for (const auto& item : items) {
            if (item.alias && same_name(item.name, name)) {
              throw BinderError(
                  "'{}' is a select-list alias; an alias may be a whole GROUP BY expression but "
                  "not a part of one",
                  name);
            }
          }
          return nullptr;
        };
        ExprContext expr_ctx = group_ctx;
        expr_ctx.select_aliases = &no_aliases;
        bound = BindExpr(*g, expr_ctx);
      }
      bound = TypeUntyped(std::move(bound));
      const std::string key = BoundIdentityKey(*bound);
      const auto same = std::find(info.group_keys.begin(), info.group_keys.end(), key);
      group_of.push_back(static_cast<size_t>(same - info.group_keys.begin()));
      if (same != info.group_keys.end()) continue;  // GROUP BY a, a groups by a once
      info.group_keys.push_back(key);
      info.group_types.push_back(bound->type);
      info.groups.push_back(std::move(bound));
    }
    // One grouping set is a plain GROUP BY (of all the expressions, since each is in a set).
    if (node.grouping_sets.size() > 1) {
      for (const auto& set : node.grouping_sets) {
        std::vector<size_t> groups;
        for (size_t position : set)
          groups.push_back(group_of[position]);
        std::sort(groups.begin(), groups.end());
        groups.erase(std::unique(groups.begin(), groups.end()), groups.end());
        info.grouping_sets.push_back(std::move(groups));
      }
    }
  }

  WindowInfo window_info;
  window_info.named = &node.windows;
  ExprContext select_ctx;
  select_ctx.scope = &scope;
  select_ctx.aggregates = aggregate ? &info : nullptr;
  select_ctx.windows = &window_info;
  select_ctx.clause = "select list";
  select_ctx.subqueries = true;
  size_t current = 0;  // the select item being bound: it may use the aliases before it
  const std::function<BoundExprPtr(const std::string&)> lateral =
      [&](const std::string& name) -> BoundExprPtr {
    for (size_t j = current; j-- > 0;) {
      if (items[j].alias && same_name(items[j].name, name)) return select_exprs[j]->Copy();
    }
    for (size_t j = current + 1; j < items.size(); j++) {
      if (items[j].alias && same_name(items[j].name, name)) {
        throw BinderError(
            "column '{}' is the alias of a later select item; an alias can be used only after "
            "the item that defines it",
            name);
      }
    }
    return nullptr;
  };
  for (auto& item : items) {
    ExprContext item_ctx = select_ctx;
    item_ctx.select_aliases = &lateral;
    BoundExprPtr bound = item.expr
                             ? bind_item(item, item_ctx)
                             : std::make_unique<BoundColumnRef>(item.type, item.binding, item.name);
    current++;
    // Typed before matching the GROUP BY keys, which were typed the same way.
    bound = TypeUntyped(std::move(bound));
    if (aggregate) bound = BindToGroups(std::move(bound), info, "select list");
    bound->alias = item.name;
    select_exprs.push_back(std::move(bound));
  }
  // HAVING, QUALIFY and ORDER BY expressions may name select items by their alias (as in DuckDB;
  // TPC-DS q36, q70, q86: ORDER BY CASE WHEN lochierarchy = 0 THEN ... END).
  const std::function<BoundExprPtr(const std::string&)> aliases =
      [&](const std::string& name) -> BoundExprPtr {
    for (size_t i = 0; i < items.size(); i++) {
      if (items[i].expr && AsciiLower(items[i].name) == AsciiLower(name)) {
        return select_exprs[i]->Copy();
      }
    }
    return nullptr;
  };
  BoundExprPtr having;
  if (node.having) {
    ExprContext having_ctx = select_ctx;
    having_ctx.clause = "HAVING clause";
    having_ctx.windows = nullptr;
    having_ctx.select_aliases = &aliases;
    having = RequireBoolean(BindToGroups(BindExpr(*node.having, having_ctx), info, "HAVING clause"),
                            "HAVING condition");
  }
  // QUALIFY filters on window results.
  BoundExprPtr qualify;
  if (node.qualify) {
    ExprContext qualify_ctx = select_ctx;
    qualify_ctx.clause = "QUALIFY clause";
    qualify_ctx.select_aliases = &aliases;
    qualify = BindExpr(*node.qualify, qualify_ctx);
    if (aggregate) qualify = BindToGroups(std::move(qualify), info, "QUALIFY clause");
    qualify = RequireBoolean(std::move(qualify), "QUALIFY condition");
  }

  // ORDER BY items that are not select items become hidden projection columns.
  std::vector<BoundOrderBy> orders;
  const size_t visible = select_exprs.size();
  const std::vector<ast::OrderByItem> all_orders =
      node.order_by_all ? OrderByAllPositions(node, visible) : std::vector<ast::OrderByItem>();
  for (const auto& order : node.order_by_all ? all_orders : node.order_by) {
    BoundOrderBy bound_order;
    bound_order.descending = order.descending;
    bound_order.nulls_first = order.nulls_first.value_or(DefaultNullsFirst(order.descending));
    int position = -1;
    if (order.expr->kind == ast::ExprKind::kConstant) {
      const Value& v = static_cast<const ast::ConstantExpr&>(*order.expr).value;
      if (v.type().id() == TypeId::kInteger) {
        int64_t pos = v.GetInt64();
        if (pos < 1 || pos > static_cast<int64_t>(visible)) {
          throw BinderError("ORDER BY position {} is not in the select list (1..{})", pos, visible);
        }
        position = static_cast<int>(pos - 1);
      }
    }
    if (position < 0 && order.expr->kind == ast::ExprKind::kColumnRef &&
        static_cast<const ast::ColumnRefExpr&>(*order.expr).names.size() == 1) {
      const std::string& n = static_cast<const ast::ColumnRefExpr&>(*order.expr).names[0];
      for (size_t i = 0; i < visible; i++) {
        if (AsciiLower(items[i].name) == AsciiLower(n)) {
          position = static_cast<int>(i);
          break;
        }
      }
    }
    if (position < 0) {
      ExprContext order_ctx = select_ctx;
      order_ctx.select_aliases = &aliases;
      BoundExprPtr bound = TypeUntyped(BindExpr(*order.expr, order_ctx));
      if (aggregate) bound = BindToGroups(std::move(bound), info, "ORDER BY clause");
      const std::string key = BoundIdentityKey(*bound);
      for (size_t i = 0; i < select_exprs.size(); i++) {
        if (BoundIdentityKey(*select_exprs[i]) == key) {
          position = static_cast<int>(i);
          break;
        }
      }
      if (position < 0) {
        if (node.distinct) {
          throw BinderError(
              "for SELECT DISTINCT, ORDER BY expressions must appear in the select list");
        }
        position = static_cast<int>(select_exprs.size());
        select_exprs.push_back(std::move(bound));
      }
    }
    bound_order.expr = std::make_unique<BoundConstant>(Value::Integer(position));  // placeholder
    orders.push_back(std::move(bound_order));
  }

  if (aggregate) {
    auto agg = std::make_unique<LogicalAggregate>();
    agg->group_index = info.group_index;
    agg->aggregate_index = info.aggregate_index;
    agg->aggregates = std::move(info.aggregates);
    if (!info.grouping_sets.empty()) plan = ExpandGroupingSets(std::move(plan), info, *agg);
    agg->groups = std::move(info.groups);
    agg->children.push_back(std::move(plan));
    plan = std::move(agg);
  }
  {
    // Subqueries of the select list, HAVING and ORDER BY join above the aggregate; the outer
    // columns they are correlated with must then be GROUP BY columns.
    std::vector<BoundExprPtr*> with_subqueries;
    for (auto& e : select_exprs)
      with_subqueries.push_back(&e);
    if (having) with_subqueries.push_back(&having);
    if (qualify) with_subqueries.push_back(&qualify);
    std::function<BoundExprPtr(BoundExprPtr)> to_outer;
    if (aggregate) {
      to_outer = [&](BoundExprPtr e) {
        return BindToGroups(std::move(e), info, "correlated subquery");
      };
    }
    plan = PlanSubqueries(std::move(plan), with_subqueries, to_outer);
  }
  if (aggregate) {
    if (having) {
      auto filter = std::make_unique<LogicalFilter>();
      SplitConjunction(std::move(having), filter->conditions);
      filter->children.push_back(std::move(plan));
      plan = std::move(filter);
    }
  }
  {
    std::vector<BoundExprPtr*> with_windows;
    for (auto& e : select_exprs)
      with_windows.push_back(&e);
    if (qualify) with_windows.push_back(&qualify);
    plan = PlanWindows(std::move(plan), with_windows);
  }
  if (qualify) {
    auto filter = std::make_unique<LogicalFilter>();
    SplitConjunction(std::move(qualify), filter->conditions);
    filter->children.push_back(std::move(plan));
    plan = std::move(filter);
  }
  plan = PlanUnnests(std::move(plan), select_exprs, NewTableIndex());
  auto projection = std::make_unique<LogicalProjection>();
  projection->table_index = NewTableIndex();
  std::vector<LogicalType> types;
  for (auto& e : select_exprs)
    types.push_back(e->type);
  projection->expressions = std::move(select_exprs);
  projection->children.push_back(std::move(plan));
  const uint32_t projection_index = projection->table_index;
  plan = std::move(projection);

  std::vector<std::string> names;
  for (size_t i = 0; i < visible; i++)
    names.push_back(items[i].name);

  if (node.distinct) {
    auto distinct = std::make_unique<LogicalAggregate>();
    distinct->group_index = NewTableIndex();
    distinct->aggregate_index = NewTableIndex();
    for (size_t i = 0; i < types.size(); i++) {
      distinct->groups.push_back(std::make_unique<BoundColumnRef>(
          types[i], ColumnBinding{projection_index, static_cast<uint32_t>(i)}, names[i]));
    }
    distinct->children.push_back(std::move(plan));
    const uint32_t distinct_index = distinct->group_index;
    plan = std::move(distinct);
    // The projection above refers to the distinct's group columns.
    auto top = std::make_unique<LogicalProjection>();
    top->table_index = NewTableIndex();
    for (size_t i = 0; i < types.size(); i++) {
      auto ref = std::make_unique<BoundColumnRef>(
          types[i], ColumnBinding{distinct_index, static_cast<uint32_t>(i)}, names[i]);
      ref->alias = names[i];
      top->expressions.push_back(std::move(ref));
    }
    top->children.push_back(std::move(plan));
    plan = std::move(top);
  }

  // Resolve ORDER BY positions to the current plan's columns.
  auto bindings = plan->GetColumnBindings();
  auto plan_types = plan->GetTypes();
  for (auto& order : orders) {
    int pos = static_cast<int>(static_cast<BoundConstant&>(*order.expr).value.GetInt64());
    order.expr = std::make_unique<BoundColumnRef>(
        plan_types[static_cast<size_t>(pos)], bindings[static_cast<size_t>(pos)],
        pos < static_cast<int>(names.size()) ? names[static_cast<size_t>(pos)] : "order_key");
  }
  if (!orders.empty()) {
    auto order_by = std::make_unique<LogicalOrderBy>();
    order_by->orders = std::move(orders);
    order_by->children.push_back(std::move(plan));
    plan = std::move(order_by);
  }
  BoundQuery result;
  result.plan = std::move(plan);
  result.names = names;
  result.types.assign(types.begin(), types.begin() + static_cast<long>(visible));
  // LIMIT/OFFSET, then drop hidden ORDER BY columns.
  result = ApplyOrderLimit(node, std::move(result));
  if (result.plan->GetTypes().size() != visible) {
    auto top = std::make_unique<LogicalProjection>();
    top->table_index = NewTableIndex();
    auto b = result.plan->GetColumnBindings();
    auto t = result.plan->GetTypes();
    for (size_t i = 0; i < visible; i++) {
      auto ref = std::make_unique<BoundColumnRef>(t[i], b[i], names[i]);
      ref->alias = names[i];
      top->expressions.push_back(std::move(ref));
    }
    top->children.push_back(std::move(result.plan));
    result.plan = std::move(top);
  }
  return result;
}

// GROUPING SETS as one aggregate keyed by (the groups, the set's id): each input row is paired
// with every set (a LEFT JOIN ON TRUE with VALUES of the set ids, which join_order leaves
// where it is, and which streams the input past the materialized VALUES), and a group column
// not in the row's set is NULL (the VALUES say per set which groups it has). The id keeps a
// rolled-up NULL apart from a NULL value of a group in its set; the VALUES also carry each
// grouping() call's value per set, grouped on too (they follow from the id). An empty set gives its
// row even for empty input, as an aggregate without groups does.
//
//   AGGREGATE [CASE WHEN in_set_a THEN a END, ..., id, grouping(...)]
//     LEFT JOIN ON TRUE
//       input
//       VALUES (id, grouping() values, in_set_a, ...) per set
LogicalOperatorPtr Binder::ExpandGroupingSets(LogicalOperatorPtr input, AggregateInfo& info,
                                              LogicalAggregate& aggregate) {
  const auto& sets = info.grouping_sets;
  auto values = std::make_unique<LogicalValues>();
  values->table_index = NewTableIndex();
  values->types.push_back(LogicalType::Integer());
  values->names.push_back("grouping_set");
  for (size_t j = 0; j < info.grouping_calls.size(); j++) {
    values->types.push_back(LogicalType::Bigint());
    values->names.push_back("grouping_" + std::to_string(j));
  }
  std::vector<std::vector<Value>> set_values;  // per set: id, then each grouping() value
  for (size_t s = 0; s < sets.size(); s++) {
    std::vector<Value> row{Value::Integer(static_cast<int32_t>(s))};
    for (const auto& call : info.grouping_calls) {
      // Bit (k - 1 - i) of grouping(a_0, ..., a_{k-1}) is 1 when a_i is rolled up.
      int64_t bits = 0;
      for (size_t group : call) {
        const bool rolled_up = !std::binary_search(sets[s].begin(), sets[s].end(), group);
        bits = bits << 1 | (rolled_up ? 1 : 0);
      }
      row.push_back(Value::Bigint(bits));
    }
    std::vector<BoundExprPtr> constants;
    for (const auto& v : row)
      constants.push_back(std::make_unique<BoundConstant>(v));
    values->rows.push_back(std::move(constants));
    set_values.push_back(std::move(row));
  }
  const uint32_t values_index = values->table_index;
  auto join = std::make_unique<LogicalJoin>();
  join->join_kind = JoinKind::kLeft;
  join->children.push_back(std::move(input));
  join->children.push_back(std::move(values));

  auto set_id = [&] {
    return std::make_unique<BoundColumnRef>(LogicalType::Integer(), ColumnBinding{values_index, 0},
                                            "grouping_set");
  };
  // A group in some sets only: a BOOLEAN column of the VALUES says whether the row's set has it.
  auto& values_op = static_cast<LogicalValues&>(*join->children[1]);
  const size_t group_count = info.groups.size();
  for (size_t g = 0; g < group_count; g++) {
    size_t with_group = 0;
    for (const auto& set : sets)
      with_group += std::binary_search(set.begin(), set.end(), g) ? 1 : 0;
    if (with_group == sets.size()) continue;  // in every set: never rolled up
    const auto flag = static_cast<uint32_t>(values_op.types.size());
    values_op.types.push_back(LogicalType::Boolean());
    values_op.names.push_back("in_set_" + std::to_string(g));
    for (size_t s = 0; s < sets.size(); s++) {
      values_op.rows[s].push_back(std::make_unique<BoundConstant>(
          Value::Boolean(std::binary_search(sets[s].begin(), sets[s].end(), g))));
    }
    const LogicalType type = info.groups[g]->type;
    auto rolled = std::make_unique<BoundCase>(type);
    rolled->when_then.emplace_back(
        std::make_unique<BoundColumnRef>(LogicalType::Boolean(), ColumnBinding{values_index, flag},
                                         "in_set_" + std::to_string(g)),
        std::move(info.groups[g]));
    rolled->else_expr = std::make_unique<BoundConstant>(Value::Null(type));
    info.groups[g] = std::move(rolled);
  }
  info.groups.push_back(set_id());
  for (size_t j = 0; j < info.grouping_calls.size(); j++) {
    info.groups.push_back(std::make_unique<BoundColumnRef>(
        LogicalType::Bigint(), ColumnBinding{values_index, static_cast<uint32_t>(1 + j)},
        "grouping_" + std::to_string(j)));
  }
  for (size_t s = 0; s < sets.size(); s++) {
    if (!sets[s].empty()) continue;
    std::vector<Value> keys;
    for (size_t g = 0; g < group_count; g++)
      keys.push_back(Value::Null(info.groups[g]->type));
    keys.insert(keys.end(), set_values[s].begin(), set_values[s].end());
    aggregate.empty_input_groups.push_back(std::move(keys));
  }
  return join;
}

BoundQuery Binder::ApplyOrderLimit(const ast::QueryNode& node, BoundQuery query) {
  // ORDER BY of SELECT nodes was bound in BindSelect; set operations and VALUES order here.
  if (node.kind != ast::QueryNodeKind::kSelect && !node.order_by.empty()) {
    Scope scope;
    ScopeEntry entry = EntryFor("", *query.plan, query.names);
    scope.entries.push_back(entry);
    auto order_by = std::make_unique<LogicalOrderBy>();
    const std::vector<ast::OrderByItem> all_orders =
        node.order_by_all ? OrderByAllPositions(node, entry.names.size())
                          : std::vector<ast::OrderByItem>();
    for (const auto& order : node.order_by_all ? all_orders : node.order_by) {
      BoundOrderBy bound;
      bound.descending = order.descending;
      bound.nulls_first = order.nulls_first.value_or(DefaultNullsFirst(order.descending));
      if (order.expr->kind == ast::ExprKind::kConstant &&
          static_cast<const ast::ConstantExpr&>(*order.expr).value.type().id() ==
              TypeId::kInteger) {
        int64_t pos = static_cast<const ast::ConstantExpr&>(*order.expr).value.GetInt64();
        if (pos < 1 || pos > static_cast<int64_t>(entry.names.size())) {
          throw BinderError("ORDER BY position {} is out of range", pos);
        }
        bound.expr = std::make_unique<BoundColumnRef>(entry.types[static_cast<size_t>(pos - 1)],
                                                      entry.bindings[static_cast<size_t>(pos - 1)],
                                                      entry.names[static_cast<size_t>(pos - 1)]);
      } else {
        ExprContext ctx;
        ctx.scope = &scope;
        ctx.clause = "ORDER BY clause";
        bound.expr = TypeUntyped(BindExpr(*order.expr, ctx));
      }
      order_by->orders.push_back(std::move(bound));
    }
    order_by->children.push_back(std::move(query.plan));
    query.plan = std::move(order_by);
  }
  if (node.limit || node.offset) {
    auto limit = std::make_unique<LogicalLimit>();
    ExprContext ctx;
    ctx.clause = "LIMIT clause";
    auto evaluate = [&](const ast::Expr& e, const char* what) -> int64_t {
      Value v;
      if (ast::HasSubquery(e) && query_runner_) {
        // LIMIT (SELECT ...): a constant for the plan, so the query runs first (as DuckDB's,
        // it may not refer to the outer query).
        std::vector<Value> values = query_runner_("SELECT " + e.ToString());
        if (values.size() != 1) {
          throw BinderError("the {} expression gave {} rows, not one", what, values.size());
        }
        v = values[0];
      } else {
        auto bound = BindExpr(e, ctx);
        // Not folded: its evaluation fails (LIMIT 1 / 0) or is not deterministic (random()).
        v = bound->kind == BoundExprKind::kConstant ? static_cast<BoundConstant&>(*bound).value
                                                    : ExpressionExecutor::EvaluateConstant(*bound);
      }
      if (v.is_null()) return -1;
      int64_t n = CastValue(v, LogicalType::Bigint()).GetInt64();
      if (n < 0) throw BinderError("{} must not be negative", what);
      return n;
    };
    if (node.limit) limit->limit = evaluate(*node.limit, "LIMIT");
    if (node.offset) limit->offset = std::max<int64_t>(0, evaluate(*node.offset, "OFFSET"));
    limit->children.push_back(std::move(query.plan));
    query.plan = std::move(limit);
  }
  return query;
}

}  // namespace shears

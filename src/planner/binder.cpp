// Binding of queries: the entry points (a query node, VALUES), WHERE (with IN/EXISTS
// subqueries as joins) and what the binder's files share. A SELECT is bound in bind_select.cpp,
// FROM items in bind_table_ref.cpp, set operations in bind_set_operation.cpp.

#include "planner/binder.h"

#include <algorithm>
#include <cctype>
#include <deque>
#include <set>

#include "common/error.h"
#include "common/session.h"
#include "common/string_util.h"
#include "function/function.h"
#include "function/regex_match.h"
#include "parser/ast_visit.h"
#include "parser/parser.h"
#include "planner/bind_context.h"
#include "planner/dependent_join.h"

namespace shears {

BoundExprPtr BindFunctionCall(const std::string& name, std::vector<BoundExprPtr> args);
BoundExprPtr RequireBoolean(BoundExprPtr expr, const char* what);  // bind_expression.cpp

ScopeEntry EntryFor(const std::string& alias, const LogicalOperator& op,
                    const std::vector<std::string>& names) {
  ScopeEntry entry;
  entry.alias = alias;
  entry.names = names;
  entry.types = op.GetTypes();
  entry.bindings = op.GetColumnBindings();
  return entry;
}

namespace {

constexpr int kMaxDepth = 64;

void QualifyColumnNames(BoundExpr& expr) {
  // A subquery prints as its unique id already, and its copy shares its parts with the original.
  if (expr.kind == BoundExprKind::kSubquery) return;
  if (expr.kind == BoundExprKind::kColumnRef) {
    auto& ref = static_cast<BoundColumnRef&>(expr);
    ref.name += "#" + std::to_string(ref.binding.table_index) + "." +
                std::to_string(ref.binding.column_index);
  }
  for (BoundExprPtr* child : expr.Children())
    QualifyColumnNames(**child);
}

// x IN (SELECT y ...): the join key pair x = y, both cast to their common type.
JoinCondition InSubqueryCondition(BoundExprPtr left_key, BoundExprPtr right_key) {
  auto common = CommonType(left_key->type, right_key->type);
  if (!common) {
    throw BinderError("cannot compare {} with {} in IN subquery", left_key->type.ToString(),
                      right_key->type.ToString());
  }
  JoinCondition condition;
  condition.left = CastTo(std::move(left_key), *common);
  condition.right = CastTo(std::move(right_key), *common);
  return condition;
}

}  // namespace

// Walks an AST expression looking for aggregate function calls (not inside subqueries).
bool ContainsAggregateCall(const ast::Expr& expr) {
  using namespace ast;
  switch (expr.kind) {
    case ExprKind::kFunction: {
      const auto& f = static_cast<const FunctionExpr&>(expr);
      if (f.over) {
        // A window function is no aggregate, but its arguments and keys may hold some.
        for (const auto& p : f.over->partition_by) {
          if (ContainsAggregateCall(*p)) return true;
        }
        for (const auto& o : f.over->order_by) {
          if (ContainsAggregateCall(*o.expr)) return true;
        }
      } else if (IsAggregateFunction(AsciiLower(f.name))) {
        return true;
      }
      for (const auto& a : f.args) {
        if (ContainsAggregateCall(*a)) return true;
      }
      return false;
    }
    case ExprKind::kOperator:
      for (const auto& c : static_cast<const OperatorExpr&>(expr).children) {
        if (ContainsAggregateCall(*c)) return true;
      }
      return false;
    case ExprKind::kCast:
      return ContainsAggregateCall(*static_cast<const CastExpr&>(expr).child);
    case ExprKind::kCase: {
      const auto& c = static_cast<const CaseExpr&>(expr);
      if (c.operand && ContainsAggregateCall(*c.operand)) return true;
      for (const auto& [w, t] : c.when_then) {
        if (ContainsAggregateCall(*w) || ContainsAggregateCall(*t)) return true;
      }
      return c.else_expr && ContainsAggregateCall(*c.else_expr);
    }
    case ExprKind::kInList: {
      const auto& in = static_cast<const InListExpr&>(expr);
      if (ContainsAggregateCall(*in.value)) return true;
      for (const auto& i : in.list) {
        if (ContainsAggregateCall(*i)) return true;
      }
      return false;
    }
    case ExprKind::kBetween: {
      const auto& b = static_cast<const BetweenExpr&>(expr);
      return ContainsAggregateCall(*b.value) || ContainsAggregateCall(*b.low) ||
             ContainsAggregateCall(*b.high);
    }
    case ExprKind::kLike: {
      const auto& l = static_cast<const LikeExpr&>(expr);
      return ContainsAggregateCall(*l.value) || ContainsAggregateCall(*l.pattern);
    }
    case ExprKind::kIsNull:
      return ContainsAggregateCall(*static_cast<const IsNullExpr&>(expr).child);
    case ExprKind::kIsBool:
      return ContainsAggregateCall(*static_cast<const IsBoolExpr&>(expr).child);
    default:
      return false;
  }
}

bool ContainsAggregateInQuery(const ast::SelectNode& node) {
  for (const auto& item : node.select_list) {
    if (ContainsAggregateCall(*item.expr)) return true;
    if (item.expr->kind == ast::ExprKind::kStar) {  // * REPLACE (sum(x) AS x)
      for (const auto& [name, e] : static_cast<const ast::StarExpr&>(*item.expr).replace) {
        if (ContainsAggregateCall(*e)) return true;
      }
    }
  }
  return node.having && ContainsAggregateCall(*node.having);
}

std::string BoundIdentityKey(const BoundExpr& expr) {
  auto copy = expr.Copy();
  QualifyColumnNames(*copy);
  return copy->ToString();
}

void ApplyColumnAliases(ScopeEntry& entry, const std::vector<std::string>& aliases) {
  if (entry.alias == ast::kRowInAlias && aliases.size() != entry.names.size()) {
    throw BinderError("a row of {} values IN a subquery of {} columns: their counts must match",
                      aliases.size(), entry.names.size());
  }
  if (entry.alias == ast::kArraySubqueryAlias && entry.names.size() != 1) {
    throw BinderError("ARRAY(subquery) must return one column, not {}", entry.names.size());
  }
  if (aliases.size() > entry.names.size()) {
    throw BinderError("table '{}' has {} columns but {} column aliases were given", entry.alias,
                      entry.names.size(), aliases.size());
  }
  for (size_t i = 0; i < aliases.size(); i++)
    entry.names[i] = aliases[i];
}

Binder::Binder(const Catalog& catalog, const std::string* sql) : catalog_(catalog), sql_(sql) {
  // A prepared statement's values reach every binder of the statement, writes' too.
  if (const auto session = SessionState::Current()) parameters_ = session->parameters();
}

void Binder::RethrowAt(int location) const {
  try {
    throw;
  } catch (const Error& e) {
    const std::string message = e.what();
    // Only the innermost expression names the position.
    if (!sql_ || location < 0 || message.find("\nLINE ") != std::string::npos) throw;
    const std::string positioned = message + "\n" + FormatErrorPosition(*sql_, location);
    switch (e.kind()) {
      case ErrorKind::kBinder:
        throw BinderError(positioned);
      case ErrorKind::kNotSupported:
        throw NotSupportedError(positioned);
      case ErrorKind::kOutOfRange:
        throw OutOfRangeError(positioned);
      case ErrorKind::kInvalidInput:
        throw InvalidInputError(positioned);
      default:
        throw;
    }
  }
}

BoundQuery Binder::Bind(const ast::QueryNode& query) {
  return BindQueryNode(query, nullptr);
}

BoundQuery Binder::BindQueryNode(const ast::QueryNode& node, Scope* outer) {
  if (++depth_ > kMaxDepth) throw BinderError("queries nest deeper than {} levels", kMaxDepth);
  std::map<std::string, const ast::CommonTableExpr*> ctes;
  for (const auto& cte : node.ctes) {
    if (cte.dml) {
      throw BinderError(
          "INSERT, UPDATE or DELETE in WITH ('{}') is supported only before a SELECT (not in a "
          "subquery or a view, nor before INSERT, UPDATE or DELETE)",
          cte.name);
    }
    ctes[AsciiLower(cte.name)] = &cte;
    cte_indexes_[&cte] = next_cte_index_++;
  }
  cte_stack_.push_back(std::move(ctes));
  BoundQuery result;
  switch (node.kind) {
    case ast::QueryNodeKind::kSelect:
      result = BindSelect(static_cast<const ast::SelectNode&>(node), outer);
      break;
    case ast::QueryNodeKind::kSetOperation:
      result = ApplyOrderLimit(
          node, BindSetOperation(static_cast<const ast::SetOperationNode&>(node), outer));
      break;
    case ast::QueryNodeKind::kValues:
      result = ApplyOrderLimit(node, BindValues(static_cast<const ast::ValuesNode&>(node)));
      break;
  }
  if (!node.ctes.empty()) result.plan = ResolveCtes(node, std::move(result.plan));
  cte_stack_.pop_back();
  depth_--;
  return result;
}

BoundQuery Binder::BindValues(const ast::ValuesNode& node) {
  // An INSERT's VALUES list (only the first VALUES bound): its string literals are cast to
  // their columns' types, and a column whose values have no common type takes its column's.
  const std::vector<LogicalType> target = std::move(values_target_types_);
  values_target_types_.clear();
  auto values = std::make_unique<LogicalValues>();
  values->table_index = NewTableIndex();
  ExprContext ctx;
  ctx.clause = "VALUES list";
  std::vector<std::vector<BoundExprPtr>> rows;
  size_t width = node.rows.empty() ? 0 : node.rows[0].size();
  std::vector<std::optional<LogicalType>> types(width);
  // A string literal takes the type of the column's other values ('42' beside 3 is 42), as
  // DuckDB's; a column of string literals only is VARCHAR.
  std::vector<bool> string_literals(width, false);
  const bool targeted = target.size() == width;
  std::vector<bool> mixed(width, false);  // targeted: no common type, the column's is taken
  for (const auto& row : node.rows) {
    if (row.size() != width) throw BinderError("VALUES lists must all have the same length");
    std::vector<BoundExprPtr> bound;
    for (size_t c = 0; c < row.size(); c++) {
      bound.push_back(BindExpr(*row[c], ctx));
      const bool literal =
          row[c]->kind == ast::ExprKind::kConstant && bound.back()->type.id() == TypeId::kVarchar;
      const bool to_target = targeted && target[c].valid();
      if (literal && to_target) {
        bound.back() = CastTo(std::move(bound.back()), target[c]);
      } else if (literal) {
        string_literals[c] = true;
        continue;
      }
      if (bound.back()->type.valid() && !mixed[c]) {
        const auto common =
            types[c] ? CommonType(*types[c], bound.back()->type) : bound.back()->type;
        // Into a column the values are cast to its type one by one (3 into VARCHAR).
        if (!common && !to_target) {
          throw BinderError("VALUES column {} mixes incompatible types", c + 1);
        }
        if (!common) mixed[c] = true;
        types[c] = common;
      }
    }
    rows.push_back(std::move(bound));
  }
  for (size_t c = 0; c < width; c++) {
    if (mixed[c]) {
      values->types.push_back(target[c]);
      values->names.push_back("col" + std::to_string(c));
      continue;
    }
    values->types.push_back(types[c]             ? *types[c]
                            : string_literals[c] ? LogicalType::Varchar()
                                                 : LogicalType::Integer());
    values->names.push_back("col" + std::to_string(c));
  }
  for (auto& row : rows) {
    for (size_t c = 0; c < width; c++)
      row[c] = CastTo(std::move(row[c]), values->types[c]);
    values->rows.push_back(std::move(row));
  }
  BoundQuery q;
  q.names = values->names;
  q.types = values->types;
  q.plan = std::move(values);
  return q;
}

// WHERE: plain conjuncts become a filter; [NOT] IN (SELECT ...) and [NOT] EXISTS become
// semi, anti and mark joins (never evaluated row by row).
LogicalOperatorPtr Binder::BindWhere(
    const ast::Expr& where, LogicalOperatorPtr plan, Scope& scope,
    const std::function<BoundExprPtr(const std::string&)>* aliases) {
  std::vector<const ast::Expr*> conjuncts;
  std::function<void(const ast::Expr&)> split = [&](const ast::Expr& e) {
    if (e.kind == ast::ExprKind::kOperator &&
        static_cast<const ast::OperatorExpr&>(e).op == "AND") {
      for (const auto& c : static_cast<const ast::OperatorExpr&>(e).children)
        split(*c);
      return;
    }
    conjuncts.push_back(&e);
  };
  split(where);
  std::vector<BoundExprPtr> filters;
  for (const ast::Expr* conjunct : conjuncts) {
    try {
      bool negated = false;
      const ast::Expr* e = conjunct;
      if (e->kind == ast::ExprKind::kOperator &&
          static_cast<const ast::OperatorExpr*>(e)->op == "NOT" &&
          static_cast<const ast::OperatorExpr*>(e)->children[0]->kind == ast::ExprKind::kSubquery) {
        negated = true;
        e = static_cast<const ast::OperatorExpr*>(e)->children[0].get();
      }
      // Scalar subqueries, ANY/ALL comparisons and IN/EXISTS below OR or NOT are values: they
      // are joined below the filter by PlanSubqueries.
      const auto* as_subquery =
          e->kind == ast::ExprKind::kSubquery ? static_cast<const ast::SubqueryExpr*>(e) : nullptr;
      const bool semi_join_form =
          as_subquery &&
          (as_subquery->subquery_kind == ast::SubqueryKind::kExists ||
           (as_subquery->subquery_kind == ast::SubqueryKind::kAny && as_subquery->op == "="));
      auto bind_as_value = [&] {
        ExprContext ctx;
        ctx.scope = &scope;
        ctx.clause = "WHERE clause";
        ctx.subqueries = true;
        ctx.select_aliases = aliases;
        auto bound = RequireBoolean(BindExpr(*conjunct, ctx), "WHERE condition");
        SplitConjunction(std::move(bound), filters);
      };
      if (!semi_join_form) {
        bind_as_value();
        continue;
      }
      // A correlated subquery this semi join form cannot take (aggregates, LIMIT, set
      // operations, outer columns elsewhere than in WHERE) is bound as a value instead, which
      // PlanSubqueries decorrelates whatever its shape.
      struct NotSemiJoinForm {};
      const auto& sub = *as_subquery;
      negated = negated != sub.negated;
      // Bind the subquery with this query as its outer scope; correlated equality conjuncts of
      // its WHERE become join keys.
      Scope sub_scope;
      sub_scope.outer = &scope;
      auto join = std::make_unique<LogicalJoin>();
      LogicalOperatorPtr right;
      // Correlated conditions other than `inner = outer`: checked per pair by the join.
      std::vector<BoundExprPtr> residuals;
      bool correlated = false;
      std::vector<ColumnBinding> outer_bindings;
      try {
        // First try the subquery as an uncorrelated query.
        size_t saved_index = next_table_index_;
        try {
          BoundQuery q = BindQueryNode(*sub.query, nullptr);
          right = std::move(q.plan);
          if (sub.subquery_kind == ast::SubqueryKind::kAny) {
            if (q.types.size() != 1)
              throw BinderError("IN subquery must return exactly one column");
            ExprContext ctx;
            ctx.scope = &scope;
            ctx.clause = "IN expression";
            ctx.select_aliases = aliases;
            auto left_key = BindExpr(*sub.left, ctx);
            auto bindings = right->GetColumnBindings();
            BoundExprPtr right_key =
                std::make_unique<BoundColumnRef>(q.types[0], bindings[0], q.names[0]);
            join->conditions.push_back(
                InSubqueryCondition(std::move(left_key), std::move(right_key)));
          }
        } catch (const BinderError&) {
          // Correlated: bind FROM and WHERE of the subquery against the outer scope.
          next_table_index_ = static_cast<uint32_t>(saved_index);
          right.reset();
          join->conditions.clear();
        }
        if (!right) {
          correlated = true;
          // Uncorrelated set operations and VALUES bound as ordinary queries above.
          if (sub.query->kind != ast::QueryNodeKind::kSelect) throw NotSemiJoinForm();
          const auto& select = static_cast<const ast::SelectNode&>(*sub.query);
          if (!select.from || !select.group_by.empty() || select.group_by_all ||
              ContainsAggregateInQuery(select) || select.having || select.limit || select.qualify) {
            throw NotSemiJoinForm();
          }
          right = BindTableRef(*select.from, sub_scope);
          std::vector<BoundExprPtr> inner_filters;
          if (select.where) {
            ExprContext ctx;
            ctx.scope = &sub_scope;
            ctx.clause = "WHERE clause of a subquery";
            try {
              SplitConjunction(RequireBoolean(BindExpr(*select.where, ctx), "WHERE condition"),
                               inner_filters);
            } catch (const NotSupportedError&) {
              // Subqueries in it: bound as a value (where a real error shows again).
              throw NotSemiJoinForm();
            }
          }
          // Classify: conjuncts touching outer columns must be `inner = outer` equalities.
          std::set<uint32_t> inner_tables;
          for (const auto& b : right->GetColumnBindings())
            inner_tables.insert(b.table_index);
          const std::set<uint32_t> outer_tables = ProducedTables(*plan);
          std::vector<BoundExprPtr> local;
          for (auto& f : inner_filters) {
            auto refs = ReferencedBindings(*f);
            bool touches_outer = false;
            for (const auto& r : refs)
              touches_outer = touches_outer || !inner_tables.count(r.table_index);
            if (!touches_outer) {
              local.push_back(std::move(f));
              continue;
            }
            if (f->kind == BoundExprKind::kFunction &&
                static_cast<BoundFunction&>(*f).function.name == "=") {
              auto& eq = static_cast<BoundFunction&>(*f);
              auto side_is_inner = [&](const BoundExpr& x) {
                for (const auto& r : ReferencedBindings(x)) {
                  if (!inner_tables.count(r.table_index)) return false;
                }
                return true;
              };
              // Columns of this query only: those of queries further out stay in the residual.
              auto side_is_outer = [&](const BoundExpr& x) {
                auto rs = ReferencedBindings(x);
                if (rs.empty()) return false;
                for (const auto& r : rs) {
                  if (!outer_tables.count(r.table_index)) return false;
                }
                return true;
              };
              JoinCondition condition;
              if (side_is_outer(*eq.args[0]) && side_is_inner(*eq.args[1])) {
                condition.left = std::move(eq.args[0]);
                condition.right = std::move(eq.args[1]);
              } else if (side_is_inner(*eq.args[0]) && side_is_outer(*eq.args[1])) {
                condition.left = std::move(eq.args[1]);
                condition.right = std::move(eq.args[0]);
              } else {
                residuals.push_back(std::move(f));
                continue;
              }
              join->conditions.push_back(std::move(condition));
              continue;
            }
            residuals.push_back(std::move(f));
          }
          // Outer columns must only be used by the extracted conditions.
          if (!local.empty()) {
            auto filter = std::make_unique<LogicalFilter>();
            filter->conditions = std::move(local);
            filter->children.push_back(std::move(right));
            right = std::move(filter);
          }
          if (sub.subquery_kind == ast::SubqueryKind::kAny) {
            // x IN (SELECT y FROM ... WHERE correlated): one more key x = y.
            if (select.select_list.size() != 1)
              throw BinderError("IN subquery must return exactly one column");
            ExprContext inner_ctx;
            inner_ctx.scope = &sub_scope;
            auto right_key = BindExpr(*select.select_list[0].expr, inner_ctx);
            ExprContext outer_ctx;
            outer_ctx.scope = &scope;
            outer_ctx.select_aliases = aliases;
            auto left_key = BindExpr(*sub.left, outer_ctx);
            if (ReferencesOutside(*right_key, inner_tables)) throw NotSemiJoinForm();
            join->conditions.push_back(
                InSubqueryCondition(std::move(left_key), std::move(right_key)));
          }
          // Outer columns anywhere else (a JOIN condition, a nested subquery) need the
          // general decorrelation.
          if (SubtreeReferencesOutside(*right, ProducedTables(*right))) throw NotSemiJoinForm();
        }
      } catch (const NotSemiJoinForm&) {
        bind_as_value();
        continue;
      }
      if (sub.subquery_kind == ast::SubqueryKind::kExists) {
        // Without conditions (uncorrelated) the join only asks whether the subquery has a row.
        join->join_kind = negated ? JoinKind::kAnti : JoinKind::kSemi;
      } else if (!negated) {
        join->join_kind = JoinKind::kSemi;
      } else if (correlated) {
        // x NOT IN (correlated): no row of x's group where x = y is TRUE or NULL. The NULLs that
        // matter are those of the group, so this is an anti join, not a mark join (whose NULL
        // knowledge is global).
        join->join_kind = JoinKind::kAnti;
        JoinCondition in = std::move(join->conditions.back());
        join->conditions.pop_back();
        std::vector<BoundExprPtr> args;
        args.push_back(std::move(in.left));
        args.push_back(std::move(in.right));
        BoundExprPtr equal = BindFunctionCall("=", std::move(args));
        std::vector<BoundExprPtr> equal_or_unknown;
        equal_or_unknown.push_back(std::make_unique<BoundIsNull>(equal->Copy(), false));
        equal_or_unknown.push_back(std::move(equal));
        residuals.push_back(std::make_unique<BoundConjunction>(false, std::move(equal_or_unknown)));
      } else {
        // NOT IN: a row survives only when the mark is FALSE (no match and no NULL involved).
        join->join_kind = JoinKind::kMark;
        join->mark_index = NewTableIndex();
      }
      if (!residuals.empty()) join->residual = MakeConjunction(std::move(residuals));
      join->children.push_back(std::move(plan));
      join->children.push_back(std::move(right));
      if (join->join_kind == JoinKind::kMark) {
        auto mark = std::make_unique<BoundColumnRef>(LogicalType::Boolean(),
                                                     ColumnBinding{join->mark_index, 0}, "mark");
        auto not_mark = std::make_unique<BoundNot>(std::move(mark));
        auto filter = std::make_unique<LogicalFilter>();
        filter->conditions.push_back(std::move(not_mark));
        filter->children.push_back(std::move(join));
        plan = std::move(filter);
        // The mark column stays in the output; the final projection drops it.
      } else {
        plan = std::move(join);
      }
    } catch (const Error&) {
      RethrowAt(conjunct->location);
    }
  }
  if (!filters.empty()) {
    std::vector<BoundExprPtr*> with_subqueries;
    for (auto& f : filters)
      with_subqueries.push_back(&f);
    plan = PlanSubqueries(std::move(plan), with_subqueries);
    auto filter = std::make_unique<LogicalFilter>();
    filter->conditions = std::move(filters);
    filter->children.push_back(std::move(plan));
    plan = std::move(filter);
  }
  return plan;
}

}  // namespace shears

// Binding of queries: FROM, WHERE (with IN/EXISTS subqueries as joins), GROUP BY, HAVING,
// the select list, DISTINCT, ORDER BY, LIMIT, set operations, VALUES, views and CTEs.

#include "planner/binder.h"

#include <algorithm>
#include <cctype>
#include <deque>
#include <set>

#include "common/error.h"
#include "common/string_util.h"
#include "execution/expression_executor.h"
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

// Replaces, inside `expr`, every subtree equal to a GROUP BY expression by a reference to the
// group column, then checks that no plain column is left outside aggregates.
BoundExprPtr BindToGroups(BoundExprPtr expr, AggregateInfo& info, const char* clause) {
  const std::string key = BoundIdentityKey(*expr);
  for (size_t i = 0; i < info.group_keys.size(); i++) {
    if (info.group_keys[i] == key) {
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

bool ContainsAggregateCall(const ast::Expr& expr);

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

}  // namespace

std::string BoundIdentityKey(const BoundExpr& expr) {
  auto copy = expr.Copy();
  QualifyColumnNames(*copy);
  return copy->ToString();
}

void ApplyColumnAliases(ScopeEntry& entry, const std::vector<std::string>& aliases) {
  if (aliases.size() > entry.names.size()) {
    throw BinderError("table '{}' has {} columns but {} column aliases were given", entry.alias,
                      entry.names.size(), aliases.size());
  }
  for (size_t i = 0; i < aliases.size(); i++)
    entry.names[i] = aliases[i];
}

// Walks an AST expression looking for aggregate function calls (not inside subqueries).
namespace {
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
      if (!entry.Matches(i, false)) continue;
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
}  // namespace

Binder::Binder(const Catalog& catalog, const std::string* sql) : catalog_(catalog), sql_(sql) {}

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
  auto values = std::make_unique<LogicalValues>();
  values->table_index = NewTableIndex();
  ExprContext ctx;
  ctx.clause = "VALUES list";
  std::vector<std::vector<BoundExprPtr>> rows;
  size_t width = node.rows.empty() ? 0 : node.rows[0].size();
  std::vector<std::optional<LogicalType>> types(width);
  for (const auto& row : node.rows) {
    if (row.size() != width) throw BinderError("VALUES lists must all have the same length");
    std::vector<BoundExprPtr> bound;
    for (size_t c = 0; c < row.size(); c++) {
      bound.push_back(BindExpr(*row[c], ctx));
      if (bound.back()->type.valid()) {
        types[c] = types[c] ? CommonType(*types[c], bound.back()->type) : bound.back()->type;
        if (!types[c]) throw BinderError("VALUES column {} mixes incompatible types", c + 1);
      }
    }
    rows.push_back(std::move(bound));
  }
  for (size_t c = 0; c < width; c++) {
    values->types.push_back(types[c] ? *types[c] : LogicalType::Integer());
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

LogicalOperatorPtr Binder::BindDataset(std::shared_ptr<const Dataset> dataset,
                                       const std::string& table_name, const std::string& alias,
                                       const ast::TableRef& ref, Scope& scope) {
  auto get = std::make_unique<LogicalGet>();
  get->table_index = NewTableIndex();
  get->dataset = std::move(dataset);
  get->table_name = table_name;
  ScopeEntry entry;
  entry.alias = alias;
  for (size_t i = 0; i < get->dataset->columns().size(); i++) {
    const auto& column = get->dataset->columns()[i];
    // Unreadable columns (nested) stay visible by name so using one is a clear error later;
    // they are not in the scan unless referenced.
    get->column_ids.push_back(static_cast<int>(i));
    entry.names.push_back(column.name);
    entry.types.push_back(column.type.valid() ? column.type : LogicalType::Varchar());
    entry.bindings.push_back(ColumnBinding{get->table_index, static_cast<uint32_t>(i)});
  }
  ApplyColumnAliases(entry, ref.column_aliases);
  scope.entries.push_back(std::move(entry));
  return get;
}

LogicalOperatorPtr Binder::BindTableRef(const ast::TableRef& ref, Scope& scope) {
  try {
    return BindTableRefAt(ref, scope);
  } catch (const Error&) {
    RethrowAt(ref.location);
  }
}

LogicalOperatorPtr Binder::BindTableRefAt(const ast::TableRef& ref, Scope& scope) {
  switch (ref.kind) {
    case ast::TableRefKind::kBaseTable: {
      const auto& base = static_cast<const ast::BaseTableRef&>(ref);
      const std::string name = AsciiLower(base.name.back());
      const std::string alias = ref.alias.empty() ? base.name.back() : ref.alias;
      // A recursive CTE naming itself, then CTEs (innermost query outwards), then views.
      if (auto working = BindWorkingTable(name)) {
        ScopeEntry entry = EntryFor(alias, *working->plan, working->names);
        ApplyColumnAliases(entry, ref.column_aliases);
        scope.entries.push_back(std::move(entry));
        return std::move(working->plan);
      }
      for (auto it = cte_stack_.rbegin(); it != cte_stack_.rend(); ++it) {
        auto found = it->find(name);
        if (found == it->end()) continue;
        const ast::CommonTableExpr* cte = found->second;
        // Bind the CTE's query without the CTEs of its own level visible after it.
        BoundQuery q =
            cte->recursive ? BindRecursiveCte(*cte) : BindQueryNode(*cte->query, nullptr);
        ScopeEntry entry = EntryFor(alias, *q.plan, q.names);
        ApplyColumnAliases(entry, cte->column_aliases);
        ApplyColumnAliases(entry, ref.column_aliases);
        scope.entries.push_back(std::move(entry));
        return BindCteReference(*cte, std::move(q));
      }
      if (const auto view = catalog_.FindView(name)) {
        auto statements = Parser::Parse(view->sql);
        if (statements.size() != 1 || statements[0]->kind != ast::StatementKind::kSelect) {
          throw InternalError("view '{}' does not hold one query", name);
        }
        const std::string* query_sql = sql_;
        sql_ = nullptr;
        BoundQuery q;
        try {
          q = BindQueryNode(*static_cast<ast::SelectStatement&>(*statements[0]).query, nullptr);
        } catch (...) {
          sql_ = query_sql;
          throw;
        }
        sql_ = query_sql;
        ScopeEntry entry = EntryFor(alias, *q.plan, q.names);
        ApplyColumnAliases(entry, view->column_aliases);
        ApplyColumnAliases(entry, ref.column_aliases);
        scope.entries.push_back(std::move(entry));
        return std::move(q.plan);
      }
      if (auto dataset = catalog_.TableDataset(name)) {
        return BindDataset(std::move(dataset), name, alias, ref, scope);
      }
      if (replacement_scan_ && base.name.size() == 1) {
        if (auto dataset = replacement_scan_(base.name.back())) {
          return BindDataset(std::move(dataset), base.name.back(), alias, ref, scope);
        }
      }
      throw BinderError(
          "table or view '{}' does not exist (to read files, use FROM 'path' or "
          "read_parquet('path'))",
          base.name.back());
    }
    case ast::TableRefKind::kTableFunction:
      return BindTableFunction(static_cast<const ast::TableFunctionRef&>(ref), scope);
    case ast::TableRefKind::kSubquery: {
      const auto& sub = static_cast<const ast::SubqueryRef&>(ref);
      // It sees the enclosing queries (and, LATERAL, the FROM items before it: see kJoin).
      BoundQuery q = BindQueryNode(*sub.query, scope.outer);
      ScopeEntry entry = EntryFor(ref.alias, *q.plan, q.names);
      ApplyColumnAliases(entry, ref.column_aliases);
      scope.entries.push_back(std::move(entry));
      return std::move(q.plan);
    }
    case ast::TableRefKind::kJoin: {
      const auto& join = static_cast<const ast::JoinRef&>(ref);
      Scope left_scope, right_scope;
      left_scope.outer = scope.outer;
      right_scope.outer = scope.outer;
      auto left = BindTableRef(*join.left, left_scope);
      // LATERAL (subquery): the columns of the left side are outer columns for it.
      Scope lateral_scope;
      const bool lateral = join.right->kind == ast::TableRefKind::kSubquery &&
                           static_cast<const ast::SubqueryRef&>(*join.right).lateral;
      if (lateral) {
        if (join.join_type == ast::JoinType::kRight || join.join_type == ast::JoinType::kFull) {
          throw BinderError("the join with a LATERAL subquery must be INNER or LEFT");
        }
        lateral_scope.entries = left_scope.entries;
        lateral_scope.outer = scope.outer;
        right_scope.outer = &lateral_scope;
      }
      auto right = BindTableRef(*join.right, right_scope);
      auto op = std::make_unique<LogicalJoin>();
      if (lateral) {
        // Decorrelated like any subquery (dependent_join.h): joined on the left side's
        // distinct values it uses.
        FlattenedSubquery flat = FlattenDependentJoin(*this, *left, std::move(right), nullptr);
        right = std::move(flat.plan);
        op->conditions = std::move(flat.keys);
      }
      switch (join.join_type) {
        case ast::JoinType::kInner:
          op->join_kind = JoinKind::kInner;
          break;
        case ast::JoinType::kLeft:
          op->join_kind = JoinKind::kLeft;
          break;
        case ast::JoinType::kRight:
          op->join_kind = JoinKind::kRight;
          break;
        case ast::JoinType::kFull:
          op->join_kind = JoinKind::kFull;
          break;
        case ast::JoinType::kCross:
          op->join_kind = JoinKind::kCross;
          break;
      }
      Scope both;
      both.outer = scope.outer;
      for (auto& e : left_scope.entries)
        both.entries.push_back(e);
      for (auto& e : right_scope.entries)
        both.entries.push_back(e);
      std::vector<BoundExprPtr> conjuncts;
      std::vector<std::string> using_columns = join.using_columns;
      if (join.natural) {
        for (const auto& le : left_scope.entries) {
          for (size_t i = 0; i < le.names.size(); i++) {
            if (!le.Matches(i, false)) continue;
            for (const auto& re : right_scope.entries) {
              for (size_t j = 0; j < re.names.size(); j++) {
                if (re.Matches(j, false) && AsciiLower(le.names[i]) == AsciiLower(re.names[j])) {
                  using_columns.push_back(le.names[i]);
                }
              }
            }
          }
        }
      }
      // Where each join column is: (entry, column) in both.entries.
      struct UsingColumn {
        size_t left_entry, left_column, right_entry, right_column;
      };
      std::vector<UsingColumn> usings;
      auto find_column = [&](size_t begin, size_t end, const std::string& name) {
        std::optional<std::pair<size_t, size_t>> found;
        for (size_t e = begin; e < end; e++) {
          const ScopeEntry& entry = both.entries[e];
          for (size_t c = 0; c < entry.names.size(); c++) {
            if (AsciiLower(entry.names[c]) != AsciiLower(name) || !entry.Matches(c, false))
              continue;
            if (found) {
              throw BinderError("USING column '{}' is ambiguous on one side of the join", name);
            }
            found = std::make_pair(e, c);
          }
        }
        if (!found) {
          throw BinderError("USING column '{}' must exist on both sides of the join", name);
        }
        return *found;
      };
      const size_t left_entries = left_scope.entries.size();
      for (const auto& column : using_columns) {
        auto [le, lc] = find_column(0, left_entries, column);
        auto [re, rc] = find_column(left_entries, both.entries.size(), column);
        const ScopeEntry& l = both.entries[le];
        const ScopeEntry& r = both.entries[re];
        std::vector<BoundExprPtr> args;
        args.push_back(std::make_unique<BoundColumnRef>(l.types[lc], l.bindings[lc], l.names[lc]));
        args.push_back(std::make_unique<BoundColumnRef>(r.types[rc], r.bindings[rc], r.names[rc]));
        conjuncts.push_back(BindFunctionCall("=", std::move(args)));
        usings.push_back({le, lc, re, rc});
      }
      if (join.condition) {
        ExprContext ctx;
        ctx.scope = &both;
        ctx.clause = "JOIN condition";
        auto condition = RequireBoolean(BindExpr(*join.condition, ctx), "JOIN condition");
        SplitConjunction(std::move(condition), conjuncts);
      }
      if ((!conjuncts.empty() || !op->conditions.empty()) && op->join_kind == JoinKind::kCross)
        op->join_kind = JoinKind::kInner;
      // Conditions are split into equi-join keys by the optimizer; keep them as residual here.
      if (!conjuncts.empty()) op->residual = MakeConjunction(std::move(conjuncts));
      op->children.push_back(std::move(left));
      op->children.push_back(std::move(right));
      const bool full = op->join_kind == JoinKind::kFull;
      const bool merges = full || op->join_kind == JoinKind::kRight;
      LogicalOperatorPtr result = std::move(op);
      if (merges && !usings.empty()) {
        // The join column of an unmatched right row is only on the right side: a projection
        // adds COALESCE(l.c, r.c) (FULL) or r.c (RIGHT) as the column `c` and `*` show.
        auto projection = std::make_unique<LogicalProjection>();
        projection->table_index = NewTableIndex();
        const auto bindings = result->GetColumnBindings();
        const auto types = result->GetTypes();
        for (size_t i = 0; i < bindings.size(); i++) {
          projection->expressions.push_back(
              std::make_unique<BoundColumnRef>(types[i], bindings[i], "#" + std::to_string(i)));
        }
        for (auto& entry : both.entries) {
          for (auto& b : entry.bindings) {
            const auto at = std::find(bindings.begin(), bindings.end(), b) - bindings.begin();
            b = ColumnBinding{projection->table_index, static_cast<uint32_t>(at)};
          }
        }
        for (const auto& u : usings) {
          ScopeEntry& l = both.entries[u.left_entry];
          ScopeEntry& r = both.entries[u.right_entry];
          const uint32_t l_at = l.bindings[u.left_column].column_index;
          const uint32_t r_at = r.bindings[u.right_column].column_index;
          auto common = CommonType(types[l_at], types[r_at]);
          if (!common) {
            throw BinderError("USING column '{}' has incompatible types {} and {}",
                              l.names[u.left_column], types[l_at].ToString(),
                              types[r_at].ToString());
          }
          BoundExprPtr merged = CastTo(projection->expressions[r_at]->Copy(), *common);
          if (full) {
            std::vector<BoundExprPtr> args;
            args.push_back(CastTo(projection->expressions[l_at]->Copy(), *common));
            args.push_back(std::move(merged));
            merged = BindFunctionCall("coalesce", std::move(args));
          }
          const auto index = static_cast<uint32_t>(projection->expressions.size());
          projection->expressions.push_back(std::move(merged));
          // l.c stays reachable by its alias; the merged column takes its place for c and *.
          l.names.push_back(l.names[u.left_column]);
          l.types.push_back(l.types[u.left_column]);
          l.bindings.push_back(l.bindings[u.left_column]);
          l.SetVisibility(l.names.size() - 1, ColumnVisibility::kQualifiedOnly);
          l.types[u.left_column] = *common;
          l.bindings[u.left_column] = ColumnBinding{projection->table_index, index};
          l.SetVisibility(u.left_column, ColumnVisibility::kUnqualifiedOnly);
          r.SetVisibility(u.right_column, ColumnVisibility::kQualifiedOnly);
        }
        projection->children.push_back(std::move(result));
        result = std::move(projection);
      } else {
        for (const auto& u : usings)
          both.entries[u.right_entry].SetVisibility(u.right_column,
                                                    ColumnVisibility::kQualifiedOnly);
      }
      for (auto& e : both.entries)
        scope.entries.push_back(std::move(e));
      return result;
    }
  }
  throw InternalError("unknown table reference");
}

// WHERE: plain conjuncts become a filter; [NOT] IN (SELECT ...) and [NOT] EXISTS become
// semi, anti and mark joins (never evaluated row by row).
LogicalOperatorPtr Binder::BindWhere(const ast::Expr& where, LogicalOperatorPtr plan,
                                     Scope& scope) {
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
  if (node.where) plan = BindWhere(*node.where, std::move(plan), scope);

  // Expand the select list (stars, COLUMNS(...)) into (AST expression, name) pairs.
  struct Item {
    const ast::Expr* expr = nullptr;  // null for star-expanded columns
    std::string name;
    ColumnBinding binding;
    LogicalType type;
    const ExprContext::ColumnsPick* pick = nullptr;  // what COLUMNS(...) in expr stands for
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
          if (!entry.Matches(i, !star.relation.empty())) continue;
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
    items.push_back({select_item.expr.get(), name, {}, {}});
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
  const bool aggregate = !group_by.empty() || !node.grouping_sets.empty() || node.group_by_all ||
                         ContainsAggregateInQuery(node);
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
            bound = bind_item(item, group_ctx);
          }
        }
      }
      if (!bound && g->kind == ast::ExprKind::kColumnRef &&
          static_cast<const ast::ColumnRefExpr&>(*g).names.size() == 1) {
        const std::string& n = static_cast<const ast::ColumnRefExpr&>(*g).names[0];
        if (!ResolveColumn(scope, "", n)) {
          for (const auto& item : items) {
            if (item.expr && AsciiLower(item.name) == AsciiLower(n)) {
              bound = bind_item(item, group_ctx);
              break;
            }
          }
        }
      }
      if (!bound) bound = BindExpr(*g, group_ctx);
      bound = TypeUntyped(std::move(bound));
      const std::string key = BoundIdentityKey(*bound);
      const auto same = std::find(info.group_keys.begin(), info.group_keys.end(), key);
      group_of.push_back(static_cast<size_t>(same - info.group_keys.begin()));
      if (same != info.group_keys.end()) continue;  // GROUP BY a, a groups by a once
      info.group_keys.push_back(key);
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
  for (auto& item : items) {
    BoundExprPtr bound = item.expr
                             ? bind_item(item, select_ctx)
                             : std::make_unique<BoundColumnRef>(item.type, item.binding, item.name);
    // Typed before matching the GROUP BY keys, which were typed the same way.
    bound = TypeUntyped(std::move(bound));
    if (aggregate) bound = BindToGroups(std::move(bound), info, "select list");
    bound->alias = item.name;
    select_exprs.push_back(std::move(bound));
  }
  BoundExprPtr having;
  if (node.having) {
    if (!aggregate) throw BinderError("HAVING needs GROUP BY or an aggregate");
    ExprContext having_ctx = select_ctx;
    having_ctx.clause = "HAVING clause";
    having_ctx.windows = nullptr;
    having = RequireBoolean(BindToGroups(BindExpr(*node.having, having_ctx), info, "HAVING clause"),
                            "HAVING condition");
  }
  // QUALIFY and ORDER BY expressions may name select items by their alias (as in DuckDB;
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
    bound_order.nulls_first =
        order.nulls_first.value_or(!nulls_last_by_default_ && order.descending);
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
      bound.nulls_first = order.nulls_first.value_or(!nulls_last_by_default_ && order.descending);
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
      auto bound = BindExpr(e, ctx);
      // Not folded: its evaluation fails (LIMIT 1 / 0) or is not deterministic (random()).
      Value v = bound->kind == BoundExprKind::kConstant
                    ? static_cast<BoundConstant&>(*bound).value
                    : ExpressionExecutor::EvaluateConstant(*bound);
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

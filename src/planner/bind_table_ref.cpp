// Binding of FROM items: tables, views, CTE references, files, table functions, subqueries
// and joins.

#include "planner/binder.h"

#include <algorithm>
#include <cctype>
#include <deque>
#include <filesystem>
#include <functional>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/error.h"
#include "common/string_util.h"
#include "function/function.h"
#include "function/regex_match.h"
#include "parser/ast_visit.h"
#include "parser/parser.h"
#include "planner/bind_context.h"
#include "planner/dependent_join.h"
#include "planner/generated_columns.h"
#include "planner/metadata_query.h"
namespace shears {

BoundExprPtr BindFunctionCall(const std::string& name, std::vector<BoundExprPtr> args);
BoundExprPtr RequireBoolean(BoundExprPtr expr, const char* what);  // bind_expression.cpp

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

BoundQuery Binder::BindQueryText(const std::string& sql, const std::string& name) {
  auto statements = Parser::Parse(sql);
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
  return q;
}

ViewColumns Binder::ViewColumnsOf() {
  return [this](const ViewDefinition& view) {
    try {
      BoundQuery q = BindQueryText(view.sql, "view");
      return std::pair{q.names, q.plan->GetTypes()};
    } catch (const BinderError&) {
      // A view that no longer binds (a table it reads was dropped) has no columns to show;
      // the rest of the catalog still lists.
      return std::pair{std::vector<std::string>{}, std::vector<LogicalType>{}};
    }
  };
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
      std::string name = AsciiLower(base.name.back());
      const std::string alias = ref.alias.empty() ? base.name.back() : ref.alias;
      if (base.name.size() == 2 && AsciiLower(base.name[0]) == "information_schema") {
        // The catalog as the SQL standard's views (the columns DuckDB and PostgreSQL share).
        if (name != "tables" && name != "columns" && name != "schemata") {
          throw BinderError(
              "information_schema.{} does not exist (information_schema has tables, columns "
              "and schemata)",
              base.name.back());
        }
        BoundQuery q = BindQueryText(InformationSchemaQuery(catalog_, name, ViewColumnsOf()), name);
        ScopeEntry entry = EntryFor(alias, *q.plan, q.names);
        ApplyColumnAliases(entry, ref.column_aliases);
        scope.entries.push_back(std::move(entry));
        return std::move(q.plan);
      }
      // s.t, db.t, db.s.t: the catalog resolves them (Catalog::Route, Resolve); a CTE is
      // never qualified.
      for (size_t i = base.name.size() - 1; i-- > 0;)
        name = AsciiLower(base.name[i]) + "." + name;
      if (auto stored = stored_tables_.find(name);
          base.name.size() == 1 && stored != stored_tables_.end()) {
        return BindDataset(stored->second.first, stored->second.second, alias, ref, scope);
      }
      // A recursive CTE naming itself, then CTEs (innermost query outwards), then views.
      if (auto working = base.name.size() == 1 ? BindWorkingTable(name) : std::nullopt) {
        ScopeEntry entry = EntryFor(alias, *working->plan, working->names);
        ApplyColumnAliases(entry, ref.column_aliases);
        scope.entries.push_back(std::move(entry));
        return std::move(working->plan);
      }
      for (auto it = cte_stack_.rbegin(); base.name.size() == 1 && it != cte_stack_.rend(); ++it) {
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
        BoundQuery q = BindQueryText(view->sql, name);
        ScopeEntry entry = EntryFor(alias, *q.plan, q.names);
        ApplyColumnAliases(entry, view->column_aliases);
        ApplyColumnAliases(entry, ref.column_aliases);
        scope.entries.push_back(std::move(entry));
        return std::move(q.plan);
      }
      if (auto dataset = catalog_.TableDataset(name)) {
        auto generated = catalog_.GeneratedColumns(name);
        if (generated.empty()) return BindDataset(std::move(dataset), name, alias, ref, scope);
        // Read through the query computing them, over the stored columns.
        TableDefinition table;
        table.name = name;
        for (const auto& column : dataset->columns())
          table.columns.push_back({column.name, column.type});
        table.generated = std::move(generated);
        const std::string stored = fmt::format("__shears_stored_{}", stored_tables_.size());
        stored_tables_[stored] = {std::move(dataset), name};
        const std::string short_name = base.name.back();
        BoundQuery q = BindQueryText(
            GeneratedColumnsQuery(table,
                                  QuotedIdentifier(stored) + " AS " + QuotedIdentifier(short_name),
                                  short_name),
            name);
        ScopeEntry entry = EntryFor(alias, *q.plan, q.names);
        ApplyColumnAliases(entry, ref.column_aliases);
        scope.entries.push_back(std::move(entry));
        return std::move(q.plan);
      }
      if (replacement_scan_ && base.name.size() == 1) {
        if (auto dataset = replacement_scan_(base.name.back())) {
          return BindDataset(std::move(dataset), base.name.back(), alias, ref, scope);
        }
      }
      if (base.name.size() == 3 && !catalog_.DatabaseExists(base.name[0])) {
        throw BinderError("database '{}' does not exist (table '{}'; SHOW DATABASES lists them)",
                          base.name[0], fmt::format("{}", fmt::join(base.name, ".")));
      }
      if (base.name.size() == 2 && !catalog_.SchemaExists(base.name[0]) &&
          !catalog_.DatabaseExists(base.name[0])) {
        throw BinderError("schema '{}' does not exist (table '{}')", base.name[0],
                          fmt::format("{}", fmt::join(base.name, ".")));
      }
      throw BinderError(
          "table or view '{}' does not exist (to read files, use FROM 'path' or "
          "read_parquet('path'))",
          fmt::format("{}", fmt::join(base.name, ".")));
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
      // unnest(t.l) after t is a LATERAL (SELECT unnest(t.l)): a row per element of each row.
      const ast::TableRef* lateral_unnest = ast::LateralUnnest(*join.right);
      const ast::TableRef& right_ref = lateral_unnest ? *lateral_unnest : *join.right;
      const bool lateral = right_ref.kind == ast::TableRefKind::kSubquery &&
                           static_cast<const ast::SubqueryRef&>(right_ref).lateral;
      if (lateral) {
        if (join.join_type != ast::JoinType::kInner && join.join_type != ast::JoinType::kLeft &&
            join.join_type != ast::JoinType::kCross) {
          throw BinderError("the join with a LATERAL subquery must be INNER or LEFT");
        }
        if (join.asof)
          throw NotSupportedError("ASOF JOIN with a LATERAL subquery is not supported");
        lateral_scope.entries = left_scope.entries;
        lateral_scope.outer = scope.outer;
        right_scope.outer = &lateral_scope;
      }
      auto right = BindTableRef(right_ref, right_scope);
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
        case ast::JoinType::kSemi:
          op->join_kind = JoinKind::kSemi;
          break;
        case ast::JoinType::kAnti:
          // NOT EXISTS's semantics: a row whose condition is NULL for every right row stays.
          op->join_kind = JoinKind::kAnti;
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
            if (!le.Matches(i, false) || le.Hidden(i)) continue;
            for (const auto& re : right_scope.entries) {
              for (size_t j = 0; j < re.names.size(); j++) {
                if (re.Matches(j, false) && !re.Hidden(j) &&
                    AsciiLower(le.names[i]) == AsciiLower(re.names[j])) {
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
        // ASOF JOIN ... USING (k, t): the last column is the inequality l.t >= r.t (DuckDB's).
        const bool inequality = join.asof && &column == &using_columns.back();
        conjuncts.push_back(BindFunctionCall(inequality ? ">=" : "=", std::move(args)));
        usings.push_back({le, lc, re, rc});
      }
      const bool positional = join.condition && join.condition->kind == ast::ExprKind::kColumnRef &&
                              static_cast<const ast::ColumnRefExpr&>(*join.condition).names ==
                                  std::vector<std::string>{kPositionalJoinMarker};
      if (positional) {
        // DuckDB's POSITIONAL JOIN (the parser's FULL JOIN ... ON marker): the n-th rows of the
        // sides pair up, the shorter side padded with NULLs; a row's position is its
        // row_number() OVER () on its side, the order its rows arrive in.
        auto number = [&](LogicalOperatorPtr& side) {
          auto window = std::make_unique<LogicalWindow>();
          window->window_index = NewTableIndex();
          auto row_number =
              std::make_unique<BoundWindow>(WindowFunction::kRowNumber, LogicalType::Bigint());
          row_number->name = "row_number";
          window->windows.push_back(std::move(row_number));
          window->children.push_back(std::move(side));
          const ColumnBinding binding{window->window_index, 0};
          side = std::move(window);
          return std::make_unique<BoundColumnRef>(LogicalType::Bigint(), binding, "position");
        };
        std::vector<BoundExprPtr> args;
        args.push_back(number(left));
        args.push_back(number(right));
        conjuncts.push_back(BindFunctionCall("=", std::move(args)));
      } else if (join.condition) {
        ExprContext ctx;
        ctx.scope = &both;
        ctx.clause = "JOIN condition";
        // Planned by PlanJoinSubqueries (not beside ASOF's or LATERAL's own planning).
        ctx.subqueries = !join.asof && !lateral;
        auto condition = RequireBoolean(BindExpr(*join.condition, ctx), "JOIN condition");
        SplitConjunction(std::move(condition), conjuncts);
      }
      if (join.asof) {
        if (!op->conditions.empty() || op->join_kind == JoinKind::kCross) {
          throw BinderError("ASOF JOIN needs an ON or USING condition");
        }
        if (join.natural) throw NotSupportedError("NATURAL ASOF JOIN is not supported");
        std::map<ColumnBinding, ColumnBinding> remap;
        auto plan = PlanAsofJoin(op->join_kind, std::move(left), std::move(right),
                                 std::move(conjuncts), &remap);
        for (auto& e : both.entries) {
          for (auto& b : e.bindings) {
            if (const auto it = remap.find(b); it != remap.end()) b = it->second;
          }
        }
        for (const auto& u : usings)
          both.entries[u.right_entry].SetVisibility(u.right_column,
                                                    ColumnVisibility::kQualifiedOnly);
        for (auto& e : both.entries)
          scope.entries.push_back(std::move(e));
        return plan;
      }
      if ((!conjuncts.empty() || !op->conditions.empty()) && op->join_kind == JoinKind::kCross)
        op->join_kind = JoinKind::kInner;
      std::vector<BoundExprPtr> with_subqueries;
      SplitSubqueryConjuncts(conjuncts, with_subqueries);
      // Conditions are split into equi-join keys by the optimizer; keep them as residual here.
      if (!conjuncts.empty()) op->residual = MakeConjunction(std::move(conjuncts));
      op->children.push_back(std::move(left));
      op->children.push_back(std::move(right));
      const JoinKind op_kind = op->join_kind;
      const bool full = op->join_kind == JoinKind::kFull;
      const bool merges = full || op->join_kind == JoinKind::kRight;
      LogicalOperatorPtr result;
      if (with_subqueries.empty()) {
        result = std::move(op);
      } else {
        auto rebind = [&](const std::map<uint32_t, uint32_t>& tables) {
          Scope copies = both;
          for (auto& entry : copies.entries) {
            for (auto& b : entry.bindings) {
              if (const auto it = tables.find(b.table_index); it != tables.end())
                b.table_index = it->second;
            }
          }
          ExprContext ctx;
          ctx.scope = &copies;
          ctx.clause = "JOIN condition";
          ctx.subqueries = true;
          std::vector<BoundExprPtr> out;
          SplitConjunction(RequireBoolean(BindExpr(*join.condition, ctx), "JOIN condition"), out);
          return out;
        };
        std::map<ColumnBinding, ColumnBinding> remap;
        result = PlanJoinSubqueries(std::move(op), std::move(with_subqueries), rebind, &remap);
        for (auto& e : both.entries) {
          for (auto& b : e.bindings) {
            if (const auto it = remap.find(b); it != remap.end()) b = it->second;
          }
        }
      }
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
      // After a SEMI / ANTI JOIN only the left side's columns are visible (DuckDB's).
      const size_t visible = op_kind == JoinKind::kSemi || op_kind == JoinKind::kAnti
                                 ? left_entries
                                 : both.entries.size();
      for (size_t e = 0; e < visible; e++)
        scope.entries.push_back(std::move(both.entries[e]));
      return result;
    }
  }
  throw InternalError("unknown table reference");
}

}  // namespace shears

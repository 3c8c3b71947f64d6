// PIVOT and UNPIVOT (DuckDB's statements and the SQL-standard forms in FROM), which the parser
// hands over as "__shears_pivot__"(pieces as text) in FROM (parser/sql_rewrite_pivot.cpp).
// They become queries shears has:
//   PIVOT t ON k [IN (...)] USING agg [GROUP BY g]
//     -> SELECT g, agg FILTER (WHERE k IS NOT DISTINCT FROM v1) AS "v1", ... FROM t GROUP BY g
//        (without GROUP BY: every column the ON items and aggregates do not name, GROUP BY ALL;
//        without IN: the distinct non-NULL values of k, sorted, from a query run first, as
//        DuckDB does);
//   UNPIVOT t ON a, b INTO NAME n VALUE v
//     -> SELECT * FROM (SELECT <other columns>, unnest(['a', 'b']) AS n, unnest([a, b]) AS v
//        FROM t) WHERE v IS NOT NULL (no WHERE with INCLUDE NULLS): t read once, its rows'
//        values in the order of the columns.
// Column names are DuckDB's: the values joined by '_', then '_' and the aggregate's alias (or
// its text) when there is an alias or more than one aggregate.

#include <charconv>

#include "common/error.h"
#include "common/string_util.h"
#include "parser/ast_visit.h"
#include "parser/parser.h"
#include "planner/bind_context.h"
#include "planner/binder.h"

namespace shears {

namespace {

// Not more columns than this from one PIVOT (DuckDB's pivot_limit is 100,000; a plan this wide
// is a mistake more often than not).
constexpr size_t kMaxPivotColumns = 10000;

class Pieces {
 public:
  explicit Pieces(const ast::TableFunctionRef& call) : call_(call) {}
  std::string Next() {
    if (pos_ >= call_.args.size() || call_.args[pos_]->kind != ast::ExprKind::kConstant ||
        static_cast<const ast::ConstantExpr&>(*call_.args[pos_]).value.type().id() !=
            TypeId::kVarchar) {
      throw BinderError("__shears_pivot__ is shears' internal form of PIVOT / UNPIVOT");
    }
    return static_cast<const ast::ConstantExpr&>(*call_.args[pos_++]).value.GetString();
  }
  int NextCount() {
    const std::string text = Next();
    int count = 0;
    const auto parsed = std::from_chars(text.data(), text.data() + text.size(), count);
    if (parsed.ec != std::errc() || parsed.ptr != text.data() + text.size() || count < -1) {
      throw BinderError("__shears_pivot__ is shears' internal form of PIVOT / UNPIVOT");
    }
    return count;
  }

 private:
  const ast::TableFunctionRef& call_;
  size_t pos_ = 0;
};

std::string QuoteString(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) {
    quoted += c;
    if (c == '\'') quoted += c;
  }
  return quoted + "'";
}

std::string QuoteName(const std::string& name) {
  std::string quoted = "\"";
  for (char c : name) {
    quoted += c;
    if (c == '"') quoted += c;
  }
  return quoted + "\"";
}

/// The one expression of `SELECT <text>`, parsed.
ast::ExprPtr ParseExpression(const std::string& text, const char* what) {
  std::vector<ast::StatementPtr> statements;
  try {
    statements = Parser::Parse("SELECT " + text);
  } catch (const Error& e) {
    throw BinderError("{} '{}' does not parse: {}", what, text, e.what());
  }
  if (statements.size() != 1 || statements[0]->kind != ast::StatementKind::kSelect) {
    throw BinderError("{} '{}' is not one expression", what, text);
  }
  auto& query = *static_cast<ast::SelectStatement&>(*statements[0]).query;
  if (query.kind != ast::QueryNodeKind::kSelect) {
    throw BinderError("{} '{}' is not one expression", what, text);
  }
  auto& select = static_cast<ast::SelectNode&>(query);
  if (select.select_list.size() != 1 || select.from) {
    throw BinderError("{} '{}' is not one expression", what, text);
  }
  return std::move(select.select_list[0].expr);
}

/// Adds `condition` to the FILTER of each aggregate call in `expr` (not in subqueries);
/// returns how many it found.
int FilterAggregates(ast::Expr& expr, const std::string& condition) {
  if (expr.kind == ast::ExprKind::kFunction) {
    auto& call = static_cast<ast::FunctionExpr&>(expr);
    if (!call.over && IsAggregateFunction(AsciiLower(call.name))) {
      ast::ExprPtr filter = ParseExpression(condition, "PIVOT value");
      if (call.filter) {
        auto both = std::make_unique<ast::OperatorExpr>();
        both->op = "AND";
        both->children.push_back(std::move(call.filter));
        both->children.push_back(std::move(filter));
        filter = std::move(both);
      }
      call.filter = std::move(filter);
      return 1;
    }
  }
  int found = 0;
  ast::ForEachChild(expr, [&](const ast::Expr& child) {
    found += FilterAggregates(const_cast<ast::Expr&>(child), condition);
  });
  return found;
}

/// The one SELECT of `sql` (a query made from the PIVOT's pieces), kept alive in `keep`.
ast::QueryNode& ParsedQuery(const std::string& sql,
                            std::vector<std::vector<ast::StatementPtr>>& keep,
                            bool select_only = true) {
  keep.push_back(Parser::Parse(sql));
  const auto& statements = keep.back();
  if (statements.size() != 1 || statements[0]->kind != ast::StatementKind::kSelect ||
      (select_only && static_cast<ast::SelectStatement&>(*statements[0]).query->kind !=
                          ast::QueryNodeKind::kSelect)) {
    throw BinderError("PIVOT / UNPIVOT: the table before ON is not one table or subquery");
  }
  return *static_cast<ast::SelectStatement&>(*statements[0]).query;
}

struct PivotValue {
  std::string literal;  // SQL text of the value
  std::string name;     // its part of the column names
};

/// A name for an IN list value written as `text`: a string literal's contents, else the text.
std::string ValueName(const std::string& text) {
  if (text.size() >= 2 && text.front() == '\'' && text.back() == '\'') {
    std::string name;
    for (size_t i = 1; i + 1 < text.size(); i++) {
      name += text[i];
      if (text[i] == '\'' && text[i + 1] == '\'') i++;
    }
    return name;
  }
  return text;
}

}  // namespace

LogicalOperatorPtr Binder::BindPivot(const ast::TableFunctionRef& call, Scope& scope) {
  Pieces pieces(call);
  const std::string kind = pieces.Next();
  std::string sql;
  if (kind == "pivot") {
    const std::string with = pieces.Next();  // the statement's WITH clause, or empty
    const std::string source = pieces.Next();
    const std::string groups = pieces.Next();
    const std::string excluded = pieces.Next();
    const int on_count = pieces.NextCount();
    std::vector<std::string> on_texts;
    std::vector<std::vector<PivotValue>> values;
    for (int i = 0; i < on_count; i++) {
      on_texts.push_back(pieces.Next());
      const int count = pieces.NextCount();
      std::vector<PivotValue> these;
      if (count < 0) {
        if (!query_runner_) {
          throw BinderError(
              "PIVOT without IN needs the distinct values of {} before planning, which a view "
              "cannot do: list them with IN (...)",
              on_texts.back());
        }
        const std::string query = with + " SELECT DISTINCT " + on_texts.back() + " FROM " + source +
                                  " WHERE (" + on_texts.back() + ") IS NOT NULL ORDER BY 1";
        std::vector<Value> distinct;
        try {
          distinct = query_runner_(query);
        } catch (const Error& e) {
          throw BinderError("PIVOT: the distinct values of {} could not be read: {}",
                            on_texts.back(), e.what());
        }
        for (const Value& v : distinct) {
          const std::string text = v.ToString();
          these.push_back({v.type().id() == TypeId::kVarchar
                               ? QuoteString(text)
                               : "CAST(" + QuoteString(text) + " AS " + v.type().ToString() + ")",
                           text});
        }
      } else {
        for (int k = 0; k < count; k++) {
          const std::string value = pieces.Next();
          const std::string alias = pieces.Next();
          these.push_back({value, alias.empty() ? ValueName(value) : alias});
        }
      }
      values.push_back(std::move(these));
    }
    const int aggregate_count = pieces.NextCount();
    std::vector<std::pair<std::string, std::string>> aggregates;  // text, alias
    for (int i = 0; i < aggregate_count; i++) {
      std::string text = pieces.Next();
      aggregates.push_back({std::move(text), pieces.Next()});
    }
    size_t columns = aggregates.size();
    for (const auto& these : values) {
      columns *= these.size();
      if (columns > kMaxPivotColumns) {
        throw BinderError("PIVOT would make more than {} columns", kMaxPivotColumns);
      }
    }
    // SELECT <groups> FROM source GROUP BY <groups | ALL>; the pivot columns are added as AST.
    std::string select_groups = groups;
    if (groups.empty()) select_groups = excluded.empty() ? "*" : "* EXCLUDE (" + excluded + ")";
    sql = "SELECT " + select_groups + " FROM " + source + " GROUP BY " +
          (groups.empty() ? "ALL" : groups);
    auto& node = static_cast<ast::SelectNode&>(ParsedQuery(sql, pivot_queries_));
    // Every combination of the ON items' values, the first item's varying slowest.
    std::vector<size_t> at(values.size(), 0);
    const bool any = columns > 0;
    while (any) {
      std::string name, condition;
      for (size_t i = 0; i < values.size(); i++) {
        const PivotValue& v = values[i][at[i]];
        name += (i ? "_" : "") + v.name;
        // IS NOT DISTINCT FROM: a NULL in IN (...) gathers the rows whose value is NULL.
        condition += (i ? " AND (" : "(") + on_texts[i] + ") IS NOT DISTINCT FROM " + v.literal;
      }
      for (const auto& [text, alias] : aggregates) {
        ast::ExprPtr expr = ParseExpression(text, "PIVOT aggregate");
        std::string column = name;
        if (aggregates.size() > 1 || !alias.empty()) {
          // DuckDB spells count(*) count_star() in the name.
          std::string text = alias.empty() ? expr->ToString() : alias;
          for (size_t at = text.find("count(*)"); alias.empty() && at != std::string::npos;
               at = text.find("count(*)", at)) {
            text.replace(at, 8, "count_star()");
          }
          column += "_" + text;
        }
        if (FilterAggregates(*expr, condition) == 0) {
          throw BinderError("PIVOT: '{}' in USING is not an aggregate", text);
        }
        node.select_list.push_back({std::move(expr), column});
      }
      size_t i = values.size();
      while (i > 0 && ++at[i - 1] == values[i - 1].size()) {
        at[i - 1] = 0;
        i--;
      }
      if (i == 0) break;
    }
    if (!any) throw BinderError("PIVOT: no values to pivot on (the ON columns hold only NULLs)");
    BoundQuery query = BindQueryNode(node, scope.outer);
    ScopeEntry entry =
        EntryFor(call.alias.empty() ? "unnamed_pivot" : call.alias, *query.plan, query.names);
    ApplyColumnAliases(entry, call.column_aliases);
    scope.entries.push_back(std::move(entry));
    return std::move(query.plan);
  }
  if (kind != "unpivot") {
    throw BinderError("__shears_pivot__ is shears' internal form of PIVOT / UNPIVOT");
  }
  const std::string source = pieces.Next();
  const bool include_nulls = pieces.Next() == "1";
  const std::string on = pieces.Next();
  const std::string name_column = pieces.Next();
  const std::string value_column = pieces.Next();
  // The columns ON names (as a select list: COLUMNS(...) and * EXCLUDE expand) and all of the
  // source's.
  auto names_of = [&](const std::string& text) {
    return BindQueryNode(ParsedQuery(text, pivot_queries_), scope.outer).names;
  };
  std::string on_list = on;
  // ON COLUMNS(* EXCLUDE (id)) names the columns of `* EXCLUDE (id)`.
  {
    const size_t first = on.find_first_not_of(" \t\n");
    const size_t last = on.find_last_not_of(" \t\n");
    const size_t open = on.find('(');
    if (first != std::string::npos && open != std::string::npos && on[last] == ')' &&
        AsciiLower(on.substr(first, 7)) == "columns" &&
        on.find_first_not_of(" \t\n", first + 7) == open) {
      const std::string inner = on.substr(open + 1, last - open - 1);
      if (inner.find_first_not_of(" \t\n") != std::string::npos &&
          inner[inner.find_first_not_of(" \t\n")] == '*') {
        on_list = inner;
      }
    }
  }
  const std::vector<std::string> unpivoted = names_of("SELECT " + on_list + " FROM " + source);
  const std::vector<std::string> all = names_of("SELECT * FROM " + source);
  std::string kept;
  for (const auto& column : all) {
    bool is_unpivoted = false;
    for (const auto& u : unpivoted)
      is_unpivoted = is_unpivoted || AsciiLower(u) == AsciiLower(column);
    if (!is_unpivoted) kept += QuoteName(column) + ", ";
  }
  // The source read once, each row giving one row per unpivoted column in their order (as
  // DuckDB): two lists unnested side by side, the names and the values (the list literal gives
  // the values one type).
  std::string names, values;
  for (const auto& column : unpivoted) {
    bool found = false;
    for (const auto& a : all)
      found = found || AsciiLower(a) == AsciiLower(column);
    if (!found) throw BinderError("UNPIVOT: '{}' is not a column of the table", column);
    names += (names.empty() ? "" : ", ") + QuoteString(column);
    values += (values.empty() ? "" : ", ") + QuoteName(column);
  }
  if (!names.empty()) {
    sql = "SELECT " + kept + "unnest([" + names + "]) AS " + QuoteName(name_column) + ", unnest([" +
          values + "]) AS " + QuoteName(value_column) + " FROM " + source;
    if (!include_nulls) {
      sql = "SELECT * FROM (" + sql + ") __shears_unpivot WHERE " + QuoteName(value_column) +
            " IS NOT NULL";
    }
  }
  if (sql.empty()) throw BinderError("UNPIVOT: no columns to unpivot");
  BoundQuery query = BindQueryNode(ParsedQuery(sql, pivot_queries_, false), scope.outer);
  ScopeEntry entry =
      EntryFor(call.alias.empty() ? "unnamed_unpivot" : call.alias, *query.plan, query.names);
  ApplyColumnAliases(entry, call.column_aliases);
  scope.entries.push_back(std::move(entry));
  return std::move(query.plan);
}

}  // namespace shears

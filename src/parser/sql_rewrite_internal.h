#pragma once
// What the pieces of RewriteSql (sql_rewrite.cpp, sql_rewrite_clauses.cpp) share: each finder
// scans the tokens of the user's text and adds the replacements its extension needs.

#include <string>
#include <vector>

#include "parser/transformer.h"

namespace shears::parser_internal {

/// Text replacing the original bytes [begin, end) (empty range: an insertion at begin).
struct Replacement {
  int begin, end;  // original range (empty for an insertion)
  std::string text;
};

/// Whether this token ends a FROM clause (WHERE, GROUP, ..., a closing parenthesis).
bool EndsFromClause(int token);
/// Whether a subquery without alias may end before this token.
bool EndsUnaliasedSubquery(int token);
/// The index of the token after the table reference starting at `begin` (the right side of a
/// DuckDB join: POSITIONAL, SEMI, ANTI, ASOF): its level's next join, comma, clause or closing
/// parenthesis (sql_rewrite_joins.cpp).
size_t TableRefEnd(const std::string& sql, const std::vector<SqlToken>& tokens, size_t begin);

/// QUALIFY cond -> WINDOW __shears_qualify AS (PARTITION BY (cond)).
void FindQualify(const std::string& sql, const std::vector<SqlToken>& tokens,
                 std::vector<Replacement>* out);
/// USING SAMPLE / TABLESAMPLE -> WINDOW __shears_sample AS (PARTITION BY amount, percent, seed).
void FindSample(const std::string& sql, const std::vector<SqlToken>& tokens,
                std::vector<Replacement>* out);
/// LIMIT n% is refused with a clear error (not supported).
void RejectLimitPercent(const std::string& sql, const std::vector<SqlToken>& tokens);
/// f(x IGNORE NULLS) / f(x RESPECT NULLS) -> f(x).
void FindNullTreatment(const std::string& sql, const std::vector<SqlToken>& tokens,
                       std::vector<Replacement>* out);

/// a POSITIONAL JOIN b -> a FULL JOIN b ON "__shears_positional__" (kPositionalJoinMarker).
void FindPositionalJoin(const std::string& sql, const std::vector<SqlToken>& tokens,
                        std::vector<Replacement>* out);
/// DuckDB's SEMI / ANTI / ASOF [LEFT | RIGHT] JOIN -> PostgreSQL's join with a marker in its ON
/// or USING (sql_rewrite_joins.cpp), which TakeJoinMarker (transform_query.cpp) takes out.
inline constexpr const char* kJoinMarkerPrefix = "__shears_join_";
inline constexpr const char* kJoinMarkerSuffix = "__";
void FindDuckDbJoins(const std::string& sql, const std::vector<SqlToken>& tokens,
                     std::vector<Replacement>* out);
/// PIVOT / UNPIVOT (statements and the FROM forms) -> "__shears_pivot__"(pieces) in FROM;
/// drops the other rewrites' edits inside them (the binder parses the pieces again).
void FindPivots(const std::string& sql, const std::vector<SqlToken>& tokens,
                std::vector<Replacement>* out);
/// {'a': x} -> __shears_struct_literal('a', x); MAP {k: v} -> __shears_map_literal(k, v)
/// (sql_rewrite_nested.cpp).
void FindNestedLiterals(const std::string& sql, const std::vector<SqlToken>& tokens,
                        std::vector<Replacement>* out);
/// STRUCT(a INTEGER) / MAP(K, V) type names -> __shears_type('text').
void FindNestedTypeNames(const std::string& sql, const std::vector<SqlToken>& tokens,
                         std::vector<Replacement>* out);
/// DuckDB's list literal [a, b] -> (ARRAY[a, b]); f(x)[i] -> (f(x))[i]; the list comprehension
/// [e FOR x IN l IF c] -> __shears_list_comprehension(x -> e, l, x -> c), which the transformer
/// makes list_transform(list_filter(l, x -> c), x -> e) (sql_rewrite_lists.cpp).
inline constexpr const char* kListComprehension = "__shears_list_comprehension";
void FindListLiterals(const std::string& sql, const std::vector<SqlToken>& tokens,
                      std::vector<Replacement>* out);

/// DuckDB's trailing comma after a select list or VALUES rows (`SELECT a, b, FROM t`) is
/// dropped (sql_rewrite_duckdb.cpp).
void FindTrailingCommas(const std::vector<SqlToken>& tokens, std::vector<Replacement>* out);
/// INTERVAL (expr) unit -> to_<unit>s(CAST(trunc((expr)) AS type)) (no trunc for seconds and
/// milliseconds, which take a DOUBLE), as DuckDB's transformer.
void FindIntervalExpressions(const std::string& sql, const std::vector<SqlToken>& tokens,
                             std::vector<Replacement>* out);
/// FROM VALUES (...), (...) -> FROM (VALUES (...), (...)).
void FindFromValues(const std::vector<SqlToken>& tokens, std::vector<Replacement>* out);

}  // namespace shears::parser_internal

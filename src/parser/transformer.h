#pragma once
// Internal to the parser: the token-level rewrite done before libpg_query parses the text,
// and the transformer from libpg_query's protobuf-c structs to the shears AST.

#include <pg_query.h>
#include <pg_query/pg_query.pb-c.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "parser/ast.h"

namespace shears::parser_internal {

/// ASCII lower-casing (identifiers, keywords and units; other bytes unchanged).
inline std::string Lower(std::string s) {
  for (char& c : s) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return s;
}

/// A RangeVar's name parts: [catalog,] [schema,] name, as written.
inline std::vector<std::string> NameParts(const PgQuery__RangeVar* range) {
  std::vector<std::string> parts;
  if (range->catalogname != nullptr && *range->catalogname) parts.emplace_back(range->catalogname);
  if (range->schemaname != nullptr && *range->schemaname) parts.emplace_back(range->schemaname);
  parts.emplace_back(range->relname);
  return parts;
}

/// A RangeVar's name lower-cased, its parts joined by '.' ("s.t"), as the catalog takes it.
inline std::string QualifiedName(const PgQuery__RangeVar* range) {
  std::string name;
  for (const auto& part : NameParts(range)) {
    if (!name.empty()) name += '.';
    name += Lower(part);
  }
  return name;
}

/// A function's name, lower-cased: main.f, pg_catalog.f and system.main.f are f (built-in
/// functions live there, as DuckDB's); s.f stays "s.f", a macro of schema s for the catalog.
inline std::string FunctionName(std::vector<std::string> names) {
  for (auto& name : names)
    name = Lower(name);
  if (names.size() == 3 && (names[0] == "system" || names[0] == "memory" || names[0] == "temp")) {
    names.erase(names.begin());
  }
  if (names.size() == 2 && (names[0] == "main" || names[0] == "pg_catalog")) {
    names.erase(names.begin());
  }
  std::string name;
  for (const auto& part : names) {
    if (!name.empty()) name += '.';
    name += part;
  }
  return name;
}

/// QUALIFY cond reaches libpg_query as `WINDOW __shears_qualify AS (PARTITION BY (cond))`.
inline constexpr const char* kQualifyWindowName = "__shears_qualify";
/// USING SAMPLE reaches libpg_query as `WINDOW __shears_sample AS (PARTITION BY amount,
/// percent, seed)`.
inline constexpr const char* kSampleWindowName = "__shears_sample";

/// One scanner token of the user's text (comments are dropped).
struct SqlToken {
  int start = 0;  // byte offsets in the original text, end exclusive
  int end = 0;
  int token = 0;    // PgQuery__Token
  int keyword = 0;  // PgQuery__KeywordKind: 0 not a keyword, 1 unreserved, 2 a column name's
};

/// Whether the token can be a column's name unquoted: an identifier, or a keyword PostgreSQL
/// lets stand for one (month, year, name, value, ...).
inline bool IsColumnNameToken(const SqlToken& token) {
  return token.token == PG_QUERY__TOKEN__IDENT ||
         token.keyword == PG_QUERY__KEYWORD_KIND__UNRESERVED_KEYWORD ||
         token.keyword == PG_QUERY__KEYWORD_KIND__COL_NAME_KEYWORD;
}

/// Maps byte offsets of the rewritten text back to the user's text.
class SourceMap {
 public:
  /// Text [orig_begin, orig_end) of the original became [new_begin, new_end) of the rewrite.
  void AddEdit(int orig_begin, int orig_end, int new_begin, int new_end);
  /// Offsets inside inserted text map to where the insertion happened; -1 stays -1.
  int ToOriginal(int rewritten_offset) const;

 private:
  struct Edit {
    int orig_begin, orig_end, new_begin, new_end;
  };
  std::vector<Edit> edits_;  // sorted by position
};

struct RewrittenSql {
  std::string text;  // what libpg_query parses
  SourceMap map;
  std::vector<SqlToken> tokens;  // of the original text; empty when the scanner failed
};

/// Rewrites shears' extensions of PostgreSQL's grammar into plain PostgreSQL:
///   FROM 'path' / JOIN 'path' / , 'path'  ->  read_parquet('path')
///   INTERVAL 3 DAY / INTERVAL 2 days      ->  INTERVAL '3 day' / INTERVAL '2 days'
///   QUALIFY cond                           ->  WINDOW __shears_qualify AS (PARTITION BY (cond))
///   x IN ()                                ->  x IN ("__shears_empty_in_list__")
///   INSERT OR REPLACE / OR IGNORE INTO     ->  INSERT INTO (the transformer reads the tokens)
///   REPLACE INTO (SQLite's)                ->  INSERT INTO (likewise)
///   f(x IGNORE NULLS) / f(x RESPECT NULLS) ->  f(x) (likewise)
///   GROUP BY ALL / ORDER BY ALL            ->  GROUP BY "__shears_all__" (the binder expands it)
///   FROM t WHERE ... (a statement)         ->  SELECT * FROM t WHERE ...
///   x GLOB p / x NOT GLOB p                ->  x ~~~ p / x !~~~ p
///   * EXCLUDE (a) / * REPLACE (e AS a)     ->  *, "__shears_star_exclude__"(a) /
///                                              *, "__shears_star_replace__"(e, 'a')
RewrittenSql RewriteSql(const std::string& sql);

/// An upper estimate of how deeply the parse tree of these tokens nests (in expression
/// levels), computed without parsing: libpg_query serializes and unpacks its trees
/// recursively, so a tree too deep for the stack must be refused before it is built.
int EstimateNestingDepth(const std::vector<SqlToken>& tokens);

/// For tokens[insert] an INSERT followed by OR REPLACE / OR IGNORE: 'R' or 'I'; REPLACE INTO
/// 'R'; else 0.
int InsertOrAction(const std::string& sql, const std::vector<SqlToken>& tokens, size_t insert);
/// DuckDB's INSERT [OR ...] INTO t BY NAME | BY POSITION: the index of the BY token of the
/// INSERT at tokens[insert] (blanked for libpg_query), or 0 when it has none; `*by_name` says
/// which.
size_t InsertByToken(const std::vector<SqlToken>& tokens, size_t insert, bool* by_name);

/// The one name of the IN list that RewriteSql writes for SQLite's empty `IN ()`.
inline constexpr const char* kEmptyInListMarker = "__shears_empty_in_list__";
/// DuckDB's TRY_CAST(x AS t) reaches the grammar as CAST(__shears_try_cast__(x) AS t).
inline constexpr const char* kTryCastMarker = "__shears_try_cast__";
/// A STRUCT(...) / MAP(...) type reaches the grammar as __shears_type('its text').
inline constexpr const char* kNestedTypeMarker = "__shears_type";
/// DuckDB's struct literal {'a': x} reaches it as __shears_struct_literal('a', x) (kept apart
/// from struct_pack, whose arguments are expressions), and MAP {k: v} as
/// __shears_map_literal(k, v).
inline constexpr const char* kStructLiteralMarker = "__shears_struct_literal";
inline constexpr const char* kMapLiteralMarker = "__shears_map_literal";

/// The select items RewriteSql writes after a star for DuckDB's * EXCLUDE (...) and
/// * REPLACE (...): calls the transformer folds into the star.
inline constexpr const char* kStarExcludeMarker = "__shears_star_exclude__";
inline constexpr const char* kStarReplaceMarker = "__shears_star_replace__";

/// The first column RewriteSql writes into the right operand of DuckDB's UNION BY NAME.
inline constexpr const char* kUnionByNameMarker = "__shears_union_by_name__";
/// The column RewriteSql writes for DuckDB's GROUP BY ALL / ORDER BY ALL.
inline constexpr const char* kAllColumnsMarker = "__shears_all__";

/// Whether tokens [first, last) (one statement) are a catalog statement of Hive/Spark syntax
/// that PostgreSQL's grammar lacks (CREATE EXTERNAL TABLE, SHOW TABLES, DESCRIBE, ...).
bool IsCatalogStatement(const std::string& sql, const std::vector<SqlToken>& tokens, size_t first,
                        size_t last);
/// Parses such a statement; ParseError / NotSupportedError with the position otherwise.
ast::StatementPtr ParseCatalogStatement(const std::string& sql, const std::vector<SqlToken>& tokens,
                                        size_t first, size_t last);

/// Converts a 1-based character position (what PostgreSQL reports) to a byte offset.
int CharPositionToByteOffset(std::string_view text, int char_position);

/// Turns libpg_query's raw parse trees into shears AST nodes. Locations in the trees refer to
/// the rewritten text; every location stored in the AST or shown in an error refers to the
/// user's text.
class Transformer {
 public:
  Transformer(const std::string& original, const RewrittenSql& rewritten)
      : original_(original), rewritten_(rewritten) {}

  /// [begin, end) is the statement's range in the original text.
  ast::StatementPtr TransformStatement(const PgQuery__Node* node, int begin, int end);

  // ---- queries and FROM (transform_query.cpp)
  ast::QueryNodePtr TransformQuery(const PgQuery__Node* node);
  ast::QueryNodePtr TransformSelect(const PgQuery__SelectStmt* stmt);
  ast::TableRefPtr TransformFromList(PgQuery__Node** items, size_t n);
  ast::TableRefPtr TransformTableRef(const PgQuery__Node* node);
  /// An ORDER BY item (a SortBy node), also of window specifications.
  ast::OrderByItem TransformSortBy(const PgQuery__Node* item);
  /// OVER (...) and WINDOW w AS (...) (transform_window.cpp).
  ast::WindowSpec TransformWindowDef(const PgQuery__WindowDef* def);

  // ---- expressions (transform_expression.cpp)
  ast::ExprPtr TransformExpr(const PgQuery__Node* node);
  std::vector<ast::ExprPtr> TransformExprList(PgQuery__Node** items, size_t n);
  ast::TypeName TransformTypeName(const PgQuery__TypeName* type_name);
  ast::ExprPtr TransformConstant(const PgQuery__AConst* constant);

  // ---- helpers shared by the files
  /// Original-text offset of a location reported by libpg_query.
  int Loc(int rewritten_location) const { return rewritten_.map.ToOriginal(rewritten_location); }
  [[noreturn]] void ThrowNotSupported(const std::string& message, int rewritten_location) const;
  [[noreturn]] void ThrowParseError(const std::string& message, int rewritten_location) const;
  [[noreturn]] void ThrowNotSupportedAt(const std::string& message, int original_offset) const;
  /// The node's own "location" field (rewritten text), or -1 when it has none.
  static int NodeLocation(const PgQuery__Node* node);
  /// "A_Indirection", "InsertStmt", ...
  static std::string NodeTypeName(const PgQuery__Node* node);
  static bool IsNull(const PgQuery__Node* node) {
    return node == nullptr || node->node_case == PG_QUERY__NODE__NODE__NOT_SET;
  }
  /// Start of the last token of kind `token` before `original_offset`, or -1.
  int FindTokenBefore(int token, int original_offset) const;
  /// Whether the call whose name starts at `original_offset` ends in `IGNORE NULLS)` in the
  /// user's text (RewriteSql cut the clause out).
  bool CallIgnoresNulls(int original_offset) const;
  /// `a // b` as DuckDB binds it: `//` at the precedence of `*` and `/`. PostgreSQL's grammar
  /// parses it as a user operator, below `+` and `-` and `*` (`100 + 7 // 50` was (100 + 7) // 50,
  /// 2, where DuckDB gives 100): a bare additive left operand or arithmetic right operand is
  /// rotated out; parenthesized ones (seen in the tokens) stay.
  ast::ExprPtr BindIntegerDivisionLikeDuckDB(std::unique_ptr<ast::OperatorExpr> div) const;
  /// Whether the operator token at original offset `inner_op` is inside parentheses that open
  /// right after (`after` true) or close right before the token at index `op_token`.
  bool WrappedNextTo(size_t op_token, bool after, int inner_op) const;
  /// The strings of a list of String nodes (names, column aliases).
  std::vector<std::string> StringList(PgQuery__Node** items, size_t n, int location) const;

  const std::string& original() const { return original_; }
  const RewrittenSql& rewritten() const { return rewritten_; }
  /// The highest $n seen since the last call (one statement's parameters).
  int TakeParameterCount() { return std::exchange(parameter_count_, 0); }

 private:
  // Statements: begin/end are offsets in the original text, like TransformStatement's.
  ast::StatementPtr TransformExplain(const PgQuery__ExplainStmt* stmt, int begin, int end);
  ast::StatementPtr TransformVariableSet(const PgQuery__VariableSetStmt* stmt, int begin);
  ast::StatementPtr TransformView(const PgQuery__ViewStmt* stmt, int begin, int end);
  ast::StatementPtr TransformDrop(const PgQuery__DropStmt* stmt, int begin);
  // transform_write.cpp
  ast::StatementPtr TransformCopy(const PgQuery__CopyStmt* stmt, int begin);
  ast::StatementPtr TransformInsert(const PgQuery__InsertStmt* stmt, int begin);
  /// WITH's CTEs, appended to `ctes`.
  void TransformWithClause(const PgQuery__WithClause* with,
                           std::vector<ast::CommonTableExpr>& ctes);
  /// WITH name AS (INSERT | UPDATE | DELETE ...): the statement, with its span in the text.
  std::shared_ptr<ast::Statement> TransformCteStatement(const PgQuery__CommonTableExpr* cte);
  ast::StatementPtr TransformCreateIndex(const PgQuery__IndexStmt* stmt, int begin);
  ast::StatementPtr TransformUpdate(const PgQuery__UpdateStmt* stmt, int begin);
  ast::StatementPtr TransformDelete(const PgQuery__DeleteStmt* stmt, int begin);
  ast::StatementPtr TransformTruncate(const PgQuery__TruncateStmt* stmt, int begin);

  ast::QueryNodePtr TransformSimpleSelect(const PgQuery__SelectStmt* stmt);
  void AddDistinctOn(const PgQuery__SelectStmt* stmt, ast::SelectNode& select);
  bool FoldStarModifier(ast::Expr& expr, std::vector<ast::SelectItem>& select_list);
  /// A select list (ResTargets): a SELECT's or a write's RETURNING.
  void TransformTargetList(PgQuery__Node* const* list, size_t n,
                           std::vector<ast::SelectItem>& select_list);
  /// The grouping sets one GROUP BY item stands for (a plain expression: one set of it),
  /// adding the expressions they use to select.group_by.
  std::vector<std::vector<size_t>> GroupingSetsOf(const PgQuery__Node* item,
                                                  ast::SelectNode& select);
  static constexpr size_t kMaxGroupingSets = 4096;
  ast::QueryNodePtr TransformValues(const PgQuery__SelectStmt* stmt);
  void TransformQueryModifiers(const PgQuery__SelectStmt* stmt, ast::QueryNode& node);
  ast::TableRefPtr TransformRangeFunction(const PgQuery__RangeFunction* range);
  ast::TableRefPtr TransformJoin(const PgQuery__JoinExpr* join);
  void TransformAlias(const PgQuery__Alias* alias, ast::TableRef& ref, int location);

  ast::ExprPtr TransformAExpr(const PgQuery__AExpr* expr);
  ast::ExprPtr TransformBoolExpr(const PgQuery__BoolExpr* expr);
  ast::ExprPtr TransformFuncCall(const PgQuery__FuncCall* call);
  ast::ExprPtr TransformTypeCast(const PgQuery__TypeCast* cast);
  ast::ExprPtr TransformSubLink(const PgQuery__SubLink* link);
  /// (a, b) [NOT] IN (SELECT x, y ...), as CASE over two EXISTS (transform_expression.cpp).
  ast::ExprPtr TransformRowIn(const PgQuery__SubLink* link);
  /// (a, b) op ANY / ALL (SELECT x, y ...): SQL's row comparisons, lexicographic with NULLs
  /// unknown; = ANY is TransformRowIn (transform_subquery.cpp).
  /// ARRAY(SELECT x ...): the subquery's rows as a LIST, in their order (transform_subquery.cpp).
  ast::ExprPtr TransformArraySubquery(const PgQuery__SubLink* link);
  ast::ExprPtr TransformRowQuantified(const PgQuery__SubLink* link, const std::string& op,
                                      bool any);
  /// (a, b) op (c, d) for = <> < <= > >= IS [NOT] DISTINCT FROM, as the comparisons of the
  /// fields (PostgreSQL's row-wise rules); `op` is the operator's name.
  ast::ExprPtr TransformRowComparison(const std::string& op, const PgQuery__RowExpr* left,
                                      const PgQuery__RowExpr* right, int location);
  /// x op ANY / ALL (ARRAY[...]): IN / NOT IN lists for = ANY and <> ALL, else an OR / AND
  /// of the comparisons with each element.
  ast::ExprPtr TransformArrayComparison(const PgQuery__AExpr* expr, const std::string& op,
                                        bool any);
  ast::ExprPtr TransformColumnRef(const PgQuery__ColumnRef* ref);
  ast::ExprPtr TransformSubscripts(ast::ExprPtr base, PgQuery__Node* const* items, size_t count,
                                   int location);
  ast::ExprPtr TransformCase(const PgQuery__CaseExpr* expr);
  ast::ExprPtr TransformInterval(const PgQuery__TypeCast* cast, const std::string& text,
                                 int location);

  const std::string& original_;
  const RewrittenSql& rewritten_;
  int parameter_count_ = 0;
};

/// The lambda argument of list_transform & co. as one "lambda" operator (parameters as
/// column references, then the body), the arrow moved above the operators PostgreSQL binds
/// looser (transform_lambda.cpp); `arg` unchanged when it holds no arrow.
ast::ExprPtr MakeLambda(ast::ExprPtr arg);

/// Value of a numeric literal as PostgreSQL's scanner passes it ("-12", "2.50", "1e10").
/// Returns false when the text is not a number.
bool ParseNumericLiteral(std::string_view text, Value* value);

}  // namespace shears::parser_internal

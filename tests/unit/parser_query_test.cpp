// Parser tests: FROM items, FROM 'path', query clauses.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/error.h"
#include "parser/parser.h"
#include "parser/transformer.h"
#include "parser_test_util.h"

namespace shears {
namespace {

using namespace ast;               // NOLINT: the tests name many AST types
using namespace parser_test_util;  // NOLINT

// ---------------------------------------------------------------- FROM

TEST(ParserFromTest, BaseTables) {
  ParsedQuery parsed = ParseQuery("SELECT * FROM Sales");
  const auto& table = static_cast<const BaseTableRef&>(FromOf(parsed));
  ASSERT_EQ(table.kind, TableRefKind::kBaseTable);
  EXPECT_EQ(table.name, (std::vector<std::string>{"sales"}));
  EXPECT_EQ(table.location, 14);
  ParsedQuery qualified = ParseQuery("SELECT * FROM main.\"Sales\" AS s(a, b)");
  const auto& q = static_cast<const BaseTableRef&>(FromOf(qualified));
  EXPECT_EQ(q.name, (std::vector<std::string>{"main", "Sales"}));
  EXPECT_EQ(q.alias, "s");
  EXPECT_EQ(q.column_aliases, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(q.ToString(), "main.Sales AS s(a, b)");
  // Three parts: database, schema, table (the binder resolves them).
  ParsedQuery three = ParseQuery("SELECT * FROM db.main.t");
  EXPECT_EQ(static_cast<const BaseTableRef&>(FromOf(three)).name,
            (std::vector<std::string>{"db", "main", "t"}));
  ExpectNotSupported("SELECT * FROM ONLY t", "FROM ONLY");
  ExpectNotSupported("SELECT * FROM t TABLESAMPLE SYSTEM (10)", "TABLESAMPLE");
}

TEST(ParserFromTest, TableFunctions) {
  ParsedQuery parsed = ParseQuery(
      "SELECT * FROM read_parquet('data/*.parquet', hive_partitioning = true, "
      "union_by_name => false) AS t");
  const auto& f = static_cast<const TableFunctionRef&>(FromOf(parsed));
  ASSERT_EQ(f.kind, TableRefKind::kTableFunction);
  EXPECT_EQ(f.name, "read_parquet");
  ASSERT_EQ(f.args.size(), 1u);
  EXPECT_EQ(f.args[0]->ToString(), "'data/*.parquet'");
  ASSERT_EQ(f.named_args.size(), 2u);
  EXPECT_EQ(f.named_args[0].first, "hive_partitioning");
  EXPECT_EQ(f.named_args[0].second->ToString(), "TRUE");
  EXPECT_EQ(f.named_args[1].first, "union_by_name");
  EXPECT_EQ(f.alias, "t");
  EXPECT_EQ(f.location, 14);
  EXPECT_EQ(f.ToString(),
            "read_parquet('data/*.parquet', hive_partitioning => TRUE, union_by_name => "
            "FALSE) AS t");
  EXPECT_EQ(QueryText("SELECT * FROM range(10) r(i)"), "SELECT * FROM range(10) AS r(i)");
  // Only a bare name on the left of = is a named argument.
  ParsedQuery expr_arg = ParseQuery("SELECT * FROM f(a.b = 1)");
  EXPECT_EQ(static_cast<const TableFunctionRef&>(FromOf(expr_arg)).args.size(), 1u);
  ExpectNotSupported("SELECT * FROM t, LATERAL f(t.x)", "LATERAL");
  ExpectNotSupported("SELECT * FROM f(1) WITH ORDINALITY", "WITH ORDINALITY");
  ExpectNotSupported("SELECT * FROM ROWS FROM (f(1), g(2))", "ROWS FROM");
  ExpectNotSupported("SELECT * FROM f(1) AS x(a int)", "column definition lists");
}

TEST(ParserFromTest, Subqueries) {
  ParsedQuery parsed = ParseQuery("SELECT * FROM (SELECT a FROM t) AS s(x)");
  const auto& sub = static_cast<const SubqueryRef&>(FromOf(parsed));
  ASSERT_EQ(sub.kind, TableRefKind::kSubquery);
  EXPECT_EQ(sub.alias, "s");
  EXPECT_EQ(sub.column_aliases, (std::vector<std::string>{"x"}));
  EXPECT_EQ(sub.query->ToString(), "SELECT a FROM t");
  ParsedQuery lateral = ParseQuery("SELECT * FROM t, LATERAL (SELECT t.a) s");
  const auto& join = static_cast<const JoinRef&>(FromOf(lateral));
  ASSERT_EQ(join.right->kind, TableRefKind::kSubquery);
  EXPECT_TRUE(static_cast<const SubqueryRef&>(*join.right).lateral);
  EXPECT_EQ(QueryText("SELECT * FROM t LEFT JOIN LATERAL (SELECT t.a) s ON true"),
            "SELECT * FROM (t LEFT JOIN LATERAL (SELECT t.a) AS s ON TRUE)");
  // PostgreSQL 15 requires the alias; as in DuckDB, shears names unaliased subqueries.
  EXPECT_EQ(
      QueryText("SELECT * FROM (SELECT 1), (SELECT 2) x, (VALUES (3)) JOIN (SELECT 4) ON true"),
      "SELECT * FROM (((SELECT 1) AS unnamed_subquery CROSS JOIN (SELECT 2) AS x) CROSS JOIN "
      "((VALUES (3)) AS unnamed_subquery2 JOIN (SELECT 4) AS unnamed_subquery3 ON TRUE))");
}

TEST(ParserFromTest, Joins) {
  struct Case {
    const char* from;
    JoinType type;
    const char* text;
  };
  for (const Case& c : std::vector<Case>{
           {"a JOIN b ON a.k = b.k", JoinType::kInner, "(a JOIN b ON (a.k = b.k))"},
           {"a INNER JOIN b ON true", JoinType::kInner, "(a JOIN b ON TRUE)"},
           {"a LEFT JOIN b ON a.k = b.k", JoinType::kLeft, "(a LEFT JOIN b ON (a.k = b.k))"},
           {"a LEFT OUTER JOIN b USING (k)", JoinType::kLeft, "(a LEFT JOIN b USING (k))"},
           {"a RIGHT JOIN b USING (k, l)", JoinType::kRight, "(a RIGHT JOIN b USING (k, l))"},
           {"a FULL OUTER JOIN b ON x", JoinType::kFull, "(a FULL JOIN b ON x)"},
           {"a CROSS JOIN b", JoinType::kCross, "(a CROSS JOIN b)"},
           {"a, b", JoinType::kCross, "(a CROSS JOIN b)"},
           {"a NATURAL JOIN b", JoinType::kInner, "(a NATURAL JOIN b)"},
           {"a NATURAL LEFT JOIN b", JoinType::kLeft, "(a NATURAL LEFT JOIN b)"},
       }) {
    ParsedQuery parsed = ParseQuery(std::string("SELECT * FROM ") + c.from);
    const auto& join = static_cast<const JoinRef&>(FromOf(parsed));
    ASSERT_EQ(join.kind, TableRefKind::kJoin) << c.from;
    EXPECT_EQ(join.join_type, c.type) << c.from;
    EXPECT_EQ(join.ToString(), c.text) << c.from;
  }
  ParsedQuery using_query = ParseQuery("SELECT * FROM a JOIN b USING (k)");
  const auto& using_join = static_cast<const JoinRef&>(FromOf(using_query));
  EXPECT_EQ(using_join.using_columns, (std::vector<std::string>{"k"}));
  EXPECT_EQ(using_join.condition, nullptr);
  ParsedQuery natural = ParseQuery("SELECT * FROM a NATURAL JOIN b");
  EXPECT_TRUE(static_cast<const JoinRef&>(FromOf(natural)).natural);
  // Comma lists and join chains are left-deep.
  EXPECT_EQ(QueryText("SELECT * FROM a, b, c"), "SELECT * FROM ((a CROSS JOIN b) CROSS JOIN c)");
  EXPECT_EQ(QueryText("SELECT * FROM a JOIN b ON p JOIN c ON q, d"),
            "SELECT * FROM (((a JOIN b ON p) JOIN c ON q) CROSS JOIN d)");
  EXPECT_EQ(QueryText("SELECT * FROM a JOIN (b JOIN c ON q) ON p"),
            "SELECT * FROM (a JOIN (b JOIN c ON q) ON p)");
  EXPECT_EQ(QueryText("SELECT * FROM (a JOIN b USING (k)) AS j"),
            "SELECT * FROM (a JOIN b USING (k)) AS j");
  ExpectNotSupported("SELECT * FROM a JOIN b USING (k) AS u", "USING (...) AS alias");
}

// ---------------------------------------------------------------- FROM 'path'

TEST(ParserPathTest, StringInFromIsReadParquet) {
  ParsedQuery parsed = ParseQuery("SELECT * FROM 'data/sales/*.parquet'");
  const auto& f = static_cast<const TableFunctionRef&>(FromOf(parsed));
  ASSERT_EQ(f.kind, TableRefKind::kTableFunction);
  EXPECT_EQ(f.name, "read_parquet");
  ASSERT_EQ(f.args.size(), 1u);
  EXPECT_EQ(static_cast<ConstantExpr&>(*f.args[0]).value, Value::Varchar("data/sales/*.parquet"));
  // Locations refer to the user's text: the literal.
  EXPECT_EQ(f.location, 14);
  EXPECT_EQ(f.args[0]->location, 14);
}

TEST(ParserPathTest, JoinsOfPathsWithAliases) {
  std::string sql = "SELECT x.a, y.b FROM 'a' AS x JOIN 'b' y ON x.k = y.k WHERE x.a > 1";
  ParsedQuery parsed = ParseQuery(sql);
  EXPECT_EQ(parsed.query->ToString(),
            "SELECT x.a, y.b FROM (read_parquet('a') AS x JOIN read_parquet('b') AS y ON "
            "(x.k = y.k)) WHERE (x.a > 1)");
  const auto& join = static_cast<const JoinRef&>(FromOf(parsed));
  EXPECT_EQ(join.left->location, static_cast<int>(sql.find("'a'")));
  EXPECT_EQ(join.right->location, static_cast<int>(sql.find("'b'")));
  // Locations after the rewritten literals are unshifted.
  const auto& where = static_cast<const OperatorExpr&>(*AsSelect(parsed.query).where);
  EXPECT_EQ(where.children[0]->location, static_cast<int>(sql.find("x.a >")));
  EXPECT_EQ(where.location, static_cast<int>(sql.find('>')));
}

TEST(ParserPathTest, Rewrites) {
  struct Case {
    const char* sql;
    const char* text;
  };
  for (const Case& c : std::vector<Case>{
           {"SELECT * FROM 'a', 'b'",
            "SELECT * FROM (read_parquet('a') CROSS JOIN read_parquet('b'))"},
           {"SELECT * FROM t, 'b' AS b", "SELECT * FROM (t CROSS JOIN read_parquet('b') AS b)"},
           {"select * from 'a' left join 'b' using (k) cross join 'c' natural join 'd'",
            "SELECT * FROM (((read_parquet('a') LEFT JOIN read_parquet('b') USING (k)) CROSS "
            "JOIN read_parquet('c')) NATURAL JOIN read_parquet('d'))"},
           {"SELECT * FROM t1 JOIN t2 ON t1.a = 'x', 'y'",
            "SELECT * FROM ((t1 JOIN t2 ON (t1.a = 'x')) CROSS JOIN read_parquet('y'))"},
           {"SELECT * FROM (SELECT * FROM 'a') s",
            "SELECT * FROM (SELECT * FROM read_parquet('a')) AS s"},
           {"SELECT * FROM ('a' x JOIN 'b' y USING (k))",
            "SELECT * FROM (read_parquet('a') AS x JOIN read_parquet('b') AS y USING (k))"},
           {"SELECT * FROM t WHERE x IN (SELECT y FROM 'b')",
            "SELECT * FROM t WHERE x IN (SELECT y FROM read_parquet('b'))"},
           {"SELECT (SELECT max(x) FROM 'm') FROM 'n'",
            "SELECT (SELECT max(x) FROM read_parquet('m')) FROM read_parquet('n')"},
           {"WITH c AS (SELECT * FROM 'a') SELECT * FROM c, 'b'",
            "WITH c AS (SELECT * FROM read_parquet('a')) SELECT * FROM (c CROSS JOIN "
            "read_parquet('b'))"},
           {"SELECT * FROM 'a' UNION ALL SELECT * FROM 'b' ORDER BY 1",
            "(SELECT * FROM read_parquet('a')) UNION ALL (SELECT * FROM read_parquet('b')) "
            "ORDER BY 1"},
           {"SELECT * FROM 'a' x(c1, c2)", "SELECT * FROM read_parquet('a') AS x(c1, c2)"},
           {"SELECT * FROM 'it''s.parquet'", "SELECT * FROM read_parquet('it''s.parquet')"},
           {"SELECT * FROM E'a\\\\b'", "SELECT * FROM read_parquet('a\\b')"},
           {"SELECT * FROM $$p$$", "SELECT * FROM read_parquet('p')"},
           {"SELECT * FROM /* c */ 'a' -- c\n WHERE 'a' = 'b'",
            "SELECT * FROM read_parquet('a') WHERE ('a' = 'b')"},
       }) {
    EXPECT_EQ(QueryText(c.sql), c.text) << c.sql;
  }
}

TEST(ParserPathTest, StringsElsewhereAreNotRewritten) {
  for (const char* sql : {
           "SELECT 'lit' FROM t",
           "SELECT * FROM t WHERE s = 'x'",
           "SELECT a, 'b' FROM t",
           "SELECT * FROM f('a', 'b')",
           "SELECT * FROM read_parquet('a')",
           "SELECT * FROM (VALUES ('a'), ('b')) v(x)",
           "SELECT EXTRACT(year FROM '2000-01-01'::date) FROM t",
           "SELECT TRIM(BOTH FROM 'x'), TRIM(FROM ' y ') FROM t",
           "SELECT SUBSTRING('abc' FROM 2 FOR 1) FROM t",
           "SELECT a IS DISTINCT FROM 'q', a IS NOT DISTINCT FROM 'r' FROM t",
           "SELECT * FROM t WHERE a IN ('x', 'y') ORDER BY 'z' LIMIT 1",
           "SELECT * FROM t JOIN u ON ('a' = u.x)",
           "SELECT * FROM t GROUP BY 'x' HAVING 'y' = 'y'",
           "SET s = 'x'",
       }) {
    auto statements = Parser::Parse(sql);
    ASSERT_EQ(statements.size(), 1u);
    if (statements[0]->kind != StatementKind::kSelect) continue;
    std::string text = static_cast<SelectStatement&>(*statements[0]).query->ToString();
    EXPECT_EQ(text.find("read_parquet('"), std::string(sql).find("read_parquet('"))
        << sql << " -> " << text;
  }
  EXPECT_EQ(QueryText("SELECT EXTRACT(year FROM '2000-01-01'::date) FROM 'p'"),
            "SELECT extract(year FROM CAST('2000-01-01' AS DATE)) FROM read_parquet('p')");
}

TEST(ParserPathTest, RewriteAcrossStatementsAndViews) {
  auto statements =
      Parser::Parse("SELECT EXTRACT(day FROM d) FROM t; SELECT * FROM 'x'; SELECT 'y'");
  ASSERT_EQ(statements.size(), 3u);
  EXPECT_EQ(static_cast<SelectStatement&>(*statements[1]).query->ToString(),
            "SELECT * FROM read_parquet('x')");
  EXPECT_EQ(static_cast<SelectStatement&>(*statements[2]).query->ToString(), "SELECT 'y'");
}

// ---------------------------------------------------------------- queries

TEST(ParserQueryTest, SelectClauses) {
  ParsedQuery parsed = ParseQuery(
      "SELECT DISTINCT a AS x, sum(b) total FROM t WHERE c > 0 GROUP BY a, 2 HAVING sum(b) > 10 "
      "ORDER BY x DESC NULLS FIRST, 2 NULLS LAST, a ASC LIMIT 10 OFFSET 5");
  auto& select = AsSelect(parsed.query);
  EXPECT_TRUE(select.distinct);
  ASSERT_EQ(select.select_list.size(), 2u);
  EXPECT_EQ(select.select_list[0].alias, "x");
  EXPECT_EQ(select.select_list[1].alias, "total");
  EXPECT_EQ(select.select_list[1].expr->ToString(), "sum(b)");
  ASSERT_NE(select.where, nullptr);
  EXPECT_EQ(select.group_by.size(), 2u);
  ASSERT_NE(select.having, nullptr);
  ASSERT_EQ(select.order_by.size(), 3u);
  EXPECT_TRUE(select.order_by[0].descending);
  EXPECT_EQ(select.order_by[0].nulls_first, std::optional<bool>(true));
  EXPECT_FALSE(select.order_by[1].descending);
  EXPECT_EQ(select.order_by[1].nulls_first, std::optional<bool>(false));
  EXPECT_FALSE(select.order_by[2].nulls_first.has_value());
  ASSERT_NE(select.limit, nullptr);
  EXPECT_EQ(select.limit->ToString(), "10");
  ASSERT_NE(select.offset, nullptr);
  EXPECT_EQ(select.offset->ToString(), "5");
  EXPECT_EQ(select.location, 16);
  EXPECT_EQ(select.ToString(),
            "SELECT DISTINCT a AS x, sum(b) AS total FROM t WHERE (c > 0) GROUP BY a, 2 HAVING "
            "(sum(b) > 10) ORDER BY x DESC NULLS FIRST, 2 NULLS LAST, a LIMIT 10 OFFSET 5");
}

TEST(ParserExpressionTest, AggregateFilter) {
  EXPECT_EQ(
      QueryText("SELECT count(*) FILTER (WHERE x > 1), sum(DISTINCT y) FILTER (WHERE z) FROM t"),
      "SELECT count(*) FILTER (WHERE (x > 1)), sum(DISTINCT y) FILTER (WHERE z) FROM t");
}

TEST(ParserQueryTest, ParenthesisedSetOperationInFrom) {
  // The operands get no alias of their own; the set operation around them is the subquery.
  EXPECT_EQ(QueryText("SELECT * FROM ((SELECT 1) EXCEPT (SELECT 2)) t"),
            "SELECT * FROM ((SELECT 1) EXCEPT (SELECT 2)) AS t");
  EXPECT_EQ(QueryText("SELECT * FROM ((SELECT 1) UNION ALL (SELECT 2))"),
            "SELECT * FROM ((SELECT 1) UNION ALL (SELECT 2)) AS unnamed_subquery");
}

TEST(ParserQueryTest, GroupingSets) {
  // Expanded into their sets; a GROUP BY list is the cross product of its items' sets.
  EXPECT_EQ(QueryText("SELECT 1 FROM t GROUP BY ROLLUP (a, (b, c))"),
            "SELECT 1 FROM t GROUP BY GROUPING SETS ((a, b, c), (a), ())");
  EXPECT_EQ(QueryText("SELECT 1 FROM t GROUP BY CUBE (a, b)"),
            "SELECT 1 FROM t GROUP BY GROUPING SETS ((a, b), (a), (b), ())");
  EXPECT_EQ(QueryText("SELECT 1 FROM t GROUP BY a, GROUPING SETS ((b), (), ROLLUP (c))"),
            "SELECT 1 FROM t GROUP BY GROUPING SETS ((a, b), (a), (a, c), (a))");
  EXPECT_EQ(QueryText("SELECT 1 FROM t GROUP BY ()"),
            "SELECT 1 FROM t GROUP BY GROUPING SETS (())");
  EXPECT_EQ(QueryText("SELECT GROUPING(a, b) FROM t GROUP BY CUBE (a, b)"),
            "SELECT grouping(a, b) FROM t GROUP BY GROUPING SETS ((a, b), (a), (b), ())");
  ExpectNotSupported("SELECT 1 FROM t GROUP BY CUBE (a, b, c, d, e, f, g, h, i, j, k, l, m)",
                     "CUBE of more than 12 elements");
  ExpectNotSupported(
      "SELECT 1 FROM t GROUP BY CUBE (a, b, c, d, e, f, g, h, i, j, k, l), CUBE (m, n)",
      "more than 4096 grouping sets");
}

TEST(ParserQueryTest, LimitForms) {
  EXPECT_EQ(QueryText("SELECT 1 LIMIT ALL"), "SELECT 1");
  EXPECT_EQ(QueryText("SELECT 1 LIMIT ALL OFFSET 2"), "SELECT 1 OFFSET 2");
  EXPECT_EQ(QueryText("SELECT 1 OFFSET 2 ROWS FETCH FIRST 3 ROWS ONLY"),
            "SELECT 1 LIMIT 3 OFFSET 2");
  EXPECT_EQ(QueryText("SELECT 1 FETCH FIRST ROW ONLY"), "SELECT 1 LIMIT 1");
  EXPECT_EQ(QueryText("SELECT 1 LIMIT 2 + 3"), "SELECT 1 LIMIT (2 + 3)");
  ExpectNotSupported("SELECT a FROM t ORDER BY a FETCH FIRST 3 ROWS WITH TIES", "WITH TIES");
  EXPECT_THROW(Parser::Parse("SELECT 1 LIMIT 1, 2"), ParseError);
}

TEST(ParserQueryTest, UnsupportedSelectForms) {
  EXPECT_EQ(NotSupportedOf("SELECT DISTINCT ON (a) a, b FROM t QUALIFY b > 1"),
            "DISTINCT ON together with QUALIFY is not supported\n"
            "LINE 1: SELECT DISTINCT ON (a) a, b FROM t QUALIFY b > 1\n"
            "                            ^");
  ExpectNotSupported("SELECT a FROM t GROUP BY DISTINCT a", "GROUP BY DISTINCT");
  ExpectNotSupported("SELECT a INTO x FROM t", "SELECT ... INTO is not supported");
  ExpectNotSupported("SELECT a FROM t FOR UPDATE", "FOR UPDATE/SHARE");
  ExpectNotSupported("SELECT a FROM t ORDER BY a USING <", "ORDER BY ... USING");
  ExpectNotSupported("WITH RECURSIVE x AS (INSERT INTO t VALUES (1) RETURNING *) SELECT 1",
                     "Recursive CTEs with DML statements are not supported");
  // A write in WITH keeps its text's span, for the write to parse it again alone.
  auto with_write = ParseOne("WITH x AS (INSERT INTO t VALUES (1) RETURNING *) SELECT * FROM x");
  const auto& cte = static_cast<SelectStatement&>(*with_write).query->ctes.at(0);
  ASSERT_NE(cte.dml, nullptr);
  EXPECT_EQ(cte.dml->location, 11);
  EXPECT_EQ(cte.dml->length, 36);
}

TEST(ParserQueryTest, RecursiveCommonTableExpressions) {
  ParsedQuery parsed =
      ParseQuery("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT * FROM r");
  ASSERT_EQ(parsed.query->ctes.size(), 1u);
  EXPECT_TRUE(parsed.query->ctes[0].recursive);
  EXPECT_EQ(parsed.query->ctes[0].query->kind, QueryNodeKind::kSetOperation);
}

TEST(ParserQueryTest, CommonTableExpressions) {
  ParsedQuery parsed = ParseQuery(
      "WITH a(x, y) AS (SELECT 1, 2), b AS MATERIALIZED (SELECT * FROM a) SELECT * FROM b");
  ASSERT_EQ(parsed.query->ctes.size(), 2u);
  EXPECT_EQ(parsed.query->ctes[0].name, "a");
  EXPECT_EQ(parsed.query->ctes[0].column_aliases, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(parsed.query->ctes[1].name, "b");
  EXPECT_EQ(parsed.query->ctes[1].query->ToString(), "SELECT * FROM a");
  EXPECT_EQ(parsed.query->ctes[0].materialize, ast::CteMaterialize::kDefault);
  EXPECT_EQ(parsed.query->ctes[1].materialize, ast::CteMaterialize::kAlways);
  EXPECT_EQ(parsed.query->ToString(),
            "WITH a(x, y) AS (SELECT 1, 2), b AS MATERIALIZED (SELECT * FROM a) SELECT * FROM b");
  EXPECT_EQ(ParseQuery("WITH a AS NOT MATERIALIZED (SELECT 1) SELECT * FROM a")
                .query->ctes[0]
                .materialize,
            ast::CteMaterialize::kNever);
}

TEST(ParserQueryTest, Values) {
  ParsedQuery parsed = ParseQuery("VALUES (1, 'a'), (2, 'b') ORDER BY 1 LIMIT 1");
  ASSERT_EQ(parsed.query->kind, QueryNodeKind::kValues);
  auto& values = static_cast<ValuesNode&>(*parsed.query);
  ASSERT_EQ(values.rows.size(), 2u);
  EXPECT_EQ(values.rows[1].size(), 2u);
  EXPECT_EQ(values.order_by.size(), 1u);
  ASSERT_NE(values.limit, nullptr);
  EXPECT_EQ(values.location, 8);
  EXPECT_EQ(values.ToString(), "VALUES (1, 'a'), (2, 'b') ORDER BY 1 LIMIT 1");
  EXPECT_EQ(QueryText("SELECT * FROM (VALUES (1), (2)) AS v(x)"),
            "SELECT * FROM (VALUES (1), (2)) AS v(x)");
  EXPECT_EQ(ParseErrorOf("VALUES (1), (1, 2)"),
            "VALUES lists must all be the same length\n"
            "LINE 1: VALUES (1), (1, 2)\n"
            "                     ^");
}

TEST(ParserQueryTest, SetOperations) {
  ParsedQuery parsed = ParseQuery("SELECT a FROM t UNION ALL SELECT b FROM u ORDER BY 1 LIMIT 5");
  ASSERT_EQ(parsed.query->kind, QueryNodeKind::kSetOperation);
  auto& setop = static_cast<SetOperationNode&>(*parsed.query);
  EXPECT_EQ(setop.op, SetOperationType::kUnion);
  EXPECT_TRUE(setop.all);
  EXPECT_EQ(setop.left->ToString(), "SELECT a FROM t");
  EXPECT_EQ(setop.right->ToString(), "SELECT b FROM u");
  // ORDER BY and LIMIT belong to the set operation, not to its right input.
  EXPECT_EQ(setop.order_by.size(), 1u);
  ASSERT_NE(setop.limit, nullptr);
  EXPECT_TRUE(setop.right->order_by.empty());
  EXPECT_EQ(setop.ToString(), "(SELECT a FROM t) UNION ALL (SELECT b FROM u) ORDER BY 1 LIMIT 5");
  EXPECT_EQ(QueryText("SELECT 1 UNION SELECT 2 INTERSECT SELECT 3"),
            "(SELECT 1) UNION ((SELECT 2) INTERSECT (SELECT 3))");
  EXPECT_EQ(QueryText("SELECT 1 EXCEPT ALL SELECT 2 EXCEPT SELECT 3"),
            "((SELECT 1) EXCEPT ALL (SELECT 2)) EXCEPT (SELECT 3)");
  EXPECT_EQ(QueryText("(SELECT 1 ORDER BY 1 LIMIT 1) UNION (SELECT 2)"),
            "(SELECT 1 ORDER BY 1 LIMIT 1) UNION (SELECT 2)");
  ParsedQuery with = ParseQuery("WITH c AS (SELECT 1) SELECT * FROM c UNION SELECT 2");
  EXPECT_EQ(with.query->ctes.size(), 1u);
  EXPECT_EQ(with.query->kind, QueryNodeKind::kSetOperation);
}

}  // namespace
}  // namespace shears

#include "parser/parser.h"

#include <gtest/gtest.h>

#include <atomic>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "common/error.h"
#include "common/interval.h"
#include "parser/transformer.h"
#include "parser_test_util.h"

namespace shears {
namespace {

using namespace ast;               // NOLINT: the tests name many AST types
using namespace parser_test_util;  // NOLINT

// ---------------------------------------------------------------- error positions

TEST(ParserErrorPositionTest, SingleLine) {
  EXPECT_EQ(FormatErrorPosition("select * form t", 9),
            "LINE 1: select * form t\n"
            "                 ^");
  EXPECT_EQ(FormatErrorPosition("abc", 0), "LINE 1: abc\n        ^");
  EXPECT_EQ(FormatErrorPosition("abc", -1), "");
}

TEST(ParserErrorPositionTest, MultiLine) {
  std::string sql = "select a,\n  b\nfrom t wher x";
  int offset = static_cast<int>(sql.find("x"));
  EXPECT_EQ(FormatErrorPosition(sql, offset),
            "LINE 3: from t wher x\n"
            "                    ^");
  // A position on a line break belongs to the line it ends.
  EXPECT_EQ(FormatErrorPosition(sql, 9), "LINE 1: select a,\n                 ^");
  EXPECT_EQ(FormatErrorPosition("a\r\nbc", 3), "LINE 2: bc\n        ^");
}

TEST(ParserErrorPositionTest, EndOfInputPointsAfterLastText) {
  EXPECT_EQ(FormatErrorPosition("select 1 +", 10), "LINE 1: select 1 +\n                  ^");
  EXPECT_EQ(FormatErrorPosition("select 1 +\n\n  ", 14), "LINE 1: select 1 +\n                  ^");
  EXPECT_EQ(FormatErrorPosition("select", 1000), "LINE 1: select\n              ^");
}

TEST(ParserErrorPositionTest, CountsCharactersAndKeepsTabs) {
  // 'é' is two bytes but one column; the tab is repeated so the caret lines up.
  std::string sql = "select '\xC3\xA9',\tx";
  EXPECT_EQ(FormatErrorPosition(sql, static_cast<int>(sql.find('x'))),
            "LINE 1: select '\xC3\xA9',\tx\n"
            "                   \t^");
}

TEST(ParserErrorPositionTest, LongLinesAreCut) {
  std::string sql = "select " + std::string(1000, 'a') + " + ) " + std::string(1000, 'b');
  int offset = static_cast<int>(sql.find(')'));
  std::string text = FormatErrorPosition(sql, offset);
  size_t newline = text.find('\n');
  ASSERT_NE(newline, std::string::npos);
  std::string line = text.substr(0, newline);
  std::string caret = text.substr(newline + 1);
  EXPECT_LT(line.size(), 200u);
  EXPECT_EQ(line.substr(0, 11), "LINE 1: ...");
  EXPECT_EQ(line.substr(line.size() - 3), "...");
  ASSERT_LT(caret.size() - 1, line.size());
  EXPECT_EQ(line[caret.size() - 1], ')');
  EXPECT_EQ(caret.back(), '^');
}

// ---------------------------------------------------------------- statements and errors

TEST(ParserTest, EmptyInputHasNoStatements) {
  EXPECT_TRUE(Parser::Parse("").empty());
  EXPECT_TRUE(Parser::Parse("   \n\t ").empty());
  EXPECT_TRUE(Parser::Parse(";").empty());
  EXPECT_TRUE(Parser::Parse(" ; ;; ").empty());
  EXPECT_TRUE(Parser::Parse("-- just a comment").empty());
  EXPECT_TRUE(Parser::Parse("/* block */").empty());
}

TEST(ParserTest, MultipleStatements) {
  std::string sql = "SELECT 1;  select 2 ;\n-- comment\nSELECT 3 /* c */";
  auto statements = Parser::Parse(sql);
  ASSERT_EQ(statements.size(), 3u);
  std::vector<std::string> texts;
  for (const auto& s : statements)
    texts.push_back(sql.substr(s->location, s->length));
  EXPECT_EQ(texts, (std::vector<std::string>{"SELECT 1", "select 2", "SELECT 3"}));
  EXPECT_EQ(static_cast<SelectStatement&>(*statements[2]).query->ToString(), "SELECT 3");
}

TEST(ParserTest, StatementRangesReferToUserTextAfterRewrites) {
  std::string sql = "SELECT * FROM 'a.parquet'; SELECT * FROM 'b' JOIN 'c' USING (k)";
  auto statements = Parser::Parse(sql);
  ASSERT_EQ(statements.size(), 2u);
  EXPECT_EQ(sql.substr(statements[0]->location, statements[0]->length),
            "SELECT * FROM 'a.parquet'");
  EXPECT_EQ(sql.substr(statements[1]->location, statements[1]->length),
            "SELECT * FROM 'b' JOIN 'c' USING (k)");
}

TEST(ParserTest, SyntaxErrorHasPosition) {
  EXPECT_EQ(ParseErrorOf("select * form t"),
            "syntax error at or near \"form\"\n"
            "LINE 1: select * form t\n"
            "                 ^");
  EXPECT_EQ(ParseErrorOf("SELECT a,\n       b\n  FROM t\n WHERE a = = 1"),
            "syntax error at or near \"=\"\n"
            "LINE 4:  WHERE a = = 1\n"
            "                   ^");
  EXPECT_EQ(ParseErrorOf("select 1 +"),
            "syntax error at end of input\n"
            "LINE 1: select 1 +\n"
            "                  ^");
}

TEST(ParserTest, ErrorPositionCountsMultiByteCharacters) {
  // PostgreSQL reports character positions; the caret must still land on the token.
  EXPECT_EQ(ParseErrorOf("SELECT '\xC3\xA9\xC3\xA9' FROM t WHERE x = = 1"),
            "syntax error at or near \"=\"\n"
            "LINE 1: SELECT '\xC3\xA9\xC3\xA9' FROM t WHERE x = = 1\n"
            "                                     ^");
}

TEST(ParserTest, ErrorPositionAfterRewrittenPath) {
  EXPECT_EQ(ParseErrorOf("SELECT * FROM 'data/x.parquet' WHERE a = = 1"),
            "syntax error at or near \"=\"\n"
            "LINE 1: SELECT * FROM 'data/x.parquet' WHERE a = = 1\n"
            "                                                 ^");
  EXPECT_EQ(ParseErrorOf("SELECT *\nFROM 'a' x JOIN 'b' y ON x.k = y.k\nWHERE )"),
            "syntax error at or near \")\"\n"
            "LINE 3: WHERE )\n"
            "              ^");
  // Multi-byte text before and inside the rewritten literal.
  EXPECT_EQ(ParseErrorOf("SELECT '\xC3\xA9' FROM 'd\xC3\xA4t\xC3\xA4' WHERE a = = 1"),
            "syntax error at or near \"=\"\n"
            "LINE 1: SELECT '\xC3\xA9' FROM 'd\xC3\xA4t\xC3\xA4' WHERE a = = 1\n"
            "                                         ^");
  EXPECT_EQ(QueryText("SELECT '\xC3\xA9' FROM 'd\xC3\xA4t\xC3\xA4'"),
            "SELECT '\xC3\xA9' FROM read_parquet('d\xC3\xA4t\xC3\xA4')");
  // The literal itself misplaced: the caret points at the user's quote.
  // DuckDB's FROM-first query: a statement that starts with FROM selects *.
  EXPECT_EQ(QueryText("FROM t WHERE a > 1"), "SELECT * FROM t WHERE (a > 1)");
  EXPECT_EQ(QueryText("FROM 'x.csv'"), "SELECT * FROM read_csv('x.csv')");
  // Its select list moves in front of FROM with the list rewrites inside it applied.
  EXPECT_EQ(QueryText("FROM t SELECT [a, 1][2], f(a)[1] WHERE a = [1]"),
            "SELECT list_extract(list_value(a, 1), 2), list_extract(f(a), 1) FROM t WHERE (a = "
            "list_value(1))");
  EXPECT_EQ(QueryText("FROM t SELECT * EXCLUDE (b), [a]"),
            QueryText("SELECT * EXCLUDE (b), [a] FROM t"));
  EXPECT_EQ(ParseErrorOf("SELECT * FROM 'a' 'b'"),
            "syntax error at or near \"'b'\"\n"
            "LINE 1: SELECT * FROM 'a' 'b'\n"
            "                          ^");
}

TEST(ParserTest, GarbageInput) {
  for (const char* sql :
       {"asdf qwer", "SELECT (", ")))", "'", "/* unterminated", "SELECT 'abc", "\x01\x02\x03",
        "SELECT * FROM", "FROM", "FROM t t t", "SELECT 1 2 3", "$$"}) {
    EXPECT_THROW(Parser::Parse(sql), ParseError) << sql;
  }
  EXPECT_EQ(ParseErrorOf("SELECT 'abc"),
            "unterminated quoted string at or near \"'abc\"\n"
            "LINE 1: SELECT 'abc\n"
            "               ^");
}

TEST(ParserTest, NulBytesAndInvalidUtf8) {
  std::string with_nul("SELECT 1\0; DROP", 16);
  EXPECT_NE(ParseErrorOf(with_nul).find("NUL byte"), std::string::npos);
  std::string bad = "SELECT 'a\xFF'";
  EXPECT_EQ(ParseErrorOf(bad),
            "query text is not valid UTF-8\n"
            "LINE 1: SELECT 'a\xFF'\n"
            "                 ^");
}

TEST(ParserTest, ConcurrentParses) {
  // libpg_query keeps its state per thread; the parser adds none.
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; t++) {
    threads.emplace_back([&failures, t] {
      for (int i = 0; i < 200; i++) {
        std::string n = std::to_string(t * 1000 + i);
        try {
          auto statements = Parser::Parse("SELECT a + " + n + " FROM 'x' WHERE b IN (SELECT c)");
          std::string text = static_cast<SelectStatement&>(*statements.at(0)).query->ToString();
          if (text != "SELECT (a + " + n + ") FROM read_parquet('x') WHERE b IN (SELECT c)") {
            failures++;
          }
        } catch (const std::exception&) {
          failures++;
        }
        try {
          Parser::Parse("SELECT " + n + " FORM t");
          failures++;
        } catch (const ParseError& e) {
          if (std::string(e.what()).find("LINE 1: SELECT " + n + " FORM t") == std::string::npos) {
            failures++;
          }
        }
      }
    });
  }
  for (auto& thread : threads)
    thread.join();
  EXPECT_EQ(failures.load(), 0);
}

TEST(ParserTest, UnsupportedStatements) {
  ExpectNotSupported("INSERT INTO t VALUES (1) ON CONFLICT ON CONSTRAINT c DO NOTHING",
                     "ON CONFLICT ON CONSTRAINT is not supported");
  auto update = ParseOne("UPDATE t SET a = 1 RETURNING a, b + 1 AS c");
  const auto& returning = static_cast<UpdateStatement&>(*update).returning;
  ASSERT_EQ(returning.size(), 2u);
  EXPECT_EQ(returning[1].alias, "c");
  auto remove = ParseOne("DELETE FROM t RETURNING *");
  EXPECT_EQ(static_cast<DeleteStatement&>(*remove).returning.size(), 1u);
  ExpectNotSupported("UPDATE t SET (a, b) = (SELECT 1, 2)", "UPDATE ... SET (a, b) = (SELECT ...)");
  ExpectNotSupported("CREATE INDEX ON t (a)", "CREATE INDEX needs a name");
  auto drop_index = ParseOne("DROP INDEX s.i");  // the catalog resolves the schema
  EXPECT_EQ(static_cast<DropIndexStatement&>(*drop_index).name, "s.i");
  ExpectNotSupported("MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN DELETE",
                     "MERGE statements are not supported yet");
  ExpectNotSupported("CREATE TABLE t USING csv AS SELECT 1", "only parquet tables");
  ExpectNotSupported("COPY t FROM PROGRAM 'ls'", "COPY ... PROGRAM is not supported");
  ExpectNotSupported("SAVEPOINT x", "SAVEPOINT, RELEASE");
  ExpectNotSupported("VACUUM", "Vacuum statements");
  EXPECT_EQ(NotSupportedOf("SELECT 1;\n  update t set (a, b) = (select 1, 2)"),
            "UPDATE ... SET (a, b) = (SELECT ...) is not supported; set each column\n"
            "LINE 2:   update t set (a, b) = (select 1, 2)\n"
            "                        ^");
}

// ---------------------------------------------------------------- constants

TEST(ParserConstantTest, Integers) {
  EXPECT_EQ(ConstantOf("42"), Value::Integer(42));
  EXPECT_EQ(ConstantOf("0"), Value::Integer(0));
  EXPECT_EQ(ConstantOf("-7"), Value::Integer(-7));
  EXPECT_EQ(ConstantOf("2147483647"), Value::Integer(2147483647));
  EXPECT_EQ(ConstantOf("-2147483648"), Value::Integer(-2147483647 - 1));
  EXPECT_EQ(ConstantOf("2147483648"), Value::Bigint(2147483648LL));
  EXPECT_EQ(ConstantOf("-9223372036854775808"), Value::Bigint(INT64_MIN));
  EXPECT_EQ(ConstantOf("9223372036854775807"), Value::Bigint(INT64_MAX));
  Value big = ConstantOf("9223372036854775808");
  EXPECT_EQ(big.type(), LogicalType::Decimal(38, 0));
  EXPECT_EQ(big.GetInt128(), static_cast<int128_t>(INT64_MAX) + 1);
  Value max38 = ConstantOf(std::string(38, '9'));
  EXPECT_EQ(max38.type(), LogicalType::Decimal(38, 0));
  Value too_long = ConstantOf("1" + std::string(38, '0'));
  EXPECT_EQ(too_long.type(), LogicalType::Double());
  EXPECT_DOUBLE_EQ(too_long.GetDouble(), 1e38);
}

TEST(ParserConstantTest, Decimals) {
  Value v = ConstantOf("2.50");
  EXPECT_EQ(v.type(), LogicalType::Decimal(3, 2));
  EXPECT_EQ(v.GetInt128(), 250);
  EXPECT_EQ(ConstantOf("0.5").type(), LogicalType::Decimal(1, 1));
  EXPECT_EQ(ConstantOf(".05").type(), LogicalType::Decimal(2, 2));
  EXPECT_EQ(ConstantOf("5.").type(), LogicalType::Decimal(1, 0));
  EXPECT_EQ(ConstantOf("0.0").type(), LogicalType::Decimal(1, 1));
  EXPECT_EQ(ConstantOf("123.456").type(), LogicalType::Decimal(6, 3));
  Value negative = ConstantOf("-1.5");
  EXPECT_EQ(negative.type(), LogicalType::Decimal(2, 1));
  EXPECT_EQ(negative.GetInt128(), -15);
  Value wide = ConstantOf("1234567890123456789012345678901234567.8");
  EXPECT_EQ(wide.type(), LogicalType::Decimal(38, 1));
  EXPECT_EQ(ConstantOf("1234567890123456789012345678901234567.89").type(), LogicalType::Double());
  EXPECT_EQ(ExprText("2.50"), "2.50");
  EXPECT_EQ(ExprText("-0.05"), "-0.05");
}

TEST(ParserConstantTest, Doubles) {
  EXPECT_EQ(ConstantOf("1e10"), Value::Double(1e10));
  EXPECT_EQ(ConstantOf("1.5E-3"), Value::Double(1.5e-3));
  EXPECT_EQ(ConstantOf("-2e2"), Value::Double(-200));
  EXPECT_THROW(Parser::Parse("SELECT 1e999"), OutOfRangeError);
}

TEST(ParserConstantTest, StringsBooleansNull) {
  EXPECT_EQ(ConstantOf("'abc'"), Value::Varchar("abc"));
  EXPECT_EQ(ConstantOf("'it''s'"), Value::Varchar("it's"));
  EXPECT_EQ(ConstantOf("E'a\\nb'"), Value::Varchar("a\nb"));
  EXPECT_EQ(ConstantOf("$$dollar 'quoted'$$"), Value::Varchar("dollar 'quoted'"));
  EXPECT_EQ(ConstantOf("''"), Value::Varchar(""));
  EXPECT_EQ(ConstantOf("TRUE"), Value::Boolean(true));
  EXPECT_EQ(ConstantOf("false"), Value::Boolean(false));
  Value null = ConstantOf("NULL");
  EXPECT_TRUE(null.is_null());
  EXPECT_FALSE(null.type().valid());
  EXPECT_EQ(ExprText("'it''s'"), "'it''s'");
  EXPECT_EQ(ExprText("NULL"), "NULL");
  EXPECT_EQ(ExprText("true"), "TRUE");
  ExpectNotSupported("SELECT B'101'", "bit string constants are not supported");
  EXPECT_EQ(ExprText("X'1F'"), "'\\x1F'::BLOB");  // a hex literal is a BLOB
}

TEST(ParserConstantTest, ParseNumericLiteralDirectly) {
  Value v;
  EXPECT_TRUE(parser_internal::ParseNumericLiteral("007.50", &v));
  EXPECT_EQ(v.type(), LogicalType::Decimal(3, 2));
  EXPECT_TRUE(parser_internal::ParseNumericLiteral("-0", &v));
  EXPECT_EQ(v, Value::Integer(0));
  EXPECT_FALSE(parser_internal::ParseNumericLiteral("abc", &v));
  EXPECT_FALSE(parser_internal::ParseNumericLiteral(".", &v));
  EXPECT_FALSE(parser_internal::ParseNumericLiteral("", &v));
}

TEST(ParserConstantTest, Locations) {
  ParsedQuery parsed = ParseQuery("SELECT 1,\n  'x', -5");
  auto& list = AsSelect(parsed.query).select_list;
  EXPECT_EQ(list[0].expr->location, 7);
  EXPECT_EQ(list[1].expr->location, 12);
  EXPECT_EQ(list[2].expr->location, 17);
}

// ---------------------------------------------------------------- expressions

TEST(ParserExpressionTest, ColumnRefsAndStars) {
  ParsedExpr plain("a");
  ASSERT_EQ(plain.expr->kind, ExprKind::kColumnRef);
  EXPECT_EQ(plain.As<ColumnRefExpr>().names, (std::vector<std::string>{"a"}));
  EXPECT_EQ(plain.expr->ToString(), "a");
  EXPECT_EQ(plain.expr->location, 7);
  EXPECT_EQ(ExprText("T.Col"), "t.col");
  EXPECT_EQ(ExprText("\"MixedCase\""), "MixedCase");
  EXPECT_EQ(ExprText("s.t.c"), "s.t.c");
  ParsedExpr star("*");
  ASSERT_EQ(star.expr->kind, ExprKind::kStar);
  EXPECT_EQ(star.As<StarExpr>().relation, "");
  ParsedExpr qualified("t.*");
  ASSERT_EQ(qualified.expr->kind, ExprKind::kStar);
  EXPECT_EQ(qualified.As<StarExpr>().relation, "t");
  EXPECT_EQ(qualified.expr->ToString(), "t.*");
}

TEST(ParserExpressionTest, ArithmeticAndComparison) {
  EXPECT_EQ(ExprText("a + 1"), "(a + 1)");
  EXPECT_EQ(ExprText("a + b * c"), "(a + (b * c))");
  EXPECT_EQ(ExprText("(a + b) * c"), "((a + b) * c)");
  EXPECT_EQ(ExprText("a - b - c"), "((a - b) - c)");
  EXPECT_EQ(ExprText("a / b % c"), "((a / b) % c)");
  EXPECT_EQ(ExprText("a || 'x'"), "(a || 'x')");
  EXPECT_EQ(ExprText("a != b"), "(a <> b)");
  EXPECT_EQ(ExprText("a <> b"), "(a <> b)");
  EXPECT_EQ(ExprText("a <= b"), "(a <= b)");
  EXPECT_EQ(ExprText("a >= b"), "(a >= b)");
  EXPECT_EQ(ExprText("-a"), "(-a)");
  EXPECT_EQ(ExprText("+a"), "(+a)");
  EXPECT_EQ(ExprText("- (-a)"), "(-(-a))");
  ParsedExpr e("a < 1");
  ASSERT_EQ(e.expr->kind, ExprKind::kOperator);
  auto& op = e.As<OperatorExpr>();
  EXPECT_EQ(op.op, "<");
  ASSERT_EQ(op.children.size(), 2u);
  EXPECT_EQ(op.location, 9);  // the operator
  ParsedExpr neg("-a");
  EXPECT_EQ(neg.As<OperatorExpr>().children.size(), 1u);
  EXPECT_EQ(ParsedExpr("a & 2").As<OperatorExpr>().op, "&");  // bitwise, as # << >> |
  ExpectNotSupported("SELECT a @> 2", "operator @> is not supported");
  ExpectNotSupported("SELECT @ a", "operator @ is not supported");
  ExpectNotSupported("SELECT a OPERATOR(pg_catalog.@>) b", "operator @>");
}

TEST(ParserExpressionTest, BooleanConnectivesAreFlattened) {
  ParsedExpr e("a AND b AND (c AND d) AND (e OR f OR (g OR h))");
  auto& op = e.As<OperatorExpr>();
  EXPECT_EQ(op.op, "AND");
  EXPECT_EQ(op.children.size(), 5u);
  EXPECT_EQ(e.expr->ToString(), "(a AND b AND c AND d AND (e OR f OR g OR h))");
  EXPECT_EQ(ExprText("NOT a"), "(NOT a)");
  EXPECT_EQ(ExprText("NOT (a AND b)"), "(NOT (a AND b))");
  EXPECT_EQ(ExprText("a OR b AND c"), "(a OR (b AND c))");
}

TEST(ParserExpressionTest, InListAndBetween) {
  ParsedExpr in("x IN (1, 2, 3)");
  ASSERT_EQ(in.expr->kind, ExprKind::kInList);
  EXPECT_FALSE(in.As<InListExpr>().negated);
  EXPECT_EQ(in.As<InListExpr>().list.size(), 3u);
  EXPECT_EQ(in.expr->ToString(), "x IN (1, 2, 3)");
  ParsedExpr not_in("x NOT IN ('a')");
  EXPECT_TRUE(not_in.As<InListExpr>().negated);
  EXPECT_EQ(not_in.expr->ToString(), "x NOT IN ('a')");
  ParsedExpr between("x BETWEEN 1 AND 10");
  ASSERT_EQ(between.expr->kind, ExprKind::kBetween);
  EXPECT_FALSE(between.As<BetweenExpr>().negated);
  EXPECT_EQ(between.expr->ToString(), "x BETWEEN 1 AND 10");
  EXPECT_EQ(ExprText("x NOT BETWEEN a + 1 AND b"), "x NOT BETWEEN (a + 1) AND b");
  EXPECT_EQ(ExprText("x BETWEEN SYMMETRIC 1 AND 2"), "(x BETWEEN 1 AND 2 OR x BETWEEN 2 AND 1)");
  EXPECT_EQ(ExprText("x NOT BETWEEN SYMMETRIC 1 AND 2"),
            "(NOT (x BETWEEN 1 AND 2 OR x BETWEEN 2 AND 1))");
  // ANY / ALL of an ARRAY[...] constructor: IN lists, or one comparison per element.
  EXPECT_EQ(ExprText("x = ANY(ARRAY[1, 2])"), "x IN (1, 2)");
  EXPECT_EQ(ExprText("x <> ALL(ARRAY[1, 2])"), "x NOT IN (1, 2)");
  EXPECT_EQ(ExprText("x > ALL(ARRAY[1, 2])"), "((x > 1) AND (x > 2))");
  // Rows compare field by field, NULL fields as values (DuckDB's STRUCT comparison).
  EXPECT_EQ(ExprText("(a, b) = (1, 2)"),
            "((a IS NOT DISTINCT FROM 1) AND (b IS NOT DISTINCT FROM 2))");
  ExpectNotSupported("SELECT x <> ALL('{1,2}')", "ALL with an array is not supported");
  // Predicates as operands keep their meaning through parentheses.
  EXPECT_EQ(ExprText("(x IN (1)) = (y IS NULL)"), "((x IN (1)) = (y IS NULL))");
  EXPECT_EQ(ExprText("x IN (1) AND y IS NULL"), "(x IN (1) AND y IS NULL)");
}

TEST(ParserExpressionTest, Like) {
  ParsedExpr like("s LIKE 'a%'");
  ASSERT_EQ(like.expr->kind, ExprKind::kLike);
  auto& l = like.As<LikeExpr>();
  EXPECT_FALSE(l.negated);
  EXPECT_FALSE(l.case_insensitive);
  EXPECT_EQ(l.escape, nullptr);
  EXPECT_EQ(like.expr->ToString(), "s LIKE 'a%'");
  EXPECT_EQ(ExprText("s NOT LIKE 'a%'"), "s NOT LIKE 'a%'");
  EXPECT_EQ(ExprText("s ILIKE 'a%'"), "s ILIKE 'a%'");
  EXPECT_EQ(ExprText("s NOT ILIKE 'a%'"), "s NOT ILIKE 'a%'");
  EXPECT_EQ(ExprText("s LIKE 'a!%' ESCAPE '!'"), "s LIKE 'a!%' ESCAPE '!'");
  ParsedExpr escape("s NOT ILIKE 'x' ESCAPE '#'");
  EXPECT_TRUE(escape.As<LikeExpr>().negated);
  EXPECT_TRUE(escape.As<LikeExpr>().case_insensitive);
  ASSERT_NE(escape.As<LikeExpr>().escape, nullptr);
  // The operator spellings of PostgreSQL.
  EXPECT_EQ(ExprText("s ~~ 'a'"), "s LIKE 'a'");
  EXPECT_EQ(ExprText("s !~~ 'a'"), "s NOT LIKE 'a'");
  EXPECT_EQ(ExprText("s ~~* 'a'"), "s ILIKE 'a'");
  EXPECT_EQ(ExprText("s !~~* 'a'"), "s NOT ILIKE 'a'");
  EXPECT_EQ(ExprText("s SIMILAR TO 'a'"), "(s ~ similar_to_escape('a'))");
  EXPECT_EQ(ExprText("s NOT SIMILAR TO 'a' ESCAPE '#'"), "(s !~ similar_to_escape('a', '#'))");
}

TEST(ParserExpressionTest, NullAndBooleanTests) {
  ParsedExpr is_null("x IS NULL");
  ASSERT_EQ(is_null.expr->kind, ExprKind::kIsNull);
  EXPECT_FALSE(is_null.As<IsNullExpr>().negated);
  EXPECT_EQ(ExprText("x IS NOT NULL"), "x IS NOT NULL");
  EXPECT_EQ(ExprText("x ISNULL"), "x IS NULL");
  EXPECT_EQ(ExprText("x NOTNULL"), "x IS NOT NULL");
  ParsedExpr is_true("x IS TRUE");
  ASSERT_EQ(is_true.expr->kind, ExprKind::kIsBool);
  EXPECT_TRUE(is_true.As<IsBoolExpr>().value);
  EXPECT_FALSE(is_true.As<IsBoolExpr>().negated);
  ParsedExpr not_false("x IS NOT FALSE");
  EXPECT_FALSE(not_false.As<IsBoolExpr>().value);
  EXPECT_TRUE(not_false.As<IsBoolExpr>().negated);
  EXPECT_EQ(ExprText("x IS NOT TRUE"), "x IS NOT TRUE");
  EXPECT_EQ(ExprText("x IS FALSE"), "x IS FALSE");
  EXPECT_EQ(ExprText("x IS UNKNOWN"), "x IS NULL");
  EXPECT_EQ(ExprText("x IS NOT UNKNOWN"), "x IS NOT NULL");
  ParsedExpr distinct("a IS DISTINCT FROM b");
  ASSERT_EQ(distinct.expr->kind, ExprKind::kOperator);
  EXPECT_EQ(distinct.As<OperatorExpr>().op, "IS DISTINCT FROM");
  EXPECT_EQ(distinct.expr->ToString(), "(a IS DISTINCT FROM b)");
  EXPECT_EQ(ExprText("a IS NOT DISTINCT FROM 'x'"), "(a IS NOT DISTINCT FROM 'x')");
}

TEST(ParserExpressionTest, ConditionalFunctions) {
  EXPECT_EQ(ExprText("NULLIF(a, 0)"), "nullif(a, 0)");
  EXPECT_EQ(ExprText("COALESCE(a, b, 1)"), "coalesce(a, b, 1)");
  EXPECT_EQ(ExprText("GREATEST(a, b)"), "greatest(a, b)");
  EXPECT_EQ(ExprText("LEAST(a, b)"), "least(a, b)");
  ParsedExpr nullif("nullif(a, 0)");
  ASSERT_EQ(nullif.expr->kind, ExprKind::kFunction);
  EXPECT_EQ(nullif.As<FunctionExpr>().args.size(), 2u);
}

TEST(ParserExpressionTest, Case) {
  ParsedExpr searched("CASE WHEN a > 1 THEN 'x' WHEN b THEN 'y' ELSE 'z' END");
  ASSERT_EQ(searched.expr->kind, ExprKind::kCase);
  auto& c = searched.As<CaseExpr>();
  EXPECT_EQ(c.operand, nullptr);
  EXPECT_EQ(c.when_then.size(), 2u);
  ASSERT_NE(c.else_expr, nullptr);
  EXPECT_EQ(searched.expr->ToString(), "CASE WHEN (a > 1) THEN 'x' WHEN b THEN 'y' ELSE 'z' END");
  ParsedExpr simple("CASE x WHEN 1 THEN 'one' END");
  ASSERT_NE(simple.As<CaseExpr>().operand, nullptr);
  EXPECT_EQ(simple.As<CaseExpr>().else_expr, nullptr);
  EXPECT_EQ(simple.expr->ToString(), "CASE x WHEN 1 THEN 'one' END");
}

TEST(ParserExpressionTest, FunctionCalls) {
  ParsedExpr count_star("count(*)");
  ASSERT_EQ(count_star.expr->kind, ExprKind::kFunction);
  EXPECT_TRUE(count_star.As<FunctionExpr>().star);
  EXPECT_TRUE(count_star.As<FunctionExpr>().args.empty());
  EXPECT_EQ(count_star.expr->ToString(), "count(*)");
  ParsedExpr distinct("COUNT(DISTINCT x)");
  EXPECT_TRUE(distinct.As<FunctionExpr>().distinct);
  EXPECT_EQ(distinct.expr->ToString(), "count(DISTINCT x)");
  EXPECT_EQ(ExprText("sum(x)"), "sum(x)");
  EXPECT_EQ(ExprText("SUM(t.x * 2)"), "sum((t.x * 2))");
  EXPECT_EQ(ExprText("\"Upper\"(x)"), "upper(x)");
  EXPECT_EQ(ExprText("pg_catalog.lower(x)"), "lower(x)");
  EXPECT_EQ(ExprText("now()"), "now()");
  EXPECT_EQ(ExprText("round(x, 2)"), "round(x, 2)");
  ParsedExpr located("  abs(x)");
  EXPECT_EQ(located.expr->location, 9);
  // main. and pg_catalog. name the built-in functions; another schema's, a macro of it.
  EXPECT_EQ(ExprText("main.abs(x)"), "abs(x)");
  EXPECT_EQ(ExprText("pg_catalog.lower(x)"), "lower(x)");
  EXPECT_EQ(ExprText("myschema.f(x)"), "myschema.f(x)");
}

TEST(ParserExpressionTest, SqlSyntaxFunctions) {
  EXPECT_EQ(ExprText("EXTRACT(YEAR FROM d)"), "extract(year FROM d)");
  EXPECT_EQ(ExprText("extract(epoch from d)"), "extract(epoch FROM d)");
  EXPECT_EQ(ExprText("date_part('Month', d)"), "extract(month FROM d)");
  ParsedExpr extract("EXTRACT(DAY FROM d)");
  auto& f = extract.As<FunctionExpr>();
  EXPECT_EQ(f.name, "extract");
  ASSERT_EQ(f.args.size(), 2u);
  ASSERT_EQ(f.args[0]->kind, ExprKind::kConstant);
  EXPECT_EQ(static_cast<ConstantExpr&>(*f.args[0]).value, Value::Varchar("day"));
  EXPECT_EQ(ExprText("SUBSTRING(s FROM 2 FOR 3)"), "substring(s, 2, 3)");
  EXPECT_EQ(ExprText("SUBSTRING(s FROM 2)"), "substring(s, 2)");
  EXPECT_EQ(ExprText("SUBSTRING(s FOR 3)"), "substring(s, 1, 3)");
  EXPECT_EQ(ExprText("substring(s, 2, 3)"), "substring(s, 2, 3)");
  EXPECT_EQ(ExprText("TRIM(s)"), "trim(s)");
  EXPECT_EQ(ExprText("TRIM(BOTH FROM s)"), "trim(s)");
  EXPECT_EQ(ExprText("TRIM(BOTH 'x' FROM s)"), "trim(s, 'x')");
  EXPECT_EQ(ExprText("TRIM(LEADING FROM s)"), "ltrim(s)");
  EXPECT_EQ(ExprText("TRIM(TRAILING 'x' FROM s)"), "rtrim(s, 'x')");
  EXPECT_EQ(ExprText("ltrim(s)"), "ltrim(s)");
  // POSITION(needle IN haystack): arguments in strpos order (haystack, needle).
  ParsedExpr position("POSITION('a' IN s)");
  ASSERT_EQ(position.As<FunctionExpr>().args.size(), 2u);
  EXPECT_EQ(position.As<FunctionExpr>().args[0]->ToString(), "s");
  EXPECT_EQ(position.expr->ToString(), "position('a' IN s)");
  ParsedExpr current_date("CURRENT_DATE");
  EXPECT_EQ(current_date.As<FunctionExpr>().name, "current_date");
  EXPECT_TRUE(current_date.As<FunctionExpr>().args.empty());
  EXPECT_EQ(current_date.expr->ToString(), "current_date");
  EXPECT_EQ(ExprText("current_timestamp"), "current_timestamp");
  EXPECT_EQ(ExprText("CURRENT_TIME"), "current_time");
  ExpectNotSupported("SELECT CURRENT_USER",
                     "only CURRENT_DATE, CURRENT_TIME and CURRENT_TIMESTAMP");
}

TEST(ParserExpressionTest, WindowFunctions) {
  ParsedExpr e(
      "sum(x) OVER (PARTITION BY y, z ORDER BY w DESC NULLS LAST ROWS BETWEEN 2 PRECEDING AND "
      "CURRENT ROW EXCLUDE TIES)");
  const auto& f = e.As<FunctionExpr>();
  ASSERT_TRUE(f.over);
  EXPECT_EQ(f.over->partition_by.size(), 2u);
  ASSERT_EQ(f.over->order_by.size(), 1u);
  EXPECT_TRUE(f.over->order_by[0].descending);
  EXPECT_EQ(f.over->order_by[0].nulls_first, std::optional<bool>(false));
  EXPECT_TRUE(f.over->has_frame);
  EXPECT_EQ(f.over->unit, FrameUnit::kRows);
  EXPECT_EQ(f.over->start, FrameBoundKind::kOffsetPreceding);
  EXPECT_EQ(f.over->end, FrameBoundKind::kCurrentRow);
  EXPECT_EQ(f.over->exclude, FrameExclude::kTies);
  EXPECT_EQ(f.ToString(),
            "sum(x) OVER (PARTITION BY y, z ORDER BY w DESC NULLS LAST ROWS BETWEEN 2 PRECEDING "
            "AND CURRENT ROW EXCLUDE TIES)");
  // The default frame, GROUPS with FOLLOWING bounds, a named window.
  ParsedExpr plain("rank() OVER (ORDER BY a)");
  EXPECT_FALSE(plain.As<FunctionExpr>().over->has_frame);
  ParsedExpr groups(
      "count(*) OVER (ORDER BY a GROUPS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING)");
  EXPECT_EQ(groups.As<FunctionExpr>().over->unit, FrameUnit::kGroups);
  EXPECT_EQ(groups.As<FunctionExpr>().over->start, FrameBoundKind::kOffsetFollowing);
  EXPECT_EQ(groups.As<FunctionExpr>().over->end, FrameBoundKind::kUnboundedFollowing);
  EXPECT_EQ(ExprText("sum(x) OVER w"), "sum(x) OVER w");
  EXPECT_EQ(ExprText("sum(x) OVER (w ORDER BY a)"), "sum(x) OVER (w ORDER BY a)");
}

TEST(ParserQueryTest, WindowClauseAndQualify) {
  ParsedQuery parsed = ParseQuery(
      "SELECT a, rank() OVER w AS r FROM t WINDOW w AS (PARTITION BY b), v AS (w ORDER BY c) "
      "QUALIFY r = 1 AND sum(a) OVER v > 2 ORDER BY a LIMIT 3");
  const SelectNode& select = AsSelect(parsed.query);
  ASSERT_EQ(select.windows.size(), 2u);
  EXPECT_EQ(select.windows[0].name, "w");
  EXPECT_EQ(select.windows[1].refname, "w");
  ASSERT_TRUE(select.qualify);
  EXPECT_EQ(select.qualify->ToString(), "((r = 1) AND (sum(a) OVER v > 2))");
  EXPECT_EQ(select.order_by.size(), 1u);
  // QUALIFY before WINDOW, and `qualify` as a plain name.
  ParsedQuery before =
      ParseQuery("SELECT a FROM t QUALIFY rank() OVER w = 1 WINDOW w AS (ORDER BY a)");
  EXPECT_EQ(AsSelect(before.query).windows.size(), 1u);
  EXPECT_TRUE(AsSelect(before.query).qualify);
  ParsedQuery name = ParseQuery("SELECT qualify FROM t AS qualify");
  EXPECT_FALSE(AsSelect(name.query).qualify);
  EXPECT_NE(ParseErrorOf("SELECT a FROM t WINDOW w AS (ORDER BY a), w AS (ORDER BY a)")
                .find("window \"w\" is already defined"),
            std::string::npos);
}

TEST(ParserExpressionTest, UnsupportedFunctionForms) {
  ExpectNotSupported("SELECT f(VARIADIC x)", "VARIADIC");
  // Named arguments parse (macros and table functions take them); the binder rejects them
  // elsewhere (tests/sql/catalog/macros.test).
  // Parameters parse (prepared_statement_test.cpp binds them); $0 is no parameter.
  EXPECT_NE(ParseErrorOf("SELECT $0").find("numbered from $1"), std::string::npos);
  EXPECT_EQ(ExprText("(a).b"), "struct_extract(a, 'b')");
  EXPECT_EQ(ExprText("ROW(1, 2)"), "row(1, 2)");  // a STRUCT of unnamed fields
  ExpectNotSupported("SELECT (1, 2) + ANY (SELECT 1, 2)",
                     "not supported for a row beside a subquery");
  ExpectNotSupported("SELECT 'a' COLLATE \"C\"", "COLLATE");
}

TEST(ParserExpressionTest, OrderedAggregates) {
  ParsedExpr ordered("string_agg(x, ',' ORDER BY y DESC, z)");
  ASSERT_EQ(ordered.expr->kind, ExprKind::kFunction);
  auto& f = ordered.As<FunctionExpr>();
  ASSERT_EQ(f.order_by.size(), 2u);
  EXPECT_TRUE(f.order_by[0].descending);
  EXPECT_FALSE(f.within_group);
  EXPECT_EQ(f.ToString(), "string_agg(x, ',' ORDER BY y DESC, z)");
  ParsedExpr within("percentile_cont(0.5) WITHIN GROUP (ORDER BY x)");
  auto& w = within.As<FunctionExpr>();
  EXPECT_TRUE(w.within_group);
  ASSERT_EQ(w.args.size(), 1u);
  ASSERT_EQ(w.order_by.size(), 1u);
  EXPECT_EQ(w.ToString(), "percentile_cont(0.5) WITHIN GROUP (ORDER BY x)");
}

TEST(ParserExpressionTest, Casts) {
  ParsedExpr cast("CAST(x AS DECIMAL(10,2))");
  ASSERT_EQ(cast.expr->kind, ExprKind::kCast);
  auto& c = cast.As<CastExpr>();
  EXPECT_EQ(c.type.name, "numeric");
  EXPECT_EQ(c.type.modifiers, (std::vector<int>{10, 2}));
  EXPECT_FALSE(c.try_cast);
  EXPECT_EQ(cast.expr->ToString(), "CAST(x AS DECIMAL(10,2))");
  EXPECT_EQ(cast.expr->location, 7);
  ParsedExpr colons("x::int");
  EXPECT_EQ(colons.As<CastExpr>().type.name, "int4");
  EXPECT_EQ(colons.expr->ToString(), "CAST(x AS INTEGER)");
  EXPECT_EQ(ExprText("x::bigint"), "CAST(x AS BIGINT)");
  EXPECT_EQ(ExprText("x::smallint"), "CAST(x AS SMALLINT)");
  EXPECT_EQ(ExprText("x::double precision"), "CAST(x AS DOUBLE)");
  EXPECT_EQ(ExprText("x::double"), "CAST(x AS DOUBLE)");
  EXPECT_EQ(ExprText("x::real"), "CAST(x AS REAL)");
  EXPECT_EQ(ExprText("x::boolean"), "CAST(x AS BOOLEAN)");
  EXPECT_EQ(ExprText("x::varchar(10)"), "CAST(x AS VARCHAR(10))");
  EXPECT_EQ(ExprText("x::text"), "CAST(x AS TEXT)");
  EXPECT_EQ(ExprText("x::timestamp"), "CAST(x AS TIMESTAMP)");
  EXPECT_EQ(ExprText("x::timestamptz"), "CAST(x AS TIMESTAMP WITH TIME ZONE)");
  EXPECT_EQ(ExprText("CAST(x AS numeric)"), "CAST(x AS DECIMAL)");
  ParsedExpr date("DATE '2000-01-01'");
  ASSERT_EQ(date.expr->kind, ExprKind::kCast);
  EXPECT_EQ(date.As<CastExpr>().type.name, "date");
  EXPECT_EQ(static_cast<ConstantExpr&>(*date.As<CastExpr>().child).value,
            Value::Varchar("2000-01-01"));
  EXPECT_EQ(date.expr->ToString(), "CAST('2000-01-01' AS DATE)");
  EXPECT_EQ(date.expr->location, 7);
  EXPECT_EQ(ExprText("TIMESTAMP '2000-01-01 10:00:00'"),
            "CAST('2000-01-01 10:00:00' AS TIMESTAMP)");
  EXPECT_EQ(ExprText("x::int[]"), "CAST(x AS INTEGER[])");
  EXPECT_EQ(ExprText("CAST(x AS int ARRAY)"), "CAST(x AS INTEGER[])");
  EXPECT_EQ(ExprText("x::int[][]"), "CAST(x AS INTEGER[][])");
  EXPECT_EQ(ExprText("x::STRUCT(a INT, \"b c\" VARCHAR[])[]"),
            "CAST(x AS STRUCT(\"a\" INTEGER, \"b c\" VARCHAR[])[])");
}

// DuckDB's list literals and subscripts (sql_rewrite_lists.cpp, TransformSubscripts).
TEST(ParserExpressionTest, Lists) {
  EXPECT_EQ(ExprText("ARRAY[1, 2]"), "list_value(1, 2)");
  EXPECT_EQ(ExprText("[1, 2]"), "list_value(1, 2)");
  EXPECT_EQ(ExprText("[]"), "list_value()");
  EXPECT_EQ(ExprText("[[1], []]"), "list_value(list_value(1), list_value())");
  EXPECT_EQ(ExprText("a[1]"), "list_extract(a, 1)");
  EXPECT_EQ(ExprText("t.a[-1]"), "list_extract(t.a, -1)");
  EXPECT_EQ(ExprText("a[2:3]"), "list_slice(a, 2, 3)");
  EXPECT_EQ(ExprText("a[:3]"), "list_slice(a, 0, 3)");
  EXPECT_EQ(ExprText("a[2:]"), "list_slice(a, 2, -1)");
  EXPECT_EQ(ExprText("a[1][2]"), "list_extract(list_extract(a, 1), 2)");
  EXPECT_EQ(ExprText("[1, 2][2]"), "list_extract(list_value(1, 2), 2)");
  EXPECT_EQ(ExprText("string_split(s, ',')[1]"), "list_extract(string_split(s, ','), 1)");
  // Struct and map literals (sql_rewrite_nested.cpp), with lists inside and subscripts after.
  EXPECT_EQ(ExprText("{'a': [1], b: 'x'}"),
            "__shears_struct_literal('a', list_value(1), 'b', 'x')");
  EXPECT_EQ(ExprText("{'a': {'b': 1}}['a']"),
            "list_extract(__shears_struct_literal('a', __shears_struct_literal('b', 1)), 'a')");
  EXPECT_EQ(ExprText("MAP {1: [2], 3: [4]}[1]"),
            "list_extract(__shears_map_literal(1, list_value(2), 3, list_value(4)), 1)");
  EXPECT_EQ(ExprText("'{a: 1}'"), "'{a: 1}'");  // text stays text
  EXPECT_EQ(ExprText("x::MAP(INT, VARCHAR[])[]"), "CAST(x AS MAP(INTEGER, VARCHAR[])[])");
  EXPECT_EQ(ExprText("'abc'[2]"), "list_extract('abc', 2)");
  EXPECT_EQ(ExprText("1 + [2][1]"), "(1 + list_extract(list_value(2), 1))");
  EXPECT_EQ(ExprText("x IN ([1], [2])"), "x IN (list_value(1), list_value(2))");
  EXPECT_EQ(ExprText("CASE WHEN c THEN [1] ELSE [] END"),
            "CASE WHEN c THEN list_value(1) ELSE list_value() END");
  // A keyword that names a column keeps its subscript.
  EXPECT_EQ(ExprText("value[1]"), "list_extract(value, 1)");
  EXPECT_EQ(ExprText("(a).b"), "struct_extract(a, 'b')");
  EXPECT_FALSE(ParseErrorOf("SELECT [1, 2").empty());
}

TEST(ParserExpressionTest, TypeNameToString) {
  TypeName t;
  t.name = "numeric";
  t.modifiers = {18, 4};
  EXPECT_EQ(t.ToString(), "DECIMAL(18,4)");
  t.name = "mytype";
  t.modifiers = {};
  EXPECT_EQ(t.ToString(), "MYTYPE");
  t.name = "int8";
  t.array_depth = 1;
  EXPECT_EQ(t.ToString(), "BIGINT[]");
}

TEST(ParserExpressionTest, Intervals) {
  struct Case {
    const char* sql;
    int32_t months, days;
    int64_t micros;
  };
  const int64_t kHour = 3600LL * 1000000;
  for (const Case& c : std::vector<Case>{
           {"INTERVAL '3 days'", 0, 3, 0},
           {"INTERVAL '1 day'", 0, 1, 0},
           {"INTERVAL '1 year 2 months'", 14, 0, 0},
           {"INTERVAL '2 weeks'", 0, 14, 0},
           {"INTERVAL '5 hours 30 minutes'", 0, 0, 5 * kHour + 30 * 60000000LL},
           {"INTERVAL '10 seconds'", 0, 0, 10000000},
           {"INTERVAL '1.5 hours'", 0, 0, kHour * 3 / 2},
           {"INTERVAL '01:02:03'", 0, 0, kHour + 2 * 60000000LL + 3000000},
           {"INTERVAL '1 02:00:00'", 0, 1, 2 * kHour},
           {"INTERVAL '-1 day 01:00:00.5'", 0, -1, kHour + 500000},
           {"INTERVAL '-01:00:00'", 0, 0, -kHour},
           {"INTERVAL '3 days ago'", 0, -3, 0},
           {"INTERVAL '3' DAY", 0, 3, 0},
           {"INTERVAL '2' YEAR", 24, 0, 0},
           {"INTERVAL '7' MONTH", 7, 0, 0},
           {"INTERVAL '4' HOUR", 0, 0, 4 * kHour},
           {"INTERVAL '1' SECOND(3)", 0, 0, 1000000},
           {"INTERVAL '1-2' YEAR TO MONTH", 14, 0, 0},
           {"INTERVAL '5'", 0, 0, 5000000},
           {"'3 days'::interval", 0, 3, 0},
           {"CAST('1 month' AS INTERVAL)", 1, 0, 0},
           // DuckDB spellings without quotes.
           {"INTERVAL 3 DAY", 0, 3, 0},
           {"INTERVAL 30 days", 0, 30, 0},
           {"interval 2 Hours", 0, 0, 2 * kHour},
           {"INTERVAL 1 YEAR", 12, 0, 0},
       }) {
    ParsedExpr e(c.sql);
    ASSERT_EQ(e.expr->kind, ExprKind::kInterval) << c.sql;
    auto& i = e.As<IntervalExpr>();
    EXPECT_EQ(i.months, c.months) << c.sql;
    EXPECT_EQ(i.days, c.days) << c.sql;
    EXPECT_EQ(i.micros, c.micros) << c.sql;
  }
  EXPECT_EQ(ExprText("INTERVAL '1 year 2 months 3 days 04:05:06.5'"),
            "INTERVAL '1 year 2 months 3 days 04:05:06.5'");
  EXPECT_EQ(ExprText("INTERVAL '-14 months'"), "INTERVAL '-1 year -2 months'");
  EXPECT_EQ(ExprText("INTERVAL '0 days'"), "INTERVAL '00:00:00'");
  EXPECT_EQ(ExprText("d + INTERVAL 30 DAY"), "(d + INTERVAL '30 days')");
  ParsedExpr located("INTERVAL '1 day'");
  EXPECT_EQ(located.expr->location, 7);
  // A non-constant interval cast stays a cast.
  EXPECT_EQ(ExprText("x::interval"), "CAST(x AS INTERVAL)");
}

TEST(ParserExpressionTest, BadIntervals) {
  EXPECT_EQ(ParseErrorOf("SELECT INTERVAL 'soon'"),
            "invalid INTERVAL 'soon': unexpected \"soon\"\n"
            "LINE 1: SELECT INTERVAL 'soon'\n"
            "               ^");
  EXPECT_NE(ParseErrorOf("SELECT INTERVAL '3 fortnights'").find("unknown unit \"fortnights\""),
            std::string::npos);
  EXPECT_NE(ParseErrorOf("SELECT INTERVAL ''").find("invalid INTERVAL ''"), std::string::npos);
  EXPECT_NE(ParseErrorOf("SELECT INTERVAL '99999999999 years'").find("out of range"),
            std::string::npos);
  EXPECT_NE(ParseErrorOf("SELECT INTERVAL '10:99:00'").find("invalid time"), std::string::npos);
  EXPECT_NE(ParseErrorOf("SELECT INTERVAL '1 2 03:00'").find("invalid INTERVAL"),
            std::string::npos);
}

TEST(ParserExpressionTest, ParseIntervalTextDirectly) {
  Interval interval;
  std::string error;
  ASSERT_TRUE(ParseIntervalText("1 yr 1 mon 1 w 1 d 1 h 1 m 1 s 1 ms 1 us", -1, &interval, &error));
  EXPECT_EQ(interval.months, 13);
  EXPECT_EQ(interval.days, 8);
  EXPECT_EQ(interval.micros, 3600000000LL + 60000000 + 1000000 + 1000 + 1);
  ASSERT_TRUE(ParseIntervalText("3days", -1, &interval, &error));
  EXPECT_EQ(interval.days, 3);
  ASSERT_TRUE(ParseIntervalText("+2 DAYS -1 hour", -1, &interval, &error));
  EXPECT_EQ(interval.days, 2);
  EXPECT_EQ(interval.micros, -3600000000LL);
  EXPECT_FALSE(ParseIntervalText("ago", -1, &interval, &error));
  EXPECT_FALSE(ParseIntervalText("1 day +", -1, &interval, &error));
  EXPECT_TRUE(IsIntervalUnit("Days"));
  EXPECT_FALSE(IsIntervalUnit("fortnight"));
  // A fraction of a calendar unit goes to the next smaller part (DuckDB).
  ASSERT_TRUE(ParseIntervalText("-1.5 months 2.5 weeks", -1, &interval, &error));
  EXPECT_EQ(interval.months, -1);
  EXPECT_EQ(interval.days, -15 + 17);
  EXPECT_EQ(interval.micros, 12 * 3600000000LL);
  EXPECT_FALSE(ParseIntervalText("300000 years", -1, &interval, &error));  // past 2^63 us
  EXPECT_EQ(error, "out of range");
}

TEST(IntervalTest, PackedIntervalsRoundTripAndOrderByLength) {
  const std::vector<Interval> ordered = {
      {-2, 0, 0}, {0, -31, 0}, {0, -1, -1}, {0, 0, -3600000000LL}, {0, 0, 0},
      {0, 0, 1},  {0, 1, -1},  {0, 1, 0},   {0, 0, 90000000000LL}, {1, -1, 0},
      {0, 30, 1}, {1, 0, 1},   {12, 0, 0},  {-1, 400, 5},
  };
  int128_t previous = 0;
  for (size_t i = 0; i < ordered.size(); i++) {
    const Interval& x = ordered[i];
    int128_t packed;
    ASSERT_TRUE(PackInterval(x, &packed));
    const Interval back = UnpackInterval(packed);
    EXPECT_EQ(back.months, x.months);
    EXPECT_EQ(back.days, x.days);
    EXPECT_EQ(back.micros, x.micros);
    if (i > 0) {
      EXPECT_LT(previous, packed) << i;
    }
    previous = packed;
  }
  // Equal length, different parts: distinct values, ordered by length first.
  int128_t month, days30;
  ASSERT_TRUE(PackInterval({1, 0, 0}, &month));
  ASSERT_TRUE(PackInterval({0, 30, 0}, &days30));
  EXPECT_NE(month, days30);
  EXPECT_EQ(month >> 64, days30 >> 64);
  int128_t unused;
  EXPECT_FALSE(PackInterval({std::numeric_limits<int32_t>::max(), 0, 0}, &unused));
  EXPECT_EQ(FormatInterval({14, 3, 4 * 3600000000LL + 500000}),
            "1 year 2 months 3 days 04:00:00.5");
  EXPECT_EQ(FormatInterval({0, 1, -7200000000LL}), "1 day -02:00:00");
  EXPECT_EQ(FormatInterval({0, 0, 0}), "00:00:00");
  EXPECT_EQ(FormatInterval({-1, -1, 0}), "-1 month -1 day");
}

TEST(ParserExpressionTest, Subqueries) {
  ParsedExpr scalar("(SELECT max(x) FROM t)");
  ASSERT_EQ(scalar.expr->kind, ExprKind::kSubquery);
  EXPECT_EQ(scalar.As<SubqueryExpr>().subquery_kind, SubqueryKind::kScalar);
  EXPECT_EQ(scalar.expr->ToString(), "(SELECT max(x) FROM t)");

  ParsedExpr exists("EXISTS (SELECT 1 FROM t WHERE t.a = u.a)");
  EXPECT_EQ(exists.As<SubqueryExpr>().subquery_kind, SubqueryKind::kExists);
  EXPECT_FALSE(exists.As<SubqueryExpr>().negated);
  EXPECT_EQ(exists.expr->ToString(), "EXISTS (SELECT 1 FROM t WHERE (t.a = u.a))");

  // NOT EXISTS / NOT IN stay NOT over the subquery; the grammar never negates a SubLink.
  ParsedExpr not_exists("NOT EXISTS (SELECT 1)");
  ASSERT_EQ(not_exists.expr->kind, ExprKind::kOperator);
  auto& not_op = not_exists.As<OperatorExpr>();
  EXPECT_EQ(not_op.op, "NOT");
  ASSERT_EQ(not_op.children[0]->kind, ExprKind::kSubquery);
  EXPECT_FALSE(static_cast<SubqueryExpr&>(*not_op.children[0]).negated);
  EXPECT_EQ(not_exists.expr->ToString(), "(NOT EXISTS (SELECT 1))");

  ParsedExpr in("x IN (SELECT y FROM u)");
  auto& any = in.As<SubqueryExpr>();
  EXPECT_EQ(any.subquery_kind, SubqueryKind::kAny);
  EXPECT_EQ(any.op, "=");
  ASSERT_NE(any.left, nullptr);
  EXPECT_EQ(in.expr->ToString(), "x IN (SELECT y FROM u)");
  EXPECT_EQ(ExprText("x NOT IN (SELECT y FROM u)"), "(NOT x IN (SELECT y FROM u))");

  ParsedExpr any_op("x > ANY (SELECT y FROM u)");
  EXPECT_EQ(any_op.As<SubqueryExpr>().subquery_kind, SubqueryKind::kAny);
  EXPECT_EQ(any_op.As<SubqueryExpr>().op, ">");
  EXPECT_EQ(any_op.expr->ToString(), "x > ANY (SELECT y FROM u)");
  EXPECT_EQ(ExprText("x = SOME (SELECT y FROM u)"), "x IN (SELECT y FROM u)");
  ParsedExpr all("x <> ALL (SELECT y FROM u)");
  EXPECT_EQ(all.As<SubqueryExpr>().subquery_kind, SubqueryKind::kAll);
  EXPECT_EQ(all.As<SubqueryExpr>().op, "<>");
  EXPECT_EQ(all.expr->ToString(), "x <> ALL (SELECT y FROM u)");
}

}  // namespace
}  // namespace shears

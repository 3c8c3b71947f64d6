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

namespace shears {
namespace {

using namespace ast;  // NOLINT: the tests name many AST types

// ---------------------------------------------------------------- helpers

std::unique_ptr<Statement> ParseOne(const std::string& sql) {
  auto statements = Parser::Parse(sql);
  EXPECT_EQ(statements.size(), 1u) << sql;
  if (statements.empty()) return nullptr;
  return std::move(statements[0]);
}

/// The query of a single SELECT statement (kept alive by the returned statement).
struct ParsedQuery {
  std::unique_ptr<Statement> statement;
  QueryNode* query = nullptr;
};

ParsedQuery ParseQuery(const std::string& sql) {
  ParsedQuery result;
  result.statement = ParseOne(sql);
  EXPECT_TRUE(result.statement != nullptr);
  if (!result.statement) return result;
  EXPECT_EQ(result.statement->kind, StatementKind::kSelect) << sql;
  result.query = static_cast<SelectStatement&>(*result.statement).query.get();
  return result;
}

std::string QueryText(const std::string& sql) {
  ParsedQuery parsed = ParseQuery(sql);
  return parsed.query ? parsed.query->ToString() : "";
}

SelectNode& AsSelect(QueryNode* node) {
  EXPECT_EQ(node->kind, QueryNodeKind::kSelect);
  return static_cast<SelectNode&>(*node);
}

/// ToString of the first select-list expression of `SELECT <expr>`.
std::string ExprText(const std::string& expr) {
  ParsedQuery parsed = ParseQuery("SELECT " + expr);
  return AsSelect(parsed.query).select_list.at(0).expr->ToString();
}

/// Holds a parsed `SELECT <expr>` and gives its first expression.
struct ParsedExpr {
  ParsedQuery parsed;
  Expr* expr = nullptr;
  explicit ParsedExpr(const std::string& text) : parsed(ParseQuery("SELECT " + text)) {
    expr = AsSelect(parsed.query).select_list.at(0).expr.get();
  }
  template <typename T>
  T& As() {
    return static_cast<T&>(*expr);
  }
};

template <typename ErrorType>
std::string ErrorOf(const std::string& sql) {
  try {
    Parser::Parse(sql);
  } catch (const ErrorType& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "unexpected exception type for: " << sql << "\n" << e.what();
    return "";
  }
  ADD_FAILURE() << "no error for: " << sql;
  return "";
}

std::string ParseErrorOf(const std::string& sql) {
  return ErrorOf<ParseError>(sql);
}
std::string NotSupportedOf(const std::string& sql) {
  return ErrorOf<NotSupportedError>(sql);
}

void ExpectNotSupported(const std::string& sql, const std::string& fragment) {
  std::string message = NotSupportedOf(sql);
  EXPECT_NE(message.find(fragment), std::string::npos) << sql << "\n" << message;
}

Value ConstantOf(const std::string& literal) {
  ParsedExpr e(literal);
  EXPECT_EQ(e.expr->kind, ExprKind::kConstant) << literal;
  return e.As<ConstantExpr>().value;
}

const TableRef& FromOf(const ParsedQuery& parsed) {
  const TableRef* from = AsSelect(parsed.query).from.get();
  EXPECT_NE(from, nullptr);
  return *from;
}

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
  ExpectNotSupported("UPDATE t SET a = 1 RETURNING a", "UPDATE ... RETURNING is not supported");
  ExpectNotSupported("DELETE FROM t RETURNING *", "DELETE ... RETURNING is not supported");
  ExpectNotSupported("UPDATE t SET (a, b) = (1, 2)", "UPDATE ... SET (a, b) = (...)");
  ExpectNotSupported("CREATE INDEX ON t (a)", "CREATE INDEX needs a name");
  ExpectNotSupported("DROP INDEX s.i", "schema-qualified index names");
  ExpectNotSupported("MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN DELETE",
                     "MERGE statements are not supported yet");
  ExpectNotSupported("CREATE TABLE t USING csv AS SELECT 1", "only parquet tables");
  ExpectNotSupported("COPY t FROM PROGRAM 'ls'", "COPY ... PROGRAM is not supported");
  ExpectNotSupported("SAVEPOINT x", "SAVEPOINT, RELEASE");
  ExpectNotSupported("VACUUM", "Vacuum statements");
  EXPECT_EQ(NotSupportedOf("SELECT 1;\n  update t set a = 1 returning a"),
            "UPDATE ... RETURNING is not supported\n"
            "LINE 2:   update t set a = 1 returning a\n"
            "          ^");
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
  ExpectNotSupported("SELECT myschema.f(x)", "schema-qualified function names");
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
  ExpectNotSupported("SELECT (a).b FROM t", "field selection");
  ExpectNotSupported("SELECT ROW(1, 2)", "row constructors");
  ExpectNotSupported("SELECT (1, 2) IN (SELECT 1, 2)", "row constructors");
  ExpectNotSupported("SELECT 'a' COLLATE \"C\"", "COLLATE");
  ExpectNotSupported("SELECT ARRAY(SELECT 1)", "ARRAY(subquery)");
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
  ExpectNotSupported("SELECT x::int[][]", "LIST of LIST");
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
  EXPECT_EQ(ExprText("'abc'[2]"), "list_extract('abc', 2)");
  EXPECT_EQ(ExprText("1 + [2][1]"), "(1 + list_extract(list_value(2), 1))");
  EXPECT_EQ(ExprText("x IN ([1], [2])"), "x IN (list_value(1), list_value(2))");
  EXPECT_EQ(ExprText("CASE WHEN c THEN [1] ELSE [] END"),
            "CASE WHEN c THEN list_value(1) ELSE list_value() END");
  // A keyword that names a column keeps its subscript.
  EXPECT_EQ(ExprText("value[1]"), "list_extract(value, 1)");
  ExpectNotSupported("SELECT (a).b FROM t", "field selection");
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
  t.is_array = true;
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
  ExpectNotSupported("SELECT * FROM db.main.t", "catalog-qualified");
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
  ExpectNotSupported("WITH x AS (INSERT INTO t VALUES (1) RETURNING *) SELECT * FROM x",
                     "data-modifying statements in WITH");
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

// ---------------------------------------------------------------- other statements

TEST(ParserStatementTest, Explain) {
  auto explain_of = [](const std::string& sql) {
    auto statement = ParseOne(sql);
    EXPECT_EQ(statement->kind, StatementKind::kExplain);
    return std::unique_ptr<ExplainStatement>(static_cast<ExplainStatement*>(statement.release()));
  };
  auto plain = explain_of("EXPLAIN SELECT 1");
  EXPECT_FALSE(plain->analyze);
  EXPECT_FALSE(plain->json);
  EXPECT_FALSE(plain->logical_only);
  ASSERT_EQ(plain->statement->kind, StatementKind::kSelect);
  EXPECT_EQ(plain->location, 0);
  EXPECT_EQ(plain->length, 16);
  EXPECT_EQ(plain->statement->location, 8);
  EXPECT_EQ(plain->statement->length, 8);
  EXPECT_TRUE(explain_of("EXPLAIN ANALYZE SELECT 1")->analyze);
  EXPECT_TRUE(explain_of("EXPLAIN ANALYSE SELECT 1")->analyze);
  EXPECT_TRUE(explain_of("EXPLAIN (ANALYZE) SELECT 1")->analyze);
  EXPECT_TRUE(explain_of("EXPLAIN (ANALYZE true) SELECT 1")->analyze);
  EXPECT_TRUE(explain_of("EXPLAIN (ANALYZE on) SELECT 1")->analyze);
  EXPECT_FALSE(explain_of("EXPLAIN (ANALYZE false) SELECT 1")->analyze);
  EXPECT_FALSE(explain_of("EXPLAIN (ANALYZE 0) SELECT 1")->analyze);
  auto full = explain_of("EXPLAIN (ANALYZE, FORMAT JSON, LOGICAL) SELECT * FROM 'x'");
  EXPECT_TRUE(full->analyze);
  EXPECT_TRUE(full->json);
  EXPECT_TRUE(full->logical_only);
  EXPECT_EQ(static_cast<SelectStatement&>(*full->statement).query->ToString(),
            "SELECT * FROM read_parquet('x')");
  EXPECT_EQ(full->statement->location, 40);
  EXPECT_FALSE(explain_of("EXPLAIN (FORMAT 'TEXT') SELECT 1")->json);
  EXPECT_TRUE(explain_of("EXPLAIN (FORMAT json) SELECT 1")->json);
  EXPECT_EQ(NotSupportedOf("EXPLAIN VERBOSE SELECT 1"),
            "EXPLAIN option VERBOSE is not supported\n"
            "LINE 1: EXPLAIN VERBOSE SELECT 1\n"
            "                ^");
  ExpectNotSupported("EXPLAIN (FORMAT XML) SELECT 1", "EXPLAIN format 'xml'");
  EXPECT_THROW(Parser::Parse("EXPLAIN (ANALYZE maybe) SELECT 1"), ParseError);
  ExpectNotSupported("EXPLAIN UPDATE t SET a = 1 RETURNING a", "UPDATE ... RETURNING");
}

TEST(ParserStatementTest, SetResetShow) {
  auto set_of = [](const std::string& sql) {
    auto statement = ParseOne(sql);
    EXPECT_EQ(statement->kind, StatementKind::kSet) << sql;
    return std::unique_ptr<SetStatement>(static_cast<SetStatement*>(statement.release()));
  };
  auto integer = set_of("SET threads = 4");
  EXPECT_EQ(integer->name, "threads");
  EXPECT_EQ(integer->value, Value::Integer(4));
  EXPECT_EQ(set_of("SET x TO 'abc'")->value, Value::Varchar("abc"));
  EXPECT_EQ(set_of("SET x = abc")->value, Value::Varchar("abc"));
  EXPECT_EQ(set_of("SET x = true")->value, Value::Boolean(true));
  EXPECT_EQ(set_of("SET x TO FALSE")->value, Value::Boolean(false));
  EXPECT_EQ(set_of("SET x = 'true'")->value, Value::Varchar("true"));
  EXPECT_EQ(set_of("SET x = on")->value, Value::Varchar("on"));
  EXPECT_EQ(set_of("SET x = -1")->value, Value::Integer(-1));
  auto dotted = set_of("SET Dynamic_Partition_Pruning.Fallback_Filter_Ratio = 0.25");
  EXPECT_EQ(dotted->name, "dynamic_partition_pruning.fallback_filter_ratio");
  EXPECT_EQ(dotted->value.type(), LogicalType::Decimal(2, 2));
  EXPECT_EQ(set_of("SET \"Quoted\".x = 1")->name, "quoted.x");
  EXPECT_EQ(set_of("SET LOCAL x = 1")->name, "x");
  EXPECT_EQ(set_of("SET SESSION x = 1")->name, "x");
  EXPECT_EQ(set_of("SET TIME ZONE 'UTC'")->name, "timezone");
  EXPECT_EQ(NotSupportedOf("SET x = 1, 2"),
            "SET x with a list of values is not supported\n"
            "LINE 1: SET x = 1, 2\n"
            "                   ^");
  ExpectNotSupported("SET TRANSACTION ISOLATION LEVEL SERIALIZABLE", "this form of SET");

  auto reset = ParseOne("RESET Threads");
  ASSERT_EQ(reset->kind, StatementKind::kReset);
  EXPECT_EQ(static_cast<ResetStatement&>(*reset).name, "threads");
  auto reset_all = ParseOne("RESET ALL");
  EXPECT_EQ(static_cast<ResetStatement&>(*reset_all).name, "all");
  auto set_default = ParseOne("SET x TO DEFAULT");
  ASSERT_EQ(set_default->kind, StatementKind::kReset);
  EXPECT_EQ(static_cast<ResetStatement&>(*set_default).name, "x");
  auto show = ParseOne("SHOW Threads");
  ASSERT_EQ(show->kind, StatementKind::kShow);
  EXPECT_EQ(static_cast<ShowStatement&>(*show).name, "threads");
  EXPECT_EQ(static_cast<ShowStatement&>(*ParseOne("SHOW ALL")).name, "all");
  EXPECT_EQ(static_cast<ShowStatement&>(*ParseOne("SHOW a.b")).name, "a.b");
}

TEST(ParserStatementTest, CreateView) {
  std::string sql =
      "CREATE OR REPLACE VIEW v (a, b) AS\n  -- the query\n  SELECT x, y FROM 'data/t' -- end\n;";
  auto statement = ParseOne(sql);
  ASSERT_EQ(statement->kind, StatementKind::kCreateView);
  auto& view = static_cast<CreateViewStatement&>(*statement);
  EXPECT_EQ(view.name, "v");
  EXPECT_TRUE(view.or_replace);
  EXPECT_EQ(view.column_aliases, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(view.query->ToString(), "SELECT x, y FROM read_parquet('data/t')");
  EXPECT_EQ(view.sql, "SELECT x, y FROM 'data/t'");
  // The stored text parses to the same query.
  EXPECT_EQ(QueryText(view.sql), view.query->ToString());

  auto simple = ParseOne("create view Sales_V as select * from sales where a in (1, 2)");
  auto& v2 = static_cast<CreateViewStatement&>(*simple);
  EXPECT_EQ(v2.name, "sales_v");
  EXPECT_FALSE(v2.or_replace);
  EXPECT_EQ(v2.sql, "select * from sales where a in (1, 2)");
  auto with_cte = ParseOne("CREATE VIEW w AS WITH c AS (SELECT 1 AS x) SELECT x FROM c");
  EXPECT_EQ(static_cast<CreateViewStatement&>(*with_cte).sql,
            "WITH c AS (SELECT 1 AS x) SELECT x FROM c");
  ExpectNotSupported("CREATE VIEW s.v AS SELECT 1", "schema-qualified view names");
  ExpectNotSupported("CREATE VIEW v WITH (security_barrier) AS SELECT 1", "view options");
  ExpectNotSupported("CREATE VIEW v AS SELECT 1 FROM t WITH CHECK OPTION", "CHECK OPTION");
  ExpectNotSupported("CREATE RECURSIVE VIEW v (n) AS SELECT 1", "recursive");
}

TEST(ParserStatementTest, DropView) {
  auto drop = ParseOne("DROP VIEW IF EXISTS V");
  ASSERT_EQ(drop->kind, StatementKind::kDropView);
  EXPECT_EQ(static_cast<DropViewStatement&>(*drop).name, "v");
  EXPECT_TRUE(static_cast<DropViewStatement&>(*drop).if_exists);
  auto plain = ParseOne("DROP VIEW v");
  EXPECT_FALSE(static_cast<DropViewStatement&>(*plain).if_exists);
  ExpectNotSupported("DROP TYPE t", "DROP TYPE is not supported");
  ExpectNotSupported("DROP VIEW a, b", "one name at a time");
  ExpectNotSupported("DROP VIEW s.v", "schema-qualified");
  ExpectNotSupported("DROP VIEW v CASCADE", "CASCADE");
}

TEST(ParserStatementTest, CatalogStatements) {
  auto create = ParseOne(
      "create external table IF NOT EXISTS \"Sales\" (id INT, price DECIMAL(10, 2), note "
      "double precision) STORED AS parquet PARTITIONED BY (day DATE, shop) LOCATION 'a''b'");
  ASSERT_EQ(create->kind, StatementKind::kCreateExternalTable);
  auto& table = static_cast<CreateExternalTableStatement&>(*create);
  EXPECT_EQ(table.name, "Sales");
  EXPECT_TRUE(table.if_not_exists);
  ASSERT_EQ(table.columns.size(), 3u);
  EXPECT_EQ(table.columns[1].type->name, "decimal");
  EXPECT_EQ(table.columns[1].type->modifiers, (std::vector<int>{10, 2}));
  EXPECT_EQ(table.columns[2].type->name, "double precision");
  ASSERT_EQ(table.partition_columns.size(), 2u);
  EXPECT_FALSE(table.partition_columns[1].type.has_value());
  EXPECT_EQ(table.location, "a'b");

  auto drop = ParseOne("DROP TABLE IF EXISTS t");
  ASSERT_EQ(drop->kind, StatementKind::kDropTable);
  EXPECT_TRUE(static_cast<DropTableStatement&>(*drop).if_exists);
  EXPECT_EQ(ParseOne("show tables")->kind, StatementKind::kShowTables);
  for (const char* sql : {"DESCRIBE t", "DESC t", "SHOW PARTITIONS t",
                          "ALTER TABLE t RECOVER PARTITIONS", "MSCK REPAIR TABLE t"}) {
    auto command = ParseOne(sql);
    ASSERT_EQ(command->kind, StatementKind::kTableCommand) << sql;
    EXPECT_EQ(static_cast<TableCommandStatement&>(*command).name, "t") << sql;
  }
  // Mixed with PostgreSQL statements, in order, each with its own text range.
  auto statements = Parser::Parse("SELECT 1; SHOW TABLES;\nSELECT 'x;y'; DESCRIBE t");
  ASSERT_EQ(statements.size(), 4u);
  EXPECT_EQ(statements[0]->kind, StatementKind::kSelect);
  EXPECT_EQ(statements[1]->kind, StatementKind::kShowTables);
  EXPECT_EQ(statements[1]->location, 10);
  EXPECT_EQ(statements[2]->kind, StatementKind::kSelect);
  EXPECT_EQ(statements[3]->kind, StatementKind::kTableCommand);

  // Errors point at the offending token.
  const std::string bad_location = "CREATE EXTERNAL TABLE t STORED AS PARQUET LOCATION x";
  try {
    Parser::Parse(bad_location);
    ADD_FAILURE() << "no error";
  } catch (const ParseError& e) {
    const std::string caret = std::string(8 + bad_location.find(" x") + 1, ' ') + "^";
    EXPECT_NE(std::string(e.what()).find("expected a quoted directory after LOCATION but found "
                                         "'x'\nLINE 1: " +
                                         bad_location + "\n" + caret),
              std::string::npos)
        << e.what();
  }
  ExpectNotSupported("CREATE EXTERNAL TABLE s.t LOCATION 'x'", "schema-qualified");
  ExpectNotSupported("ALTER TABLE t OWNER TO u", "ALTER TABLE supports ADD, DROP, RENAME");
  ExpectNotSupported("ALTER TABLE t ADD COLUMN c INT NOT NULL", "a type and a DEFAULT only");
  // An error in a PostgreSQL statement after a catalog one keeps its position.
  try {
    Parser::Parse("SHOW TABLES; SELEC 1");
    ADD_FAILURE() << "no error";
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("LINE 1: SHOW TABLES; SELEC 1\n"
                                         "                     ^"),
              std::string::npos)
        << e.what();
  }
}

// ---------------------------------------------------------------- whole queries

// TPC-DS-like star queries: the parts the planner depends on.
TEST(ParserWorkloadTest, StarQueryWithSubqueries) {
  std::string sql = R"(
    SELECT i_item_id, ca_state, sum(ss_ext_sales_price) AS sales
    FROM store_sales, date_dim d, item, customer c, customer_address ca
    WHERE ss_sold_date_sk = d.d_date_sk
      AND ss_item_sk = i_item_sk
      AND d.d_year = 2001 AND d.d_moy BETWEEN 1 AND 3
      AND i_category IN ('Books', 'Music', 'Home')
      AND c.c_current_addr_sk = ca.ca_address_sk
      AND EXISTS (SELECT * FROM web_sales ws WHERE ws.ws_bill_customer_sk = c.c_customer_sk)
      AND NOT EXISTS (SELECT * FROM catalog_sales cs
                      WHERE cs.cs_ship_customer_sk = c.c_customer_sk)
      AND ss_store_sk IN (SELECT s_store_sk FROM store WHERE s_state = 'TN')
      AND ss_customer_sk NOT IN (SELECT sr_customer_sk FROM store_returns)
    GROUP BY i_item_id, ca_state
    HAVING sum(ss_ext_sales_price) > (SELECT avg(ss_ext_sales_price) * 1.2 FROM store_sales)
    ORDER BY ca_state NULLS FIRST, sales DESC
    LIMIT 100 OFFSET 10)";
  ParsedQuery parsed = ParseQuery(sql);
  auto& select = AsSelect(parsed.query);
  // Five comma-joined tables: a left-deep chain of four cross joins.
  const TableRef* ref = select.from.get();
  int joins = 0;
  while (ref->kind == TableRefKind::kJoin) {
    EXPECT_EQ(static_cast<const JoinRef*>(ref)->join_type, JoinType::kCross);
    ref = static_cast<const JoinRef*>(ref)->left.get();
    joins++;
  }
  EXPECT_EQ(joins, 4);
  ASSERT_EQ(select.where->kind, ExprKind::kOperator);
  auto& conjunction = static_cast<OperatorExpr&>(*select.where);
  EXPECT_EQ(conjunction.op, "AND");
  EXPECT_EQ(conjunction.children.size(), 10u);
  EXPECT_EQ(conjunction.children[6]->ToString(),
            "EXISTS (SELECT * FROM web_sales AS ws WHERE (ws.ws_bill_customer_sk = "
            "c.c_customer_sk))");
  EXPECT_EQ(conjunction.children[7]->kind, ExprKind::kOperator);  // NOT EXISTS
  EXPECT_EQ(conjunction.children[8]->kind, ExprKind::kSubquery);
  EXPECT_EQ(conjunction.children[9]->ToString(),
            "(NOT ss_customer_sk IN (SELECT sr_customer_sk FROM store_returns))");
  EXPECT_EQ(select.order_by.size(), 2u);
  EXPECT_EQ(select.order_by[0].nulls_first, std::optional<bool>(true));
  EXPECT_EQ(select.limit->ToString(), "100");
  EXPECT_EQ(select.offset->ToString(), "10");
  // The column name of the aggregate.
  EXPECT_EQ(select.select_list[2].expr->ToString(), "sum(ss_ext_sales_price)");
}

TEST(ParserWorkloadTest, CteUnionAllQuery) {
  std::string sql = R"(
    WITH ssr AS (
      SELECT s_store_id AS store_id, sum(ss_ext_sales_price) AS sales
      FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk
      WHERE d_date BETWEEN CAST('2000-08-23' AS DATE) AND CAST('2000-08-23' AS DATE) + INTERVAL '14 days'
      GROUP BY s_store_id),
    csr AS (
      SELECT cp_catalog_page_id AS store_id, sum(cs_ext_sales_price) AS sales
      FROM catalog_sales, date_dim
      WHERE cs_sold_date_sk = d_date_sk AND d_date BETWEEN DATE '2000-08-23' AND DATE '2000-09-06'
      GROUP BY cp_catalog_page_id)
    SELECT channel, store_id, sum(sales) AS total
    FROM (SELECT 'store channel' AS channel, store_id, sales FROM ssr
          UNION ALL
          SELECT 'catalog channel' AS channel, store_id, sales FROM csr) x
    GROUP BY channel, store_id
    ORDER BY channel NULLS FIRST, store_id
    LIMIT 100;)";
  ParsedQuery parsed = ParseQuery(sql);
  ASSERT_EQ(parsed.query->ctes.size(), 2u);
  auto& select = AsSelect(parsed.query);
  const auto& sub = static_cast<const SubqueryRef&>(*select.from);
  ASSERT_EQ(sub.kind, TableRefKind::kSubquery);
  ASSERT_EQ(sub.query->kind, QueryNodeKind::kSetOperation);
  EXPECT_TRUE(static_cast<SetOperationNode&>(*sub.query).all);
  auto& ssr = AsSelect(parsed.query->ctes[0].query.get());
  EXPECT_EQ(ssr.where->ToString(),
            "d_date BETWEEN CAST('2000-08-23' AS DATE) AND (CAST('2000-08-23' AS DATE) + "
            "INTERVAL '14 days')");
}

TEST(ParserWorkloadTest, RoundTrip) {
  // ToString is SQL that parses back to the same tree.
  for (const char* sql : {
           "SELECT a, b + 1 AS c, -d, NOT e, f IS NULL, g IS NOT TRUE FROM t",
           "SELECT count(*), count(DISTINCT x), sum(x * 2.50) FROM t GROUP BY y HAVING count(*) "
           "> 1",
           "SELECT * FROM a LEFT JOIN b ON a.k = b.k AND b.v IN (1, 2) WHERE a.s LIKE 'x%' "
           "ESCAPE '!'",
           "SELECT CASE WHEN x BETWEEN 1 AND 2 THEN 'a' ELSE 'b' END FROM t ORDER BY 1 DESC "
           "NULLS LAST",
           "SELECT CAST(x AS DECIMAL(10,2)), x::int, DATE '2000-01-01', INTERVAL '1 day 02:00:00'",
           "SELECT * FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.a = t.a) AND x NOT IN (SELECT "
           "y FROM v) AND z > ALL (SELECT w FROM v)",
           "WITH c(x) AS (SELECT 1) SELECT * FROM c UNION ALL (SELECT 2 EXCEPT SELECT 3) LIMIT 2",
           "SELECT * FROM read_parquet('x', hive_partitioning = TRUE) AS t(a, b), 'y' AS y",
           "VALUES (1, 'a''b'), (NULL, '')",
           "SELECT extract(year FROM d), substring(s FROM 1 FOR 2), trim(both ' ' FROM s), "
           "coalesce(a, b), nullif(a, b), a IS DISTINCT FROM b, a || 'x', position('a' IN s), "
           "CURRENT_DATE, current_timestamp",
           "SELECT (x IS NULL) = (y IN (1)), (a BETWEEN 1 AND 2) IS TRUE FROM t",
           "SELECT - (-a), - -1, -(1)",
       }) {
    std::string once = QueryText(sql);
    std::string twice = QueryText(once);
    EXPECT_EQ(once, twice) << sql;
  }
}

// ---------------------------------------------------------------- size and depth

TEST(ParserLimitsTest, VeryLongInputs) {
  std::string in_list = "SELECT * FROM t WHERE x IN (0";
  for (int i = 1; i < 100000; i++)
    in_list += ", " + std::to_string(i);
  in_list += ")";
  ParsedQuery parsed = ParseQuery(in_list);
  EXPECT_EQ(static_cast<InListExpr&>(*AsSelect(parsed.query).where).list.size(), 100000u);

  std::string columns = "SELECT c0";
  for (int i = 1; i < 5000; i++)
    columns += ", c" + std::to_string(i);
  columns += " FROM t";
  EXPECT_EQ(AsSelect(ParseQuery(columns).query).select_list.size(), 5000u);

  std::string conjunction = "SELECT * FROM t WHERE a = 0";
  for (int i = 1; i < 10000; i++)
    conjunction += " OR a = " + std::to_string(i);
  EXPECT_EQ(
      static_cast<OperatorExpr&>(*AsSelect(ParseQuery(conjunction).query).where).children.size(),
      10000u);

  std::string unions = "SELECT 0";
  for (int i = 1; i < 500; i++)
    unions += " UNION ALL SELECT " + std::to_string(i);
  EXPECT_EQ(ParseQuery(unions).query->kind, QueryNodeKind::kSetOperation);

  std::string literal(1 << 20, 'x');
  EXPECT_EQ(ConstantOf("'" + literal + "'").GetString().size(), literal.size());

  std::string statements;
  for (int i = 0; i < 2000; i++)
    statements += "SELECT " + std::to_string(i) + ";\n";
  EXPECT_EQ(Parser::Parse(statements).size(), 2000u);

  // An error deep in a long line shows a window around it.
  std::string bad = in_list.substr(0, 5000) + " + )";
  std::string message = ParseErrorOf(bad);
  EXPECT_LT(message.size(), 400u);
  EXPECT_NE(message.find("LINE 1: ..."), std::string::npos);
}

TEST(ParserLimitsTest, DeepNesting) {
  auto nest = [](const std::string& open, const std::string& inner, const std::string& close,
                 int n) {
    std::string s;
    for (int i = 0; i < n; i++)
      s += open;
    s += inner;
    for (int i = 0; i < n; i++)
      s += close;
    return s;
  };
  // Redundant parentheses leave no trace in the tree.
  EXPECT_EQ(QueryText("SELECT " + nest("(", "1", ")", 1000)), "SELECT 1");
  // 1000 nested expressions work ...
  std::string deep = QueryText("SELECT " + nest("(1 + ", "1", ")", 1000));
  EXPECT_EQ(deep.substr(0, 20), "SELECT (1 + (1 + (1 ");
  // ... deeper ones fail cleanly rather than overflowing the stack.
  for (const std::string& sql : {
           "SELECT " + nest("(1 + ", "1", ")", 5000),
           "SELECT " + nest("(", "1", ")", 10000),
           "SELECT " + nest("(", "1", ")", 100000),
           "SELECT " + nest("(SELECT ", "1", ")", 1000),
           "SELECT " + nest("f(", "1", ")", 3000),
           "SELECT " + nest("CASE WHEN a THEN ", "1", " END", 3000),
           "SELECT " + nest("NOT ", "a", "", 20000),
           "SELECT * FROM t WHERE a IN " + nest("(SELECT a FROM t WHERE a IN ", "(1)", ")", 2000),
       }) {
    std::string message = ParseErrorOf(sql);
    EXPECT_NE(message.find("nested too deeply"), std::string::npos) << message.substr(0, 200);
  }
  // Long left-deep chains too (libpg_query would overflow serializing them).
  std::string chain = "SELECT a";
  for (int i = 0; i < 50000; i++)
    chain += " + a";
  EXPECT_NE(ParseErrorOf(chain).find("nested too deeply"), std::string::npos);
  std::string casts = "SELECT a";
  for (int i = 0; i < 20000; i++)
    casts += "::int";
  EXPECT_NE(ParseErrorOf(casts).find("nested too deeply"), std::string::npos);
  std::string joins = "SELECT * FROM t0";
  for (int i = 1; i < 5000; i++)
    joins += " JOIN t" + std::to_string(i) + " USING (k)";
  EXPECT_NE(ParseErrorOf(joins).find("nested too deeply"), std::string::npos);
  // A long chain that fits is fine.
  std::string sum = "SELECT a";
  for (int i = 0; i < 500; i++)
    sum += " + a";
  EXPECT_NO_THROW(Parser::Parse(sum));
}

TEST(ParserLimitsTest, EstimateNestingDepth) {
  auto estimate = [](const std::string& sql) {
    return parser_internal::EstimateNestingDepth(parser_internal::RewriteSql(sql).tokens);
  };
  EXPECT_LT(estimate("SELECT a, b, c FROM t WHERE a = 1 AND b = 2 OR c = 3"), 10);
  EXPECT_GE(estimate("SELECT a + a + a + a + a"), 4);
  EXPECT_GE(estimate("SELECT ((((a))))"), 4);
  EXPECT_EQ(estimate("SELECT 1; SELECT 2"), estimate("SELECT 2"));
}

// ---------------------------------------------------------------- write statements

TEST(ParserWriteTest, Copy) {
  auto statements = Parser::Parse(
      "COPY (SELECT a, p FROM t) TO 'out' (FORMAT parquet, PARTITION_BY (p, q), COMPRESSION "
      "zstd, ROW_GROUP_SIZE 1000, OVERWRITE_OR_IGNORE)");
  ASSERT_EQ(statements.size(), 1u);
  ASSERT_EQ(statements[0]->kind, StatementKind::kCopy);
  const auto& copy = static_cast<const CopyStatement&>(*statements[0]);
  EXPECT_EQ(copy.path, "out");
  ASSERT_NE(copy.query, nullptr);
  ASSERT_EQ(copy.options.size(), 5u);
  EXPECT_EQ(copy.options[0].name, "format");
  EXPECT_EQ(copy.options[0].values, std::vector<std::string>{"parquet"});
  EXPECT_EQ(copy.options[1].name, "partition_by");
  EXPECT_TRUE(copy.options[1].parenthesized);
  EXPECT_EQ(copy.options[1].values, (std::vector<std::string>{"p", "q"}));
  EXPECT_EQ(copy.options[3].values, std::vector<std::string>{"1000"});
  EXPECT_EQ(copy.options[4].name, "overwrite_or_ignore");
  EXPECT_TRUE(copy.options[4].values.empty());
  // COPY table TO: SELECT * FROM table.
  statements = Parser::Parse("COPY sales TO 'x.parquet'");
  const auto& whole = static_cast<const CopyStatement&>(*statements[0]);
  EXPECT_EQ(whole.query->kind, QueryNodeKind::kSelect);
  // COPY table [(cols)] FROM: the table, its columns and the options; no query.
  statements = Parser::Parse("COPY Sales (a, b) FROM 'x.csv' (HEADER, DELIMITER '|')");
  const auto& from = static_cast<const CopyStatement&>(*statements[0]);
  EXPECT_TRUE(from.is_from);
  EXPECT_EQ(from.table, "sales");
  EXPECT_EQ(from.columns, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(from.path, "x.csv");
  EXPECT_EQ(from.query, nullptr);
  ASSERT_EQ(from.options.size(), 2u);
  EXPECT_EQ(from.options[1].name, "delimiter");
  EXPECT_EQ(from.options[1].values, std::vector<std::string>{"|"});
}

TEST(ParserWriteTest, Insert) {
  auto statements =
      Parser::Parse("INSERT INTO Orders (a, b) SELECT 1, 2; INSERT INTO t VALUES (1)");
  ASSERT_EQ(statements.size(), 2u);
  const auto& insert = static_cast<const InsertStatement&>(*statements[0]);
  EXPECT_EQ(insert.name, "orders");
  EXPECT_EQ(insert.columns, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(static_cast<const InsertStatement&>(*statements[1]).query->kind,
            QueryNodeKind::kValues);
}

TEST(ParserWriteTest, CreateTable) {
  const std::string sql =
      "SELECT 1; CREATE TABLE Orders USING parquet PARTITIONED By (customer_id) AS\n"
      "  SELECT CAST((rand()*100) AS INT) AS customer_id FROM RANGE(10); SELECT 2";
  auto statements = Parser::Parse(sql);
  ASSERT_EQ(statements.size(), 3u);
  ASSERT_EQ(statements[1]->kind, StatementKind::kCreateTable);
  const auto& create = static_cast<const CreateTableStatement&>(*statements[1]);
  EXPECT_EQ(create.name, "orders");
  ASSERT_EQ(create.partition_columns.size(), 1u);
  EXPECT_EQ(create.partition_columns[0].name, "customer_id");
  ASSERT_NE(create.query, nullptr);
  // Positions in the query are the user's: as if the query stood alone at its offset.
  const size_t query_begin = sql.find("SELECT CAST");
  const std::string query_text = sql.substr(query_begin, sql.find(';', query_begin) - query_begin);
  auto alone = Parser::Parse(std::string(query_begin, ' ') + query_text);
  EXPECT_EQ(create.query->location, static_cast<const SelectStatement&>(*alone[0]).query->location);
  EXPECT_GE(create.query->location, static_cast<int>(query_begin));

  statements = Parser::Parse(
      "CREATE TABLE IF NOT EXISTS e (id BIGINT, day DATE) PARTITIONED BY (day, kind VARCHAR)");
  const auto& columns = static_cast<const CreateTableStatement&>(*statements[0]);
  EXPECT_TRUE(columns.if_not_exists);
  EXPECT_EQ(columns.columns.size(), 2u);
  ASSERT_EQ(columns.partition_columns.size(), 2u);
  EXPECT_FALSE(columns.partition_columns[0].type.has_value());
  EXPECT_TRUE(columns.partition_columns[1].type.has_value());
  EXPECT_EQ(columns.query, nullptr);

  EXPECT_THROW(Parser::Parse("CREATE TABLE t"), ParseError);
  EXPECT_THROW(Parser::Parse("CREATE TABLE t (a INT) AS SELECT 1"), NotSupportedError);
  EXPECT_THROW(Parser::Parse("CREATE TABLE t AS"), ParseError);
  EXPECT_THROW(Parser::Parse("CREATE TABLE t AS SELEC 1"), ParseError);
}

}  // namespace
}  // namespace shears

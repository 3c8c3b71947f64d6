// Parser tests: statements other than SELECT, whole workload queries, size limits, writes.
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
  // The statement parses (RETURNING too); running it says EXPLAIN takes queries only.
  auto explain = ParseOne("EXPLAIN UPDATE t SET a = 1 RETURNING a");
  EXPECT_EQ(static_cast<ExplainStatement&>(*explain).statement->kind, StatementKind::kUpdate);
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
  EXPECT_EQ(static_cast<CreateViewStatement&>(*ParseOne("CREATE VIEW s.v AS SELECT 1")).name,
            "s.v");
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
  EXPECT_EQ(static_cast<DropViewStatement&>(*ParseOne("DROP VIEW S.v")).name, "s.v");
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
  EXPECT_EQ(static_cast<CreateExternalTableStatement&>(
                *ParseOne("CREATE EXTERNAL TABLE s.t STORED AS PARQUET LOCATION 'x'"))
                .name,
            "s.t");
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

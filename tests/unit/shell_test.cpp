// The shell without a terminal: the statement splitter, completion candidates, dot commands and
// statements read from piped input, and the progress line.

#include "shell/shell.h"

#include <gtest/gtest.h>

#include <sstream>

#include "main/connection.h"
#include "output/box_renderer.h"
#include "shell/completion.h"
#include "shell/shell_terminal.h"
#include "shell/statement_splitter.h"
#include "test_util.h"

namespace shears {
namespace {

std::vector<std::string> Split(const std::vector<std::string>& lines) {
  StatementSplitter splitter;
  std::vector<std::string> statements;
  for (const auto& line : lines) {
    splitter.AddLine(line);
    while (auto statement = splitter.Next())
      statements.push_back(*statement);
  }
  if (auto rest = splitter.TakeRest()) statements.push_back("REST:" + *rest);
  return statements;
}

TEST(StatementSplitterTest, EndsAtSemicolonsOutsideQuotesAndComments) {
  EXPECT_EQ(Split({"SELECT 1; SELECT 2;"}), (std::vector<std::string>{"SELECT 1;", " SELECT 2;"}));
  EXPECT_EQ(Split({"SELECT 'a;b', \"c;d\"", "FROM t;"}),
            (std::vector<std::string>{"SELECT 'a;b', \"c;d\"\nFROM t;"}));
  EXPECT_EQ(Split({"SELECT 'it''s; here'; -- a; comment", "SELECT /* x; /* nested; */ y; */ 3;"}),
            (std::vector<std::string>{"SELECT 'it''s; here';",
                                      " -- a; comment\nSELECT /* x; /* nested; */ y; */ 3;"}));
  EXPECT_EQ(Split({"SELECT $$a;b$$, $tag$c;$$;d$tag$;"}),
            (std::vector<std::string>{"SELECT $$a;b$$, $tag$c;$$;d$tag$;"}));
  // Empty statements and comment-only text are not statements.
  EXPECT_EQ(Split({";;", "-- only a comment", ";"}), (std::vector<std::string>{}));
  // Text without a final ';' is handed back at the end of input.
  EXPECT_EQ(Split({"SELECT 1; SELECT", "2"}),
            (std::vector<std::string>{"SELECT 1;", "REST: SELECT\n2\n"}));
}

TEST(StatementSplitterTest, ReportsAPendingStatement) {
  StatementSplitter splitter;
  EXPECT_TRUE(splitter.Empty());
  splitter.AddLine("SELECT 'open quote;");
  EXPECT_FALSE(splitter.Next());
  EXPECT_FALSE(splitter.Empty());
  splitter.AddLine("still quoted' AS s;");
  ASSERT_TRUE(splitter.Next());
  EXPECT_TRUE(splitter.Empty());
  splitter.AddLine("  -- trailing comment");
  EXPECT_TRUE(splitter.Empty());
}

TEST(CompletionTest, OffersKeywordsTablesAndColumnsByContext) {
  CompletionNames names;
  names.tables = {"customer", "date_dim", "store_sales", "v_sales"};
  names.columns["store_sales"] = {"ss_item_sk", "ss_sold_date_sk"};
  names.columns["date_dim"] = {"d_date_sk", "d_year"};
  using V = std::vector<std::string>;
  EXPECT_EQ(CompletionCandidates("", "SEL", names), V{"SELECT"});
  EXPECT_EQ(CompletionCandidates("", "sel", names), V{"select"});  // the case typed
  EXPECT_EQ(CompletionCandidates("SELECT * ", "FR", names), V{"FROM"});
  // After FROM / JOIN: tables only (no keyword or column starting with s).
  EXPECT_EQ(CompletionCandidates("SELECT * FROM ", "s", names), V{"store_sales"});
  EXPECT_EQ(CompletionCandidates("SELECT * FROM store_sales JOIN ", "", names),
            (V{"customer", "date_dim", "store_sales", "v_sales"}));
  // Elsewhere columns and tables too.
  EXPECT_EQ(CompletionCandidates("SELECT ", "d_", names), (V{"d_date_sk", "d_year"}));
  EXPECT_EQ(CompletionCandidates("SELECT ", "ss", names), (V{"ss_item_sk", "ss_sold_date_sk"}));
  EXPECT_EQ(CompletionCandidates("SELECT ", "date_dim.d_y", names), V{"date_dim.d_year"});
  EXPECT_EQ(CompletionCandidates("SELECT ", "nothing_like_this", names), V{});
  // Aliases, given before or after the cursor; earlier lines of the statement count.
  EXPECT_EQ(CompletionCandidates("SELECT ", "d.d_", names,
                                 "SELECT d.d_ FROM store_sales ss JOIN date_dim AS d ON true"),
            (V{"d.d_date_sk", "d.d_year"}));
  EXPECT_EQ(CompletionCandidates("SELECT ", "ss.ss_i", names, "SELECT ss.ss_i FROM store_sales ss"),
            V{"ss.ss_item_sk"});
  EXPECT_EQ(CompletionCandidates("SELECT ", "x.", names, "SELECT x. FROM store_sales WHERE x"),
            V{});
  EXPECT_EQ(CompletionCandidates("SELECT *\nFROM\n  ", "d", names), V{"date_dim"});
  // Dot commands and their arguments.
  EXPECT_EQ(CompletionCandidates("", ".t", names), (V{".tables", ".timer"}));
  EXPECT_EQ(CompletionCandidates(".mode ", "", names), (V{"box", "csv", "json", "table"}));
  EXPECT_EQ(CompletionCandidates(".schema ", "d", names), V{"date_dim"});
}

TEST(CompletionTest, LoadsNamesFromTheCatalog) {
  Database db;
  Connection con(db);
  con.Query("CREATE EXTERNAL TABLE ym STORED AS PARQUET LOCATION '" + test::DataDir() +
            "/hive/hive_year_month'");
  con.Query("CREATE VIEW ym_view AS SELECT 1 AS one");
  auto names = LoadCompletionNames(db.catalog());
  EXPECT_EQ(names.tables, (std::vector<std::string>{"ym", "ym_view"}));
  EXPECT_EQ(names.columns["ym"],
            (std::vector<std::string>{"id", "region", "amount", "ts", "year", "month"}));
  EXPECT_EQ(CompletionCandidates("SELECT ", "reg", names), std::vector<std::string>{"region"});
}

struct PipedRun {
  int exit_code;
  std::string out, err;
};

PipedRun RunPiped(const std::string& input, OutputFormat mode = OutputFormat::kTable) {
  Database db;
  Connection con(db);
  std::ostringstream out, err;
  ShellOptions options;
  options.mode = mode;
  Shell shell(con, out, err, options);
  std::istringstream in(input);
  const int code = shell.RunPiped(in);
  return {code, out.str(), err.str()};
}

TEST(ShellTest, PipedInputRunsStatementsAndDotCommands) {
  const std::string table = test::DataDir() + "/hive/hive_year_month";
  auto run = RunPiped("CREATE EXTERNAL TABLE ym STORED AS PARQUET LOCATION '" + table +
                      "';\n"
                      "CREATE VIEW two(x) AS\n  SELECT 2;\n"
                      ".tables\n"
                      ".schema ym\n"
                      ".schema two\n"
                      ".mode csv\n"
                      "SELECT count(*) AS n,\n"
                      "       'a;b' AS s FROM ym;\n"
                      ".mode\n"
                      ".mode json\n"
                      "SELECT x FROM two\n");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err, "");
  EXPECT_EQ(run.out,
            "two  ym\n"
            "CREATE EXTERNAL TABLE ym (id INTEGER, region VARCHAR, amount DECIMAL(18,4), ts "
            "TIMESTAMP) STORED AS PARQUET PARTITIONED BY (year BIGINT, month BIGINT) LOCATION '" +
                table +
                "';\n"
                "CREATE VIEW two(x) AS SELECT 2;\n"
                "n,s\n126,a;b\n"
                "csv\n"
                "{\"x\":2}\n");
}

TEST(ShellTest, SchemaShowsManagedTablesWithConstraintsAndIndexes) {
  auto run = RunPiped(
      "CREATE TABLE t (a INTEGER PRIMARY KEY, b VARCHAR UNIQUE, c DOUBLE CHECK (c > 0)) "
      "PARTITIONED BY (d DATE);\n"
      "CREATE UNIQUE INDEX t_c ON t (c);\n"
      "CREATE INDEX t_bd ON t (b, d DESC);\n"
      ".schema t\n");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out.substr(run.out.find("CREATE TABLE")),
            "CREATE TABLE t (a INTEGER NOT NULL, b VARCHAR, c DOUBLE, PRIMARY KEY (a), UNIQUE (b), "
            "CHECK (c > 0)) PARTITIONED BY (d DATE);\n"
            "CREATE INDEX t_bd ON t (b, d);\n"
            "CREATE UNIQUE INDEX t_c ON t (c);\n");
}

TEST(ShellTest, PipedInputStopsAtTheFirstError) {
  auto run = RunPiped("SELECT 1 AS a;\nSELECT nope;\nSELECT 3 AS c;\n", OutputFormat::kCsv);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.out, "a\n1\n");
  EXPECT_NE(run.err.find("Binder Error"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("nope"), std::string::npos) << run.err;

  run = RunPiped(".frobnicate\nSELECT 1;\n");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.err,
            "Invalid Input Error: unknown command '.frobnicate' (.help lists the commands)\n");

  run = RunPiped(".timer maybe\n");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.err, "Invalid Input Error: usage: .timer on|off\n");

  run = RunPiped(".schema missing\n");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("no table or view named 'missing'"), std::string::npos) << run.err;
}

TEST(ShellTest, TimerQuitAndHelp) {
  auto run =
      RunPiped(".timer on\nSELECT 1 AS a;\n.timer off\nSELECT 2 AS b;\n.quit\nSELECT nope;\n",
               OutputFormat::kCsv);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "a\n1\nb\n2\n");
  EXPECT_EQ(run.err.rfind("Run Time: ", 0), 0u) << run.err;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1);  // the first statement's only
  run = RunPiped(".help\n");
  EXPECT_NE(run.out.find(".schema [NAME]"), std::string::npos);
  EXPECT_NE(run.out.find(".mode box|table|csv|json"), std::string::npos);
}

TEST(ShellTest, ProgressLineFitsItsWidth) {
  EXPECT_EQ(FormatProgressLine(0.5, 2.5, 30), "[████████░░░░░░░░]  50%  2.5 s");
  EXPECT_EQ(FormatProgressLine(1.0, 10, 30), "[███████████████] 100%  10.0 s");
  EXPECT_EQ(DisplayWidth(FormatProgressLine(0.123, 5, 200)), 50 + 14u);  // the bar stops at 50
  EXPECT_EQ(FormatProgressLine(-1, 3.25, 80), "running… 3.2 s");
  EXPECT_EQ(FormatProgressLine(0.25, 2, 12), "25% 2.0 s");
}

}  // namespace
}  // namespace shears

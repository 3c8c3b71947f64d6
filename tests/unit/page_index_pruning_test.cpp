// Page pruning in the scan: a corrupt page index changes nothing but the pages read, and the
// row ranges from page statistics follow every column's own page boundaries.

#include "storage/parquet/page_index_pruning.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <limits>

#include "main/connection.h"
#include "storage/parquet/minmax_pruning.h"
#include "storage/parquet/parquet_file.h"
#include "test_util.h"

namespace shears {
namespace {

std::string Fixture() {
  return test::DataDir() + "/parquet/generated/pages_clustered.parquet";
}

const char* const kQueries[] = {
    "SELECT count(*), sum(val) FROM '{}' WHERE id BETWEEN 1000 AND 1100",
    "SELECT count(*), min(id), max(id) FROM '{}' WHERE grp IN (3, 150)",
    "SELECT count(*), min(id) FROM '{}' WHERE sparse IS NULL",
    "SELECT count(*), sum(t.val) FROM '{}' t JOIN (VALUES (1234::BIGINT), (15000)) v(k) "
    "ON t.id = v.k",
};

std::vector<std::vector<std::string>> RunQuery(Connection& connection, const std::string& query,
                                               const std::string& path) {
  return connection.Query(fmt::format(fmt::runtime(query), path)).ToStrings();
}

TEST(PagePruningScanTest, CorruptPageIndexOnlyCostsThePruning) {
  test::TempDir dir;
  const std::string path = dir.Add("corrupt.parquet", Fixture());
  {
    auto file = parquet::ParquetFile::Open(path);
    const int64_t start = file->chunk(0, 0).column_index_offset;
    const uint64_t end = file->file_size() - 8 - file->footer_length();
    std::fstream out(path, std::ios::in | std::ios::out | std::ios::binary);
    out.seekp(start);
    const std::string garbage(end - static_cast<uint64_t>(start), '\x05');
    out.write(garbage.data(), static_cast<std::streamsize>(garbage.size()));
  }
  Database database;
  Connection connection(database);
  for (const char* query : kQueries) {
    EXPECT_EQ(RunQuery(connection, query, path), RunQuery(connection, query, Fixture())) << query;
  }
  std::string explain;
  for (const auto& row : RunQuery(connection, std::string("EXPLAIN ANALYZE ") + kQueries[0], path))
    explain += row[0] + "\n";
  EXPECT_NE(explain.find("page_indexes_invalid: "), std::string::npos) << explain;
  // Late materialization still skips the pages of val holding no row that passed.
  EXPECT_NE(explain.find("rows_scanned: 10000\n"), std::string::npos) << explain;
}

TEST(PagePruningScanTest, AnswersDoNotDependOnTheSwitches) {
  Database database;
  Connection connection(database);
  for (const char* query : kQueries) {
    const auto expected = RunQuery(connection, query, Fixture());
    for (const char* setting : {"page_index_pruning", "late_materialization"}) {
      connection.Query(fmt::format("SET {} = false", setting));
      EXPECT_EQ(RunQuery(connection, query, Fixture()), expected) << setting << ": " << query;
      connection.Query(fmt::format("RESET {}", setting));
    }
  }
}

// A page index over rows 0..num_rows with pages starting at `firsts`, bounds `bounds`
// (nullopt: a NULL page).
struct TestColumn {
  parquet::ColumnIndexData column_index;
  format::OffsetIndex offset_index;
};
TestColumn MakeColumn(const std::vector<int64_t>& firsts,
                      const std::vector<std::optional<std::pair<int, int>>>& bounds) {
  TestColumn column;
  for (size_t page = 0; page < firsts.size(); page++) {
    format::PageLocation location;
    location.first_row_index = firsts[page];
    column.offset_index.page_locations.push_back(location);
    column.column_index.null_pages.push_back(!bounds[page]);
    if (bounds[page]) {
      column.column_index.min_values.push_back(Value::Integer(bounds[page]->first));
      column.column_index.max_values.push_back(Value::Integer(bounds[page]->second));
    } else {
      column.column_index.min_values.emplace_back();
      column.column_index.max_values.emplace_back();
    }
  }
  return column;
}

// `column op value`, as the binder builds it (pruning looks at the name and arguments only).
BoundExprPtr Compare(const std::string& op, idx_t column, const Value& value) {
  std::vector<BoundExprPtr> args;
  args.push_back(std::make_unique<BoundReference>(value.type(), column, "c"));
  args.push_back(std::make_unique<BoundConstant>(value));
  BoundScalarFunction function;
  function.name = op;
  function.arg_types = {value.type(), value.type()};
  function.return_type = LogicalType::Boolean();
  return std::make_unique<BoundFunction>(std::move(function), std::move(args));
}
BoundExprPtr Compare(const std::string& op, idx_t column, int value) {
  return Compare(op, column, Value::Integer(value));
}

TEST(PagePruningTest, RangesFollowEveryColumnsPages) {
  // Column a: pages [0,100) [100,250) [250,400); column b: [0,50) [50,300) [300,400).
  const auto a = MakeColumn({0, 100, 250}, {{{0, 9}}, {{10, 19}}, {{20, 29}}});
  const auto b = MakeColumn({0, 50, 300}, {{{5, 5}}, std::nullopt, {{1, 3}}});
  const std::vector<PageIndexColumn> columns = {{&a.column_index, &a.offset_index},
                                                {&b.column_index, &b.offset_index}};
  auto ranges = [&](const std::vector<const BoundExpr*>& filters) {
    return PageRowRanges(400, columns, filters, {})[0];
  };
  const auto a_ge_10 = Compare(">=", 0, 10);
  EXPECT_EQ(ranges({a_ge_10.get()}), (parquet::RowRanges{{100, 400}}));
  const auto b_eq_5 = Compare("=", 1, 5);
  EXPECT_EQ(ranges({b_eq_5.get()}), (parquet::RowRanges{{0, 50}}));
  // AND of both: no piece passes both.
  EXPECT_EQ(ranges({a_ge_10.get(), b_eq_5.get()}), parquet::RowRanges{});
  // b < 4 only in b's last page (its middle page is all NULL).
  const auto b_lt_4 = Compare("<", 1, 4);
  EXPECT_EQ(ranges({b_lt_4.get()}), (parquet::RowRanges{{300, 400}}));
  // An unindexed column (or a filter shape StatsMayMatch does not know) prunes nothing.
  const auto unknown = Compare("=", 2, 1);
  const std::vector<PageIndexColumn> with_unindexed = {columns[0], columns[1], {}};
  EXPECT_EQ(PageRowRanges(400, with_unindexed, {unknown.get()}, {})[0],
            (parquet::RowRanges{{0, 400}}));
}

// Arrow, parquet-mr and shears before it marked its files leave a NaN out of a chunk's or
// page's bounds; NaN sorts above every number, so pruning takes such a floating max as NaN:
// `c > 100` keeps what may hold one, `c < 15` and `c = 15` still prune by the min.
TEST(PagePruningTest, FloatingBoundsMayHideANaN) {
  TestColumn d;
  for (int64_t first : {0, 100}) {
    format::PageLocation location;
    location.first_row_index = first;
    d.offset_index.page_locations.push_back(location);
    d.column_index.null_pages.push_back(false);
  }
  d.column_index.max_may_exclude_nan = true;
  d.column_index.min_values = {Value::Double(1), Value::Double(20)};
  d.column_index.max_values = {Value::Double(10), Value::Double(30)};
  const std::vector<PageIndexColumn> columns = {{&d.column_index, &d.offset_index}};
  auto ranges = [&](const BoundExpr& filter) {
    return PageRowRanges(200, columns, {&filter}, {})[0];
  };
  EXPECT_EQ(ranges(*Compare(">", 0, Value::Double(100))), (parquet::RowRanges{{0, 200}}));
  EXPECT_EQ(ranges(*Compare("<", 0, Value::Double(15))), (parquet::RowRanges{{0, 100}}));
  EXPECT_EQ(ranges(*Compare("=", 0, Value::Double(15))), (parquet::RowRanges{{0, 100}}));

  // The same for a chunk's statistics; a NaN bound tells nothing.
  parquet::ColumnChunkStatistics chunk;
  chunk.num_values = 100;
  chunk.null_count = 0;
  chunk.min = Value::Float(1);
  chunk.max = Value::Float(10);
  chunk.max_may_exclude_nan = true;
  const auto widened = parquet::PruningStatistics(chunk);
  const StatsLookup lookup = [&](idx_t) { return &widened; };
  EXPECT_TRUE(StatsMayMatch(*Compare(">", 0, Value::Float(100)), lookup));
  EXPECT_FALSE(StatsMayMatch(*Compare("<", 0, Value::Float(0)), lookup));
  chunk.max = Value::Float(std::numeric_limits<float>::quiet_NaN());
  EXPECT_FALSE(parquet::PruningStatistics(chunk).min);
  // Bounds of a writer that leaves no NaN out (shears' own files) are trusted.
  chunk.max = Value::Float(10);
  chunk.max_may_exclude_nan = false;
  const auto trusted = parquet::PruningStatistics(chunk);
  const StatsLookup trusted_lookup = [&](idx_t) { return &trusted; };
  EXPECT_FALSE(StatsMayMatch(*Compare(">", 0, Value::Float(100)), trusted_lookup));
}

}  // namespace
}  // namespace shears

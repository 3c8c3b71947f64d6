// Prepared statements ($n and ? parameters bound as constants) and in-memory tables through a
// replacement scan: what the Python module builds on, tested here without Python (and so
// under ASan and UBSan too).

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "common/error.h"
#include "main/connection.h"
#include "storage/dataset.h"
#include "storage/memory_table.h"

namespace shears {
namespace {

using Rows = std::vector<std::vector<std::string>>;

Rows RunPrepared(Connection& con, const std::string& sql, const std::vector<Value>& values) {
  return con.Execute(con.Prepare(sql), values).ToStrings();
}

TEST(PreparedStatementTest, NumberedAndQuestionMarkParameters) {
  Database db;
  Connection con(db);
  EXPECT_EQ(RunPrepared(con, "SELECT $2 - $1, $1", {Value::Integer(10), Value::Integer(15)}),
            (Rows{{"5", "10"}}));
  EXPECT_EQ(
      RunPrepared(con, "SELECT ? || ?, ?", {Value::Varchar("a"), Value::Varchar("b"), Value()}),
      (Rows{{"ab", "NULL"}}));
  EXPECT_EQ(RunPrepared(con, "SELECT count(*) FROM range(100) WHERE id < ?", {Value::Bigint(7)}),
            (Rows{{"7"}}));
  // '?' inside a string and "?" as a name are not parameters.
  EXPECT_EQ(RunPrepared(con, "SELECT '?' AS \"?\", ?", {Value::Integer(1)}), (Rows{{"?", "1"}}));
  EXPECT_EQ(con.Prepare("SELECT $3").parameter_count, 3);
}

TEST(PreparedStatementTest, ValuesAreTypedConstantsNotText) {
  Database db;
  Connection con(db);
  const std::string evil = "x'; DROP VIEW v; --";
  EXPECT_EQ(RunPrepared(con, "SELECT ?", {Value::Varchar(evil)}), (Rows{{evil}}));
  auto result = con.Execute(con.Prepare("SELECT ?, ?, ?"),
                            {Value::Date(1), Value::Decimal(1234, 6, 2), Value::Double(0.5)});
  EXPECT_EQ(result.types[0], LogicalType::Date());
  EXPECT_EQ(result.types[1], LogicalType::Decimal(6, 2));
  EXPECT_EQ(result.ToStrings(), (Rows{{"1970-01-02", "12.34", "0.5"}}));
  // A string parameter compares with a DATE as a literal does.
  EXPECT_EQ(RunPrepared(con,
                        "SELECT count(*) FROM range(3) WHERE DATE '2020-01-01' + CAST(id AS "
                        "INTEGER) > ?",
                        {Value::Varchar("2020-01-01")}),
            (Rows{{"2"}}));
}

TEST(PreparedStatementTest, ClearErrors) {
  Database db;
  Connection con(db);
  EXPECT_THROW(con.Execute(con.Prepare("SELECT ?, ?"), {Value::Integer(1)}), InvalidInputError);
  EXPECT_THROW(con.Query("SELECT $1"), BinderError);
  EXPECT_THROW(con.Prepare("SELECT ?, $1"), ParseError);
  EXPECT_THROW(con.Prepare("SELECT 1; SELECT 2"), ParseError);
  EXPECT_THROW(con.Prepare("SELECT $0"), ParseError);
  EXPECT_THROW(con.Prepare("CREATE VIEW v AS SELECT $1"), NotSupportedError);
  // The connection runs plain statements afterwards.
  EXPECT_EQ(con.Query("SELECT 1").ToStrings(), (Rows{{"1"}}));
  // EXPLAIN takes parameters too.
  EXPECT_NO_THROW(
      RunPrepared(con, "EXPLAIN SELECT * FROM range(10) WHERE id > ?", {Value::Integer(3)}));
}

// An in-memory table of `rows` rows: a BIGINT column referenced in place, an int16 one
// converted, a DOUBLE one with NaN as NULL and one with a null mask.
struct TestTable {
  std::vector<int64_t> ids;
  std::vector<int16_t> small;
  std::vector<double> values;
  std::vector<uint8_t> nulls;
  std::shared_ptr<const Dataset> dataset;

  explicit TestTable(size_t rows) : ids(rows), small(rows), values(rows), nulls(rows) {
    std::iota(ids.begin(), ids.end(), 0);
    for (size_t i = 0; i < rows; i++) {
      small[i] = static_cast<int16_t>(i % 100 - 50);
      values[i] = i % 10 == 0 ? std::numeric_limits<double>::quiet_NaN() : 0.5 * i;
      nulls[i] = i % 3 == 0;
    }
    auto table = std::make_shared<MemoryTable>();
    table->rows = rows;
    table->owner = std::make_shared<int>(0);
    table->columns = {
        {"id", LogicalType::Bigint(), MemoryColumn::Source::kNative, ids.data(), nullptr, false},
        {"small", LogicalType::Integer(), MemoryColumn::Source::kInt16, small.data(), nullptr,
         false},
        {"v", LogicalType::Double(), MemoryColumn::Source::kNative, values.data(), nullptr, true},
        {"masked", LogicalType::Bigint(), MemoryColumn::Source::kNative, ids.data(), nulls.data(),
         false},
    };
    dataset = Dataset::FromMemory(std::move(table));
  }
};

TEST(MemoryScanTest, ReplacementScanReadsInPlaceAndConverts) {
  Database db;
  Connection con(db);
  const size_t rows = 10000;  // several batches
  TestTable table(rows);
  con.SetReplacementScan([&](const std::string& name) -> std::shared_ptr<const Dataset> {
    return name == "mem" ? table.dataset : nullptr;
  });
  int64_t sum_ids = 0, sum_small = 0, masked = 0, valid_v = 0;
  double sum_v = 0;
  for (size_t i = 0; i < rows; i++) {
    sum_ids += static_cast<int64_t>(i);
    sum_small += table.small[i];
    if (i % 3 != 0) masked++;
    if (i % 10 != 0) {
      valid_v++;
      sum_v += 0.5 * i;
    }
  }
  EXPECT_EQ(con.Query("SELECT count(*), sum(id), sum(small), count(masked), count(v), sum(v) "
                      "FROM mem")
                .ToStrings(),
            (Rows{{std::to_string(rows), std::to_string(sum_ids), std::to_string(sum_small),
                   std::to_string(masked), std::to_string(valid_v), FormatDouble(sum_v)}}));
  // Filters pushed into the scan, a join of the table with itself, parameters on it.
  EXPECT_EQ(
      con.Query("SELECT id, small FROM mem WHERE id BETWEEN 4998 AND 5000 ORDER BY id").ToStrings(),
      (Rows{{"4998", "48"}, {"4999", "49"}, {"5000", "-50"}}));
  EXPECT_EQ(con.Query("SELECT count(*) FROM mem a JOIN mem b ON a.id = b.id + 1 WHERE "
                      "b.masked IS NULL")
                .ToStrings(),
            (Rows{{std::to_string((rows + 2) / 3 - 1)}}));
  EXPECT_EQ(RunPrepared(con, "SELECT count(*) FROM mem WHERE small = ?", {Value::Integer(-50)}),
            (Rows{{std::to_string(rows / 100)}}));
  EXPECT_NE(con.Query("EXPLAIN SELECT id FROM mem WHERE id > 3").ToStrings()[0][0], "");
  // Other names are still unknown.
  EXPECT_THROW(con.Query("SELECT * FROM other"), BinderError);
  con.SetReplacementScan(nullptr);
  EXPECT_THROW(con.Query("SELECT * FROM mem"), BinderError);
}

TEST(MemoryScanTest, TimesAndOverflowingUnsignedValues) {
  Database db;
  Connection con(db);
  std::vector<int64_t> nanos = {1'500'000'001, -1, std::numeric_limits<int64_t>::min()};
  std::vector<int64_t> days = {0, 18262, std::numeric_limits<int64_t>::min()};
  std::vector<uint64_t> big = {1, 2, uint64_t{1} << 63};
  auto table = std::make_shared<MemoryTable>();
  table->rows = 3;
  table->owner = std::make_shared<int>(0);
  table->columns = {
      {"t", LogicalType::Timestamp(), MemoryColumn::Source::kTimeNanos, nanos.data(), nullptr,
       false},
      {"d", LogicalType::Date(), MemoryColumn::Source::kTimeDays, days.data(), nullptr, false},
      {"u", LogicalType::Bigint(), MemoryColumn::Source::kUInt64, big.data(), nullptr, false},
  };
  auto dataset = Dataset::FromMemory(std::move(table));
  con.SetReplacementScan([&](const std::string&) { return dataset; });
  EXPECT_EQ(con.Query("SELECT t, d FROM x").ToStrings(),
            (Rows{{"1970-01-01 00:00:01.5", "1970-01-01"},
                  {"1969-12-31 23:59:59.999999", "2020-01-01"},
                  {"NULL", "NULL"}}));
  EXPECT_THROW(con.Query("SELECT u FROM x"), OutOfRangeError);
}

}  // namespace
}  // namespace shears

// PhysicalHashAggregate: every aggregate over every type it takes, NULLs, NULL groups, empty
// input with and without groups, DISTINCT, key equality of doubles, overflow, a million groups
// and the memory limit.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "common/error.h"
#include "execution/column_data.h"
#include "execution/operator/physical_hash_aggregate.h"
#include "execution/operator/physical_result_collector.h"
#include "execution/pipeline.h"
#include "execution/query_context.h"

namespace shears {
namespace {

using Row = std::vector<Value>;

std::shared_ptr<ColumnDataCollection> Collect(const std::vector<LogicalType>& types,
                                              const std::vector<Row>& rows, idx_t batch = 3) {
  auto data = std::make_shared<ColumnDataCollection>(types);
  Batch b(types);
  for (const auto& row : rows) {
    const idx_t r = b.size();
    for (idx_t c = 0; c < types.size(); c++)
      WriteValue(b.column(c), r, row[c]);
    b.SetSize(r + 1);
    if (b.size() == batch) {
      data->Append(b);
      b.Reset();
    }
  }
  if (b.size() > 0) data->Append(b);
  return data;
}

BoundExprPtr Ref(LogicalType type, idx_t index) {
  return std::make_unique<BoundReference>(type, index, "#" + std::to_string(index));
}

BoundExprPtr Agg(AggregateKind kind, LogicalType result, BoundExprPtr arg, bool distinct = false) {
  return std::make_unique<BoundAggregate>(kind, result, std::move(arg), distinct);
}

/// Result rows as Values, sorted by their text.
std::vector<Row> RunAgg(PhysicalResultCollector& root, int threads,
                        Settings settings = Settings()) {
  QueryContext query(settings);
  ExecutionContext context(query, threads);
  Executor(context).Execute(root);
  std::vector<Row> rows;
  auto& result = PhysicalResultCollector::Result(context, root);
  for (size_t b = 0; b < result.batch_count(); b++) {
    const Batch& batch = result.batch(b);
    for (idx_t r = 0; r < batch.size(); r++) {
      Row row;
      for (idx_t c = 0; c < batch.column_count(); c++)
        row.push_back(ReadValue(batch.column(c), r));
      rows.push_back(std::move(row));
    }
  }
  std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    for (size_t c = 0; c < a.size(); c++) {
      const int cmp = a[c].Compare(b[c]);
      if (cmp != 0) return cmp < 0;
    }
    return false;
  });
  return rows;
}

std::string Text(const Value& v) {
  return v.is_null() ? "NULL" : v.ToString();
}

std::unique_ptr<PhysicalResultCollector> Plan(const std::vector<LogicalType>& input_types,
                                              const std::vector<Row>& input,
                                              std::vector<BoundExprPtr> groups,
                                              std::vector<BoundExprPtr> aggregates,
                                              idx_t batch = 3) {
  std::vector<LogicalType> types;
  for (const auto& g : groups)
    types.push_back(g->type);
  for (const auto& a : aggregates)
    types.push_back(a->type);
  auto agg =
      std::make_unique<PhysicalHashAggregate>(types, std::move(groups), std::move(aggregates));
  agg->AddChild(
      std::make_unique<PhysicalColumnDataScan>(input_types, Collect(input_types, input, batch)));
  auto root = std::make_unique<PhysicalResultCollector>(types);
  root->AddChild(std::move(agg));
  return root;
}

Value I(int32_t v) {
  return Value::Integer(v);
}
Value NI() {
  return Value::Null(LogicalType::Integer());
}
Value D(double v) {
  return Value::Double(v);
}
Value ND() {
  return Value::Null(LogicalType::Double());
}
Value S(const std::string& v) {
  return Value::Varchar(v);
}
Value NS() {
  return Value::Null(LogicalType::Varchar());
}
Value Dec(int64_t unscaled) {
  return Value::Decimal(unscaled, 10, 2);
}
Value NDec() {
  return Value::Null(LogicalType::Decimal(10, 2));
}
Value Big(int128_t unscaled) {
  return Value::Decimal(unscaled, 30, 2);
}
Value Day(int32_t d) {
  return Value::Date(d);
}

// Columns: g INTEGER, i INTEGER, d DECIMAL(10,2), x DOUBLE, s VARCHAR, t DATE, w DECIMAL(30,2)
const std::vector<LogicalType> kTypes = {LogicalType::Integer(),      LogicalType::Integer(),
                                         LogicalType::Decimal(10, 2), LogicalType::Double(),
                                         LogicalType::Varchar(),      LogicalType::Date(),
                                         LogicalType::Decimal(30, 2)};

std::vector<Row> SampleRows() {
  const double nan = std::nan("");
  const int128_t huge = static_cast<int128_t>(INT64_MAX) * 1000;
  return {
      {I(1), I(1), Dec(150), D(1.5), S("b"), Day(100), Big(huge)},
      {I(2), I(10), NDec(), D(-0.0), S("zz"), Day(5), Big(1)},
      {I(1), I(2), Dec(225), D(nan), S("\xC3\xA4"), Day(-3), Big(huge)},
      {NI(), I(5), Dec(10), D(7.0), NS(), Value::Null(LogicalType::Date()), Big(-5)},
      {I(1), NI(), NDec(), D(2.0), NS(), Day(7), Value::Null(LogicalType::Decimal(30, 2))},
      {I(2), I(10), NDec(), D(3.0), S("zz"), Day(5), Big(2)},
      {I(1), I(4), Dec(-75), ND(), S("abc"), Day(100), Big(-huge)},
  };
}

TEST(OperatorAggregateTest, EveryAggregateGrouped) {
  std::vector<BoundExprPtr> groups;
  groups.push_back(Ref(LogicalType::Integer(), 0));
  std::vector<BoundExprPtr> aggs;
  aggs.push_back(Agg(AggregateKind::kCountStar, LogicalType::Bigint(), nullptr));
  aggs.push_back(Agg(AggregateKind::kCount, LogicalType::Bigint(), Ref(LogicalType::Integer(), 1)));
  aggs.push_back(Agg(AggregateKind::kSum, LogicalType::Bigint(), Ref(LogicalType::Integer(), 1)));
  aggs.push_back(
      Agg(AggregateKind::kSum, LogicalType::Decimal(38, 0), Ref(LogicalType::Integer(), 1)));
  aggs.push_back(Agg(AggregateKind::kSum, LogicalType::Decimal(38, 2), Ref(kTypes[2], 2)));
  aggs.push_back(Agg(AggregateKind::kSum, LogicalType::Double(), Ref(LogicalType::Double(), 3)));
  aggs.push_back(Agg(AggregateKind::kAvg, LogicalType::Double(), Ref(LogicalType::Integer(), 1)));
  aggs.push_back(Agg(AggregateKind::kAvg, LogicalType::Double(), Ref(kTypes[2], 2)));
  aggs.push_back(Agg(AggregateKind::kMin, LogicalType::Varchar(), Ref(LogicalType::Varchar(), 4)));
  aggs.push_back(Agg(AggregateKind::kMax, LogicalType::Varchar(), Ref(LogicalType::Varchar(), 4)));
  aggs.push_back(Agg(AggregateKind::kMin, LogicalType::Double(), Ref(LogicalType::Double(), 3)));
  aggs.push_back(Agg(AggregateKind::kMax, LogicalType::Double(), Ref(LogicalType::Double(), 3)));
  aggs.push_back(Agg(AggregateKind::kMin, LogicalType::Date(), Ref(LogicalType::Date(), 5)));
  aggs.push_back(Agg(AggregateKind::kMax, kTypes[2], Ref(kTypes[2], 2)));
  aggs.push_back(Agg(AggregateKind::kSum, LogicalType::Decimal(38, 2), Ref(kTypes[6], 6)));
  aggs.push_back(Agg(AggregateKind::kMax, kTypes[6], Ref(kTypes[6], 6)));
  aggs.push_back(
      Agg(AggregateKind::kStddevSamp, LogicalType::Double(), Ref(LogicalType::Integer(), 1)));
  aggs.push_back(Agg(AggregateKind::kStddevSamp, LogicalType::Double(), Ref(kTypes[2], 2)));
  aggs.push_back(Agg(AggregateKind::kAny, LogicalType::Varchar(), Ref(LogicalType::Varchar(), 4)));
  aggs.push_back(Agg(AggregateKind::kMin, LogicalType::Integer(), Ref(LogicalType::Integer(), 1)));
  auto root = Plan(kTypes, SampleRows(), std::move(groups), std::move(aggs));
  for (int threads : {1, 2}) {
    auto rows = RunAgg(*root, threads);
    ASSERT_EQ(rows.size(), 3u);
    std::vector<std::string> text;
    for (const auto& row : rows) {
      std::string line;
      for (size_t c = 0; c < row.size(); c++) {
        if (c == 17 || c == 18 || c == 19) continue;  // checked below
        line += (c ? "|" : "") + Text(row[c]);
      }
      text.push_back(line);
    }
    // NULL group first (Value order).
    EXPECT_EQ(text[0], "NULL|1|1|5|5|0.10|7.0|5.0|0.1|NULL|NULL|7.0|7.0|NULL|0.10|-0.05|-0.05|5");
    EXPECT_EQ(text[1],
              "1|4|3|7|7|3.00|nan|2.3333333333333335|1.0|abc|\xC3\xA4|1.5|nan|1969-12-29|2.25|"
              "92233720368547758070.00|92233720368547758070.00|1");
    EXPECT_EQ(text[2],
              "2|2|2|20|20|NULL|3.0|10.0|NULL|zz|zz|-0.0|3.0|1970-01-06|NULL|0.03|0.02|10");
    // stddev_samp: 1, 2, 4 -> sqrt(7/3); decimals 1.50, 2.25, -0.75 -> sqrt(2.4375)
    EXPECT_TRUE(rows[0][17].is_null());
    EXPECT_NEAR(rows[1][17].GetDouble(), std::sqrt(7.0 / 3.0), 1e-12);
    EXPECT_NEAR(rows[2][17].GetDouble(), 0.0, 1e-12);
    EXPECT_TRUE(rows[0][18].is_null());
    EXPECT_NEAR(rows[1][18].GetDouble(), std::sqrt(2.4375), 1e-12);
    EXPECT_TRUE(rows[2][18].is_null());
    // any_value: some non-NULL value of the group.
    EXPECT_TRUE(rows[0][19].is_null());
    const std::string any = rows[1][19].GetString();
    EXPECT_TRUE(any == "b" || any == "\xC3\xA4" || any == "abc") << any;
    EXPECT_EQ(rows[2][19].GetString(), "zz");
  }
}

std::vector<BoundExprPtr> EveryKindUngrouped() {
  std::vector<BoundExprPtr> aggs;
  aggs.push_back(Agg(AggregateKind::kCountStar, LogicalType::Bigint(), nullptr));
  aggs.push_back(Agg(AggregateKind::kCount, LogicalType::Bigint(), Ref(LogicalType::Integer(), 1)));
  aggs.push_back(Agg(AggregateKind::kSum, LogicalType::Bigint(), Ref(LogicalType::Integer(), 1)));
  aggs.push_back(Agg(AggregateKind::kSum, LogicalType::Decimal(38, 2), Ref(kTypes[2], 2)));
  aggs.push_back(Agg(AggregateKind::kAvg, LogicalType::Double(), Ref(LogicalType::Double(), 3)));
  aggs.push_back(Agg(AggregateKind::kMin, LogicalType::Varchar(), Ref(LogicalType::Varchar(), 4)));
  aggs.push_back(Agg(AggregateKind::kMax, LogicalType::Date(), Ref(LogicalType::Date(), 5)));
  aggs.push_back(
      Agg(AggregateKind::kStddevSamp, LogicalType::Double(), Ref(LogicalType::Double(), 3)));
  aggs.push_back(Agg(AggregateKind::kAny, LogicalType::Integer(), Ref(LogicalType::Integer(), 1)));
  aggs.push_back(
      Agg(AggregateKind::kCount, LogicalType::Bigint(), Ref(LogicalType::Integer(), 1), true));
  aggs.push_back(
      Agg(AggregateKind::kSum, LogicalType::Bigint(), Ref(LogicalType::Integer(), 1), true));
  return aggs;
}

TEST(OperatorAggregateTest, Ungrouped) {
  auto root = Plan(kTypes, SampleRows(), {}, EveryKindUngrouped());
  for (int threads : {1, 2}) {
    auto rows = RunAgg(*root, threads);
    ASSERT_EQ(rows.size(), 1u);
    std::string line;
    for (size_t c = 0; c < rows[0].size(); c++) {
      if (c == 7 || c == 8) continue;
      line += (c ? "|" : "") + Text(rows[0][c]);
    }
    EXPECT_EQ(line, "7|6|32|3.10|nan|abc|1970-04-11|5|22");
    EXPECT_TRUE(std::isnan(rows[0][7].GetDouble()));
    EXPECT_FALSE(rows[0][8].is_null());
  }
}

TEST(OperatorAggregateTest, EmptyInput) {
  // Without groups: one row, count 0 and NULL for the rest.
  auto root = Plan(kTypes, {}, {}, EveryKindUngrouped());
  for (int threads : {1, 2}) {
    auto rows = RunAgg(*root, threads);
    ASSERT_EQ(rows.size(), 1u);
    std::string line;
    for (size_t c = 0; c < rows[0].size(); c++)
      line += (c ? "|" : "") + Text(rows[0][c]);
    EXPECT_EQ(line, "0|0|NULL|NULL|NULL|NULL|NULL|NULL|NULL|0|NULL");
  }
  // With groups: no rows.
  std::vector<BoundExprPtr> groups;
  groups.push_back(Ref(LogicalType::Integer(), 0));
  auto grouped = Plan(kTypes, {}, std::move(groups), EveryKindUngrouped());
  for (int threads : {1, 2})
    EXPECT_TRUE(RunAgg(*grouped, threads).empty());
}

TEST(OperatorAggregateTest, Distinct) {
  std::vector<LogicalType> types = {LogicalType::Integer(), LogicalType::Integer(),
                                    LogicalType::Varchar()};
  std::vector<Row> input;
  std::map<std::string, std::set<int>> values;
  std::map<std::string, std::set<std::string>> strings;
  std::map<std::string, int> counts;
  std::set<int> all_values;
  for (int i = 0; i < 3000; i++) {
    Value g = i % 17 == 0 ? NI() : I(i % 5);
    Value v = i % 13 == 0 ? NI() : I((i * 7) % 23);
    Value s = i % 11 == 0 ? NS() : S("str-" + std::to_string(i % 9) + "-with-a-long-tail");
    input.push_back({g, v, s});
    const std::string key = Text(g);
    counts[key]++;
    if (!v.is_null()) {
      values[key].insert(static_cast<int>(v.GetInt64()));
      all_values.insert(static_cast<int>(v.GetInt64()));
    }
    if (!s.is_null()) strings[key].insert(s.GetString());
  }
  auto make_aggs = [] {
    std::vector<BoundExprPtr> aggs;
    aggs.push_back(Agg(AggregateKind::kCountStar, LogicalType::Bigint(), nullptr));
    aggs.push_back(
        Agg(AggregateKind::kCount, LogicalType::Bigint(), Ref(LogicalType::Integer(), 1), true));
    aggs.push_back(
        Agg(AggregateKind::kSum, LogicalType::Bigint(), Ref(LogicalType::Integer(), 1), true));
    aggs.push_back(
        Agg(AggregateKind::kCount, LogicalType::Bigint(), Ref(LogicalType::Varchar(), 2), true));
    aggs.push_back(
        Agg(AggregateKind::kMax, LogicalType::Varchar(), Ref(LogicalType::Varchar(), 2), true));
    aggs.push_back(Agg(AggregateKind::kSum, LogicalType::Bigint(), Ref(LogicalType::Integer(), 1)));
    return aggs;
  };
  std::vector<BoundExprPtr> groups;
  groups.push_back(Ref(LogicalType::Integer(), 0));
  auto root = Plan(types, input, std::move(groups), make_aggs(), 7);
  for (int threads : {1, 2}) {
    auto rows = RunAgg(*root, threads);
    ASSERT_EQ(rows.size(), 6u);
    for (const auto& row : rows) {
      const std::string key = Text(row[0]);
      EXPECT_EQ(row[1].GetInt64(), counts[key]) << key;
      EXPECT_EQ(row[2].GetInt64(), static_cast<int64_t>(values[key].size())) << key;
      int64_t sum = 0;
      for (int v : values[key])
        sum += v;
      EXPECT_EQ(row[3].GetInt64(), sum) << key;
      EXPECT_EQ(row[4].GetInt64(), static_cast<int64_t>(strings[key].size())) << key;
      EXPECT_EQ(row[5].GetString(), *strings[key].rbegin()) << key;
    }
  }
  auto ungrouped = Plan(types, input, {}, make_aggs(), 7);
  for (int threads : {1, 2}) {
    auto rows = RunAgg(*ungrouped, threads);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0][0].GetInt64(), 3000);
    EXPECT_EQ(rows[0][1].GetInt64(), static_cast<int64_t>(all_values.size()));
    EXPECT_EQ(rows[0][3].GetInt64(), 9);
  }
}

TEST(OperatorAggregateTest, GroupKeyEquality) {
  // -0.0 and 0.0 are one group, all NaNs are one group, NULL is a group; strings by bytes.
  std::vector<LogicalType> types = {LogicalType::Double(), LogicalType::Varchar()};
  const double nan = std::nan("");
  const double other_nan = -std::nan("1");
  std::vector<Row> input = {{D(0.0), S("a")},        {D(-0.0), S("a")},        {D(nan), S("a")},
                            {D(other_nan), S("a")},  {ND(), S("a")},           {ND(), S("a")},
                            {D(1.0), S("\xC3\xA9")}, {D(1.0), S("e\xCC\x81")}, {D(1.0), NS()},
                            {D(1.0), NS()},          {D(1.0), S("")},          {D(1.0), S("")}};
  std::vector<BoundExprPtr> groups;
  groups.push_back(Ref(LogicalType::Double(), 0));
  groups.push_back(Ref(LogicalType::Varchar(), 1));
  std::vector<BoundExprPtr> aggs;
  aggs.push_back(Agg(AggregateKind::kCountStar, LogicalType::Bigint(), nullptr));
  auto root = Plan(types, input, std::move(groups), std::move(aggs), 2);
  for (int threads : {1, 2}) {
    auto rows = RunAgg(*root, threads);
    std::vector<std::string> text;
    for (const auto& row : rows) {
      const std::string key =
          std::isnan(row[0].is_null() ? 0 : row[0].GetDouble())
              ? "nan"
              : (row[0].is_null() ? "NULL" : (row[0].GetDouble() == 0 ? "0" : Text(row[0])));
      text.push_back(key + "|" + Text(row[1]) + "|" + Text(row[2]));
    }
    std::sort(text.begin(), text.end());
    std::vector<std::string> expected = {"0|a|2",           "1.0|NULL|2",     "1.0||2",
                                         "1.0|e\xCC\x81|1", "1.0|\xC3\xA9|1", "NULL|a|2",
                                         "nan|a|2"};
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(text, expected);
  }
}

TEST(OperatorAggregateTest, SumOverflow) {
  std::vector<LogicalType> types = {LogicalType::Bigint()};
  std::vector<Row> input = {{Value::Bigint(INT64_MAX)}, {Value::Bigint(1)}};
  std::vector<BoundExprPtr> aggs;
  aggs.push_back(Agg(AggregateKind::kSum, LogicalType::Bigint(), Ref(LogicalType::Bigint(), 0)));
  auto root = Plan(types, input, {}, std::move(aggs));
  for (int threads : {1, 2})
    EXPECT_THROW(RunAgg(*root, threads), OutOfRangeError);
  std::vector<BoundExprPtr> wide;
  wide.push_back(
      Agg(AggregateKind::kSum, LogicalType::Decimal(38, 0), Ref(LogicalType::Bigint(), 0)));
  auto ok = Plan(types, input, {}, std::move(wide));
  EXPECT_EQ(Text(RunAgg(*ok, 1)[0][0]), "9223372036854775808");
}

/// 2M rows over 1M BIGINT keys (each twice): count and sum per group.
std::unique_ptr<PhysicalResultCollector> MillionGroups() {
  std::vector<LogicalType> types = {LogicalType::Bigint(), LogicalType::Bigint()};
  auto data = std::make_shared<ColumnDataCollection>(types);
  Batch b(types);
  for (int64_t i = 0; i < 2000000; i++) {
    b.column(0).data<int64_t>()[b.size()] = i % 1000000;
    b.column(1).data<int64_t>()[b.size()] = i;
    b.SetSize(b.size() + 1);
    if (b.size() == kBatchSize) {
      data->Append(b);
      b.Reset();
    }
  }
  if (b.size() > 0) data->Append(b);
  std::vector<BoundExprPtr> groups;
  groups.push_back(Ref(LogicalType::Bigint(), 0));
  std::vector<BoundExprPtr> aggs;
  aggs.push_back(Agg(AggregateKind::kCountStar, LogicalType::Bigint(), nullptr));
  aggs.push_back(Agg(AggregateKind::kSum, LogicalType::Bigint(), Ref(LogicalType::Bigint(), 1)));
  std::vector<LogicalType> out = {LogicalType::Bigint(), LogicalType::Bigint(),
                                  LogicalType::Bigint()};
  auto agg = std::make_unique<PhysicalHashAggregate>(out, std::move(groups), std::move(aggs));
  agg->AddChild(std::make_unique<PhysicalColumnDataScan>(types, data));
  auto root = std::make_unique<PhysicalResultCollector>(out);
  root->AddChild(std::move(agg));
  return root;
}

TEST(OperatorAggregateTest, MillionGroups) {
  auto root = MillionGroups();
  for (int threads : {1, 2}) {
    QueryContext query{Settings()};
    ExecutionContext context(query, threads);
    Executor(context).Execute(*root);
    auto& result = PhysicalResultCollector::Result(context, *root);
    ASSERT_EQ(result.row_count(), 1000000u);
    std::vector<uint8_t> seen(1000000, 0);
    for (size_t bi = 0; bi < result.batch_count(); bi++) {
      const Batch& batch = result.batch(bi);
      for (idx_t r = 0; r < batch.size(); r++) {
        const int64_t key = batch.column(0).data<int64_t>()[r];
        ASSERT_TRUE(key >= 0 && key < 1000000);
        ASSERT_EQ(seen[key], 0);
        seen[key] = 1;
        ASSERT_EQ(batch.column(1).data<int64_t>()[r], 2);
        ASSERT_EQ(batch.column(2).data<int64_t>()[r], 2 * key + 1000000);
      }
    }
  }
}

TEST(OperatorAggregateTest, IntegerKeysThroughTheDenseArray) {
  // One integer key goes through DenseGroupArray: keys below and above the range seen so far,
  // negative keys, NULLs, the extremes of the type (too far apart to hold) and a sparse range
  // wider than the map may grow; checked against std::map, in big and tiny batches.
  for (const LogicalType& type : {LogicalType::Integer(), LogicalType::Bigint()}) {
    const bool big = type.physical() == PhysicalType::kInt64;
    const int64_t low = big ? INT64_MIN : INT32_MIN, high = big ? INT64_MAX : INT32_MAX;
    std::vector<int64_t> keys;
    for (int64_t k = 5000; k < 7000; k++)
      keys.push_back(k);
    for (int64_t k = 4999; k > -3000; k -= 3)
      keys.push_back(k);
    for (int64_t k = 0; k < 3000; k++)
      keys.push_back((k * 7919) % 2500000);  // sparse, beyond kMaxSlots
    keys.push_back(low);
    keys.push_back(high);
    keys.push_back(low + 1);
    for (int64_t k = 0; k < 5000; k++)
      keys.push_back(k % 10 == 0 ? INT64_MIN + 7 : (k * 31) % 7000);  // the first: NULL
    std::map<std::optional<int64_t>, std::pair<int64_t, int64_t>> expected;
    std::vector<Row> rows;
    for (size_t i = 0; i < keys.size(); i++) {
      const bool null = keys[i] == INT64_MIN + 7;
      const Value key =
          null ? Value::Null(type)
               : (big ? Value::Bigint(keys[i]) : Value::Integer(static_cast<int32_t>(keys[i])));
      rows.push_back({key, Value::Bigint(static_cast<int64_t>(i))});
      auto& e = expected[null ? std::nullopt : std::optional<int64_t>(keys[i])];
      e.first++;
      e.second += static_cast<int64_t>(i);
    }
    for (idx_t batch : {idx_t{3}, kBatchSize}) {
      std::vector<BoundExprPtr> groups;
      groups.push_back(Ref(type, 0));
      std::vector<BoundExprPtr> aggs;
      aggs.push_back(Agg(AggregateKind::kCountStar, LogicalType::Bigint(), nullptr));
      aggs.push_back(
          Agg(AggregateKind::kSum, LogicalType::Bigint(), Ref(LogicalType::Bigint(), 1)));
      auto root =
          Plan({type, LogicalType::Bigint()}, rows, std::move(groups), std::move(aggs), batch);
      for (int threads : {1, 2}) {
        auto result = RunAgg(*root, threads);
        ASSERT_EQ(result.size(), expected.size());
        for (const auto& row : result) {
          const std::optional<int64_t> key =
              row[0].is_null() ? std::nullopt : std::optional<int64_t>(row[0].GetInt64());
          auto it = expected.find(key);
          ASSERT_NE(it, expected.end()) << Text(row[0]);
          EXPECT_EQ(row[1].GetInt64(), it->second.first) << Text(row[0]);
          EXPECT_EQ(row[2].GetInt64(), it->second.second) << Text(row[0]);
        }
      }
    }
  }
}

TEST(OperatorAggregateTest, DenseArrayGrowsOnlyAsFarAsItsKeys) {
  // Keys 1..100000 in random order, a batch at a time: each new smallest or largest key grows
  // the array, which must stay near the keys' span (it once doubled at every growth, so
  // random keys took 18 times the span and a copy of it each time).
  const RowLayout layout({LogicalType::Integer()}, 8, 8, 8);
  DenseGroupArray dense(layout, nullptr);
  const int64_t span = 100000;
  Vector key(LogicalType::Integer(), kBatchSize);
  std::vector<uint8_t*> rows(kBatchSize);
  std::vector<uint32_t> misses(kBatchSize);
  uint64_t state = 12345;
  idx_t missed = 0;
  for (int b = 0; b < 400; b++) {
    for (idx_t i = 0; i < kBatchSize; i++) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      const auto k = static_cast<int32_t>(1 + (state >> 33) % span);
      key.data<int32_t>()[i] = k;
    }
    missed = dense.FindOrCreate(key, kBatchSize, rows.data(), misses.data());
  }
  EXPECT_EQ(missed, 0u);  // the array covers every key by then
  EXPECT_LE(dense.bytes(), static_cast<int64_t>(2 * span * layout.row_width));
}

TEST(OperatorAggregateTest, MemoryLimit) {
  auto root = MillionGroups();
  Settings settings;
  settings.Set("memory_limit", Value::Varchar("4MB"));
  for (int threads : {1, 2}) {
    QueryContext query(settings);
    {
      ExecutionContext context(query, threads);
      EXPECT_THROW(Executor(context).Execute(*root), OutOfMemoryError);
    }
    EXPECT_EQ(query.memory().used(), 0);
  }
}

TEST(OperatorAggregateTest, MoreTypes) {
  // BOOLEAN, TIMESTAMP, BLOB and BIGINT/DOUBLE arguments, grouped by a BLOB.
  std::vector<LogicalType> types = {LogicalType::Blob(), LogicalType::Boolean(),
                                    LogicalType::Timestamp(), LogicalType::Bigint(),
                                    LogicalType::Double()};
  std::vector<Row> input = {
      {Value::Blob("k\x01"), Value::Boolean(true), Value::Timestamp(1000), Value::Bigint(2),
       D(1.0)},
      {Value::Blob("k\x01"), Value::Boolean(false), Value::Timestamp(-5), Value::Bigint(4), D(3.0)},
      {Value::Blob("k\x01"), Value::Null(LogicalType::Boolean()), Value::Timestamp(7),
       Value::Null(LogicalType::Bigint()), ND()},
      {Value::Blob(""), Value::Boolean(true), Value::Null(LogicalType::Timestamp()),
       Value::Bigint(9), D(-1.0)},
      {Value::Null(LogicalType::Blob()), Value::Boolean(false), Value::Timestamp(0),
       Value::Bigint(1), D(0.5)},
  };
  std::vector<BoundExprPtr> groups;
  groups.push_back(Ref(LogicalType::Blob(), 0));
  std::vector<BoundExprPtr> aggs;
  aggs.push_back(Agg(AggregateKind::kMin, LogicalType::Boolean(), Ref(LogicalType::Boolean(), 1)));
  aggs.push_back(Agg(AggregateKind::kMax, LogicalType::Boolean(), Ref(LogicalType::Boolean(), 1)));
  aggs.push_back(
      Agg(AggregateKind::kMin, LogicalType::Timestamp(), Ref(LogicalType::Timestamp(), 2)));
  aggs.push_back(
      Agg(AggregateKind::kMax, LogicalType::Timestamp(), Ref(LogicalType::Timestamp(), 2)));
  aggs.push_back(Agg(AggregateKind::kMax, LogicalType::Blob(), Ref(LogicalType::Blob(), 0)));
  aggs.push_back(Agg(AggregateKind::kAvg, LogicalType::Double(), Ref(LogicalType::Bigint(), 3)));
  aggs.push_back(
      Agg(AggregateKind::kStddevSamp, LogicalType::Double(), Ref(LogicalType::Bigint(), 3)));
  aggs.push_back(
      Agg(AggregateKind::kStddevSamp, LogicalType::Double(), Ref(LogicalType::Double(), 4)));
  aggs.push_back(Agg(AggregateKind::kSum, LogicalType::Double(), Ref(LogicalType::Double(), 4)));
  aggs.push_back(
      Agg(AggregateKind::kCount, LogicalType::Bigint(), Ref(LogicalType::Blob(), 0), true));
  auto root = Plan(types, input, std::move(groups), std::move(aggs), 2);
  for (int threads : {1, 2}) {
    auto rows = RunAgg(*root, threads);
    ASSERT_EQ(rows.size(), 3u);
    std::vector<std::string> text;
    for (const auto& row : rows) {
      std::string line;
      for (size_t c = 0; c < row.size(); c++)
        line += (c ? "|" : "") + Text(row[c]);
      text.push_back(line);
    }
    EXPECT_EQ(text[0],
              "NULL|false|false|1970-01-01 00:00:00|1970-01-01 "
              "00:00:00|NULL|1.0|NULL|NULL|0.5|0");
    EXPECT_EQ(text[1], "|true|true|NULL|NULL||9.0|NULL|NULL|-1.0|1");
    EXPECT_EQ(text[2],
              "k\\x01|false|true|1969-12-31 23:59:59.999995|1970-01-01 00:00:00.001|k\\x01|3.0|"
              "1.4142135623730951|1.4142135623730951|4.0|1");
  }
}

TEST(OperatorAggregateTest, StringStatesAcrossThreads) {
  // min/max over strings that grow and shrink, merged across thread-local tables.
  std::vector<LogicalType> types = {LogicalType::Integer(), LogicalType::Varchar()};
  std::vector<Row> input;
  for (int i = 0; i < 5000; i++) {
    input.push_back(
        {I(i % 3), S(std::string(static_cast<size_t>(i % 97), static_cast<char>('a' + i % 26)))});
  }
  std::vector<BoundExprPtr> groups;
  groups.push_back(Ref(LogicalType::Integer(), 0));
  std::vector<BoundExprPtr> aggs;
  aggs.push_back(Agg(AggregateKind::kMin, LogicalType::Varchar(), Ref(LogicalType::Varchar(), 1)));
  aggs.push_back(Agg(AggregateKind::kMax, LogicalType::Varchar(), Ref(LogicalType::Varchar(), 1)));
  auto root = Plan(types, input, std::move(groups), std::move(aggs), 100);
  for (int threads : {1, 2}) {
    auto rows = RunAgg(*root, threads);
    ASSERT_EQ(rows.size(), 3u);
    for (int g = 0; g < 3; g++) {
      std::string lo, hi;
      bool first = true;
      for (const auto& row : input) {
        if (row[0].GetInt64() != g) continue;
        const std::string& s = row[1].GetString();
        if (first || s < lo) lo = s;
        if (first || s > hi) hi = s;
        first = false;
      }
      EXPECT_EQ(rows[g][1].GetString(), lo);
      EXPECT_EQ(rows[g][2].GetString(), hi);
    }
  }
}

}  // namespace
}  // namespace shears

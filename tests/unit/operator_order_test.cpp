// PhysicalOrder, PhysicalTopN and PhysicalUnionAll: orders against std::stable_sort with a
// Value comparator (NULLS FIRST/LAST, DESC, ties, NaN, -0.0, UTF-8 and long common string
// prefixes, expression keys), top-N slices with offsets, and unions.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>

#include "common/error.h"
#include "execution/column_data.h"
#include "execution/operator/physical_hash_aggregate.h"
#include "execution/operator/physical_order.h"
#include "execution/operator/physical_result_collector.h"
#include "execution/operator/physical_union.h"
#include "execution/pipeline.h"
#include "execution/query_context.h"
#include "function/function.h"

namespace shears {
namespace {

using Row = std::vector<Value>;

std::shared_ptr<ColumnDataCollection> Collect(const std::vector<LogicalType>& types,
                                              const std::vector<Row>& rows, idx_t batch) {
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

std::vector<Row> RunRows(PhysicalResultCollector& root, int threads) {
  QueryContext query{Settings()};
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
  return rows;
}

std::string Text(const Value& v) {
  if (v.is_null()) return "NULL";
  if (v.type().id() == TypeId::kDouble && v.GetDouble() == 0) return "0";  // -0.0 ties 0.0
  return v.ToString();
}

/// A sort key for the reference: how to compute it from a row, and its direction.
struct Key {
  std::function<Value(const Row&)> value;
  bool descending;
  bool nulls_first;
  std::function<BoundExprPtr()> expr;
};

Key Column(LogicalType type, idx_t index, bool descending, bool nulls_first) {
  return {[index](const Row& r) { return r[index]; }, descending, nulls_first,
          [type, index] { return Ref(type, index); }};
}

bool Less(const std::vector<Key>& keys, const Row& a, const Row& b) {
  for (const auto& key : keys) {
    const Value va = key.value(a), vb = key.value(b);
    if (va.is_null() && vb.is_null()) continue;
    if (va.is_null()) return key.nulls_first;
    if (vb.is_null()) return !key.nulls_first;
    int c = va.Compare(vb);
    if (key.descending) c = -c;
    if (c != 0) return c < 0;
  }
  return false;
}

std::string KeyText(const std::vector<Key>& keys, const Row& row) {
  std::string out;
  for (const auto& key : keys)
    out += Text(key.value(row)) + "|";
  return out;
}

std::string RowText(const Row& row) {
  std::string out;
  for (const auto& v : row)
    out += Text(v) + "|";
  return out;
}

std::vector<BoundOrderBy> Orders(const std::vector<Key>& keys) {
  std::vector<BoundOrderBy> orders;
  for (const auto& key : keys)
    orders.push_back({key.expr(), key.descending, key.nulls_first});
  return orders;
}

/// Sorts (or top-N's) `input` with the operator and checks against std::stable_sort: the
/// exact rows with one thread (stability), the key sequence with two.
void CheckOrder(const std::vector<LogicalType>& types, const std::vector<Row>& input,
                const std::vector<Key>& keys, int64_t limit = -1, int64_t offset = 0,
                idx_t batch = 5) {
  std::vector<Row> expected = input;
  std::stable_sort(expected.begin(), expected.end(),
                   [&](const Row& a, const Row& b) { return Less(keys, a, b); });
  if (limit >= 0) {
    const size_t from = std::min<size_t>(expected.size(), static_cast<size_t>(offset));
    const size_t to = std::min<size_t>(expected.size(), from + static_cast<size_t>(limit));
    expected = std::vector<Row>(expected.begin() + from, expected.begin() + to);
  }
  PhysicalOperatorPtr op;
  if (limit >= 0) {
    op = std::make_unique<PhysicalTopN>(types, Orders(keys), limit, offset);
  } else {
    op = std::make_unique<PhysicalOrder>(types, Orders(keys));
  }
  op->AddChild(std::make_unique<PhysicalColumnDataScan>(types, Collect(types, input, batch)));
  PhysicalResultCollector root(types);
  root.AddChild(std::move(op));
  for (int threads : {1, 2}) {
    auto rows = RunRows(root, threads);
    ASSERT_EQ(rows.size(), expected.size()) << threads;
    for (size_t i = 0; i < rows.size(); i++) {
      if (threads == 1) {
        ASSERT_EQ(RowText(rows[i]), RowText(expected[i])) << "row " << i;
      } else {
        ASSERT_EQ(KeyText(keys, rows[i]), KeyText(keys, expected[i])) << "row " << i;
      }
    }
  }
}

Value I(int32_t v) {
  return Value::Integer(v);
}
Value NI() {
  return Value::Null(LogicalType::Integer());
}
Value S(const std::string& v) {
  return Value::Varchar(v);
}
Value NS() {
  return Value::Null(LogicalType::Varchar());
}
Value D(double v) {
  return Value::Double(v);
}
Value ND() {
  return Value::Null(LogicalType::Double());
}

const std::vector<LogicalType> kTypes = {LogicalType::Integer(), LogicalType::Varchar(),
                                         LogicalType::Double(), LogicalType::Integer()};

std::vector<Row> SampleRows() {
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<Value> strings = {S("b"),
                                      S("a"),
                                      NS(),
                                      S(""),
                                      S("\xC3\xA4"),
                                      S("\xE2\x82\xAC"),
                                      S("\xF0\x9F\x98\x80"),
                                      S("ab"),
                                      S(std::string("ab\0", 3)),
                                      S("a long common prefix: one"),
                                      S("a long common prefix: two"),
                                      S("a long common prefix"),
                                      S("a long common prefix: one!"),
                                      S("zzzzzzzzzzzzzzzzzz"),
                                      S("zzzzzzzzzzzz")};
  const std::vector<Value> doubles = {D(1.5), D(-0.0), D(0.0),  D(std::nan("")), D(-inf),
                                      D(inf), ND(),    D(-2.5), D(1e300)};
  std::vector<Row> rows;
  for (int i = 0; i < 150; i++) {
    Value a = i % 7 == 3 ? NI() : I((i * 37) % 11 - 5);
    rows.push_back({a, strings[(i * 5) % strings.size()], doubles[(i * 3) % doubles.size()], I(i)});
  }
  return rows;
}

TEST(OperatorOrderTest, KeysDirectionsAndNulls) {
  const auto rows = SampleRows();
  const LogicalType int_type = LogicalType::Integer();
  const LogicalType str = LogicalType::Varchar();
  const LogicalType dbl = LogicalType::Double();
  CheckOrder(kTypes, rows, {Column(int_type, 0, false, false)});
  CheckOrder(kTypes, rows, {Column(int_type, 0, false, true)});
  CheckOrder(kTypes, rows, {Column(int_type, 0, true, true)});
  CheckOrder(kTypes, rows, {Column(int_type, 0, true, false)});
  CheckOrder(kTypes, rows, {Column(str, 1, false, false)});
  CheckOrder(kTypes, rows, {Column(str, 1, true, true)});
  CheckOrder(kTypes, rows, {Column(dbl, 2, false, true)});
  CheckOrder(kTypes, rows, {Column(dbl, 2, true, false)});
  CheckOrder(kTypes, rows, {Column(int_type, 0, true, false), Column(str, 1, false, true)});
  CheckOrder(kTypes, rows, {Column(str, 1, true, false), Column(dbl, 2, false, true)});
  CheckOrder(
      kTypes, rows,
      {Column(str, 1, false, false), Column(int_type, 0, true, true), Column(dbl, 2, true, false)});
  CheckOrder(
      kTypes, rows,
      {Column(dbl, 2, false, false), Column(str, 1, true, true), Column(int_type, 3, true, false)});
}

TEST(OperatorOrderTest, ExpressionKeys) {
  // s || '~' (not a plain column: its values are kept next to the row) and -a.
  Key concat{[](const Row& r) { return r[1].is_null() ? NS() : S(r[1].GetString() + "~"); }, false,
             false,
             [] {
               auto fn = FunctionRegistry::Default().Bind(
                   "||", {LogicalType::Varchar(), LogicalType::Varchar()});
               std::vector<BoundExprPtr> args;
               args.push_back(Ref(LogicalType::Varchar(), 1));
               args.push_back(std::make_unique<BoundConstant>(S("~")));
               return BoundExprPtr(std::make_unique<BoundFunction>(std::move(fn), std::move(args)));
             }};
  Key negated{
      [](const Row& r) {
        return r[0].is_null() ? NI() : I(-static_cast<int32_t>(r[0].GetInt64()));
      },
      false, true,
      [] {
        auto fn =
            FunctionRegistry::Default().Bind("-", {LogicalType::Integer(), LogicalType::Integer()});
        std::vector<BoundExprPtr> args;
        args.push_back(std::make_unique<BoundConstant>(I(0)));
        args.push_back(Ref(LogicalType::Integer(), 0));
        return BoundExprPtr(std::make_unique<BoundFunction>(std::move(fn), std::move(args)));
      }};
  CheckOrder(kTypes, SampleRows(), {concat, negated});
  CheckOrder(kTypes, SampleRows(), {negated, concat});
}

TEST(OperatorOrderTest, EmptyInput) {
  CheckOrder(kTypes, {}, {Column(LogicalType::Integer(), 0, false, false)});
  CheckOrder(kTypes, {}, {Column(LogicalType::Integer(), 0, false, false)}, 10, 0);
}

std::vector<Row> LargeRows(int n) {
  std::mt19937_64 rng(42);
  std::vector<Row> rows;
  for (int i = 0; i < n; i++) {
    const int64_t k = static_cast<int64_t>(rng() % 1000) - 500;
    std::string s = "common-prefix-" + std::to_string(rng() % 50);
    rows.push_back({k % 97 == 0 ? NI() : I(static_cast<int32_t>(k)), S(s),
                    D(static_cast<double>(rng() % 100) / 8), I(i)});
  }
  return rows;
}

TEST(OperatorOrderTest, LargeWithTies) {
  const auto rows = LargeRows(30000);
  CheckOrder(kTypes, rows, {Column(LogicalType::Integer(), 0, false, true)}, -1, 0, 2048);
  CheckOrder(kTypes, rows,
             {Column(LogicalType::Varchar(), 1, true, false),
              Column(LogicalType::Double(), 2, false, false)},
             -1, 0, 1000);
}

TEST(OperatorOrderTest, TopN) {
  const auto rows = SampleRows();
  const std::vector<Key> keys = {Column(LogicalType::Varchar(), 1, false, true),
                                 Column(LogicalType::Integer(), 0, true, false)};
  for (auto [limit, offset] : std::vector<std::pair<int64_t, int64_t>>{
           {0, 0}, {1, 0}, {5, 0}, {5, 3}, {10, 140}, {10, 200}, {150, 0}, {1000, 1}}) {
    CheckOrder(kTypes, rows, keys, limit, offset);
  }
  // Many more rows than kept: the per-thread buffers are pruned several times.
  const auto large = LargeRows(30000);
  CheckOrder(kTypes, large, {Column(LogicalType::Integer(), 0, true, true)}, 10, 5, 2048);
  CheckOrder(kTypes, large,
             {Column(LogicalType::Varchar(), 1, false, false),
              Column(LogicalType::Integer(), 3, true, false)},
             3000, 100, 777);
  CheckOrder(
      kTypes, large,
      {Column(LogicalType::Double(), 2, true, true), Column(LogicalType::Varchar(), 1, true, true)},
      100, 0, 2048);
}

// ---- UNION ALL ----

TEST(OperatorUnionTest, BothInputs) {
  std::vector<LogicalType> types = {LogicalType::Integer(), LogicalType::Varchar()};
  std::vector<Row> left, right;
  for (int i = 0; i < 5000; i++)
    left.push_back({I(i), i % 3 ? S("l" + std::to_string(i)) : NS()});
  for (int i = 0; i < 3000; i++)
    right.push_back({i % 5 ? I(-i) : NI(), S("right side " + std::to_string(i))});
  std::vector<std::string> expected;
  for (const auto& r : left)
    expected.push_back(RowText(r));
  for (const auto& r : right)
    expected.push_back(RowText(r));
  std::sort(expected.begin(), expected.end());
  for (int variant = 0; variant < 3; variant++) {
    auto u = std::make_unique<PhysicalUnionAll>(types);
    const std::vector<Row>& a = variant == 2 ? std::vector<Row>{} : left;
    u->AddChild(std::make_unique<PhysicalColumnDataScan>(types, Collect(types, a, 1000)));
    u->AddChild(std::make_unique<PhysicalColumnDataScan>(types, Collect(types, right, 333)));
    PhysicalOperatorPtr top = std::move(u);
    if (variant == 1) {
      // A union feeding a sort: the sort's pipeline is the union's source.
      auto order = std::make_unique<PhysicalOrder>(
          types, Orders({Column(LogicalType::Integer(), 0, false, false)}));
      order->AddChild(std::move(top));
      top = std::move(order);
    }
    PhysicalResultCollector root(types);
    root.AddChild(std::move(top));
    std::vector<std::string> want;
    if (variant == 2) {
      for (const auto& r : right)
        want.push_back(RowText(r));
      std::sort(want.begin(), want.end());
    } else {
      want = expected;
    }
    for (int threads : {1, 2}) {
      auto rows = RunRows(root, threads);
      std::vector<std::string> got;
      for (const auto& r : rows)
        got.push_back(RowText(r));
      if (variant == 1) {
        for (size_t i = 1; i < rows.size(); i++) {
          ASSERT_FALSE(
              Less({Column(LogicalType::Integer(), 0, false, false)}, rows[i], rows[i - 1]));
        }
      }
      std::sort(got.begin(), got.end());
      EXPECT_EQ(got, want) << variant << " " << threads;
    }
  }
}

TEST(OperatorUnionTest, NestedUnionsIntoAggregate) {
  std::vector<LogicalType> types = {LogicalType::Bigint()};
  auto part = [&](int from, int to) {
    std::vector<Row> rows;
    for (int i = from; i < to; i++)
      rows.push_back({Value::Bigint(i)});
    return std::make_unique<PhysicalColumnDataScan>(types, Collect(types, rows, 100));
  };
  auto inner = std::make_unique<PhysicalUnionAll>(types);
  inner->AddChild(part(0, 1000));
  inner->AddChild(part(1000, 2500));
  auto outer = std::make_unique<PhysicalUnionAll>(types);
  outer->AddChild(std::move(inner));
  outer->AddChild(part(2500, 4000));
  std::vector<BoundExprPtr> aggs;
  aggs.push_back(std::make_unique<BoundAggregate>(AggregateKind::kSum, LogicalType::Bigint(),
                                                  Ref(LogicalType::Bigint(), 0), false));
  aggs.push_back(std::make_unique<BoundAggregate>(AggregateKind::kCountStar, LogicalType::Bigint(),
                                                  nullptr, false));
  std::vector<LogicalType> out = {LogicalType::Bigint(), LogicalType::Bigint()};
  auto agg =
      std::make_unique<PhysicalHashAggregate>(out, std::vector<BoundExprPtr>{}, std::move(aggs));
  agg->AddChild(std::move(outer));
  PhysicalResultCollector root(out);
  root.AddChild(std::move(agg));
  for (int threads : {1, 2}) {
    auto rows = RunRows(root, threads);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0][0].GetInt64(), 3999LL * 4000 / 2);
    EXPECT_EQ(rows[0][1].GetInt64(), 4000);
  }
}

}  // namespace
}  // namespace shears

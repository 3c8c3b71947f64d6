// PhysicalHashJoin: every join kind against a nested-loop reference, over NULL keys,
// duplicates, several keys, residuals, empty sides, long chains, large builds, pipelines of
// RIGHT/FULL joins below other operators, and the memory limit. PhysicalNestedLoopJoin: the
// same cases with the keys as part of its condition, cross products and its mark semantics.

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <optional>

#include "common/error.h"
#include "execution/column_data.h"
#include "execution/operator/physical_hash_aggregate.h"
#include "execution/operator/physical_hash_join.h"
#include "execution/operator/physical_nested_loop_join.h"
#include "execution/operator/physical_result_collector.h"
#include "execution/pipeline.h"
#include "execution/query_context.h"
#include "function/function.h"

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

PhysicalOperatorPtr Scan(const std::vector<LogicalType>& types, const std::vector<Row>& rows,
                         idx_t batch = 3) {
  return std::make_unique<PhysicalColumnDataScan>(types, Collect(types, rows, batch));
}

BoundExprPtr Ref(LogicalType type, idx_t index) {
  return std::make_unique<BoundReference>(type, index, "#" + std::to_string(index));
}

BoundExprPtr Call(const std::string& name, BoundExprPtr a, BoundExprPtr b) {
  auto fn = FunctionRegistry::Default().Bind(name, {a->type, b->type});
  std::vector<BoundExprPtr> args;
  args.push_back(std::move(a));
  args.push_back(std::move(b));
  return std::make_unique<BoundFunction>(std::move(fn), std::move(args));
}

std::string RowString(const Batch& batch, idx_t row) {
  std::string out;
  for (idx_t c = 0; c < batch.column_count(); c++) {
    if (c > 0) out += "|";
    out += batch.column(c).ValueToString(row);
  }
  return out;
}

/// Runs `root` (a sink whose result is collected) and returns its rows as text, sorted.
std::vector<std::string> RunSorted(PhysicalResultCollector& root, int threads,
                                   Settings settings = Settings()) {
  QueryContext query(settings);
  ExecutionContext context(query, threads);
  Executor(context).Execute(root);
  std::vector<std::string> rows;
  auto& result = PhysicalResultCollector::Result(context, root);
  for (size_t b = 0; b < result.batch_count(); b++) {
    for (idx_t r = 0; r < result.batch(b).size(); r++)
      rows.push_back(RowString(result.batch(b), r));
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

std::string Text(const Value& v) {
  return v.is_null() ? "NULL" : v.ToString();
}

struct JoinCase {
  std::vector<LogicalType> left_types, right_types;
  std::vector<Row> left, right;
  std::vector<idx_t> left_keys, right_keys;
  std::vector<bool> null_equal;
  /// Residual over left ++ right values: true, false or nullopt (NULL).
  std::function<std::optional<bool>(const Row&, const Row&)> residual;
  std::function<BoundExprPtr()> residual_expr;
};

bool KeysMatch(const JoinCase& jc, const Row& l, const Row& r) {
  for (size_t k = 0; k < jc.left_keys.size(); k++) {
    const Value& a = l[jc.left_keys[k]];
    const Value& b = r[jc.right_keys[k]];
    if (a.is_null() || b.is_null()) {
      if (!(jc.null_equal[k] && a.is_null() && b.is_null())) return false;
    } else if (a.Compare(b) != 0) {
      return false;
    }
  }
  return true;
}

bool ProbeKeyNull(const JoinCase& jc, const Row& l) {
  for (size_t k = 0; k < jc.left_keys.size(); k++) {
    if (!jc.null_equal[k] && l[jc.left_keys[k]].is_null()) return true;
  }
  return false;
}

/// The expected result of a join, by nested loops.
std::vector<std::string> Reference(const JoinCase& jc, JoinKind kind) {
  std::vector<std::string> out;
  std::vector<bool> right_matched(jc.right.size(), false);
  bool build_null = false;
  for (const auto& r : jc.right) {
    for (size_t k = 0; k < jc.right_keys.size(); k++) {
      if (!jc.null_equal[k] && r[jc.right_keys[k]].is_null()) build_null = true;
    }
  }
  auto join_text = [](const Row& l, const Row* r, size_t right_width) {
    std::string s;
    for (size_t c = 0; c < l.size(); c++)
      s += (c ? "|" : "") + Text(l[c]);
    for (size_t c = 0; c < right_width; c++)
      s += "|" + (r ? Text((*r)[c]) : std::string("NULL"));
    return s;
  };
  for (const auto& l : jc.left) {
    bool found = false;
    for (size_t j = 0; j < jc.right.size(); j++) {
      const Row& r = jc.right[j];
      if (!KeysMatch(jc, l, r)) continue;
      if (jc.residual && jc.residual(l, r) != std::optional<bool>(true)) continue;
      found = true;
      right_matched[j] = true;
      if (kind == JoinKind::kInner || kind == JoinKind::kLeft || kind == JoinKind::kRight ||
          kind == JoinKind::kFull) {
        out.push_back(join_text(l, &r, jc.right_types.size()));
      }
    }
    if (!found && (kind == JoinKind::kLeft || kind == JoinKind::kFull)) {
      out.push_back(join_text(l, nullptr, jc.right_types.size()));
    }
    if ((kind == JoinKind::kSemi && found) || (kind == JoinKind::kAnti && !found)) {
      out.push_back(join_text(l, nullptr, 0));
    }
    if (kind == JoinKind::kMark) {
      std::string mark = found                                 ? "true"
                         : jc.right.empty()                    ? "false"
                         : (ProbeKeyNull(jc, l) || build_null) ? "NULL"
                                                               : "false";
      out.push_back(join_text(l, nullptr, 0) + "|" + mark);
    }
  }
  if (kind == JoinKind::kRightSemi || kind == JoinKind::kRightAnti) {
    for (size_t j = 0; j < jc.right.size(); j++) {
      if (right_matched[j] != (kind == JoinKind::kRightSemi)) continue;
      std::string s;
      for (size_t c = 0; c < jc.right_types.size(); c++)
        s += (c ? "|" : "") + Text(jc.right[j][c]);
      out.push_back(s);
    }
  }
  if (kind == JoinKind::kRight || kind == JoinKind::kFull) {
    for (size_t j = 0; j < jc.right.size(); j++) {
      if (right_matched[j]) continue;
      std::string s;
      for (size_t c = 0; c < jc.left_types.size(); c++)
        s += "NULL|";
      for (size_t c = 0; c < jc.right_types.size(); c++) {
        s += (c ? "|" : "") + Text(jc.right[j][c]);
      }
      out.push_back(s);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<LogicalType> OutputTypes(const JoinCase& jc, JoinKind kind) {
  if (kind == JoinKind::kRightSemi || kind == JoinKind::kRightAnti) return jc.right_types;
  std::vector<LogicalType> types = jc.left_types;
  if (kind == JoinKind::kSemi || kind == JoinKind::kAnti) return types;
  if (kind == JoinKind::kMark) {
    types.push_back(LogicalType::Boolean());
    return types;
  }
  for (const auto& t : jc.right_types)
    types.push_back(t);
  return types;
}

std::unique_ptr<PhysicalHashJoin> MakeJoin(const JoinCase& jc, JoinKind kind, idx_t batch = 3) {
  std::vector<BoundExprPtr> lk, rk;
  for (idx_t k : jc.left_keys)
    lk.push_back(Ref(jc.left_types[k], k));
  for (idx_t k : jc.right_keys)
    rk.push_back(Ref(jc.right_types[k], k));
  auto join = std::make_unique<PhysicalHashJoin>(OutputTypes(jc, kind), kind, std::move(lk),
                                                 std::move(rk), jc.null_equal,
                                                 jc.residual_expr ? jc.residual_expr() : nullptr);
  join->AddChild(Scan(jc.left_types, jc.left, batch));
  join->AddChild(Scan(jc.right_types, jc.right, batch));
  return join;
}

const JoinKind kAllKinds[] = {JoinKind::kInner, JoinKind::kLeft,      JoinKind::kRight,
                              JoinKind::kFull,  JoinKind::kSemi,      JoinKind::kAnti,
                              JoinKind::kMark,  JoinKind::kRightSemi, JoinKind::kRightAnti};

void CheckAllKinds(const JoinCase& jc, idx_t batch = 3) {
  for (JoinKind kind : kAllKinds) {
    auto join = MakeJoin(jc, kind, batch);
    PhysicalResultCollector root(join->types());
    root.AddChild(std::move(join));
    const auto expected = Reference(jc, kind);
    for (int threads : {1, 2}) {
      EXPECT_EQ(RunSorted(root, threads), expected)
          << JoinKindName(kind) << " with " << threads << " threads";
    }
  }
}

Value I(int32_t v) {
  return Value::Integer(v);
}
Value S(const std::string& v) {
  return Value::Varchar(v);
}
Value NI() {
  return Value::Null(LogicalType::Integer());
}
Value NS() {
  return Value::Null(LogicalType::Varchar());
}

JoinCase SimpleCase() {
  JoinCase jc;
  jc.left_types = {LogicalType::Integer(), LogicalType::Varchar()};
  jc.right_types = {LogicalType::Integer(), LogicalType::Varchar()};
  jc.left = {{I(1), S("l1")}, {I(2), S("l2")}, {I(2), S("l2b")}, {NI(), S("lnull")},
             {I(3), S("l3")}, {I(7), NS()},    {I(4), S("l4")},  {I(1), S("l1b")}};
  jc.right = {{I(1), S("r1")}, {I(2), S("r2")}, {I(2), S("r2b")}, {I(2), S("r2c")},
              {NI(), S("rn")}, {I(5), S("r5")}, {I(4), NS()},     {I(9), S("r9 is long")}};
  jc.left_keys = {0};
  jc.right_keys = {0};
  jc.null_equal = {false};
  return jc;
}

TEST(OperatorJoinTest, AllKindsWithNullAndDuplicateKeys) {
  CheckAllKinds(SimpleCase());
}

TEST(OperatorJoinTest, NullEqualKeys) {
  JoinCase jc = SimpleCase();
  jc.null_equal = {true};
  CheckAllKinds(jc);
}

TEST(OperatorJoinTest, DenseAndSparseBigintKeys) {
  // Dense build keys go through the direct array (probe keys below, inside and above its
  // range, the type's extremes, NULLs); with one far-away build key they go through the hash
  // table. Both must give every kind's reference rows.
  auto B = [](int64_t v) { return Value::Bigint(v); };
  for (bool sparse : {false, true}) {
    JoinCase jc;
    jc.left_types = {LogicalType::Bigint(), LogicalType::Integer()};
    jc.right_types = {LogicalType::Bigint(), LogicalType::Integer()};
    int32_t tag = 0;
    for (int64_t k = -20; k <= 20; k += 2) {
      jc.right.push_back({B(k), I(tag++)});
      if (k % 3 == 0) jc.right.push_back({B(k), I(tag++)});  // a chain
    }
    jc.right.push_back({Value::Null(LogicalType::Bigint()), I(tag++)});
    if (sparse) jc.right.push_back({B(INT64_MAX / 2), I(tag++)});
    for (int64_t k :
         {int64_t{-100}, int64_t{-21}, int64_t{-20}, int64_t{-7}, int64_t{0}, int64_t{6},
          int64_t{20}, int64_t{21}, int64_t{4095}, INT64_MIN, INT64_MAX, INT64_MAX / 2}) {
      jc.left.push_back({B(k), I(tag++)});
    }
    jc.left.push_back({Value::Null(LogicalType::Bigint()), I(tag++)});
    jc.left_keys = {0};
    jc.right_keys = {0};
    jc.null_equal = {false};
    CheckAllKinds(jc);
    CheckAllKinds(jc, kBatchSize);
  }
}

TEST(OperatorJoinTest, MultiKeyJoin) {
  JoinCase jc;
  jc.left_types = {LogicalType::Integer(), LogicalType::Varchar(), LogicalType::Bigint()};
  jc.right_types = {LogicalType::Varchar(), LogicalType::Integer(), LogicalType::Double()};
  for (int i = 0; i < 40; i++) {
    Value k1 = i % 7 == 0 ? NI() : I(i % 5);
    Value k2 = i % 11 == 0 ? NS() : S(i % 3 == 0 ? "a" : (i % 3 == 1 ? "bé" : "a long string key"));
    jc.left.push_back({k1, k2, Value::Bigint(i)});
    Value r1 = i % 13 == 0 ? NI() : I(i % 4);
    Value r2 = i % 9 == 0 ? NS() : S(i % 2 == 0 ? "a" : "a long string key");
    jc.right.push_back({r2, r1, Value::Double(i * 0.5)});
  }
  jc.left_keys = {0, 1};
  jc.right_keys = {1, 0};
  jc.null_equal = {false, false};
  CheckAllKinds(jc, 7);
  jc.null_equal = {false, true};
  CheckAllKinds(jc, 7);
}

TEST(OperatorJoinTest, ResidualPredicate) {
  JoinCase jc;
  jc.left_types = {LogicalType::Integer(), LogicalType::Integer()};
  jc.right_types = {LogicalType::Integer(), LogicalType::Integer()};
  for (int i = 0; i < 30; i++) {
    jc.left.push_back({I(i % 4), i % 10 == 3 ? NI() : I(i)});
    jc.right.push_back({i % 6 == 5 ? NI() : I(i % 5), I(30 - i)});
  }
  jc.left_keys = {0};
  jc.right_keys = {0};
  jc.null_equal = {false};
  // l.v < r.v (NULL when l.v is NULL)
  jc.residual = [](const Row& l, const Row& r) -> std::optional<bool> {
    if (l[1].is_null() || r[1].is_null()) return std::nullopt;
    return l[1].GetInt64() < r[1].GetInt64();
  };
  jc.residual_expr = [] {
    return Call("<", Ref(LogicalType::Integer(), 1), Ref(LogicalType::Integer(), 3));
  };
  CheckAllKinds(jc, 4);
}

TEST(OperatorJoinTest, EmptySides) {
  JoinCase jc = SimpleCase();
  jc.right.clear();
  CheckAllKinds(jc);  // empty build: mark is FALSE even for NULL keys
  jc = SimpleCase();
  jc.left.clear();
  CheckAllKinds(jc);
  jc.right.clear();
  CheckAllKinds(jc);
  jc = SimpleCase();
  jc.right = {{NI(), S("only null")}};
  CheckAllKinds(jc);  // NOT IN (NULL): unknown
}

TEST(OperatorJoinTest, StringAndDoubleKeys) {
  JoinCase jc;
  jc.left_types = {LogicalType::Varchar(), LogicalType::Double()};
  jc.right_types = {LogicalType::Double(), LogicalType::Varchar()};
  const double nan = std::nan("");
  jc.left = {{S("x"), Value::Double(0.0)}, {S("ü€😀"), Value::Double(-0.0)},
             {S("y"), Value::Double(nan)}, {S(""), Value::Double(1.5)},
             {NS(), Value::Double(2.5)},   {S("z"), Value::Null(LogicalType::Double())}};
  jc.right = {{Value::Double(-0.0), S("ü€😀")},
              {Value::Double(nan), S("y")},
              {Value::Double(1.5), S("")},
              {Value::Double(0.0), S("x")},
              {Value::Double(2.5), NS()}};
  jc.left_keys = {0, 1};
  jc.right_keys = {1, 0};
  jc.null_equal = {false, false};
  CheckAllKinds(jc);
  // Double keys alone: 0.0 = -0.0, NaN = NaN.
  jc.left_keys = {1};
  jc.right_keys = {0};
  jc.null_equal = {false};
  CheckAllKinds(jc);
}

TEST(OperatorJoinTest, LongChainsSpanSeveralOutputBatches) {
  JoinCase jc;
  jc.left_types = {LogicalType::Integer(), LogicalType::Integer()};
  jc.right_types = {LogicalType::Integer(), LogicalType::Integer()};
  for (int i = 0; i < 5000; i++)
    jc.right.push_back({I(i % 1000 == 0 ? 2 : 1), I(i)});
  for (int i = 0; i < 5; i++)
    jc.left.push_back({I(i % 3), I(i)});
  jc.left_keys = {0};
  jc.right_keys = {0};
  jc.null_equal = {false};
  CheckAllKinds(jc, 2048);
  jc.residual = [](const Row& l, const Row& r) -> std::optional<bool> {
    return r[1].GetInt64() % 7 == l[1].GetInt64();
  };
  jc.residual_expr = [] {
    auto mod = Call("%", Ref(LogicalType::Integer(), 3), std::make_unique<BoundConstant>(I(7)));
    return Call("=", std::move(mod), Ref(LogicalType::Integer(), 1));
  };
  CheckAllKinds(jc, 2048);
}

TEST(OperatorJoinTest, MarkJoinNotInSemantics) {
  JoinCase jc;
  jc.left_types = {LogicalType::Integer()};
  jc.right_types = {LogicalType::Integer()};
  jc.left = {{I(1)}, {I(2)}, {NI()}};
  jc.left_keys = {0};
  jc.right_keys = {0};
  jc.null_equal = {false};
  jc.right = {{I(1)}, {NI()}};
  EXPECT_EQ(Reference(jc, JoinKind::kMark),
            (std::vector<std::string>{"1|true", "2|NULL", "NULL|NULL"}));
  CheckAllKinds(jc);
  jc.right = {{I(1)}};
  EXPECT_EQ(Reference(jc, JoinKind::kMark),
            (std::vector<std::string>{"1|true", "2|false", "NULL|NULL"}));
  CheckAllKinds(jc);
}

/// Batches of `n` rows of two BIGINT columns made by `fn(i)`.
std::shared_ptr<ColumnDataCollection> Generate(
    idx_t n, std::function<std::pair<int64_t, int64_t>(idx_t)> fn) {
  std::vector<LogicalType> types = {LogicalType::Bigint(), LogicalType::Bigint()};
  auto data = std::make_shared<ColumnDataCollection>(types);
  Batch b(types);
  for (idx_t i = 0; i < n; i++) {
    auto [x, y] = fn(i);
    b.column(0).data<int64_t>()[b.size()] = x;
    b.column(1).data<int64_t>()[b.size()] = y;
    b.SetSize(b.size() + 1);
    if (b.size() == kBatchSize) {
      data->Append(b);
      b.Reset();
    }
  }
  if (b.size() > 0) data->Append(b);
  return data;
}

TEST(OperatorJoinTest, LargeBuildCounts) {
  // Build: 100k rows, key i % 70000 (keys < 30000 twice). Probe: keys -50000 .. 49999.
  auto build = Generate(100000, [](idx_t i) { return std::pair<int64_t, int64_t>(i % 70000, i); });
  auto probe = Generate(100000, [](idx_t i) {
    return std::pair<int64_t, int64_t>(static_cast<int64_t>(i) - 50000, i);
  });
  std::vector<LogicalType> two = {LogicalType::Bigint(), LogicalType::Bigint()};
  struct Expect {
    JoinKind kind;
    idx_t rows;
  };
  // pairs: 30000 * 2 + 20000 = 80000; probe unmatched 50000; build unmatched 20000.
  for (Expect e : {Expect{JoinKind::kInner, 80000}, Expect{JoinKind::kLeft, 130000},
                   Expect{JoinKind::kRight, 100000}, Expect{JoinKind::kFull, 150000},
                   Expect{JoinKind::kSemi, 50000}, Expect{JoinKind::kAnti, 50000},
                   Expect{JoinKind::kMark, 100000}}) {
    JoinCase shape;
    shape.left_types = two;
    shape.right_types = two;
    std::vector<BoundExprPtr> lk, rk;
    lk.push_back(Ref(LogicalType::Bigint(), 0));
    rk.push_back(Ref(LogicalType::Bigint(), 0));
    auto join =
        std::make_unique<PhysicalHashJoin>(OutputTypes(shape, e.kind), e.kind, std::move(lk),
                                           std::move(rk), std::vector<bool>{false}, nullptr);
    join->AddChild(std::make_unique<PhysicalColumnDataScan>(two, probe));
    join->AddChild(std::make_unique<PhysicalColumnDataScan>(two, build));
    const PhysicalHashJoin* join_ptr = join.get();
    PhysicalResultCollector root(join->types());
    root.AddChild(std::move(join));
    for (int threads : {1, 2}) {
      QueryContext query{Settings()};
      ExecutionContext context(query, threads);
      Executor(context).Execute(root);
      auto& result = PhysicalResultCollector::Result(context, root);
      EXPECT_EQ(result.row_count(), e.rows) << JoinKindName(e.kind) << " " << threads;
      auto& state = static_cast<HashJoinGlobalState&>(context.sink_state(join_ptr));
      EXPECT_EQ(state.build_rows(), 100000u);
      EXPECT_EQ(state.distinct_keys(), 70000u);
      if (e.kind == JoinKind::kMark) {
        idx_t trues = 0;
        for (size_t b = 0; b < result.batch_count(); b++) {
          const Vector& mark = result.batch(b).column(2);
          for (idx_t r = 0; r < result.batch(b).size(); r++)
            trues += mark.data<uint8_t>()[r];
        }
        EXPECT_EQ(trues, 50000u);
      }
      if (e.kind == JoinKind::kInner) {
        // Every pair has equal keys and the right payload is a build row with that key.
        int64_t checksum = 0;
        for (size_t b = 0; b < result.batch_count(); b++) {
          const Batch& batch = result.batch(b);
          for (idx_t r = 0; r < batch.size(); r++) {
            const int64_t lk = batch.column(0).data<int64_t>()[r];
            const int64_t rk = batch.column(2).data<int64_t>()[r];
            const int64_t payload = batch.column(3).data<int64_t>()[r];
            ASSERT_EQ(lk, rk);
            ASSERT_EQ(payload % 70000, rk);
            checksum += payload;
          }
        }
        // Payloads 0..49999 once, 70000..99999 once.
        int64_t expected = 0;
        for (int64_t i = 0; i < 100000; i++) {
          if (i % 70000 < 50000) expected += i;
        }
        EXPECT_EQ(checksum, expected);
      }
    }
  }
}

/// `root` fails with a memory limit of 1MB, releasing all it reserved, and gives `rows` rows
/// without it.
void ExpectOverMemoryLimitOnlyWithIt(PhysicalResultCollector& root, size_t rows) {
  Settings settings;
  settings.Set("memory_limit", Value::Varchar("1MB"));
  for (int threads : {1, 2}) {
    QueryContext query(settings);
    {
      ExecutionContext context(query, threads);
      EXPECT_THROW(Executor(context).Execute(root), OutOfMemoryError);
    }
    EXPECT_EQ(query.memory().used(), 0);  // everything reserved was released
  }
  EXPECT_EQ(RunSorted(root, 2).size(), rows);
}

/// A hash join whose build side passes a 1MB limit spills (grace hash join) and gives the same
/// rows, for every join kind.
TEST(OperatorJoinTest, BuildOverMemoryLimitSpills) {
  auto build = Generate(100000, [](idx_t i) { return std::pair<int64_t, int64_t>(i, i); });
  auto probe = Generate(10, [](idx_t i) { return std::pair<int64_t, int64_t>(i, i); });
  std::vector<LogicalType> two = {LogicalType::Bigint(), LogicalType::Bigint()};
  std::vector<LogicalType> four = {LogicalType::Bigint(), LogicalType::Bigint(),
                                   LogicalType::Bigint(), LogicalType::Bigint()};
  std::vector<BoundExprPtr> lk, rk;
  lk.push_back(Ref(LogicalType::Bigint(), 0));
  rk.push_back(Ref(LogicalType::Bigint(), 0));
  auto join = std::make_unique<PhysicalHashJoin>(four, JoinKind::kInner, std::move(lk),
                                                 std::move(rk), std::vector<bool>{false}, nullptr);
  join->AddChild(std::make_unique<PhysicalColumnDataScan>(two, probe));
  join->AddChild(std::make_unique<PhysicalColumnDataScan>(two, build));
  PhysicalResultCollector root(four);
  root.AddChild(std::move(join));
  Settings limited;
  limited.Set("memory_limit", Value::Varchar("1MB"));
  const auto expected = RunSorted(root, 2);
  ASSERT_EQ(expected.size(), 10u);
  for (int threads : {1, 2})
    EXPECT_EQ(RunSorted(root, threads, limited), expected);
  // Every kind, probe rows with and without partners (keys 0..9 of 100000 build rows, probe
  // keys 0..19 with two rows each), through the spill partitions.
  auto probe2 = Generate(40, [](idx_t i) { return std::pair<int64_t, int64_t>(i % 20 * 7, i); });
  for (JoinKind kind : {JoinKind::kInner, JoinKind::kLeft, JoinKind::kRight, JoinKind::kFull,
                        JoinKind::kSemi, JoinKind::kAnti, JoinKind::kMark}) {
    std::vector<BoundExprPtr> l2, r2;
    l2.push_back(Ref(LogicalType::Bigint(), 0));
    r2.push_back(Ref(LogicalType::Bigint(), 0));
    std::vector<LogicalType> out = four;
    if (kind == JoinKind::kSemi || kind == JoinKind::kAnti) out = two;
    if (kind == JoinKind::kMark)
      out = {LogicalType::Bigint(), LogicalType::Bigint(), LogicalType::Boolean()};
    auto j = std::make_unique<PhysicalHashJoin>(out, kind, std::move(l2), std::move(r2),
                                                std::vector<bool>{false}, nullptr);
    j->AddChild(std::make_unique<PhysicalColumnDataScan>(two, probe2));
    j->AddChild(std::make_unique<PhysicalColumnDataScan>(two, build));
    PhysicalResultCollector r(out);
    r.AddChild(std::move(j));
    if (kind == JoinKind::kRight || kind == JoinKind::kFull) {
      // 100000 result rows would pass the limit in the result: compare unlimited runs' sizes
      // with a limit large enough for results but not for the build side's spill threshold.
      Settings medium;
      medium.Set("memory_limit", Value::Varchar("12MB"));
      EXPECT_EQ(RunSorted(r, 2, medium), RunSorted(r, 2)) << JoinKindName(kind);
      continue;
    }
    EXPECT_EQ(RunSorted(r, 2, limited), RunSorted(r, 2)) << JoinKindName(kind);
  }
}

/// A RIGHT/FULL join whose unmatched rows must pass through the operators above it: another
/// join in the same pipeline, then an aggregate whose own pipeline must wait for them.
TEST(OperatorJoinTest, UnmatchedRowsFlowThroughOperatorsAbove) {
  std::vector<LogicalType> one = {LogicalType::Integer()};
  std::vector<Row> a = {{I(1)}, {I(2)}, {I(3)}};
  std::vector<Row> b = {{I(2)}, {I(3)}, {I(4)}, {I(5)}};
  std::vector<Row> c = {{I(3)}, {I(5)}, {I(6)}, {NI()}};
  for (JoinKind lower : {JoinKind::kRight, JoinKind::kFull}) {
    for (JoinKind upper : {JoinKind::kInner, JoinKind::kRight, JoinKind::kFull}) {
      // lower = a ⋈ b on a.0 = b.0 -> (a.0, b.0); upper = lower ⋈ c on b.0 = c.0.
      std::vector<BoundExprPtr> lk, rk;
      lk.push_back(Ref(LogicalType::Integer(), 0));
      rk.push_back(Ref(LogicalType::Integer(), 0));
      std::vector<LogicalType> two = {LogicalType::Integer(), LogicalType::Integer()};
      auto j1 = std::make_unique<PhysicalHashJoin>(two, lower, std::move(lk), std::move(rk),
                                                   std::vector<bool>{false}, nullptr);
      j1->AddChild(Scan(one, a, 1));
      j1->AddChild(Scan(one, b, 1));
      std::vector<BoundExprPtr> lk2, rk2;
      lk2.push_back(Ref(LogicalType::Integer(), 1));
      rk2.push_back(Ref(LogicalType::Integer(), 0));
      std::vector<LogicalType> three = {LogicalType::Integer(), LogicalType::Integer(),
                                        LogicalType::Integer()};
      auto j2 = std::make_unique<PhysicalHashJoin>(three, upper, std::move(lk2), std::move(rk2),
                                                   std::vector<bool>{false}, nullptr);
      j2->AddChild(std::move(j1));
      j2->AddChild(Scan(one, c, 1));
      // Reference by hand.
      std::vector<std::pair<Value, Value>> lower_rows;
      for (const auto& x : a) {
        bool m = false;
        for (const auto& y : b) {
          if (x[0].Compare(y[0]) == 0) {
            lower_rows.push_back({x[0], y[0]});
            m = true;
          }
        }
        if (!m && lower == JoinKind::kFull) lower_rows.push_back({x[0], NI()});
      }
      for (const auto& y : b) {
        bool m = false;
        for (const auto& x : a)
          m = m || x[0].Compare(y[0]) == 0;
        if (!m) lower_rows.push_back({NI(), y[0]});
      }
      std::vector<std::string> expected;
      std::vector<bool> c_matched(c.size(), false);
      for (const auto& [x, y] : lower_rows) {
        bool m = false;
        for (size_t k = 0; k < c.size(); k++) {
          if (!y.is_null() && !c[k][0].is_null() && y.Compare(c[k][0]) == 0) {
            expected.push_back(Text(x) + "|" + Text(y) + "|" + Text(c[k][0]));
            m = true;
            c_matched[k] = true;
          }
        }
        if (!m && upper == JoinKind::kFull) expected.push_back(Text(x) + "|" + Text(y) + "|NULL");
      }
      if (upper != JoinKind::kInner) {
        for (size_t k = 0; k < c.size(); k++) {
          if (!c_matched[k]) expected.push_back("NULL|NULL|" + Text(c[k][0]));
        }
      }
      std::sort(expected.begin(), expected.end());

      // Count the rows with an aggregate on top (its source depends on every pipeline).
      std::vector<BoundExprPtr> aggs;
      aggs.push_back(std::make_unique<BoundAggregate>(AggregateKind::kCountStar,
                                                      LogicalType::Bigint(), nullptr, false));
      auto agg =
          std::make_unique<PhysicalHashAggregate>(std::vector<LogicalType>{LogicalType::Bigint()},
                                                  std::vector<BoundExprPtr>{}, std::move(aggs));
      PhysicalResultCollector direct(three);
      direct.AddChild(std::move(j2));
      for (int threads : {1, 2}) {
        EXPECT_EQ(RunSorted(direct, threads), expected)
            << JoinKindName(lower) << " under " << JoinKindName(upper);
      }
      agg->AddChild(std::move(direct.children()[0]));
      PhysicalResultCollector counted({LogicalType::Bigint()});
      counted.AddChild(std::move(agg));
      for (int threads : {1, 2}) {
        EXPECT_EQ(RunSorted(counted, threads),
                  std::vector<std::string>{std::to_string(expected.size())});
      }
    }
  }
}

// ---- PhysicalNestedLoopJoin ----

/// The join condition of a case, three-valued: the keys (= or IS NOT DISTINCT FROM) AND the
/// residual.
std::optional<bool> ConditionValue(const JoinCase& jc, const Row& l, const Row& r) {
  bool unknown = false;
  for (size_t k = 0; k < jc.left_keys.size(); k++) {
    const Value& a = l[jc.left_keys[k]];
    const Value& b = r[jc.right_keys[k]];
    if (a.is_null() || b.is_null()) {
      if (jc.null_equal[k]) {
        if (a.is_null() != b.is_null()) return false;
      } else {
        unknown = true;
      }
    } else if (a.Compare(b) != 0) {
      return false;
    }
  }
  if (jc.residual) {
    auto residual = jc.residual(l, r);
    if (residual == std::optional<bool>(false)) return false;
    if (!residual) unknown = true;
  }
  if (unknown) return std::nullopt;
  return true;
}

/// As Reference, but a MARK is TRUE / NULL / FALSE by the condition over all right rows.
std::vector<std::string> NestedLoopReference(const JoinCase& jc, JoinKind kind) {
  if (kind != JoinKind::kMark) return Reference(jc, kind);
  std::vector<std::string> out;
  for (const auto& l : jc.left) {
    bool found = false, unknown = false;
    for (const auto& r : jc.right) {
      auto v = ConditionValue(jc, l, r);
      found = found || v == std::optional<bool>(true);
      unknown = unknown || !v;
    }
    std::string s;
    for (size_t c = 0; c < l.size(); c++)
      s += (c ? "|" : "") + Text(l[c]);
    out.push_back(s + "|" + (found ? "true" : unknown ? "NULL" : "false"));
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::unique_ptr<PhysicalNestedLoopJoin> MakeNestedLoopJoin(const JoinCase& jc, JoinKind kind,
                                                           idx_t batch = 3) {
  std::vector<BoundExprPtr> conjuncts;
  const idx_t left_width = jc.left_types.size();
  for (size_t k = 0; k < jc.left_keys.size(); k++) {
    conjuncts.push_back(Call(jc.null_equal[k] ? "IS NOT DISTINCT FROM" : "=",
                             Ref(jc.left_types[jc.left_keys[k]], jc.left_keys[k]),
                             Ref(jc.right_types[jc.right_keys[k]], left_width + jc.right_keys[k])));
  }
  if (jc.residual_expr) conjuncts.push_back(jc.residual_expr());
  BoundExprPtr condition;
  if (!conjuncts.empty()) condition = MakeConjunction(std::move(conjuncts));
  auto join =
      std::make_unique<PhysicalNestedLoopJoin>(OutputTypes(jc, kind), kind, std::move(condition));
  join->AddChild(Scan(jc.left_types, jc.left, batch));
  join->AddChild(Scan(jc.right_types, jc.right, batch));
  return join;
}

void CheckAllKindsNestedLoop(const JoinCase& jc, idx_t batch = 3) {
  for (JoinKind kind : kAllKinds) {
    // build_side makes these of hash joins only.
    if (kind == JoinKind::kRightSemi || kind == JoinKind::kRightAnti) continue;
    auto join = MakeNestedLoopJoin(jc, kind, batch);
    PhysicalResultCollector root(join->types());
    root.AddChild(std::move(join));
    const auto expected = NestedLoopReference(jc, kind);
    for (int threads : {1, 2}) {
      EXPECT_EQ(RunSorted(root, threads), expected)
          << JoinKindName(kind) << " with " << threads << " threads";
    }
  }
}

TEST(OperatorNestedLoopJoinTest, AllKindsLikeTheHashJoin) {
  JoinCase jc = SimpleCase();
  CheckAllKindsNestedLoop(jc);
  jc.null_equal = {true};
  CheckAllKindsNestedLoop(jc, 5);
}

TEST(OperatorNestedLoopJoinTest, ConditionWithoutEqualityAndNulls) {
  JoinCase jc;
  jc.left_types = {LogicalType::Integer(), LogicalType::Varchar()};
  jc.right_types = {LogicalType::Integer()};
  for (int i = 0; i < 50; i++) {
    jc.left.push_back({i % 9 == 4 ? NI() : I(i % 17), S("l" + std::to_string(i))});
    jc.right.push_back({i % 7 == 3 ? NI() : I((i * 7) % 23)});
  }
  // l.0 > r.0 + 5: NULL when either side is NULL, so MARK is NULL for many rows.
  jc.residual = [](const Row& l, const Row& r) -> std::optional<bool> {
    if (l[0].is_null() || r[0].is_null()) return std::nullopt;
    return l[0].GetInt64() > r[0].GetInt64() + 5;
  };
  jc.residual_expr = [] {
    return Call(">", Ref(LogicalType::Integer(), 0),
                Call("+", Ref(LogicalType::Integer(), 2),
                     std::make_unique<BoundConstant>(Value::Integer(5))));
  };
  CheckAllKindsNestedLoop(jc, 4);
  // Right batches of a full batch size: one left row per batch of pairs.
  CheckAllKindsNestedLoop(jc, kBatchSize);
}

TEST(OperatorNestedLoopJoinTest, CrossProductAndEmptySides) {
  JoinCase jc;
  jc.left_types = {LogicalType::Integer()};
  jc.right_types = {LogicalType::Varchar()};
  for (int i = 0; i < 70; i++)
    jc.left.push_back({I(i)});
  for (int i = 0; i < 45; i++)
    jc.right.push_back({i == 3 ? NS() : S("r" + std::to_string(i))});
  CheckAllKindsNestedLoop(jc, 8);  // no condition: every pair
  JoinCase no_right = jc;
  no_right.right.clear();
  CheckAllKindsNestedLoop(no_right);
  JoinCase no_left = jc;
  no_left.left.clear();
  CheckAllKindsNestedLoop(no_left);
}

TEST(OperatorNestedLoopJoinTest, LargeCrossProductSpansManyBatches) {
  auto left = Generate(3000, [](idx_t i) { return std::pair<int64_t, int64_t>(i, i); });
  auto right = Generate(700, [](idx_t i) { return std::pair<int64_t, int64_t>(i, i); });
  std::vector<LogicalType> two = {LogicalType::Bigint(), LogicalType::Bigint()};
  std::vector<LogicalType> four = {LogicalType::Bigint(), LogicalType::Bigint(),
                                   LogicalType::Bigint(), LogicalType::Bigint()};
  for (JoinKind kind : {JoinKind::kCross, JoinKind::kFull}) {
    BoundExprPtr condition;
    if (kind == JoinKind::kFull) {
      condition = Call("<", Ref(LogicalType::Bigint(), 0),
                       Call("-", Ref(LogicalType::Bigint(), 2),
                            std::make_unique<BoundConstant>(Value::Bigint(500))));
    }
    auto join = std::make_unique<PhysicalNestedLoopJoin>(four, kind, std::move(condition));
    join->AddChild(std::make_unique<PhysicalColumnDataScan>(two, left));
    join->AddChild(std::make_unique<PhysicalColumnDataScan>(two, right));
    PhysicalResultCollector root(four);
    root.AddChild(std::move(join));
    // FULL on l < r - 500: pairs for r in 501..699 number 1 + ... + 199 = 19900; left rows
    // 199..2999 (2801) and right rows 0..500 (501) match nothing.
    const idx_t expected = kind == JoinKind::kCross ? 3000 * 700 : 19900 + 2801 + 501;
    for (int threads : {1, 2}) {
      QueryContext query{Settings()};
      ExecutionContext context(query, threads);
      Executor(context).Execute(root);
      EXPECT_EQ(PhysicalResultCollector::Result(context, root).row_count(), expected)
          << JoinKindName(kind) << " with " << threads << " threads";
    }
  }
}

TEST(OperatorNestedLoopJoinTest, MaterializedSideOverMemoryLimit) {
  auto left = Generate(10, [](idx_t i) { return std::pair<int64_t, int64_t>(i, i); });
  auto right = Generate(100000, [](idx_t i) { return std::pair<int64_t, int64_t>(i, i); });
  std::vector<LogicalType> two = {LogicalType::Bigint(), LogicalType::Bigint()};
  std::vector<LogicalType> four = {LogicalType::Bigint(), LogicalType::Bigint(),
                                   LogicalType::Bigint(), LogicalType::Bigint()};
  auto join = std::make_unique<PhysicalNestedLoopJoin>(
      four, JoinKind::kInner,
      Call("=", Ref(LogicalType::Bigint(), 0), Ref(LogicalType::Bigint(), 2)));
  join->AddChild(std::make_unique<PhysicalColumnDataScan>(two, left));
  join->AddChild(std::make_unique<PhysicalColumnDataScan>(two, right));
  PhysicalResultCollector root(four);
  root.AddChild(std::move(join));
  ExpectOverMemoryLimitOnlyWithIt(root, 10);
}

}  // namespace
}  // namespace shears

// LIST values as bytes (common/list.h): every element type round-trips, the bytes of two lists
// order as the lists do (element by element, a prefix first, NULL elements last) and are equal
// exactly when the lists are, and DuckDB's list text splits back into its elements.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <thread>
#include <type_traits>

#include "common/error.h"
#include "common/list.h"
#include "common/vector.h"

namespace shears {
namespace {

int Sign(int c) {
  return (c > 0) - (c < 0);
}

// Lexicographic order of element lists, NULL elements after values (DuckDB's list order).
int CompareLists(const std::vector<Value>& a, const std::vector<Value>& b) {
  for (size_t i = 0; i < a.size() && i < b.size(); i++) {
    if (a[i].is_null() != b[i].is_null()) return a[i].is_null() ? 1 : -1;
    if (a[i].is_null()) continue;
    const int c = a[i].Compare(b[i]);
    if (c != 0) return c;
  }
  return Sign(static_cast<int>(a.size()) - static_cast<int>(b.size()));
}

void CheckOrder(const LogicalType& element, const std::vector<std::vector<Value>>& lists) {
  for (const auto& a : lists) {
    const std::string bytes_a = EncodeList(element, a);
    const std::vector<Value> back = DecodeList(element, bytes_a);
    ASSERT_EQ(back.size(), a.size());
    for (size_t i = 0; i < a.size(); i++) {
      EXPECT_EQ(back[i].is_null(), a[i].is_null());
      if (!a[i].is_null()) EXPECT_EQ(back[i].Compare(a[i]), 0) << a[i].ToString();
    }
    EXPECT_EQ(ListLength(element, bytes_a), a.size());
    for (const auto& b : lists) {
      const std::string bytes_b = EncodeList(element, b);
      EXPECT_EQ(Sign(bytes_a.compare(bytes_b)), CompareLists(a, b))
          << ListToString(element, bytes_a) << " vs " << ListToString(element, bytes_b);
    }
  }
}

TEST(ListValue, IntegersOrderAndRoundTrip) {
  const LogicalType t = LogicalType::Integer();
  auto i = [](int32_t v) { return Value::Integer(v); };
  const Value null = Value::Null(t);
  CheckOrder(t, {{},
                 {i(0)},
                 {i(-1)},
                 {i(std::numeric_limits<int32_t>::min())},
                 {i(std::numeric_limits<int32_t>::max())},
                 {i(1), i(2)},
                 {i(1), null},
                 {null},
                 {null, i(1)},
                 {i(1), i(2), i(3)},
                 {i(2)}});
}

TEST(ListValue, OtherTypesRoundTripAndOrder) {
  CheckOrder(LogicalType::Bigint(), {{Value::Bigint(-5)},
                                     {Value::Bigint(std::numeric_limits<int64_t>::min())},
                                     {Value::Bigint(7), Value::Bigint(-7)}});
  CheckOrder(LogicalType::Double(), {{Value::Double(-1.5)},
                                     {Value::Double(0.25)},
                                     {Value::Double(-INFINITY)},
                                     {Value::Double(INFINITY)},
                                     {Value::Double(1e300), Value::Double(-1e-300)}});
  CheckOrder(LogicalType::Decimal(30, 2),
             {{Value::Decimal(-12345, 30, 2)}, {Value::Decimal(int128_t{1} << 90, 30, 2)}});
  CheckOrder(LogicalType::Decimal(9, 2), {{Value::Decimal(-1, 9, 2)}, {Value::Decimal(5, 9, 2)}});
  CheckOrder(LogicalType::Boolean(), {{Value::Boolean(true)}, {Value::Boolean(false)}});
  CheckOrder(LogicalType::Date(), {{Value::Date(-3)}, {Value::Date(18000)}});
  CheckOrder(LogicalType::Varchar(), {{Value::Varchar("")},
                                      {Value::Varchar("a")},
                                      {Value::Varchar("ab")},
                                      {Value::Varchar("a"), Value::Varchar("b")},
                                      {Value::Varchar(std::string("a\0b", 3))},
                                      {Value::Varchar(std::string("a\0", 2))},
                                      {Value::Varchar("\xff")},
                                      {Value::Varchar("b")}});
}

TEST(ListValue, DoublesNormalizeZeroAndNan) {
  const LogicalType t = LogicalType::Double();
  EXPECT_EQ(EncodeList(t, {Value::Double(-0.0)}), EncodeList(t, {Value::Double(0.0)}));
  const std::string nan = EncodeList(t, {Value::Double(std::nan(""))});
  EXPECT_EQ(nan, EncodeList(t, {Value::Double(-std::nan(""))}));
  EXPECT_GT(nan, EncodeList(t, {Value::Double(INFINITY)}));
}

TEST(ListValue, ReadsIntoVectors) {
  const LogicalType t = LogicalType::Varchar();
  Vector source(t, 2);
  WriteValue(source, 0, Value::Varchar("x"));
  WriteValue(source, 1, Value::Null(t));
  ListWriter writer(t);
  writer.AppendFrom(source, 0);
  writer.AppendFrom(source, 1);
  Vector out(t, 2);
  ListReader reader(t, writer.bytes());
  idx_t row = 0;
  while (reader.Next())
    reader.WriteTo(out, row++);
  EXPECT_EQ(row, 2u);
  EXPECT_EQ(out.ValueToString(0), "x");
  EXPECT_TRUE(out.IsNull(1));
}

TEST(ListValue, TextAsDuckDBPrintsIt) {
  const LogicalType t = LogicalType::Varchar();
  EXPECT_EQ(ListToString(t, EncodeList(t, {Value::Varchar("a b"), Value::Varchar(""),
                                           Value::Varchar("it's"), Value::Null(t),
                                           Value::Varchar("NULL"), Value::Varchar("x\\y,")})),
            "[a b, '', 'it\\'s', NULL, 'NULL', 'x\\\\y,']");
  EXPECT_EQ(Value::List(LogicalType::Integer(), {}).ToString(), "[]");
  EXPECT_EQ(LogicalType::List(LogicalType::Decimal(5, 2)).ToString(), "DECIMAL(5,2)[]");
  EXPECT_EQ(LogicalType::List(LogicalType()).ToString(), "\"NULL\"[]");
}

TEST(ListValue, SplitsText) {
  std::vector<std::string> elements;
  std::vector<bool> nulls;
  ASSERT_TRUE(SplitListText(" [a, 'b,c' , NULL, \"d\\\"\", 'null'] ", &elements, &nulls));
  EXPECT_EQ(elements, (std::vector<std::string>{"a", "b,c", "", "d\"", "null"}));
  EXPECT_EQ(nulls, (std::vector<bool>{false, false, true, false, false}));
  elements.clear();
  nulls.clear();
  ASSERT_TRUE(SplitListText("[]", &elements, &nulls));
  EXPECT_TRUE(elements.empty());
  // A nested element is kept as its text.
  elements.clear();
  nulls.clear();
  ASSERT_TRUE(SplitListText("[[1, 2], NULL, {'a': 'x,]'}, []]", &elements, &nulls));
  EXPECT_EQ(elements, (std::vector<std::string>{"[1, 2]", "", "{'a': 'x,]'}", "[]"}));
  EXPECT_EQ(nulls, (std::vector<bool>{false, true, false, false}));
  for (const char* bad : {"", "1, 2", "[1, 2", "['a]", "[[1]", "[1]]", "['a' b]"}) {
    elements.clear();
    nulls.clear();
    EXPECT_FALSE(SplitListText(bad, &elements, &nulls)) << bad;
  }
}

TEST(ListValue, SplitsStructText) {
  std::vector<std::string> names, values;
  std::vector<bool> nulls;
  ASSERT_TRUE(
      SplitStructText("{'a': 1, b: 'x, y', \"c d\": NULL, e: [1, 2]}", &names, &values, &nulls));
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b", "c d", "e"}));
  EXPECT_EQ(values, (std::vector<std::string>{"1", "x, y", "", "[1, 2]"}));
  EXPECT_EQ(nulls, (std::vector<bool>{false, false, true, false}));
  for (const char* bad : {"", "{a 1}", "{'a': 1", "{: 1}"}) {
    names.clear();
    values.clear();
    nulls.clear();
    EXPECT_FALSE(SplitStructText(bad, &names, &values, &nulls)) << bad;
  }
}

// Nested types are described by an interned registry entry: equal types are equal LogicalTypes
// (four bytes), whatever thread made them.
TEST(NestedType, InternedAndFourBytes) {
  static_assert(sizeof(LogicalType) == 4);
  static_assert(std::is_trivially_copyable_v<LogicalType>);
  const LogicalType int_list = LogicalType::List(LogicalType::Integer());
  const LogicalType nested = LogicalType::List(int_list);
  EXPECT_EQ(nested, LogicalType::List(LogicalType::List(LogicalType::Integer())));
  EXPECT_FALSE(nested == LogicalType::List(LogicalType::List(LogicalType::Bigint())));
  EXPECT_EQ(nested.element(), int_list);
  EXPECT_EQ(nested.ToString(), "INTEGER[][]");
  EXPECT_EQ(LogicalType::List(nested).ToString(), "INTEGER[][][]");

  const LogicalType s = LogicalType::Struct({{"a", LogicalType::Integer()}, {"b c", nested}});
  EXPECT_TRUE(s.IsStruct() && s.IsString() && s.IsNested());
  EXPECT_EQ(s.ToString(), "STRUCT(a INTEGER, \"b c\" INTEGER[][])");
  EXPECT_EQ(s, LogicalType::Struct({{"a", LogicalType::Integer()}, {"b c", nested}}));
  EXPECT_FALSE(s == LogicalType::Struct({{"A", LogicalType::Integer()}, {"b c", nested}}));
  EXPECT_EQ(s.children()[1], nested);
  EXPECT_EQ(s.field_names()[1], "b c");
  EXPECT_EQ(LogicalType::Struct({{"", LogicalType::Integer()}, {"", LogicalType()}}).ToString(),
            "STRUCT(INTEGER, \"NULL\")");

  const LogicalType m = LogicalType::Map(LogicalType::Varchar(), int_list);
  EXPECT_EQ(m.ToString(), "MAP(VARCHAR, INTEGER[])");
  EXPECT_EQ(m.element(),
            LogicalType::Struct({{"key", LogicalType::Varchar()}, {"value", int_list}}));
  EXPECT_FALSE(m == LogicalType::List(m.element()));

  // Many threads interning the same and new types agree on every index.
  std::vector<std::thread> threads;
  std::vector<std::vector<LogicalType>> made(4);
  for (int t = 0; t < 4; t++) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; i++) {
        made[t].push_back(LogicalType::Struct(
            {{"f" + std::to_string(i), LogicalType::List(LogicalType::Integer())}}));
      }
    });
  }
  for (auto& thread : threads)
    thread.join();
  for (int t = 1; t < 4; t++)
    EXPECT_EQ(made[t], made[0]);
  EXPECT_EQ(made[0][7].field_names()[0], "f7");
}

// Lists of lists and structs compare as their bytes: element by element, field by field, a
// NULL above every value.
TEST(NestedType, BytesOrderAsValues) {
  const LogicalType ints = LogicalType::List(LogicalType::Integer());
  auto list = [&](std::vector<int> values) {
    std::vector<Value> elements;
    for (int v : values)
      elements.push_back(Value::Integer(v));
    return Value::List(LogicalType::Integer(), elements);
  };
  CheckOrder(ints, {{},
                    {list({})},
                    {list({1})},
                    {list({1, 2})},
                    {list({1}), list({})},
                    {list({1}), Value::Null(ints)},
                    {list({2})},
                    {Value::Null(ints)},
                    {list({-1, 0}), list({3})}});

  const LogicalType s =
      LogicalType::Struct({{"a", LogicalType::Integer()}, {"b", LogicalType::Varchar()}});
  const std::vector<std::vector<Value>> rows = {
      {Value::Integer(1), Value::Varchar("")},
      {Value::Integer(1), Value::Varchar("a")},
      {Value::Integer(1), Value::Null(LogicalType::Varchar())},
      {Value::Integer(2), Value::Varchar("a")},
      {Value::Null(LogicalType::Integer()), Value::Varchar("")}};
  for (size_t i = 0; i < rows.size(); i++) {
    const Value a = Value::Struct(s, rows[i]);
    EXPECT_EQ(a.GetStruct().size(), 2u);
    EXPECT_EQ(DecodeStruct(s, a.GetString())[1].is_null(), rows[i][1].is_null());
    for (size_t j = 0; j < rows.size(); j++) {
      const Value b = Value::Struct(s, rows[j]);
      EXPECT_EQ(Sign(a.GetString().compare(b.GetString())),
                Sign(static_cast<int>(i) - static_cast<int>(j)))
          << a.ToString() << " vs " << b.ToString();
    }
  }
  EXPECT_EQ(Value::Struct(s, rows[1]).ToString(), "{'a': 1, 'b': a}");
  EXPECT_EQ(Value::Struct(s, rows[0]).ToString(), "{'a': 1, 'b': ''}");
  EXPECT_EQ(StructFieldRaw(s, Value::Struct(s, rows[2]).GetString(), 1),
            std::string(1, ListWriter::kNullTag));
}

TEST(ListValue, MalformedBytesAreAnError) {
  EXPECT_THROW(ListLength(LogicalType::Integer(), std::string("\x01\x00", 2)), InternalError);
  EXPECT_THROW(ListLength(LogicalType::Varchar(), std::string("\x01"
                                                              "ab",
                                                              3)),
               InternalError);
  EXPECT_THROW(ListLength(LogicalType::Integer(), std::string("\x07", 1)), InternalError);
}

}  // namespace
}  // namespace shears

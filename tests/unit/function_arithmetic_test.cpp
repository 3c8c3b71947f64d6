// Arithmetic and comparison operators.

#include <gtest/gtest.h>

#include <cmath>

#include "common/error.h"
#include "function/function.h"
#include "function/function_internal.h"
#include "function_test_util.h"

namespace shears {
namespace {

using namespace function_test;

using function_internal::EvaluateFunction;
using function_internal::EvaluateRows;

template <typename E>
std::string Fails(const std::string& name, const std::vector<Value>& args) {
  try {
    EvaluateFunction(name, args);
  } catch (const E& e) {
    return e.what();
  }
  return "no error";
}

constexpr int32_t kIntMax = std::numeric_limits<int32_t>::max();
constexpr int32_t kIntMin = std::numeric_limits<int32_t>::min();
constexpr int64_t kBigMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kBigMin = std::numeric_limits<int64_t>::min();

TEST(FunctionArithmeticTest, Integers) {
  EXPECT_EQ(Eval("+", {I(1), I(2)}), "INTEGER 3");
  EXPECT_EQ(Eval("-", {I(1), I(2)}), "INTEGER -1");
  EXPECT_EQ(Eval("*", {I(-3), I(7)}), "INTEGER -21");
  EXPECT_EQ(Eval("/", {I(7), I(2)}), "INTEGER 3");
  EXPECT_EQ(Eval("/", {I(-7), I(2)}), "INTEGER -3");
  EXPECT_EQ(Eval("%", {I(-7), I(3)}), "INTEGER -1");
  EXPECT_EQ(Eval("%", {I(7), I(-3)}), "INTEGER 1");
  EXPECT_EQ(Eval("%", {I(kIntMin), I(-1)}), "INTEGER 0");
  EXPECT_EQ(Eval("/", {I(kIntMax), I(-1)}), "INTEGER -2147483647");
  EXPECT_EQ(Eval("+", {I(1), BI(2)}), "BIGINT 3");
  EXPECT_EQ(Eval("*", {BI(3000000000LL), I(3)}), "BIGINT 9000000000");
  EXPECT_EQ(Eval("+", {I(1), N()}), "INTEGER NULL");
  EXPECT_EQ(Eval("-", {I(5)}), "INTEGER -5");
  EXPECT_EQ(Eval("+", {BI(5)}), "BIGINT 5");
}

TEST(FunctionArithmeticTest, IntegerOverflowAndDivisionByZero) {
  EXPECT_EQ(Fails<OutOfRangeError>("*", {I(kIntMax), I(2)}),
            "Overflow in multiplication of INTEGER (2147483647 * 2)");
  EXPECT_EQ(Fails<OutOfRangeError>("+", {I(kIntMax), I(1)}),
            "Overflow in addition of INTEGER (2147483647 + 1)");
  EXPECT_EQ(Fails<OutOfRangeError>("-", {I(kIntMin), I(1)}),
            "Overflow in subtraction of INTEGER (-2147483648 - 1)");
  EXPECT_EQ(Fails<OutOfRangeError>("/", {I(kIntMin), I(-1)}),
            "Overflow in division of INTEGER (-2147483648 / -1)");
  EXPECT_EQ(Fails<OutOfRangeError>("+", {BI(kBigMax), BI(1)}),
            "Overflow in addition of BIGINT (9223372036854775807 + 1)");
  EXPECT_EQ(Fails<OutOfRangeError>("*", {BI(kBigMin), I(-1)}),
            "Overflow in multiplication of BIGINT (-9223372036854775808 * -1)");
  EXPECT_EQ(Fails<OutOfRangeError>("-", {I(kIntMin)}),
            "Overflow in negation of INTEGER (-(-2147483648))");
  // Exact numbers divided by zero give NULL (DuckDB's // and %, SQLite's /), DOUBLEs IEEE's
  // inf / NaN (DuckDB).
  EXPECT_EQ(Eval("/", {I(1), I(0)}), "INTEGER NULL");
  EXPECT_EQ(Eval("%", {BI(1), BI(0)}), "BIGINT NULL");
  EXPECT_EQ(Eval("//", {I(7), I(0)}), "INTEGER NULL");
  EXPECT_EQ(Eval("/", {D(1), D(0)}), "DOUBLE inf");
  EXPECT_EQ(Eval("/", {D(-1), D(0)}), "DOUBLE -inf");
  EXPECT_EQ(Eval("%", {D(1), D(-0.0)}), "DOUBLE nan");
}

TEST(FunctionArithmeticTest, NullRowsNeverRaiseErrors) {
  // Bytes under a NULL would overflow or divide by zero; the kernels must skip them.
  const LogicalType type = LogicalType::Integer();
  for (const char* op : {"+", "*", "/", "%"}) {
    BoundScalarFunction f = FunctionRegistry::Default().Bind(op, {type, type});
    Vector a(type, 3), b(type, 3), result(type, 3);
    for (idx_t i = 0; i < 3; i++) {
      a.data<int32_t>()[i] = i == 0 ? kIntMax : 6;
      b.data<int32_t>()[i] = i == 1 ? 0 : 2;
    }
    a.validity().SetNull(0);
    b.validity().SetNull(1);
    f.kernel({&a, &b}, 3, result);
    EXPECT_TRUE(result.IsNull(0)) << op;
    EXPECT_TRUE(result.IsNull(1)) << op;
    EXPECT_FALSE(result.IsNull(2)) << op;
  }
}

TEST(FunctionArithmeticTest, Doubles) {
  EXPECT_EQ(Eval("+", {D(1.5), I(2)}), "DOUBLE 3.5");
  EXPECT_EQ(Eval("/", {D(1), D(4)}), "DOUBLE 0.25");
  EXPECT_EQ(Eval("%", {D(5.5), D(2)}), "DOUBLE 1.5");
  EXPECT_EQ(Eval("%", {D(-5.5), D(2)}), "DOUBLE -1.5");
  EXPECT_EQ(Eval("-", {D(INFINITY), D(INFINITY)}), "DOUBLE nan");
  EXPECT_EQ(Eval("*", {D(1e308), D(10)}), "DOUBLE inf");
  EXPECT_EQ(Eval("-", {D(0.0)}), "DOUBLE -0.0");
  EXPECT_EQ(Eval("/", {I(1), D(3)}), "DOUBLE 0.3333333333333333");
}

TEST(FunctionArithmeticTest, DecimalTypesAndValues) {
  EXPECT_EQ(Eval("+", {Dec("1.10", 10, 2), Dec("2.005", 5, 3)}), "DECIMAL(12,3) 3.105");
  EXPECT_EQ(Eval("-", {Dec("1.10", 10, 2), Dec("2.005", 5, 3)}), "DECIMAL(12,3) -0.905");
  EXPECT_EQ(Eval("*", {Dec("1.10", 10, 2), Dec("2.005", 5, 3)}), "DECIMAL(15,5) 2.20550");
  EXPECT_EQ(Eval("*", {Dec("-0.5", 1, 1), Dec("0.5", 1, 1)}), "DECIMAL(2,2) -0.25");
  // Division is DOUBLE, as in DuckDB.
  EXPECT_EQ(Eval("/", {Dec("1.5", 2, 1), Dec("0.5", 2, 1)}), "DOUBLE 3.0");
  EXPECT_EQ(Eval("/", {Dec("2", 1, 0), Dec("3", 1, 0)}), "DOUBLE 0.6666666666666666");
  EXPECT_EQ(Eval("/", {I(7), Dec("2.0", 2, 1)}), "DOUBLE 3.5");
  EXPECT_EQ(Eval("/", {Dec("1.5", 2, 1), Dec("0", 2, 1)}), "DOUBLE inf");
  EXPECT_EQ(
      Eval("/", {Dec("10000000000000000000000000000000000000", 38, 0), Dec("3000000", 38, 0)}),
      "DOUBLE 3.333333333333333e+30");
  EXPECT_EQ(Eval("//", {I(-7), I(2)}), "INTEGER -3");
  EXPECT_EQ(Eval("//", {BI(7), I(2)}), "BIGINT 3");
  EXPECT_EQ(Eval("%", {Dec("5.5", 2, 1), Dec("2", 1, 0)}), "DECIMAL(2,1) 1.5");
  EXPECT_EQ(Eval("%", {Dec("-5.25", 3, 2), Dec("2", 1, 0)}), "DECIMAL(3,2) -1.25");
  EXPECT_EQ(Eval("+", {I(1), Dec("0.25", 5, 2)}), "DECIMAL(13,2) 1.25");
  EXPECT_EQ(Eval("*", {BI(3), Dec("0.25", 5, 2)}), "DECIMAL(24,2) 0.75");
  EXPECT_EQ(Eval("+", {Dec("0.25", 5, 2), D(0.5)}), "DOUBLE 0.75");
  EXPECT_EQ(Eval("-", {Dec("12.34", 4, 2)}), "DECIMAL(4,2) -12.34");
  EXPECT_EQ(Eval("-", {Dec("-12345678901234567890.12", 22, 2)}),
            "DECIMAL(22,2) 12345678901234567890.12");
  // int128 paths.
  EXPECT_EQ(Eval("+", {Dec("99999999999999999.99", 19, 2), Dec("0.01", 3, 2)}),
            "DECIMAL(20,2) 100000000000000000.00");
  EXPECT_EQ(Eval("*", {Dec("12345678901234567.89", 19, 2), Dec("-1000000000.001", 13, 3)}),
            "DECIMAL(32,5) -12345678901246913568901234.56789");
  EXPECT_EQ(Eval("-", {Dec("0", 38, 0), Dec("1.5", 20, 1)}), "DECIMAL(38,1) -1.5");
}

TEST(FunctionArithmeticTest, DecimalOverflow) {
  const std::string nines(38, '9');
  EXPECT_EQ(Fails<OutOfRangeError>("+", {Dec(nines, 38, 0), Dec("1", 38, 0)}),
            "Overflow in addition of DECIMAL(38,0) (" + nines + " + 1)");
  EXPECT_EQ(Fails<OutOfRangeError>("*", {Dec("1" + std::string(20, '0'), 21, 0),
                                         Dec("1" + std::string(20, '0'), 21, 0)}),
            "Overflow in multiplication of DECIMAL(38,0) (100000000000000000000 * "
            "100000000000000000000)");
  EXPECT_EQ(Eval("%", {Dec("1.5", 2, 1), Dec("0", 1, 0)}), "DECIMAL(2,1) NULL");
  // Rescaling the (38,0) side to scale 1 overflows.
  EXPECT_THROW(EvaluateFunction("+", {Dec(nines, 38, 0), Dec("0.1", 2, 1)}), OutOfRangeError);
}

TEST(FunctionArithmeticTest, DecimalBatchWithNulls) {
  BoundScalarFunction f = FunctionRegistry::Default().Bind(
      "+", {LogicalType::Decimal(10, 2), LogicalType::Decimal(5, 3)});
  std::vector<Value> a = {Dec("1.00", 10, 2), N(), Dec("-3.25", 10, 2), Dec("0.01", 10, 2)};
  std::vector<Value> b = {Dec("0.001", 5, 3), Dec("1", 5, 3), N(), Dec("-0.011", 5, 3)};
  std::vector<std::string> shown;
  for (const Value& v : EvaluateRows(f, {a, b}, 4))
    shown.push_back(v.ToString());
  EXPECT_EQ(shown, (std::vector<std::string>{"1.001", "NULL", "NULL", "-0.001"}));

  BoundScalarFunction wide = FunctionRegistry::Default().Bind(
      "*", {LogicalType::Decimal(20, 2), LogicalType::Decimal(20, 2)});
  std::vector<Value> x = {Dec("1.50", 20, 2), N(), Dec("-2.00", 20, 2)};
  std::vector<Value> y = {Dec("2.00", 20, 2), Dec("1", 20, 2), Dec("0.25", 20, 2)};
  shown.clear();
  for (const Value& v : EvaluateRows(wide, {x, y}, 3))
    shown.push_back(Show(v));
  EXPECT_EQ(shown, (std::vector<std::string>{"DECIMAL(38,4) 3.0000", "DECIMAL(38,4) NULL",
                                             "DECIMAL(38,4) -0.5000"}));
}

TEST(FunctionArithmeticTest, IntegerBatchWithNulls) {
  BoundScalarFunction f =
      FunctionRegistry::Default().Bind("*", {LogicalType::Bigint(), LogicalType::Bigint()});
  std::vector<Value> a, b;
  for (int i = 0; i < 100; i++) {
    a.push_back(i % 7 == 0 ? N() : BI(i));
    b.push_back(BI(-2));
  }
  std::vector<Value> out = EvaluateRows(f, {a, b}, 100);
  for (int i = 0; i < 100; i++) {
    EXPECT_EQ(out[i].ToString(), i % 7 == 0 ? "NULL" : std::to_string(-2 * i));
  }
}

TEST(FunctionArithmeticTest, DateArithmetic) {
  EXPECT_EQ(Eval("+", {Dt("2020-02-28"), I(1)}), "DATE 2020-02-29");
  EXPECT_EQ(Eval("+", {I(1), Dt("2021-02-28")}), "DATE 2021-03-01");
  EXPECT_EQ(Eval("-", {Dt("2020-03-01"), I(1)}), "DATE 2020-02-29");
  EXPECT_EQ(Eval("-", {Dt("1970-01-01"), I(1)}), "DATE 1969-12-31");
  // DATE - DATE is BIGINT days, TIMESTAMP - TIMESTAMP an INTERVAL (DuckDB).
  EXPECT_EQ(Eval("-", {Dt("2020-03-01"), Dt("2020-02-01")}), "BIGINT 29");
  EXPECT_EQ(Eval("-", {Dt("1969-12-01"), Dt("1970-01-01")}), "BIGINT -31");
  EXPECT_EQ(Eval("-", {Ts("2020-01-01 00:00:01"), Ts("2020-01-01 00:00:00.5")}),
            "INTERVAL 00:00:00.5");
  EXPECT_EQ(Eval("-", {Ts("2020-01-02 00:00:00"), Dt("2020-01-01")}), "INTERVAL 1 day");
  EXPECT_EQ(Eval("-", {Dt("2020-01-01"), Ts("2020-01-02 01:00:00")}), "INTERVAL -1 day -01:00:00");
  // The int32 extremes are DuckDB's infinities, which + and - keep; the last finite day + 1
  // would land on one.
  EXPECT_EQ(Fails<OutOfRangeError>("+", {Value::Date(kIntMax - 1), I(1)}),
            "Overflow in addition of DATE (5881580-07-10 + 1)");
  EXPECT_EQ(Eval("+", {Value::Date(kIntMax), I(1)}), "DATE infinity");
  EXPECT_EQ(Eval("-", {Value::Date(-kIntMax), I(1)}), "DATE -infinity");
}

// ---------------------------------------------------------------- comparisons

TEST(FunctionComparisonTest, AcrossNumericTypes) {
  EXPECT_EQ(Eval("=", {I(1), I(1)}), "BOOLEAN true");
  EXPECT_EQ(Eval("=", {I(1), BI(1)}), "BOOLEAN true");
  EXPECT_EQ(Eval("<", {I(1), D(1.5)}), "BOOLEAN true");
  EXPECT_EQ(Eval("=", {Dec("1.50", 3, 2), Dec("1.5", 2, 1)}), "BOOLEAN true");
  EXPECT_EQ(Eval("<", {Dec("1.5", 2, 1), I(2)}), "BOOLEAN true");
  EXPECT_EQ(Eval(">", {Dec("1.001", 4, 3), Dec("1.00", 3, 2)}), "BOOLEAN true");
  EXPECT_EQ(Eval("<>", {BI(kBigMax), D(9.2e18)}), "BOOLEAN true");
  EXPECT_EQ(Eval(">=", {Dec("-0.5", 2, 1), D(-0.5)}), "BOOLEAN true");
  EXPECT_EQ(
      Eval("<=", {Dec("12345678901234567890.5", 21, 1), Dec("12345678901234567890.49", 22, 2)}),
      "BOOLEAN false");
  EXPECT_EQ(Eval("=", {I(1), N()}), "BOOLEAN NULL");
  EXPECT_EQ(Eval("!=", {I(1), I(2)}), "BOOLEAN true");
}

TEST(FunctionComparisonTest, DoublesWithNaN) {
  EXPECT_EQ(Eval("=", {D(NAN), D(NAN)}), "BOOLEAN true");
  EXPECT_EQ(Eval("<>", {D(NAN), D(NAN)}), "BOOLEAN false");
  EXPECT_EQ(Eval(">", {D(NAN), D(INFINITY)}), "BOOLEAN true");
  EXPECT_EQ(Eval("<", {D(NAN), D(1)}), "BOOLEAN false");
  EXPECT_EQ(Eval("<", {D(1), D(NAN)}), "BOOLEAN true");
  EXPECT_EQ(Eval("<=", {D(NAN), D(NAN)}), "BOOLEAN true");
  EXPECT_EQ(Eval(">=", {D(1), D(NAN)}), "BOOLEAN false");
  EXPECT_EQ(Eval("=", {D(-0.0), D(0.0)}), "BOOLEAN true");
  EXPECT_EQ(Eval("<", {D(-INFINITY), D(-1e308)}), "BOOLEAN true");
}

TEST(FunctionComparisonTest, StringsDatesBooleans) {
  EXPECT_EQ(Eval("<", {S("abc"), S("abd")}), "BOOLEAN true");
  EXPECT_EQ(Eval("<", {S("a"), S("ab")}), "BOOLEAN true");
  EXPECT_EQ(Eval("<", {S(""), S("a")}), "BOOLEAN true");
  EXPECT_EQ(Eval("=", {S(std::string("a\0b", 3)), S(std::string("a\0c", 3))}), "BOOLEAN false");
  // Bytewise is code point order: U+00E9 > 'z', U+1F600 > U+FFFD.
  EXPECT_EQ(Eval(">", {S("\xC3\xA9"), S("z")}), "BOOLEAN true");
  EXPECT_EQ(Eval(">", {S("\xF0\x9F\x98\x80"), S("\xEF\xBF\xBD")}), "BOOLEAN true");
  EXPECT_EQ(Eval("=", {S("abc"), S("abc ")}), "BOOLEAN false");
  EXPECT_EQ(Eval("<", {Dt("2020-01-01"), Ts("2020-01-01 00:00:01")}), "BOOLEAN true");
  EXPECT_EQ(Eval("=", {Dt("2020-01-01"), Ts("2020-01-01 00:00:00")}), "BOOLEAN true");
  EXPECT_EQ(Eval("<", {Value::Boolean(false), Value::Boolean(true)}), "BOOLEAN true");
  EXPECT_EQ(Eval(">", {Value::Blob("\xFF"), Value::Blob("\x01")}), "BOOLEAN true");
}

TEST(FunctionComparisonTest, IsDistinctFrom) {
  EXPECT_EQ(Eval("is_distinct_from", {N(), N()}), "BOOLEAN false");
  EXPECT_EQ(Eval("is_distinct_from", {N(), I(1)}), "BOOLEAN true");
  EXPECT_EQ(Eval("is_distinct_from", {I(1), I(1)}), "BOOLEAN false");
  EXPECT_EQ(Eval("is_distinct_from", {S("a"), S("b")}), "BOOLEAN true");
  EXPECT_EQ(Eval("is_distinct_from", {D(NAN), D(NAN)}), "BOOLEAN false");
  EXPECT_EQ(Eval("is_not_distinct_from", {N(), N()}), "BOOLEAN true");
  EXPECT_EQ(Eval("is_not_distinct_from", {I(2), N()}), "BOOLEAN false");
  EXPECT_EQ(Eval("is_not_distinct_from", {I(2), BI(2)}), "BOOLEAN true");
  BoundScalarFunction f = FunctionRegistry::Default().Bind(
      "is_distinct_from", {LogicalType::Integer(), LogicalType::Integer()});
  EXPECT_FALSE(f.null_propagating);
  std::vector<std::string> shown;
  for (const Value& v : EvaluateRows(f, {{I(1), N(), N(), I(3)}, {I(1), I(2), N(), I(4)}}, 4)) {
    shown.push_back(v.ToString());
  }
  EXPECT_EQ(shown, (std::vector<std::string>{"false", "true", "false", "true"}));
}

TEST(FunctionComparisonTest, BatchWithNulls) {
  BoundScalarFunction f =
      FunctionRegistry::Default().Bind("<", {LogicalType::Varchar(), LogicalType::Varchar()});
  std::vector<std::string> shown;
  for (const Value& v : EvaluateRows(f, {{S("a"), N(), S("c")}, {S("b"), S("b"), S("b")}}, 3)) {
    shown.push_back(v.ToString());
  }
  EXPECT_EQ(shown, (std::vector<std::string>{"true", "NULL", "false"}));
}

}  // namespace
}  // namespace shears

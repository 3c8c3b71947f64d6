// coalesce, nullif, greatest, least, math functions, hash() and random().

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

TEST(FunctionConditionalTest, Coalesce) {
  EXPECT_EQ(Eval("coalesce", {N(), I(2), I(3)}), "INTEGER 2");
  EXPECT_EQ(Eval("coalesce", {N(), N()}), "VARCHAR NULL");
  EXPECT_EQ(Eval("coalesce", {I(1), BI(2)}), "BIGINT 1");
  EXPECT_EQ(Eval("coalesce", {S("a"), N()}), "VARCHAR a");
  EXPECT_EQ(Eval("coalesce", {N(), Dec("1.5", 2, 1), I(2)}), "DECIMAL(11,1) 1.5");
  EXPECT_EQ(Eval("coalesce", {N(), D(2.5)}), "DOUBLE 2.5");
  EXPECT_THROW(EvaluateFunction("coalesce", {S("a"), I(1)}), BinderError);
  BoundScalarFunction f = FunctionRegistry::Default().Bind(
      "coalesce", {LogicalType::Varchar(), LogicalType::Varchar(), LogicalType::Varchar()});
  EXPECT_FALSE(f.null_propagating);
  std::vector<std::string> shown;
  for (const Value& v : EvaluateRows(
           f, {{S("a"), N(), N(), N()}, {S("b"), S("c"), N(), N()}, {S("x"), S("y"), S("z"), N()}},
           4)) {
    shown.push_back(v.ToString());
  }
  EXPECT_EQ(shown, (std::vector<std::string>{"a", "c", "z", "NULL"}));
}

TEST(FunctionConditionalTest, NullIf) {
  EXPECT_EQ(Eval("nullif", {I(1), I(1)}), "INTEGER NULL");
  EXPECT_EQ(Eval("nullif", {I(1), I(2)}), "INTEGER 1");
  EXPECT_EQ(Eval("nullif", {N(), I(1)}), "INTEGER NULL");
  EXPECT_EQ(Eval("nullif", {I(1), N()}), "INTEGER 1");
  EXPECT_EQ(Eval("nullif", {S("a"), S("a")}), "VARCHAR NULL");
  EXPECT_EQ(Eval("nullif", {S("a"), S("b")}), "VARCHAR a");
  EXPECT_EQ(Eval("nullif", {D(NAN), D(NAN)}), "DOUBLE NULL");
  EXPECT_EQ(Eval("nullif", {Dec("1.50", 3, 2), Dec("1.5", 2, 1)}), "DECIMAL(3,2) NULL");
}

TEST(FunctionConditionalTest, GreatestLeast) {
  EXPECT_EQ(Eval("greatest", {I(1), N(), I(3), I(2)}), "INTEGER 3");
  EXPECT_EQ(Eval("least", {I(1), N(), I(3), I(2)}), "INTEGER 1");
  EXPECT_EQ(Eval("greatest", {N(), N()}), "VARCHAR NULL");
  EXPECT_EQ(Eval("greatest", {I(1), D(2.5)}), "DOUBLE 2.5");
  EXPECT_EQ(Eval("least", {Dec("1.25", 3, 2), I(1)}), "DECIMAL(12,2) 1.00");
  EXPECT_EQ(Eval("greatest", {S("apple"), S("banana"), S("\xC3\xA9")}), "VARCHAR \xC3\xA9");
  EXPECT_EQ(Eval("least", {S("apple"), S("banana")}), "VARCHAR apple");
  EXPECT_EQ(Eval("greatest", {D(1.0), D(NAN)}), "DOUBLE nan");
  EXPECT_EQ(Eval("least", {D(NAN), D(1.0)}), "DOUBLE 1.0");
  EXPECT_EQ(Eval("greatest", {Value::Boolean(false), Value::Boolean(true)}), "BOOLEAN true");
  EXPECT_EQ(Eval("greatest", {I(7)}), "INTEGER 7");
}

TEST(FunctionMathTest, AbsAndSign) {
  EXPECT_EQ(Eval("abs", {I(-5)}), "INTEGER 5");
  EXPECT_EQ(Eval("abs", {BI(-5)}), "BIGINT 5");
  EXPECT_EQ(Eval("abs", {Dec("-1.50", 3, 2)}), "DECIMAL(3,2) 1.50");
  EXPECT_EQ(Eval("abs", {Dec("-12345678901234567890.5", 30, 1)}),
            "DECIMAL(30,1) 12345678901234567890.5");
  EXPECT_EQ(Eval("abs", {D(-2.5)}), "DOUBLE 2.5");
  EXPECT_EQ(Eval("abs", {D(-0.0)}), "DOUBLE 0.0");
  EXPECT_EQ(Fails<OutOfRangeError>("abs", {I(std::numeric_limits<int32_t>::min())}),
            "Overflow in abs of INTEGER (-2147483648)");
  EXPECT_EQ(Eval("sign", {I(-3)}), "INTEGER -1");
  EXPECT_EQ(Eval("sign", {BI(0)}), "INTEGER 0");
  EXPECT_EQ(Eval("sign", {Dec("0.01", 3, 2)}), "INTEGER 1");
  EXPECT_EQ(Eval("sign", {D(-0.5)}), "DOUBLE -1.0");
  EXPECT_EQ(Eval("sign", {D(NAN)}), "DOUBLE nan");
}

TEST(FunctionMathTest, Rounding) {
  EXPECT_EQ(Eval("round", {D(2.5)}), "DOUBLE 3.0");
  EXPECT_EQ(Eval("round", {D(-2.5)}), "DOUBLE -3.0");
  EXPECT_EQ(Eval("round", {D(1.2345), I(2)}), "DOUBLE 1.23");
  EXPECT_EQ(Eval("round", {D(1234.5), I(-2)}), "DOUBLE 1200.0");
  EXPECT_EQ(Eval("round", {D(1e300), I(10)}), "DOUBLE 1e+300");
  EXPECT_EQ(Eval("round", {I(5)}), "INTEGER 5");
  EXPECT_EQ(Eval("round", {Dec("2.345", 4, 3), I(2)}), "DECIMAL(5,3) 2.350");
  EXPECT_EQ(Eval("round", {Dec("-2.345", 4, 3), I(2)}), "DECIMAL(5,3) -2.350");
  EXPECT_EQ(Eval("round", {Dec("2.345", 4, 3), I(5)}), "DECIMAL(5,3) 2.345");
  EXPECT_EQ(Eval("round", {Dec("99.95", 4, 2), I(1)}), "DECIMAL(5,2) 100.00");
  EXPECT_EQ(Eval("round", {Dec("1234.5", 5, 1), I(-2)}), "DECIMAL(6,1) 1200.0");
  EXPECT_EQ(Eval("round", {Dec("1234.5", 5, 1), I(-60)}), "DECIMAL(6,1) 0.0");
  EXPECT_EQ(Eval("round", {Dec("-2.5", 2, 1)}), "DECIMAL(2,0) -3");
  EXPECT_EQ(Eval("round", {Dec("0.999", 3, 3)}), "DECIMAL(1,0) 1");
  EXPECT_EQ(Eval("round", {I(1234), I(-2)}), "DECIMAL(11,0) 1200");
  EXPECT_EQ(Eval("floor", {Dec("-1.5", 2, 1)}), "DECIMAL(2,0) -2");
  EXPECT_EQ(Eval("floor", {Dec("1.5", 2, 1)}), "DECIMAL(2,0) 1");
  EXPECT_EQ(Eval("ceil", {Dec("1.2", 2, 1)}), "DECIMAL(2,0) 2");
  EXPECT_EQ(Eval("ceiling", {Dec("-1.2", 2, 1)}), "DECIMAL(2,0) -1");
  EXPECT_EQ(Eval("trunc", {Dec("-1.9", 2, 1)}), "DECIMAL(1,0) -1");
  EXPECT_EQ(Eval("floor", {D(-1.5)}), "DOUBLE -2.0");
  EXPECT_EQ(Eval("ceil", {D(-1.5)}), "DOUBLE -1.0");
  EXPECT_EQ(Eval("trunc", {D(-1.5)}), "DOUBLE -1.0");
  EXPECT_EQ(Eval("floor", {BI(7)}), "BIGINT 7");
}

TEST(FunctionMathTest, Transcendental) {
  EXPECT_EQ(Eval("sqrt", {D(4)}), "DOUBLE 2.0");
  EXPECT_EQ(Eval("sqrt", {I(2)}), "DOUBLE 1.4142135623730951");
  EXPECT_EQ(Fails<OutOfRangeError>("sqrt", {D(-1)}),
            "cannot take square root of a negative number (-1.0)");
  EXPECT_EQ(Eval("ln", {D(1)}), "DOUBLE 0.0");
  EXPECT_EQ(Fails<OutOfRangeError>("ln", {D(0)}), "cannot take logarithm of zero");
  EXPECT_EQ(Fails<OutOfRangeError>("log10", {D(-10)}),
            "cannot take logarithm of a negative number (-10.0)");
  EXPECT_EQ(Eval("log10", {I(1000)}), "DOUBLE 3.0");
  EXPECT_EQ(Eval("log2", {I(1024)}), "DOUBLE 10.0");
  EXPECT_EQ(Eval("exp", {I(0)}), "DOUBLE 1.0");
  EXPECT_EQ(Fails<OutOfRangeError>("exp", {D(1000)}), "Overflow in exp(1000.0)");
  EXPECT_EQ(Eval("exp", {D(-INFINITY)}), "DOUBLE 0.0");
  EXPECT_EQ(Eval("power", {I(2), I(10)}), "DOUBLE 1024.0");
  EXPECT_EQ(Eval("pow", {D(-2), D(3)}), "DOUBLE -8.0");
  EXPECT_EQ(Eval("power", {D(4), D(0.5)}), "DOUBLE 2.0");
  EXPECT_EQ(Fails<OutOfRangeError>("power", {D(0), D(-1)}),
            "zero raised to a negative power is undefined");
  EXPECT_EQ(Fails<OutOfRangeError>("power", {D(-8), D(1.0 / 3)}),
            "a negative number raised to a non-integer power yields a complex result");
  EXPECT_THROW(EvaluateFunction("power", {D(10), D(400)}), OutOfRangeError);
  EXPECT_NEAR(EvaluateFunction("cbrt", {D(-27)}).GetDouble(), -3.0, 1e-12);
  EXPECT_EQ(Eval("pi", {}), "DOUBLE 3.141592653589793");
  EXPECT_EQ(Eval("sqrt", {N()}), "DOUBLE NULL");
}

TEST(FunctionMathTest, MathBatchSkipsNullRows) {
  // A NULL row holding -1 must not raise "negative number".
  BoundScalarFunction f = FunctionRegistry::Default().Bind("sqrt", {LogicalType::Double()});
  Vector in(LogicalType::Double(), 2), out(LogicalType::Double(), 2);
  in.data<double>()[0] = -1;
  in.validity().SetNull(0);
  in.data<double>()[1] = 9;
  f.kernel({&in}, 2, out);
  EXPECT_TRUE(out.IsNull(0));
  EXPECT_EQ(out.data<double>()[1], 3.0);
}

int64_t Hash(const std::vector<Value>& args) {
  return EvaluateFunction("hash", args).GetInt64();
}

TEST(FunctionHashTest, DeterministicAndValueBased) {
  // Pinned: hash values must not change between runs or builds (they may be persisted).
  EXPECT_EQ(Hash({I(1)}), Hash({I(1)}));
  EXPECT_EQ(Hash({I(1)}), -5843014829076223496LL);
  EXPECT_EQ(Hash({S("abc")}), -6126430273838080644LL);
  EXPECT_EQ(Hash({N()}), Hash({N()}));
  EXPECT_NE(Hash({N()}), Hash({I(0)}));
  EXPECT_NE(Hash({I(1)}), Hash({I(2)}));
  EXPECT_NE(Hash({I(1), I(2)}), Hash({I(2), I(1)}));
  EXPECT_NE(Hash({S("ab"), S("c")}), Hash({S("a"), S("bc")}));
  EXPECT_EQ(Hash({D(-0.0)}), Hash({D(0.0)}));
  EXPECT_EQ(Hash({D(NAN)}), Hash({D(-NAN)}));
  EXPECT_EQ(Hash({Dec("1.50", 3, 2)}), Hash({Dec("1.50", 3, 2)}));
  BoundScalarFunction f =
      FunctionRegistry::Default().Bind("hash", {LogicalType::Integer(), LogicalType::Varchar()});
  EXPECT_FALSE(f.null_propagating);
  EXPECT_EQ(f.return_type.ToString(), "BIGINT");
  std::vector<Value> rows = EvaluateRows(f, {{I(1), N(), I(1)}, {S("a"), S("a"), N()}}, 3);
  EXPECT_EQ(rows[0].GetInt64(), Hash({I(1), S("a")}));
  EXPECT_EQ(rows[1].GetInt64(), Hash({N(), S("a")}));
  EXPECT_FALSE(rows[1].is_null());
  EXPECT_NE(rows[1].GetInt64(), rows[2].GetInt64());
}

TEST(FunctionRandomTest, RangeAndSeed) {
  BoundScalarFunction f = FunctionRegistry::Default().Bind("random", {});
  EXPECT_FALSE(f.deterministic);
  SetRandomSeed(42);
  std::vector<Value> first = EvaluateRows(f, {}, 100);
  SetRandomSeed(42);
  std::vector<Value> again = EvaluateRows(f, {}, 100);
  SetRandomSeed(43);
  std::vector<Value> other = EvaluateRows(f, {}, 100);
  double sum = 0;
  for (size_t i = 0; i < first.size(); i++) {
    double v = first[i].GetDouble();
    EXPECT_GE(v, 0.0);
    EXPECT_LT(v, 1.0);
    EXPECT_EQ(v, again[i].GetDouble());
    sum += v;
  }
  EXPECT_NE(first[0].GetDouble(), other[0].GetDouble());
  EXPECT_NE(first[0].GetDouble(), first[1].GetDouble());
  EXPECT_GT(sum / 100, 0.3);
  EXPECT_LT(sum / 100, 0.7);
}

}  // namespace
}  // namespace shears

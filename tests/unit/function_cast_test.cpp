// Casts (implicit rules, common types, every conversion) and overload resolution.

#include <gtest/gtest.h>

#include <cmath>

#include "common/error.h"
#include "function/function.h"
#include "function/function_internal.h"
#include "function_test_util.h"

namespace shears {
namespace {

using namespace function_test;

LogicalType Dec(int p, int s) {
  return LogicalType::Decimal(p, s);
}
Value DecValue(const std::string& text, int p, int s) {
  return CastValue(Value::Varchar(text), Dec(p, s));
}
std::string Cast(const Value& v, const LogicalType& to) {
  return Show(CastValue(v, to));
}
std::string TryCast(const Value& v, const LogicalType& to) {
  return Show(CastValue(v, to, /*try_cast=*/true));
}
template <typename E>
std::string CastError(const Value& v, const LogicalType& to) {
  try {
    CastValue(v, to);
  } catch (const E& e) {
    return e.what();
  }
  return "no error";
}

const LogicalType kInt = LogicalType::Integer();
const LogicalType kBig = LogicalType::Bigint();
const LogicalType kDbl = LogicalType::Double();
const LogicalType kStr = LogicalType::Varchar();
const LogicalType kBool = LogicalType::Boolean();
const LogicalType kDate = LogicalType::Date();
const LogicalType kTs = LogicalType::Timestamp();
const LogicalType kBlob = LogicalType::Blob();

TEST(CastRulesTest, ImplicitCasts) {
  EXPECT_TRUE(CanImplicitCast(kInt, kBig));
  EXPECT_FALSE(CanImplicitCast(kBig, kInt));
  EXPECT_TRUE(CanImplicitCast(kInt, Dec(10, 0)));
  EXPECT_FALSE(CanImplicitCast(kInt, Dec(9, 0)));
  EXPECT_TRUE(CanImplicitCast(kBig, Dec(21, 2)));
  EXPECT_FALSE(CanImplicitCast(kBig, Dec(20, 2)));
  EXPECT_TRUE(CanImplicitCast(Dec(5, 2), Dec(6, 3)));
  EXPECT_FALSE(CanImplicitCast(Dec(5, 2), Dec(5, 3)));
  EXPECT_TRUE(CanImplicitCast(Dec(38, 10), kDbl));
  EXPECT_TRUE(CanImplicitCast(Dec(38, 10), LogicalType::Float()));
  EXPECT_TRUE(CanImplicitCast(kBig, LogicalType::Float()));
  EXPECT_FALSE(CanImplicitCast(kDbl, LogicalType::Float()));
  EXPECT_FALSE(CanImplicitCast(kDbl, Dec(38, 10)));
  EXPECT_TRUE(CanImplicitCast(kDate, kTs));
  EXPECT_FALSE(CanImplicitCast(kTs, kDate));
  EXPECT_FALSE(CanImplicitCast(kStr, kInt));
  EXPECT_FALSE(CanImplicitCast(kInt, kStr));
  EXPECT_FALSE(CanImplicitCast(kBool, kInt));
  EXPECT_TRUE(CanImplicitCast(LogicalType(), kDate));
}

std::string Common(const LogicalType& a, const LogicalType& b) {
  auto type = CommonType(a, b);
  return type ? type->ToString() : "none";
}

TEST(CastRulesTest, CommonTypes) {
  EXPECT_EQ(Common(kInt, kBig), "BIGINT");
  EXPECT_EQ(Common(kInt, kInt), "INTEGER");
  EXPECT_EQ(Common(kInt, Dec(5, 2)), "DECIMAL(12,2)");
  EXPECT_EQ(Common(kBig, Dec(5, 2)), "DECIMAL(21,2)");
  EXPECT_EQ(Common(Dec(10, 2), Dec(5, 3)), "DECIMAL(11,3)");
  EXPECT_EQ(Common(Dec(38, 0), Dec(10, 5)), "DECIMAL(38,5)");
  EXPECT_EQ(Common(kBig, kDbl), "DOUBLE");
  EXPECT_EQ(Common(Dec(5, 2), kDbl), "DOUBLE");
  // REAL is between DECIMAL and DOUBLE (DuckDB): REAL = 66.4 compares as REAL.
  EXPECT_EQ(Common(LogicalType::Float(), Dec(3, 1)), "REAL");
  EXPECT_EQ(Common(kBig, LogicalType::Float()), "REAL");
  EXPECT_EQ(Common(LogicalType::Float(), kDbl), "DOUBLE");
  EXPECT_EQ(Common(kDate, kTs), "TIMESTAMP");
  EXPECT_EQ(Common(LogicalType(), kStr), "VARCHAR");
  EXPECT_EQ(Common(kDate, kBool), "none");
  EXPECT_EQ(Common(kStr, kInt), "none");
  EXPECT_EQ(Common(kStr, kBlob), "none");
}

TEST(CastRulesTest, CastExists) {
  EXPECT_TRUE(CastExists(kStr, kDate));
  EXPECT_TRUE(CastExists(kTs, kStr));
  EXPECT_TRUE(CastExists(kBool, kDbl));
  EXPECT_TRUE(CastExists(kBlob, kStr));
  EXPECT_TRUE(CastExists(kStr, kBlob));
  EXPECT_FALSE(CastExists(kDate, kInt));
  EXPECT_FALSE(CastExists(kBlob, kInt));
  EXPECT_FALSE(CastExists(kBool, kDate));
  EXPECT_THROW(CastValue(Value::Date(1), kInt), BinderError);
}

TEST(CastTest, IntegerNarrowing) {
  EXPECT_EQ(Cast(Value::Bigint(-2147483648LL), kInt), "INTEGER -2147483648");
  EXPECT_EQ(CastError<OutOfRangeError>(Value::Bigint(3000000000LL), kInt),
            "Could not convert 3000000000 to INTEGER");
  EXPECT_EQ(TryCast(Value::Bigint(3000000000LL), kInt), "INTEGER NULL");
  EXPECT_EQ(Cast(Value::Integer(-7), kBig), "BIGINT -7");
  EXPECT_EQ(Cast(Value::Integer(5), kBool), "BOOLEAN true");
  EXPECT_EQ(Cast(Value::Bigint(0), kBool), "BOOLEAN false");
  EXPECT_EQ(Cast(Value::Boolean(true), kInt), "INTEGER 1");
  EXPECT_EQ(Cast(Value::Boolean(true), Dec(3, 1)), "DECIMAL(3,1) 1.0");
  EXPECT_EQ(Cast(Value::Boolean(false), kDbl), "DOUBLE 0.0");
}

TEST(CastTest, Widening) {
  EXPECT_EQ(Cast(Value::Integer(-5), Dec(12, 2)), "DECIMAL(12,2) -5.00");
  EXPECT_EQ(Cast(Value::Integer(INT32_MIN), Dec(10, 0)), "DECIMAL(10,0) -2147483648");
  EXPECT_EQ(Cast(Value::Bigint(INT64_MAX), Dec(21, 2)), "DECIMAL(21,2) 9223372036854775807.00");
  EXPECT_EQ(Cast(DecValue("-1.5", 2, 1), Dec(18, 4)), "DECIMAL(18,4) -1.5000");
  EXPECT_EQ(Cast(DecValue("-1.5", 2, 1), Dec(38, 30)),
            "DECIMAL(38,30) -1.500000000000000000000000000000");
  EXPECT_EQ(Cast(Value::Integer(INT32_MAX), kDbl), "DOUBLE 2147483647.0");
  EXPECT_EQ(Cast(Value::Date(0), kTs), "TIMESTAMP 1970-01-01 00:00:00");
}

TEST(CastTest, DoubleToExactRounds) {
  // To integers half to even (PostgreSQL's and DuckDB's casts), to DECIMAL half away from zero.
  EXPECT_EQ(Cast(Value::Double(2.5), kInt), "INTEGER 2");
  EXPECT_EQ(Cast(Value::Double(3.5), kInt), "INTEGER 4");
  EXPECT_EQ(Cast(Value::Double(-2.5), kInt), "INTEGER -2");
  EXPECT_EQ(Cast(Value::Double(-3.5), kBig), "BIGINT -4");
  EXPECT_EQ(Cast(Value::Double(2.5000001), kInt), "INTEGER 3");
  EXPECT_EQ(Cast(Value::Double(2.4999), kInt), "INTEGER 2");
  EXPECT_EQ(Cast(Value::Double(1e10), kBig), "BIGINT 10000000000");
  EXPECT_EQ(CastError<OutOfRangeError>(Value::Double(1e10), kInt),
            "Could not convert 10000000000.0 to INTEGER");
  EXPECT_EQ(CastError<OutOfRangeError>(Value::Double(NAN), kBig),
            "Could not convert nan to BIGINT");
  EXPECT_EQ(CastError<OutOfRangeError>(Value::Double(9.3e18), kBig),
            "Could not convert 9.3e+18 to BIGINT");
  // Through the shortest text: 0.285 is 0.29, not 0.28 from 28.4999... .
  EXPECT_EQ(Cast(Value::Double(0.285), Dec(10, 2)), "DECIMAL(10,2) 0.29");
  EXPECT_EQ(Cast(Value::Double(1.005), Dec(10, 2)), "DECIMAL(10,2) 1.01");
  EXPECT_EQ(Cast(Value::Double(-1.005), Dec(10, 2)), "DECIMAL(10,2) -1.01");
  EXPECT_EQ(Cast(Value::Double(123.456), Dec(4, 1)), "DECIMAL(4,1) 123.5");
  EXPECT_EQ(Cast(Value::Double(1e-20), Dec(38, 2)), "DECIMAL(38,2) 0.00");
  EXPECT_EQ(Cast(Value::Double(1e20), Dec(38, 2)), "DECIMAL(38,2) 100000000000000000000.00");
  EXPECT_EQ(CastError<OutOfRangeError>(Value::Double(1234.5), Dec(4, 1)),
            "Could not convert 1234.5 to DECIMAL(4,1)");
  EXPECT_EQ(CastError<OutOfRangeError>(Value::Double(INFINITY), Dec(4, 1)),
            "Could not convert inf to DECIMAL(4,1)");
  EXPECT_EQ(Cast(Value::Double(NAN), kBool), "BOOLEAN true");
}

TEST(CastTest, DecimalConversions) {
  EXPECT_EQ(Cast(DecValue("1.235", 5, 3), Dec(4, 2)), "DECIMAL(4,2) 1.24");
  EXPECT_EQ(Cast(DecValue("-1.235", 5, 3), Dec(4, 2)), "DECIMAL(4,2) -1.24");
  EXPECT_EQ(Cast(DecValue("1.234", 5, 3), Dec(4, 2)), "DECIMAL(4,2) 1.23");
  EXPECT_EQ(Cast(DecValue("12.50", 10, 2), kInt), "INTEGER 13");
  EXPECT_EQ(Cast(DecValue("-12.50", 10, 2), kInt), "INTEGER -13");
  EXPECT_EQ(Cast(DecValue("12.49", 10, 2), kBig), "BIGINT 12");
  EXPECT_EQ(Cast(DecValue("12.3", 3, 1), Dec(10, 4)), "DECIMAL(10,4) 12.3000");
  EXPECT_EQ(Cast(DecValue("12.3", 3, 1), Dec(30, 20)), "DECIMAL(30,20) 12.30000000000000000000");
  EXPECT_EQ(Cast(DecValue("123456789012345678.91", 20, 2), kBig), "BIGINT 123456789012345679");
  EXPECT_EQ(Cast(DecValue("-0.05", 5, 2), kDbl), "DOUBLE -0.05");
  EXPECT_EQ(Cast(DecValue("0.1", 30, 25), kDbl), "DOUBLE 0.1");
  EXPECT_EQ(Cast(DecValue("0.00", 3, 2), kBool), "BOOLEAN false");
  EXPECT_EQ(CastError<OutOfRangeError>(Value::Integer(123), Dec(4, 2)),
            "Could not convert 123 to DECIMAL(4,2)");
  EXPECT_EQ(CastError<OutOfRangeError>(DecValue("99999999999999999999", 20, 0), kBig),
            "Could not convert 99999999999999999999 to BIGINT");
  EXPECT_EQ(CastError<OutOfRangeError>(DecValue("9.99", 3, 2), Dec(2, 1)),
            "Could not convert 9.99 to DECIMAL(2,1)");
  EXPECT_EQ(TryCast(DecValue("9.99", 3, 2), Dec(2, 1)), "DECIMAL(2,1) NULL");
}

TEST(CastTest, ToVarchar) {
  EXPECT_EQ(Cast(Value::Double(42), kStr), "VARCHAR 42.0");
  EXPECT_EQ(Cast(Value::Double(1e16), kStr), "VARCHAR 1e+16");
  EXPECT_EQ(Cast(Value::Integer(-17), kStr), "VARCHAR -17");
  EXPECT_EQ(Cast(Value::Bigint(INT64_MIN), kStr), "VARCHAR -9223372036854775808");
  EXPECT_EQ(Cast(DecValue("-0.05", 5, 2), kStr), "VARCHAR -0.05");
  EXPECT_EQ(Cast(DecValue("-12345678901234567890.5", 30, 1), kStr),
            "VARCHAR -12345678901234567890.5");
  EXPECT_EQ(Cast(Value::Date(18321), kStr), "VARCHAR 2020-02-29");
  EXPECT_EQ(Cast(Value::Timestamp(-1), kStr), "VARCHAR 1969-12-31 23:59:59.999999");
  EXPECT_EQ(Cast(Value::Boolean(true), kStr), "VARCHAR true");
  EXPECT_EQ(Cast(Value::Null(kInt), kStr), "VARCHAR NULL");
}

TEST(CastTest, FromVarchar) {
  auto s = [](const char* text) { return Value::Varchar(text); };
  EXPECT_EQ(Cast(s(" 42 "), kInt), "INTEGER 42");
  EXPECT_EQ(Cast(s("+7"), kInt), "INTEGER 7");
  EXPECT_EQ(Cast(s("-2147483648"), kInt), "INTEGER -2147483648");
  EXPECT_EQ(Cast(s("9223372036854775807"), kBig), "BIGINT 9223372036854775807");
  EXPECT_EQ(CastError<OutOfRangeError>(s("2147483648"), kInt),
            "Could not convert string '2147483648' to INTEGER");
  EXPECT_EQ(CastError<OutOfRangeError>(s("99999999999999999999999999999999999999999"), kBig),
            "Could not convert string '99999999999999999999999999999999999999999' to BIGINT");
  EXPECT_EQ(CastError<InvalidInputError>(s("abc"), kInt),
            "Could not convert string 'abc' to INTEGER");
  // A fraction or exponent rounds half away from zero, as DuckDB reads it.
  EXPECT_EQ(Cast(s("1.5"), kInt), "INTEGER 2");
  EXPECT_EQ(Cast(s("-2.5e0"), kBig), "BIGINT -3");
  EXPECT_EQ(CastError<InvalidInputError>(s("1.5x"), kInt),
            "Could not convert string '1.5x' to INTEGER");
  EXPECT_EQ(CastError<InvalidInputError>(s(""), kBig), "Could not convert string '' to BIGINT");
  EXPECT_EQ(CastError<InvalidInputError>(s("-"), kBig), "Could not convert string '-' to BIGINT");
  EXPECT_EQ(TryCast(s("abc"), kInt), "INTEGER NULL");

  EXPECT_EQ(Cast(s("12.345"), Dec(5, 2)), "DECIMAL(5,2) 12.35");
  EXPECT_EQ(Cast(s("-12.345"), Dec(5, 2)), "DECIMAL(5,2) -12.35");
  EXPECT_EQ(Cast(s("1e2"), Dec(5, 2)), "DECIMAL(5,2) 100.00");
  EXPECT_EQ(Cast(s("15E-1"), Dec(5, 2)), "DECIMAL(5,2) 1.50");
  EXPECT_EQ(Cast(s(".5"), Dec(5, 2)), "DECIMAL(5,2) 0.50");
  EXPECT_EQ(Cast(s("5."), Dec(5, 2)), "DECIMAL(5,2) 5.00");
  EXPECT_EQ(Cast(s(" 0.004 "), Dec(5, 2)), "DECIMAL(5,2) 0.00");
  EXPECT_EQ(Cast(s("0.005"), Dec(5, 2)), "DECIMAL(5,2) 0.01");
  EXPECT_EQ(Cast(s("-0.005"), Dec(5, 2)), "DECIMAL(5,2) -0.01");
  EXPECT_EQ(Cast(s("000000000000000000000000000000000000000000001.5"), Dec(2, 0)),
            "DECIMAL(2,0) 2");
  EXPECT_EQ(Cast(s("1234567890123456789012345678.0123456789"), Dec(38, 10)),
            "DECIMAL(38,10) 1234567890123456789012345678.0123456789");
  EXPECT_EQ(CastError<OutOfRangeError>(s("1234.5"), Dec(5, 2)),
            "Could not convert string '1234.5' to DECIMAL(5,2)");
  EXPECT_EQ(CastError<OutOfRangeError>(s("1e40"), Dec(38, 0)),
            "Could not convert string '1e40' to DECIMAL(38,0)");
  for (const char* bad : {".", "1.2.3", "1e", "e5", "1x", "--1", "1 2"}) {
    EXPECT_THROW(CastValue(s(bad), Dec(5, 2)), InvalidInputError) << bad;
  }

  EXPECT_EQ(Cast(s("inf"), kDbl), "DOUBLE inf");
  EXPECT_EQ(Cast(s("-inf"), kDbl), "DOUBLE -inf");
  EXPECT_EQ(Cast(s("Infinity"), kDbl), "DOUBLE inf");
  EXPECT_EQ(Cast(s("nan"), kDbl), "DOUBLE nan");
  EXPECT_EQ(Cast(s(" 1.5e3 "), kDbl), "DOUBLE 1500.0");
  EXPECT_EQ(Cast(s("+2"), kDbl), "DOUBLE 2.0");
  EXPECT_EQ(CastError<OutOfRangeError>(s("1e999"), kDbl),
            "Could not convert string '1e999' to DOUBLE");
  EXPECT_EQ(CastError<InvalidInputError>(s("x1"), kDbl), "Could not convert string 'x1' to DOUBLE");
  EXPECT_THROW(CastValue(s("0x10"), kDbl), InvalidInputError);

  for (const char* yes : {"TRUE", "t", "Yes", "1", "on", " y "}) {
    EXPECT_EQ(Cast(s(yes), kBool), "BOOLEAN true") << yes;
  }
  for (const char* no : {"false", "F", "NO", "0", "off", "n"}) {
    EXPECT_EQ(Cast(s(no), kBool), "BOOLEAN false") << no;
  }
  EXPECT_EQ(CastError<InvalidInputError>(s("maybe"), kBool),
            "Could not convert string 'maybe' to BOOLEAN");

  EXPECT_EQ(Cast(s(" 2020-02-29 "), kDate), "DATE 2020-02-29");
  EXPECT_EQ(CastError<InvalidInputError>(s("2021-02-29"), kDate),
            "Could not convert string '2021-02-29' to DATE");
  EXPECT_EQ(Cast(s("2020-01-01 10:00:00.5"), kTs), "TIMESTAMP 2020-01-01 10:00:00.5");
  EXPECT_EQ(Cast(s("2020-01-01"), kTs), "TIMESTAMP 2020-01-01 00:00:00");
  EXPECT_THROW(CastValue(s("2020-01-01 25:00:00"), kTs), InvalidInputError);
}

TEST(CastTest, DatesAndTimestamps) {
  EXPECT_EQ(Cast(Value::Date(-1), kTs), "TIMESTAMP 1969-12-31 00:00:00");
  // Rounds toward the earlier day before 1970 too.
  EXPECT_EQ(Cast(Value::Timestamp(-1), kDate), "DATE 1969-12-31");
  EXPECT_EQ(Cast(Value::Timestamp(86400LL * 1000000 - 1), kDate), "DATE 1970-01-01");
  Value far = CastValue(Value::Varchar("999999-01-01"), kDate);
  EXPECT_EQ(CastError<OutOfRangeError>(far, kTs), "Could not convert 999999-01-01 to TIMESTAMP");
}

// DuckDB's text form of a BLOB both ways: printable ASCII as is, \xHH for other bytes and for
// \ ' ".
TEST(CastTest, BlobsAndVarchar) {
  EXPECT_EQ(Cast(Value::Varchar("h\\xC3\\xa9"), kBlob), "BLOB h\\xC3\\xA9");
  EXPECT_EQ(Cast(Value::Blob(std::string("A\xFF\0'\\\" ~", 8)), kStr),
            "VARCHAR A\\xFF\\x00\\x27\\x5C\\x22 ~");
  EXPECT_EQ(CastValue(Value::Varchar("A\\xFF\\x00\\x27"), kBlob),
            Value::Blob(std::string("A\xFF\0'", 4)));
  EXPECT_EQ(CastError<InvalidInputError>(Value::Varchar("h\xC3\xA9"), kBlob),
            "Could not convert string 'h\xC3\xA9' to BLOB: a BLOB's text is ASCII with "
            "\\xHH escapes for other bytes (e.g. 'A\\xAA')");
  EXPECT_EQ(CastError<InvalidInputError>(Value::Varchar("\\x4"), kBlob),
            "Could not convert string '\\x4' to BLOB: a BLOB's text is ASCII with "
            "\\xHH escapes for other bytes (e.g. 'A\\xAA')");
  EXPECT_EQ(TryCast(Value::Varchar("\\xZZ"), kBlob), "BLOB NULL");
}

TEST(CastTest, Time) {
  const LogicalType kTime = LogicalType::Time();
  EXPECT_EQ(Cast(Value::Varchar("01:02:03.5"), kTime), "TIME 01:02:03.5");
  EXPECT_EQ(Cast(Value::Varchar("24:00:00"), kTime), "TIME 24:00:00");
  EXPECT_EQ(Cast(Value::Varchar("2024-01-02 03:04:05"), kTime), "TIME 03:04:05");
  EXPECT_EQ(Cast(Value::Timestamp(-1), kTime), "TIME 23:59:59.999999");
  EXPECT_EQ(Cast(Value::Time(1), kStr), "VARCHAR 00:00:00.000001");
  EXPECT_EQ(TryCast(Value::Varchar("24:00:01"), kTime), "TIME NULL");
  EXPECT_EQ(TryCast(Value::Varchar("12:60"), kTime), "TIME NULL");
  EXPECT_FALSE(CastExists(LogicalType::Date(), kTime));
  EXPECT_FALSE(CastExists(kTime, LogicalType::Timestamp()));
  EXPECT_FALSE(CanImplicitCast(kTime, LogicalType::Timestamp()));
}

TEST(CastTest, RoundTripsThroughVarchar) {
  std::vector<Value> values = {
      Value::Double(0.1),
      Value::Double(1e-05),
      Value::Double(-0.0),
      Value::Double(123456789.125),
      Value::Integer(INT32_MIN),
      Value::Bigint(INT64_MAX),
      DecValue("-0.001", 3, 3),
      DecValue("-99999999999999999999999999.999999999999", 38, 12),
      Value::Date(-719528),
      Value::Timestamp(-123456789012345LL),
      Value::Boolean(false),
      Value::Time(0),
      Value::Time(86'400'000'000LL),
      Value::Time(45'296'789'000LL),
      Value::Timestamp(1'500'000),
      Value::Blob(std::string("\0\x7F\\x'\"a", 7)),
  };
  for (const Value& value : values) {
    Value text = CastValue(value, kStr);
    Value back = CastValue(text, value.type());
    EXPECT_EQ(Show(back), Show(value));
    EXPECT_EQ(back.Compare(value), 0) << value.ToString();
  }
}

TEST(CastTest, VectorCastWithNullsAndTryCast) {
  Vector in(kStr, 5);
  in.data<StringRef>()[0] = in.AddString("1");
  in.validity().SetNull(1);
  in.data<StringRef>()[2] = in.AddString("x");
  in.data<StringRef>()[3] = in.AddString(" 4");
  in.data<StringRef>()[4] = in.AddString("99999999999");
  Vector out(kInt, 5);
  CastVector(in, out, 5, /*try_cast=*/true);
  std::vector<std::string> shown;
  for (idx_t i = 0; i < 5; i++)
    shown.push_back(out.ValueToString(i));
  EXPECT_EQ(shown, (std::vector<std::string>{"1", "NULL", "NULL", "4", "NULL"}));
  Vector strict(kInt, 5);
  EXPECT_THROW(CastVector(in, strict, 5), InvalidInputError);
  // A NULL row is never converted, whatever bytes lie under it.
  Vector garbage(kBig, 2);
  garbage.data<int64_t>()[0] = INT64_MAX;
  garbage.validity().SetNull(0);
  garbage.data<int64_t>()[1] = 5;
  Vector narrow(kInt, 2);
  CastVector(garbage, narrow, 2);
  EXPECT_TRUE(narrow.IsNull(0));
  EXPECT_EQ(narrow.data<int32_t>()[1], 5);
}

// ---------------------------------------------------------------- binding

std::string BindText(const std::string& name, const std::vector<LogicalType>& types) {
  BoundScalarFunction f = FunctionRegistry::Default().Bind(name, types);
  return function_internal::SignatureText(f.name, f.arg_types) + " -> " + f.return_type.ToString();
}

template <typename E>
std::string BindError(const std::string& name, const std::vector<LogicalType>& types) {
  try {
    FunctionRegistry::Default().Bind(name, types);
  } catch (const E& e) {
    return e.what();
  }
  return "no error";
}

TEST(FunctionBindTest, ResolvesByFewestCasts) {
  EXPECT_EQ(BindText("+", {kInt, kInt}), "+(INTEGER, INTEGER) -> INTEGER");
  EXPECT_EQ(BindText("+", {kInt, kBig}), "+(BIGINT, BIGINT) -> BIGINT");
  EXPECT_EQ(BindText("+", {kInt, kDbl}), "+(DOUBLE, DOUBLE) -> DOUBLE");
  EXPECT_EQ(BindText("+", {Dec(10, 2), Dec(5, 3)}),
            "+(DECIMAL(10,2), DECIMAL(5,3)) -> DECIMAL(12,3)");
  EXPECT_EQ(BindText("+", {kInt, Dec(5, 2)}), "+(DECIMAL(10,0), DECIMAL(5,2)) -> DECIMAL(13,2)");
  EXPECT_EQ(BindText("+", {Dec(5, 2), kDbl}), "+(DOUBLE, DOUBLE) -> DOUBLE");
  // DECIMAL / DECIMAL is DOUBLE (DuckDB), not REAL though REAL is the nearer type.
  EXPECT_EQ(BindText("/", {Dec(5, 2), Dec(5, 2)}), "/(DOUBLE, DOUBLE) -> DOUBLE");
  EXPECT_EQ(BindText("/", {kInt, kInt}), "/(INTEGER, INTEGER) -> INTEGER");
  EXPECT_EQ(BindText("/", {kBig, Dec(5, 2)}), "/(DOUBLE, DOUBLE) -> DOUBLE");
  // REAL with an exact number stays REAL, with a DOUBLE widens.
  EXPECT_EQ(BindText("+", {LogicalType::Float(), kInt}), "+(REAL, REAL) -> REAL");
  EXPECT_EQ(BindText("*", {Dec(5, 2), LogicalType::Float()}), "*(REAL, REAL) -> REAL");
  EXPECT_EQ(BindText("/", {LogicalType::Float(), kBig}), "/(REAL, REAL) -> REAL");
  EXPECT_EQ(BindText("-", {LogicalType::Float(), kDbl}), "-(DOUBLE, DOUBLE) -> DOUBLE");
  EXPECT_EQ(BindText("=", {LogicalType::Float(), Dec(3, 1)}), "=(REAL, REAL) -> BOOLEAN");
  EXPECT_EQ(BindText("sqrt", {LogicalType::Float()}), "sqrt(DOUBLE) -> DOUBLE");
  EXPECT_EQ(BindText("/", {Dec(5, 2), kDbl}), "/(DOUBLE, DOUBLE) -> DOUBLE");
  EXPECT_EQ(BindText("//", {kInt, kBig}), "//(BIGINT, BIGINT) -> BIGINT");
  EXPECT_EQ(BindText("-", {kDate, kDate}), "-(DATE, DATE) -> BIGINT");
  EXPECT_EQ(BindText("-", {kTs, kDate}), "-(TIMESTAMP, TIMESTAMP) -> INTERVAL");
  EXPECT_EQ(BindText("=", {kInt, Dec(5, 2)}), "=(DECIMAL(12,2), DECIMAL(12,2)) -> BOOLEAN");
  EXPECT_EQ(BindText("abs", {kInt}), "abs(INTEGER) -> INTEGER");
  EXPECT_EQ(BindText("sqrt", {kInt}), "sqrt(DOUBLE) -> DOUBLE");
  EXPECT_EQ(BindText("substring", {kStr, kInt, kInt}),
            "substring(VARCHAR, BIGINT, BIGINT) -> VARCHAR");
}

TEST(FunctionBindTest, NullArgumentsMatchAnything) {
  const LogicalType null;
  EXPECT_EQ(BindText("+", {null, null}), "+(INTEGER, INTEGER) -> INTEGER");
  EXPECT_EQ(BindText("+", {null, Dec(5, 2)}), "+(DECIMAL(5,2), DECIMAL(5,2)) -> DECIMAL(6,2)");
  EXPECT_EQ(BindText("+", {kDbl, null}), "+(DOUBLE, DOUBLE) -> DOUBLE");
  EXPECT_EQ(BindText("=", {null, kDate}), "=(DATE, DATE) -> BOOLEAN");
  EXPECT_EQ(BindText("upper", {null}), "upper(VARCHAR) -> VARCHAR");
  EXPECT_EQ(BindText("coalesce", {null, kBig, kInt}), "coalesce(BIGINT, BIGINT, BIGINT) -> BIGINT");
}

TEST(FunctionBindTest, Errors) {
  EXPECT_EQ(BindError<BinderError>("foo", {kInt}), "Function 'foo' does not exist");
  EXPECT_EQ(BindError<BinderError>("substring", {kInt, kInt}),
            "No function matches 'substring(INTEGER, INTEGER)'. Candidates: "
            "substring(VARCHAR, BIGINT), substring(VARCHAR, BIGINT, BIGINT)");
  EXPECT_EQ(BindError<BinderError>("=", {kDate, kBool}),
            "No function matches '=(DATE, BOOLEAN)'. Candidates: =(T, T)");
  EXPECT_EQ(BindError<BinderError>("*", {Dec(38, 20), Dec(38, 20)}),
            "DECIMAL multiplication needs scale 40 (DECIMAL(38,20) * DECIMAL(38,20)), more than 38 "
            "digits");
  EXPECT_TRUE(FunctionRegistry::Default().Exists("like"));
  EXPECT_FALSE(FunctionRegistry::Default().Exists("no_such_function"));
}

TEST(FunctionBindTest, EvaluateScalarShortCircuitsNulls) {
  BoundScalarFunction f = FunctionRegistry::Default().Bind("/", {kInt, kInt});
  EXPECT_EQ(Show(EvaluateScalar(f, {Value::Integer(7), Value::Integer(2)})), "INTEGER 3");
  EXPECT_EQ(Show(EvaluateScalar(f, {Value(), Value::Integer(0)})), "INTEGER NULL");
  EXPECT_EQ(Show(EvaluateScalar(f, {Value::Integer(1), Value::Integer(0)})), "INTEGER NULL");
}

}  // namespace
}  // namespace shears

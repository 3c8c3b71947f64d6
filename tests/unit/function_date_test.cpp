// Date and timestamp functions.

#include <gtest/gtest.h>

#include <chrono>

#include "common/error.h"
#include "function/function.h"
#include "function/function_internal.h"
#include "function_test_util.h"

namespace shears {
namespace {

using namespace function_test;

using function_internal::EvaluateFunction;
using function_internal::EvaluateRows;

/// extract(field FROM value) as a number.
std::string Extract(const std::string& field, const Value& value) {
  Value v = EvaluateFunction("extract", {S(field), value});
  EXPECT_EQ(v.type().ToString(), "BIGINT");
  return v.ToString();
}

TEST(FunctionDateTest, ExtractFromDates) {
  const Value leap = Dt("2020-02-29");
  EXPECT_EQ(Extract("year", leap), "2020");
  EXPECT_EQ(Extract("quarter", leap), "1");
  EXPECT_EQ(Extract("month", leap), "2");
  EXPECT_EQ(Extract("day", leap), "29");
  EXPECT_EQ(Extract("doy", leap), "60");
  EXPECT_EQ(Extract("dayofyear", Dt("2020-12-31")), "366");
  EXPECT_EQ(Extract("dayofyear", Dt("2021-12-31")), "365");
  EXPECT_EQ(Extract("quarter", Dt("2020-10-01")), "4");
  // 2024-01-07 is a Sunday.
  EXPECT_EQ(Extract("dow", Dt("2024-01-07")), "0");
  EXPECT_EQ(Extract("dayofweek", Dt("2024-01-06")), "6");
  EXPECT_EQ(Extract("isodow", Dt("2024-01-07")), "7");
  EXPECT_EQ(Extract("isodow", Dt("2024-01-08")), "1");
  // ISO weeks around new year.
  EXPECT_EQ(Extract("week", Dt("2021-01-03")), "53");
  EXPECT_EQ(Extract("isoyear", Dt("2021-01-03")), "2020");
  EXPECT_EQ(Extract("week", Dt("2021-01-04")), "1");
  EXPECT_EQ(Extract("week", Dt("2008-12-29")), "1");
  EXPECT_EQ(Extract("isoyear", Dt("2008-12-29")), "2009");
  EXPECT_EQ(Extract("week", Dt("2005-01-01")), "53");
  EXPECT_EQ(Extract("week", Dt("2026-01-01")), "1");
  EXPECT_EQ(Extract("hour", Dt("2026-01-01")), "0");
  EXPECT_EQ(Extract("epoch", Dt("1969-12-31")), "-86400");
  EXPECT_EQ(Extract("epoch", Dt("1970-01-02")), "86400");
  EXPECT_EQ(Extract("decade", Dt("2019-06-01")), "201");
  EXPECT_EQ(Extract("century", Dt("2000-12-31")), "20");
  EXPECT_EQ(Extract("century", Dt("2001-01-01")), "21");
  EXPECT_EQ(Extract("millennium", Dt("2000-01-01")), "2");
  EXPECT_EQ(Extract("millennium", Dt("2001-01-01")), "3");
  EXPECT_EQ(Extract("YEAR", Dt("1900-03-01")), "1900");
  EXPECT_EQ(Extract("Month", Dt("1900-03-01")), "3");
  EXPECT_EQ(Extract("days", Dt("1900-03-01")), "1");
  EXPECT_EQ(Extract("year", Dt("1969-12-31")), "1969");
  EXPECT_EQ(Extract("day", Dt("1600-02-29")), "29");
}

TEST(FunctionDateTest, ExtractFromTimestamps) {
  const Value ts = Ts("2021-03-04 05:06:07.123456");
  EXPECT_EQ(Extract("year", ts), "2021");
  EXPECT_EQ(Extract("hour", ts), "5");
  EXPECT_EQ(Extract("minute", ts), "6");
  EXPECT_EQ(Extract("second", ts), "7");
  EXPECT_EQ(Extract("millisecond", ts), "7123");
  EXPECT_EQ(Extract("microsecond", ts), "7123456");
  EXPECT_EQ(Extract("epoch", ts), "1614834367");
  // Before 1970 the day and time of day still come out right (floor, not truncation).
  const Value before = Ts("1969-12-31 23:59:59.5");
  EXPECT_EQ(Extract("epoch", before), "-1");
  EXPECT_EQ(Extract("day", before), "31");
  EXPECT_EQ(Extract("hour", before), "23");
  EXPECT_EQ(Extract("second", before), "59");
  EXPECT_EQ(Extract("millisecond", before), "59500");
  EXPECT_EQ(Extract("year", before), "1969");
  EXPECT_EQ(Extract("dow", before), "3");
  EXPECT_EQ(Eval("date_part", {S("month"), ts}), "BIGINT 3");
  EXPECT_EQ(Eval("extract", {S("year"), N()}), "BIGINT NULL");
}

TEST(FunctionDateTest, ExtractUnknownField) {
  try {
    EvaluateFunction("extract", {S("fortnight"), Dt("2020-01-01")});
    FAIL() << "no error";
  } catch (const InvalidInputError& e) {
    EXPECT_STREQ(e.what(), "extract: unknown date part 'fortnight'");
  }
}

TEST(FunctionDateTest, ExtractBatchWithMixedFields) {
  BoundScalarFunction f =
      FunctionRegistry::Default().Bind("extract", {LogicalType::Varchar(), LogicalType::Date()});
  std::vector<Value> fields = {S("year"), S("year"), S("month"), N(), S("day")};
  std::vector<Value> dates = {Dt("2020-05-17"), Dt("1999-01-01"), Dt("2020-05-17"),
                              Dt("2020-05-17"), N()};
  std::vector<std::string> shown;
  for (const Value& v : EvaluateRows(f, {fields, dates}, 5))
    shown.push_back(v.ToString());
  EXPECT_EQ(shown, (std::vector<std::string>{"2020", "1999", "5", "NULL", "NULL"}));
}

TEST(FunctionDateTest, Shortcuts) {
  EXPECT_EQ(Eval("year", {Dt("2020-02-29")}), "BIGINT 2020");
  EXPECT_EQ(Eval("month", {Dt("2020-02-29")}), "BIGINT 2");
  EXPECT_EQ(Eval("day", {Dt("2020-02-29")}), "BIGINT 29");
  EXPECT_EQ(Eval("year", {Ts("1969-12-31 23:00:00")}), "BIGINT 1969");
  EXPECT_EQ(Eval("hour", {Ts("1969-12-31 23:00:00")}), "BIGINT 23");
  EXPECT_EQ(Eval("quarter", {Dt("2020-07-01")}), "BIGINT 3");
  EXPECT_EQ(Eval("dayofweek", {Dt("2024-01-07")}), "BIGINT 0");
  EXPECT_EQ(Eval("week", {Ts("2021-01-03 12:00:00")}), "BIGINT 53");
  EXPECT_EQ(Eval("epoch", {Ts("1970-01-01 00:00:01")}), "BIGINT 1");
}

TEST(FunctionDateTest, DateTrunc) {
  EXPECT_EQ(Eval("date_trunc", {S("month"), Dt("2020-02-29")}), "TIMESTAMP 2020-02-01 00:00:00");
  EXPECT_EQ(Eval("date_trunc", {S("year"), Dt("2020-02-29")}), "TIMESTAMP 2020-01-01 00:00:00");
  EXPECT_EQ(Eval("date_trunc", {S("quarter"), Dt("2020-05-15")}), "TIMESTAMP 2020-04-01 00:00:00");
  EXPECT_EQ(Eval("date_trunc", {S("week"), Dt("2024-01-07")}), "TIMESTAMP 2024-01-01 00:00:00");
  EXPECT_EQ(Eval("date_trunc", {S("week"), Dt("2024-01-01")}), "TIMESTAMP 2024-01-01 00:00:00");
  EXPECT_EQ(Eval("date_trunc", {S("day"), Dt("2024-01-07")}), "TIMESTAMP 2024-01-07 00:00:00");
  const Value ts = Ts("2021-03-04 05:06:07.123456");
  EXPECT_EQ(Eval("date_trunc", {S("hour"), ts}), "TIMESTAMP 2021-03-04 05:00:00");
  EXPECT_EQ(Eval("date_trunc", {S("minute"), ts}), "TIMESTAMP 2021-03-04 05:06:00");
  EXPECT_EQ(Eval("date_trunc", {S("second"), ts}), "TIMESTAMP 2021-03-04 05:06:07");
  EXPECT_EQ(Eval("date_trunc", {S("millisecond"), ts}), "TIMESTAMP 2021-03-04 05:06:07.123");
  EXPECT_EQ(Eval("date_trunc", {S("microsecond"), ts}), "TIMESTAMP 2021-03-04 05:06:07.123456");
  EXPECT_EQ(Eval("date_trunc", {S("day"), Ts("1969-12-31 12:00:00")}),
            "TIMESTAMP 1969-12-31 00:00:00");
  EXPECT_EQ(Eval("date_trunc", {S("second"), Ts("1969-12-31 23:59:59.5")}),
            "TIMESTAMP 1969-12-31 23:59:59");
  EXPECT_EQ(Eval("date_trunc", {S("decade"), Dt("2019-12-31")}), "TIMESTAMP 2010-01-01 00:00:00");
  // DuckDB's: the year truncated toward zero (PostgreSQL's centuries start at ...01).
  EXPECT_EQ(Eval("date_trunc", {S("century"), Dt("2020-06-01")}), "TIMESTAMP 2000-01-01 00:00:00");
  EXPECT_EQ(Eval("date_trunc", {S("century"), Dt("1999-06-01")}), "TIMESTAMP 1900-01-01 00:00:00");
  EXPECT_EQ(Eval("date_trunc", {S("millennium"), Dt("2000-06-01")}),
            "TIMESTAMP 2000-01-01 00:00:00");
  EXPECT_EQ(Eval("date_trunc", {S("millennium"), Dt("1999-06-01")}),
            "TIMESTAMP 1000-01-01 00:00:00");
  EXPECT_THROW(EvaluateFunction("date_trunc", {S("dow"), Dt("2000-06-01")}), InvalidInputError);
}

TEST(FunctionDateTest, AddMonthsClampsToMonthEnd) {
  EXPECT_EQ(Eval("date_add_months", {Dt("2020-01-31"), I(1)}), "DATE 2020-02-29");
  EXPECT_EQ(Eval("date_add_months", {Dt("2021-01-31"), I(1)}), "DATE 2021-02-28");
  EXPECT_EQ(Eval("date_add_months", {Dt("2020-03-31"), I(-1)}), "DATE 2020-02-29");
  EXPECT_EQ(Eval("date_add_months", {Dt("2020-05-31"), I(1)}), "DATE 2020-06-30");
  EXPECT_EQ(Eval("date_add_months", {Dt("2020-01-15"), I(12)}), "DATE 2021-01-15");
  EXPECT_EQ(Eval("date_add_months", {Dt("2020-01-15"), I(-13)}), "DATE 2018-12-15");
  EXPECT_EQ(Eval("date_add_months", {Dt("1970-01-31"), I(-1)}), "DATE 1969-12-31");
  EXPECT_EQ(Eval("date_add_months", {Dt("2024-02-29"), I(12)}), "DATE 2025-02-28");
  EXPECT_EQ(Eval("date_add_months", {Ts("2020-01-31 10:30:00"), I(1)}),
            "TIMESTAMP 2020-02-29 10:30:00");
  EXPECT_EQ(Eval("date_add_months", {Ts("1969-12-31 23:00:00"), I(2)}),
            "TIMESTAMP 1970-02-28 23:00:00");
  EXPECT_THROW(EvaluateFunction("date_add_months", {Dt("2020-01-01"), I(2147483647)}),
               OutOfRangeError);
  EXPECT_THROW(EvaluateFunction("date_add_months", {Ts("2020-01-01 00:00:00"), I(2147483647)}),
               OutOfRangeError);
}

TEST(FunctionDateTest, AddDaysAndMicros) {
  EXPECT_EQ(Eval("date_add_days", {Dt("2020-02-28"), I(2)}), "DATE 2020-03-01");
  EXPECT_EQ(Eval("date_add_days", {Dt("1970-01-01"), I(-1)}), "DATE 1969-12-31");
  EXPECT_EQ(Eval("date_add_days", {Ts("2020-02-28 12:00:00"), I(1)}),
            "TIMESTAMP 2020-02-29 12:00:00");
  EXPECT_EQ(Eval("timestamp_add_micros", {Ts("2020-02-28 12:00:00"), BI(1500000)}),
            "TIMESTAMP 2020-02-28 12:00:01.5");
  EXPECT_EQ(Eval("timestamp_add_micros", {Dt("2020-02-28"), BI(-1)}),
            "TIMESTAMP 2020-02-27 23:59:59.999999");
  EXPECT_THROW(EvaluateFunction("date_add_days",
                                {Value::Date(std::numeric_limits<int32_t>::max() - 1), I(1)}),
               OutOfRangeError);
  // The type's extremes are DuckDB's infinities: adding keeps them.
  EXPECT_EQ(Eval("date_add_days", {Value::Date(std::numeric_limits<int32_t>::max()), I(1)}),
            "DATE infinity");
  EXPECT_EQ(
      Eval("timestamp_add_micros", {Value::Timestamp(-std::numeric_limits<int64_t>::max()), BI(1)}),
      "TIMESTAMP -infinity");
  EXPECT_THROW(EvaluateFunction("date_add_days", {Ts("2020-01-01"), I(2147483647)}),
               OutOfRangeError);
  EXPECT_THROW(EvaluateFunction("timestamp_add_micros",
                                {Value::Timestamp(std::numeric_limits<int64_t>::max() - 1), BI(1)}),
               OutOfRangeError);
}

TEST(FunctionDateTest, MakeDateAndLastDay) {
  EXPECT_EQ(Eval("make_date", {I(2020), I(2), I(29)}), "DATE 2020-02-29");
  EXPECT_EQ(Eval("make_date", {I(1969), I(12), I(31)}), "DATE 1969-12-31");
  EXPECT_THROW(EvaluateFunction("make_date", {I(2021), I(2), I(29)}), OutOfRangeError);
  EXPECT_THROW(EvaluateFunction("make_date", {I(2021), I(13), I(1)}), OutOfRangeError);
  EXPECT_THROW(EvaluateFunction("make_date", {BI(int64_t{1} << 40), I(1), I(1)}), OutOfRangeError);
  EXPECT_EQ(Eval("last_day", {Dt("2020-02-10")}), "DATE 2020-02-29");
  EXPECT_EQ(Eval("last_day", {Dt("1900-02-01")}), "DATE 1900-02-28");
  EXPECT_EQ(Eval("last_day", {Dt("2000-02-01")}), "DATE 2000-02-29");
  EXPECT_EQ(Eval("last_day", {Dt("2021-12-05")}), "DATE 2021-12-31");
  EXPECT_EQ(Eval("last_day", {Ts("1969-12-31 23:59:59")}), "DATE 1969-12-31");
}

TEST(FunctionDateTest, CurrentDateAndTimestamp) {
  BoundScalarFunction date = FunctionRegistry::Default().Bind("current_date", {});
  BoundScalarFunction ts = FunctionRegistry::Default().Bind("current_timestamp", {});
  EXPECT_FALSE(date.deterministic);
  EXPECT_FALSE(ts.deterministic);
  EXPECT_EQ(date.return_type.ToString(), "DATE");
  EXPECT_EQ(ts.return_type.ToString(), "TIMESTAMP");
  const int64_t now = std::chrono::duration_cast<std::chrono::microseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  std::vector<Value> values = EvaluateRows(ts, {}, 3);
  EXPECT_LE(std::abs(values[0].GetInt64() - now), 60 * 1000000LL);
  // Constant within one bound call (one query).
  EXPECT_EQ(values[0].GetInt64(), values[2].GetInt64());
  EXPECT_EQ(EvaluateRows(ts, {}, 1)[0].GetInt64(), values[0].GetInt64());
  Value today = EvaluateRows(date, {}, 1)[0];
  EXPECT_LE(std::abs(today.GetInt64() - now / 86400000000LL), 1);
}

// age(a, b): field-wise differences with borrows from the earlier timestamp's month.
TEST(FunctionDateTest, AgeBorrowsFromTheEarlierMonth) {
  EXPECT_EQ(Eval("age", {Ts("2024-03-05 00:00:00"), Ts("2020-01-01 00:00:00")}),
            "INTERVAL 4 years 2 months 4 days");
  EXPECT_EQ(Eval("age", {Ts("2024-03-01 00:00:00"), Ts("2024-01-31 00:00:00")}),
            "INTERVAL 1 month 1 day");
  EXPECT_EQ(Eval("age", {Ts("2024-01-31 00:00:00"), Ts("2024-03-01 00:00:00")}),
            "INTERVAL -1 month -1 day");
  EXPECT_EQ(Eval("age", {Ts("2024-03-01 00:00:00"), Ts("2024-02-28 23:00:00")}),
            "INTERVAL 1 day 01:00:00");
  // Before 1970 and across a year end with a borrowed hour.
  EXPECT_EQ(Eval("age", {Ts("1969-01-01 00:00:00"), Ts("1968-12-31 23:30:00")}),
            "INTERVAL 00:30:00");
  EXPECT_EQ(Eval("age", {Ts("2024-01-01 00:00:00"), Ts("2024-01-01 00:00:00")}),
            "INTERVAL 00:00:00");
  EXPECT_EQ(Eval("age", {N(), Ts("2024-01-01 00:00:00")}), "INTERVAL NULL");
}

// trunc(x, digits) toward zero; DECIMAL keeps its type.
TEST(FunctionDateTest, TruncWithDigits) {
  EXPECT_EQ(Eval("trunc", {Dec("3.789", 4, 3), I(1)}), "DECIMAL(4,3) 3.700");
  EXPECT_EQ(Eval("trunc", {Dec("-3.789", 4, 3), I(2)}), "DECIMAL(4,3) -3.780");
  EXPECT_EQ(Eval("trunc", {Dec("1234.5", 5, 1), I(-2)}), "DECIMAL(5,1) 1200.0");
  EXPECT_EQ(Eval("trunc", {Dec("1234.5", 5, 1), I(-40)}), "DECIMAL(5,1) 0.0");
  EXPECT_EQ(Eval("trunc", {D(-1234.5), I(-2)}), "DOUBLE -1200.0");
  EXPECT_EQ(Eval("trunc", {D(3.789), I(2)}), "DOUBLE 3.78");
}

}  // namespace
}  // namespace shears

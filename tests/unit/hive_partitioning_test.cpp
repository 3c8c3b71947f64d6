#include "storage/hive/hive_partitioning.h"

#include <gtest/gtest.h>

#include <random>

#include "common/error.h"

namespace shears {
namespace {

using Values = std::vector<std::optional<std::string>>;

TEST(HivePartitioningTest, ParsesKeyValueLevels) {
  auto kv = ParseHivePath("year=2024/month=7/part-0.parquet");
  ASSERT_EQ(kv.size(), 2u);
  EXPECT_EQ(kv[0].key, "year");
  EXPECT_EQ(kv[0].value, "2024");
  EXPECT_EQ(kv[1].key, "month");
  EXPECT_EQ(kv[1].value, "7");
}

TEST(HivePartitioningTest, IgnoresFileNameAndPlainLevels) {
  EXPECT_TRUE(ParseHivePath("a=1.parquet").empty());  // the file name is never a level
  EXPECT_TRUE(ParseHivePath("data/part-0.parquet").empty());
  EXPECT_TRUE(ParseHivePath("").empty());
  auto kv = ParseHivePath("extra/x=1/more/y=2/f");
  ASSERT_EQ(kv.size(), 2u);
  EXPECT_EQ(kv[0].key, "x");
  EXPECT_EQ(kv[1].key, "y");
  // Empty components (double slashes) are not levels.
  kv = ParseHivePath("x=1//y=2/f");
  ASSERT_EQ(kv.size(), 2u);
  // "=v" has no key: a plain directory, not a partition.
  EXPECT_TRUE(ParseHivePath("=v/f").empty());
  EXPECT_FALSE(IsHiveLevel("=v"));
  EXPECT_FALSE(IsHiveLevel("plain"));
  EXPECT_TRUE(IsHiveLevel("k="));
  EXPECT_TRUE(IsHiveLevel("k=a=b"));
}

TEST(HivePartitioningTest, NullAndEmptyValues) {
  auto kv = ParseHivePath("a=__HIVE_DEFAULT_PARTITION__/b=/f.parquet");
  ASSERT_EQ(kv.size(), 2u);
  EXPECT_FALSE(kv[0].value.has_value());
  ASSERT_TRUE(kv[1].value.has_value());
  EXPECT_EQ(*kv[1].value, "");
}

TEST(HivePartitioningTest, DecodesEscapesInKeysAndValues) {
  auto kv = ParseHivePath("k%3Dx=a%2Fb/c=100%25/d=%C3%BCber/e=with%20space/f=k=v/z");
  ASSERT_EQ(kv.size(), 5u);
  EXPECT_EQ(kv[0].key, "k=x");
  EXPECT_EQ(kv[0].value, "a/b");
  EXPECT_EQ(kv[1].value, "100%");
  EXPECT_EQ(kv[2].value,
            "\xC3\xBC"
            "ber");
  EXPECT_EQ(kv[3].value, "with space");
  EXPECT_EQ(kv[4].value, "k=v");  // only the first '=' separates key and value
}

TEST(HivePartitioningTest, BadEscapesNameTheText) {
  for (std::string bad : {"%zz", "abc%", "abc%4", "%g0", "x%%41"}) {
    try {
      HiveUnescape(bad);
      FAIL() << "no error for " << bad;
    } catch (const InvalidInputError& e) {
      EXPECT_NE(std::string(e.what()).find("'" + bad + "'"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(ParseHivePath("k=50%/f"), InvalidInputError);
  EXPECT_EQ(HiveUnescape("%41%6a%6A"), "Ajj");
  EXPECT_EQ(HiveUnescape("a+b"), "a+b");  // not form encoding
}

TEST(HivePartitioningTest, EscapesLikeHive) {
  EXPECT_EQ(HiveEscape("a/b"), "a%2Fb");
  EXPECT_EQ(HiveEscape("k=v"), "k%3Dv");
  EXPECT_EQ(HiveEscape("100%"), "100%25");
  EXPECT_EQ(HiveEscape("with space"), "with%20space");
  EXPECT_EQ(HiveEscape("\xC3\xBC"
                       "ber"),
            "%C3%BCber");
  EXPECT_EQ(HiveEscape(std::string("\x01\n\x7F", 3)), "%01%0A%7F");
  EXPECT_EQ(HiveEscape(std::string(1, '\0')), "%00");
  EXPECT_EQ(HiveEscape("plain-Text_1.2~"), "plain-Text_1.2~");
  EXPECT_EQ(HiveEscape(""), "");
  EXPECT_EQ(HiveEscape("#'*:?\\{[]^\""), "%23%27%2A%3A%3F%5C%7B%5B%5D%5E%22");
}

TEST(HivePartitioningTest, LiteralNullMarkerStringRoundTrips) {
  std::string marker(kHiveNullPartition);
  std::string escaped = HiveEscape(marker);
  EXPECT_NE(escaped, marker);
  EXPECT_EQ(HiveUnescape(escaped), marker);
  auto kv = ParseHivePath("k=" + escaped + "/f");
  ASSERT_EQ(kv.size(), 1u);
  EXPECT_EQ(kv[0].value, marker);  // a string, not NULL
}

TEST(HivePartitioningTest, EscapeRoundTripsRandomBytes) {
  std::mt19937 rng(12345);
  std::uniform_int_distribution<int> len_dist(0, 24), byte_dist(0, 255), pick(0, 3);
  const std::string interesting = "%=/ _.-aZ09\\:";
  for (int iter = 0; iter < 5000; iter++) {
    std::string s;
    int len = len_dist(rng);
    for (int i = 0; i < len; i++) {
      // Bias toward characters that matter for escaping.
      s.push_back(pick(rng) == 0 ? interesting[byte_dist(rng) % interesting.size()]
                                 : static_cast<char>(byte_dist(rng)));
    }
    std::string escaped = HiveEscape(s);
    ASSERT_EQ(HiveUnescape(escaped), s);
    // An escaped value stays one directory level and its "=" cannot be mistaken for the key.
    ASSERT_EQ(escaped.find('/'), std::string::npos);
    ASSERT_EQ(escaped.find('='), std::string::npos);
    auto kv = ParseHivePath("key=" + escaped + "/file.parquet");
    ASSERT_EQ(kv.size(), 1u);
    ASSERT_TRUE(kv[0].value.has_value());
    ASSERT_EQ(*kv[0].value, s);
  }
}

TEST(HivePartitioningTest, InfersBigint) {
  EXPECT_EQ(InferPartitionType({"2022", "2023", std::nullopt}), LogicalType::Bigint());
  EXPECT_EQ(InferPartitionType({"-5", "0", "+7", "01"}), LogicalType::Bigint());
  EXPECT_EQ(InferPartitionType({"9223372036854775807", "-9223372036854775808"}),
            LogicalType::Bigint());
}

TEST(HivePartitioningTest, IntegerOverflowIsVarchar) {
  EXPECT_EQ(InferPartitionType({"1", "9223372036854775808"}), LogicalType::Varchar());
  EXPECT_EQ(InferPartitionType({"-9223372036854775809"}), LogicalType::Varchar());
  EXPECT_EQ(InferPartitionType({"123456789012345678901234567890"}), LogicalType::Varchar());
}

TEST(HivePartitioningTest, NotQuiteIntegersAreVarchar) {
  for (const char* s : {"", " 1", "1 ", "1.0", "1e3", "-", "+", "+-1", "0x10", "12a"}) {
    EXPECT_EQ(InferPartitionType({"1", std::string(s)}), LogicalType::Varchar()) << s;
  }
}

TEST(HivePartitioningTest, InfersDates) {
  EXPECT_EQ(InferPartitionType({"2024-01-31", std::nullopt, "1999-12-31"}), LogicalType::Date());
  EXPECT_EQ(InferPartitionType({"2024-02-29"}), LogicalType::Date());
  EXPECT_EQ(InferPartitionType({"2023-02-29"}), LogicalType::Varchar());  // not a day
  EXPECT_EQ(InferPartitionType({"2024-1-5"}), LogicalType::Varchar());    // not YYYY-MM-DD
  EXPECT_EQ(InferPartitionType({"2024-01-01", "7"}), LogicalType::Varchar());
  EXPECT_EQ(InferPartitionType({"2024-01-01 00:00:00"}), LogicalType::Varchar());
}

TEST(HivePartitioningTest, AllNullOrNothingIsVarchar) {
  EXPECT_EQ(InferPartitionType({}), LogicalType::Varchar());
  EXPECT_EQ(InferPartitionType({std::nullopt, std::nullopt}), LogicalType::Varchar());
  EXPECT_EQ(InferPartitionType({""}), LogicalType::Varchar());
}

TEST(HivePartitioningTest, ParsesValuesOfEachType) {
  EXPECT_EQ(ParsePartitionValue("2024", LogicalType::Bigint(), "y"), Value::Bigint(2024));
  EXPECT_EQ(ParsePartitionValue("-12", LogicalType::Integer(), "y"), Value::Integer(-12));
  EXPECT_EQ(ParsePartitionValue("true", LogicalType::Boolean(), "b"), Value::Boolean(true));
  EXPECT_EQ(ParsePartitionValue("F", LogicalType::Boolean(), "b"), Value::Boolean(false));
  EXPECT_EQ(ParsePartitionValue("1.5", LogicalType::Double(), "d"), Value::Double(1.5));
  EXPECT_EQ(ParsePartitionValue("+2", LogicalType::Double(), "d"), Value::Double(2));
  EXPECT_EQ(ParsePartitionValue("12.345", LogicalType::Decimal(5, 2), "m").ToString(), "12.35");
  EXPECT_EQ(ParsePartitionValue("-0.1", LogicalType::Decimal(5, 2), "m").ToString(), "-0.10");
  EXPECT_EQ(ParsePartitionValue("7", LogicalType::Decimal(38, 10), "m").ToString(), "7.0000000000");
  int32_t days;
  ASSERT_TRUE(ParseDate("2024-03-01", &days));
  EXPECT_EQ(ParsePartitionValue("2024-03-01", LogicalType::Date(), "d"), Value::Date(days));
  EXPECT_EQ(ParsePartitionValue("2024-03-01 10:00:00", LogicalType::Timestamp(), "t").ToString(),
            "2024-03-01 10:00:00");
  EXPECT_EQ(ParsePartitionValue("a/b", LogicalType::Varchar(), "s"), Value::Varchar("a/b"));
  EXPECT_EQ(ParsePartitionValue("", LogicalType::Varchar(), "s"), Value::Varchar(""));
  Value null = ParsePartitionValue(std::nullopt, LogicalType::Bigint(), "y");
  EXPECT_TRUE(null.is_null());
  EXPECT_EQ(null.type(), LogicalType::Bigint());
}

TEST(HivePartitioningTest, ConversionErrorsNameColumnAndValue) {
  struct Case {
    std::string text;
    LogicalType type;
  };
  std::vector<Case> cases = {
      {"abc", LogicalType::Integer()},
      {"3000000000", LogicalType::Integer()},  // overflows INTEGER
      {"9223372036854775808", LogicalType::Bigint()},
      {"", LogicalType::Bigint()},
      {"yes", LogicalType::Boolean()},
      {"1.2.3", LogicalType::Double()},
      {"1000", LogicalType::Decimal(5, 2)},     // needs 6 digits
      {"999.995", LogicalType::Decimal(5, 2)},  // rounds up past the precision
      {"1e5", LogicalType::Decimal(10, 2)},
      {std::string(60, '9'), LogicalType::Decimal(38, 0)},
      {"2023-02-30", LogicalType::Date()},
      {"noon", LogicalType::Timestamp()},
  };
  for (const auto& c : cases) {
    try {
      ParsePartitionValue(c.text, c.type, "the_col");
      FAIL() << "no error for '" << c.text << "' as " << c.type.ToString();
    } catch (const InvalidInputError& e) {
      std::string msg = e.what();
      EXPECT_NE(msg.find("the_col"), std::string::npos) << msg;
      EXPECT_NE(msg.find("'" + c.text + "'"), std::string::npos) << msg;
      EXPECT_NE(msg.find(c.type.ToString()), std::string::npos) << msg;
    }
  }
}

}  // namespace
}  // namespace shears

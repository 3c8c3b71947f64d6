// EXPLAIN (ANALYZE, FORMAT JSON) is read by tools (bench/run, scripts): it must be valid JSON for
// every operator, text-valued details (a join's partition filter) included.

#include <gtest/gtest.h>

#include <cctype>
#include <string>

#include "main/connection.h"
#include "test_util.h"

namespace shears {
namespace {

/// A strict JSON syntax check (RFC 8259 values); `pos` ends after the value.
class JsonChecker {
 public:
  explicit JsonChecker(const std::string& text) : text_(text) {}
  bool Valid() {
    pos_ = 0;
    return Value() && (SkipSpace(), pos_ == text_.size());
  }
  size_t pos() const { return pos_; }

 private:
  void SkipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_])))
      pos_++;
  }
  bool Eat(char c) {
    SkipSpace();
    if (pos_ >= text_.size() || text_[pos_] != c) return false;
    pos_++;
    return true;
  }
  bool Value() {
    SkipSpace();
    if (pos_ >= text_.size()) return false;
    const char c = text_[pos_];
    if (c == '{') return Sequence('}', true);
    if (c == '[') return Sequence(']', false);
    if (c == '"') return String();
    for (const char* word : {"true", "false", "null"}) {
      if (text_.compare(pos_, std::string(word).size(), word) == 0) {
        pos_ += std::string(word).size();
        return true;
      }
    }
    return Number();
  }
  bool Sequence(char close, bool object) {
    pos_++;
    if (Eat(close)) return true;
    do {
      if (object && !(SkipSpace(), String() && Eat(':'))) return false;
      if (!Value()) return false;
    } while (Eat(','));
    return Eat(close);
  }
  bool String() {
    if (pos_ >= text_.size() || text_[pos_] != '"') return false;
    for (pos_++; pos_ < text_.size(); pos_++) {
      if (text_[pos_] == '\\') {
        pos_++;
      } else if (text_[pos_] == '"') {
        pos_++;
        return true;
      }
    }
    return false;
  }
  bool Number() {
    const size_t start = pos_;
    if (text_[pos_] == '-') pos_++;
    auto digits = [&] {
      const size_t from = pos_;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_])))
        pos_++;
      return pos_ > from;
    };
    if (!digits()) return false;
    if (pos_ < text_.size() && text_[pos_] == '.' && (pos_++, !digits())) return false;
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      pos_++;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) pos_++;
      if (!digits()) return false;
    }
    return pos_ > start;
  }
  const std::string& text_;
  size_t pos_ = 0;
};

TEST(ExplainJsonTest, CheckerAcceptsJsonAndRejectsBareText) {
  EXPECT_TRUE(JsonChecker(R"({"a":[1,-2.5e3,"x\"y",true,null],"b":{}})").Valid());
  EXPECT_FALSE(JsonChecker(R"({"filter #1":3 distinct keys})").Valid());
  EXPECT_FALSE(JsonChecker(R"({"a":1,})").Valid());
}

TEST(ExplainJsonTest, AnalyzeOfAPrunedJoinIsValidJson) {
  Database database;
  Connection connection(database);
  // An IN subquery on the partition column: the join's partition filter prunes the scan.
  const std::string data = test::DataDir() + "/hive/hive_year_month";
  auto rows = connection
                  .Query("EXPLAIN (ANALYZE, FORMAT JSON) SELECT count(*) FROM '" + data +
                         "' WHERE month IN (SELECT m FROM (VALUES (1), (4)) v(m))")
                  .ToStrings();
  ASSERT_EQ(rows.size(), 1u);
  const std::string& json = rows[0][0];
  JsonChecker checker(json);
  EXPECT_TRUE(checker.Valid()) << "invalid at " << checker.pos() << ": " << json;
  // The join says what it built, as text ("exact_set+range, 2 distinct keys from 2 rows, ...").
  EXPECT_NE(json.find("\"partition_filter_"), std::string::npos) << json;
  EXPECT_NE(json.find("2 distinct keys from 2 rows"), std::string::npos) << json;
  EXPECT_NE(json.find("\"files_read\":"), std::string::npos) << json;
}

// Estimates past int64_t (a cross product of three 10^9-row ranges: 10^27 rows) print readably
// in both formats; converting them to an integer was undefined behaviour (fuzz_sql found it).
TEST(ExplainJsonTest, HugeEstimatesPrintReadably) {
  Database database;
  Connection connection(database);
  const std::string query =
      "SELECT count(*) FROM range(1000000000) a, range(1000000000) b, range(1000000000) c";
  std::string text;
  for (const auto& row : connection.Query("EXPLAIN " + query).ToStrings())
    text += row[0] + "\n";
  EXPECT_NE(text.find("[~1.0e+27 rows]"), std::string::npos) << text;
  EXPECT_EQ(text.find("[~-"), std::string::npos) << text;
  // A cross product has no key: that is why it gets no dynamic filter.
  EXPECT_NE(text.find("no equality key"), std::string::npos) << text;
  EXPECT_EQ(text.find("keeps unmatched probe rows"), std::string::npos) << text;
  const auto rows = connection.Query("EXPLAIN (FORMAT JSON) " + query).ToStrings();
  ASSERT_EQ(rows.size(), 1u);
  JsonChecker checker(rows[0][0]);
  EXPECT_TRUE(checker.Valid()) << "invalid at " << checker.pos() << ": " << rows[0][0];
  EXPECT_NE(rows[0][0].find("\"estimated_rows\":1.0e+27"), std::string::npos) << rows[0][0];
}

}  // namespace
}  // namespace shears

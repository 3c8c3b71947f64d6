// String functions and LIKE.

#include <gtest/gtest.h>

#include "common/error.h"
#include "function/function.h"
#include "function/function_internal.h"
#include "function_test_util.h"

namespace shears {
namespace {

using namespace function_test;

using function_internal::EvaluateFunction;
using function_internal::EvaluateRows;

/// Just the text of a VARCHAR result, for compact expectations.
std::string Text(const std::string& name, const std::vector<Value>& args) {
  Value v = EvaluateFunction(name, args);
  EXPECT_EQ(v.type().ToString(), "VARCHAR") << name;
  return v.ToString();
}
template <typename E>
std::string Fails(const std::string& name, const std::vector<Value>& args) {
  try {
    EvaluateFunction(name, args);
  } catch (const E& e) {
    return e.what();
  }
  return "no error";
}

TEST(FunctionStringTest, Concatenation) {
  EXPECT_EQ(Eval("||", {S("a"), S("b")}), "VARCHAR ab");
  EXPECT_EQ(Eval("||", {S("a"), N()}), "VARCHAR NULL");
  EXPECT_EQ(Eval("||", {S("x"), I(1)}), "VARCHAR x1");
  EXPECT_EQ(Eval("||", {Value::Double(1.5), S("!")}), "VARCHAR 1.5!");
  EXPECT_EQ(Eval("||", {Value::Blob("\x01"), Value::Blob("\x02")}), "BLOB \\x01\\x02");
  EXPECT_THROW(EvaluateFunction("||", {I(1), I(2)}), BinderError);
  EXPECT_EQ(Eval("concat", {S("a"), N(), S("b"), I(1)}), "VARCHAR ab1");
  EXPECT_EQ(Eval("concat", {N(), N()}), "VARCHAR ");
  EXPECT_EQ(Eval("concat_ws", {S(", "), S("a"), N(), S("b")}), "VARCHAR a, b");
  EXPECT_EQ(Eval("concat_ws", {N(), S("a")}), "VARCHAR NULL");
  EXPECT_FALSE(
      FunctionRegistry::Default().Bind("concat", {LogicalType::Varchar()}).null_propagating);
}

TEST(FunctionStringTest, Lengths) {
  EXPECT_EQ(Eval("length", {S("h\xC3\xA9llo")}), "BIGINT 5");
  EXPECT_EQ(Eval("char_length", {S("\xE6\x97\xA5\xE6\x9C\xAC")}), "BIGINT 2");
  EXPECT_EQ(Eval("character_length", {S("")}), "BIGINT 0");
  EXPECT_EQ(Eval("octet_length", {S("h\xC3\xA9llo")}), "BIGINT 6");
  EXPECT_EQ(Eval("octet_length", {Value::Blob(std::string("\x00\x01", 2))}), "BIGINT 2");
  EXPECT_EQ(Eval("length", {N()}), "BIGINT NULL");
}

TEST(FunctionStringTest, CaseMapping) {
  EXPECT_EQ(Text("upper", {S("h\xC3\xA9llo w\xC3\xB6rld")}), "H\xC3\x89LLO W\xC3\x96RLD");
  EXPECT_EQ(Text("lower", {S("\xC3\x80\xC3\x89\xC3\x8E ABC")}), "\xC3\xA0\xC3\xA9\xC3\xAE abc");
  // Greek (final sigma upper-cases to sigma) and Cyrillic.
  EXPECT_EQ(Text("lower", {S("\xCE\xA3\xCE\x91\xCE\xA3")}), "\xCF\x83\xCE\xB1\xCF\x83");
  EXPECT_EQ(Text("upper", {S("\xCF\x82")}), "\xCE\xA3");
  EXPECT_EQ(Text("lower", {S("\xD0\x9F\xD1\x80\xD0\xB8\xD0\x92\xD0\x95\xD0\xA2")}),
            "\xD0\xBF\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82");
  EXPECT_EQ(Text("upper", {S("\xD1\x91")}), "\xD0\x81");  // ё -> Ё
  // Latin Extended-A pairs, both parities.
  EXPECT_EQ(Text("upper", {S("\xC5\x82\xC4\x8D\xC5\xBE")}), "\xC5\x81\xC4\x8C\xC5\xBD");  // łčž
  EXPECT_EQ(Text("lower", {S("\xC5\x81\xC4\x8C\xC5\xBD")}), "\xC5\x82\xC4\x8D\xC5\xBE");
  // ß, × and CJK pass through; ÿ <-> Ÿ.
  EXPECT_EQ(Text("upper", {S("stra\xC3\x9F"
                             "e \xC3\x97 \xE6\x97\xA5")}),
            "STRA\xC3\x9F"
            "E \xC3\x97 \xE6\x97\xA5");
  EXPECT_EQ(Text("upper", {S("\xC3\xBF")}), "\xC5\xB8");
  EXPECT_EQ(Text("ucase", {S("abc")}), "ABC");
  EXPECT_EQ(Text("lcase", {S("ABC")}), "abc");
}

TEST(FunctionStringTest, Substring) {
  EXPECT_EQ(Text("substring", {S("hello"), I(2), I(3)}), "ell");
  EXPECT_EQ(Text("substring", {S("hello"), I(0), I(3)}), "he");
  EXPECT_EQ(Text("substring", {S("hello"), I(-1), I(3)}), "h");
  EXPECT_EQ(Text("substring", {S("hello"), I(-5), I(3)}), "");
  EXPECT_EQ(Text("substring", {S("hello"), I(3)}), "llo");
  EXPECT_EQ(Text("substring", {S("hello"), I(-3)}), "hello");
  EXPECT_EQ(Text("substring", {S("hello"), I(10)}), "");
  EXPECT_EQ(Text("substring", {S("hello"), I(5), I(0)}), "");
  EXPECT_EQ(Text("substring", {S("h\xC3\xA9llo"), I(2), I(2)}), "\xC3\xA9l");
  EXPECT_EQ(Text("substr", {S("\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E"), I(2)}),
            "\xE6\x9C\xAC\xE8\xAA\x9E");
  EXPECT_EQ(Text("substring", {S("hello"), Value::Bigint(INT64_MAX), Value::Bigint(INT64_MAX)}),
            "");
  EXPECT_EQ(Text("substring", {S("hello"), Value::Bigint(INT64_MIN), Value::Bigint(INT64_MAX)}),
            "");
  EXPECT_EQ(Text("substring", {S("hello"), Value::Bigint(2), Value::Bigint(INT64_MAX)}), "ello");
  EXPECT_EQ(Fails<InvalidInputError>("substring", {S("hello"), I(1), I(-1)}),
            "negative substring length not allowed");
  EXPECT_EQ(Eval("substring", {S("hello"), N(), I(1)}), "VARCHAR NULL");
}

TEST(FunctionStringTest, LeftRight) {
  EXPECT_EQ(Text("left", {S("h\xC3\xA9llo"), I(2)}), "h\xC3\xA9");
  EXPECT_EQ(Text("left", {S("hello"), I(-2)}), "hel");
  EXPECT_EQ(Text("left", {S("abc"), I(10)}), "abc");
  EXPECT_EQ(Text("left", {S("abc"), I(-10)}), "");
  EXPECT_EQ(Text("right", {S("h\xC3\xA9llo"), I(4)}), "\xC3\xA9llo");
  EXPECT_EQ(Text("right", {S("hello"), I(-2)}), "llo");
  EXPECT_EQ(Text("right", {S("abc"), I(10)}), "abc");
  EXPECT_EQ(Text("right", {S("abc"), I(-10)}), "");
  EXPECT_EQ(Text("right", {S("abc"), Value::Bigint(INT64_MIN)}), "");
  EXPECT_EQ(Text("left", {S("abc"), Value::Bigint(INT64_MIN)}), "");
}

TEST(FunctionStringTest, Trim) {
  EXPECT_EQ(Text("trim", {S("  a b  ")}), "a b");
  EXPECT_EQ(Text("btrim", {S("  a b  ")}), "a b");
  EXPECT_EQ(Text("ltrim", {S("  a b  ")}), "a b  ");
  EXPECT_EQ(Text("rtrim", {S("  a b  ")}), "  a b");
  EXPECT_EQ(Text("trim", {S("\ta ")}), "\ta");  // only spaces by default
  EXPECT_EQ(Text("trim", {S("xxaxx"), S("x")}), "a");
  EXPECT_EQ(Text("ltrim", {S("abcba"), S("ab")}), "cba");
  EXPECT_EQ(Text("rtrim", {S("abcba"), S("ab")}), "abc");
  EXPECT_EQ(Text("btrim", {S("\xC3\xA9\xC3\xA9"
                             "a\xC3\xA9"),
                           S("\xC3\xA9")}),
            "a");
  // The set holds code points: 'é' must not strip the byte 0xA9 of '©' (C2 A9).
  EXPECT_EQ(Text("trim", {S("\xC2\xA9"), S("\xC3\xA9")}), "\xC2\xA9");
  EXPECT_EQ(Text("trim", {S("aaa"), S("a")}), "");
  EXPECT_EQ(Text("trim", {S("abc"), S("")}), "abc");
}

TEST(FunctionStringTest, SearchAndReplace) {
  EXPECT_EQ(Text("replace", {S("hello world"), S("o"), S("0")}), "hell0 w0rld");
  EXPECT_EQ(Text("replace", {S("aaa"), S("aa"), S("b")}), "ba");
  EXPECT_EQ(Text("replace", {S("abc"), S(""), S("x")}), "abc");
  EXPECT_EQ(Text("replace", {S("abc"), S("b"), S("")}), "ac");
  EXPECT_EQ(Eval("position", {S("hello"), S("ll")}), "BIGINT 3");
  EXPECT_EQ(Eval("position", {S("h\xC3\xA9llo"), S("l")}), "BIGINT 3");
  EXPECT_EQ(Eval("strpos", {S("abc"), S("z")}), "BIGINT 0");
  EXPECT_EQ(Eval("strpos", {S("abc"), S("")}), "BIGINT 1");
  EXPECT_EQ(Eval("instr", {S("abcabc"), S("ca")}), "BIGINT 3");
  EXPECT_EQ(Eval("starts_with", {S("hello"), S("he")}), "BOOLEAN true");
  EXPECT_EQ(Eval("starts_with", {S("hello"), S("lo")}), "BOOLEAN false");
  EXPECT_EQ(Eval("prefix", {S("hello"), S("")}), "BOOLEAN true");
  EXPECT_EQ(Eval("ends_with", {S("hello"), S("lo")}), "BOOLEAN true");
  EXPECT_EQ(Eval("suffix", {S("lo"), S("hello")}), "BOOLEAN false");
  EXPECT_EQ(Eval("contains", {S("hello"), S("ell")}), "BOOLEAN true");
  EXPECT_EQ(Eval("contains", {S("hello"), S("elo")}), "BOOLEAN false");
}

TEST(FunctionStringTest, Padding) {
  EXPECT_EQ(Text("lpad", {S("hi"), I(5), S("xy")}), "xyxhi");
  EXPECT_EQ(Text("rpad", {S("hi"), I(5), S("xy")}), "hixyx");
  EXPECT_EQ(Text("lpad", {S("hello"), I(2)}), "he");
  EXPECT_EQ(Text("rpad", {S("hello"), I(2)}), "he");
  EXPECT_EQ(Text("lpad", {S("hi"), I(4)}), "  hi");
  EXPECT_EQ(Text("rpad", {S("hi"), I(4)}), "hi  ");
  EXPECT_EQ(Text("lpad", {S("hi"), I(5), S("")}), "hi");
  EXPECT_EQ(Text("rpad", {S("\xC3\xA9"), I(3), S("\xC3\xBC")}), "\xC3\xA9\xC3\xBC\xC3\xBC");
  EXPECT_EQ(Text("lpad", {S("x"), I(-1)}), "");
  EXPECT_THROW(EvaluateFunction("lpad", {S("x"), Value::Bigint(int64_t{1} << 40)}),
               OutOfRangeError);
}

TEST(FunctionStringTest, ReverseRepeatSplitPart) {
  EXPECT_EQ(Text("reverse", {S("h\xC3\xA9llo")}), "oll\xC3\xA9h");
  EXPECT_EQ(Text("reverse", {S("")}), "");
  EXPECT_EQ(Text("repeat", {S("ab"), I(3)}), "ababab");
  EXPECT_EQ(Text("repeat", {S("ab"), I(0)}), "");
  EXPECT_EQ(Text("repeat", {S("ab"), I(-1)}), "");
  EXPECT_THROW(EvaluateFunction("repeat", {S("ab"), Value::Bigint(int64_t{1} << 40)}),
               OutOfRangeError);
  EXPECT_EQ(Text("split_part", {S("a,b,c"), S(","), I(2)}), "b");
  EXPECT_EQ(Text("split_part", {S("a,b,c"), S(","), I(4)}), "");
  EXPECT_EQ(Text("split_part", {S("a,b,c"), S(","), I(-1)}), "c");
  EXPECT_EQ(Text("split_part", {S("a,b,c"), S(","), I(-3)}), "a");
  EXPECT_EQ(Text("split_part", {S("a,b,c"), S(","), I(-4)}), "");
  EXPECT_EQ(Text("split_part", {S("a,,b"), S(","), I(2)}), "");
  EXPECT_EQ(Text("split_part", {S("a::b::c"), S("::"), I(3)}), "c");
  EXPECT_EQ(Text("split_part", {S("abc"), S(""), I(1)}), "abc");
  EXPECT_EQ(Text("split_part", {S("abc"), S(""), I(2)}), "");
  EXPECT_EQ(Fails<InvalidInputError>("split_part", {S("abc"), S(","), I(0)}),
            "field position must not be zero");
  EXPECT_EQ(Eval("ascii", {S("\xC3\xA9t\xC3\xA9")}), "INTEGER 233");
  EXPECT_EQ(Eval("ascii", {S("A")}), "INTEGER 65");
  EXPECT_EQ(Text("chr", {I(233)}), "\xC3\xA9");
  EXPECT_EQ(Text("chr", {I(0x1F600)}), "\xF0\x9F\x98\x80");
  // chr(0) is the NUL character, as in DuckDB; negative code points are not characters.
  EXPECT_EQ(Text("chr", {I(0)}), std::string(1, '\0'));
  EXPECT_THROW(EvaluateFunction("chr", {I(-1)}), OutOfRangeError);
}

TEST(FunctionStringTest, BatchWithNulls) {
  BoundScalarFunction f = FunctionRegistry::Default().Bind(
      "substring", {LogicalType::Varchar(), LogicalType::Integer(), LogicalType::Integer()});
  std::vector<Value> s = {S("abcdef"), N(), S("xyz"), S("\xC3\xA9\xC3\xA9")};
  std::vector<Value> start = {I(2), I(1), N(), I(2)};
  std::vector<Value> len = {I(2), I(1), I(1), I(5)};
  std::vector<std::string> shown;
  for (const Value& v : EvaluateRows(f, {s, start, len}, 4))
    shown.push_back(v.ToString());
  EXPECT_EQ(shown, (std::vector<std::string>{"bc", "NULL", "NULL", "\xC3\xA9"}));
}

// ---------------------------------------------------------------- LIKE

std::string Like(const std::string& value, const std::string& pattern) {
  return EvaluateFunction("like", {S(value), S(pattern)}).ToString();
}
std::string ILike(const std::string& value, const std::string& pattern) {
  return EvaluateFunction("ilike", {S(value), S(pattern)}).ToString();
}
std::string LikeEscape(const std::string& value, const std::string& pattern,
                       const std::string& escape) {
  return EvaluateFunction("like", {S(value), S(pattern), S(escape)}).ToString();
}

TEST(FunctionLikeTest, FastPathShapes) {
  EXPECT_EQ(Like("hello", "hello"), "true");
  EXPECT_EQ(Like("hello", "hell"), "false");
  EXPECT_EQ(Like("hello", "h%"), "true");
  EXPECT_EQ(Like("hello", "x%"), "false");
  EXPECT_EQ(Like("hello", "%llo"), "true");
  EXPECT_EQ(Like("hello", "%lo!"), "false");
  EXPECT_EQ(Like("hello", "%ell%"), "true");
  EXPECT_EQ(Like("hello", "%elo%"), "false");
  EXPECT_EQ(Like("abc", "a%c"), "true");
  EXPECT_EQ(Like("ac", "a%c"), "true");
  EXPECT_EQ(Like("a", "a%a"), "false");  // prefix and suffix must not overlap
  EXPECT_EQ(Like("aa", "a%a"), "true");
  EXPECT_EQ(Like("", "%"), "true");
  EXPECT_EQ(Like("", ""), "true");
  EXPECT_EQ(Like("x", ""), "false");
  EXPECT_EQ(Like("abc", "%%"), "true");
  EXPECT_EQ(Like("hello", "Hello"), "false");
}

TEST(FunctionLikeTest, GeneralPatterns) {
  EXPECT_EQ(Like("hello", "h_llo"), "true");
  EXPECT_EQ(Like("hello", "h_lo"), "false");
  EXPECT_EQ(Like("", "_"), "false");
  EXPECT_EQ(Like("xaybzc", "%a%b%c%"), "true");
  EXPECT_EQ(Like("xcybza", "%a%b%c%"), "false");
  EXPECT_EQ(Like("aaab", "%aab"), "true");
  EXPECT_EQ(Like("xabdabc", "%a_c%"), "true");
  EXPECT_EQ(Like("xabdab", "%a_c%"), "false");
  EXPECT_EQ(Like("abcabc", "a%b_"), "true");
  EXPECT_EQ(Like("abcab", "a%b_"), "false");
  EXPECT_EQ(Like("ab", "a%%b"), "true");
  EXPECT_EQ(Like("abc", "___"), "true");
  EXPECT_EQ(Like("abcd", "___"), "false");
  EXPECT_EQ(Like("mississippi", "%iss%ipp%"), "true");
  EXPECT_EQ(Like("mississippi", "m%iss%iss%iss%"), "false");
}

TEST(FunctionLikeTest, MultiByteCodePoints) {
  EXPECT_EQ(Like("h\xC3\xA9llo", "h_llo"), "true");
  EXPECT_EQ(Like("h\xC3\xA9llo", "h__llo"), "false");
  EXPECT_EQ(Like("\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E", "_\xE6\x9C\xAC_"), "true");
  EXPECT_EQ(Like("\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E", "%\xE8\xAA\x9E"), "true");
  EXPECT_EQ(Like("\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E", "__"), "false");
  EXPECT_EQ(Like("a\xF0\x9F\x98\x80z", "a_z"), "true");
  EXPECT_EQ(Like("\xF0\x9F\x98\x80\xF0\x9F\x98\x81", "%_\xF0\x9F\x98\x81"), "true");
  EXPECT_EQ(ILike("\xC3\x89"
                  "COLE",
                  "\xC3\xA9"
                  "c%"),
            "true");
  EXPECT_EQ(ILike("HELLO", "h_llo"), "true");
  EXPECT_EQ(ILike("\xD0\x9F\xD0\xA0\xD0\x98", "%\xD1\x80\xD0\xB8"), "true");  // ПРИ ~ ри
}

TEST(FunctionLikeTest, Escapes) {
  // Without ESCAPE, backslash escapes (PostgreSQL).
  EXPECT_EQ(Like("100%", "100\\%"), "true");
  EXPECT_EQ(Like("1000", "100\\%"), "false");
  EXPECT_EQ(Like("a_b", "a\\_b"), "true");
  EXPECT_EQ(Like("axb", "a\\_b"), "false");
  EXPECT_EQ(Like("a\\b", "a\\\\b"), "true");
  EXPECT_EQ(LikeEscape("50%", "50!%", "!"), "true");
  EXPECT_EQ(LikeEscape("50x", "50!%", "!"), "false");
  EXPECT_EQ(LikeEscape("a!b", "a!!b", "!"), "true");
  EXPECT_EQ(LikeEscape("a\\b", "a\\b", ""), "true");                // ESCAPE '' turns escaping off
  EXPECT_EQ(LikeEscape("a%b", "a\xC3\xA9%b", "\xC3\xA9"), "true");  // multi-byte escape
  EXPECT_EQ(LikeEscape("ab", "a\xC3\xA9%b", "\xC3\xA9"), "false");
  EXPECT_THROW(EvaluateFunction("like", {S("a"), S("a\\")}), InvalidInputError);
  EXPECT_THROW(EvaluateFunction("like", {S("a"), S("a"), S("ab")}), InvalidInputError);
}

TEST(FunctionLikeTest, NegationsAndNulls) {
  EXPECT_EQ(Eval("not_like", {S("hello"), S("h%")}), "BOOLEAN false");
  EXPECT_EQ(Eval("not_like", {S("hello"), S("x%")}), "BOOLEAN true");
  EXPECT_EQ(Eval("ilike", {S("Hello"), S("hello")}), "BOOLEAN true");
  EXPECT_EQ(Eval("not_ilike", {S("Hello"), S("HELLO")}), "BOOLEAN false");
  EXPECT_EQ(Eval("like", {N(), S("x")}), "BOOLEAN NULL");
  EXPECT_EQ(Eval("like", {S("x"), N()}), "BOOLEAN NULL");
  EXPECT_EQ(Eval("like", {S("x"), S("x"), N()}), "BOOLEAN NULL");
}

TEST(FunctionLikeTest, PatternsChangingPerRowAndCachedAcrossBatches) {
  BoundScalarFunction f =
      FunctionRegistry::Default().Bind("like", {LogicalType::Varchar(), LogicalType::Varchar()});
  std::vector<Value> values = {S("abc"), S("abc"), S("xyz"), N(), S("xyz")};
  std::vector<Value> patterns = {S("a%"), S("%z"), S("x%"), S("x%"), S("x%")};
  std::vector<std::string> shown;
  for (const Value& v : EvaluateRows(f, {values, patterns}, 5))
    shown.push_back(v.ToString());
  EXPECT_EQ(shown, (std::vector<std::string>{"true", "false", "true", "NULL", "true"}));
  // Same bound function again: the cached "x%" must not leak into a different pattern.
  shown.clear();
  for (const Value& v : EvaluateRows(f, {{S("xyz"), S("xyz")}, {S("x%"), S("%y")}}, 2)) {
    shown.push_back(v.ToString());
  }
  EXPECT_EQ(shown, (std::vector<std::string>{"true", "false"}));
}

}  // namespace
}  // namespace shears

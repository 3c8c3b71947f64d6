#include "parser/type_text.h"

#include <cctype>
#include <cstdlib>

#include "common/error.h"
#include "common/string_util.h"

namespace shears {
namespace {

class TypeTextParser {
 public:
  explicit TypeTextParser(std::string_view text) : text_(text) {}

  ast::TypeName ParseAll() {
    ast::TypeName type = Type();
    SkipSpace();
    if (pos_ != text_.size()) Fail("the end of the type");
    return type;
  }

 private:
  // type := words [ ( args ) ] { [] }
  ast::TypeName Type() {
    ast::TypeName type;
    std::string word = Word();
    if (word.empty()) Fail("a type name");
    type.name = AsciiLower(word);
    // Multi-word names: DOUBLE PRECISION, TIMESTAMP WITH TIME ZONE, CHARACTER VARYING.
    while (true) {
      const size_t save = pos_;
      std::string next = Word();
      if (next.empty()) break;
      const std::string lower = AsciiLower(next);
      if (lower == "precision" || lower == "with" || lower == "without" || lower == "time" ||
          lower == "zone" || lower == "varying") {
        type.name += " " + lower;
      } else {
        pos_ = save;
        break;
      }
    }
    if (Accept('(')) {
      if (type.name == "struct" || type.name == "row") {
        type.name = "struct";
        do {
          type.field_names.push_back(Name());
          type.children.push_back(Type());
        } while (Accept(','));
      } else if (type.name == "map") {
        type.children.push_back(Type());
        Expect(',');
        type.children.push_back(Type());
      } else {
        do {
          SkipSpace();
          const size_t start = pos_;
          if (pos_ < text_.size() && text_[pos_] == '-') pos_++;
          while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_])))
            pos_++;
          if (start == pos_) Fail("a number");
          type.modifiers.push_back(
              std::atoi(std::string(text_.substr(start, pos_ - start)).c_str()));
        } while (Accept(','));
      }
      Expect(')');
    }
    while (Accept('[')) {
      Expect(']');
      type.array_depth++;
    }
    return type;
  }

  // A field name: a word or a quoted identifier ("a b", with "" for a quote).
  std::string Name() {
    SkipSpace();
    if (pos_ < text_.size() && (text_[pos_] == '"' || text_[pos_] == '\'')) {
      const char quote = text_[pos_++];
      std::string name;
      while (true) {
        if (pos_ >= text_.size()) Fail("the closing quote of a field name");
        const char c = text_[pos_++];
        if (c == quote) {
          if (pos_ < text_.size() && text_[pos_] == quote) {
            name += quote;
            pos_++;
            continue;
          }
          break;
        }
        name += c;
      }
      return name;
    }
    std::string word = Word();
    if (word.empty()) Fail("a field name");
    return word;
  }

  std::string Word() {
    SkipSpace();
    const size_t start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
      pos_++;
    return std::string(text_.substr(start, pos_ - start));
  }

  void SkipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_])))
      pos_++;
  }
  bool Accept(char c) {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      pos_++;
      return true;
    }
    return false;
  }
  void Expect(char c) {
    if (!Accept(c)) Fail(std::string("'") + c + "'");
  }
  [[noreturn]] void Fail(const std::string& expected) {
    throw ParseError("invalid type '{}': expected {} at offset {}", text_, expected, pos_);
  }

  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

ast::TypeName ParseTypeText(std::string_view text) {
  return TypeTextParser(text).ParseAll();
}

}  // namespace shears

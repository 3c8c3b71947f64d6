#include "shell/statement_splitter.h"

#include <cctype>

namespace shears {

namespace {

// Scans `text` from the start; returns the offset just past the first `;` outside quotes and
// comments, or npos. `content` tells whether anything but blanks and comments was seen before.
size_t FindStatementEnd(const std::string& text, bool* content) {
  *content = false;
  size_t i = 0;
  const size_t n = text.size();
  while (i < n) {
    const char c = text[i];
    if (c == '-' && i + 1 < n && text[i + 1] == '-') {
      const size_t eol = text.find('\n', i);
      i = eol == std::string::npos ? n : eol + 1;
      continue;
    }
    if (c == '/' && i + 1 < n && text[i + 1] == '*') {
      // PostgreSQL block comments nest.
      int depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (text[i] == '/' && i + 1 < n && text[i + 1] == '*') {
          depth++;
          i += 2;
        } else if (text[i] == '*' && i + 1 < n && text[i + 1] == '/') {
          depth--;
          i += 2;
        } else {
          i++;
        }
      }
      continue;
    }
    if (c == ';') return i + 1;
    if (!std::isspace(static_cast<unsigned char>(c))) *content = true;
    if (c == '\'' || c == '"') {
      // A doubled quote inside is an escaped quote: scanning on from it reopens the string.
      const size_t close = text.find(c, i + 1);
      i = close == std::string::npos ? n : close + 1;
      continue;
    }
    if (c == '$') {
      // Dollar quoting: $$...$$ or $tag$...$tag$ (a tag is an identifier, not a number as in $1).
      size_t tag_end = i + 1;
      while (tag_end < n &&
             (std::isalnum(static_cast<unsigned char>(text[tag_end])) || text[tag_end] == '_')) {
        tag_end++;
      }
      const bool is_tag =
          tag_end < n && text[tag_end] == '$' &&
          (tag_end == i + 1 || !std::isdigit(static_cast<unsigned char>(text[i + 1])));
      if (is_tag) {
        const std::string tag = text.substr(i, tag_end - i + 1);
        const size_t close = text.find(tag, tag_end + 1);
        i = close == std::string::npos ? n : close + tag.size();
        continue;
      }
    }
    i++;
  }
  return std::string::npos;
}

}  // namespace

bool HasSqlContent(const std::string& text) {
  bool content = false;
  size_t offset = 0;
  while (offset < text.size()) {
    const size_t end = FindStatementEnd(text.substr(offset), &content);
    if (content) return true;
    if (end == std::string::npos) break;
    offset += end;
  }
  return false;
}

void StatementSplitter::AddLine(const std::string& line) {
  buffer_ += line;
  buffer_ += '\n';
}

std::optional<std::string> StatementSplitter::Next() {
  while (true) {
    bool content = false;
    const size_t end = FindStatementEnd(buffer_, &content);
    if (end == std::string::npos) return std::nullopt;
    std::string statement = buffer_.substr(0, end);
    buffer_.erase(0, end);
    // An empty statement (";" alone) is skipped, as the parser would.
    if (content) return statement;
  }
}

std::optional<std::string> StatementSplitter::TakeRest() {
  std::string rest;
  rest.swap(buffer_);
  if (!HasSqlContent(rest)) return std::nullopt;
  return rest;
}

bool StatementSplitter::Empty() const {
  return !HasSqlContent(buffer_);
}

}  // namespace shears

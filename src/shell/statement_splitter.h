#pragma once
// Cuts the shell's input into statements: a statement ends at a `;` that is outside quotes
// ('...', "...", $tag$...$tag$) and comments (-- to the end of the line, nested /* */).

#include <optional>
#include <string>

namespace shears {

class StatementSplitter {
 public:
  /// Appends one input line (a newline is added after it).
  void AddLine(const std::string& line);
  /// The next complete statement, up to and including its `;`, with the text before it that
  /// held only blanks and comments; nullopt when no complete statement is buffered.
  std::optional<std::string> Next();
  /// The buffered text that has no `;` yet, for running at end of input (nullopt when it is
  /// only blanks and comments); empties the buffer.
  std::optional<std::string> TakeRest();
  /// True when nothing but blanks and comments is buffered (the shell then shows its main
  /// prompt and accepts dot commands).
  bool Empty() const;
  void Clear() { buffer_.clear(); }
  /// The buffered text.
  const std::string& text() const { return buffer_; }

 private:
  std::string buffer_;
};

/// True when `text` holds something other than blanks and SQL comments.
bool HasSqlContent(const std::string& text);

}  // namespace shears

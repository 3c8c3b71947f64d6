#pragma once
// SQL text -> shears AST, using libpg_query (PostgreSQL's own grammar) for the parse.
//
// Beyond PostgreSQL's grammar, a string literal in FROM or JOIN position names a file,
// directory or glob: `FROM 'data/sales'` is read as `FROM read_parquet('data/sales')`.

#include <string>
#include <vector>

#include "parser/ast.h"

namespace shears {

class Parser {
 public:
  /// Parses one or more `;`-separated statements. Throws ParseError with the position
  /// (line, column and a caret under the offending text) for malformed SQL, and
  /// NotSupportedError naming the construct for valid SQL that shears does not support.
  static std::vector<ast::StatementPtr> Parse(const std::string& sql);
};

/// DuckDB's `a POSITIONAL JOIN b` reaches the binder as `a FULL JOIN b ON <this column>`.
inline constexpr const char* kPositionalJoinMarker = "__shears_positional__";

/// Formats "LINE n: <the line>\n<spaces>^" for an error at byte `offset` of `sql`.
std::string FormatErrorPosition(const std::string& sql, int offset);

}  // namespace shears

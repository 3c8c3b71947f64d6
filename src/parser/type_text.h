#pragma once
// DuckDB's type text, for the type names PostgreSQL's grammar cannot hold: STRUCT(a INTEGER,
// b VARCHAR[]), MAP(INTEGER, VARCHAR), INTEGER[][], DECIMAL(10,2). The SQL rewrite hands a
// STRUCT(...) / MAP(...) type to the grammar as `__shears_type('text')` (FindNestedTypeNames),
// the transformer reads the text back here; CREATE TABLE's column list does the same.

#include <string_view>

#include "parser/ast.h"

namespace shears {

/// The type the text spells; a ParseError naming what it expected otherwise.
ast::TypeName ParseTypeText(std::string_view text);

}  // namespace shears

#pragma once
// Runs the statements that write Parquet: COPY (query) TO 'path' (...), CREATE TABLE [AS],
// INSERT INTO. See docs/writing.md.

#include <string>

#include "main/connection.h"
#include "parser/ast.h"

namespace shears {

/// `sql` is the text the statement came from (for error positions).
QueryResult RunWriteStatement(Database& database, const Settings& settings, const std::string& sql,
                              const ast::Statement& statement);

}  // namespace shears

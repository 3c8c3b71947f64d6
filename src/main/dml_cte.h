#pragma once
// Writes in WITH (dml_cte.cpp).

#include <string>

#include "common/settings.h"
#include "main/connection.h"
#include "parser/ast.h"

namespace shears {

/// Whether the statement is a SELECT with WITH name AS (INSERT | UPDATE | DELETE ...) at its
/// top.
bool HasDmlCte(const ast::Statement& statement);

/// Runs those writes, in order, and returns a copy of the statement whose CTEs read what each
/// returned (RETURNING's rows, or a row per row written).
ast::StatementPtr RunDmlCtes(Database& database, const Settings& settings, const std::string& sql,
                             const ast::Statement& statement);

}  // namespace shears

#pragma once
// Generated columns (DuckDB's `g AS (expr)`, VIRTUAL): a managed table's files hold only its
// stored columns; a query reading the table reads it through a query that computes the
// generated ones from the row, in layers, so that one may read another (docs/writing.md).

#include <string>
#include <vector>

#include "catalog/catalog.h"

namespace shears {

/// The query text that reads a table with generated columns: `from` (a FROM item giving the
/// stored columns, e.g. `"x" AS "t"`; `alias` is its alias) with each generated column
/// computed (cast to its type when valid; left as the expression's type when not, which
/// CREATE TABLE uses to infer it), then every column in `table`'s visible order.
/// BinderError for generated columns that read each other in a circle.
std::string GeneratedColumnsQuery(const TableDefinition& table, const std::string& from,
                                  const std::string& alias);

/// A SQL identifier in double quotes.
std::string QuotedIdentifier(const std::string& name);

/// The lower-case names of the columns `sql` (an expression) names.
std::vector<std::string> ReferencedColumns(const std::string& sql);

}  // namespace shears

#pragma once
// Runs the catalog statements: CREATE EXTERNAL TABLE, DROP TABLE, SHOW TABLES, DESCRIBE,
// SHOW PARTITIONS, ALTER TABLE ... RECOVER PARTITIONS / MSCK REPAIR TABLE.

#include <string>

#include "catalog/catalog.h"
#include "main/connection.h"
#include "parser/ast.h"

namespace shears {

/// `sql` is the text the statement came from (for error positions).
QueryResult RunCatalogStatement(Catalog& catalog, const std::string& sql,
                                const ast::Statement& statement);

}  // namespace shears

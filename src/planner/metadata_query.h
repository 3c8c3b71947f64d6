#pragma once
// The catalog as queries: information_schema's views and DuckDB's metadata table functions
// (duckdb_tables(), duckdb_columns(), ...), each a SELECT over VALUES built from one walk of
// the catalog (bind_metadata.cpp), bound by the binder like a view's query.

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "catalog/catalog.h"

namespace shears {

class Settings;

/// The columns of a view (names and types), from binding its query; empty when it no longer
/// binds.
using ViewColumns = std::function<std::pair<std::vector<std::string>, std::vector<LogicalType>>(
    const ViewDefinition&)>;

/// The query information_schema.`view` ("tables", "columns" or "schemata") stands for, over
/// `catalog`'s own database.
std::string InformationSchemaQuery(const Catalog& catalog, const std::string& view,
                                   const ViewColumns& view_columns);

/// The query of DuckDB's metadata table function `function` (lower-case) with constant
/// arguments `args` as text, over every attached database; nullopt when `function` is not
/// one. BinderError for wrong arguments.
std::optional<std::string> MetadataFunctionQuery(const Catalog& catalog, const Settings* settings,
                                                 const std::string& function,
                                                 const std::vector<std::string>& args,
                                                 const ViewColumns& view_columns);

/// The query of DuckDB's test_all_types(): a row of each type's smallest values, one of its
/// largest and one of NULLs, for the types shears has (test_all_types.cpp).
std::string TestAllTypesQuery();

}  // namespace shears

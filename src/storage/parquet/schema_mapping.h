#pragma once
// Parquet's schema and shears' types, both ways, in one place: the reader maps each primitive
// schema element of a file to a shears type, the writer maps each shears type to the schema
// element it writes, and a column shears writes reads back as its own type.

#include <string>
#include <vector>

#include "common/types.h"
#include "storage/parquet/parquet_file.h"

namespace shears::parquet {

/// Reading: the shears type of one primitive schema element (with its physical type, width,
/// conversion, sort order and readable type name) into `column`; a type shears cannot read
/// leaves `column->type` invalid and says why in `column->unsupported_reason`.
void MapPrimitive(const format::SchemaElement& element, ColumnDescriptor* column);

/// Writing: the schema element of a flat OPTIONAL column of `type`.
format::SchemaElement SchemaFor(const std::string& name, const LogicalType& type);

/// Writing: the schema elements of a column, in schema order: SchemaFor's one for a flat
/// column; for a LIST(T) `<optional> group name (LIST) { repeated group list { <optional> T
/// element } }`. NotSupportedError for element types that cannot be written.
std::vector<format::SchemaElement> SchemaElementsFor(const std::string& name,
                                                     const LogicalType& type);

/// INTERVAL columns cannot be written yet: an error naming `name`.
[[noreturn]] void ThrowIntervalNotWritable(const std::string& name);

}  // namespace shears::parquet

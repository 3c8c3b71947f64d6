#pragma once
// read_json (DuckDB's): JSON files (newline-delimited, a top-level array, or values one after
// another) of objects become a table whose columns are the objects' keys, with types detected
// from every record: BOOLEAN, BIGINT, DOUBLE, DATE and TIMESTAMP (ISO strings), VARCHAR, LIST
// of those for arrays of scalars, and VARCHAR holding the JSON text for nested objects and mixed
// values. The files are read and parsed when the query is bound, into memory (a MemoryTable
// scanned like any table), so the input must fit in memory.

#include <memory>
#include <string>

#include "common/value.h"
#include "storage/dataset.h"

namespace shears {

struct JsonOptions {
  enum class Format { kAuto, kNewlineDelimited, kArray, kUnstructured };
  Format format = Format::kAuto;
  /// Newline-delimited input: a line that does not parse is a row of NULLs, not an error.
  bool ignore_errors = false;
  /// Adds a VARCHAR column `filename` with each row's file.
  bool filename = false;

  /// Sets the option `name` (DuckDB's spelling) from a constant; an unknown option or a bad
  /// value is a BinderError naming it.
  void Set(const std::string& name, const Value& value);
};

std::shared_ptr<Dataset> OpenJsonDataset(const std::string& path_or_glob,
                                         const JsonOptions& options);

}  // namespace shears

#pragma once
// Query results as an Arrow C stream (arrow_c_abi.h): one struct array per result batch,
// whose columns point into the result's own vectors where the layouts agree (INTEGER, BIGINT,
// DOUBLE, DATE, TIMESTAMP, DECIMAL(p > 18), and every validity bitmap: shears' masks are
// Arrow's bitmaps). BOOLEAN (bytes to bits), REAL (doubles to floats), DECIMAL(p <= 18)
// (to 128 bits) and strings (offsets and one data buffer) are converted per batch. Holds no
// Python object, so a consumer may release it on any thread.

#include <memory>

#include "main/connection.h"
#include "python/arrow_c_abi.h"

namespace shears::python {

/// Fills `out` with a stream over the rows of `result`, which it keeps alive until released.
void ExportArrowStream(std::shared_ptr<const QueryResult> result, ArrowArrayStream* out);

/// Arrow's format string of a shears type ("l", "tsu:", "d:12,2", ...).
std::string ArrowFormat(const LogicalType& type);

}  // namespace shears::python

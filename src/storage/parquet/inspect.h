#pragma once

#include <iosfwd>

#include "storage/parquet/parquet_file.h"

namespace shears::parquet {

/// Prints what `shears inspect` shows: file summary, schema with shears types, and per row
/// group each column chunk's codec, encodings, sizes, statistics, page index and bloom filter.
void DescribeParquetFile(const ParquetFile& file, std::ostream& out);

}  // namespace shears::parquet

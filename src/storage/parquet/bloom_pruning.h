#pragma once
// Bloom filter pruning: a column chunk's Parquet split-block bloom filter probed with the keys
// of a runtime filter's exact set (or listed bitmap); when none may be in the chunk, its row group
// holds no row that can join. Only for chunks storing the key as the filter holds it (plain INT32 /
// INT64 / BYTE_ARRAY, no conversion), since the bloom filter hashes the stored bytes.

#include "dynfilter/runtime_filter.h"
#include "storage/parquet/parquet_file.h"

namespace shears::parquet {

/// False when the bloom filter of column `column` in `row_group` rules out every key of
/// `filter` (a single-column exact set or listed bitmap) and the column is stored as `key_type`.
/// True when it cannot be told (no bloom filter, another representation, keys not listed).
bool BloomMayMatch(const RuntimeFilter& filter, const ParquetFile& file, int column, int row_group,
                   const LogicalType& key_type);

}  // namespace shears::parquet

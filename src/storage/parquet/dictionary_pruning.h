#pragma once
// Dictionary pruning: a column chunk whose every data page is dictionary encoded holds only
// its dictionary's values, so a runtime filter sharing no key with the dictionary rules the
// row group out (one page read, often a few hundred bytes, instead of the chunk).

#include <cstdint>
#include <memory>

#include "dynfilter/runtime_filter.h"
#include "expression/expression.h"
#include "storage/parquet/column_reader.h"
#include "storage/parquet/parquet_file.h"

namespace shears::parquet {

/// False when `filter` (one key column) lets no entry of the dictionary of column `column` of
/// `row_group` through. True when that cannot be told (no dictionary, or plain pages too, or
/// an unreadable page: the read reports it). Adds the bytes read to `*bytes_read`. `key_expr`
/// (over #0, the column): the key is computed from the column, so each entry's key is
/// computed and tested (exact for any computation; one it fails on tells nothing). `matches`
/// (optional): how many entries are keys, counted in the first slice of a batch that holds one
/// (at least 1 when true; 0 when nothing was counted), for the pacing to tell a filter that
/// cannot prune such data. `decoded` (optional): the chunk's dictionary as an earlier check of
/// the same row group decoded it (used instead of reading the page), else set to the one this
/// check decoded (null when there is none), for the row group's reader (AdoptDictionary).
bool DictionaryMayMatch(const RuntimeFilter& filter, const ParquetFile& file, int column,
                        int row_group, uint64_t* bytes_read, const BoundExpr* key_expr = nullptr,
                        uint32_t* matches = nullptr,
                        std::shared_ptr<const DecodedDictionary>* decoded = nullptr);

}  // namespace shears::parquet

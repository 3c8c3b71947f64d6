#pragma once
// Page pruning: from the column index (per-page min/max/null pages) of a row group, the rows
// that can satisfy the scan's literal predicates and its runtime join filters. The reader then
// reads only the pages holding those rows (ParquetReader::SelectRows).
//
// Columns break their pages at different rows, so the row group is cut at every page
// boundary of every indexed column; each piece lies inside one page of each column, whose
// bounds stand in for the piece's statistics (StatsMayMatch, the form row-group pruning uses).

#include <vector>

#include "dynfilter/runtime_filter.h"
#include "storage/parquet/minmax_pruning.h"
#include "storage/parquet/page_index.h"

namespace shears {

/// The page index of one scan column in a row group; both null when it has none (or its
/// bounds are not in the scan column's type).
struct PageIndexColumn {
  const parquet::ColumnIndexData* column_index = nullptr;
  const format::OffsetIndex* offset_index = nullptr;
};

/// Row ranges of a row group of `num_rows` by the scan's `conjuncts` (over scan columns, the
/// literal ones before the runtime ones, BoundRuntimeFilter): [0] those the literal conjuncts
/// may match, [slot + 1] those also passing the runtime conjuncts of slots 0..slot, each checked
/// with `runtime[slot]` (null: not checked, passes). `columns` has one entry per scan column.
std::vector<parquet::RowRanges> PageRowRanges(int64_t num_rows,
                                              const std::vector<PageIndexColumn>& columns,
                                              const std::vector<const BoundExpr*>& conjuncts,
                                              const std::vector<const RuntimeFilter*>& runtime);

/// Statistics of page `page` of a column from its index (`rows`: the rows the page holds).
parquet::ColumnChunkStatistics PageStatistics(const parquet::ColumnIndexData& index, size_t page,
                                              int64_t rows);

}  // namespace shears

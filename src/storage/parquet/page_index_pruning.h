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

/// A published runtime filter and the scan columns of its key.
struct PagePruningRuntimeFilter {
  const RuntimeFilter* filter = nullptr;
  std::vector<idx_t> key_columns;
  ComputedRuntimeKey computed;  // the key computed from its one column (minmax_pruning.h)
};

/// Row ranges of a row group of `num_rows`: [0] those `filters` (conjuncts over scan columns)
/// may match, [i + 1] those also passing runtime filters 0..i. `columns` has one entry per scan
/// column.
std::vector<parquet::RowRanges> PageRowRanges(int64_t num_rows,
                                              const std::vector<PageIndexColumn>& columns,
                                              const std::vector<const BoundExpr*>& filters,
                                              const std::vector<PagePruningRuntimeFilter>& runtime);

/// Statistics of page `page` of a column from its index (`rows`: the rows the page holds).
parquet::ColumnChunkStatistics PageStatistics(const parquet::ColumnIndexData& index, size_t page,
                                              int64_t rows);

}  // namespace shears

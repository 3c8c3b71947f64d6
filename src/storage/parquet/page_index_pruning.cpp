#include "storage/parquet/page_index_pruning.h"

#include <algorithm>

namespace shears {

parquet::ColumnChunkStatistics PageStatistics(const parquet::ColumnIndexData& index, size_t page,
                                              int64_t rows) {
  parquet::ColumnChunkStatistics stats;
  stats.num_values = rows;
  if (index.null_pages[page]) {
    stats.null_count = rows;
    return stats;
  }
  if (!index.null_counts.empty() && index.null_counts[page] >= 0) {
    stats.null_count = index.null_counts[page];
  }
  const auto& min = index.min_values[page];
  const auto& max = index.max_values[page];
  if (min && max) {
    stats.min = min;
    stats.max = max;
    if (index.max_may_exclude_nan) parquet::WidenFloatingBounds(&stats.min, &stats.max);
  }
  return stats;
}

namespace {

void Append(parquet::RowRanges& ranges, int64_t begin, int64_t end) {
  if (!ranges.empty() && ranges.back().end == begin) {
    ranges.back().end = end;
  } else {
    ranges.push_back({begin, end});
  }
}

}  // namespace

std::vector<parquet::RowRanges> PageRowRanges(int64_t num_rows,
                                              const std::vector<PageIndexColumn>& columns,
                                              const std::vector<const BoundExpr*>& conjuncts,
                                              const std::vector<const RuntimeFilter*>& runtime) {
  // The key columns of each runtime conjunct, by slot.
  std::vector<std::vector<idx_t>> key_columns;
  for (const BoundExpr* conjunct : conjuncts) {
    if (conjunct->kind == BoundExprKind::kRuntimeFilter)
      key_columns.push_back(RuntimeKeyColumns(static_cast<const BoundRuntimeFilter&>(*conjunct)));
  }
  std::vector<parquet::RowRanges> result(key_columns.size() + 1);
  std::vector<int64_t> cuts = {0, num_rows};
  for (const auto& column : columns) {
    if (!column.column_index) continue;
    for (const auto& location : column.offset_index->page_locations)
      cuts.push_back(location.first_row_index);
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());

  // Each indexed column's current page and its statistics.
  std::vector<size_t> page(columns.size(), 0);
  std::vector<parquet::ColumnChunkStatistics> stats(columns.size());
  std::vector<bool> stale(columns.size(), true);
  const StatsLookup lookup = [&](idx_t column) -> const parquet::ColumnChunkStatistics* {
    const auto& c = columns[column];
    if (!c.column_index) return nullptr;
    if (stale[column]) {
      const auto rows = parquet::PageRows(*c.offset_index, num_rows, page[column]);
      stats[column] = PageStatistics(*c.column_index, page[column], rows.end - rows.begin);
      stale[column] = false;
    }
    return &stats[column];
  };
  for (size_t k = 0; k + 1 < cuts.size(); k++) {
    const int64_t begin = cuts[k], end = cuts[k + 1];
    for (size_t c = 0; c < columns.size(); c++) {
      if (!columns[c].column_index) continue;
      const auto& locations = columns[c].offset_index->page_locations;
      while (page[c] + 1 < locations.size() && locations[page[c] + 1].first_row_index <= begin) {
        page[c]++;
        stale[c] = true;
      }
    }
    // One loop over the conjuncts: a piece the literal ones may match counts in [0], then in
    // [slot + 1] while the runtime ones up to `slot` pass it too.
    bool passed = true;
    bool in_literal_ranges = false;
    for (const BoundExpr* conjunct : conjuncts) {
      if (conjunct->kind != BoundExprKind::kRuntimeFilter) {
        passed = StatsMayMatch(*conjunct, lookup);
        if (!passed) break;
        continue;
      }
      if (!in_literal_ranges) Append(result[0], begin, end);
      in_literal_ranges = true;
      const auto& runtime_conjunct = static_cast<const BoundRuntimeFilter&>(*conjunct);
      const size_t slot = runtime_conjunct.slot;
      const RuntimeFilter* filter = slot < runtime.size() ? runtime[slot] : nullptr;
      passed = !filter || RuntimeFilterMayMatch(*filter, key_columns[slot],
                                                RuntimeComputedKey(runtime_conjunct), lookup);
      if (!passed) break;
      Append(result[slot + 1], begin, end);
    }
    if (passed && !in_literal_ranges) Append(result[0], begin, end);
  }
  return result;
}

}  // namespace shears

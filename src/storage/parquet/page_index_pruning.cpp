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

std::vector<parquet::RowRanges> PageRowRanges(
    int64_t num_rows, const std::vector<PageIndexColumn>& columns,
    const std::vector<const BoundExpr*>& filters,
    const std::vector<PagePruningRuntimeFilter>& runtime) {
  std::vector<parquet::RowRanges> result(runtime.size() + 1);
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
    bool may_match = true;
    for (const BoundExpr* filter : filters) {
      if (!StatsMayMatch(*filter, lookup)) {
        may_match = false;
        break;
      }
    }
    if (!may_match) continue;
    Append(result[0], begin, end);
    for (size_t i = 0; i < runtime.size() && may_match; i++) {
      const RuntimeFilter& filter = *runtime[i].filter;
      for (size_t key = 0; key < runtime[i].key_columns.size() && may_match; key++) {
        const parquet::ColumnChunkStatistics* s = lookup(runtime[i].key_columns[key]);
        if (!s) continue;
        std::optional<parquet::ColumnChunkStatistics> key_stats;
        if (runtime[i].computed.expr) {
          key_stats = ComputedKeyStatistics(*s, runtime[i].computed);
          if (!key_stats) continue;
          s = &*key_stats;
        }
        if (s->null_count && *s->null_count == s->num_values && s->num_values > 0) {
          may_match = false;  // only NULL keys: none can join
        } else if (s->min && s->max && !filter.RangeMayMatch(key, *s->min, *s->max)) {
          may_match = false;
        }
      }
      if (may_match) Append(result[i + 1], begin, end);
    }
  }
  return result;
}

}  // namespace shears

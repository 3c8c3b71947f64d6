#include "storage/parquet/page_index.h"

#include <algorithm>

#include "common/error.h"

namespace shears::parquet {

namespace {
// Index ranges closer than this are read with one request: writers put all column indexes,
// then all offset indexes, together before the footer, so the gaps are small.
constexpr uint64_t kIndexCoalesceGap = 64 << 10;
}  // namespace

RowRanges IntersectRowRanges(const RowRanges& a, const RowRanges& b) {
  RowRanges out;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const int64_t begin = std::max(a[i].begin, b[j].begin);
    const int64_t end = std::min(a[i].end, b[j].end);
    if (begin < end) out.push_back({begin, end});
    if (a[i].end < b[j].end) {
      i++;
    } else {
      j++;
    }
  }
  return out;
}

int64_t RowRangesCount(const RowRanges& ranges) {
  int64_t rows = 0;
  for (const auto& r : ranges)
    rows += r.end - r.begin;
  return rows;
}

RowRange PageRows(const format::OffsetIndex& index, int64_t num_rows, size_t page) {
  const auto& locations = index.page_locations;
  const int64_t end = page + 1 < locations.size() ? locations[page + 1].first_row_index : num_rows;
  return {locations[page].first_row_index, end};
}

std::vector<size_t> PagesOverlapping(const format::OffsetIndex& index, int64_t num_rows,
                                     const RowRanges& ranges) {
  std::vector<size_t> pages;
  size_t r = 0;
  for (size_t page = 0; page < index.page_locations.size() && r < ranges.size(); page++) {
    const RowRange rows = PageRows(index, num_rows, page);
    while (r < ranges.size() && ranges[r].end <= rows.begin)
      r++;
    if (r < ranges.size() && ranges[r].begin < rows.end && rows.begin < rows.end) {
      pages.push_back(page);
    }
  }
  return pages;
}

bool ChunkFullyDictionaryEncoded(const format::ColumnMetaData& meta) {
  auto is_dictionary = [](format::Encoding::type e) {
    return e == format::Encoding::PLAIN_DICTIONARY || e == format::Encoding::RLE_DICTIONARY;
  };
  if (meta.__isset.encoding_stats && !meta.encoding_stats.empty()) {
    bool any = false;
    for (const auto& stats : meta.encoding_stats) {
      if (stats.page_type != format::PageType::DATA_PAGE &&
          stats.page_type != format::PageType::DATA_PAGE_V2) {
        continue;
      }
      if (stats.count > 0 && !is_dictionary(stats.encoding)) return false;
      any = any || stats.count > 0;
    }
    return any;
  }
  // Without encoding_stats: a dictionary encoding and no PLAIN (older writers list the
  // dictionary page as PLAIN_DICTIONARY; levels are RLE or BIT_PACKED).
  bool dictionary = false;
  for (auto e : meta.encodings) {
    if (is_dictionary(e)) {
      dictionary = true;
    } else if (e != format::Encoding::RLE && e != format::Encoding::BIT_PACKED) {
      return false;
    }
  }
  return dictionary;
}

RowGroupPageIndex::RowGroupPageIndex(const ParquetFile& file, int row_group)
    : file_(file), row_group_(row_group), num_rows_(file.row_group_num_rows(row_group)) {}

bool OffsetIndexFitsChunk(const format::ColumnMetaData& meta, int64_t num_rows,
                          const format::OffsetIndex& index) {
  const auto& pages = index.page_locations;
  if (pages.empty() || num_rows <= 0) return false;
  // The data pages lie in the chunk, in order, the first at data_page_offset.
  const int64_t chunk_end = meta.data_page_offset + meta.total_compressed_size;
  if (pages[0].offset != meta.data_page_offset || pages[0].first_row_index != 0) return false;
  int64_t previous_end = pages[0].offset;
  int64_t previous_row = -1;
  for (const auto& page : pages) {
    if (page.compressed_page_size <= 0 || page.offset < previous_end ||
        page.offset > chunk_end - page.compressed_page_size) {
      return false;
    }
    if (page.first_row_index <= previous_row || page.first_row_index >= num_rows) return false;
    previous_end = page.offset + page.compressed_page_size;
    previous_row = page.first_row_index;
  }
  return true;
}

void RowGroupPageIndex::Load(const std::vector<int>& column_index_columns,
                             const std::vector<int>& offset_index_columns, uint64_t* bytes_read) {
  struct Piece {
    int column;
    bool is_column_index;
    uint64_t offset;
    uint64_t length;
  };
  std::vector<Piece> pieces;
  const uint64_t file_size = file_.file_size();
  auto want = [&](int column, bool is_column_index) {
    // Marked unusable until it parses and validates.
    if (is_column_index) {
      if (!column_indexes_.emplace(column, std::nullopt).second) return;
    } else {
      if (!offset_indexes_.emplace(column, std::nullopt).second) return;
    }
    const auto& chunk = file_.chunk(row_group_, column);
    // A LIST column's column index describes its elements; its offset index (rows) serves.
    if (is_column_index && file_.columns()[static_cast<size_t>(column)].max_repetition_level > 0)
      return;
    const bool has = is_column_index
                         ? chunk.__isset.column_index_offset && chunk.__isset.column_index_length
                         : chunk.__isset.offset_index_offset && chunk.__isset.offset_index_length;
    if (!has) return;
    const int64_t offset = is_column_index ? chunk.column_index_offset : chunk.offset_index_offset;
    const int64_t length = is_column_index ? chunk.column_index_length : chunk.offset_index_length;
    if (offset < 4 || length <= 0 || static_cast<uint64_t>(offset) >= file_size ||
        static_cast<uint64_t>(length) > file_size - static_cast<uint64_t>(offset)) {
      invalid_++;
      return;
    }
    pieces.push_back(
        {column, is_column_index, static_cast<uint64_t>(offset), static_cast<uint64_t>(length)});
  };
  for (int column : column_index_columns)
    want(column, true);
  for (int column : offset_index_columns)
    want(column, false);
  std::sort(pieces.begin(), pieces.end(),
            [](const Piece& a, const Piece& b) { return a.offset < b.offset; });
  size_t first = 0;
  while (first < pieces.size()) {
    size_t last = first;
    uint64_t end = pieces[first].offset + pieces[first].length;
    while (last + 1 < pieces.size() && pieces[last + 1].offset <= end + kIndexCoalesceGap) {
      ++last;
      end = std::max(end, pieces[last].offset + pieces[last].length);
    }
    const uint64_t begin = pieces[first].offset;
    std::vector<uint8_t> buffer(end - begin);
    file_.file().ReadAt(begin, buffer.size(), buffer.data());
    *bytes_read += buffer.size();
    for (size_t p = first; p <= last; p++) {
      const Piece& piece = pieces[p];
      const uint8_t* data = buffer.data() + (piece.offset - begin);
      try {
        if (piece.is_column_index) {
          column_indexes_[piece.column] =
              file_.ParseColumnIndex(row_group_, piece.column, data, piece.length);
        } else {
          auto index = file_.ParseOffsetIndex(row_group_, piece.column, data, piece.length);
          if (OffsetIndexFitsChunk(file_.chunk(row_group_, piece.column).meta_data, num_rows_,
                                   index)) {
            offset_indexes_[piece.column] = std::move(index);
          } else {
            invalid_++;
          }
        }
      } catch (const CorruptFileError&) {
        invalid_++;  // a malformed index only costs the pruning it would have allowed
      }
    }
    first = last + 1;
  }
}

const ColumnIndexData* RowGroupPageIndex::column_index(int column) const {
  auto it = column_indexes_.find(column);
  if (it == column_indexes_.end() || !it->second) return nullptr;
  const format::OffsetIndex* offsets = offset_index(column);
  if (!offsets || offsets->page_locations.size() != it->second->null_pages.size()) return nullptr;
  return &*it->second;
}

const format::OffsetIndex* RowGroupPageIndex::offset_index(int column) const {
  auto it = offset_indexes_.find(column);
  if (it == offset_indexes_.end() || !it->second) return nullptr;
  return &*it->second;
}

}  // namespace shears::parquet

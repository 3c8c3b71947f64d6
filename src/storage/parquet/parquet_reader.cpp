#include "storage/parquet/parquet_reader.h"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <tuple>

#include "common/error.h"
#include "storage/parquet/nested_reader.h"

namespace shears::parquet {

ParquetReader::ParquetReader(std::shared_ptr<ParquetFile> file, std::vector<int> columns,
                             ReaderOptions options)
    : file_(std::move(file)), columns_(std::move(columns)), options_(options) {
  for (int column : columns_) {
    if (column < 0 || static_cast<size_t>(column) >= file_->columns().size()) {
      throw InternalError("column index {} out of range for '{}'", column, file_->path());
    }
    file_->CheckReadable(column);
  }
  row_groups_.resize(static_cast<size_t>(file_->num_row_groups()));
  std::iota(row_groups_.begin(), row_groups_.end(), 0);
  counters_.row_groups_total = row_groups_.size();
  pad_chunks_ = NeedsChunkPadding(*file_);
}

bool NeedsChunkPadding(const ParquetFile& file) {
  const auto& meta = file.metadata();
  if (!meta.__isset.created_by) return false;
  const std::string& writer = meta.created_by;
  if (writer.rfind("parquet-mr", 0) != 0) return false;
  // "parquet-mr version 1.2.8 (build ...)": fixed in 1.2.9; no version at all is older still.
  int major = 0, minor = 0, patch = 0;
  if (std::sscanf(writer.c_str(), "parquet-mr version %d.%d.%d", &major, &minor, &patch) != 3) {
    return true;
  }
  return std::make_tuple(major, minor, patch) < std::make_tuple(1, 2, 9);
}

ParquetReader::~ParquetReader() = default;

void ParquetReader::SelectRowGroups(std::vector<int> row_groups) {
  for (int rg : row_groups) {
    if (rg < 0 || rg >= file_->num_row_groups()) {
      throw InternalError("row group {} out of range for '{}'", rg, file_->path());
    }
  }
  row_groups_ = std::move(row_groups);
  counters_.row_groups_skipped = counters_.row_groups_total - row_groups_.size();
}

void ParquetReader::SelectRows(std::shared_ptr<const RowGroupPageIndex> index, RowRanges ranges) {
  const int row_group = index->row_group();
  int64_t previous_end = 0;
  for (const auto& range : ranges) {
    if (range.begin < previous_end || range.end <= range.begin ||
        range.end > file_->row_group_num_rows(row_group)) {
      throw InternalError("'{}' row group {}: row ranges are not sorted, disjoint and inside it",
                          file_->path(), row_group);
    }
    previous_end = range.end;
  }
  selections_[row_group] = {std::move(index), std::move(ranges)};
}

void ParquetReader::AdoptDictionaries(
    int row_group, std::vector<std::shared_ptr<const DecodedDictionary>> dictionaries) {
  adopted_row_group_ = row_group;
  adopted_ = std::move(dictionaries);
}

const DecodedDictionary* ParquetReader::AdoptedDictionary(int row_group, int column) const {
  if (row_group != adopted_row_group_) return nullptr;
  for (const auto& dictionary : adopted_) {
    if (dictionary->column == column) return dictionary.get();
  }
  return nullptr;
}

std::vector<LogicalType> ParquetReader::output_types() const {
  std::vector<LogicalType> types;
  for (int column : columns_)
    types.push_back(file_->columns()[static_cast<size_t>(column)].type);
  return types;
}

void ParquetReader::StartRowGroup(int row_group) {
  current_row_group_ = row_group;
  rows_left_in_group_ = file_->row_group_num_rows(row_group);
  readers_.clear();
  current_index_ = nullptr;
  current_ranges_.clear();
  next_range_ = 0;
  next_row_ = 0;
  if (auto it = selections_.find(row_group); it != selections_.end()) {
    const bool all = it->second.second.size() == 1 && it->second.second[0].begin == 0 &&
                     it->second.second[0].end == rows_left_in_group_;
    if (!all) {
      current_index_ = it->second.first.get();
      current_ranges_ = it->second.second;
      rows_left_in_group_ = RowRangesCount(current_ranges_);
    }
  }
  if (!current_index_ && rows_left_in_group_ > 0) current_ranges_ = {{0, rows_left_in_group_}};
  counters_.row_groups_read++;
  if (columns_.empty() || rows_left_in_group_ == 0) {
    readers_.resize(columns_.size());
    return;
  }
  struct Range {
    size_t column_pos;
    uint64_t start;
    uint64_t size;
    const DecodedDictionary* dictionary;  // adopted: the range starts at the first data page
  };
  std::vector<Range> ranges;
  const uint64_t file_size = file_->file_size();
  readers_.resize(columns_.size());
  for (size_t i = 0; i < columns_.size(); i++) {
    if (current_index_) {
      readers_[i] = StartSparseChunk(row_group, columns_[i]);
      if (readers_[i]) continue;
    }
    const auto& descriptor = file_->columns()[static_cast<size_t>(columns_[i])];
    if (descriptor.nested) {
      // One range over every leaf's chunk; its reader splits it among them.
      const auto [begin, end] = NestedChunkSpan(*file_, row_group, descriptor);
      ranges.push_back({i, begin, end - begin, nullptr});
      continue;
    }
    const auto& meta = file_->chunk(row_group, columns_[i]).meta_data;
    int64_t start = meta.data_page_offset;
    // Some writers set dictionary_page_offset to 0 without a dictionary: only trust it when it
    // lies before the first data page.
    if (meta.__isset.dictionary_page_offset && meta.dictionary_page_offset > 0 &&
        meta.dictionary_page_offset < start) {
      start = meta.dictionary_page_offset;
    }
    int64_t size = meta.total_compressed_size;
    if (pad_chunks_) {
      // Old parquet-mr under-reports chunk sizes (PARQUET-816): read a little further, within
      // the data part of the file.
      const int64_t data_end = static_cast<int64_t>(file_size) - 8 - file_->footer_length();
      size = std::max<int64_t>(size, std::min<int64_t>(size + 100, data_end - start));
    }
    if (start < 4 || size < 0 || static_cast<uint64_t>(start) > file_size ||
        static_cast<uint64_t>(size) > file_size - static_cast<uint64_t>(start)) {
      throw CorruptFileError(
          "'{}': column '{}' row group {}: column chunk [{}, +{}) lies outside the file ({} bytes)",
          file_->path(), file_->columns()[static_cast<size_t>(columns_[i])].name, row_group, start,
          size, file_size);
    }
    // A dictionary the checks decoded is taken as it is: its page is not read again.
    const DecodedDictionary* dictionary = AdoptedDictionary(row_group, columns_[i]);
    if (dictionary) {
      const int64_t skip = meta.data_page_offset - start;
      if (start != meta.dictionary_page_offset || skip <= 0 || skip >= size) {
        dictionary = nullptr;  // not the layout the check read: read the chunk whole
      } else {
        start += skip;
        size -= skip;
      }
    }
    ranges.push_back({i, static_cast<uint64_t>(start), static_cast<uint64_t>(size), dictionary});
  }
  std::sort(ranges.begin(), ranges.end(),
            [](const Range& a, const Range& b) { return a.start < b.start; });
  size_t first = 0;
  while (first < ranges.size()) {
    // Grow a group of ranges while the next one starts within the coalescing gap.
    size_t last = first;
    uint64_t end = ranges[first].start + ranges[first].size;
    while (last + 1 < ranges.size() &&
           ranges[last + 1].start <= end + options_.coalesce_gap_bytes) {
      ++last;
      end = std::max(end, ranges[last].start + ranges[last].size);
    }
    const uint64_t begin = ranges[first].start;
    auto buffer = std::make_shared_for_overwrite<uint8_t[]>(end - begin);
    chunk_bytes_ += end - begin;
    file_->file().ReadAt(begin, end - begin, buffer.get());
    counters_.bytes_read += end - begin;
    for (size_t r = first; r <= last; r++) {
      ChunkBytes bytes{buffer, static_cast<size_t>(ranges[r].start - begin),
                       static_cast<size_t>(ranges[r].size)};
      auto& reader = readers_[ranges[r].column_pos];
      reader = std::make_unique<ColumnChunkReader>(
          *file_, row_group, columns_[ranges[r].column_pos], std::move(bytes), &counters_);
      if (ranges[r].dictionary) reader->AdoptDictionary(*ranges[r].dictionary);
    }
    first = last + 1;
  }
}

std::unique_ptr<ColumnChunkReader> ParquetReader::StartSparseChunk(int row_group, int column) {
  // A nested column's leaves have pages of their own: it is read whole, rows skipped.
  if (file_->columns()[static_cast<size_t>(column)].nested) return nullptr;
  const format::OffsetIndex* index = current_index_->offset_index(column);
  if (!index) return nullptr;
  const int64_t num_rows = file_->row_group_num_rows(row_group);
  const std::vector<size_t> pages = PagesOverlapping(*index, num_rows, current_ranges_);
  const auto& locations = index->page_locations;
  if (pages.size() == locations.size()) return nullptr;  // every page is needed
  const auto& meta = file_->chunk(row_group, column).meta_data;
  // The pieces to read: the dictionary page (it precedes the data pages), then runs of
  // adjacent chosen pages, each with one request, laid out back to back in one buffer.
  std::vector<std::pair<uint64_t, uint64_t>> pieces;
  const DecodedDictionary* dictionary = AdoptedDictionary(row_group, column);
  if (!dictionary && meta.__isset.dictionary_page_offset && meta.dictionary_page_offset >= 4 &&
      meta.dictionary_page_offset < meta.data_page_offset) {
    pieces.emplace_back(meta.dictionary_page_offset,
                        meta.data_page_offset - meta.dictionary_page_offset);
  }
  std::vector<PageSpan> spans;
  for (size_t page : pages) {
    const auto& location = locations[page];
    const uint64_t offset = static_cast<uint64_t>(location.offset);
    const uint64_t size = static_cast<uint64_t>(location.compressed_page_size);
    if (!pieces.empty() && pieces.back().first + pieces.back().second == offset) {
      pieces.back().second += size;
    } else {
      pieces.emplace_back(offset, size);
    }
    const RowRange rows = PageRows(*index, num_rows, page);
    spans.push_back({rows.begin, rows.end - rows.begin});
  }
  uint64_t total = 0;
  for (const auto& piece : pieces)
    total += piece.second;
  if (total > file_->file_size()) return nullptr;  // validated indexes never get here
  auto buffer = std::make_shared_for_overwrite<uint8_t[]>(std::max<uint64_t>(total, 1));
  chunk_bytes_ += total;
  uint64_t at = 0;
  for (const auto& [offset, size] : pieces) {
    file_->file().ReadAt(offset, size, buffer.get() + at);
    at += size;
  }
  counters_.bytes_read += total;
  counters_.pages_skipped += locations.size() - pages.size();
  ChunkBytes bytes{buffer, 0, static_cast<size_t>(total)};
  auto reader = std::make_unique<ColumnChunkReader>(*file_, row_group, column, std::move(bytes),
                                                    &counters_, std::move(spans));
  if (dictionary) reader->AdoptDictionary(*dictionary);
  return reader;
}

uint64_t ParquetReader::buffered_bytes() const {
  uint64_t bytes = chunk_bytes_;
  for (const auto& reader : readers_) {
    if (reader) bytes += reader->held_bytes();
  }
  return bytes;
}

void ParquetReader::FinishRowGroup() {
  // Pass over the pages no row was read from (headers only), so pages_skipped counts them.
  const int64_t rows = current_row_group_ >= 0 ? file_->row_group_num_rows(current_row_group_) : 0;
  for (auto& reader : readers_) {
    if (reader) reader->SkipTo(rows);
  }
  readers_.clear();
  chunk_bytes_ = 0;
}

idx_t ParquetReader::NextPieces() {
  while (rows_left_in_group_ == 0) {
    FinishRowGroup();
    if (next_row_group_ >= row_groups_.size()) return 0;
    StartRowGroup(row_groups_[next_row_group_++]);
  }
  const idx_t count = std::min<idx_t>(kBatchSize, static_cast<idx_t>(rows_left_in_group_));
  // The batch's rows, from the selected ranges.
  pieces_.clear();
  idx_t filled = 0;
  while (filled < count) {
    const RowRange& range = current_ranges_[next_range_];
    next_row_ = std::max(next_row_, range.begin);
    const idx_t take = std::min<idx_t>(count - filled, static_cast<idx_t>(range.end - next_row_));
    pieces_.push_back({filled, next_row_, take});
    next_row_ += static_cast<int64_t>(take);
    if (next_row_ == range.end) next_range_++;
    filled += take;
  }
  rows_left_in_group_ -= static_cast<int64_t>(count);
  counters_.rows_read += count;
  return count;
}

void ParquetReader::RecordDictionaryCodes(const std::vector<bool>& columns) {
  codes_.clear();
  codes_.resize(columns.size());
  for (size_t i = 0; i < columns.size(); i++) {
    if (columns[i]) codes_[i] = std::make_unique<DictionaryCodes>();
  }
}

void ParquetReader::ReadPieces(size_t column, Vector& out) {
  DictionaryCodes* codes = column < codes_.size() ? codes_[column].get() : nullptr;
  if (codes) codes->Start(kBatchSize);
  // Every column moves to each piece's first row on its own: page boundaries differ.
  for (const Piece& piece : pieces_) {
    readers_[column]->SkipTo(piece.row);
    readers_[column]->Read(piece.count, out, piece.offset, codes);
  }
}

bool ParquetReader::Next(Batch& out) {
  out.Reset();
  const idx_t count = NextPieces();
  if (count == 0) return false;
  for (size_t i = 0; i < columns_.size(); i++)
    ReadPieces(i, out.column(i));
  out.SetSize(count);
  return true;
}

bool ParquetReader::NextFirst(Batch& out, const std::vector<bool>& first) {
  out.Reset();
  const idx_t count = NextPieces();
  if (count == 0) return false;
  for (size_t i = 0; i < columns_.size(); i++) {
    if (first[i]) ReadPieces(i, out.column(i));
  }
  out.SetSize(count);
  return true;
}

void ParquetReader::FinishSelected(Batch& out, const std::vector<bool>& first, const uint32_t* sel,
                                   idx_t count) {
  const idx_t rows = out.size();
  // The kept rows as runs of consecutive row group rows.
  struct Run {
    int64_t row;
    idx_t count;
  };
  std::vector<Run> runs;
  // Every row kept: the pieces are read whole. Many short runs cost more one by one than
  // decoding the batch and dropping rows: past kMaxLateRuns runs, counting stops.
  bool by_runs = count < rows;
  size_t piece = 0;
  for (idx_t k = 0; k < count && by_runs; k++) {
    while (sel[k] >= pieces_[piece].offset + pieces_[piece].count)
      piece++;
    const int64_t row = pieces_[piece].row + static_cast<int64_t>(sel[k] - pieces_[piece].offset);
    if (!runs.empty() && runs.back().row + static_cast<int64_t>(runs.back().count) == row) {
      runs.back().count++;
    } else {
      runs.push_back({row, 1});
      by_runs = runs.size() <= kMaxLateRuns;
    }
  }
  for (size_t i = 0; i < columns_.size(); i++) {
    Vector& column = out.column(i);
    if (!first[i] && by_runs) {
      idx_t at = 0;
      for (const Run& run : runs) {
        readers_[i]->SkipTo(run.row);
        readers_[i]->Read(run.count, column, at);
        at += run.count;
      }
      continue;
    }
    if (!first[i]) ReadPieces(i, column);
    if (count == rows) continue;
    Vector kept(column.type(), std::max<idx_t>(column.capacity(), 1));
    kept.CopyRows(column, sel, count);
    column = std::move(kept);
  }
  out.SetSize(count);
}

}  // namespace shears::parquet

// Page-level reading through the page index: row ranges read only the pages they overlap and
// keep columns row-aligned although every column has its own page boundaries (plain and
// dictionary pages, NULLs); a missing or corrupt index falls back to reading every page.

#include "storage/parquet/page_index.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>

#include "common/error.h"
#include "storage/parquet/parquet_reader.h"
#include "storage/parquet/parquet_writer.h"
#include "test_util.h"

namespace shears::parquet {
namespace {

constexpr int64_t kRows = 7000;
constexpr int64_t kRowGroupRows = 3000;

std::vector<std::string> Names() {
  return {"id", "small", "label", "score", "unique_text"};
}
std::vector<LogicalType> Types() {
  return {LogicalType::Bigint(), LogicalType::Integer(), LogicalType::Varchar(),
          LogicalType::Double(), LogicalType::Varchar()};
}

// Row `row`'s values: id sorted and unique (PLAIN), small and label few distinct values
// (dictionary) with NULLs, score with NULLs (PLAIN), unique_text long unique strings (PLAIN).
std::vector<Value> RowValues(int64_t row) {
  return {Value::Bigint(row),
          row % 11 == 0 ? Value::Null(LogicalType::Integer())
                        : Value::Integer(static_cast<int32_t>(row % 7)),
          row % 13 == 0 ? Value::Null(LogicalType::Varchar())
                        : Value::Varchar("label-" + std::to_string(row / 500)),
          row % 5 == 0 ? Value::Null(LogicalType::Double()) : Value::Double(row * 0.5),
          Value::Varchar("text-value-number-" + std::to_string(row * 7919 % 100003))};
}

// Writes rows 0..rows of `row_values` to `path`.
void WriteRows(const std::string& path, const std::vector<std::string>& names,
               const std::vector<LogicalType>& types, const WriterOptions& options, int64_t rows,
               std::vector<Value> (*row_values)(int64_t)) {
  ParquetWriter writer(path, names, types, options);
  Batch batch(types);
  for (int64_t start = 0; start < rows; start += kBatchSize) {
    batch.Reset();
    const idx_t count = static_cast<idx_t>(std::min<int64_t>(kBatchSize, rows - start));
    for (idx_t r = 0; r < count; r++) {
      auto values = row_values(start + static_cast<int64_t>(r));
      for (size_t c = 0; c < values.size(); c++)
        WriteValue(batch.column(c), r, values[c]);
    }
    batch.SetSize(count);
    writer.Write(batch);
  }
  writer.Close();
}

// Small pages by bytes so each column breaks its pages at other rows.
std::string WriteFile(const std::string& path) {
  WriterOptions options;
  options.row_group_rows = kRowGroupRows;
  options.page_size_bytes = 600;
  options.page_row_limit = 400;
  WriteRows(path, Names(), Types(), options, kRows, RowValues);
  return path;
}

// Checks the batch's rows against RowValues of expected_rows[*next...], advancing *next.
void ExpectRows(const Batch& batch, const std::vector<int64_t>& expected_rows, size_t* next) {
  for (idx_t r = 0; r < batch.size(); r++, (*next)++) {
    ASSERT_LT(*next, expected_rows.size());
    const auto expected = RowValues(expected_rows[*next]);
    for (size_t c = 0; c < expected.size(); c++) {
      ASSERT_EQ(ReadValue(batch.column(c), r).ToString(), expected[c].ToString())
          << "row " << expected_rows[*next] << " column " << Names()[c];
    }
  }
}

// Reads every column of `row_group` restricted to `ranges` (through `index`) and checks each
// row against RowValues.
void CheckRanges(const std::shared_ptr<ParquetFile>& file,
                 std::shared_ptr<const RowGroupPageIndex> index, const RowRanges& ranges,
                 ScanCounters* counters = nullptr) {
  const int row_group = index->row_group();
  ParquetReader reader(file, {0, 1, 2, 3, 4});
  reader.SelectRowGroups({row_group});
  reader.SelectRows(index, ranges);
  std::vector<int64_t> expected_rows;
  for (const auto& r : ranges) {
    for (int64_t row = r.begin; row < r.end; row++)
      expected_rows.push_back(row + row_group * kRowGroupRows);
  }
  Batch batch(reader.output_types());
  size_t next = 0;
  while (reader.Next(batch)) {
    ExpectRows(batch, expected_rows, &next);
    if (::testing::Test::HasFatalFailure()) return;
  }
  EXPECT_EQ(next, expected_rows.size());
  if (counters) *counters = reader.counters();
}

std::shared_ptr<RowGroupPageIndex> LoadIndex(const std::shared_ptr<ParquetFile>& file,
                                             int row_group, std::vector<int> columns) {
  auto index = std::make_shared<RowGroupPageIndex>(*file, row_group);
  uint64_t bytes = 0;
  index->Load(columns, columns, &bytes);
  return index;
}

TEST(PageIndexTest, RowRangeHelpers) {
  EXPECT_EQ(IntersectRowRanges({{0, 10}, {20, 30}}, {{5, 25}}), (RowRanges{{5, 10}, {20, 25}}));
  EXPECT_EQ(IntersectRowRanges({{0, 10}}, {{10, 20}}), RowRanges{});
  EXPECT_EQ(RowRangesCount({{0, 10}, {20, 25}}), 15);
  format::OffsetIndex index;
  for (int64_t first : {0, 100, 200, 300}) {
    format::PageLocation location;
    location.first_row_index = first;
    index.page_locations.push_back(location);
  }
  EXPECT_EQ(PagesOverlapping(index, 350, {{99, 101}}), (std::vector<size_t>{0, 1}));
  EXPECT_EQ(PagesOverlapping(index, 350, {{100, 200}, {340, 350}}), (std::vector<size_t>{1, 3}));
  EXPECT_EQ(PagesOverlapping(index, 350, {}), std::vector<size_t>{});
  EXPECT_EQ(PageRows(index, 350, 3), (RowRange{300, 350}));
}

TEST(PageIndexTest, ColumnsHaveTheirOwnPageBoundaries) {
  test::TempDir dir;
  auto file = ParquetFile::Open(WriteFile(dir.path() + "/pages.parquet"));
  auto index = LoadIndex(file, 0, {0, 1, 2, 3, 4});
  std::vector<std::vector<int64_t>> firsts;
  for (int column = 0; column < 5; column++) {
    ASSERT_NE(index->offset_index(column), nullptr) << column;
    ASSERT_NE(index->column_index(column), nullptr) << column;
    std::vector<int64_t> rows;
    for (const auto& location : index->offset_index(column)->page_locations)
      rows.push_back(location.first_row_index);
    EXPECT_GT(rows.size(), 3u) << column;
    firsts.push_back(rows);
  }
  // The test means something only if page boundaries differ between columns.
  EXPECT_NE(firsts[0], firsts[1]);
  EXPECT_NE(firsts[0], firsts[4]);
  EXPECT_NE(firsts[3], firsts[4]);
  EXPECT_TRUE(ChunkFullyDictionaryEncoded(file->chunk(0, 1).meta_data));
  EXPECT_FALSE(ChunkFullyDictionaryEncoded(file->chunk(0, 0).meta_data));
}

TEST(PageIndexTest, RangesReadOnlyTheirPagesAndStayAligned) {
  test::TempDir dir;
  auto file = ParquetFile::Open(WriteFile(dir.path() + "/pages.parquet"));
  for (int row_group = 0; row_group < file->num_row_groups(); row_group++) {
    const int64_t rows = file->row_group_num_rows(row_group);
    auto index = LoadIndex(file, row_group, {0, 1, 2, 3, 4});
    CheckRanges(file, index, {{0, rows}});
    CheckRanges(file, index, {{0, 1}});
    CheckRanges(file, index, {{rows - 1, rows}});
    CheckRanges(file, index, {{17, 18}, {19, rows / 2}, {rows / 2 + 300, rows}});
    ScanCounters counters;
    CheckRanges(file, index, {{rows / 2, rows / 2 + 10}}, &counters);
    EXPECT_GT(counters.pages_skipped, 10u);
    EXPECT_LT(counters.pages_read, 10u);
    std::mt19937 rng(42 + row_group);
    for (int round = 0; round < 40; round++) {
      RowRanges ranges;
      int64_t at = static_cast<int64_t>(rng() % 50);
      while (at < rows) {
        const int64_t length = 1 + static_cast<int64_t>(rng() % (round % 2 ? 5 : 300));
        ranges.push_back({at, std::min(rows, at + length)});
        at += length + 1 + static_cast<int64_t>(rng() % (round % 3 ? 700 : 20));
      }
      CheckRanges(file, index, ranges);
    }
  }
}

// Late materialization: `id` read first, the other columns only for the rows kept (by
// `keep(row)`), with and without row ranges.
void CheckLateMaterialization(const std::shared_ptr<ParquetFile>& file,
                              std::shared_ptr<const RowGroupPageIndex> index,
                              const RowRanges& ranges, bool (*keep)(int64_t),
                              ScanCounters* counters = nullptr) {
  ParquetReader reader(file, {0, 1, 2, 3, 4});
  const int row_group = index ? index->row_group() : 1;
  reader.SelectRowGroups({row_group});
  if (index) reader.SelectRows(index, ranges);
  const std::vector<bool> first = {true, false, false, false, false};
  Batch batch(reader.output_types());
  std::vector<int64_t> expected_rows;
  for (int64_t row = 0; row < file->row_group_num_rows(row_group); row++) {
    bool in_ranges = !index;
    for (const auto& r : ranges)
      in_ranges = in_ranges || (row >= r.begin && row < r.end);
    const int64_t file_row = row + row_group * kRowGroupRows;
    if (in_ranges && keep(file_row)) expected_rows.push_back(file_row);
  }
  size_t next = 0;
  while (reader.NextFirst(batch, first)) {
    std::vector<uint32_t> sel;
    for (idx_t r = 0; r < batch.size(); r++) {
      if (keep(ReadValue(batch.column(0), r).GetInt64())) sel.push_back(static_cast<uint32_t>(r));
    }
    reader.FinishSelected(batch, first, sel.data(), sel.size());
    ASSERT_EQ(batch.size(), sel.size());
    ExpectRows(batch, expected_rows, &next);
    if (::testing::Test::HasFatalFailure()) return;
  }
  EXPECT_EQ(next, expected_rows.size());
  if (counters) *counters = reader.counters();
}

TEST(PageIndexTest, LateMaterializationReadsOnlyKeptRows) {
  test::TempDir dir;
  auto file = ParquetFile::Open(WriteFile(dir.path() + "/pages.parquet"));
  auto index = LoadIndex(file, 1, {0, 1, 2, 3, 4});
  // Few runs, many runs (decoded whole and compacted), none, all; and one row in 97, the 96
  // between passed over inside pages (dictionary indexes and PLAIN values not decoded, with
  // their NULLs counted from the levels).
  auto few = [](int64_t row) { return row % 1000 < 30; };
  auto many = [](int64_t row) { return row % 3 == 0; };
  auto none = [](int64_t) { return false; };
  auto all = [](int64_t) { return true; };
  auto sparse = [](int64_t row) { return row % 97 == 5; };
  for (auto keep : {+few, +many, +none, +all, +sparse}) {
    CheckLateMaterialization(file, nullptr, {}, keep);
    CheckLateMaterialization(file, index, {{5, 900}, {1500, 2900}}, keep);
  }
  ScanCounters late, full;
  CheckLateMaterialization(file, nullptr, {}, none, &late);
  CheckLateMaterialization(file, nullptr, {}, all, &full);
  // Pages no kept row lies in are passed over, and counted.
  EXPECT_EQ(late.pages_read + late.pages_skipped, full.pages_read + full.pages_skipped);
  EXPECT_GT(late.pages_skipped, 20u);
  EXPECT_EQ(full.pages_skipped, 0u);
}

TEST(PageIndexTest, ColumnsWithoutOffsetIndexReadEveryPage) {
  test::TempDir dir;
  auto file = ParquetFile::Open(WriteFile(dir.path() + "/pages.parquet"));
  // Only two columns' indexes loaded: the others read every page and drop rows.
  auto index = LoadIndex(file, 1, {0, 3});
  EXPECT_EQ(index->offset_index(1), nullptr);
  CheckRanges(file, index, {{5, 9}, {1500, 1800}, {2990, 3000}});
}

TEST(PageIndexTest, CorruptIndexFallsBackToAllPages) {
  test::TempDir dir;
  const std::string path = WriteFile(dir.path() + "/pages.parquet");
  int64_t index_start;
  uint64_t footer_start;
  {
    auto file = ParquetFile::Open(path);
    index_start = file->chunk(0, 0).column_index_offset;
    footer_start = file->file_size() - 8 - file->footer_length();
  }
  // Overwrite every column and offset index with garbage.
  {
    std::fstream out(path, std::ios::in | std::ios::out | std::ios::binary);
    out.seekp(index_start);
    const std::string garbage(footer_start - static_cast<uint64_t>(index_start), '\xff');
    out.write(garbage.data(), static_cast<std::streamsize>(garbage.size()));
  }
  auto file = ParquetFile::Open(path);
  auto index = LoadIndex(file, 0, {0, 1, 2, 3, 4});
  for (int column = 0; column < 5; column++) {
    EXPECT_EQ(index->column_index(column), nullptr);
    EXPECT_EQ(index->offset_index(column), nullptr);
  }
  EXPECT_GT(index->invalid_indexes(), 0u);
  CheckRanges(file, index, {{10, 20}, {1200, 1201}});
}

TEST(PageIndexTest, OffsetIndexContradictingTheChunkIsIgnored) {
  test::TempDir dir;
  auto file = ParquetFile::Open(WriteFile(dir.path() + "/pages.parquet"));
  auto index = LoadIndex(file, 0, {0});
  ASSERT_NE(index->offset_index(0), nullptr);
  const auto& meta = file->chunk(0, 0).meta_data;
  const int64_t rows = file->row_group_num_rows(0);
  const auto& good = *index->offset_index(0);
  EXPECT_TRUE(OffsetIndexFitsChunk(meta, rows, good));
  // Pages out of order, outside the chunk, or rows that do not fit must not be trusted.
  auto bad = good;
  std::swap(bad.page_locations[1], bad.page_locations[2]);
  EXPECT_FALSE(OffsetIndexFitsChunk(meta, rows, bad));
  bad = good;
  bad.page_locations.back().compressed_page_size += 100000;
  EXPECT_FALSE(OffsetIndexFitsChunk(meta, rows, bad));
  bad = good;
  bad.page_locations[0].offset += 1;
  EXPECT_FALSE(OffsetIndexFitsChunk(meta, rows, bad));
  bad = good;
  bad.page_locations.back().first_row_index = rows;
  EXPECT_FALSE(OffsetIndexFitsChunk(meta, rows, bad));
  bad = good;
  bad.page_locations[0].first_row_index = 1;
  EXPECT_FALSE(OffsetIndexFitsChunk(meta, rows, bad));
  bad.page_locations.clear();
  EXPECT_FALSE(OffsetIndexFitsChunk(meta, rows, bad));
}

TEST(PageIndexTest, DictionaryOfAChunk) {
  test::TempDir dir;
  auto file = ParquetFile::Open(WriteFile(dir.path() + "/pages.parquet"));
  const auto& meta = file->chunk(0, 2).meta_data;
  ASSERT_TRUE(meta.__isset.dictionary_page_offset);
  const uint64_t start = static_cast<uint64_t>(meta.dictionary_page_offset);
  const uint64_t size = static_cast<uint64_t>(meta.data_page_offset) - start;
  auto buffer = std::make_shared<std::vector<uint8_t>>(size);
  file->file().ReadAt(start, size, buffer->data());
  ScanCounters counters;
  ColumnChunkReader reader(
      *file, 0, 2, ChunkBytes{std::shared_ptr<const uint8_t[]>(buffer, buffer->data()), 0, size},
      &counters);
  size_t entries = 0;
  const Vector* dictionary = reader.ReadDictionary(&entries);
  ASSERT_NE(dictionary, nullptr);
  std::set<std::string> values;
  for (size_t i = 0; i < entries; i++)
    values.insert(ReadValue(*dictionary, i).ToString());
  // Rows 0..2999: label-0 .. label-5.
  EXPECT_EQ(values, (std::set<std::string>{"label-0", "label-1", "label-2", "label-3", "label-4",
                                           "label-5"}));
}

// tests/data/parquet/generated/pages_clustered.parquet, used by tests/sql/page_index: 20000
// rows in 2 row groups, pages of at most 1000 rows or 4 KiB, so each column has its own
// page boundaries. Regenerate with SHEARS_WRITE_FIXTURES=1 shears_tests --gtest_filter=
// PageIndexFixture.*
std::vector<std::string> FixtureNames() {
  return {"id", "grp", "cat", "code", "val", "sparse"};
}
std::vector<LogicalType> FixtureTypes() {
  return {LogicalType::Bigint(),  LogicalType::Integer(), LogicalType::Varchar(),
          LogicalType::Varchar(), LogicalType::Double(),  LogicalType::Integer()};
}
std::vector<Value> FixtureRow(int64_t id) {
  char code[16];
  std::snprintf(code, sizeof(code), "code-%03d", static_cast<int>(id / 1000));
  return {Value::Bigint(id),                                 // sorted, PLAIN
          Value::Integer(static_cast<int32_t>(id / 100)),    // sorted, dictionary
          Value::Varchar("cat-" + std::to_string(id % 10)),  // unsorted, dictionary
          id % 97 == 0 ? Value::Null(LogicalType::Varchar()) : Value::Varchar(code),  // sorted
          id % 7 == 0 ? Value::Null(LogicalType::Double()) : Value::Double(id * 0.25),
          id >= 5000 && id < 7000 ? Value::Null(LogicalType::Integer())  // NULL pages
                                  : Value::Integer(static_cast<int32_t>(id % 50))};
}
constexpr int64_t kFixtureRows = 20000;

void WriteFixture(const std::string& path) {
  WriterOptions options;
  options.row_group_rows = 10000;
  options.page_size_bytes = 4096;
  options.page_row_limit = 1000;
  WriteRows(path, FixtureNames(), FixtureTypes(), options, kFixtureRows, FixtureRow);
}

TEST(PageIndexFixture, HoldsTheGeneratorsRowsAndSmallPages) {
  const std::string path = test::DataDir() + "/parquet/generated/pages_clustered.parquet";
  if (std::getenv("SHEARS_WRITE_FIXTURES")) WriteFixture(path);
  auto file = ParquetFile::Open(path);
  ASSERT_EQ(file->num_rows(), kFixtureRows);
  ASSERT_EQ(file->num_row_groups(), 2);
  auto index = LoadIndex(file, 0, {0, 1, 2, 3, 4, 5});
  for (int column = 0; column < 6; column++) {
    ASSERT_NE(index->offset_index(column), nullptr);
    EXPECT_GE(index->offset_index(column)->page_locations.size(), 10u) << column;
  }
  ParquetReader reader(file, {0, 1, 2, 3, 4, 5});
  Batch batch(reader.output_types());
  int64_t row = 0;
  while (reader.Next(batch)) {
    for (idx_t r = 0; r < batch.size(); r++, row++) {
      const auto expected = FixtureRow(row);
      for (size_t c = 0; c < expected.size(); c++)
        ASSERT_EQ(ReadValue(batch.column(c), r).ToString(), expected[c].ToString()) << row;
    }
  }
  EXPECT_EQ(row, kFixtureRows);
}

// Two narrow columns on either side of a wide one: the scan reads the two chunks, not the wide
// chunk between them (ranges are merged only across gaps under ReaderOptions' 64 KiB).
std::vector<Value> WideMiddleRow(int64_t row) {
  std::string text(120, ' ');
  uint64_t x = static_cast<uint64_t>(row) * 0x9E3779B97F4A7C15ULL + 1;
  for (char& c : text) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    c = static_cast<char>('a' + x % 26);
  }
  return {Value::Bigint(row), Value::Varchar(text), Value::Bigint(row * 3)};
}

TEST(ParquetReaderTest, ReadsOnlyTheChunksOfItsColumns) {
  test::TempDir dir;
  const std::string path = dir.path() + "/wide_middle.parquet";
  WriteRows(path, {"a", "wide", "b"},
            {LogicalType::Bigint(), LogicalType::Varchar(), LogicalType::Bigint()}, {}, 6000,
            WideMiddleRow);
  auto file = ParquetFile::Open(path);
  ASSERT_EQ(file->num_row_groups(), 1);
  const uint64_t wide = static_cast<uint64_t>(file->chunk(0, 1).meta_data.total_compressed_size);
  const uint64_t narrow = static_cast<uint64_t>(file->chunk(0, 0).meta_data.total_compressed_size +
                                                file->chunk(0, 2).meta_data.total_compressed_size);
  // The wide chunk is larger than the merge gap, and small enough that a megabyte gap (the
  // earlier default) would have read it.
  ASSERT_GT(wide, 64u << 10);
  ASSERT_LT(wide, 1u << 20);
  ParquetReader reader(file, {0, 2});
  Batch batch(reader.output_types());
  int64_t row = 0;
  while (reader.Next(batch)) {
    for (idx_t r = 0; r < batch.size(); r++, row++)
      ASSERT_EQ(ReadValue(batch.column(1), r).ToString(), Value::Bigint(row * 3).ToString());
  }
  EXPECT_EQ(row, 6000);
  EXPECT_LE(reader.counters().bytes_read, narrow);
}

}  // namespace
}  // namespace shears::parquet

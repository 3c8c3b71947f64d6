// A runtime filter's dictionary check hands the dictionary it decoded to the row group's reader
// (DictionaryMayMatch's `decoded`, ParquetReader::AdoptDictionaries): the reader then reads the
// chunk from its first data page and decodes the same rows, its codes pointing into the
// adopted dictionary; a dictionary adopted for another row group is not used; a second check
// of the same chunk reads nothing.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "dynfilter/runtime_filter.h"
#include "storage/parquet/dictionary_pruning.h"
#include "storage/parquet/page_index.h"
#include "storage/parquet/parquet_reader.h"
#include "storage/parquet/parquet_writer.h"
#include "storage/parquet/value_conversion.h"

namespace shears::parquet {
namespace {

constexpr idx_t kRows = 3000;
constexpr int64_t kGroupRows = 1000;

// Row group g holds keys g * 100 .. g * 100 + 9 (a dictionary of 10 entries), and v = row.
int64_t Key(idx_t row) {
  return static_cast<int64_t>(row / kGroupRows) * 100 + row % 10;
}

std::string WriteFile() {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("shears_dictionary_reuse_" + std::to_string(::getpid()) + ".parquet"))
                               .string();
  WriterOptions options;
  options.row_group_rows = kGroupRows;
  options.page_row_limit = 250;  // 4 pages per chunk, for the page index path
  ParquetWriter writer(path, {"k", "v"}, {LogicalType::Bigint(), LogicalType::Bigint()}, options);
  for (idx_t start = 0; start < kRows; start += kBatchSize) {
    Batch batch({LogicalType::Bigint(), LogicalType::Bigint()});
    const idx_t count = std::min(kBatchSize, kRows - start);
    for (idx_t r = 0; r < count; r++) {
      batch.column(0).data<int64_t>()[r] = Key(start + r);
      batch.column(1).data<int64_t>()[r] = static_cast<int64_t>(start + r);
    }
    batch.SetSize(count);
    writer.Write(batch);
  }
  writer.Close();
  return path;
}

std::unique_ptr<RuntimeFilter> Keys(const std::vector<int64_t>& keys) {
  auto filter = std::make_unique<RuntimeFilter>(std::vector<LogicalType>{LogicalType::Bigint()});
  Vector v(LogicalType::Bigint(), keys.size());
  for (size_t i = 0; i < keys.size(); i++)
    v.data<int64_t>()[i] = keys[i];
  filter->Add({&v}, keys.size());
  filter->Finish({}, keys.size(), 0);
  return filter;
}

// Every row of `reader` as (k, v) pairs, with k checked against its recorded code.
std::vector<std::pair<int64_t, int64_t>> ReadAll(ParquetReader& reader) {
  reader.RecordDictionaryCodes({true, false});
  std::vector<std::pair<int64_t, int64_t>> rows;
  Batch batch(reader.output_types());
  while (reader.Next(batch)) {
    const DictionaryCodes* codes = reader.dictionary_codes(0);
    EXPECT_NE(codes, nullptr);
    for (idx_t r = 0; r < batch.size(); r++) {
      const int64_t k = batch.column(0).data<int64_t>()[r];
      if (codes) EXPECT_EQ(codes->dictionary->data<int64_t>()[codes->codes[r]], k);
      rows.emplace_back(k, batch.column(1).data<int64_t>()[r]);
    }
  }
  return rows;
}

TEST(DictionaryReuseTest, TheReaderTakesTheDictionaryTheCheckDecoded) {
  const std::string path = WriteFile();
  auto file = ParquetFile::Open(path);
  ASSERT_EQ(file->num_row_groups(), 3);
  auto in_group_1 = Keys({105, 1000});
  auto nowhere = Keys({55, 1000});

  // Row group 1 holds key 105: may match, and its dictionary is handed out.
  uint64_t bytes = 0;
  uint32_t matches = 0;
  std::shared_ptr<const DecodedDictionary> decoded;
  EXPECT_TRUE(DictionaryMayMatch(*in_group_1, *file, 0, 1, &bytes, nullptr, &matches, &decoded));
  ASSERT_NE(decoded, nullptr);
  EXPECT_EQ(decoded->column, 0);
  EXPECT_EQ(decoded->size, 10u);
  EXPECT_EQ(matches, 1u);
  EXPECT_GT(bytes, 0u);
  // A second check of the same chunk (another filter on the column) reads nothing.
  uint64_t again = 0;
  EXPECT_FALSE(DictionaryMayMatch(*nowhere, *file, 0, 1, &again, nullptr, nullptr, &decoded));
  EXPECT_EQ(again, 0u);
  // Row group 0 holds none of those keys.
  std::shared_ptr<const DecodedDictionary> group_0;
  uint64_t ignored = 0;
  EXPECT_FALSE(DictionaryMayMatch(*in_group_1, *file, 0, 0, &ignored, nullptr, nullptr, &group_0));

  // Reading row group 1 with and without the dictionary: the same rows, the dictionary page's
  // bytes read once fewer, and the dictionary counted as reused.
  ParquetReader plain(file, {0, 1});
  plain.SelectRowGroups({1});
  const auto expected = ReadAll(plain);
  ASSERT_EQ(expected.size(), static_cast<size_t>(kGroupRows));
  EXPECT_EQ(expected.front(), std::make_pair(int64_t{100}, int64_t{1000}));
  ParquetReader adopting(file, {0, 1});
  adopting.SelectRowGroups({1});
  adopting.AdoptDictionaries(1, {decoded});
  EXPECT_EQ(ReadAll(adopting), expected);
  EXPECT_EQ(adopting.counters().dictionaries_reused, 1u);
  EXPECT_EQ(plain.counters().dictionaries_reused, 0u);
  EXPECT_EQ(adopting.counters().bytes_read + bytes, plain.counters().bytes_read);

  // Adopted for row group 0, read for row group 2: not used.
  ParquetReader other(file, {0, 1});
  other.SelectRowGroups({2});
  other.AdoptDictionaries(0, {group_0});
  const auto rows_2 = ReadAll(other);
  ASSERT_EQ(rows_2.size(), static_cast<size_t>(kGroupRows));
  EXPECT_EQ(rows_2.front().first, 200);
  EXPECT_EQ(other.counters().dictionaries_reused, 0u);

  // Only some pages of row group 1 (the page index path): the dictionary is still taken.
  auto index = std::make_shared<RowGroupPageIndex>(*file, 1);
  uint64_t index_bytes = 0;
  index->Load({0, 1}, {0, 1}, &index_bytes);
  ASSERT_NE(index->offset_index(0), nullptr);
  ParquetReader sparse(file, {0, 1});
  sparse.SelectRowGroups({1});
  sparse.SelectRows(index, {{300, 400}});
  sparse.AdoptDictionaries(1, {decoded});
  const auto some = ReadAll(sparse);
  ASSERT_EQ(some.size(), 100u);
  for (size_t r = 0; r < some.size(); r++)
    EXPECT_EQ(some[r], expected[300 + r]);
  EXPECT_EQ(sparse.counters().dictionaries_reused, 1u);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace shears::parquet

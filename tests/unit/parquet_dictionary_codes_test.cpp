// ParquetReader::dictionary_codes: the codes a batch's rows have in their chunk's dictionary
// (NULL as the code one past the entries), and no codes for a batch that holds rows of PLAIN
// pages after the chunk fell back from its dictionary.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "storage/parquet/parquet_reader.h"
#include "storage/parquet/parquet_writer.h"
#include "storage/parquet/value_conversion.h"

namespace shears::parquet {
namespace {

TEST(DictionaryCodesTest, CodesMatchValuesUntilTheChunkFallsBackToPlain) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("shears_dictionary_codes_" + std::to_string(::getpid()) + ".parquet"))
                               .string();
  const idx_t rows = 6000;
  auto value = [](idx_t i) {
    if (i % 13 == 0) return Value::Null(LogicalType::Varchar());
    // Low cardinality first, then unique strings that overflow a 2 KB dictionary.
    return Value::Varchar(i < 3000 ? "low" + std::to_string(i % 10)
                                   : "high-" + std::to_string(i * 7919));
  };
  {
    WriterOptions options;
    options.page_row_limit = 500;
    options.dictionary_page_limit_bytes = 2000;
    ParquetWriter writer(path, {"s"}, {LogicalType::Varchar()}, options);
    for (idx_t start = 0; start < rows; start += kBatchSize) {
      Batch batch({LogicalType::Varchar()});
      const idx_t count = std::min(kBatchSize, rows - start);
      for (idx_t r = 0; r < count; r++)
        WriteValue(batch.column(0), r, value(start + r));
      batch.SetSize(count);
      writer.Write(batch);
    }
    writer.Close();
  }

  ParquetReader reader(ParquetFile::Open(path), {0});
  reader.RecordDictionaryCodes({true});
  Batch batch(reader.output_types());
  idx_t first = 0;
  int with_codes = 0, without = 0;
  while (reader.Next(batch)) {
    const DictionaryCodes* codes = reader.dictionary_codes(0);
    if (codes == nullptr) {
      without++;
    } else {
      with_codes++;
      for (idx_t r = 0; r < batch.size(); r++) {
        const Value expected = value(first + r);
        const uint32_t code = codes->codes[r];
        if (expected.is_null()) {
          ASSERT_EQ(code, codes->size) << "row " << first + r;
        } else {
          ASSERT_LT(code, codes->size) << "row " << first + r;
          ASSERT_EQ(ReadValue(*codes->dictionary, code).GetString(), expected.GetString())
              << "row " << first + r;
        }
      }
    }
    first += batch.size();
  }
  EXPECT_EQ(first, rows);
  // Rows 0..2047 come from dictionary pages; rows from 4096 on from PLAIN pages.
  EXPECT_GE(with_codes, 1);
  EXPECT_GE(without, 1);
  // Not recorded: no codes.
  ParquetReader plain(ParquetFile::Open(path), {0});
  ASSERT_TRUE(plain.Next(batch));
  EXPECT_EQ(plain.dictionary_codes(0), nullptr);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace shears::parquet

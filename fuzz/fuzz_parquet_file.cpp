// Fuzzes a whole Parquet file: the footer and schema conversion, chunk statistics, the page
// index and bloom filters, then every readable column through the page headers, codecs and
// decoders. Seeds: the Parquet files under tests/data and the shared fixtures.

#include <memory>
#include <vector>

#include "fuzz_util.h"
#include "storage/parquet/bloom_filter.h"
#include "storage/parquet/parquet_file.h"
#include "storage/parquet/parquet_reader.h"

using namespace shears;
using namespace shears::parquet;

namespace {

// A lying row count must end in an error, not in reading forever; a valid seed needs far fewer.
constexpr int kMaxBatches = 64;

void ReadMetadata(const ParquetFile& file) {
  for (int rg = 0; rg < file.num_row_groups(); rg++) {
    for (size_t column = 0; column < file.columns().size(); column++) {
      if (file.columns()[column].leaf_index < 0) continue;
      const int c = static_cast<int>(column);
      fuzz::ExpectOnlyUserErrors([&] { file.GetStatistics(rg, c); });
      fuzz::ExpectOnlyUserErrors([&] { file.ReadColumnIndex(rg, c); });
      fuzz::ExpectOnlyUserErrors([&] { file.ReadOffsetIndex(rg, c); });
      fuzz::ExpectOnlyUserErrors([&] {
        if (auto bloom = file.ReadBloomFilter(rg, c))
          bloom->MightContainHash(0x9e3779b97f4a7c15ULL);
      });
    }
  }
}

// Reads each value as a query printing it would, at a fraction of the cost of formatting them
// all (which took about half of each run): every byte of every string, so a reference past its
// buffer shows up under ASan, and the formatting of every value whose conversion depends on its
// bits (dates, times, timestamps, intervals, decimals, floating point), where UBSan sees an
// overflow. Booleans, integers and strings are not formatted: that is std::to_string or a copy
// of bytes already read.
void TouchValues(const Vector& vector, idx_t count) {
  switch (vector.type().id()) {
    case TypeId::kBoolean:
    case TypeId::kInteger:
    case TypeId::kBigint:
      return;
    case TypeId::kVarchar:
    case TypeId::kBlob: {
      const StringRef* strings = vector.data<StringRef>();
      uint8_t sum = 0;
      for (idx_t row = 0; row < count; row++) {
        if (vector.IsNull(row)) continue;
        for (uint32_t b = 0; b < strings[row].len; b++)
          sum = static_cast<uint8_t>(sum + static_cast<uint8_t>(strings[row].ptr[b]));
      }
      volatile uint8_t sink = sum;
      (void)sink;
      return;
    }
    default:
      for (idx_t row = 0; row < count; row++)
        vector.ValueToString(row);
  }
}

void ReadRows(const std::shared_ptr<ParquetFile>& file) {
  std::vector<int> columns;
  for (size_t column = 0; column < file->columns().size(); column++) {
    if (file->columns()[column].unsupported_reason.empty())
      columns.push_back(static_cast<int>(column));
  }
  ParquetReader reader(file, columns);
  Batch batch(reader.output_types());
  for (int i = 0; i < kMaxBatches && reader.Next(batch); i++) {
    for (idx_t c = 0; c < batch.column_count(); c++)
      TouchValues(batch.column(c), batch.size());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static fuzz::MemoryFile memory_file;
  const std::string& path = memory_file.Write(data, size);
  fuzz::ExpectOnlyUserErrors([&] {
    auto file = ParquetFile::Open(path);
    ReadMetadata(*file);
    ReadRows(file);
  });
  return 0;
}

// Fuzzes the footer alone: the input is the FileMetaData thrift bytes, wrapped here into
// "PAR1" + footer + length + "PAR1" so every mutation lands in the metadata. Covers thrift
// decoding, schema conversion (types, annotations, nesting), statistics decoding and the
// reader's checks of row groups and chunk ranges. Seeds: footers cut from the test files
// (fuzz_seeds footer).

#include <cstring>
#include <vector>

#include "fuzz_util.h"
#include "storage/parquet/parquet_file.h"
#include "storage/parquet/parquet_reader.h"

using namespace shears;
using namespace shears::parquet;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static fuzz::MemoryFile memory_file;
  std::vector<uint8_t> bytes = {'P', 'A', 'R', '1'};
  bytes.insert(bytes.end(), data, data + size);
  const uint32_t length = static_cast<uint32_t>(size);
  uint8_t tail[8] = {0, 0, 0, 0, 'P', 'A', 'R', '1'};
  std::memcpy(tail, &length, 4);
  bytes.insert(bytes.end(), tail, tail + 8);
  const std::string& path = memory_file.Write(bytes.data(), bytes.size());
  fuzz::ExpectOnlyUserErrors([&] {
    auto file = ParquetFile::Open(path);
    for (int rg = 0; rg < file->num_row_groups(); rg++) {
      file->row_group_num_rows(rg);
      for (size_t column = 0; column < file->columns().size(); column++) {
        if (file->columns()[column].leaf_index < 0) continue;
        fuzz::ExpectOnlyUserErrors([&] {
          const auto stats = file->GetStatistics(rg, static_cast<int>(column));
          if (stats.min) stats.min->ToString();
          if (stats.max) stats.max->ToString();
        });
      }
    }
    std::vector<int> columns;
    for (size_t column = 0; column < file->columns().size(); column++) {
      if (file->columns()[column].unsupported_reason.empty()) {
        columns.push_back(static_cast<int>(column));
      }
    }
    // The chunks point into bytes that are not there: the reader must say so, not read.
    ParquetReader reader(file, columns);
    Batch batch(reader.output_types());
    for (int i = 0; i < 4 && reader.Next(batch); i++) {
    }
  });
  return 0;
}

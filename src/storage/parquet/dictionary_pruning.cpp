#include "storage/parquet/dictionary_pruning.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

#include "common/error.h"
#include "expression/expression_executor.h"
#include "storage/parquet/column_reader.h"
#include "storage/parquet/page_index.h"

namespace shears::parquet {

bool DictionaryMayMatch(const RuntimeFilter& filter, const ParquetFile& file, int column,
                        int row_group, uint64_t* bytes_read, const BoundExpr* key_expr,
                        uint32_t* matches, std::shared_ptr<const DecodedDictionary>* decoded) {
  if (matches) *matches = 0;
  try {
    const Vector* dictionary = nullptr;
    size_t entries = 0;
    ScanCounters counters;
    std::optional<ColumnChunkReader> reader;
    if (decoded && *decoded) {
      dictionary = (*decoded)->values.get();
      entries = (*decoded)->size;
    } else {
      const auto& meta = file.chunk(row_group, column).meta_data;
      // A LIST column's dictionary holds elements, not the values a predicate tests.
      if (file.columns()[static_cast<size_t>(column)].max_repetition_level > 0) return true;
      if (!ChunkFullyDictionaryEncoded(meta) || !meta.__isset.dictionary_page_offset ||
          meta.dictionary_page_offset < 4 || meta.dictionary_page_offset >= meta.data_page_offset ||
          static_cast<uint64_t>(meta.data_page_offset) > file.file_size()) {
        return true;
      }
      // The dictionary page lies between dictionary_page_offset and the first data page.
      const uint64_t start = static_cast<uint64_t>(meta.dictionary_page_offset);
      const uint64_t size = static_cast<uint64_t>(meta.data_page_offset) - start;
      auto buffer = std::make_shared_for_overwrite<uint8_t[]>(std::max<uint64_t>(size, 1));
      file.file().ReadAt(start, size, buffer.get());
      *bytes_read += size;
      reader.emplace(file, row_group, column, ChunkBytes{buffer, 0, size}, &counters);
      dictionary = reader->ReadDictionary(&entries);
      if (!dictionary || entries == 0) return true;
      if (decoded) {
        auto taken = reader->TakeDictionary();
        if (taken) taken->column = column;
        *decoded = std::move(taken);
      }
    }
    // Sized by the dictionary (often a few hundred entries), not a batch: one check per row
    // group, most of which then read the chunk anyway.
    const size_t slice_size = std::min<size_t>(kBatchSize, entries);
    std::vector<uint32_t> kept(slice_size);
    std::vector<uint64_t> hashes;
    std::vector<uint32_t> sel(slice_size);
    Batch slice;
    Vector keys;
    if (key_expr) {
      slice = Batch({dictionary->type()});
      keys = Vector(key_expr->type);
    }
    for (size_t start_entry = 0; start_entry < entries; start_entry += kBatchSize) {
      // Probe the dictionary in slices of a batch, through a selection of its entries.
      const idx_t count = static_cast<idx_t>(std::min<size_t>(kBatchSize, entries - start_entry));
      for (idx_t k = 0; k < count; k++)
        sel[k] = static_cast<uint32_t>(start_entry + k);
      idx_t found = 0;
      if (!key_expr) {
        found = filter.Probe({dictionary}, count, sel.data(), kept.data(), hashes);
      } else {
        slice.column(0).Reset();
        slice.column(0).CopyRows(*dictionary, sel.data(), count);
        slice.SetSize(count);
        keys.Reset();
        ExpressionExecutor::Execute(*key_expr, slice, keys);  // an Error: cannot tell (below)
        found = filter.Probe({&keys}, count, nullptr, kept.data(), hashes);
      }
      if (found > 0) {
        if (matches) *matches = static_cast<uint32_t>(found);
        return true;
      }
    }
    return false;
  } catch (const Error&) {
    if (decoded) decoded->reset();
    return true;  // an unreadable dictionary only costs the pruning; the read reports it
  }
}

}  // namespace shears::parquet

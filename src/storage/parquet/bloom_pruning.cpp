#include "storage/parquet/bloom_pruning.h"

namespace shears::parquet {

bool BloomMayMatch(const RuntimeFilter& filter, const ParquetFile& file, int column, int row_group,
                   const LogicalType& key_type) {
  if (!filter.probes_parquet_bloom()) return true;
  const auto& desc = file.columns()[static_cast<size_t>(column)];
  const bool plain = desc.conversion == Conversion::kNone || desc.conversion == Conversion::kString;
  const auto& meta = file.chunk(row_group, column).meta_data;
  if (!plain || desc.type != key_type || !meta.__isset.bloom_filter_offset) return true;
  auto bloom = file.ReadBloomFilter(row_group, column);
  return !bloom || filter.ParquetBloomMayMatch(*bloom, desc.physical_type);
}

}  // namespace shears::parquet

#include "storage/parquet/bloom_pruning.h"

namespace shears::parquet {

bool BloomMayMatch(const RuntimeFilter& filter, const ParquetFile& file, int column, int row_group,
                   const LogicalType& key_type) {
  if (!filter.probes_parquet_bloom()) return true;
  const auto& desc = file.columns()[static_cast<size_t>(column)];
  const bool plain = desc.conversion == Conversion::kNone || desc.conversion == Conversion::kString;
  const auto& meta = file.chunk(row_group, column).meta_data;
  if (!plain || desc.type != key_type || !meta.__isset.bloom_filter_offset) return true;
  // The runtime filter hashes its keys as the chunk stores them: plain INT32, INT64 or
  // BYTE_ARRAY (kInvalid for any other: it cannot tell).
  PhysicalType stored = PhysicalType::kInvalid;
  if (desc.physical_type == format::Type::INT32) stored = PhysicalType::kInt32;
  if (desc.physical_type == format::Type::INT64) stored = PhysicalType::kInt64;
  if (desc.physical_type == format::Type::BYTE_ARRAY) stored = PhysicalType::kString;
  auto bloom = file.ReadBloomFilter(row_group, column);
  return !bloom || filter.ParquetBloomMayMatch(*bloom, stored);
}

}  // namespace shears::parquet

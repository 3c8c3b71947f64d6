#include "storage/file_statistics.h"

#include "function/function.h"

namespace shears {

bool CatalogStatisticsUsable(const LogicalType& type) {
  switch (type.id()) {
    case TypeId::kBoolean:
    case TypeId::kInteger:
    case TypeId::kBigint:
    case TypeId::kDecimal:
    case TypeId::kDate:
    case TypeId::kTimestamp:
    case TypeId::kVarchar:
      return true;
    default:
      return false;
  }
}

std::optional<Value> ParseStatisticsBound(const std::string& text, const LogicalType& type) {
  if (!CatalogStatisticsUsable(type)) return std::nullopt;
  try {
    Value value = CastValue(Value::Varchar(text), type, /*try_cast=*/true);
    // Only a bound that writes back as it was stored is trusted: a text form that changed
    // between versions must not move a bound inward.
    if (value.is_null() || value.ToString() != text) return std::nullopt;
    return value;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::shared_ptr<const FileStatistics> FooterFileStatistics(const parquet::ParquetFooter& footer,
                                                           const std::vector<int>& column_map,
                                                           const std::vector<LogicalType>& types) {
  auto stats = std::make_shared<FileStatistics>();
  stats->columns.resize(column_map.size());
  for (size_t c = 0; c < column_map.size() && c < types.size(); c++) {
    const int in_file = column_map[c];
    if (in_file < 0 || static_cast<size_t>(in_file) >= footer.columns.size()) continue;
    const auto& desc = footer.columns[static_cast<size_t>(in_file)];
    if (!types[c].valid() || !(desc.type == types[c]) ||
        desc.physical_type == format::Type::INT96) {
      continue;
    }
    stats->columns[c] = parquet::FileColumnStatistics(footer, in_file);
  }
  return stats;
}

}  // namespace shears

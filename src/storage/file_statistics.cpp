#include "storage/file_statistics.h"

#include <charconv>
#include <climits>
#include <cstdint>
#include <string>

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
  // The common key types without a cast (a catalog table's thousands of files each have some).
  if (type.id() == TypeId::kVarchar) return Value::Varchar(text);
  if (type.id() == TypeId::kInteger || type.id() == TypeId::kBigint) {
    int64_t v = 0;
    const char* end = text.data() + text.size();
    const auto [at, error] = std::from_chars(text.data(), end, v);
    if (error != std::errc() || at != end || std::to_string(v) != text) return std::nullopt;
    if (type.id() == TypeId::kBigint) return Value::Bigint(v);
    if (v < INT32_MIN || v > INT32_MAX) return std::nullopt;
    return Value::Integer(static_cast<int32_t>(v));
  }
  if (type.id() == TypeId::kDate) {
    int32_t days = 0;
    if (!ParseDate(text, &days) || FormatDate(days) != text) return std::nullopt;
    return Value::Date(days);
  }
  if (type.id() == TypeId::kTimestamp) {
    int64_t micros = 0;
    // Catalogs written before timestamps printed without trailing zeros hold six digits.
    std::string canonical = text;
    if (canonical.find('.') != std::string::npos) {
      while (canonical.back() == '0')
        canonical.pop_back();
      if (canonical.back() == '.') canonical.pop_back();
    }
    if (!ParseTimestamp(text, &micros) || FormatTimestamp(micros) != canonical) {
      return std::nullopt;
    }
    return Value::Timestamp(micros);
  }
  if (type.id() == TypeId::kDecimal) {
    // [-]digits[.digits] with exactly the column's fraction digits, as FormatDecimal writes it.
    int128_t unscaled = 0;
    int digits = 0;
    for (char c : text) {
      if (c < '0' || c > '9') continue;
      if (++digits > LogicalType::kMaxDecimalPrecision) return std::nullopt;
      unscaled = unscaled * 10 + (c - '0');
    }
    if (!text.empty() && text[0] == '-') unscaled = -unscaled;
    if (digits == 0 || FormatDecimal(unscaled, type.scale()) != text) return std::nullopt;
    int128_t limit = 1;
    for (int i = 0; i < type.precision(); i++)
      limit *= 10;
    if (unscaled >= limit || unscaled <= -limit) return std::nullopt;
    return Value::Decimal(unscaled, type.precision(), type.scale());
  }
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

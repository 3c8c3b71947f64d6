#include "storage/parquet/inspect.h"

#include <fmt/format.h>

#include <ostream>

#include "storage/parquet/compression.h"

namespace shears::parquet {

namespace {

const char* EncodingName(format::Encoding::type encoding) {
  switch (encoding) {
    case format::Encoding::PLAIN:
      return "PLAIN";
    case format::Encoding::PLAIN_DICTIONARY:
      return "PLAIN_DICTIONARY";
    case format::Encoding::RLE:
      return "RLE";
    case format::Encoding::BIT_PACKED:
      return "BIT_PACKED";
    case format::Encoding::DELTA_BINARY_PACKED:
      return "DELTA_BINARY_PACKED";
    case format::Encoding::DELTA_LENGTH_BYTE_ARRAY:
      return "DELTA_LENGTH_BYTE_ARRAY";
    case format::Encoding::DELTA_BYTE_ARRAY:
      return "DELTA_BYTE_ARRAY";
    case format::Encoding::RLE_DICTIONARY:
      return "RLE_DICTIONARY";
    case format::Encoding::BYTE_STREAM_SPLIT:
      return "BYTE_STREAM_SPLIT";
  }
  return "UNKNOWN";
}

std::string HumanBytes(int64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    unit++;
  }
  return unit == 0 ? fmt::format("{} B", bytes) : fmt::format("{:.1f} {}", value, units[unit]);
}

std::string Bound(const std::optional<Value>& value) {
  if (!value) return "?";
  std::string text = value->ToString();
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

}  // namespace

void DescribeParquetFile(const ParquetFile& file, std::ostream& out) {
  const auto& meta = file.metadata();
  out << fmt::format("file:        {}\n", file.path());
  out << fmt::format("size:        {} ({} bytes), footer {} bytes\n",
                     HumanBytes(static_cast<int64_t>(file.file_size())), file.file_size(),
                     file.footer_length());
  out << fmt::format("created by:  {}\n", meta.__isset.created_by ? meta.created_by : "(unknown)");
  out << fmt::format("version:     {}\n", meta.version);
  out << fmt::format("rows:        {}\n", meta.num_rows);
  out << fmt::format("row groups:  {}\n", meta.row_groups.size());
  if (meta.__isset.key_value_metadata && !meta.key_value_metadata.empty()) {
    out << "metadata:\n";
    for (const auto& kv : meta.key_value_metadata) {
      std::string value = kv.__isset.value ? kv.value : "(none)";
      if (value.size() > 80) value = value.substr(0, 77) + "...";
      out << fmt::format("  {} = {}\n", kv.key, value);
    }
  }
  out << "\nschema:\n";
  for (const auto& column : file.columns()) {
    std::string type = column.type.valid() ? column.type.ToString() : "unsupported";
    out << fmt::format("  {:<24} {:<16} {:<32} {}\n", column.name, type, column.parquet_type_name,
                       column.leaf_index < 0 || column.nested ? "nested"
                       : column.max_definition_level > 0      ? "OPTIONAL"
                                                              : "REQUIRED");
  }
  for (int rg = 0; rg < file.num_row_groups(); rg++) {
    const auto& group = meta.row_groups[static_cast<size_t>(rg)];
    out << fmt::format("\nrow group {}: {} rows, {}\n", rg, group.num_rows,
                       HumanBytes(group.total_byte_size));
    for (size_t c = 0; c < file.columns().size(); c++) {
      const auto& column = file.columns()[c];
      if (column.leaf_index < 0 || column.nested) {
        // A nested column's chunks are its leaves'.
        out << fmt::format("  {}: nested, {} leaves, not shown\n", column.name, column.leaf_count);
        continue;
      }
      const auto& chunk = file.chunk(rg, static_cast<int>(c));
      if (!chunk.__isset.meta_data) {
        out << fmt::format("  {}: no metadata (encrypted?)\n", column.name);
        continue;
      }
      const auto& cm = chunk.meta_data;
      std::string encodings;
      for (auto e : cm.encodings)
        encodings += std::string(encodings.empty() ? "" : ",") + EncodingName(e);
      out << fmt::format("  {}: {} {}, {} values, {} compressed / {} uncompressed, offset {}\n",
                         column.name, CodecName(cm.codec), encodings, cm.num_values,
                         HumanBytes(cm.total_compressed_size),
                         HumanBytes(cm.total_uncompressed_size), cm.data_page_offset);
      auto stats = file.GetStatistics(rg, static_cast<int>(c));
      out << fmt::format(
          "      stats: min {} max {} nulls {}{}\n", Bound(stats.min), Bound(stats.max),
          stats.null_count ? std::to_string(*stats.null_count) : "?",
          stats.distinct_count ? fmt::format(" distinct {}", *stats.distinct_count) : "");
      std::string extras;
      if (chunk.__isset.column_index_offset) extras += " column-index";
      if (chunk.__isset.offset_index_offset) extras += " offset-index";
      if (cm.__isset.bloom_filter_offset) {
        extras += fmt::format(" bloom-filter({})", cm.__isset.bloom_filter_length
                                                       ? HumanBytes(cm.bloom_filter_length)
                                                       : std::string("?"));
      }
      if (!extras.empty()) out << "      has:" << extras << '\n';
    }
  }
}

}  // namespace shears::parquet

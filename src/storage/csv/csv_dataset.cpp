#include "storage/csv/csv_dataset.h"

#include <unordered_map>

#include "common/error.h"
#include "common/file_format.h"
#include "common/string_util.h"
#include "storage/csv/csv_reader.h"
#include "storage/csv/csv_sniffer.h"

namespace shears {

namespace {

/// The type holding values of both sniffed types (union_by_name): numbers widen, dates become
/// timestamps, anything else is text.
LogicalType UnifySniffed(const LogicalType& a, const LogicalType& b) {
  if (a == b) return a;
  auto rank = [](const LogicalType& t) {
    switch (t.id()) {
      case TypeId::kBoolean:
        return 1;
      case TypeId::kInteger:
        return 2;
      case TypeId::kBigint:
        return 3;
      case TypeId::kDouble:
        return 4;
      default:
        return 0;
    }
  };
  if (rank(a) > 1 && rank(b) > 1) return rank(a) > rank(b) ? a : b;
  const bool a_time = a.id() == TypeId::kDate || a.id() == TypeId::kTimestamp;
  const bool b_time = b.id() == TypeId::kDate || b.id() == TypeId::kTimestamp;
  if (a_time && b_time) return LogicalType::Timestamp();
  return LogicalType::Varchar();
}

}  // namespace

std::shared_ptr<Dataset> OpenCsvDataset(const std::string& path_or_glob,
                                        const CsvOptions& options) {
  DatasetOptions dataset_options;
  dataset_options.hive_partitioning = options.hive_partitioning;
  DatasetListing listing = ListDataset(path_or_glob, dataset_options, IsCsvFileName, "CSV");
  auto info = std::make_shared<CsvScanInfo>();
  info->options = options;

  // The schema: the first file with rows (or a header) gives it; with union_by_name every
  // file is sniffed and the columns are unified by name.
  std::vector<CsvSniffResult> sniffed;
  size_t schema_file = 0;
  bool have_schema = false;
  for (size_t i = 0; i < listing.files.size(); i++) {
    if (have_schema && !options.union_by_name) break;
    auto buffer = CsvFileBuffer::Open(listing.files[i].path, options.compression);
    CsvSniffResult result = SniffCsv(*buffer, options);
    const bool usable = !result.names.empty() || !options.columns.empty();
    if (usable && !have_schema) {
      have_schema = true;
      schema_file = i;
    }
    sniffed.push_back(std::move(result));
  }
  if (!have_schema) {
    throw InvalidInputError(
        "CSV file '{}' is empty: there are no columns to read (give them with columns = 'name "
        "TYPE, ...')",
        listing.files.front().path);
  }
  const CsvSniffResult& first = sniffed[schema_file];
  info->dialect = first.dialect;
  info->date_format = first.date_format;
  info->timestamp_format = first.timestamp_format;
  info->names = first.names;
  info->types = first.types;
  for (const auto& result : sniffed)
    info->quoted_newlines = info->quoted_newlines || result.quoted_newlines;
  if (options.union_by_name) {
    std::unordered_map<std::string, size_t> by_name;
    for (size_t c = 0; c < info->names.size(); c++)
      by_name.emplace(AsciiLower(info->names[c]), c);
    for (const auto& result : sniffed) {
      for (size_t c = 0; c < result.names.size(); c++) {
        auto [it, inserted] = by_name.emplace(AsciiLower(result.names[c]), info->names.size());
        if (inserted) {
          info->names.push_back(result.names[c]);
          info->types.push_back(result.types[c]);
        } else if (!result.empty) {
          info->types[it->second] = UnifySniffed(info->types[it->second], result.types[c]);
        }
      }
    }
    for (const auto& result : sniffed) {
      std::vector<int> map(info->names.size(), -1);
      for (size_t c = 0; c < result.names.size(); c++)
        map[by_name[AsciiLower(result.names[c])]] = static_cast<int>(c);
      info->column_maps.push_back(std::move(map));
      info->file_columns.push_back(result.names.size());
    }
  } else {
    info->file_columns.assign(listing.files.size(), info->names.size());
  }

  std::vector<DatasetColumn> columns;
  std::unordered_map<std::string, size_t> names;
  for (size_t c = 0; c < info->names.size(); c++) {
    DatasetColumn column;
    column.name = info->names[c];
    column.type = info->types[c];
    names.emplace(AsciiLower(column.name), c);
    columns.push_back(std::move(column));
  }
  if (options.filename) {
    info->has_filename_column = true;
    DatasetColumn column;
    column.name = "filename";
    column.type = LogicalType::Varchar();
    if (!names.emplace("filename", columns.size()).second) {
      throw InvalidInputError("'{}' already has a column 'filename'; filename = true adds one",
                              listing.files.front().path);
    }
    columns.push_back(std::move(column));
  }
  for (auto& partition : listing.partition_columns) {
    if (names.count(AsciiLower(partition.name))) {
      throw InvalidInputError(
          "the Hive partition key '{}' is also a column of '{}'; disable hive_partitioning or "
          "rename one of them",
          partition.name, listing.files.front().path);
    }
    columns.push_back(std::move(partition));
  }
  // Row estimates: sizes over the bytes per row of the sniffed sample.
  for (auto& file : listing.files) {
    file.num_rows =
        static_cast<int64_t>(static_cast<double>(file.size) / std::max(1.0, first.bytes_per_row));
  }
  auto dataset =
      Dataset::FromFiles(listing.root, std::move(columns), std::move(listing.files), std::string());
  dataset->set_csv(std::move(info));
  return dataset;
}

}  // namespace shears

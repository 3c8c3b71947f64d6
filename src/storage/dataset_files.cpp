#include "storage/dataset.h"

// A dataset's files once listed: opening them, mapping their columns to the dataset's, row
// estimates and partition statistics (dataset.cpp lists and types them).

#include <algorithm>

#include "common/error.h"
#include "common/string_util.h"
#include "storage/file_statistics.h"
#include "storage/memory_table.h"
#include "storage/parquet/parquet_file.h"

namespace shears {

namespace {

// Bytes a row takes plain-encoded, uncompressed, from the first row group's column chunks:
// the physical widths, strings their statistics' average length (16 when there are none) plus
// the length prefix. -1 when the file has no row group.
double PlainRowBytes(const format::FileMetaData& metadata) {
  if (metadata.row_groups.empty()) return -1;
  double bytes = 0;
  for (const auto& chunk : metadata.row_groups[0].columns) {
    const auto& meta = chunk.meta_data;
    using T = format::Type;
    switch (meta.type) {
      case T::BOOLEAN:
        bytes += 0.125;
        break;
      case T::INT32:
      case T::FLOAT:
        bytes += 4;
        break;
      case T::INT64:
      case T::DOUBLE:
        bytes += 8;
        break;
      case T::INT96:
        bytes += 12;
        break;
      default: {
        const auto& stats = meta.statistics;
        double length = 16;
        if (stats.__isset.min_value && stats.__isset.max_value) {
          length = (stats.min_value.size() + stats.max_value.size()) / 2.0;
        } else if (stats.__isset.min && stats.__isset.max) {
          length = (stats.min.size() + stats.max.size()) / 2.0;
        }
        bytes += length + (meta.type == T::BYTE_ARRAY ? 4 : 0);
      }
    }
  }
  return bytes;
}

}  // namespace

void Dataset::EstimateRowBytes(const DatasetFile& first) {
  EstimateRowBytes(first.size, first.num_rows, *schema_footer_);
}

void Dataset::EstimateRowBytes(uint64_t size, int64_t num_rows,
                               const parquet::ParquetFooter& footer) {
  // Estimates for the footers not read: a file is a fixed part (footer, page headers,
  // dictionaries, indexes) plus its rows times bytes per row, both from one file whose footer
  // was read. Its data bytes per row overstate the per-row cost of a small file (a daily
  // partition of a few rows is mostly fixed part), so the cost is capped by the plain-encoded
  // width of a row, and what the rows do not explain is the fixed part of every file.
  const uint64_t footer_bytes = footer.footer_length + 12;
  const double data_bytes =
      static_cast<double>(std::max<uint64_t>(size, footer_bytes + 1) - footer_bytes);
  // An empty file says nothing of the rows of the others: assume 8 bytes a row.
  double row_bytes = 8;
  if (num_rows > 0) {
    row_bytes = data_bytes / static_cast<double>(num_rows);
    const double plain = PlainRowBytes(footer.metadata);
    if (plain > 0 && plain < row_bytes) row_bytes = plain;
  }
  rows_per_data_byte_ = 1.0 / row_bytes;
  const double fixed_bytes =
      static_cast<double>(size) - static_cast<double>(std::max<int64_t>(num_rows, 0)) * row_bytes;
  schema_footer_bytes_ =
      std::max<uint64_t>(footer_bytes, static_cast<uint64_t>(std::max(fixed_bytes, 0.0)));
}

void Dataset::ComputePartitionStatistics(const std::vector<int64_t>& partition_rows) {
  // Statistics of each partition column from the partitions' values, NULL rows counted from
  // the rows of the partitions holding them.
  partition_statistics_.assign(num_partition_columns_, {});
  for (size_t key = 0; key < num_partition_columns_; key++) {
    std::vector<Value> values;
    int64_t null_rows = 0;
    for (size_t p = 0; p < num_partitions_; p++) {
      const Value& value = (*partitions_)[p][key];
      if (value.is_null()) {
        null_rows += partition_rows[p];
      } else {
        values.push_back(value);
      }
    }
    std::sort(values.begin(), values.end(),
              [](const Value& a, const Value& b) { return a.Compare(b) < 0; });
    values.erase(std::unique(values.begin(), values.end()), values.end());
    DatasetColumnStatistics& stats = partition_statistics_[key];
    stats.distinct_count = static_cast<int64_t>(values.size());
    stats.null_count = null_rows;
    if (!values.empty()) {
      stats.min = values.front();
      stats.max = values.back();
    }
  }
}

std::shared_ptr<Dataset> Dataset::FromFiles(std::string root, std::vector<DatasetColumn> columns,
                                            std::vector<DatasetFile> files,
                                            std::string table_name) {
  std::shared_ptr<Dataset> dataset(new Dataset());
  dataset->root_ = std::move(root);
  dataset->columns_ = std::move(columns);
  dataset->files_ = std::move(files);
  for (const auto& column : dataset->columns_)
    dataset->num_partition_columns_ += column.is_partition ? 1 : 0;
  dataset->catalog_table_ = std::move(table_name);
  dataset->IndexPartitions();
  return dataset;
}

const std::shared_ptr<const FileStatistics>& Dataset::file_statistics(size_t index) const {
  const DatasetFile& file = files_[index];
  if (file.statistics || !statistics_loader_) return file.statistics;
  std::call_once(statistics_once_, [this] {
    loaded_statistics_ = statistics_loader_(*this);
    loaded_statistics_.resize(files_.size());
    statistics_loaded_.store(true, std::memory_order_release);
  });
  return loaded_statistics_[index];
}

bool Dataset::statistics_loaded() const {
  return statistics_loaded_.load(std::memory_order_acquire);
}

std::shared_ptr<Dataset> Dataset::FromMemory(std::shared_ptr<const MemoryTable> table) {
  std::shared_ptr<Dataset> dataset(new Dataset());
  for (const auto& column : table->columns)
    dataset->columns_.push_back({column.name, column.type, false, ""});
  dataset->IndexPartitions();
  dataset->total_rows_ = static_cast<int64_t>(table->rows);
  dataset->memory_ = std::move(table);
  return dataset;
}

std::shared_ptr<parquet::ParquetFile> Dataset::OpenFile(
    size_t index, std::shared_ptr<const parquet::ParquetFooter> footer) const {
  const DatasetFile& recorded = files_.at(index);
  // The first file's footer, read while opening, serves its scan too (also when the file was
  // too recent for the footer cache), if the file did not change since.
  if (!footer && recorded.path == schema_path_) footer = schema_footer_;
  auto file = parquet::ParquetFile::Open(recorded.path, std::move(footer));
  if (!catalog_table_.empty()) {
    auto changed = [&](const std::string& what) {
      return IOError(
          "'{}' changed after the catalog listed it ({}); run ALTER TABLE {} RECOVER "
          "PARTITIONS",
          recorded.path, what, catalog_table_);
    };
    if (file->file_size() != recorded.size) {
      throw changed(fmt::format("{} bytes now, {} recorded", file->file_size(), recorded.size));
    }
    const auto& file_columns = file->columns();
    for (size_t c = 0; c < recorded.column_map.size(); c++) {
      const int in_file = recorded.column_map[c];
      if (in_file < 0) continue;
      if (static_cast<size_t>(in_file) >= file_columns.size() ||
          AsciiLower(file_columns[static_cast<size_t>(in_file)].name) !=
              AsciiLower(columns_[c].name)) {
        throw changed(fmt::format("column '{}' is not where it was", columns_[c].name));
      }
    }
    return file;
  }
  // Mapped outside the lock: this is where a file's schema errors are found.
  std::vector<int> map = MapFileColumns(*file);
  std::lock_guard<std::mutex> lock(map_mutex_);
  if (!mapped_[index]) {
    // Filled once, before any reader of this file's column_map gets the file.
    const_cast<DatasetFile&>(recorded).column_map = std::move(map);
    mapped_[index] = 1;
  } else if (map != recorded.column_map) {
    throw IOError(
        "'{}' changed while the query was reading it (its columns are not where they were); "
        "run the query again",
        recorded.path);
  }
  return file;
}

std::vector<int> Dataset::MapFileColumns(const parquet::ParquetFile& file) const {
  const auto& file_columns = file.columns();
  std::unordered_map<std::string, int> by_name;
  for (size_t c = 0; c < file_columns.size(); c++) {
    auto [it, inserted] = by_name.emplace(AsciiLower(file_columns[c].name), static_cast<int>(c));
    if (!inserted) {
      throw InvalidInputError(
          "'{}' has two columns named '{}' and '{}' (column names are case-insensitive)",
          file.path(), file_columns[static_cast<size_t>(it->second)].name, file_columns[c].name);
    }
  }
  const std::string& schema_file = schema_path_;
  const size_t file_column_count = num_file_columns();
  std::vector<int> map(file_column_count, -1);
  size_t found = 0;
  for (size_t c = 0; c < file_column_count; c++) {
    const DatasetColumn& column = columns_[c];
    auto it = by_name.find(AsciiLower(column.name));
    if (it == by_name.end()) {
      if (!missing_columns_are_null_) {
        throw InvalidInputError(
            "'{}' lacks the column '{}' of '{}' (enable union_by_name to read missing columns "
            "as NULL)",
            file.path(), column.name, schema_file);
      }
      continue;
    }
    found++;
    const LogicalType& type = file_columns[static_cast<size_t>(it->second)].type;
    if (type.valid() && column.type.valid()) {
      auto widened = WidenColumnTypes(column.type, type);
      if (!widened || !(*widened == column.type)) {
        throw InvalidInputError(
            "column '{}' has type {} in '{}' but {} in '{}'; {}", column.name,
            column.type.ToString(), lazy_ ? schema_file : std::string("the dataset"),
            type.ToString(), file.path(),
            lazy_ ? "the dataset's schema comes from its first file (read_parquet(..., "
                    "union_by_name = true) unifies the schemas of all files)"
                  : "the file changed since the query listed it");
      }
    }
    map[c] = it->second;
  }
  if (!missing_columns_are_null_ && found < file_columns.size()) {
    for (const auto& desc : file_columns) {
      if (FindColumn(desc.name) < 0 || columns_[FindColumn(desc.name)].is_partition) {
        throw InvalidInputError(
            "'{}' has the column '{}', which '{}' does not have (enable union_by_name to "
            "combine files with different columns)",
            file.path(), desc.name, schema_file);
      }
    }
  }
  return map;
}

int Dataset::FindColumn(const std::string& name) const {
  std::string key = AsciiLower(name);
  for (size_t i = 0; i < columns_.size(); i++) {
    if (AsciiLower(columns_[i].name) == key) return static_cast<int>(i);
  }
  return -1;
}

int64_t Dataset::total_rows() const {
  return total_rows_;
}

int64_t Dataset::estimated_rows(size_t index) const {
  const DatasetFile& file = files_[index];
  return file.num_rows >= 0 ? file.num_rows : EstimatedRows(file.size);
}

int64_t Dataset::EstimatedRows(uint64_t size) const {
  const uint64_t data_bytes = size > schema_footer_bytes_ ? size - schema_footer_bytes_ : 0;
  // A file larger than the fixed part holds a row at least (a few bytes of shorter strings
  // than the first file's would otherwise round it to none).
  if (data_bytes == 0) return 0;
  return std::max<int64_t>(
      1, static_cast<int64_t>(static_cast<double>(data_bytes) * rows_per_data_byte_ + 0.5));
}

}  // namespace shears

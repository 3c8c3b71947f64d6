#include "catalog/external_table.h"

#include <filesystem>
#include <map>

#include "common/error.h"
#include "common/string_util.h"
#include "function/function.h"
#include "storage/file_statistics.h"
#include "storage/file_system.h"
#include "storage/hive/hive_partitioning.h"

namespace shears {

namespace {

std::string NameList(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names)
    out += (out.empty() ? "" : ", ") + name;
  return "(" + out + ")";
}

/// The location as an absolute, normalized directory path without a trailing slash.
std::string NormalizeLocation(const std::string& location) {
  if (location.empty()) throw InvalidInputError("LOCATION is empty");
  std::error_code ec;
  std::filesystem::path path = std::filesystem::absolute(location, ec).lexically_normal();
  std::string text = path.string();
  while (text.size() > 1 && text.back() == '/')
    text.pop_back();
  if (!PathExists(text)) throw IOError("LOCATION '{}' does not exist", location);
  if (!IsDirectory(text)) {
    throw InvalidInputError("LOCATION '{}' is a file; an external table's location is a directory",
                            location);
  }
  return text;
}

bool HasDataFiles(const std::string& directory) {
  for (const auto& path : ListFilesRecursive(directory)) {
    if (IsDataFileName(std::filesystem::path(path).filename().string())) return true;
  }
  return false;
}

std::string RelativeTo(const std::string& path, const std::string& root) {
  if (root == "/") return path.substr(1);
  return path.substr(root.size() + 1);
}

/// The type a declared column may have for file columns of `unified` type: the same, or one
/// the reader widens to.
bool DeclaredTypeFits(const LogicalType& declared, const LogicalType& unified) {
  auto widened = WidenColumnTypes(unified, declared);
  return widened && *widened == declared;
}

/// The table's partition columns from PARTITIONED BY and the column list (Spark lets the
/// column list give the type, Hive puts it in PARTITIONED BY).
std::vector<ExternalTableSpec::Column> PartitionColumns(
    const ExternalTableSpec& spec, std::vector<ExternalTableSpec::Column>* file_columns) {
  std::vector<ExternalTableSpec::Column> partitions = spec.partition_columns;
  for (auto& partition : partitions) {
    for (auto it = file_columns->begin(); it != file_columns->end(); ++it) {
      if (AsciiLower(it->name) != AsciiLower(partition.name)) continue;
      if (partition.type && it->type && !(*partition.type == *it->type)) {
        throw InvalidInputError("partition column '{}' is declared as {} and as {}", partition.name,
                                partition.type->ToString(), it->type->ToString());
      }
      if (!partition.type) partition.type = it->type;
      file_columns->erase(it);
      break;
    }
  }
  return partitions;
}

}  // namespace

namespace {

/// The footer statistics of `file` as the catalog stores them (text, level "file"), for the
/// table's file columns (`dataset_index`: each one's dataset column); columns whose bounds do
/// not read back in the table column's type keep only their null count.
StatisticsEntry FileStatisticsEntry(const TableDefinition& table,
                                    const std::vector<int>& dataset_index, const DatasetFile& file,
                                    const std::string& relative) {
  StatisticsEntry entry{"file", relative, file.num_rows, static_cast<int64_t>(file.size), {}};
  for (size_t t = 0; t < dataset_index.size(); t++) {
    const auto& known = file.statistics->columns[static_cast<size_t>(dataset_index[t])];
    if (!known) continue;
    ColumnStatistics column;
    column.column = table.columns[t].name;
    column.null_count = known->null_count.value_or(-1);  // -1: unknown
    if (known->min && known->max && CatalogStatisticsUsable(table.columns[t].type)) {
      const std::string min = known->min->ToString(), max = known->max->ToString();
      if (ParseStatisticsBound(min, table.columns[t].type) &&
          ParseStatisticsBound(max, table.columns[t].type)) {
        column.min = min;
        column.max = max;
      }
    }
    entry.columns.push_back(std::move(column));
  }
  return entry;
}

}  // namespace

TableDefinition ScanExternalTable(const ExternalTableSpec& spec) {
  TableDefinition table;
  table.name = spec.name;
  table.location = NormalizeLocation(spec.location);
  table.columns_declared = spec.columns_declared;
  std::vector<ExternalTableSpec::Column> declared = spec.columns;
  const auto partition_spec = PartitionColumns(spec, &declared);

  if (!HasDataFiles(table.location)) {
    // An empty location is a table to fill later (then RECOVER PARTITIONS), if it says what
    // its columns are.
    if (!spec.columns_declared) {
      throw InvalidInputError(
          "LOCATION '{}' holds no Parquet files, so the table's columns cannot be read from "
          "them; declare the columns: CREATE EXTERNAL TABLE {} (name type, ...) ...",
          spec.location, spec.name);
    }
    for (const auto& column : declared)
      table.columns.push_back({column.name, *column.type, false, ""});
    for (const auto& column : partition_spec) {
      if (!column.type) {
        throw InvalidInputError(
            "LOCATION '{}' holds no files to infer the type of partition column '{}' from; "
            "give it: PARTITIONED BY ({} type)",
            spec.location, column.name, column.name);
      }
      table.columns.push_back({column.name, *column.type, true, ""});
    }
    return table;
  }

  DatasetOptions options;
  options.read_all_footers = true;  // the catalog records every file's rows and columns
  if (!partition_spec.empty()) options.hive_partitioning = true;
  for (const auto& column : partition_spec) {
    if (column.type) options.partition_types[column.name] = *column.type;
  }
  std::shared_ptr<Dataset> dataset;
  try {
    dataset = Dataset::Open(table.location, options);
  } catch (const InvalidInputError& e) {
    throw InvalidInputError("external table '{}': {}", spec.name, e.what());
  }
  table.location = dataset->root();

  // Partition columns must be the directories' keys, in their order.
  std::vector<std::string> keys;
  for (const auto& column : dataset->columns()) {
    if (column.is_partition) keys.push_back(column.name);
  }
  if (!partition_spec.empty()) {
    bool same = keys.size() == partition_spec.size();
    for (size_t i = 0; same && i < keys.size(); i++)
      same = AsciiLower(keys[i]) == AsciiLower(partition_spec[i].name);
    if (!same) {
      std::vector<std::string> names;
      for (const auto& c : partition_spec)
        names.push_back(c.name);
      throw InvalidInputError(
          "PARTITIONED BY {} does not match the directories under '{}', whose partition keys "
          "are {}",
          NameList(names), spec.location, NameList(keys));
    }
  }

  // Table file columns: declared ones (looked up in the files), or all the files have.
  std::vector<int> dataset_index;  // per table file column
  if (spec.columns_declared) {
    std::vector<std::string> available;
    for (const auto& column : dataset->columns()) {
      if (!column.is_partition) available.push_back(column.name);
    }
    for (const auto& column : declared) {
      const int index = dataset->FindColumn(column.name);
      if (index >= 0 && dataset->columns()[static_cast<size_t>(index)].is_partition) {
        throw InvalidInputError(
            "column '{}' of table '{}' is a partition key of the directories under '{}'; name it "
            "in PARTITIONED BY ({})",
            column.name, spec.name, spec.location, column.name);
      }
      if (index < 0) {
        throw InvalidInputError(
            "column '{}' of table '{}' is not in the files under '{}' (they have {})", column.name,
            spec.name, spec.location, NameList(available));
      }
      const DatasetColumn& found = dataset->columns()[static_cast<size_t>(index)];
      if (!found.unsupported_reason.empty()) {
        throw NotSupportedError("column '{}' of table '{}': {}", column.name, spec.name,
                                found.unsupported_reason);
      }
      if (!DeclaredTypeFits(*column.type, found.type)) {
        throw InvalidInputError(
            "column '{}' of table '{}' is declared as {} but the files under '{}' store it as {}",
            column.name, spec.name, column.type->ToString(), spec.location, found.type.ToString());
      }
      table.columns.push_back({column.name, *column.type, false, ""});
      dataset_index.push_back(index);
    }
  } else {
    for (size_t i = 0; i < dataset->num_file_columns(); i++) {
      const DatasetColumn& column = dataset->columns()[i];
      table.columns.push_back({column.name, column.type, false, column.unsupported_reason});
      dataset_index.push_back(static_cast<int>(i));
    }
  }
  for (const auto& column : dataset->columns()) {
    if (column.is_partition) table.columns.push_back({column.name, column.type, true, ""});
  }

  // Files grouped by their directory below the location.
  std::map<std::string, CatalogPartition> partitions;
  for (const DatasetFile& file : dataset->files()) {
    const std::string relative = RelativeTo(file.path, table.location);
    const size_t slash = relative.rfind('/');
    const std::string directory = slash == std::string::npos ? "" : relative.substr(0, slash);
    CatalogFile entry;
    entry.path = relative;
    entry.size = file.size;
    entry.num_rows = file.num_rows;
    for (int index : dataset_index)
      entry.column_map.push_back(file.column_map[static_cast<size_t>(index)]);
    if (file.statistics)
      entry.statistics = FileStatisticsEntry(table, dataset_index, file, relative);
    CatalogPartition& partition = partitions[directory];
    partition.path = directory;
    partition.files.push_back(std::move(entry));
  }
  for (auto& [path, partition] : partitions)
    table.partitions.push_back(std::move(partition));
  return table;
}

std::vector<CatalogPartition> RescanPartitions(const TableDefinition& table) {
  // The stored columns act as a declared column list: new files must fit them.
  ExternalTableSpec spec;
  spec.name = table.name;
  spec.location = table.location;
  spec.columns_declared = true;
  for (const auto& column : table.columns) {
    if (!column.type.valid()) continue;  // unreadable column: keeps no file mapping
    (column.is_partition ? spec.partition_columns : spec.columns)
        .push_back({column.name, column.type});
  }
  TableDefinition scanned = ScanExternalTable(spec);
  // Unreadable columns were left out of the scan; put -1 (absent) at their places.
  std::vector<int> position;
  int next = 0;
  for (const auto& column : table.columns) {
    if (!column.is_partition) position.push_back(column.type.valid() ? next++ : -1);
  }
  for (auto& partition : scanned.partitions) {
    for (auto& file : partition.files) {
      std::vector<int> map;
      for (int p : position)
        map.push_back(p < 0 ? -1 : file.column_map[static_cast<size_t>(p)]);
      file.column_map = std::move(map);
    }
  }
  return std::move(scanned.partitions);
}

std::vector<Value> PartitionValues(const TableDefinition& table,
                                   const CatalogPartition& partition) {
  std::vector<Value> values;
  if (table.num_partition_columns() == 0) return values;
  // ParseHivePath ignores the last component (a file name).
  const auto kvs = ParseHivePath(partition.path + "/file");
  size_t k = 0;
  for (const auto& column : table.columns) {
    if (!column.is_partition) continue;
    if (k >= kvs.size()) {
      throw CorruptFileError("the catalog's partition '{}' of table '{}' lacks the key '{}'",
                             partition.path, table.name, column.name);
    }
    values.push_back(ParsePartitionValue(kvs[k++].value, column.type, column.name));
  }
  return values;
}

std::shared_ptr<const FileStatistics> CatalogFileStatistics(
    const std::vector<DatasetColumn>& columns, const StatisticsEntry& entry) {
  auto stats = std::make_shared<FileStatistics>();
  stats->check_size = true;
  std::vector<std::string> names;  // of entry.columns, lower case
  for (const auto& c : entry.columns)
    names.push_back(AsciiLower(c.column));
  for (const auto& column : columns) {
    if (column.is_partition) continue;
    std::optional<parquet::ColumnChunkStatistics> known;
    const std::string name = AsciiLower(column.name);
    for (size_t i = 0; i < entry.columns.size(); i++) {
      const ColumnStatistics& c = entry.columns[i];
      if (names[i] != name) continue;
      parquet::ColumnChunkStatistics s;
      s.num_values = entry.row_count;
      if (c.null_count >= 0) s.null_count = c.null_count;
      if (c.min && c.max && column.type.valid()) {
        s.min = ParseStatisticsBound(*c.min, column.type);
        s.max = ParseStatisticsBound(*c.max, column.type);
        if (!s.min || !s.max) s.min.reset(), s.max.reset();
      }
      known = std::move(s);
      break;
    }
    stats->columns.push_back(std::move(known));
  }
  return stats;
}

std::shared_ptr<Dataset> DatasetForTable(const TableDefinition& table) {
  std::vector<DatasetColumn> columns;
  for (const auto& column : table.columns) {
    columns.push_back({column.name, column.type, column.is_partition, column.unsupported_reason});
  }
  std::vector<DatasetFile> files;
  for (const auto& partition : table.partitions) {
    const std::vector<Value> values = PartitionValues(table, partition);
    for (const auto& file : partition.files) {
      DatasetFile entry;
      entry.path = table.location == "/" ? "/" + file.path : table.location + "/" + file.path;
      entry.size = file.size;
      entry.num_rows = std::max<int64_t>(file.num_rows, 0);
      entry.partition_values = values;
      entry.column_map = file.column_map;
      files.push_back(std::move(entry));
    }
  }
  auto dataset =
      Dataset::FromFiles(table.location, std::move(columns), std::move(files), table.name);
  if (table.statistics) {
    std::vector<DatasetColumnStatistics> statistics;
    for (const auto& column : table.columns) {
      DatasetColumnStatistics entry;
      for (const auto& stats : table.statistics->columns) {
        if (AsciiLower(stats.column) != AsciiLower(column.name)) continue;
        entry.distinct_count = stats.distinct_count;
        entry.null_count = stats.null_count;
        // Stored as text; a bound that no longer parses as the column's type is just unknown.
        if (stats.min && column.type.valid())
          entry.min = CastValue(Value::Varchar(*stats.min), column.type, /*try_cast=*/true);
        if (stats.max && column.type.valid())
          entry.max = CastValue(Value::Varchar(*stats.max), column.type, /*try_cast=*/true);
      }
      statistics.push_back(std::move(entry));
    }
    dataset->set_column_statistics(std::move(statistics));
  }
  return dataset;
}

}  // namespace shears

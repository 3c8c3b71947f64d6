#include "catalog/analyze.h"

#include <xxhash.h>

#include <algorithm>
#include <set>

#include "catalog/external_table.h"
#include "catalog/hyperloglog.h"
#include "storage/dataset_reader.h"

namespace shears {

namespace {

/// One column's running statistics at one level.
struct ColumnAccumulator {
  int64_t null_count = 0;
  int64_t value_count = 0;  // non-NULL values
  HyperLogLog distinct;
  std::optional<Value> min, max;

  void AddValue(const Value& value) {
    if (!min || value.Compare(*min) < 0) min = value;
    if (!max || value.Compare(*max) > 0) max = value;
  }
  void Merge(const ColumnAccumulator& other) {
    null_count += other.null_count;
    value_count += other.value_count;
    distinct.Merge(other.distinct);
    if (other.min) AddValue(*other.min);
    if (other.max) AddValue(*other.max);
  }
};

/// One level's (file, partition or table) running statistics.
struct LevelAccumulator {
  int64_t rows = 0;
  int64_t bytes = 0;
  std::vector<ColumnAccumulator> columns;  // the file columns read

  explicit LevelAccumulator(size_t column_count) : columns(column_count) {}
  void Merge(const LevelAccumulator& other) {
    rows += other.rows;
    bytes += other.bytes;
    for (size_t c = 0; c < columns.size(); c++)
      columns[c].Merge(other.columns[c]);
  }
};

uint64_t HashSlot(const Vector& vector, idx_t row) {
  if (vector.type().physical() == PhysicalType::kString) {
    const StringRef s = vector.data<StringRef>()[row];
    return XXH64(s.ptr, s.len, 0);
  }
  const size_t width = vector.type().value_size();
  return XXH64(const_cast<Vector&>(vector).raw_data() + row * width, width, 0);
}

ColumnStatistics ToStatistics(const std::string& name, const ColumnAccumulator& acc) {
  ColumnStatistics stats;
  stats.column = name;
  stats.null_count = acc.null_count;
  // The sketch's error can overshoot; there are never more distinct values than values.
  stats.distinct_count =
      acc.min ? std::max<int64_t>(1, std::min(acc.distinct.Estimate(), acc.value_count)) : 0;
  if (acc.min) stats.min = acc.min->ToString();
  if (acc.max) stats.max = acc.max->ToString();
  return stats;
}

}  // namespace

std::vector<StatisticsEntry> AnalyzeTable(const TableDefinition& table) {
  auto dataset = DatasetForTable(table);
  // Readable file columns are read; partition columns come from the partition values.
  std::vector<int> read_columns;
  std::vector<size_t> partition_columns;
  for (size_t i = 0; i < table.columns.size(); i++) {
    if (table.columns[i].is_partition) {
      partition_columns.push_back(i);
    } else if (table.columns[i].type.valid()) {
      read_columns.push_back(static_cast<int>(i));
    }
  }
  const bool partitioned = !partition_columns.empty();

  std::vector<StatisticsEntry> partition_entries, file_entries;
  LevelAccumulator table_acc(read_columns.size());
  // Partition columns: exact distinct values, NULL rows, min and max over the partitions.
  std::vector<std::set<std::string>> partition_distinct(partition_columns.size());
  std::vector<ColumnAccumulator> partition_column_acc(partition_columns.size());

  size_t file_index = 0;  // DatasetForTable lists files partition by partition
  for (const auto& partition : table.partitions) {
    LevelAccumulator partition_acc(read_columns.size());
    for (size_t f = 0; f < partition.files.size(); f++, file_index++) {
      LevelAccumulator file_acc(read_columns.size());
      file_acc.bytes = static_cast<int64_t>(partition.files[f].size);
      if (!read_columns.empty()) {
        DatasetReader reader(dataset, read_columns);
        reader.SelectFiles({file_index});
        Batch batch(reader.output_types());
        while (reader.Next(batch)) {
          file_acc.rows += static_cast<int64_t>(batch.size());
          for (size_t c = 0; c < read_columns.size(); c++) {
            const Vector& vector = batch.column(c);
            ColumnAccumulator& acc = file_acc.columns[c];
            for (idx_t row = 0; row < batch.size(); row++) {
              if (vector.IsNull(row)) {
                acc.null_count++;
                continue;
              }
              acc.value_count++;
              acc.distinct.AddHash(HashSlot(vector, row));
              acc.AddValue(ReadValue(vector, row));
            }
          }
        }
      } else {
        file_acc.rows = partition.files[f].num_rows;
      }
      StatisticsEntry entry{"file", partition.files[f].path, file_acc.rows, file_acc.bytes, {}};
      for (size_t c = 0; c < read_columns.size(); c++) {
        entry.columns.push_back(ToStatistics(
            table.columns[static_cast<size_t>(read_columns[c])].name, file_acc.columns[c]));
      }
      file_entries.push_back(std::move(entry));
      partition_acc.Merge(file_acc);
    }
    table_acc.Merge(partition_acc);
    if (!partitioned) continue;
    const std::vector<Value> values = PartitionValues(table, partition);
    StatisticsEntry entry{"partition", partition.path, partition_acc.rows, partition_acc.bytes, {}};
    for (size_t c = 0; c < read_columns.size(); c++) {
      entry.columns.push_back(ToStatistics(table.columns[static_cast<size_t>(read_columns[c])].name,
                                           partition_acc.columns[c]));
    }
    for (size_t k = 0; k < partition_columns.size(); k++) {
      ColumnStatistics stats;
      stats.column = table.columns[partition_columns[k]].name;
      ColumnAccumulator& acc = partition_column_acc[k];
      if (values[k].is_null()) {
        stats.null_count = partition_acc.rows;
        stats.distinct_count = 0;
        acc.null_count += partition_acc.rows;
      } else {
        stats.distinct_count = 1;
        stats.min = stats.max = values[k].ToString();
        partition_distinct[k].insert(values[k].ToString());
        acc.AddValue(values[k]);
        acc.value_count += partition_acc.rows;
      }
      entry.columns.push_back(std::move(stats));
    }
    partition_entries.push_back(std::move(entry));
  }

  std::vector<StatisticsEntry> entries;
  StatisticsEntry table_entry{"table", "", table_acc.rows, table_acc.bytes, {}};
  for (size_t c = 0; c < read_columns.size(); c++) {
    table_entry.columns.push_back(ToStatistics(
        table.columns[static_cast<size_t>(read_columns[c])].name, table_acc.columns[c]));
  }
  for (size_t k = 0; k < partition_columns.size(); k++) {
    ColumnStatistics stats =
        ToStatistics(table.columns[partition_columns[k]].name, partition_column_acc[k]);
    stats.distinct_count = static_cast<int64_t>(partition_distinct[k].size());
    table_entry.columns.push_back(std::move(stats));
  }
  entries.push_back(std::move(table_entry));
  for (auto* level : {&partition_entries, &file_entries}) {
    for (auto& entry : *level)
      entries.push_back(std::move(entry));
  }
  return entries;
}

}  // namespace shears

#pragma once
// A dataset: the set of Parquet files one table scan reads, with one unified schema.
//
// What Open accepts:
//   * a file: that file alone (the root is its directory; no partition columns);
//   * a directory: every file below it, recursively, whose name ends in ".parquet" or
//     ".parq" or has no extension at all (Spark/Hadoop "part-00000" files); other files
//     (.crc, .json, _SUCCESS, hidden files, ...) are ignored;
//   * a glob (`*`, `?`, `[...]`, `**`): every file it matches, whatever its name; the root is
//     the directory before the first wildcard.
// Files are listed by path order. Footers are read once while opening (in parallel when there
// are many), to learn the schema and row counts, and closed again: a dataset of thousands of
// files holds no file descriptors.
//
// Schema: file columns are unified by name (case-insensitive; the first file's spelling and
// order, columns first seen in later files appended). INTEGER and BIGINT widen to BIGINT and
// DECIMALs to a DECIMAL holding both (at most 38 digits); any other type difference is an
// InvalidInputError naming both files, the column and both types. With union_by_name a file
// lacking a column reads it as NULL; without it every file must have the same columns.
//
// Hive partitions: directory levels `key=value` below the root become partition columns after
// the file columns, in directory order. Unless hive_partitioning is off, the root moves above
// key=value levels at its end, so `ds/year=2024/*.parquet` or `ds/year=2024` keep `year`. Every
// file must have the same keys in the same order, and a depth may not hold key=value levels in some
// files and plain directories in others. Partition types are inferred (see InferPartitionType)
// unless DatasetOptions overrides them.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/types.h"
#include "common/value.h"

namespace shears {

namespace parquet {
class ParquetFile;
}

struct DatasetOptions {
  /// Default: on when the paths have key=value levels (or partition_types is given).
  std::optional<bool> hive_partitioning;
  /// Types for partition columns by name (case-insensitive); overrides inference. Naming a
  /// column that is not a partition column is an InvalidInputError.
  std::map<std::string, LogicalType> partition_types;
  /// Files may lack columns: missing ones read as NULL.
  bool union_by_name = true;
};

struct DatasetColumn {
  std::string name;
  LogicalType type;  // invalid when the column cannot be read (see unsupported_reason)
  bool is_partition = false;
  /// Set when some file stores this column in a form shears cannot read (nested, ...): the
  /// column stays in the schema so that projecting it gives an error with this text, and the
  /// other columns stay readable.
  std::string unsupported_reason;
};

struct DatasetFile {
  std::string path;
  uint64_t size = 0;
  int64_t num_rows = 0;  // from the footer
  /// One per partition column, in schema order.
  std::vector<Value> partition_values;
  /// For each non-partition dataset column: the column index in this file, or -1 (read as
  /// NULL).
  std::vector<int> column_map;
};

/// A column's statistics from ANALYZE, for the optimizer's estimates. -1 / NULL: unknown.
struct DatasetColumnStatistics {
  int64_t distinct_count = -1;
  int64_t null_count = -1;
  Value min, max;  // of the column's type
};

class Dataset {
 public:
  /// Lists and opens the files. Throws IOError when the path does not exist, a directory holds
  /// no data files or a glob matches nothing; InvalidInputError for layout or schema conflicts;
  /// whatever ParquetFile::Open throws for a file that is not valid Parquet.
  static std::shared_ptr<Dataset> Open(const std::string& path_or_glob,
                                       const DatasetOptions& options = {});
  /// A dataset whose files are already known (a catalog table's): nothing is listed and no
  /// footer is read. `columns` are file columns then partition columns; every file carries its
  /// size, row count, partition values and column map. `table_name` names the table in errors.
  static std::shared_ptr<Dataset> FromFiles(std::string root, std::vector<DatasetColumn> columns,
                                            std::vector<DatasetFile> files, std::string table_name);

  /// Opens file `index` for reading. For a dataset made by FromFiles it checks that the file
  /// is still the one recorded (size, mapped column names) and throws IOError asking for
  /// RECOVER PARTITIONS when it changed, rather than reading the wrong columns.
  std::shared_ptr<parquet::ParquetFile> OpenFile(size_t index) const;

  const std::string& root() const { return root_; }
  /// File columns, then partition columns in directory order.
  const std::vector<DatasetColumn>& columns() const { return columns_; }
  /// Sorted by path.
  const std::vector<DatasetFile>& files() const { return files_; }
  /// Case-insensitive; -1 when absent.
  int FindColumn(const std::string& name) const;
  size_t num_partition_columns() const { return num_partition_columns_; }
  size_t num_file_columns() const { return columns_.size() - num_partition_columns_; }
  int64_t total_rows() const;
  /// Distinct values of column `index` as ANALYZE estimated them (catalog tables); -1 when
  /// unknown. The optimizer's cardinality estimates read it.
  int64_t distinct_count(size_t index) const { return column_statistics(index).distinct_count; }
  /// What ANALYZE recorded about column `index` (all unknown when it did not run).
  const DatasetColumnStatistics& column_statistics(size_t index) const {
    static const DatasetColumnStatistics kUnknown;
    return index < column_statistics_.size() ? column_statistics_[index] : kUnknown;
  }
  /// One per column; set once, before the dataset is shared.
  void set_column_statistics(std::vector<DatasetColumnStatistics> statistics) {
    column_statistics_ = std::move(statistics);
  }
  /// Distinct partitions (combinations of partition values) and which one each file is in, so
  /// scans decide per partition, not per file.
  size_t num_partitions() const { return num_partitions_; }
  uint32_t partition_of(size_t file) const { return partition_of_file_[file]; }
  /// What the partition values say of partition column `key` (0 = the first partition
  /// column): distinct non-NULL values, rows in NULL partitions, min and max. Computed once
  /// with the partition index, so planning never sorts the values again.
  const DatasetColumnStatistics& partition_statistics(size_t key) const {
    return partition_statistics_[key];
  }

 private:
  Dataset() = default;
  void IndexPartitions();

  std::string root_;
  std::vector<DatasetColumn> columns_;
  std::vector<DatasetFile> files_;
  size_t num_partition_columns_ = 0;
  std::string catalog_table_;  // set by FromFiles
  std::vector<DatasetColumnStatistics> column_statistics_;
  size_t num_partitions_ = 0;
  std::vector<uint32_t> partition_of_file_;
  std::vector<DatasetColumnStatistics> partition_statistics_;
  int64_t total_rows_ = 0;
};

/// Whether a file name found while listing a directory is a data file (see the header comment).
bool IsDataFileName(std::string_view name);

/// The type that holds values of both `a` and `b` as a dataset unifies file columns (INTEGER and
/// BIGINT to BIGINT, DECIMALs to one holding both), or nullopt when they do not combine.
std::optional<LogicalType> WidenColumnTypes(const LogicalType& a, const LogicalType& b);

}  // namespace shears

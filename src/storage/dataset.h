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
// Files are listed by path order, with their sizes (one readdir per directory and one stat per
// file; listings are cached, see ListTree). With DatasetOptions::lazy_listing, a Hive layout is
// listed lazily: opening reads the key=value levels' names and the first partition directory,
// and each scan lists only the partitions it keeps (ListPartitions, hive/hive_listing.h).
//
// Footers: by default only the first file's footer is read while opening; it gives the schema
// (its columns, names and types, as DuckDB does), and the row-count estimates of the other
// files (their size times its rows per byte). Every other footer is read by the scan, for the
// files that survive static and dynamic partition pruning, when it opens them (footers are
// kept in the process's footer cache, see ParquetFile::Open). Opening a file maps it to the
// schema by name (case-insensitive): a column it lacks reads as NULL (an InvalidInputError
// with union_by_name = false), a column the first file lacks is not seen (an error with
// union_by_name = false), a type other than the schema's or one widening to it (INTEGER into
// BIGINT, a narrower DECIMAL) is an InvalidInputError naming both files. With union_by_name =
// true or read_all_footers, every footer is read while opening, in parallel, and the schema is
// unified as below. Either way a dataset of thousands of files holds no file descriptors.
//
// Unified schema (union_by_name = true, read_all_footers): file columns are unified by name
// (case-insensitive; the first file's spelling and order, columns first seen in later files
// appended). INTEGER and BIGINT widen to BIGINT and DECIMALs to a DECIMAL holding both (at most
// 38 digits); any other type difference is an InvalidInputError naming both files, the column
// and both types. With union_by_name a file lacking a column reads it as NULL; with
// union_by_name = false every file must have the same columns.
//
// Hive partitions: directory levels `key=value` below the root become partition columns after
// the file columns, in directory order. Unless hive_partitioning is off, the root moves above
// key=value levels at its end, so `ds/year=2024/*.parquet` or `ds/year=2024` keep `year`. Every
// file must have the same keys in the same order, and a depth may not hold key=value levels in some
// files and plain directories in others. Partition types are inferred (see InferPartitionType)
// unless DatasetOptions overrides them.

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/types.h"
#include "common/value.h"

namespace shears {

namespace parquet {
class ParquetFile;
struct ParquetFooter;
}  // namespace parquet
struct CsvScanInfo;     // storage/csv/csv_options.h
struct FileStatistics;  // storage/file_statistics.h
struct MemoryTable;     // storage/memory_table.h
struct HiveKeyValue;    // storage/hive/hive_partitioning.h

struct DatasetOptions {
  /// Default: on when the paths have key=value levels (or partition_types is given).
  std::optional<bool> hive_partitioning;
  /// Types for partition columns by name (case-insensitive); overrides inference. Naming a
  /// column that is not a partition column is an InvalidInputError.
  std::map<std::string, LogicalType> partition_types;
  /// Unset: the first file's schema; files lacking one of its columns read it as NULL.
  /// true: every footer is read while opening and the schemas are unified by name (columns
  /// only later files have are seen). false: every file must have the first file's columns.
  std::optional<bool> union_by_name;
  /// Reads every footer while opening (exact row counts and column maps for every file, as
  /// the catalog records them), unifying schemas unless union_by_name is false.
  bool read_all_footers = false;
  /// Lists only up to one file (FindFirstFile), whose footer and path give the schema and the
  /// partition columns: for binding a query only to check it (CREATE VIEW), never to scan.
  bool first_file_only = false;
  /// Lists Hive directories lazily (hive/hive_listing.h): opening reads the key=value levels'
  /// names (no stat) and one partition directory, for the first file; each scan lists only
  /// the partition directories its pruning keeps (ListPartitions). Applies to a directory or
  /// a glob without `**` whose levels below the root are uniformly key=value directories,
  /// when no option asks for every footer; other paths are listed whole.
  bool lazy_listing = false;
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
  /// From the footer; -1 when it was not read while opening (Dataset::estimated_rows).
  int64_t num_rows = 0;
  /// One per partition column, in schema order.
  std::vector<Value> partition_values;
  /// For each non-partition dataset column: the column index in this file, or -1 (read as
  /// NULL). For a footer not read while opening, filled when Dataset::OpenFile opens it.
  std::vector<int> column_map;
  /// Per-column statistics of the whole file known without opening it (the footer's when it
  /// was read while opening); null when unknown. See file_statistics.h. A catalog table's come
  /// from Dataset::file_statistics, which reads them when first asked.
  std::shared_ptr<const FileStatistics> statistics;
};

/// A column's statistics from ANALYZE, for the optimizer's estimates. -1 / NULL: unknown.
struct DatasetColumnStatistics {
  int64_t distinct_count = -1;
  int64_t null_count = -1;
  Value min, max;  // of the column's type
};

class Dataset {
 public:
  /// Lists the files and reads the first footer (or all, see DatasetOptions). Throws IOError
  /// when the path does not exist, a directory holds no data files or a glob matches nothing;
  /// InvalidInputError for layout or schema conflicts; whatever ParquetFile::Open throws for a
  /// footer it reads that is not valid Parquet.
  static std::shared_ptr<Dataset> Open(const std::string& path_or_glob,
                                       const DatasetOptions& options = {});
  /// A dataset whose files are already known (a catalog table's): nothing is listed and no
  /// footer is read. `columns` are file columns then partition columns; every file carries its
  /// size, row count, partition values and column map. `table_name` names the table in errors.
  static std::shared_ptr<Dataset> FromFiles(std::string root, std::vector<DatasetColumn> columns,
                                            std::vector<DatasetFile> files, std::string table_name);

  /// A dataset of columns in memory (storage/memory_table.h), with no files; its rows are
  /// exact. The physical planner scans it with PhysicalMemoryScan.
  static std::shared_ptr<Dataset> FromMemory(std::shared_ptr<const MemoryTable> table);

  /// The dataset a scan reads: `dataset` itself when its files are listed (files_listed());
  /// for one listed lazily, a dataset of the files of the partitions `keep` marks (one flag
  /// per partition), their directories listed now (through the listing cache, by a few
  /// threads when many), with the same columns and partitions. `directories_read` (optional)
  /// is increased by the directories read. Throws InvalidInputError when a partition
  /// directory breaks the layout (a key=value directory below it).
  static std::shared_ptr<const Dataset> ListPartitions(std::shared_ptr<const Dataset> dataset,
                                                       const std::vector<uint8_t>& keep,
                                                       uint64_t* directories_read = nullptr);
  /// False for a dataset opened with lazy_listing whose partitions are known but whose
  /// files are not: files() is empty, ListPartitions lists them.
  bool files_listed() const { return lazy_listing_ == nullptr; }
  /// Directories read with readdir while opening (0 when the listing cache answered).
  uint64_t directories_read_at_open() const { return directories_read_at_open_; }

  /// Opens file `index` for reading (thread-safe). A file whose footer was not read while
  /// opening is mapped to the schema now (its column_map is filled; errors as described
  /// above); a file mapped before must still map the same way, else IOError. For a dataset
  /// made by FromFiles it checks that the file is still the one recorded (size, mapped column
  /// names) and throws IOError asking for RECOVER PARTITIONS when it changed, rather than
  /// reading the wrong columns. `footer`: the footer the caller found for it in the footer
  /// cache, used when the file still has its identity (no second cache lookup).
  std::shared_ptr<parquet::ParquetFile> OpenFile(
      size_t index, std::shared_ptr<const parquet::ParquetFooter> footer = nullptr) const;

  const std::string& root() const { return root_; }
  /// File columns, then partition columns in directory order.
  const std::vector<DatasetColumn>& columns() const { return columns_; }
  /// Sorted by path. Empty for a dataset whose files are not listed (files_listed()).
  const std::vector<DatasetFile>& files() const { return files_; }
  /// Case-insensitive; -1 when absent.
  int FindColumn(const std::string& name) const;
  size_t num_partition_columns() const { return num_partition_columns_; }
  size_t num_file_columns() const { return columns_.size() - num_partition_columns_; }
  /// Rows of every file: exact when every footer was read, else partly estimated (for a
  /// dataset whose files are not listed: every partition directory like the average of five
  /// listed while opening).
  int64_t total_rows() const;
  /// Bytes of every file, estimated as total_rows is when the files are not listed.
  uint64_t estimated_bytes() const { return estimated_bytes_; }
  /// File `index`'s rows: from its footer when read while opening, else its bytes beyond the
  /// first file's fixed part divided by that file's bytes per row (at most a row's
  /// plain-encoded width; see IndexPartitions).
  int64_t estimated_rows(size_t index) const;
  /// Whether every file's footer was read while opening (row counts are exact).
  bool all_footers_read() const { return !lazy_; }
  /// Distinct values of column `index` as ANALYZE estimated them (catalog tables); -1 when
  /// unknown. The optimizer's cardinality estimates read it.
  int64_t distinct_count(size_t index) const { return column_statistics(index).distinct_count; }
  /// What ANALYZE recorded about column `index` (all unknown when it did not run).
  const DatasetColumnStatistics& column_statistics(size_t index) const {
    static const DatasetColumnStatistics kUnknown;
    return index < column_statistics_.size() ? column_statistics_[index] : kUnknown;
  }
  /// Set for a dataset of CSV files (read_csv, storage/csv/): how to parse them; the physical
  /// planner scans it with PhysicalCsvScan. Null for Parquet.
  const std::shared_ptr<const CsvScanInfo>& csv() const { return csv_; }
  void set_csv(std::shared_ptr<const CsvScanInfo> csv) { csv_ = std::move(csv); }
  /// Set for a dataset made by FromMemory; null otherwise.
  const std::shared_ptr<const MemoryTable>& memory() const { return memory_; }
  /// One per column; set once, before the dataset is shared.
  void set_column_statistics(std::vector<DatasetColumnStatistics> statistics) {
    column_statistics_ = std::move(statistics);
  }
  /// What is known of file `index`'s statistics without opening it (see DatasetFile): its
  /// `statistics`, else what the loader gave (thread-safe; the first call runs the loader).
  const std::shared_ptr<const FileStatistics>& file_statistics(size_t index) const;
  /// Gives every file's statistics in file order (null: unknown); called once, when a scan
  /// first asks for some, so a query that never tests a file's statistics never reads them (a
  /// catalog's: thousands of rows). Set once, before the dataset is shared.
  using StatisticsLoader =
      std::function<std::vector<std::shared_ptr<const FileStatistics>>(const Dataset&)>;
  void set_statistics_loader(StatisticsLoader loader) { statistics_loader_ = std::move(loader); }
  /// Whether the loader ran (for tests).
  bool statistics_loaded() const;

  /// Distinct partitions (combinations of partition values) and which one each file is in, so
  /// scans decide per partition, not per file.
  size_t num_partitions() const { return num_partitions_; }
  uint32_t partition_of(size_t file) const { return partition_of_file_[file]; }
  /// Partition `partition`'s values, one per partition column in schema order.
  const std::vector<Value>& partition_values(size_t partition) const {
    return (*partitions_)[partition];
  }
  /// What the partition values say of partition column `key` (0 = the first partition
  /// column): distinct non-NULL values, rows in NULL partitions, min and max. Computed once
  /// with the partition index, so planning never sorts the values again.
  const DatasetColumnStatistics& partition_statistics(size_t key) const {
    return partition_statistics_[key];
  }

 private:
  Dataset() = default;
  /// What ReadFileColumns learned of the file columns, for CheckPartitionKeys.
  struct FileColumnSources {
    std::unordered_map<std::string, size_t> by_name;  // lower-case name -> column
    std::vector<std::string> first_file;              // per column: the file it came from
  };
  /// Reads the footers (the first, or all; see DatasetOptions) and sets the file columns,
  /// files_ and the schema footer.
  FileColumnSources ReadFileColumns(const std::vector<std::string>& paths,
                                    const std::vector<uint64_t>& sizes,
                                    const DatasetOptions& options);
  /// Throws InvalidInputError when a partition key is also a file column.
  void CheckPartitionKeys(const std::vector<HiveKeyValue>& keys,
                          const FileColumnSources& sources) const;
  /// Open with lazy_listing; null when the path is not such a Hive layout.
  static std::shared_ptr<Dataset> OpenHiveLazily(const std::string& path_or_glob,
                                                 const DatasetOptions& options);
  void IndexPartitions();
  /// Sets the bytes-per-row estimate from the first file, whose footer was read.
  void EstimateRowBytes(const DatasetFile& first);
  /// The same from any file whose footer was read (`size` bytes, `num_rows` rows).
  void EstimateRowBytes(uint64_t size, int64_t num_rows, const parquet::ParquetFooter& footer);
  /// Rows of a file of `size` bytes whose footer was not read.
  int64_t EstimatedRows(uint64_t size) const;
  void ComputePartitionStatistics(const std::vector<int64_t>& partition_rows);
  /// Maps the columns of `file` to the dataset's file columns (see the header comment).
  std::vector<int> MapFileColumns(const parquet::ParquetFile& file) const;

  std::string root_;
  std::vector<DatasetColumn> columns_;
  std::vector<DatasetFile> files_;
  size_t num_partition_columns_ = 0;
  std::string catalog_table_;  // set by FromFiles
  std::vector<DatasetColumnStatistics> column_statistics_;
  std::shared_ptr<const CsvScanInfo> csv_;
  std::shared_ptr<const MemoryTable> memory_;
  size_t num_partitions_ = 0;
  std::vector<uint32_t> partition_of_file_;
  std::shared_ptr<const std::vector<std::vector<Value>>> partitions_;  // values of each
  // What a dataset opened with lazy_listing needs to list its partitions; null otherwise.
  struct LazyListing {
    std::vector<std::vector<std::string>> directories;  // per partition: its directories
    std::string file_pattern;                           // HiveLevels::file_pattern
    std::string keys;                                   // the partition keys, for errors
    DatasetFile schema_file;                            // the first file, its footer read
  };
  std::shared_ptr<const LazyListing> lazy_listing_;
  uint64_t directories_read_at_open_ = 0;
  uint64_t estimated_bytes_ = 0;
  std::string schema_path_;  // the file whose footer gave the schema
  std::vector<DatasetColumnStatistics> partition_statistics_;
  int64_t total_rows_ = 0;
  // Opening read only the first footer; the others are mapped by OpenFile.
  bool lazy_ = false;
  bool missing_columns_are_null_ = true;
  std::shared_ptr<const parquet::ParquetFooter> schema_footer_;  // the first file's
  double rows_per_data_byte_ = 0;
  // A file's bytes that hold no rows: the first file's footer and magic at least.
  uint64_t schema_footer_bytes_ = 0;
  // Which files have a column_map (OpenFile fills the others under the mutex).
  mutable std::mutex map_mutex_;
  mutable std::vector<uint8_t> mapped_;
  // What statistics_loader_ gave, filled by the first file_statistics call.
  StatisticsLoader statistics_loader_;
  mutable std::once_flag statistics_once_;
  mutable std::atomic<bool> statistics_loaded_{false};
  mutable std::vector<std::shared_ptr<const FileStatistics>> loaded_statistics_;
};

/// Whether a file name found while listing a directory is a data file (see the header comment).
bool IsDataFileName(std::string_view name);

/// The files a path names and their Hive partitions, listed and typed as Open does, for
/// datasets of other formats (CSV) that read their schema themselves: `files` carry path,
/// size and partition values (num_rows -1); `partition_columns` follow the file columns.
/// `is_data_file` picks the files of a directory; `kind` names them in errors ("CSV").
struct DatasetListing {
  std::string root;
  std::vector<DatasetFile> files;
  std::vector<DatasetColumn> partition_columns;
};
DatasetListing ListDataset(const std::string& path_or_glob, const DatasetOptions& options,
                           bool (*is_data_file)(std::string_view name), const char* kind);

/// The type that holds values of both `a` and `b` as a dataset unifies file columns (INTEGER and
/// BIGINT to BIGINT, DECIMALs to one holding both), or nullopt when they do not combine.
std::optional<LogicalType> WidenColumnTypes(const LogicalType& a, const LogicalType& b);

}  // namespace shears

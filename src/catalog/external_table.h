#pragma once
// External tables: what CREATE EXTERNAL TABLE and RECOVER PARTITIONS learn from a table's
// directory (listing it and reading every footer once), and the Dataset a query scans, built
// from the catalog's partition and file lists alone (no listing, no footer reads).

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "storage/dataset.h"

namespace shears {

/// What CREATE EXTERNAL TABLE says, types already resolved.
struct ExternalTableSpec {
  struct Column {
    std::string name;
    std::optional<LogicalType> type;  // PARTITIONED BY (p) may leave it to the column list
  };
  std::string name;
  std::string location;
  bool columns_declared = false;
  std::vector<Column> columns;            // with types; empty unless declared
  std::vector<Column> partition_columns;  // PARTITIONED BY, in order
};

/// Lists `spec.location`, reads the footers and returns the table to store: columns declared or
/// inferred, partitions with their files. Errors (typed, naming the location and column):
/// IOError when the location does not exist or is not a directory; InvalidInputError when
/// declared columns are not in the files or have another type, when PARTITIONED BY does not match
/// the key=value directories, when there are no files and no declared columns.
TableDefinition ScanExternalTable(const ExternalTableSpec& spec);

/// The current partitions of an existing table's location, with the table's columns.
std::vector<CatalogPartition> RescanPartitions(const TableDefinition& table);

/// The dataset of a catalog table, from its stored partitions and files (not their statistics:
/// Catalog::TableDataset gives it a loader reading them when a scan first needs them).
std::shared_ptr<Dataset> DatasetForTable(const TableDefinition& table);

/// The catalog's statistics of one file (level "file") for the dataset's file columns: a bound
/// that does not read back exactly in the column's type, or a column not named, stays unknown.
std::shared_ptr<const FileStatistics> CatalogFileStatistics(
    const std::vector<DatasetColumn>& columns, const StatisticsEntry& entry);

/// Partition column values of a partition path, typed by the table's partition columns.
std::vector<Value> PartitionValues(const TableDefinition& table, const CatalogPartition& partition);

}  // namespace shears

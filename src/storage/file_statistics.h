#pragma once
// Statistics of a whole file known without opening it, so a scan can skip a file whose
// partition values do not decide it: min/max and null counts per column, from
//
//   the catalog      written by shears (INSERT, CTAS: the writer knows them), read from every
//                    footer by CREATE EXTERNAL TABLE and RECOVER PARTITIONS, or by ANALYZE;
//                    stored as text at level "file" (catalog/catalog.h)
//   the footers      a dataset that read every footer while opening (read_all_footers,
//                    union_by_name) keeps them per file
//   the footer cache a plain directory's file whose footer an earlier query read, unchanged
//                    since (parquet::CachedFooter; one stat, made only before the file is
//                    skipped); the footer keeps each column's file bounds once decoded
//
// split_pruning.h tests the scan's literal predicates and runtime filters against them.

#include <optional>
#include <string>
#include <vector>

#include "common/types.h"
#include "storage/parquet/parquet_file.h"

namespace shears {

struct FileStatistics {
  /// One per dataset file column, bounds in the column's type; nullopt when unknown.
  std::vector<std::optional<parquet::ColumnChunkStatistics>> columns;
  /// The catalog's: trusted only while the file still has the size the catalog recorded (one
  /// stat), so a file changed behind the catalog's back is opened, which reports it, rather
  /// than skipped by bounds that no longer hold.
  bool check_size = false;
};

/// Whether a column of `type` keeps file statistics in the catalog: its bounds read back from
/// their text exactly, and order as the scan compares them (integers, DATE, TIMESTAMP, DECIMAL,
/// VARCHAR, BOOLEAN; not floating point, whose NaN and -0.0 the text does not order).
bool CatalogStatisticsUsable(const LogicalType& type);

/// A bound stored as text read back in `type`; nullopt unless it reads back to the same text.
std::optional<Value> ParseStatisticsBound(const std::string& text, const LogicalType& type);

/// The statistics of the dataset columns of one file from its footer: `column_map[c]` is the
/// footer column of dataset file column c (-1: none); a column is known only when the footer
/// stores it in `types[c]`.
std::shared_ptr<const FileStatistics> FooterFileStatistics(const parquet::ParquetFooter& footer,
                                                           const std::vector<int>& column_map,
                                                           const std::vector<LogicalType>& types);

}  // namespace shears

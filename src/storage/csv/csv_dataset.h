#pragma once
// A dataset of CSV files: listed (file, directory, glob; Hive partitions from key=value
// directories) as a Parquet dataset is, schema from the sniffer (the first non-empty file's;
// every file's with union_by_name). The Dataset carries a CsvScanInfo, so the physical planner
// scans it with PhysicalCsvScan.

#include <memory>
#include <string>

#include "storage/csv/csv_options.h"
#include "storage/dataset.h"

namespace shears {

std::shared_ptr<Dataset> OpenCsvDataset(const std::string& path_or_glob, const CsvOptions& options);

}  // namespace shears

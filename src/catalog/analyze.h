#pragma once
// ANALYZE: reads every file of a catalog table once and computes, per file, per partition and
// for the whole table, the row count, size and for each column the NULL count, min, max and a
// distinct count (HyperLogLog; exact for partition columns).

#include <vector>

#include "catalog/catalog.h"

namespace shears {

/// All levels: one "table" entry, then one per partition (partitioned tables) and per file.
std::vector<StatisticsEntry> AnalyzeTable(const TableDefinition& table);

}  // namespace shears

#pragma once
// `shears generate tpcds`: the 24 tables of TPC-DS as Parquet, with the specification's table
// and column names and types (INTEGER surrogate keys, DECIMAL(7,2) money, DATE, CHAR and
// VARCHAR as VARCHAR) and its value domains where its queries filter on them (categories,
// classes, brands, colours, sizes, units, demographics, states, counties, cities, reasons,
// ship modes, ...). Not dsdgen's exact data: its own seeded values in those domains.
//
//   dimensions   DIR/<table>/<table>.parquet: date_dim (every day 1900-01-02 .. 2100-01-01,
//                all 28 columns), time_dim (every second), item (two revisions per item id),
//                customer, customer_address, customer_demographics (the full cross product of
//                its attributes, 1,920,800 rows), household_demographics (7,200), income_band,
//                store, warehouse, call_center, catalog_page, web_site, web_page, promotion,
//                reason, ship_mode
//   facts        Hive-partitioned by their date key, one file per day (week for inventory):
//                store_sales/ss_sold_date_sk=2451545/part-0.parquet, ...; rows whose date key
//                is NULL in <key>=__HIVE_DEFAULT_PARTITION__. Sales dates 1998-01-02 ..
//                2003-01-02 (busier in November and December), returns up to 210 days later.
//
// Sales come in tickets/orders of 1 to 20 distinct items; about 10% of sale lines are returned,
// and a return carries its sale's ticket or order number, item and customer, so returns join
// to their sales. Scale 1 has TPC-DS's row counts: 2,880,404 store_sales, 1,441,548
// catalog_sales, 719,384 web_sales, 11,745,000 inventory rows, 100,000 customers; facts grow
// linearly with the scale, customers and addresses too (as scale^0.75 above 1); items, stores
// and the other small dimensions have their scale-1 sizes at 1, shrink below it (for tests)
// and grow by the square root beyond; date_dim, time_dim and the demographics are fixed.
//
// Deterministic: every table, day and week draws from a random stream of its own, so the
// files are the same bytes for the same scale and seed whatever the number of threads.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace shears {

struct TpcdsOptions {
  double scale = 1;
  std::string out_dir;
  uint64_t seed = 42;
  unsigned threads = 0;  // 0: the machine's cores
  /// Called (serialised, from any thread) with the rows written so far and the rows expected.
  std::function<void(int64_t, int64_t)> progress;
};

struct TpcdsTableSummary {
  std::string name;
  int64_t rows = 0;
  int64_t files = 0;
};

struct TpcdsSummary {
  std::vector<TpcdsTableSummary> tables;  // in name order
  uint64_t bytes = 0;
  /// Rows of one table (0 when it is not there).
  int64_t Rows(const std::string& table) const;
};

/// The 24 table names in alphabetical order.
const std::vector<std::string>& TpcdsTableNames();
/// The fact tables' partition column, or "" for a dimension.
std::string TpcdsPartitionColumn(const std::string& table);

/// Writes the tables; InvalidInputError for a bad scale or a non-empty output directory,
/// IOError when files cannot be written.
TpcdsSummary GenerateTpcds(const TpcdsOptions& options);

}  // namespace shears

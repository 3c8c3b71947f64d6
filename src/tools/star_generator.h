#pragma once
// `shears generate star`: a TPC-DS-shaped star schema as Parquet in Hive layout, for the demo,
// tests and benchmarks. Deterministic for a seed.
//
//   date_dim/        d_date_sk (TPC-DS Julian day keys), d_date, d_year, d_moy, d_dom, d_qoy,
//                    d_day_name, 1998-01-01 .. 2003-12-31
//   item/            i_item_sk, i_category (10), i_class (100), i_brand (500), i_current_price
//   store_sales/     ss_sold_date_sk=<key>/ partitions (one per sale day, 1998..2002, and
//                    __HIVE_DEFAULT_PARTITION__ for NULL keys); ss_item_sk, ss_customer_sk,
//                    ss_quantity, ss_sales_price, ss_net_profit
//
// Scale 1 is about 2.9 million store_sales rows (as TPC-DS); scale 0.01 about 29 thousand.

#include <cstdint>
#include <functional>
#include <string>

namespace shears {

struct StarOptions {
  double scale = 1;
  std::string out_dir;
  uint64_t seed = 42;
  /// Called with (table, rows written so far, rows in total) as work progresses.
  std::function<void(const std::string&, int64_t, int64_t)> progress;
};

struct StarSummary {
  int64_t date_rows = 0, item_rows = 0, sales_rows = 0;
  int64_t sales_partitions = 0;
  uint64_t bytes = 0;
};

/// Writes the tables; throws InvalidInputError for a bad scale or an existing non-empty
/// output directory, IOError when files cannot be written.
StarSummary GenerateStar(const StarOptions& options);

}  // namespace shears

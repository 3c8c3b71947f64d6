#pragma once
// `shears generate star`: a TPC-DS-shaped star schema as Parquet in Hive layout, for the demo,
// tests and benchmarks. Deterministic for a seed (each table and each sale day draws from its
// own random stream, so one table's shape never shifts another's values).
//
//   date_dim/          d_date_sk (TPC-DS Julian day keys), d_date, d_year, d_moy, d_dom, d_qoy,
//                      d_day_name, 1998-01-01 .. 2003-12-31
//   item/              i_item_sk, i_category (10), i_class (100), i_brand (500), i_current_price
//   customer_address/  ca_address_sk, ca_city, ca_state (skewed), ca_zip, ca_country,
//                      ca_gmt_offset
//   customer/          c_customer_sk, c_customer_id, c_current_addr_sk, c_first_name,
//                      c_last_name, c_birth_year, c_preferred_cust_flag (some NULLs)
//   store/             s_store_sk, s_store_id, s_store_name, s_city, s_state,
//                      s_number_employees, s_floor_space
//   promotion/         p_promo_sk, p_promo_id, p_promo_name, p_start_date_sk, p_end_date_sk,
//                      p_cost, p_channel_email, p_channel_tv, p_channel_dmail,
//                      p_discount_active
//   store_sales/       ss_sold_date_sk=<key>/ partitions (one per sale day, 1998..2002, and
//                      __HIVE_DEFAULT_PARTITION__ for NULL keys); ss_item_sk, ss_customer_sk,
//                      ss_store_sk, ss_promo_sk, ss_ticket_number, ss_quantity,
//                      ss_sales_price, ss_net_profit
//   store_returns/     sr_returned_date_sk=<key>/ partitions (1 to 90 days after the sale, some
//                      NULL keys); sr_item_sk, sr_customer_sk, sr_store_sk, sr_ticket_number,
//                      sr_return_quantity, sr_return_amt
//
// Sales come in tickets (one customer, store and day; 1 to 20 distinct items). Items and
// customers are skewed: 1% of the items take 30% of the sale lines, 5% of the customers 40%.
// Foreign keys are NULL for a few percent of rows (customer, store, promotion, address). About
// 10% of dated sale lines are returned; a return carries its sale's ticket, item, customer and
// store.
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
  /// Called with (table, rows written so far, rows in total) as work progresses; a table is
  /// done when the two counts are equal.
  std::function<void(const std::string&, int64_t, int64_t)> progress;
};

struct StarSummary {
  int64_t date_rows = 0, item_rows = 0, customer_rows = 0, address_rows = 0, store_rows = 0,
          promotion_rows = 0, sales_rows = 0, returns_rows = 0;
  int64_t sales_partitions = 0, returns_partitions = 0;
  uint64_t bytes = 0;
};

/// Writes the tables; throws InvalidInputError for a bad scale or an existing non-empty
/// output directory, IOError when files cannot be written.
StarSummary GenerateStar(const StarOptions& options);

}  // namespace shears

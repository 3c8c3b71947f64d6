#include "tools/tpcds_generator.h"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <tuple>

#include "common/error.h"
#include "main/connection.h"
#include "storage/parquet/parquet_file.h"
#include "test_util.h"

namespace shears {
namespace {

namespace fs = std::filesystem;

/// A fresh directory, in memory (/dev/shm) when there is one: creating the ~6,000 files of a
/// data set costs far more on a disk file system (a third of a millisecond each here).
class ScratchDir {
 public:
  ScratchDir() {
    std::error_code ec;
    const fs::path base =
        fs::is_directory("/dev/shm", ec) ? fs::path("/dev/shm") : fs::temp_directory_path();
    std::string pattern = (base / "shears_tpcds_XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

/// A TPC-DS data set generated into a scratch directory, removed at the end.
class GeneratedTpcds {
 public:
  GeneratedTpcds(double scale, uint64_t seed, unsigned threads) {
    TpcdsOptions options;
    options.scale = scale;
    options.out_dir = dir_.path() + "/data";
    options.seed = seed;
    options.threads = threads;
    options.progress = [this](int64_t done, int64_t total) {
      EXPECT_LE(done, total);
      EXPECT_GE(done, last_progress_);
      last_progress_ = done;
    };
    summary_ = GenerateTpcds(options);
    EXPECT_GT(last_progress_, 0);
  }
  fs::path dir() const { return dir_.path() + "/data"; }
  const TpcdsSummary& summary() const { return summary_; }
  /// The table as a quoted path for FROM.
  std::string T(const std::string& name) const { return "'" + (dir() / name).string() + "'"; }

 private:
  ScratchDir dir_;
  TpcdsSummary summary_;
  int64_t last_progress_ = 0;
};

std::vector<std::vector<std::string>> Rows(const std::string& sql) {
  Database database;
  Connection connection(database);
  return connection.Query(sql).ToStrings();
}

std::string Scalar(const std::string& sql) {
  auto rows = Rows(sql);
  EXPECT_EQ(rows.size(), 1u) << sql;
  return rows.empty() ? "" : rows[0][0];
}

constexpr double kScale = 0.002;

void CheckTablesAndRowCounts(const GeneratedTpcds& data) {
  ASSERT_EQ(data.summary().tables.size(), 24u);
  for (size_t i = 0; i < 24; i++) {
    const auto& table = data.summary().tables[i];
    EXPECT_EQ(table.name, TpcdsTableNames()[i]);
    EXPECT_GT(table.rows, 0) << table.name;
    EXPECT_EQ(Scalar("SELECT count(*) FROM " + data.T(table.name)), std::to_string(table.rows))
        << table.name;
  }
  // Fixed sizes, and the facts scaled from TPC-DS's scale-1 counts.
  const std::pair<const char*, int64_t> fixed[] = {{"date_dim", 73049},
                                                   {"time_dim", 86400},
                                                   {"customer_demographics", 1920800},
                                                   {"household_demographics", 7200},
                                                   {"income_band", 20},
                                                   {"reason", 35},
                                                   {"ship_mode", 20},
                                                   {"store_sales", 5761},
                                                   {"catalog_sales", 2883},
                                                   {"web_sales", 1439},
                                                   {"customer", 1000},
                                                   {"customer_address", 500}};
  for (const auto& [table, rows] : fixed)
    EXPECT_EQ(data.summary().Rows(table), rows) << table;
  // About a tenth of the sale lines come back.
  for (const auto& [sales, returns] :
       {std::pair<std::string, std::string>{"store_sales", "store_returns"},
        {"catalog_sales", "catalog_returns"},
        {"web_sales", "web_returns"}}) {
    EXPECT_GT(data.summary().Rows(returns), data.summary().Rows(sales) / 14) << returns;
    EXPECT_LT(data.summary().Rows(returns), data.summary().Rows(sales) / 7) << returns;
  }
  // One row per item id, warehouse and week.
  EXPECT_EQ(data.summary().Rows("inventory"),
            261 * ((data.summary().Rows("item") + 1) / 2) * data.summary().Rows("warehouse"));
}

void CheckSchema(const GeneratedTpcds& data) {
  Database database;
  Connection connection(database);
  auto result = connection.Query("SELECT * FROM " + data.T("store_sales") + " LIMIT 0");
  std::string columns;
  for (size_t i = 0; i < result.names.size(); i++)
    columns += result.names[i] + " " + result.types[i].ToString() + ",";
  // The partition column comes last, from the directory names.
  EXPECT_EQ(columns,
            "ss_sold_time_sk INTEGER,ss_item_sk INTEGER,ss_customer_sk INTEGER,ss_cdemo_sk "
            "INTEGER,ss_hdemo_sk INTEGER,ss_addr_sk INTEGER,ss_store_sk INTEGER,ss_promo_sk "
            "INTEGER,ss_ticket_number INTEGER,ss_quantity INTEGER,ss_wholesale_cost "
            "DECIMAL(7,2),ss_list_price DECIMAL(7,2),ss_sales_price DECIMAL(7,2),"
            "ss_ext_discount_amt DECIMAL(7,2),ss_ext_sales_price DECIMAL(7,2),"
            "ss_ext_wholesale_cost DECIMAL(7,2),ss_ext_list_price DECIMAL(7,2),ss_ext_tax "
            "DECIMAL(7,2),ss_coupon_amt DECIMAL(7,2),ss_net_paid DECIMAL(7,2),"
            "ss_net_paid_inc_tax DECIMAL(7,2),ss_net_profit DECIMAL(7,2),ss_sold_date_sk BIGINT,");
  auto dates = connection.Query("SELECT * FROM " + data.T("date_dim") + " LIMIT 0");
  EXPECT_EQ(dates.names.size(), 28u);
  EXPECT_EQ(dates.types[2].ToString(), "DATE");
  const std::pair<const char*, size_t> widths[] = {
      {"item", 22},        {"customer", 18},      {"customer_address", 13}, {"store", 29},
      {"call_center", 31}, {"web_site", 26},      {"web_page", 14},         {"promotion", 19},
      {"catalog_page", 9}, {"warehouse", 14},     {"time_dim", 10},         {"catalog_sales", 34},
      {"web_sales", 34},   {"store_returns", 20}, {"catalog_returns", 27},  {"web_returns", 24},
      {"inventory", 4}};
  for (const auto& [table, width] : widths) {
    EXPECT_EQ(connection.Query("SELECT * FROM " + data.T(table) + " LIMIT 0").names.size(), width)
        << table;
  }
}

void CheckPartitionLayout(const GeneratedTpcds& data) {
  for (const auto& table : TpcdsTableNames()) {
    const std::string key = TpcdsPartitionColumn(table);
    if (key.empty()) {
      EXPECT_TRUE(fs::exists(data.dir() / table / (table + ".parquet"))) << table;
      continue;
    }
    size_t partitions = 0, null_partitions = 0;
    for (const auto& entry : fs::directory_iterator(data.dir() / table)) {
      const std::string name = entry.path().filename().string();
      ASSERT_EQ(name.substr(0, key.size() + 1), key + "=") << name;
      const std::string value = name.substr(key.size() + 1);
      if (value == "__HIVE_DEFAULT_PARTITION__") {
        null_partitions++;
      } else {
        EXPECT_EQ(std::to_string(std::stoll(value)), value) << name;
      }
      EXPECT_TRUE(fs::exists(entry.path() / "part-0.parquet")) << name;
      partitions++;
    }
    EXPECT_EQ(partitions,
              static_cast<size_t>(
                  data.summary()
                      .tables[static_cast<size_t>(
                          std::find(TpcdsTableNames().begin(), TpcdsTableNames().end(), table) -
                          TpcdsTableNames().begin())]
                      .files))
        << table;
    // Inventory has a date for every row; the others some NULL dates.
    EXPECT_EQ(null_partitions, table == "inventory" ? 0u : 1u) << table;
  }
  // A day's file holds that day's rows, without the key column.
  const std::string day =
      (data.dir() / "store_sales/ss_sold_date_sk=2451545/part-0.parquet").string();
  const auto file = parquet::ParquetFile::Open(day);
  EXPECT_EQ(file->columns().size(), 22u);
  for (const auto& column : file->columns())
    EXPECT_NE(column.name, "ss_sold_date_sk");
  EXPECT_EQ(
      std::to_string(file->num_rows()),
      Scalar("SELECT count(*) FROM " + data.T("store_sales") + " WHERE ss_sold_date_sk = 2451545"));
  EXPECT_NE(
      Scalar("SELECT count(*) FROM " + data.T("store_sales") + " WHERE ss_sold_date_sk IS NULL"),
      "0");
}

void CheckForeignKeys(const GeneratedTpcds& data) {
  // (fact, key column, dimension, dimension key): every non-NULL key names a row.
  const std::tuple<const char*, const char*, const char*, const char*> keys[] = {
      {"store_sales", "ss_item_sk", "item", "i_item_sk"},
      {"store_sales", "ss_customer_sk", "customer", "c_customer_sk"},
      {"store_sales", "ss_cdemo_sk", "customer_demographics", "cd_demo_sk"},
      {"store_sales", "ss_hdemo_sk", "household_demographics", "hd_demo_sk"},
      {"store_sales", "ss_addr_sk", "customer_address", "ca_address_sk"},
      {"store_sales", "ss_store_sk", "store", "s_store_sk"},
      {"store_sales", "ss_promo_sk", "promotion", "p_promo_sk"},
      {"store_sales", "ss_sold_date_sk", "date_dim", "d_date_sk"},
      {"store_sales", "ss_sold_time_sk", "time_dim", "t_time_sk"},
      {"store_returns", "sr_reason_sk", "reason", "r_reason_sk"},
      {"store_returns", "sr_returned_date_sk", "date_dim", "d_date_sk"},
      {"catalog_sales", "cs_call_center_sk", "call_center", "cc_call_center_sk"},
      {"catalog_sales", "cs_catalog_page_sk", "catalog_page", "cp_catalog_page_sk"},
      {"catalog_sales", "cs_ship_mode_sk", "ship_mode", "sm_ship_mode_sk"},
      {"catalog_sales", "cs_warehouse_sk", "warehouse", "w_warehouse_sk"},
      {"catalog_sales", "cs_ship_date_sk", "date_dim", "d_date_sk"},
      {"web_sales", "ws_web_page_sk", "web_page", "wp_web_page_sk"},
      {"web_sales", "ws_web_site_sk", "web_site", "web_site_sk"},
      {"web_sales", "ws_bill_customer_sk", "customer", "c_customer_sk"},
      {"inventory", "inv_item_sk", "item", "i_item_sk"},
      {"inventory", "inv_date_sk", "date_dim", "d_date_sk"},
      {"customer", "c_current_addr_sk", "customer_address", "ca_address_sk"},
      {"household_demographics", "hd_income_band_sk", "income_band", "ib_income_band_sk"}};
  for (const auto& [fact, column, dim, dim_key] : keys) {
    EXPECT_EQ(Scalar(fmt::format("SELECT count(*) FROM {} f WHERE {} IS NOT NULL AND NOT EXISTS "
                                 "(SELECT 1 FROM {} d WHERE d.{} = f.{})",
                                 data.T(fact), column, data.T(dim), dim_key, column)),
              "0")
        << fact << "." << column;
  }
  // Every return is of one sale line: same ticket or order, item and customer, later, and no
  // more than was bought.
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + data.T("store_returns") + " r LEFT JOIN " +
                   data.T("store_sales") +
                   " s ON s.ss_ticket_number = r.sr_ticket_number AND s.ss_item_sk = r.sr_item_sk"
                   " WHERE s.ss_item_sk IS NULL OR r.sr_return_quantity > s.ss_quantity"
                   " OR r.sr_returned_date_sk <= s.ss_sold_date_sk"
                   " OR coalesce(r.sr_customer_sk, -1) <> coalesce(s.ss_customer_sk, -1)"),
            "0");
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + data.T("catalog_returns") + " r LEFT JOIN " +
                   data.T("catalog_sales") +
                   " s ON s.cs_order_number = r.cr_order_number AND s.cs_item_sk = r.cr_item_sk"
                   " WHERE s.cs_item_sk IS NULL OR r.cr_return_quantity > s.cs_quantity"
                   " OR r.cr_returned_date_sk <= s.cs_ship_date_sk"
                   " OR coalesce(r.cr_refunded_customer_sk, -1) <> "
                   "coalesce(s.cs_bill_customer_sk, -1)"),
            "0");
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + data.T("web_returns") + " r LEFT JOIN " +
                   data.T("web_sales") +
                   " s ON s.ws_order_number = r.wr_order_number AND s.ws_item_sk = r.wr_item_sk"
                   " WHERE s.ws_item_sk IS NULL OR r.wr_return_quantity > s.ws_quantity"
                   " OR r.wr_returned_date_sk <= s.ws_sold_date_sk"
                   " OR coalesce(r.wr_returning_customer_sk, -1) <> "
                   "coalesce(s.ws_ship_customer_sk, -1)"),
            "0");
  // (ticket, item) is the key of store_sales.
  EXPECT_EQ(Scalar("SELECT count(*) FROM (SELECT ss_ticket_number, ss_item_sk FROM " +
                   data.T("store_sales") + " GROUP BY 1, 2 HAVING count(*) > 1) t"),
            "0");
}

void CheckValueDomains(const GeneratedTpcds& data) {
  // The calendar as TPC-DS numbers it: month 1200 is January 2000, and so on.
  EXPECT_EQ(Rows("SELECT d_date_sk, d_month_seq, d_quarter_seq, d_year, d_moy, d_qoy, d_dow, "
                 "d_day_name, d_quarter_name, d_weekend, d_first_dom, d_last_dom, "
                 "d_same_day_ly FROM " +
                 data.T("date_dim") + " WHERE d_date = DATE '2000-01-02'"),
            (std::vector<std::vector<std::string>>{{"2451546", "1200", "400", "2000", "1", "1", "0",
                                                    "Sunday", "2000Q1", "Y", "2451545", "2451575",
                                                    "2451181"}}));
  EXPECT_EQ(Scalar("SELECT count(*) FROM (SELECT d_week_seq FROM " + data.T("date_dim") +
                   " WHERE d_year = 2001 GROUP BY 1 HAVING min(d_dow) = 0 AND max(d_dow) = 6 "
                   "AND count(*) = 7) t"),
            "51");
  EXPECT_EQ(Scalar("SELECT count(DISTINCT i_category) FROM " + data.T("item")), "10");
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + data.T("item") +
                   " WHERE i_category = 'Women' AND i_class NOT IN ('dresses', 'fragrances', "
                   "'maternity', 'swimwear')"),
            "0");
  // Brand ids spell category and class: amalgimporto #1 is class 1 of Men (category 2).
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + data.T("item") +
                   " WHERE i_brand_id - i_category_id * 1000000 - i_class_id * 1000 NOT BETWEEN "
                   "1 AND 16 OR (i_brand = 'amalgimporto #1') <> (i_brand_id = 2001001)"),
            "0");
  EXPECT_EQ(Scalar("SELECT count(*) FROM (SELECT DISTINCT cd_gender, cd_marital_status, "
                   "cd_education_status, cd_credit_rating FROM " +
                   data.T("customer_demographics") + ") t"),
            "280");
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + data.T("store") +
                   " WHERE s_state = 'TN' AND s_county = 'Williamson County' AND s_city IN "
                   "('Midway', 'Fairview') AND s_gmt_offset = -5"),
            std::to_string(data.summary().Rows("store")));
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + data.T("time_dim") +
                   " WHERE t_meal_time = 'breakfast' AND t_hour BETWEEN 6 AND 9"),
            "14400");
  EXPECT_EQ(
      Scalar("SELECT min(r_reason_desc) FROM " + data.T("reason") + " WHERE r_reason_sk = 28"),
      "reason 28");
  // Money is consistent within a line.
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + data.T("store_sales") +
                   " WHERE ss_ext_sales_price <> ss_sales_price * ss_quantity OR ss_sales_price > "
                   "ss_list_price OR ss_net_paid <> ss_ext_sales_price - ss_coupon_amt"),
            "0");
}

std::string ReadAll(const fs::path& path) {
  return test::ReadFileToString(path.string());
}

// Writing a data set's ~6,000 small files takes seconds, and ctest runs each test in a process
// of its own, so one test makes them all: the first for the data checks, then the same seed on
// other threads (same bytes) and another seed (other data).
TEST(TpcdsGeneratorTest, TablesAreConsistentAndTheSameForASeed) {
  const GeneratedTpcds data(kScale, 42, 1);
  CheckTablesAndRowCounts(data);
  CheckSchema(data);
  CheckPartitionLayout(data);
  CheckForeignKeys(data);
  CheckValueDomains(data);

  const GeneratedTpcds again(kScale, 42, 3);
  size_t files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(data.dir())) {
    if (!entry.is_regular_file()) continue;
    const fs::path relative = fs::relative(entry.path(), data.dir());
    ASSERT_TRUE(fs::exists(again.dir() / relative)) << relative;
    EXPECT_EQ(ReadAll(entry.path()), ReadAll(again.dir() / relative)) << relative;
    files++;
  }
  EXPECT_GT(files, 5000u);
  const GeneratedTpcds other(kScale, 7, 2);
  for (const fs::path table : {"item/item.parquet", "customer/customer.parquet",
                               "store_sales/ss_sold_date_sk=2451545/part-0.parquet"}) {
    EXPECT_NE(ReadAll(data.dir() / table), ReadAll(other.dir() / table)) << table;
  }
}

TEST(TpcdsGeneratorTest, RejectsBadScaleAndNonEmptyDirectory) {
  ScratchDir dir;
  TpcdsOptions options;
  options.out_dir = dir.path();
  options.scale = 0;
  EXPECT_THROW(GenerateTpcds(options), InvalidInputError);
  options.scale = 1001;
  EXPECT_THROW(GenerateTpcds(options), InvalidInputError);
  std::ofstream(dir.path() + "/something") << "x";
  options.scale = kScale;
  EXPECT_THROW(GenerateTpcds(options), InvalidInputError);
}

}  // namespace
}  // namespace shears

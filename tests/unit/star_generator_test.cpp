#include "tools/star_generator.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "common/error.h"
#include "main/connection.h"
#include "test_util.h"

namespace shears {
namespace {

namespace fs = std::filesystem;

// Small enough that the suite stays fast, large enough that every kind of row (NULL keys,
// returns, multi-line tickets) appears.
constexpr double kScale = 0.002;

/// Generates a star schema once for all tests of the suite (into a fresh temporary directory).
class StarGeneratorTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::string(MakeEmptyDir("a"));
    StarOptions options;
    options.scale = kScale;
    options.out_dir = *dir_;
    options.progress = [](const std::string& table, int64_t done, int64_t total) {
      EXPECT_LE(done, total) << table;
    };
    summary_ = GenerateStar(options);
  }
  static void TearDownTestSuite() {
    fs::remove_all(fs::path(*dir_).parent_path());
    delete dir_;
  }
  static std::string MakeEmptyDir(const std::string& name) {
    const fs::path root = fs::temp_directory_path() / ("shears_star_" + std::to_string(getpid()));
    fs::remove_all(root / name);
    fs::create_directories(root);
    return (root / name).string();
  }
  /// The single value the query returns, as text.
  static std::string Scalar(const std::string& sql) {
    Database database;
    Connection connection(database);
    auto rows = connection.Query(sql).ToStrings();
    EXPECT_EQ(rows.size(), 1u) << sql;
    return rows.empty() ? "" : rows[0][0];
  }
  static std::string Table(const std::string& name) { return "'" + *dir_ + "/" + name + "'"; }

  static std::string* dir_;
  static StarSummary summary_;
};

std::string* StarGeneratorTest::dir_ = nullptr;
StarSummary StarGeneratorTest::summary_;

TEST_F(StarGeneratorTest, RowCountsMatchTheSummaryAndTheScale) {
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + Table("date_dim")), "2191");
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + Table("store_sales")),
            std::to_string(summary_.sales_rows));
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + Table("store_returns")),
            std::to_string(summary_.returns_rows));
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + Table("customer")),
            std::to_string(summary_.customer_rows));
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + Table("customer_address")),
            std::to_string(summary_.address_rows));
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + Table("store")), std::to_string(summary_.store_rows));
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + Table("promotion")),
            std::to_string(summary_.promotion_rows));
  // 2,880,404 sales at scale 1; about 10% of the dated ones come back.
  EXPECT_EQ(summary_.sales_rows, static_cast<int64_t>(2880404 * kScale));
  EXPECT_GT(summary_.returns_rows, summary_.sales_rows / 20);
  EXPECT_LT(summary_.returns_rows, summary_.sales_rows / 6);
  // One partition per sale day (1998..2002) plus the NULL partition.
  EXPECT_EQ(summary_.sales_partitions, 1827);
  EXPECT_EQ(Scalar("SELECT count(DISTINCT c_customer_sk) FROM " + Table("customer")),
            std::to_string(summary_.customer_rows));
}

TEST_F(StarGeneratorTest, ForeignKeysAreNullOrReferenceARow) {
  const std::pair<std::string, std::string> keys[] = {
      // A NULL item key would count too: items are never NULL.
      {"store_sales s WHERE NOT EXISTS (SELECT 1 FROM " + Table("item") +
           " i WHERE i.i_item_sk = s.ss_item_sk)",
       "item"},
      {"store_sales s WHERE NOT EXISTS (SELECT 1 FROM " + Table("customer") +
           " c WHERE c.c_customer_sk = s.ss_customer_sk) AND s.ss_customer_sk IS NOT NULL",
       "customer"},
      {"store_sales s WHERE NOT EXISTS (SELECT 1 FROM " + Table("store") +
           " t WHERE t.s_store_sk = s.ss_store_sk) AND s.ss_store_sk IS NOT NULL",
       "store"},
      {"store_sales s WHERE NOT EXISTS (SELECT 1 FROM " + Table("promotion") +
           " p WHERE p.p_promo_sk = s.ss_promo_sk) AND s.ss_promo_sk IS NOT NULL",
       "promotion"},
      {"store_sales s WHERE NOT EXISTS (SELECT 1 FROM " + Table("date_dim") +
           " d WHERE d.d_date_sk = s.ss_sold_date_sk) AND s.ss_sold_date_sk IS NOT NULL",
       "sold date"},
      {"customer c WHERE NOT EXISTS (SELECT 1 FROM " + Table("customer_address") +
           " a WHERE a.ca_address_sk = c.c_current_addr_sk) AND c.c_current_addr_sk IS NOT NULL",
       "address"},
      {"store_returns r WHERE NOT EXISTS (SELECT 1 FROM " + Table("date_dim") +
           " d WHERE d.d_date_sk = r.sr_returned_date_sk) AND r.sr_returned_date_sk IS NOT NULL",
       "returned date"},
      // Every return is of a real sale line: same ticket and item.
      {"store_returns r WHERE NOT EXISTS (SELECT 1 FROM " + Table("store_sales") +
           " s WHERE s.ss_ticket_number = r.sr_ticket_number AND s.ss_item_sk = r.sr_item_sk)",
       "sale of a return"},
  };
  for (const auto& [from, what] : keys) {
    const std::string table = from.substr(0, from.find(' '));
    EXPECT_EQ(Scalar("SELECT count(*) FROM " + Table(table) + from.substr(table.size())), "0")
        << what;
  }
}

TEST_F(StarGeneratorTest, SomeForeignKeysAreNull) {
  for (const auto& [table, column] :
       {std::pair<std::string, std::string>{"store_sales", "ss_sold_date_sk"},
        {"store_sales", "ss_customer_sk"},
        {"store_sales", "ss_store_sk"},
        {"store_sales", "ss_promo_sk"},
        {"store_returns", "sr_returned_date_sk"},
        {"customer", "c_current_addr_sk"}}) {
    EXPECT_NE(Scalar("SELECT count(*) FROM " + Table(table) + " WHERE " + column + " IS NULL"), "0")
        << column;
  }
}

TEST_F(StarGeneratorTest, ReturnsFollowTheirSaleAndMatchIt) {
  // Returned 1 to 90 days after the sale, by the sale's customer at the sale's store, never
  // more than was bought.
  EXPECT_EQ(
      Scalar("SELECT count(*) FROM " + Table("store_returns") + " r JOIN " + Table("store_sales") +
             " s ON s.ss_ticket_number = r.sr_ticket_number AND s.ss_item_sk = r.sr_item_sk"
             " WHERE r.sr_returned_date_sk NOT BETWEEN s.ss_sold_date_sk + 1 AND "
             "s.ss_sold_date_sk + 90 OR r.sr_return_quantity > s.ss_quantity"
             " OR coalesce(r.sr_customer_sk, -1) <> coalesce(s.ss_customer_sk, -1)"
             " OR coalesce(r.sr_store_sk, -1) <> coalesce(s.ss_store_sk, -1)"),
      "0");
  // (ticket, item) is a key of store_sales.
  EXPECT_EQ(Scalar("SELECT count(*) FROM (SELECT ss_ticket_number, ss_item_sk FROM " +
                   Table("store_sales") + " GROUP BY 1, 2 HAVING count(*) > 1) t"),
            "0");
}

TEST_F(StarGeneratorTest, ItemsAreSkewed) {
  // 1% of the items get 30% of the lines: the busiest item sells far above the average.
  const int64_t busiest =
      std::stoll(Scalar("SELECT max(n) FROM (SELECT ss_item_sk, count(*) AS n "
                        "FROM " +
                        Table("store_sales") + " GROUP BY 1) t"));
  EXPECT_GT(busiest, 10 * summary_.sales_rows / summary_.item_rows);
}

TEST_F(StarGeneratorTest, AddressesCarryTheirStatesTimeZone) {
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + Table("customer_address") +
                   " WHERE ca_gmt_offset NOT BETWEEN -10 AND -5"),
            "0");
  EXPECT_EQ(Scalar("SELECT DISTINCT ca_gmt_offset FROM " + Table("customer_address") +
                   " WHERE ca_state = 'CA'"),
            "-8.00");
}

std::string ReadAll(const fs::path& path) {
  return test::ReadFileToString(path.string());
}

TEST_F(StarGeneratorTest, SameSeedSameBytesOtherSeedOtherData) {
  const std::string again = MakeEmptyDir("b"), other = MakeEmptyDir("c");
  StarOptions options;
  options.scale = kScale;
  options.out_dir = again;
  GenerateStar(options);
  options.out_dir = other;
  options.seed = 7;
  GenerateStar(options);
  size_t files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(*dir_)) {
    if (!entry.is_regular_file()) continue;
    const fs::path relative = fs::relative(entry.path(), *dir_);
    ASSERT_TRUE(fs::exists(again / relative)) << relative;
    EXPECT_EQ(ReadAll(entry.path()), ReadAll(again / relative)) << relative;
    files++;
  }
  EXPECT_GT(files, 2000u);
  const fs::path sales = "store_sales/ss_sold_date_sk=2451545/part-0.parquet";
  EXPECT_NE(ReadAll(*dir_ / sales), ReadAll(other / sales));
}

TEST_F(StarGeneratorTest, RejectsBadScaleAndNonEmptyDirectory) {
  StarOptions options;
  options.out_dir = MakeEmptyDir("d");
  options.scale = 0;
  EXPECT_THROW(GenerateStar(options), InvalidInputError);
  options.scale = 1001;
  EXPECT_THROW(GenerateStar(options), InvalidInputError);
  options.scale = kScale;
  options.out_dir = *dir_;
  EXPECT_THROW(GenerateStar(options), InvalidInputError);
}

}  // namespace
}  // namespace shears

#include "tools/star_generator.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "common/error.h"
#include "main/connection.h"
#include "test_util.h"

namespace shears {
namespace {

namespace fs = std::filesystem;

// Small enough that the suite stays fast, large enough that every kind of row (NULL keys,
// returns, multi-line tickets) appears.
constexpr double kScale = 0.002;

/// A temporary directory of its own for this process, removed with its contents at the end.
fs::path TempRoot(const std::string& name) {
  const fs::path path =
      fs::temp_directory_path() / ("shears_star_" + std::to_string(getpid())) / name;
  fs::remove_all(path);
  fs::create_directories(path.parent_path());
  return path;
}

/// A star schema generated into a temporary directory, removed at the end.
class GeneratedStar {
 public:
  explicit GeneratedStar(const std::string& name, uint64_t seed = 42) : dir_(TempRoot(name)) {
    StarOptions options;
    options.scale = kScale;
    options.out_dir = dir_.string();
    options.seed = seed;
    options.progress = [](const std::string& table, int64_t done, int64_t total) {
      EXPECT_LE(done, total) << table;
    };
    summary_ = GenerateStar(options);
  }
  ~GeneratedStar() { fs::remove_all(dir_); }
  const fs::path& dir() const { return dir_; }
  const StarSummary& summary() const { return summary_; }
  /// The table as a quoted path for FROM.
  std::string Table(const std::string& name) const { return "'" + (dir_ / name).string() + "'"; }

 private:
  fs::path dir_;
  StarSummary summary_;
};

/// The single value the query returns, as text.
std::string Scalar(const std::string& sql) {
  Database database;
  Connection connection(database);
  auto rows = connection.Query(sql).ToStrings();
  EXPECT_EQ(rows.size(), 1u) << sql;
  return rows.empty() ? "" : rows[0][0];
}

void CheckRowCountsMatchTheSummaryAndTheScale(const GeneratedStar& star) {
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + star.Table("date_dim")), "2191");
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + star.Table("store_sales")),
            std::to_string(star.summary().sales_rows));
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + star.Table("store_returns")),
            std::to_string(star.summary().returns_rows));
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + star.Table("customer")),
            std::to_string(star.summary().customer_rows));
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + star.Table("customer_address")),
            std::to_string(star.summary().address_rows));
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + star.Table("store")),
            std::to_string(star.summary().store_rows));
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + star.Table("promotion")),
            std::to_string(star.summary().promotion_rows));
  // 2,880,404 sales at scale 1; about 10% of the dated ones come back.
  EXPECT_EQ(star.summary().sales_rows, static_cast<int64_t>(2880404 * kScale));
  EXPECT_GT(star.summary().returns_rows, star.summary().sales_rows / 20);
  EXPECT_LT(star.summary().returns_rows, star.summary().sales_rows / 6);
  // One partition per sale day (1998..2002) plus the NULL partition.
  EXPECT_EQ(star.summary().sales_partitions, 1827);
  EXPECT_EQ(Scalar("SELECT count(DISTINCT c_customer_sk) FROM " + star.Table("customer")),
            std::to_string(star.summary().customer_rows));
}

void CheckForeignKeysAreNullOrReferenceARow(const GeneratedStar& star) {
  const std::pair<std::string, std::string> keys[] = {
      // A NULL item key would count too: items are never NULL.
      {"store_sales s WHERE NOT EXISTS (SELECT 1 FROM " + star.Table("item") +
           " i WHERE i.i_item_sk = s.ss_item_sk)",
       "item"},
      {"store_sales s WHERE NOT EXISTS (SELECT 1 FROM " + star.Table("customer") +
           " c WHERE c.c_customer_sk = s.ss_customer_sk) AND s.ss_customer_sk IS NOT NULL",
       "customer"},
      {"store_sales s WHERE NOT EXISTS (SELECT 1 FROM " + star.Table("store") +
           " t WHERE t.s_store_sk = s.ss_store_sk) AND s.ss_store_sk IS NOT NULL",
       "store"},
      {"store_sales s WHERE NOT EXISTS (SELECT 1 FROM " + star.Table("promotion") +
           " p WHERE p.p_promo_sk = s.ss_promo_sk) AND s.ss_promo_sk IS NOT NULL",
       "promotion"},
      {"store_sales s WHERE NOT EXISTS (SELECT 1 FROM " + star.Table("date_dim") +
           " d WHERE d.d_date_sk = s.ss_sold_date_sk) AND s.ss_sold_date_sk IS NOT NULL",
       "sold date"},
      {"customer c WHERE NOT EXISTS (SELECT 1 FROM " + star.Table("customer_address") +
           " a WHERE a.ca_address_sk = c.c_current_addr_sk) AND c.c_current_addr_sk IS NOT NULL",
       "address"},
      {"store_returns r WHERE NOT EXISTS (SELECT 1 FROM " + star.Table("date_dim") +
           " d WHERE d.d_date_sk = r.sr_returned_date_sk) AND r.sr_returned_date_sk IS NOT NULL",
       "returned date"},
      // Every return is of a real sale line: same ticket and item.
      {"store_returns r WHERE NOT EXISTS (SELECT 1 FROM " + star.Table("store_sales") +
           " s WHERE s.ss_ticket_number = r.sr_ticket_number AND s.ss_item_sk = r.sr_item_sk)",
       "sale of a return"},
  };
  for (const auto& [from, what] : keys) {
    const std::string table = from.substr(0, from.find(' '));
    EXPECT_EQ(Scalar("SELECT count(*) FROM " + star.Table(table) + from.substr(table.size())), "0")
        << what;
  }
}

void CheckSomeForeignKeysAreNull(const GeneratedStar& star) {
  for (const auto& [table, column] :
       {std::pair<std::string, std::string>{"store_sales", "ss_sold_date_sk"},
        {"store_sales", "ss_customer_sk"},
        {"store_sales", "ss_store_sk"},
        {"store_sales", "ss_promo_sk"},
        {"store_returns", "sr_returned_date_sk"},
        {"customer", "c_current_addr_sk"}}) {
    EXPECT_NE(Scalar("SELECT count(*) FROM " + star.Table(table) + " WHERE " + column + " IS NULL"),
              "0")
        << column;
  }
}

void CheckReturnsFollowTheirSaleAndMatchIt(const GeneratedStar& star) {
  // Returned 1 to 90 days after the sale, by the sale's customer at the sale's store, never
  // more than was bought.
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + star.Table("store_returns") + " r JOIN " +
                   star.Table("store_sales") +
                   " s ON s.ss_ticket_number = r.sr_ticket_number AND s.ss_item_sk = r.sr_item_sk"
                   " WHERE r.sr_returned_date_sk NOT BETWEEN s.ss_sold_date_sk + 1 AND "
                   "s.ss_sold_date_sk + 90 OR r.sr_return_quantity > s.ss_quantity"
                   " OR coalesce(r.sr_customer_sk, -1) <> coalesce(s.ss_customer_sk, -1)"
                   " OR coalesce(r.sr_store_sk, -1) <> coalesce(s.ss_store_sk, -1)"),
            "0");
  // (ticket, item) is a key of store_sales.
  EXPECT_EQ(Scalar("SELECT count(*) FROM (SELECT ss_ticket_number, ss_item_sk FROM " +
                   star.Table("store_sales") + " GROUP BY 1, 2 HAVING count(*) > 1) t"),
            "0");
}

void CheckItemsAreSkewed(const GeneratedStar& star) {
  // 1% of the items get 30% of the lines: the busiest item sells far above the average.
  const int64_t busiest =
      std::stoll(Scalar("SELECT max(n) FROM (SELECT ss_item_sk, count(*) AS n "
                        "FROM " +
                        star.Table("store_sales") + " GROUP BY 1) t"));
  EXPECT_GT(busiest, 10 * star.summary().sales_rows / star.summary().item_rows);
}

void CheckAddressesCarryTheirStatesTimeZone(const GeneratedStar& star) {
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + star.Table("customer_address") +
                   " WHERE ca_gmt_offset NOT BETWEEN -10 AND -5"),
            "0");
  EXPECT_EQ(Scalar("SELECT DISTINCT ca_gmt_offset FROM " + star.Table("customer_address") +
                   " WHERE ca_state = 'CA'"),
            "-8.00");
}

std::string ReadAll(const fs::path& path) {
  return test::ReadFileToString(path.string());
}

// Writing ~2,300 small files takes seconds and ctest runs every test in a process of its own,
// so one generation serves all the checks of the data.
TEST(StarGeneratorTest, GeneratedTablesAreConsistent) {
  const GeneratedStar star("consistent");
  CheckRowCountsMatchTheSummaryAndTheScale(star);
  CheckForeignKeysAreNullOrReferenceARow(star);
  CheckSomeForeignKeysAreNull(star);
  CheckReturnsFollowTheirSaleAndMatchIt(star);
  CheckItemsAreSkewed(star);
  CheckAddressesCarryTheirStatesTimeZone(star);
}

TEST(StarGeneratorTest, SameSeedSameBytesOtherSeedOtherData) {
  const GeneratedStar first("first"), again("again"), other("other", 7);
  size_t files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(first.dir())) {
    if (!entry.is_regular_file()) continue;
    const fs::path relative = fs::relative(entry.path(), first.dir());
    ASSERT_TRUE(fs::exists(again.dir() / relative)) << relative;
    EXPECT_EQ(ReadAll(entry.path()), ReadAll(again.dir() / relative)) << relative;
    files++;
  }
  EXPECT_GT(files, 2000u);
  const fs::path sales = "store_sales/ss_sold_date_sk=2451545/part-0.parquet";
  EXPECT_NE(ReadAll(first.dir() / sales), ReadAll(other.dir() / sales));
}

TEST(StarGeneratorTest, RejectsBadScaleAndNonEmptyDirectory) {
  const fs::path dir = TempRoot("rejects");
  StarOptions options;
  options.out_dir = dir.string();
  options.scale = 0;
  EXPECT_THROW(GenerateStar(options), InvalidInputError);
  options.scale = 1001;
  EXPECT_THROW(GenerateStar(options), InvalidInputError);
  fs::create_directories(dir);
  std::ofstream(dir / "something") << "x";
  options.scale = kScale;
  EXPECT_THROW(GenerateStar(options), InvalidInputError);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace shears

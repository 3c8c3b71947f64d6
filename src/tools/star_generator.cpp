#include "tools/star_generator.h"

#include <cmath>
#include <filesystem>
#include <numeric>
#include <optional>

#include "common/error.h"
#include "common/types.h"
#include "common/vector.h"
#include "storage/parquet/parquet_writer.h"
#include "tools/generator_util.h"

namespace shears {

namespace {

namespace fs = std::filesystem;
constexpr int64_t kJulianEpoch = 2440588;
constexpr const char* kCategories[] = {"Books", "Children", "Electronics", "Home",   "Jewelry",
                                       "Men",   "Music",    "Shoes",       "Sports", "Women"};
constexpr const char* kDayNames[] = {"Thursday", "Friday",  "Saturday", "Sunday",
                                     "Monday",   "Tuesday", "Wednesday"};
// States with a weight each (people per state, roughly), so ca_state is skewed as in TPC-DS,
// and their GMT offset.
constexpr struct {
  const char* name;
  int weight;
  int gmt_offset;
} kStates[] = {{"TX", 30, -6}, {"CA", 28, -8}, {"GA", 18, -5}, {"VA", 16, -5}, {"KY", 14, -5},
               {"MO", 13, -6}, {"IL", 12, -6}, {"OH", 12, -5}, {"NC", 11, -5}, {"TN", 10, -6},
               {"IN", 9, -5},  {"MI", 9, -5},  {"MN", 7, -6},  {"IA", 7, -6},  {"WI", 6, -6},
               {"NY", 6, -5},  {"WA", 5, -8},  {"CO", 4, -7},  {"AL", 4, -6},  {"OR", 2, -8},
               {"NM", 2, -7},  {"AK", 1, -9},  {"HI", 1, -10}};
constexpr const char* kCities[] = {
    "Midway",     "Fairview",   "Oak Grove", "Five Points", "Pleasant Hill", "Centerville",
    "Riverside",  "Mount Zion", "Greenwood", "Union",       "Oakland",       "Salem",
    "Glendale",   "Springdale", "Lakeside",  "Franklin",    "Clinton",       "Marion",
    "Georgetown", "Bethel",     "Woodland",  "Shiloh",      "Summit",        "Jackson"};
constexpr const char* kFirstNames[] = {"James", "Mary",    "John",    "Patricia", "Robert",
                                       "Linda", "Michael", "Barbara", "William",  "Elizabeth",
                                       "David", "Susan",   "Richard", "Jessica",  "Joseph",
                                       "Sarah", "Thomas",  "Karen",   "Charles",  "Nancy"};
constexpr const char* kLastNames[] = {"Smith",   "Johnson",  "Williams", "Brown",     "Jones",
                                      "Garcia",  "Miller",   "Davis",    "Rodriguez", "Martinez",
                                      "Wilson",  "Anderson", "Taylor",   "Thomas",    "Moore",
                                      "Jackson", "Martin",   "Lee",      "Thompson",  "White"};
// TPC-DS builds store and promotion names from these syllables.
constexpr const char* kSyllables[] = {"ought", "able",  "pri",  "ese", "anti",
                                      "cally", "ation", "eing", "bar", "n st"};

template <typename T, size_t N>
constexpr size_t Count(const T (&)[N]) {
  return N;
}

using gen::Rng;

// Stream numbers; sale day d uses kSalesStream + d.
enum : uint64_t {
  kItemStream = 1,
  kAddressStream,
  kCustomerStream,
  kStoreStream,
  kPromoStream,
  kSalesStream = 1000
};

/// Keys 1..n where `hot_keys` (a fraction of the keys) get `hot_share` of the draws. The hot
/// keys are spread over the range by a multiplicative permutation, so they are not simply the
/// smallest keys (which would line up with row-group min/max statistics).
class SkewedKeys {
 public:
  SkewedKeys(int64_t n, double hot_keys, double hot_share)
      : n_(n), hot_(std::max<int64_t>(1, static_cast<int64_t>(n * hot_keys))), share_(hot_share) {
    while (std::gcd(step_, n_) != 1)
      step_++;
  }
  int64_t Draw(Rng& rng) const {
    if (rng.Chance(share_)) return 1 + (rng.Between(0, hot_ - 1) * step_) % n_;
    return rng.Between(1, n_);
  }

 private:
  int64_t n_, hot_;
  double share_;
  int64_t step_ = 7919;
};

/// Appends rows one at a time to one Parquet file, a batch at a time.
class TableFile {
 public:
  TableFile(const std::string& path, const std::vector<std::string>& names,
            const std::vector<LogicalType>& types)
      : writer_(path, names, types), batch_(types) {}
  /// Starts a new row and returns its index in batch().
  idx_t AddRow() {
    if (rows_ == kBatchSize) Flush();
    return rows_++;
  }
  Batch& batch() { return batch_; }
  void SetInt(idx_t column, idx_t row, std::optional<int64_t> value) {
    if (!value) return batch_.column(column).validity().SetNull(row);
    batch_.column(column).data<int64_t>()[row] = *value;
  }
  void SetInt32(idx_t column, idx_t row, std::optional<int32_t> value) {
    if (!value) return batch_.column(column).validity().SetNull(row);
    batch_.column(column).data<int32_t>()[row] = *value;
  }
  /// `value` must outlive the file (static text); see SetCopiedString otherwise.
  void SetString(idx_t column, idx_t row, const char* value) {
    if (!value) return batch_.column(column).validity().SetNull(row);
    batch_.column(column).data<StringRef>()[row] = StringRef(value);
  }
  void SetCopiedString(idx_t column, idx_t row, const std::string& value) {
    auto& vector = batch_.column(column);
    vector.data<StringRef>()[row] = vector.AddString(value);
  }
  /// Writes what is buffered and the footer; returns the file size.
  uint64_t Close() {
    Flush();
    return writer_.Close().size;
  }

 private:
  void Flush() {
    if (rows_ == 0) return;
    batch_.SetSize(rows_);
    writer_.Write(batch_);
    batch_.Reset();
    rows_ = 0;
  }
  parquet::ParquetWriter writer_;
  Batch batch_;
  idx_t rows_ = 0;
};

/// Writes a one-file table `dir/name/name.parquet` of `rows` rows made by fill(file, row, sk).
uint64_t WriteDimension(const std::string& dir, const std::string& name,
                        const std::vector<std::string>& names,
                        const std::vector<LogicalType>& types, int64_t rows,
                        const std::function<void(TableFile&, idx_t, int64_t)>& fill) {
  fs::create_directories(dir + "/" + name);
  TableFile file(dir + "/" + name + "/" + name + ".parquet", names, types);
  for (int64_t sk = 1; sk <= rows; sk++)
    fill(file, file.AddRow(), sk);
  return file.Close();
}

std::optional<int64_t> MaybeNull(Rng& rng, double null_chance, int64_t value) {
  if (rng.Chance(null_chance)) return std::nullopt;
  return value;
}

const char* FlagOrNull(Rng& rng, double yes_chance, double null_chance) {
  if (rng.Chance(null_chance)) return nullptr;
  return rng.Chance(yes_chance) ? "Y" : "N";
}

std::string SyllableName(int64_t number) {
  std::string name = kSyllables[number % 10];
  for (number /= 10; number > 0; number /= 10)
    name = kSyllables[number % 10] + name;
  return name;
}

std::string BusinessKey(int64_t sk) {
  std::string digits = std::to_string(sk);
  return "AAAAAAAA" + std::string(digits.size() < 8 ? 8 - digits.size() : 0, '0') + digits;
}

struct ReturnRow {
  int64_t item, ticket;
  std::optional<int64_t> customer, store;
  int32_t quantity;
  int64_t amount;  // cents
};

const std::vector<std::string> kReturnNames = {"sr_item_sk",         "sr_customer_sk",
                                               "sr_store_sk",        "sr_ticket_number",
                                               "sr_return_quantity", "sr_return_amt"};

/// Writes one store_returns partition (`key` "" is the NULL partition).
uint64_t WriteReturns(const std::string& dir, const std::string& key,
                      const std::vector<ReturnRow>& rows) {
  const std::string partition = dir + "/store_returns/sr_returned_date_sk=" + key;
  fs::create_directories(partition);
  TableFile file(partition + "/part-0.parquet", kReturnNames,
                 {LogicalType::Bigint(), LogicalType::Bigint(), LogicalType::Bigint(),
                  LogicalType::Bigint(), LogicalType::Integer(), LogicalType::Decimal(7, 2)});
  for (const auto& r : rows) {
    const idx_t row = file.AddRow();
    file.SetInt(0, row, r.item);
    file.SetInt(1, row, r.customer);
    file.SetInt(2, row, r.store);
    file.SetInt(3, row, r.ticket);
    file.SetInt32(4, row, r.quantity);
    file.SetInt(5, row, r.amount);
  }
  return file.Close();
}

/// Table sizes at a scale: sales grow linearly, the dimensions more slowly, as in TPC-DS.
struct Sizes {
  int64_t items, customers, addresses, stores, promotions, sales;
  explicit Sizes(double scale)
      : items(std::max<int64_t>(100, static_cast<int64_t>(18000 * std::sqrt(scale)))),
        customers(std::max<int64_t>(1000, static_cast<int64_t>(100000 * scale))),
        addresses(std::max<int64_t>(500, static_cast<int64_t>(50000 * scale))),
        stores(std::max<int64_t>(3, std::llround(12 * std::sqrt(scale)))),
        promotions(std::max<int64_t>(10, std::llround(300 * std::sqrt(scale)))),
        sales(std::max<int64_t>(1000, static_cast<int64_t>(2880404 * scale))) {}
};

}  // namespace

StarSummary GenerateStar(const StarOptions& options) {
  gen::PrepareOutput(options.scale, options.out_dir);
  const std::string& out = options.out_dir;
  const Sizes sizes(options.scale);
  const uint64_t seed = options.seed;
  StarSummary summary;
  auto done = [&](const std::string& table, int64_t rows) {
    if (options.progress) options.progress(table, rows, rows);
  };

  // date_dim: every day of 1998..2003.
  const int32_t first_day = DaysFromCivil(1998, 1, 1);
  const int32_t last_day = DaysFromCivil(2003, 12, 31);
  summary.date_rows = last_day - first_day + 1;
  summary.bytes += WriteDimension(
      out, "date_dim", {"d_date_sk", "d_date", "d_year", "d_moy", "d_dom", "d_qoy", "d_day_name"},
      {LogicalType::Bigint(), LogicalType::Date(), LogicalType::Integer(), LogicalType::Integer(),
       LogicalType::Integer(), LogicalType::Integer(), LogicalType::Varchar()},
      summary.date_rows, [&](TableFile& f, idx_t row, int64_t sk) {
        const int32_t day = first_day + static_cast<int32_t>(sk - 1);
        int64_t y;
        unsigned m, d;
        CivilFromDays(day, &y, &m, &d);
        f.SetInt(0, row, day + kJulianEpoch);
        f.SetInt32(1, row, day);
        f.SetInt32(2, row, static_cast<int32_t>(y));
        f.SetInt32(3, row, static_cast<int32_t>(m));
        f.SetInt32(4, row, static_cast<int32_t>(d));
        f.SetInt32(5, row, static_cast<int32_t>((m - 1) / 3 + 1));
        f.SetString(6, row, kDayNames[((day % 7) + 7) % 7]);
      });
  done("date_dim", summary.date_rows);

  // item
  {
    Rng rng(seed, kItemStream);
    summary.item_rows = sizes.items;
    summary.bytes += WriteDimension(
        out, "item", {"i_item_sk", "i_category", "i_class", "i_brand", "i_current_price"},
        {LogicalType::Bigint(), LogicalType::Varchar(), LogicalType::Varchar(),
         LogicalType::Varchar(), LogicalType::Decimal(7, 2)},
        sizes.items, [&](TableFile& f, idx_t row, int64_t sk) {
          f.SetInt(0, row, sk);
          f.SetString(1, row, kCategories[sk % 10]);
          f.SetCopiedString(2, row, "class " + std::to_string(sk % 100));
          f.SetCopiedString(3, row, "brand #" + std::to_string(sk % 500));
          f.SetInt(4, row, rng.Between(100, 10099));
        });
    done("item", sizes.items);
  }

  // customer_address
  {
    Rng rng(seed, kAddressStream);
    int state_weights = 0;
    for (const auto& s : kStates)
      state_weights += s.weight;
    summary.address_rows = sizes.addresses;
    summary.bytes += WriteDimension(
        out, "customer_address",
        {"ca_address_sk", "ca_city", "ca_state", "ca_zip", "ca_country", "ca_gmt_offset"},
        {LogicalType::Bigint(), LogicalType::Varchar(), LogicalType::Varchar(),
         LogicalType::Varchar(), LogicalType::Varchar(), LogicalType::Decimal(5, 2)},
        sizes.addresses, [&](TableFile& f, idx_t row, int64_t sk) {
          int pick = static_cast<int>(rng.Between(0, state_weights - 1));
          size_t state = 0;
          while (pick >= kStates[state].weight)
            pick -= kStates[state++].weight;
          f.SetInt(0, row, sk);
          f.SetString(1, row, kCities[rng.Between(0, Count(kCities) - 1)]);
          f.SetString(2, row, kStates[state].name);
          f.SetCopiedString(3, row, std::to_string(rng.Between(10000, 99999)));
          f.SetString(4, row, "United States");
          f.SetInt(5, row, int64_t{kStates[state].gmt_offset} * 100);
        });
    done("customer_address", sizes.addresses);
  }

  // customer: 3% have no current address, birth year or preferred flag.
  {
    Rng rng(seed, kCustomerStream);
    summary.customer_rows = sizes.customers;
    summary.bytes += WriteDimension(
        out, "customer",
        {"c_customer_sk", "c_customer_id", "c_current_addr_sk", "c_first_name", "c_last_name",
         "c_birth_year", "c_preferred_cust_flag"},
        {LogicalType::Bigint(), LogicalType::Varchar(), LogicalType::Bigint(),
         LogicalType::Varchar(), LogicalType::Varchar(), LogicalType::Integer(),
         LogicalType::Varchar()},
        sizes.customers, [&](TableFile& f, idx_t row, int64_t sk) {
          f.SetInt(0, row, sk);
          f.SetCopiedString(1, row, BusinessKey(sk));
          f.SetInt(2, row, MaybeNull(rng, 0.03, rng.Between(1, sizes.addresses)));
          f.SetString(3, row, kFirstNames[rng.Between(0, Count(kFirstNames) - 1)]);
          f.SetString(4, row, kLastNames[rng.Between(0, Count(kLastNames) - 1)]);
          auto year = MaybeNull(rng, 0.03, rng.Between(1924, 1992));
          f.SetInt32(5, row,
                     year ? std::optional<int32_t>(static_cast<int32_t>(*year)) : std::nullopt);
          f.SetString(6, row, FlagOrNull(rng, 0.5, 0.03));
        });
    done("customer", sizes.customers);
  }

  // store
  {
    Rng rng(seed, kStoreStream);
    summary.store_rows = sizes.stores;
    summary.bytes +=
        WriteDimension(out, "store",
                       {"s_store_sk", "s_store_id", "s_store_name", "s_city", "s_state",
                        "s_number_employees", "s_floor_space"},
                       {LogicalType::Bigint(), LogicalType::Varchar(), LogicalType::Varchar(),
                        LogicalType::Varchar(), LogicalType::Varchar(), LogicalType::Integer(),
                        LogicalType::Integer()},
                       sizes.stores, [&](TableFile& f, idx_t row, int64_t sk) {
                         f.SetInt(0, row, sk);
                         f.SetCopiedString(1, row, BusinessKey(sk));
                         f.SetCopiedString(2, row, SyllableName(sk));
                         f.SetString(3, row, kCities[rng.Between(0, Count(kCities) - 1)]);
                         // Stores sit in a few states only (TPC-DS puts them all in Tennessee at
                         // scale 1).
                         f.SetString(4, row, kStates[rng.Between(0, 3) * 3].name);
                         f.SetInt32(5, row, static_cast<int32_t>(rng.Between(200, 300)));
                         f.SetInt32(6, row, static_cast<int32_t>(rng.Between(5000000, 10000000)));
                       });
    done("store", sizes.stores);
  }

  // The sale days of 1998..2002, rows spread unevenly over them (more in November and
  // December) as in retail data.
  const int32_t sales_last = DaysFromCivil(2002, 12, 31);
  const int64_t sale_days = sales_last - first_day + 1;

  // promotion: each runs for 1 to 60 days inside the sales years.
  {
    Rng rng(seed, kPromoStream);
    summary.promotion_rows = sizes.promotions;
    summary.bytes += WriteDimension(
        out, "promotion",
        {"p_promo_sk", "p_promo_id", "p_promo_name", "p_start_date_sk", "p_end_date_sk", "p_cost",
         "p_channel_email", "p_channel_tv", "p_channel_dmail", "p_discount_active"},
        {LogicalType::Bigint(), LogicalType::Varchar(), LogicalType::Varchar(),
         LogicalType::Bigint(), LogicalType::Bigint(), LogicalType::Decimal(15, 2),
         LogicalType::Varchar(), LogicalType::Varchar(), LogicalType::Varchar(),
         LogicalType::Varchar()},
        sizes.promotions, [&](TableFile& f, idx_t row, int64_t sk) {
          const int64_t start = first_day + kJulianEpoch + rng.Between(0, sale_days - 61);
          f.SetInt(0, row, sk);
          f.SetCopiedString(1, row, BusinessKey(sk));
          f.SetCopiedString(2, row, SyllableName(sk));
          f.SetInt(3, row, start);
          f.SetInt(4, row, start + rng.Between(0, 59));
          f.SetInt(5, row, 100000);  // TPC-DS promotions all cost 1000.00
          f.SetString(6, row, FlagOrNull(rng, 0.1, 0.01));
          f.SetString(7, row, FlagOrNull(rng, 0.3, 0.01));
          f.SetString(8, row, FlagOrNull(rng, 0.5, 0.01));
          f.SetString(9, row, FlagOrNull(rng, 0.1, 0.01));
        });
    done("promotion", sizes.promotions);
  }

  // store_sales and store_returns. A sale of day d is returned on day d+1..d+90, so once the
  // sales of day d are written, the returns of day d are complete and are written too: only
  // 90 days of returns are ever held in memory.
  std::vector<double> weights;
  for (int32_t day = first_day; day <= sales_last; day++) {
    int64_t y;
    unsigned m, d;
    CivilFromDays(day, &y, &m, &d);
    weights.push_back(m == 12 ? 2.0 : (m == 11 ? 1.5 : 1.0));
  }
  const double weight_sum = std::accumulate(weights.begin(), weights.end(), 0.0);
  const int64_t null_rows = sizes.sales / 100;  // 1% of sales have no date key
  const int64_t dated = sizes.sales - null_rows;
  // Rounding the running total (not each day) makes the days add up to exactly `dated`.
  std::vector<int64_t> day_rows;
  double running_weight = 0;
  int64_t assigned = 0;
  for (double weight : weights) {
    running_weight += weight;
    const int64_t until = std::llround(static_cast<double>(dated) * running_weight / weight_sum);
    day_rows.push_back(until - assigned);
    assigned = until;
  }
  day_rows.push_back(null_rows);  // the NULL-key partition, last
  const int64_t total = std::accumulate(day_rows.begin(), day_rows.end(), int64_t{0});

  const SkewedKeys items(sizes.items, 0.01, 0.3);
  const SkewedKeys customers(sizes.customers, 0.05, 0.4);
  const std::vector<std::string> sales_names = {"ss_item_sk",     "ss_customer_sk",   "ss_store_sk",
                                                "ss_promo_sk",    "ss_ticket_number", "ss_quantity",
                                                "ss_sales_price", "ss_net_profit"};
  const std::vector<LogicalType> sales_types = {
      LogicalType::Bigint(),      LogicalType::Bigint(),     LogicalType::Bigint(),
      LogicalType::Bigint(),      LogicalType::Bigint(),     LogicalType::Integer(),
      LogicalType::Decimal(7, 2), LogicalType::Decimal(7, 2)};
  std::vector<std::vector<ReturnRow>> returns_by_day(static_cast<size_t>(sale_days) + 91);
  std::vector<ReturnRow> returns_no_date;
  auto flush_returns = [&](size_t day) {
    auto& rows = returns_by_day[day];
    if (rows.empty()) return;
    summary.bytes += WriteReturns(
        out, std::to_string(first_day + static_cast<int64_t>(day) + kJulianEpoch), rows);
    summary.returns_partitions++;
    summary.returns_rows += static_cast<int64_t>(rows.size());
    std::vector<ReturnRow>().swap(rows);
  };

  int64_t ticket_base = 0;  // tickets of a day are numbered after every earlier day's rows
  for (size_t d = 0; d < day_rows.size(); d++) {
    const bool null_day = d + 1 == day_rows.size();
    const int64_t rows = day_rows[d];
    if (rows > 0) {
      Rng rng(seed, kSalesStream + d);
      const std::string dir =
          out + "/store_sales/ss_sold_date_sk=" +
          (null_day ? std::string("__HIVE_DEFAULT_PARTITION__")
                    : std::to_string(first_day + static_cast<int64_t>(d) + kJulianEpoch));
      fs::create_directories(dir);
      TableFile file(dir + "/part-0.parquet", sales_names, sales_types);
      int64_t ticket = ticket_base;
      std::optional<int64_t> customer, store;
      int64_t ticket_items[20];
      int ticket_lines = 0, ticket_size = 0;
      for (int64_t line = 0; line < rows; line++) {
        if (ticket_lines == ticket_size) {
          ticket++;
          ticket_lines = 0;
          ticket_size = static_cast<int>(rng.Between(1, 20));
          customer = MaybeNull(rng, 0.02, customers.Draw(rng));
          store = MaybeNull(rng, 0.02, rng.Between(1, sizes.stores));
        }
        // Items are distinct within a ticket, as in TPC-DS where (item, ticket) is the key.
        int64_t item;
        do {
          item = items.Draw(rng);
        } while (std::find(ticket_items, ticket_items + ticket_lines, item) !=
                 ticket_items + ticket_lines);
        ticket_items[ticket_lines++] = item;
        const int32_t quantity = static_cast<int32_t>(rng.Between(1, 100));
        const int64_t price = rng.Between(0, 19999);
        const idx_t row = file.AddRow();
        file.SetInt(0, row, item);
        file.SetInt(1, row, customer);
        file.SetInt(2, row, store);
        file.SetInt(3, row, MaybeNull(rng, 0.05, rng.Between(1, sizes.promotions)));
        file.SetInt(4, row, ticket);
        file.SetInt32(5, row, quantity);
        file.SetInt(6, row, price);
        file.SetInt(7, row, rng.Between(-5000, 14999));
        if (!null_day && rng.Chance(0.1)) {
          const int32_t returned = static_cast<int32_t>(rng.Between(1, quantity));
          ReturnRow r{item, ticket, customer, store, returned, price * returned};
          if (rng.Chance(0.02)) {
            returns_no_date.push_back(r);
          } else {
            returns_by_day[d + static_cast<size_t>(rng.Between(1, 90))].push_back(r);
          }
        }
      }
      summary.bytes += file.Close();
      summary.sales_partitions++;
      summary.sales_rows += rows;
    }
    ticket_base += rows;
    if (!null_day) flush_returns(d);
    if (options.progress) options.progress("store_sales", summary.sales_rows, total);
  }
  for (size_t d = static_cast<size_t>(sale_days); d < returns_by_day.size(); d++)
    flush_returns(d);
  if (!returns_no_date.empty()) {
    summary.bytes += WriteReturns(out, "__HIVE_DEFAULT_PARTITION__", returns_no_date);
    summary.returns_partitions++;
    summary.returns_rows += static_cast<int64_t>(returns_no_date.size());
  }
  done("store_returns", summary.returns_rows);
  return summary;
}

}  // namespace shears

#include "tools/star_generator.h"

#include <filesystem>
#include <random>

#include "common/error.h"
#include "common/types.h"
#include "common/vector.h"
#include "storage/parquet/parquet_writer.h"

namespace shears {

namespace {

namespace fs = std::filesystem;
constexpr int64_t kJulianEpoch = 2440588;
constexpr const char* kCategories[] = {"Books", "Children", "Electronics", "Home",   "Jewelry",
                                       "Men",   "Music",    "Shoes",       "Sports", "Women"};
constexpr const char* kDayNames[] = {"Thursday", "Friday",  "Saturday", "Sunday",
                                     "Monday",   "Tuesday", "Wednesday"};

// Writes `rows` rows produced by `fill(batch, first_row, count)` to one Parquet file.
uint64_t WriteTable(const std::string& path, const std::vector<std::string>& names,
                    const std::vector<LogicalType>& types, int64_t rows,
                    const std::function<void(Batch&, int64_t, idx_t)>& fill) {
  parquet::ParquetWriter writer(path, names, types);
  Batch batch(types);
  for (int64_t first = 0; first < rows; first += static_cast<int64_t>(kBatchSize)) {
    const idx_t count = static_cast<idx_t>(std::min<int64_t>(kBatchSize, rows - first));
    batch.Reset();
    fill(batch, first, count);
    batch.SetSize(count);
    writer.Write(batch);
  }
  return writer.Close().size;
}

}  // namespace

StarSummary GenerateStar(const StarOptions& options) {
  if (!(options.scale > 0) || options.scale > 1000) {
    throw InvalidInputError("scale must be > 0 and <= 1000, got {}", options.scale);
  }
  if (options.out_dir.empty()) throw InvalidInputError("an output directory is required");
  std::error_code ec;
  if (fs::exists(options.out_dir) && !fs::is_empty(options.out_dir, ec)) {
    throw InvalidInputError("output directory '{}' exists and is not empty", options.out_dir);
  }
  fs::create_directories(options.out_dir, ec);
  if (ec) throw IOError("cannot create '{}': {}", options.out_dir, ec.message());
  StarSummary summary;
  std::mt19937_64 rng(options.seed);

  // date_dim: every day of 1998..2003.
  const int32_t first_day = DaysFromCivil(1998, 1, 1);
  const int32_t last_day = DaysFromCivil(2003, 12, 31);
  const int64_t days = last_day - first_day + 1;
  fs::create_directories(options.out_dir + "/date_dim");
  summary.bytes += WriteTable(
      options.out_dir + "/date_dim/date_dim.parquet",
      {"d_date_sk", "d_date", "d_year", "d_moy", "d_dom", "d_qoy", "d_day_name"},
      {LogicalType::Bigint(), LogicalType::Date(), LogicalType::Integer(), LogicalType::Integer(),
       LogicalType::Integer(), LogicalType::Integer(), LogicalType::Varchar()},
      days, [&](Batch& b, int64_t first, idx_t count) {
        for (idx_t i = 0; i < count; i++) {
          const int32_t day = first_day + static_cast<int32_t>(first + static_cast<int64_t>(i));
          int64_t y;
          unsigned m, d;
          CivilFromDays(day, &y, &m, &d);
          b.column(0).data<int64_t>()[i] = day + kJulianEpoch;
          b.column(1).data<int32_t>()[i] = day;
          b.column(2).data<int32_t>()[i] = static_cast<int32_t>(y);
          b.column(3).data<int32_t>()[i] = static_cast<int32_t>(m);
          b.column(4).data<int32_t>()[i] = static_cast<int32_t>(d);
          b.column(5).data<int32_t>()[i] = static_cast<int32_t>((m - 1) / 3 + 1);
          b.column(6).data<StringRef>()[i] = StringRef(kDayNames[((day % 7) + 7) % 7]);
        }
      });
  summary.date_rows = days;

  // item
  const int64_t items =
      std::max<int64_t>(100, static_cast<int64_t>(18000 * std::sqrt(options.scale)));
  fs::create_directories(options.out_dir + "/item");
  std::vector<std::string> brands, classes;
  for (int i = 0; i < 500; i++)
    brands.push_back("brand #" + std::to_string(i));
  for (int i = 0; i < 100; i++)
    classes.push_back("class " + std::to_string(i));
  summary.bytes += WriteTable(
      options.out_dir + "/item/item.parquet",
      {"i_item_sk", "i_category", "i_class", "i_brand", "i_current_price"},
      {LogicalType::Bigint(), LogicalType::Varchar(), LogicalType::Varchar(),
       LogicalType::Varchar(), LogicalType::Decimal(7, 2)},
      items, [&](Batch& b, int64_t first, idx_t count) {
        for (idx_t i = 0; i < count; i++) {
          const int64_t sk = first + static_cast<int64_t>(i) + 1;
          b.column(0).data<int64_t>()[i] = sk;
          b.column(1).data<StringRef>()[i] = StringRef(kCategories[sk % 10]);
          b.column(2).data<StringRef>()[i] = StringRef(classes[static_cast<size_t>(sk % 100)]);
          b.column(3).data<StringRef>()[i] = StringRef(brands[static_cast<size_t>(sk % 500)]);
          b.column(4).data<int64_t>()[i] = 100 + static_cast<int64_t>(rng() % 10000);
        }
      });
  summary.item_rows = items;

  // store_sales, one partition per sale day of 1998..2002 (plus NULL keys), rows spread
  // unevenly over days (more in December) as in retail data.
  const int32_t sales_last = DaysFromCivil(2002, 12, 31);
  const int64_t total = std::max<int64_t>(1000, static_cast<int64_t>(2880404 * options.scale));
  std::vector<double> weights;
  for (int32_t day = first_day; day <= sales_last; day++) {
    int64_t y;
    unsigned m, d;
    CivilFromDays(day, &y, &m, &d);
    weights.push_back(m == 12 ? 2.0 : (m == 11 ? 1.5 : 1.0));
  }
  double weight_sum = 0;
  for (double w : weights)
    weight_sum += w;
  const int64_t null_rows = total / 100;  // 1% of sales have no date key
  int64_t written = 0;
  const std::vector<std::string> names = {"ss_item_sk", "ss_customer_sk", "ss_quantity",
                                          "ss_sales_price", "ss_net_profit"};
  const std::vector<LogicalType> types = {LogicalType::Bigint(), LogicalType::Bigint(),
                                          LogicalType::Integer(), LogicalType::Decimal(7, 2),
                                          LogicalType::Decimal(7, 2)};
  auto fill_sales = [&](Batch& b, int64_t, idx_t count) {
    for (idx_t i = 0; i < count; i++) {
      b.column(0).data<int64_t>()[i] =
          1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(items));
      b.column(1).data<int64_t>()[i] = 1 + static_cast<int64_t>(rng() % 100000);
      b.column(2).data<int32_t>()[i] = 1 + static_cast<int32_t>(rng() % 100);
      b.column(3).data<int64_t>()[i] = static_cast<int64_t>(rng() % 20000);
      b.column(4).data<int64_t>()[i] = static_cast<int64_t>(rng() % 20000) - 5000;
    }
  };
  const int64_t dated = total - null_rows;
  for (size_t d = 0; d < weights.size(); d++) {
    const int64_t rows = static_cast<int64_t>(dated * weights[d] / weight_sum) +
                         (d < static_cast<size_t>(dated % 7) ? 1 : 0);
    if (rows <= 0) continue;
    const std::string dir = options.out_dir + "/store_sales/ss_sold_date_sk=" +
                            std::to_string(first_day + static_cast<int32_t>(d) + kJulianEpoch);
    fs::create_directories(dir);
    summary.bytes += WriteTable(dir + "/part-0.parquet", names, types, rows, fill_sales);
    summary.sales_partitions++;
    written += rows;
    if (options.progress) options.progress("store_sales", written, total);
  }
  const std::string null_dir =
      options.out_dir + "/store_sales/ss_sold_date_sk=__HIVE_DEFAULT_PARTITION__";
  fs::create_directories(null_dir);
  summary.bytes += WriteTable(null_dir + "/part-0.parquet", names, types, null_rows, fill_sales);
  summary.sales_partitions++;
  written += null_rows;
  summary.sales_rows = written;
  if (options.progress) options.progress("store_sales", written, written);
  return summary;
}

}  // namespace shears

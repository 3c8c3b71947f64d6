#pragma once
// Shared by tpcds_generator.cpp (sizes, dimensions, the driver) and tpcds_facts.cpp.

#include <cmath>
#include <map>
#include <mutex>
#include <string>

#include "tools/generator_util.h"
#include "tools/tpcds_generator.h"

namespace shears::tpcds {

using gen::BusinessKey;
using gen::kNull;
using gen::ParallelFor;
using gen::Rng;
using gen::RowFile;
using gen::Schema;

constexpr int64_t kJulianEpoch = 2440588;     // Julian day of 1970-01-01
constexpr int64_t kFirstDate = 2415022;       // 1900-01-02, date_dim's first day
constexpr int64_t kLastDate = 2488070;        // 2100-01-01
constexpr int64_t kFirstSale = 2450816;       // 1998-01-02
constexpr int64_t kLastSale = 2452642;        // 2003-01-02
constexpr int64_t kFirstInventory = 2450815;  // 1998-01-01, then weekly
constexpr int64_t kInventoryWeeks = 261;

/// Table sizes at a scale.
struct Sizes {
  explicit Sizes(double scale);
  int64_t Dim(double at_scale_1, double minimum) const;
  double scale;
  int64_t items, customers, addresses, stores, warehouses, call_centers, catalog_pages, web_sites,
      web_pages, promotions, store_sales, catalog_sales, web_sales;
  static constexpr int64_t kCustomerDemographics = 1920800, kHouseholdDemographics = 7200,
                           kIncomeBands = 20, kReasons = 35, kShipModes = 20, kTimes = 86400;
  /// Item ids (two revisions each); inventory holds one row per item id, warehouse and week.
  int64_t ItemIds() const { return (items + 1) / 2; }
};

/// What the tables share while they are written: options, sizes, the summary and progress.
class Context {
 public:
  Context(const TpcdsOptions& options, int64_t expected_rows)
      : options(options), sizes(options.scale), expected_rows_(expected_rows) {}
  const TpcdsOptions& options;
  const Sizes sizes;
  unsigned threads() const;
  std::string Path(const std::string& table) const { return options.out_dir + "/" + table; }
  /// Records a written file of `table`.
  void Written(const std::string& table, int64_t rows, uint64_t bytes);
  TpcdsSummary Finish();

 private:
  std::mutex mutex_;
  std::map<std::string, TpcdsTableSummary> tables_;
  uint64_t bytes_ = 0;
  int64_t rows_ = 0, expected_rows_;
};

/// Streams: every table and partition draws from its own.
enum Stream : uint64_t {
  kItemStream = 1,
  kCustomerStream,
  kAddressStream,
  kStoreStream,
  kWarehouseStream,
  kCallCenterStream,
  kCatalogPageStream,
  kWebSiteStream,
  kWebPageStream,
  kPromotionStream,
  kShipModeStream,
  kInventoryStream = 1u << 20,
  kStoreSalesStream = 2u << 20,
  kCatalogSalesStream = 3u << 20,
  kWebSalesStream = 4u << 20,
};

/// A number spelled with ten syllables, one per decimal digit, least significant first.
std::string Spell(int64_t number, const char* const* syllables);
/// A date column value (days since 1970) from a Julian day number.
inline int64_t DateValue(int64_t julian) {
  return julian - kJulianEpoch;
}
/// One of the zip codes addresses, stores and warehouses share (a pool, so that some match).
std::string Zip(Rng& rng);
/// NULL for about 4% of foreign keys, as TPC-DS has them.
inline int64_t MaybeNull(Rng& rng, int64_t value) {
  return rng.Chance(0.04) ? kNull : value;
}

void WriteDimensions(Context& context);
void WriteFacts(Context& context);

}  // namespace shears::tpcds

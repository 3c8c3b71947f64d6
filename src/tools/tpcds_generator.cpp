// `shears generate tpcds`: sizes, the dimension tables and the driver (facts: tpcds_facts.cpp).

#include "tools/tpcds_generator.h"

#include <algorithm>
#include <filesystem>

#include "tools/tpcds_internal.h"
#include "tools/tpcds_vocabulary.h"

namespace shears {

namespace tpcds {

namespace fs = std::filesystem;

Sizes::Sizes(double s)
    : scale(s),
      items(Dim(18000, 400)),
      customers(s <= 1 ? std::max<int64_t>(1000, std::llround(100000 * s))
                       : std::llround(100000 * std::sqrt(s) * std::sqrt(std::sqrt(s)))),
      addresses(customers / 2),
      stores(Dim(12, 4)),
      warehouses(Dim(5, 2)),
      call_centers(Dim(6, 2)),
      catalog_pages(Dim(11718, 216)),
      web_sites(Dim(30, 4)),
      web_pages(Dim(60, 6)),
      promotions(Dim(300, 20)),
      store_sales(std::llround(2880404 * s)),
      catalog_sales(std::llround(1441548 * s)),
      web_sales(std::llround(719384 * s)) {}

int64_t Sizes::Dim(double at_scale_1, double minimum) const {
  const double factor = scale <= 1 ? scale : std::sqrt(scale);
  return std::max<int64_t>(static_cast<int64_t>(minimum), std::llround(at_scale_1 * factor));
}

unsigned Context::threads() const {
  if (options.threads > 0) return options.threads;
  return std::max(1u, std::thread::hardware_concurrency());
}

void Context::Written(const std::string& table, int64_t rows, uint64_t bytes) {
  std::lock_guard lock(mutex_);
  auto& summary = tables_[table];
  summary.name = table;
  summary.rows += rows;
  summary.files++;
  bytes_ += bytes;
  rows_ += rows;
  if (options.progress) options.progress(std::min(rows_, expected_rows_ - 1), expected_rows_);
}

TpcdsSummary Context::Finish() {
  TpcdsSummary summary;
  for (auto& [name, table] : tables_)
    summary.tables.push_back(table);
  summary.bytes = bytes_;
  if (options.progress) options.progress(expected_rows_, expected_rows_);
  return summary;
}

std::string Spell(int64_t number, const char* const* syllables) {
  std::string text;
  do {
    text += syllables[number % 10];
    number /= 10;
  } while (number > 0);
  return text;
}

std::string Zip(Rng& rng) {
  // 1,500 zip codes spread over 10000..99999.
  return std::to_string(10000 + (rng.Between(0, 1499) * 59 + 7) % 90000);
}

namespace {

template <typename T, size_t N>
const T& PickFrom(Rng& rng, const T (&list)[N]) {
  return list[rng.Pick(N)];
}

template <typename T, size_t N>
size_t PickWeighted(Rng& rng, const T (&list)[N]) {
  int total = 0;
  for (const auto& entry : list)
    total += entry.weight;
  int pick = static_cast<int>(rng.Between(0, total - 1));
  size_t i = 0;
  while (pick >= list[i].weight)
    pick -= list[i++].weight;
  return i;
}

/// 60% in the low third of [lo, hi], 30% in the middle one, 10% in the top one (TPC-DS's skew
/// for prices, manufacturers and managers).
int64_t Skewed(Rng& rng, int64_t lo, int64_t hi) {
  const int64_t third = (hi - lo + 1) / 3;
  const double pick = static_cast<double>(rng.Next() >> 11) * 0x1.0p-53;
  if (pick < 0.6) return rng.Between(lo, lo + third - 1);
  if (pick < 0.9) return rng.Between(lo + third, lo + 2 * third - 1);
  return rng.Between(lo + 2 * third, hi);
}

std::string Words(Rng& rng, int min_words, int max_words) {
  std::string text;
  const int64_t n = rng.Between(min_words, max_words);
  for (int64_t i = 0; i < n; i++) {
    if (i > 0) text += ' ';
    text += PickFrom(rng, kWords);
  }
  return text;
}

std::string PersonName(Rng& rng) {
  return std::string(PickFrom(rng, kFirstNames)) + " " + PickFrom(rng, kLastNames);
}

/// One file table DIR/name/name.parquet of `rows` rows, row(file, rng, sk) writing each.
void Dimension(Context& context, const std::string& name, const Schema& schema, int64_t rows,
               uint64_t stream, const std::function<void(RowFile&, Rng&, int64_t)>& row) {
  fs::create_directories(context.Path(name));
  RowFile file(context.Path(name) + "/" + name + ".parquet", schema);
  Rng rng(context.options.seed, stream);
  for (int64_t sk = 1; sk <= rows; sk++) {
    row(file, rng, sk);
    file.EndRow();
  }
  context.Written(name, rows, file.Close());
}

/// Street number, name, type, suite, city, county, state, zip, country and GMT offset.
void Address(RowFile& f, Rng& rng, const char* city, const char* county, size_t state) {
  f.Str(std::to_string(rng.Between(1, 999)));
  std::string street = PickFrom(rng, kStreetNames);
  if (rng.Chance(0.5)) street += std::string(" ") + PickFrom(rng, kStreetNames);
  f.Str(street).Str(PickFrom(rng, kStreetTypes));
  f.Str(rng.Chance(0.5) ? "Suite " + std::to_string(rng.Between(1, 49) * 10)
                        : std::string("Suite ") + static_cast<char>('A' + rng.Pick(26)));
  f.Str(city).Str(county).Str(kStates[state].name).Str(Zip(rng)).Str("United States");
  f.Int(int64_t{kStates[state].gmt_offset} * 100);
}

bool IsHoliday(int64_t year, unsigned month, unsigned day, int dow) {
  if ((month == 1 && day == 1) || (month == 7 && day == 4) || (month == 11 && day == 11) ||
      (month == 12 && day == 25))
    return true;
  if (month == 11 && dow == 4 && day >= 22 && day <= 28) return true;  // Thanksgiving
  if (month == 9 && dow == 1 && day <= 7) return true;                 // Labor Day
  if (month == 5 && dow == 1 && day >= 25) return true;                // Memorial Day
  (void)year;
  return false;
}

void DateDim(Context& context) {
  const Schema schema(
      "d_date_sk:i,d_date_id:s,d_date:d,d_month_seq:i,d_week_seq:i,d_quarter_seq:i,d_year:i,"
      "d_dow:i,d_moy:i,d_dom:i,d_qoy:i,d_fy_year:i,d_fy_quarter_seq:i,d_fy_week_seq:i,"
      "d_day_name:s,d_quarter_name:s,d_holiday:s,d_weekend:s,d_following_holiday:s,"
      "d_first_dom:i,d_last_dom:i,d_same_day_ly:i,d_same_day_lq:i,d_current_day:s,"
      "d_current_week:s,d_current_month:s,d_current_quarter:s,d_current_year:s");
  // TPC-DS's "today" is 2003-01-08: the current flags refer to it.
  const int64_t today = 2452648;
  auto civil = [](int64_t julian, int64_t* y, unsigned* m, unsigned* d) {
    CivilFromDays(DateValue(julian), y, m, d);
  };
  int64_t today_year;
  unsigned today_month, today_day;
  civil(today, &today_year, &today_month, &today_day);
  const int64_t week_origin = kFirstDate - 3;  // 1899-12-30 ... a Sunday-started week 1
  Dimension(
      context, "date_dim", schema, kLastDate - kFirstDate + 1, 0, [&](RowFile& f, Rng&, int64_t n) {
        const int64_t jd = kFirstDate + n - 1;
        int64_t y;
        unsigned m, d;
        civil(jd, &y, &m, &d);
        const int dow = static_cast<int>((DateValue(jd) % 7 + 7 + 4) % 7);  // 0 = Sunday
        const int64_t month_seq = (y - 1900) * 12 + m - 1;
        const int64_t week_seq = (jd - week_origin) / 7 + 1;
        const int64_t qoy = (m - 1) / 3 + 1;
        const int64_t quarter_seq = (y - 1900) * 4 + qoy - 1;
        int64_t py;
        unsigned pm, pd;
        civil(jd - 1, &py, &pm, &pd);
        const int64_t first_dom = jd - (d - 1);
        const unsigned next_month = m == 12 ? 1 : m + 1;
        const int64_t last_dom =
            DaysFromCivil(m == 12 ? y + 1 : y, next_month, 1) + kJulianEpoch - 1;
        f.Int(jd).Str(BusinessKey(jd)).Int(DateValue(jd)).Int(month_seq).Int(week_seq);
        f.Int(quarter_seq).Int(y).Int(dow).Int(m).Int(d).Int(qoy).Int(y).Int(quarter_seq);
        f.Int(week_seq).Str(kDayNames[dow]).Str(std::to_string(y) + "Q" + std::to_string(qoy));
        f.Str(IsHoliday(y, m, d, dow) ? "Y" : "N").Str(dow == 0 || dow == 6 ? "Y" : "N");
        f.Str(IsHoliday(py, pm, pd, (dow + 6) % 7) ? "Y" : "N");
        f.Int(first_dom).Int(last_dom).Int(jd - 365).Int(jd - 91);
        f.Str(jd == today ? "Y" : "N");
        f.Str((jd - week_origin) / 7 == (today - week_origin) / 7 ? "Y" : "N");
        f.Str(y == today_year && m == today_month ? "Y" : "N");
        f.Str(y == today_year && qoy == (today_month - 1) / 3 + 1 ? "Y" : "N");
        f.Str(y == today_year ? "Y" : "N");
      });
}

void TimeDim(Context& context) {
  const Schema schema(
      "t_time_sk:i,t_time_id:s,t_time:i,t_hour:i,t_minute:i,t_second:i,t_am_pm:s,t_shift:s,"
      "t_sub_shift:s,t_meal_time:s");
  Dimension(context, "time_dim", schema, Sizes::kTimes, 0, [](RowFile& f, Rng&, int64_t n) {
    const int64_t t = n - 1, hour = t / 3600;
    const char* shift = hour < 7 || hour == 23 ? "third" : (hour < 15 ? "first" : "second");
    const char* sub_shift = hour < 6    ? "night"
                            : hour < 12 ? "morning"
                            : hour < 17 ? "afternoon"
                                        : "evening";
    if (hour == 23) sub_shift = "evening";
    const char* meal = hour >= 6 && hour <= 9     ? "breakfast"
                       : hour >= 12 && hour <= 14 ? "lunch"
                       : hour >= 17 && hour <= 19 ? "dinner"
                                                  : nullptr;
    f.Int(t).Str(BusinessKey(t)).Int(t).Int(hour).Int(t / 60 % 60).Int(t % 60);
    f.Str(hour < 12 ? "AM" : "PM").Str(shift).Str(sub_shift).Str(meal);
  });
}

void Item(Context& context) {
  const Schema schema(
      "i_item_sk:i,i_item_id:s,i_rec_start_date:d,i_rec_end_date:d,i_item_desc:s,"
      "i_current_price:m,i_wholesale_cost:m,i_brand_id:i,i_brand:s,i_class_id:i,i_class:s,"
      "i_category_id:i,i_category:s,i_manufact_id:i,i_manufact:s,i_size:s,i_formulation:s,"
      "i_color:s,i_units:s,i_container:s,i_manager_id:i,i_product_name:s");
  // Two revisions per item id: the first valid until 2000-10-26, the second since.
  const int64_t first_start = DaysFromCivil(1997, 10, 27),
                second_start = DaysFromCivil(2000, 10, 27);
  Dimension(context, "item", schema, context.sizes.items, kItemStream,
            [&](RowFile& f, Rng& rng, int64_t sk) {
              const bool first = sk % 2 == 1;
              const double band = static_cast<double>(rng.Next() >> 11) * 0x1.0p-53;
              const int64_t price = band < 0.6   ? rng.Between(9, 499)
                                    : band < 0.9 ? rng.Between(500, 999)
                                                 : rng.Between(1000, 9999);
              const size_t category = rng.Pick(Count(kCategories));
              const auto& cat = kCategories[category];
              const int64_t class_id = 1 + static_cast<int64_t>(rng.Pick(cat.class_count));
              const int64_t brand_number =
                  1 + static_cast<int64_t>(std::min(rng.Pick(16), rng.Pick(16)));
              const int64_t category_id = static_cast<int64_t>(category) + 1;
              const int64_t manufact = Skewed(rng, 1, 1000);
              f.Int(sk).Str(BusinessKey((sk + 1) / 2)).Int(first ? first_start : second_start);
              if (first) {
                f.Int(second_start - 1);
              } else {
                f.Null();
              }
              f.Str(Words(rng, 6, 16))
                  .Int(price)
                  .Int(std::max<int64_t>(1, price * rng.Between(30, 90) / 100));
              f.Int(category_id * 1000000 + class_id * 1000 + brand_number);
              f.Str(Spell(category_id * 10 + class_id, kBrandSyllables) + " #" +
                    std::to_string(brand_number));
              f.Int(class_id).Str(cat.classes[class_id - 1]).Int(category_id).Str(cat.name);
              f.Int(manufact).Str(Spell(manufact, kNameSyllables));
              f.Str(kSizes[PickWeighted(rng, kSizes)].name);
              f.Str(std::to_string(rng.Between(100000000, 999999999)) +
                    std::to_string(rng.Between(10000000000LL, 99999999999LL)));
              f.Str(PickFrom(rng, kColors)).Str(PickFrom(rng, kUnits)).Str("Unknown");
              f.Int(Skewed(rng, 1, 100)).Str(Spell(sk, kNameSyllables));
            });
}

void CustomerAddress(Context& context) {
  const Schema schema(
      "ca_address_sk:i,ca_address_id:s,ca_street_number:s,ca_street_name:s,ca_street_type:s,"
      "ca_suite_number:s,ca_city:s,ca_county:s,ca_state:s,ca_zip:s,ca_country:s,"
      "ca_gmt_offset:g,ca_location_type:s");
  Dimension(context, "customer_address", schema, context.sizes.addresses, kAddressStream,
            [](RowFile& f, Rng& rng, int64_t sk) {
              // A fifth of the addresses are in the two commonest cities.
              const char* city = rng.Chance(0.2) ? kCities[rng.Pick(2)] : PickFrom(rng, kCities);
              f.Int(sk).Str(BusinessKey(sk));
              Address(f, rng, city, PickFrom(rng, kCounties), PickWeighted(rng, kStates));
              f.Str(PickFrom(rng, kLocationTypes));
            });
}

void Customer(Context& context) {
  const Schema schema(
      "c_customer_sk:i,c_customer_id:s,c_current_cdemo_sk:i,c_current_hdemo_sk:i,"
      "c_current_addr_sk:i,c_first_shipto_date_sk:i,c_first_sales_date_sk:i,c_salutation:s,"
      "c_first_name:s,c_last_name:s,c_preferred_cust_flag:s,c_birth_day:i,c_birth_month:i,"
      "c_birth_year:i,c_birth_country:s,c_login:s,c_email_address:s,c_last_review_date_sk:i");
  const Sizes& sizes = context.sizes;
  Dimension(
      context, "customer", schema, sizes.customers, kCustomerStream,
      [&](RowFile& f, Rng& rng, int64_t sk) {
        const int64_t first_sale = rng.Between(kFirstSale - 3650, kLastSale);
        const char* first_name = PickFrom(rng, kFirstNames);
        const char* last_name = PickFrom(rng, kLastNames);
        f.Int(sk).Str(BusinessKey(sk));
        f.Int(MaybeNull(rng, rng.Between(1, Sizes::kCustomerDemographics)));
        f.Int(MaybeNull(rng, rng.Between(1, Sizes::kHouseholdDemographics)));
        f.Int(MaybeNull(rng, rng.Between(1, sizes.addresses)));
        f.Int(MaybeNull(rng, first_sale + rng.Between(0, 30))).Int(MaybeNull(rng, first_sale));
        f.Str(rng.Chance(0.03) ? nullptr : PickFrom(rng, kSalutations));
        f.Str(first_name).Str(last_name);
        f.Str(rng.Chance(0.03) ? nullptr : (rng.Chance(0.5) ? "Y" : "N"));
        f.Int(MaybeNull(rng, rng.Between(1, 28))).Int(MaybeNull(rng, rng.Between(1, 12)));
        f.Int(MaybeNull(rng, rng.Between(1924, 1992)));
        f.Str(rng.Chance(0.03) ? nullptr
                               : (rng.Chance(0.3) ? "UNITED STATES" : PickFrom(rng, kCountries)));
        f.Null();
        f.Str(std::string(first_name) + "." + last_name + "@" + PickFrom(rng, kWords) +
              (rng.Chance(0.5) ? ".com" : ".org"));
        f.Int(MaybeNull(rng, rng.Between(kLastSale - 365, kLastSale)));
      });
}

void CustomerDemographics(Context& context) {
  const Schema schema(
      "cd_demo_sk:i,cd_gender:s,cd_marital_status:s,cd_education_status:s,"
      "cd_purchase_estimate:i,cd_credit_rating:s,cd_dep_count:i,cd_dep_employed_count:i,"
      "cd_dep_college_count:i");
  // The full cross product, the first attribute varying fastest.
  Dimension(context, "customer_demographics", schema, Sizes::kCustomerDemographics, 0,
            [](RowFile& f, Rng&, int64_t sk) {
              int64_t n = sk - 1;
              auto next = [&n](int64_t radix) {
                const int64_t digit = n % radix;
                n /= radix;
                return digit;
              };
              const int64_t gender = next(2), marital = next(5), education = next(7);
              const int64_t purchase = next(20), credit = next(4), deps = next(7),
                            employed = next(7), college = next(7);
              f.Int(sk).Str(kGenders[gender]).Str(kMaritalStatuses[marital]);
              f.Str(kEducations[education]).Int((purchase + 1) * 500).Str(kCreditRatings[credit]);
              f.Int(deps).Int(employed).Int(college);
            });
}

void HouseholdDemographics(Context& context) {
  const Schema schema(
      "hd_demo_sk:i,hd_income_band_sk:i,hd_buy_potential:s,hd_dep_count:i,hd_vehicle_count:i");
  Dimension(context, "household_demographics", schema, Sizes::kHouseholdDemographics, 0,
            [](RowFile& f, Rng&, int64_t sk) {
              const int64_t n = sk - 1;
              f.Int(sk).Int(n % 20 + 1).Str(kBuyPotentials[n / 20 % 6]);
              f.Int(n / 120 % 10).Int(n / 1200 % 6 - 1);
            });
}

void SmallDimensions(Context& context) {
  Dimension(context, "income_band", Schema("ib_income_band_sk:i,ib_lower_bound:i,ib_upper_bound:i"),
            Sizes::kIncomeBands, 0, [](RowFile& f, Rng&, int64_t sk) {
              f.Int(sk).Int(sk == 1 ? 0 : (sk - 1) * 10000 + 1).Int(sk * 10000);
            });
  Dimension(
      context, "reason", Schema("r_reason_sk:i,r_reason_id:s,r_reason_desc:s"), Sizes::kReasons, 0,
      [](RowFile& f, Rng&, int64_t sk) { f.Int(sk).Str(BusinessKey(sk)).Str(kReasons[sk - 1]); });
  Dimension(context, "ship_mode",
            Schema("sm_ship_mode_sk:i,sm_ship_mode_id:s,sm_type:s,sm_code:s,sm_carrier:s,"
                   "sm_contract:s"),
            Sizes::kShipModes, kShipModeStream, [](RowFile& f, Rng& rng, int64_t sk) {
              f.Int(sk).Str(BusinessKey(sk)).Str(kShipModeTypes[(sk - 1) % 6]);
              f.Str(kShipModeCodes[(sk - 1) % 7]).Str(kCarriers[(sk - 1) % 20]);
              f.Str(Words(rng, 1, 3));
            });
}

void Store(Context& context) {
  const Schema schema(
      "s_store_sk:i,s_store_id:s,s_rec_start_date:d,s_rec_end_date:d,s_closed_date_sk:i,"
      "s_store_name:s,s_number_employees:i,s_floor_space:i,s_hours:s,s_manager:s,"
      "s_market_id:i,s_geography_class:s,s_market_desc:s,s_market_manager:s,s_division_id:i,"
      "s_division_name:s,s_company_id:i,s_company_name:s,s_street_number:s,s_street_name:s,"
      "s_street_type:s,s_suite_number:s,s_city:s,s_county:s,s_state:s,s_zip:s,s_country:s,"
      "s_gmt_offset:g,s_tax_precentage:g");
  size_t tennessee = 0;
  while (std::string(kStates[tennessee].name) != "TN")
    tennessee++;
  Dimension(context, "store", schema, context.sizes.stores, kStoreStream,
            [&](RowFile& f, Rng& rng, int64_t sk) {
              f.Int(sk).Str(BusinessKey(sk)).Int(DaysFromCivil(1997, 3, 13)).Null();
              f.Int(sk % 6 == 5 ? rng.Between(kFirstSale, kLastSale) : kNull);
              f.Str(Spell(sk, kNameSyllables)).Int(rng.Between(200, 300));
              f.Int(rng.Between(5000000, 10000000)).Str(PickFrom(rng, kCallCenterHours));
              f.Str(PersonName(rng)).Int(rng.Between(1, 10)).Str("Unknown").Str(Words(rng, 4, 10));
              f.Str(PersonName(rng)).Int(1).Str("Unknown").Int(1).Str("Unknown");
              // As in TPC-DS at scale 1, the stores are in Midway and Fairview, Williamson
              // County, Tennessee (with a few elsewhere in larger scales).
              const bool home = sk <= 12 || rng.Chance(0.5);
              Address(f, rng, kCities[sk % 2 == 1 ? 0 : 1],
                      home ? "Williamson County" : kCounties[rng.Pick(6)],
                      home ? tennessee : PickWeighted(rng, kStates));
              f.Int(rng.Between(0, 11));
            });
}

void Warehouse(Context& context) {
  const Schema schema(
      "w_warehouse_sk:i,w_warehouse_id:s,w_warehouse_name:s,w_warehouse_sq_ft:i,"
      "w_street_number:s,w_street_name:s,w_street_type:s,w_suite_number:s,w_city:s,"
      "w_county:s,w_state:s,w_zip:s,w_country:s,w_gmt_offset:g");
  Dimension(context, "warehouse", schema, context.sizes.warehouses, kWarehouseStream,
            [](RowFile& f, Rng& rng, int64_t sk) {
              std::string name = Words(rng, 2, 3);
              name[0] = static_cast<char>(std::toupper(name[0]));
              f.Int(sk).Str(BusinessKey(sk)).Str(name).Int(rng.Between(50000, 1000000));
              Address(f, rng, kCities[rng.Pick(2)], kCounties[rng.Pick(6)],
                      PickWeighted(rng, kStates));
            });
}

void CallCenter(Context& context) {
  const Schema schema(
      "cc_call_center_sk:i,cc_call_center_id:s,cc_rec_start_date:d,cc_rec_end_date:d,"
      "cc_closed_date_sk:i,cc_open_date_sk:i,cc_name:s,cc_class:s,cc_employees:i,cc_sq_ft:i,"
      "cc_hours:s,cc_manager:s,cc_mkt_id:i,cc_mkt_class:s,cc_mkt_desc:s,cc_market_manager:s,"
      "cc_division:i,cc_division_name:s,cc_company:i,cc_company_name:s,cc_street_number:s,"
      "cc_street_name:s,cc_street_type:s,cc_suite_number:s,cc_city:s,cc_county:s,cc_state:s,"
      "cc_zip:s,cc_country:s,cc_gmt_offset:g,cc_tax_percentage:g");
  Dimension(
      context, "call_center", schema, context.sizes.call_centers, kCallCenterStream,
      [](RowFile& f, Rng& rng, int64_t sk) {
        const int64_t division = rng.Between(1, 6), company = rng.Between(1, 6);
        f.Int(sk).Str(BusinessKey(sk)).Int(DaysFromCivil(1998, 1, 1)).Null().Null();
        f.Int(kFirstSale - rng.Between(0, 1000)).Str(kCallCenterNames[(sk - 1) % 12]);
        f.Str(PickFrom(rng, kCallCenterClasses)).Int(rng.Between(100, 70000));
        f.Int(rng.Between(10000, 1000000)).Str(PickFrom(rng, kCallCenterHours));
        f.Str(PersonName(rng)).Int(rng.Between(1, 6)).Str(Words(rng, 3, 6));
        f.Str(Words(rng, 5, 12)).Str(PersonName(rng)).Int(division);
        f.Str(Spell(division, kNameSyllables)).Int(company).Str(Spell(company, kNameSyllables));
        Address(f, rng, kCities[rng.Pick(2)], "Williamson County", PickWeighted(rng, kStates));
        f.Int(rng.Between(0, 12));
      });
}

void CatalogPage(Context& context) {
  const Schema schema(
      "cp_catalog_page_sk:i,cp_catalog_page_id:s,cp_start_date_sk:i,cp_end_date_sk:i,"
      "cp_department:s,cp_catalog_number:i,cp_catalog_page_number:i,cp_description:s,cp_type:s");
  // 108 pages per catalog; the catalogs follow each other through the sales years.
  const int64_t catalogs = (context.sizes.catalog_pages + 107) / 108;
  const int64_t span = std::max<int64_t>(1, (kLastSale - kFirstSale) / catalogs);
  Dimension(context, "catalog_page", schema, context.sizes.catalog_pages, kCatalogPageStream,
            [&](RowFile& f, Rng& rng, int64_t sk) {
              const int64_t catalog = (sk - 1) / 108 + 1;
              const int64_t start = kFirstSale + (catalog - 1) * span;
              const size_t type = static_cast<size_t>(catalog % 3);
              f.Int(sk).Str(BusinessKey(sk)).Int(start).Int(start + span * (type + 1) - 1);
              f.Str("DEPARTMENT").Int(catalog).Int((sk - 1) % 108 + 1).Str(Words(rng, 6, 14));
              f.Str(kCatalogPageTypes[type]);
            });
}

void WebSite(Context& context) {
  const Schema schema(
      "web_site_sk:i,web_site_id:s,web_rec_start_date:d,web_rec_end_date:d,web_name:s,"
      "web_open_date_sk:i,web_close_date_sk:i,web_class:s,web_manager:s,web_mkt_id:i,"
      "web_mkt_class:s,web_mkt_desc:s,web_market_manager:s,web_company_id:i,"
      "web_company_name:s,web_street_number:s,web_street_name:s,web_street_type:s,"
      "web_suite_number:s,web_city:s,web_county:s,web_state:s,web_zip:s,web_country:s,"
      "web_gmt_offset:g,web_tax_percentage:g");
  Dimension(context, "web_site", schema, context.sizes.web_sites, kWebSiteStream,
            [](RowFile& f, Rng& rng, int64_t sk) {
              const int64_t company = rng.Between(1, 6);
              f.Int(sk).Str(BusinessKey(sk)).Int(DaysFromCivil(1997, 8, 16)).Null();
              f.Str("site_" + std::to_string((sk - 1) / 2)).Int(kFirstSale - rng.Between(0, 900));
              f.Null().Str("Unknown").Str(PersonName(rng)).Int(rng.Between(1, 6));
              f.Str(Words(rng, 3, 6)).Str(Words(rng, 5, 12)).Str(PersonName(rng)).Int(company);
              f.Str(Spell(company, kNameSyllables));
              Address(f, rng, kCities[rng.Pick(2)], kCounties[rng.Pick(6)],
                      PickWeighted(rng, kStates));
              f.Int(rng.Between(0, 12));
            });
}

void WebPage(Context& context) {
  const Schema schema(
      "wp_web_page_sk:i,wp_web_page_id:s,wp_rec_start_date:d,wp_rec_end_date:d,"
      "wp_creation_date_sk:i,wp_access_date_sk:i,wp_autogen_flag:s,wp_customer_sk:i,wp_url:s,"
      "wp_type:s,wp_char_count:i,wp_link_count:i,wp_image_count:i,wp_max_ad_count:i");
  const int64_t customers = context.sizes.customers;
  Dimension(context, "web_page", schema, context.sizes.web_pages, kWebPageStream,
            [&](RowFile& f, Rng& rng, int64_t sk) {
              const bool autogen = rng.Chance(0.7);
              f.Int(sk).Str(BusinessKey(sk)).Int(DaysFromCivil(1997, 9, 3)).Null();
              f.Int(kFirstSale - rng.Between(0, 1000)).Int(kLastSale - rng.Between(0, 100));
              f.Str(autogen ? "Y" : "N").Int(autogen ? kNull : rng.Between(1, customers));
              f.Str("http://www.foo.com").Str(PickFrom(rng, kWebPageUses));
              f.Int(rng.Between(300, 8000)).Int(rng.Between(2, 25)).Int(rng.Between(1, 7));
              f.Int(rng.Between(0, 4));
            });
}

void Promotion(Context& context) {
  const Schema schema(
      "p_promo_sk:i,p_promo_id:s,p_start_date_sk:i,p_end_date_sk:i,p_item_sk:i,p_cost:p,"
      "p_response_target:i,p_promo_name:s,p_channel_dmail:s,p_channel_email:s,"
      "p_channel_catalog:s,p_channel_tv:s,p_channel_radio:s,p_channel_press:s,"
      "p_channel_event:s,p_channel_demo:s,p_channel_details:s,p_purpose:s,p_discount_active:s");
  const int64_t items = context.sizes.items;
  Dimension(context, "promotion", schema, context.sizes.promotions, kPromotionStream,
            [&](RowFile& f, Rng& rng, int64_t sk) {
              const int64_t start = rng.Between(kFirstSale, kLastSale - 60);
              auto flag = [&](double yes) {
                return rng.Chance(0.02) ? nullptr : (rng.Chance(yes) ? "Y" : "N");
              };
              f.Int(sk).Str(BusinessKey(sk)).Int(MaybeNull(rng, start));
              f.Int(MaybeNull(rng, start + rng.Between(1, 60)))
                  .Int(MaybeNull(rng, rng.Between(1, items)));
              f.Int(100000).Int(1).Str(Spell(sk, kNameSyllables));
              f.Str(flag(0.5)).Str(flag(0.1)).Str(flag(0.1)).Str(flag(0.3));
              f.Str(flag(0.1)).Str(flag(0.1)).Str(flag(0.1)).Str(flag(0.1));
              f.Str(Words(rng, 5, 12)).Str("Unknown").Str(flag(0.1));
            });
}

}  // namespace

void WriteDimensions(Context& context) {
  const std::vector<std::function<void()>> tables = {[&] { CustomerDemographics(context); },
                                                     [&] { DateDim(context); },
                                                     [&] { Customer(context); },
                                                     [&] { TimeDim(context); },
                                                     [&] { Item(context); },
                                                     [&] { CustomerAddress(context); },
                                                     [&] { CatalogPage(context); },
                                                     [&] { HouseholdDemographics(context); },
                                                     [&] { SmallDimensions(context); },
                                                     [&] { Store(context); },
                                                     [&] { Warehouse(context); },
                                                     [&] { CallCenter(context); },
                                                     [&] { WebSite(context); },
                                                     [&] { WebPage(context); },
                                                     [&] { Promotion(context); }};
  ParallelFor(tables.size(), context.threads(), [&](size_t i) { tables[i](); });
}

}  // namespace tpcds

namespace {

/// The rows GenerateTpcds writes at `sizes`, for progress.
int64_t ExpectedRows(const tpcds::Sizes& s) {
  return s.items + s.customers + s.addresses + s.stores + s.warehouses + s.call_centers +
         s.catalog_pages + s.web_sites + s.web_pages + s.promotions +
         tpcds::Sizes::kCustomerDemographics + tpcds::Sizes::kHouseholdDemographics +
         tpcds::Sizes::kIncomeBands + tpcds::Sizes::kReasons + tpcds::Sizes::kShipModes +
         tpcds::Sizes::kTimes + (tpcds::kLastDate - tpcds::kFirstDate + 1) +
         (s.store_sales + s.catalog_sales + s.web_sales) * 11 / 10 +
         tpcds::kInventoryWeeks * s.ItemIds() * s.warehouses;
}

}  // namespace

int64_t TpcdsSummary::Rows(const std::string& table) const {
  for (const auto& t : tables)
    if (t.name == table) return t.rows;
  return 0;
}

const std::vector<std::string>& TpcdsTableNames() {
  static const std::vector<std::string> names = {"call_center",
                                                 "catalog_page",
                                                 "catalog_returns",
                                                 "catalog_sales",
                                                 "customer",
                                                 "customer_address",
                                                 "customer_demographics",
                                                 "date_dim",
                                                 "household_demographics",
                                                 "income_band",
                                                 "inventory",
                                                 "item",
                                                 "promotion",
                                                 "reason",
                                                 "ship_mode",
                                                 "store",
                                                 "store_returns",
                                                 "store_sales",
                                                 "time_dim",
                                                 "warehouse",
                                                 "web_page",
                                                 "web_returns",
                                                 "web_sales",
                                                 "web_site"};
  return names;
}

std::string TpcdsPartitionColumn(const std::string& table) {
  if (table == "store_sales") return "ss_sold_date_sk";
  if (table == "store_returns") return "sr_returned_date_sk";
  if (table == "catalog_sales") return "cs_sold_date_sk";
  if (table == "catalog_returns") return "cr_returned_date_sk";
  if (table == "web_sales") return "ws_sold_date_sk";
  if (table == "web_returns") return "wr_returned_date_sk";
  if (table == "inventory") return "inv_date_sk";
  return "";
}

TpcdsSummary GenerateTpcds(const TpcdsOptions& options) {
  gen::PrepareOutput(options.scale, options.out_dir);
  tpcds::Context context(options, ExpectedRows(tpcds::Sizes(options.scale)));
  tpcds::WriteDimensions(context);
  tpcds::WriteFacts(context);
  return context.Finish();
}

}  // namespace shears

// `shears generate tpcds`: the fact tables (store, catalog and web sales and returns, inventory),
// Hive-partitioned by their date key.
//
// Sale days are written in waves of kWave days, in parallel within a wave. A day's sales make
// its returns (dated later); they are held until every sale day before their date is written,
// then written by return date. So memory holds a few months of returns, not all of them, and
// the output does not depend on which thread wrote what.

#include <filesystem>
#include <map>

#include "tools/tpcds_internal.h"

namespace shears::tpcds {

namespace {

namespace fs = std::filesystem;

constexpr size_t kWave = 64;
constexpr int kMaxReturnColumns = 26;

/// A return row before it is written: its date (kNull for none) and its other columns.
struct PendingReturn {
  int64_t date;
  int64_t values[kMaxReturnColumns];
};

/// A sale line's prices in cents, as TPC-DS derives them: list price a markup over the
/// wholesale cost, sales price a discount off it, the ext_ amounts times the quantity.
struct Price {
  int64_t quantity, wholesale, list, sales, ext_discount, ext_sales, ext_wholesale, ext_list,
      ext_tax, coupon, ext_ship, net_paid, tax_percent;
  Price(Rng& rng, bool shipped)
      : quantity(rng.Between(1, 100)),
        wholesale(rng.Between(100, 10000)),
        list(wholesale * rng.Between(100, 300) / 100),
        sales(list * rng.Between(0, 100) / 100),
        ext_discount((list - sales) * quantity),
        ext_sales(sales * quantity),
        ext_wholesale(wholesale * quantity),
        ext_list(list * quantity),
        ext_tax(0),
        coupon(rng.Chance(0.2) ? ext_sales * rng.Between(0, 100) / 100 : 0),
        ext_ship(shipped ? ext_list * rng.Between(0, 50) / 100 : 0),
        net_paid(ext_sales - coupon),
        tax_percent(rng.Between(0, 9)) {
    ext_tax = net_paid * tax_percent / 100;
  }
  int64_t profit() const { return net_paid - ext_wholesale; }
  /// The money columns of a catalog or web sale line, from the quantity on, and ends the row.
  void WriteShipped(RowFile& f) const {
    f.Int(quantity).Int(wholesale).Int(list).Int(sales).Int(ext_discount).Int(ext_sales);
    f.Int(ext_wholesale).Int(ext_list).Int(ext_tax).Int(coupon).Int(ext_ship).Int(net_paid);
    f.Int(net_paid + ext_tax).Int(net_paid + ext_ship).Int(net_paid + ext_ship + ext_tax);
    f.Int(profit()).EndRow();
  }
};

/// The money columns of a return of `quantity` of a line: quantity, amount, tax, amount with
/// tax, fee, ship cost, refunded cash, reversed charge, credit, net loss.
int ReturnAmounts(Rng& rng, const Price& p, int64_t* out) {
  const int64_t quantity = rng.Between(1, p.quantity);
  const int64_t amount = p.sales * quantity;
  const int64_t tax = amount * p.tax_percent / 100;
  const int64_t with_tax = amount + tax;
  const int64_t fee = rng.Between(50, 10000);
  const int64_t ship = p.list * quantity * rng.Between(0, 50) / 100;
  const int64_t cash = with_tax * rng.Between(0, 100) / 100;
  const int64_t reversed = (with_tax - cash) * rng.Between(0, 100) / 100;
  const int64_t values[] = {quantity,
                            amount,
                            tax,
                            with_tax,
                            fee,
                            ship,
                            cash,
                            reversed,
                            with_tax - cash - reversed,
                            fee + ship + amount * rng.Between(0, 50) / 100};
  std::copy(std::begin(values), std::end(values), out);
  return 10;
}

/// Days between a sale and its shipping or return: mostly within a month, a few over 120.
int64_t Lag(Rng& rng) {
  const double pick = static_cast<double>(rng.Next() >> 11) * 0x1.0p-53;
  if (pick < 0.5) return rng.Between(1, 30);
  if (pick < 0.75) return rng.Between(31, 60);
  if (pick < 0.87) return rng.Between(61, 90);
  if (pick < 0.95) return rng.Between(91, 120);
  return rng.Between(121, 150);
}

/// A customer with the demographics and address a sale names (not necessarily their current
/// ones, as in TPC-DS).
struct Party {
  int64_t customer, cdemo, hdemo, addr;
  Party(Rng& rng, const Sizes& sizes)
      : customer(MaybeNull(rng, rng.Between(1, sizes.customers))),
        cdemo(MaybeNull(rng, rng.Between(1, Sizes::kCustomerDemographics))),
        hdemo(MaybeNull(rng, rng.Between(1, Sizes::kHouseholdDemographics))),
        addr(MaybeNull(rng, rng.Between(1, sizes.addresses))) {}
};

/// The items of a ticket or order: distinct, as (item, ticket) is the key of a sale line.
class Basket {
 public:
  void Start(Rng& rng) {
    count_ = 0;
    size_ = static_cast<int>(rng.Between(1, 20));
  }
  bool Full() const { return count_ == size_; }
  int64_t Draw(Rng& rng, int64_t items) {
    int64_t item;
    do {
      item = rng.Between(1, items);
    } while (std::find(items_, items_ + count_, item) != items_ + count_);
    items_[count_++] = item;
    return item;
  }

 private:
  int64_t items_[20];
  int count_ = 0, size_ = 0;
};

struct Channel {
  std::string sales, sales_key, returns, returns_key;
  Schema sales_schema, returns_schema;
  int64_t lines;
  double null_dates;
  uint64_t stream;
};

/// Writes one day's sale lines (the NULL-date day when date is kNull), numbering tickets or
/// orders after `number`, and appends their returns.
using DayWriter = std::function<void(RowFile&, Rng&, int64_t date, int64_t lines, int64_t number,
                                     std::vector<PendingReturn>&)>;

std::string PartitionFile(const Context& context, const std::string& table, const std::string& key,
                          int64_t date) {
  const std::string dir = context.Path(table) + "/" + key + "=" +
                          (date == kNull ? "__HIVE_DEFAULT_PARTITION__" : std::to_string(date));
  fs::create_directories(dir);
  return dir + "/part-0.parquet";
}

/// The sale lines of each day: index 0 the NULL-date ones, then one per day from kFirstSale;
/// busier in the autumn and most in December. Rounding the running total makes them add up.
std::vector<int64_t> LinesPerDay(int64_t lines, double null_share) {
  const int64_t nulls = std::llround(static_cast<double>(lines) * null_share);
  std::vector<double> weights;
  for (int64_t jd = kFirstSale; jd <= kLastSale; jd++) {
    int64_t y;
    unsigned m, d;
    CivilFromDays(DateValue(jd), &y, &m, &d);
    weights.push_back(m == 12 ? 2.25 : m == 11 ? 1.75 : m >= 8 ? 1.25 : 1.0);
  }
  double total = 0;
  for (double w : weights)
    total += w;
  std::vector<int64_t> result = {nulls};
  double running = 0;
  int64_t assigned = 0;
  for (double w : weights) {
    running += w;
    const int64_t until = std::llround(static_cast<double>(lines - nulls) * running / total);
    result.push_back(until - assigned);
    assigned = until;
  }
  return result;
}

void WriteChannel(Context& context, const Channel& channel, const DayWriter& write_day) {
  const std::vector<int64_t> lines = LinesPerDay(channel.lines, channel.null_dates);
  std::vector<int64_t> first_number(lines.size(), 0);
  for (size_t i = 1; i < lines.size(); i++)
    first_number[i] = first_number[i - 1] + lines[i - 1];
  std::map<int64_t, std::vector<PendingReturn>> pending;  // by return date
  auto write_returns = [&](int64_t date, const std::vector<PendingReturn>& rows) {
    RowFile file(PartitionFile(context, channel.returns, channel.returns_key, date),
                 channel.returns_schema);
    for (const auto& row : rows)
      file.Ints(row.values);
    context.Written(channel.returns, static_cast<int64_t>(rows.size()), file.Close());
  };
  auto flush = [&](int64_t through) {
    std::vector<std::pair<int64_t, std::vector<PendingReturn>*>> ready;
    for (auto& [date, rows] : pending) {
      if (date != kNull && date > through) break;
      if (date != kNull || through == INT64_MAX) ready.emplace_back(date, &rows);
    }
    ParallelFor(ready.size(), context.threads(),
                [&](size_t i) { write_returns(ready[i].first, *ready[i].second); });
    for (const auto& entry : ready)
      pending.erase(entry.first);
  };
  for (size_t wave = 0; wave < lines.size(); wave += kWave) {
    const size_t end = std::min(lines.size(), wave + kWave);
    std::vector<std::vector<PendingReturn>> returns(end - wave);
    ParallelFor(end - wave, context.threads(), [&](size_t i) {
      const size_t day = wave + i;
      if (lines[day] == 0) return;
      const int64_t date = day == 0 ? kNull : kFirstSale + static_cast<int64_t>(day) - 1;
      Rng rng(context.options.seed, channel.stream + day);
      RowFile file(PartitionFile(context, channel.sales, channel.sales_key, date),
                   channel.sales_schema);
      write_day(file, rng, date, lines[day], first_number[day], returns[i]);
      context.Written(channel.sales, file.rows(), file.Close());
    });
    for (auto& day_returns : returns)
      for (auto& row : day_returns)
        pending[row.date].push_back(row);
    flush(kFirstSale + static_cast<int64_t>(end) - 2);  // the last sale date of the wave
  }
  flush(INT64_MAX);
}

/// The date a return of a sale on `date` (kNull: unknown) carries, after `after` days.
int64_t ReturnDate(Rng& rng, int64_t date, int64_t after) {
  if (rng.Chance(0.04)) return kNull;
  return date == kNull ? rng.Between(kFirstSale, kLastSale) + after : date + after;
}

void StoreChannel(Context& context) {
  const Sizes& sizes = context.sizes;
  const Channel channel{
      "store_sales",
      "ss_sold_date_sk",
      "store_returns",
      "sr_returned_date_sk",
      Schema("ss_sold_time_sk:i,ss_item_sk:i,ss_customer_sk:i,ss_cdemo_sk:i,ss_hdemo_sk:i,"
             "ss_addr_sk:i,ss_store_sk:i,ss_promo_sk:i,ss_ticket_number:i,ss_quantity:i,"
             "ss_wholesale_cost:m,ss_list_price:m,ss_sales_price:m,ss_ext_discount_amt:m,"
             "ss_ext_sales_price:m,ss_ext_wholesale_cost:m,ss_ext_list_price:m,ss_ext_tax:m,"
             "ss_coupon_amt:m,ss_net_paid:m,ss_net_paid_inc_tax:m,ss_net_profit:m"),
      Schema("sr_return_time_sk:i,sr_item_sk:i,sr_customer_sk:i,sr_cdemo_sk:i,sr_hdemo_sk:i,"
             "sr_addr_sk:i,sr_store_sk:i,sr_reason_sk:i,sr_ticket_number:i,"
             "sr_return_quantity:i,sr_return_amt:m,sr_return_tax:m,sr_return_amt_inc_tax:m,"
             "sr_fee:m,sr_return_ship_cost:m,sr_refunded_cash:m,sr_reversed_charge:m,"
             "sr_store_credit:m,sr_net_loss:m"),
      sizes.store_sales,
      0.04,
      kStoreSalesStream};
  WriteChannel(
      context, channel,
      [&](RowFile& f, Rng& rng, int64_t date, int64_t lines, int64_t ticket,
          std::vector<PendingReturn>& returns) {
        Basket basket;
        std::optional<Party> party;
        int64_t store = 0, time = 0;
        for (int64_t line = 0; line < lines; line++) {
          if (line == 0 || basket.Full()) {
            basket.Start(rng);
            ticket++;
            party.emplace(rng, sizes);
            store = MaybeNull(rng, rng.Between(1, sizes.stores));
            time = MaybeNull(rng, rng.Between(8 * 3600, 22 * 3600 - 1));
          }
          const int64_t item = basket.Draw(rng, sizes.items);
          const Price p(rng, false);
          f.Int(time).Int(item).Int(party->customer).Int(party->cdemo).Int(party->hdemo);
          f.Int(party->addr).Int(store).Int(MaybeNull(rng, rng.Between(1, sizes.promotions)));
          f.Int(ticket).Int(p.quantity).Int(p.wholesale).Int(p.list).Int(p.sales);
          f.Int(p.ext_discount).Int(p.ext_sales).Int(p.ext_wholesale).Int(p.ext_list);
          f.Int(p.ext_tax).Int(p.coupon).Int(p.net_paid).Int(p.net_paid + p.ext_tax);
          f.Int(p.profit());
          f.EndRow();
          if (!rng.Chance(0.1)) continue;
          PendingReturn& r = returns.emplace_back();
          r.date = ReturnDate(rng, date, Lag(rng));
          const int64_t head[] = {MaybeNull(rng, rng.Between(8 * 3600, 22 * 3600 - 1)),
                                  item,
                                  party->customer,
                                  party->cdemo,
                                  party->hdemo,
                                  party->addr,
                                  store,
                                  MaybeNull(rng, rng.Between(1, Sizes::kReasons)),
                                  ticket};
          std::copy(std::begin(head), std::end(head), r.values);
          ReturnAmounts(rng, p, r.values + 9);
        }
      });
}

/// Catalog and web orders: a bill-to and (usually the same) ship-to customer, shipped after
/// the sale; the lines of an order may come from different warehouses.
struct Order {
  std::optional<Party> bill, ship;
  int64_t time = 0, ship_date = 0, ship_mode = 0;
  void Start(Rng& rng, const Sizes& sizes, int64_t date) {
    bill.emplace(rng, sizes);
    if (rng.Chance(0.9)) {
      ship = bill;
    } else {
      ship.emplace(rng, sizes);
    }
    time = MaybeNull(rng, rng.Between(0, Sizes::kTimes - 1));
    ship_date = (date == kNull ? rng.Between(kFirstSale, kLastSale) : date) + Lag(rng);
    ship_mode = MaybeNull(rng, rng.Between(1, Sizes::kShipModes));
  }
  /// Starts a return of a line of the order: its time, item, refunded (bill-to) and returning
  /// (ship-to) customers; returns where the channel's columns go on.
  int64_t* StartReturn(Rng& rng, PendingReturn& r, int64_t item) const {
    const int64_t head[] = {MaybeNull(rng, rng.Between(0, Sizes::kTimes - 1)),
                            item,
                            bill->customer,
                            bill->cdemo,
                            bill->hdemo,
                            bill->addr,
                            ship->customer,
                            ship->cdemo,
                            ship->hdemo,
                            ship->addr};
    r.date = ReturnDate(rng, ship_date, rng.Between(1, 60));
    return std::copy(std::begin(head), std::end(head), r.values);
  }
};

/// Calls line(order, item, number, key) for each of a day's `lines` catalog or web sale lines,
/// starting an order (numbered after `number`, with a per-order key in 1..keys: the call center
/// or web site) whenever the last one is full.
template <typename Line>
void OrderLines(Rng& rng, const Sizes& sizes, int64_t date, int64_t lines, int64_t number,
                int64_t keys, const Line& line) {
  Basket basket;
  Order order;
  int64_t key = 0;
  for (int64_t n = 0; n < lines; n++) {
    if (n == 0 || basket.Full()) {
      basket.Start(rng);
      number++;
      order.Start(rng, sizes, date);
      key = MaybeNull(rng, rng.Between(1, keys));
    }
    line(order, basket.Draw(rng, sizes.items), number, key);
  }
}

void CatalogChannel(Context& context) {
  const Sizes& sizes = context.sizes;
  const Channel channel{
      "catalog_sales",
      "cs_sold_date_sk",
      "catalog_returns",
      "cr_returned_date_sk",
      Schema("cs_sold_time_sk:i,cs_ship_date_sk:i,cs_bill_customer_sk:i,cs_bill_cdemo_sk:i,"
             "cs_bill_hdemo_sk:i,cs_bill_addr_sk:i,cs_ship_customer_sk:i,cs_ship_cdemo_sk:i,"
             "cs_ship_hdemo_sk:i,cs_ship_addr_sk:i,cs_call_center_sk:i,cs_catalog_page_sk:i,"
             "cs_ship_mode_sk:i,cs_warehouse_sk:i,cs_item_sk:i,cs_promo_sk:i,cs_order_number:i,"
             "cs_quantity:i,cs_wholesale_cost:m,cs_list_price:m,cs_sales_price:m,"
             "cs_ext_discount_amt:m,cs_ext_sales_price:m,cs_ext_wholesale_cost:m,"
             "cs_ext_list_price:m,cs_ext_tax:m,cs_coupon_amt:m,cs_ext_ship_cost:m,cs_net_paid:m,"
             "cs_net_paid_inc_tax:m,cs_net_paid_inc_ship:m,cs_net_paid_inc_ship_tax:m,"
             "cs_net_profit:m"),
      Schema("cr_returned_time_sk:i,cr_item_sk:i,cr_refunded_customer_sk:i,"
             "cr_refunded_cdemo_sk:i,cr_refunded_hdemo_sk:i,cr_refunded_addr_sk:i,"
             "cr_returning_customer_sk:i,cr_returning_cdemo_sk:i,cr_returning_hdemo_sk:i,"
             "cr_returning_addr_sk:i,cr_call_center_sk:i,cr_catalog_page_sk:i,"
             "cr_ship_mode_sk:i,cr_warehouse_sk:i,cr_reason_sk:i,cr_order_number:i,"
             "cr_return_quantity:i,cr_return_amount:m,cr_return_tax:m,cr_return_amt_inc_tax:m,"
             "cr_fee:m,cr_return_ship_cost:m,cr_refunded_cash:m,cr_reversed_charge:m,"
             "cr_store_credit:m,cr_net_loss:m"),
      sizes.catalog_sales,
      0.01,
      kCatalogSalesStream};
  WriteChannel(
      context, channel,
      [&](RowFile& f, Rng& rng, int64_t date, int64_t lines, int64_t number,
          std::vector<PendingReturn>& returns) {
        OrderLines(
            rng, sizes, date, lines, number, sizes.call_centers,
            [&](const Order& order, int64_t item, int64_t order_number, int64_t call_center) {
              const Party& bill = *order.bill;
              const Party& ship = *order.ship;
              const int64_t page = MaybeNull(rng, rng.Between(1, sizes.catalog_pages));
              const int64_t warehouse = MaybeNull(rng, rng.Between(1, sizes.warehouses));
              const Price p(rng, true);
              f.Int(order.time).Int(order.ship_date).Int(bill.customer).Int(bill.cdemo);
              f.Int(bill.hdemo).Int(bill.addr).Int(ship.customer).Int(ship.cdemo);
              f.Int(ship.hdemo).Int(ship.addr).Int(call_center).Int(page);
              f.Int(order.ship_mode).Int(warehouse).Int(item);
              f.Int(MaybeNull(rng, rng.Between(1, sizes.promotions))).Int(order_number);
              p.WriteShipped(f);
              if (!rng.Chance(0.1)) return;
              PendingReturn& r = returns.emplace_back();
              int64_t* rest = order.StartReturn(rng, r, item);
              const int64_t tail[] = {call_center,
                                      page,
                                      order.ship_mode,
                                      warehouse,
                                      MaybeNull(rng, rng.Between(1, Sizes::kReasons)),
                                      order_number};
              ReturnAmounts(rng, p, std::copy(std::begin(tail), std::end(tail), rest));
            });
      });
}

void WebChannel(Context& context) {
  const Sizes& sizes = context.sizes;
  const Channel channel{
      "web_sales",
      "ws_sold_date_sk",
      "web_returns",
      "wr_returned_date_sk",
      Schema("ws_sold_time_sk:i,ws_ship_date_sk:i,ws_item_sk:i,ws_bill_customer_sk:i,"
             "ws_bill_cdemo_sk:i,ws_bill_hdemo_sk:i,ws_bill_addr_sk:i,ws_ship_customer_sk:i,"
             "ws_ship_cdemo_sk:i,ws_ship_hdemo_sk:i,ws_ship_addr_sk:i,ws_web_page_sk:i,"
             "ws_web_site_sk:i,ws_ship_mode_sk:i,ws_warehouse_sk:i,ws_promo_sk:i,"
             "ws_order_number:i,ws_quantity:i,ws_wholesale_cost:m,ws_list_price:m,"
             "ws_sales_price:m,ws_ext_discount_amt:m,ws_ext_sales_price:m,"
             "ws_ext_wholesale_cost:m,ws_ext_list_price:m,ws_ext_tax:m,ws_coupon_amt:m,"
             "ws_ext_ship_cost:m,ws_net_paid:m,ws_net_paid_inc_tax:m,ws_net_paid_inc_ship:m,"
             "ws_net_paid_inc_ship_tax:m,ws_net_profit:m"),
      Schema("wr_returned_time_sk:i,wr_item_sk:i,wr_refunded_customer_sk:i,"
             "wr_refunded_cdemo_sk:i,wr_refunded_hdemo_sk:i,wr_refunded_addr_sk:i,"
             "wr_returning_customer_sk:i,wr_returning_cdemo_sk:i,wr_returning_hdemo_sk:i,"
             "wr_returning_addr_sk:i,wr_web_page_sk:i,wr_reason_sk:i,wr_order_number:i,"
             "wr_return_quantity:i,wr_return_amt:m,wr_return_tax:m,wr_return_amt_inc_tax:m,"
             "wr_fee:m,wr_return_ship_cost:m,wr_refunded_cash:m,wr_reversed_charge:m,"
             "wr_account_credit:m,wr_net_loss:m"),
      sizes.web_sales,
      0.01,
      kWebSalesStream};
  WriteChannel(context, channel,
               [&](RowFile& f, Rng& rng, int64_t date, int64_t lines, int64_t number,
                   std::vector<PendingReturn>& returns) {
                 OrderLines(
                     rng, sizes, date, lines, number, sizes.web_sites,
                     [&](const Order& order, int64_t item, int64_t order_number, int64_t site) {
                       const Party& bill = *order.bill;
                       const Party& ship = *order.ship;
                       const int64_t page = MaybeNull(rng, rng.Between(1, sizes.web_pages));
                       const Price p(rng, true);
                       f.Int(order.time).Int(order.ship_date).Int(item).Int(bill.customer);
                       f.Int(bill.cdemo).Int(bill.hdemo).Int(bill.addr).Int(ship.customer);
                       f.Int(ship.cdemo).Int(ship.hdemo).Int(ship.addr).Int(page).Int(site);
                       f.Int(order.ship_mode).Int(MaybeNull(rng, rng.Between(1, sizes.warehouses)));
                       f.Int(MaybeNull(rng, rng.Between(1, sizes.promotions))).Int(order_number);
                       p.WriteShipped(f);
                       if (!rng.Chance(0.1)) return;
                       PendingReturn& r = returns.emplace_back();
                       int64_t* rest = order.StartReturn(rng, r, item);
                       const int64_t tail[] = {
                           page, MaybeNull(rng, rng.Between(1, Sizes::kReasons)), order_number};
                       ReturnAmounts(rng, p, std::copy(std::begin(tail), std::end(tail), rest));
                     });
               });
}

/// Stock on hand each week of the sales years, per item id (its current revision) and
/// warehouse.
void Inventory(Context& context) {
  const Sizes& sizes = context.sizes;
  const Schema schema("inv_item_sk:i,inv_warehouse_sk:i,inv_quantity_on_hand:i");
  ParallelFor(kInventoryWeeks, context.threads(), [&](size_t week) {
    const int64_t date = kFirstInventory + 7 * static_cast<int64_t>(week);
    Rng rng(context.options.seed, kInventoryStream + week);
    RowFile file(PartitionFile(context, "inventory", "inv_date_sk", date), schema);
    for (int64_t id = 1; id <= sizes.ItemIds(); id++) {
      for (int64_t warehouse = 1; warehouse <= sizes.warehouses; warehouse++) {
        file.Int(std::min(2 * id, sizes.items)).Int(warehouse);
        file.Int(rng.Chance(0.05) ? kNull : rng.Between(0, 1000));
        file.EndRow();
      }
    }
    context.Written("inventory", file.rows(), file.Close());
  });
}

}  // namespace

void WriteFacts(Context& context) {
  StoreChannel(context);
  CatalogChannel(context);
  WebChannel(context);
  Inventory(context);
}

}  // namespace shears::tpcds

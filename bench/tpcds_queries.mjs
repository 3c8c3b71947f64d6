// The TPC-DS-style suite of bench/run (--suite tpcds), over the tables of
// `shears generate tpcds`: the project's own queries in the manner of the TPC-DS ones (star
// joins filtered by date, item, store, customer and demographics; returns joined to their
// sales; rollups; window rankings and running totals). Rows are compared after sorting, so
// ORDER BY is only needed under a LIMIT (and then orders by enough columns to be total).

export const TPCDS_TABLES = ['call_center', 'catalog_page', 'catalog_returns', 'catalog_sales',
  'customer', 'customer_address', 'customer_demographics', 'date_dim', 'household_demographics',
  'income_band', 'inventory', 'item', 'promotion', 'reason', 'ship_mode', 'store', 'store_returns',
  'store_sales', 'time_dim', 'warehouse', 'web_page', 'web_returns', 'web_sales', 'web_site'];

export const TPCDS_QUERIES = [
  {
    name: 'ds_brand_month',
    what: 'store sales of one month by brand, items of some managers (31 partitions)',
    sql: `SELECT i_brand_id, i_brand, sum(ss_ext_sales_price) AS revenue, count(*) AS lines
          FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk
               JOIN item ON ss_item_sk = i_item_sk
          WHERE d_year = 2001 AND d_moy = 11 AND i_manager_id BETWEEN 1 AND 20
          GROUP BY i_brand_id, i_brand
          ORDER BY revenue DESC, i_brand_id LIMIT 100`,
  },
  {
    name: 'ds_demographics_promo',
    what: 'a year of store sales by single college-educated women, promotions not by e-mail',
    sql: `SELECT i_item_id, avg(ss_quantity) AS quantity, avg(ss_list_price) AS list_price,
                 avg(ss_coupon_amt) AS coupon, count(*) AS lines
          FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk
               JOIN customer_demographics ON ss_cdemo_sk = cd_demo_sk
               JOIN promotion ON ss_promo_sk = p_promo_sk
               JOIN item ON ss_item_sk = i_item_sk
          WHERE d_year = 2000 AND cd_gender = 'F' AND cd_marital_status = 'S'
            AND cd_education_status = 'College' AND p_channel_email = 'N'
          GROUP BY i_item_id ORDER BY i_item_id LIMIT 100`,
  },
  {
    name: 'ds_weekend_households',
    what: 'tickets of wealthy households at Williamson County stores on December weekends',
    sql: `SELECT c_last_name, c_first_name, ss_ticket_number, n
          FROM (SELECT ss_ticket_number, ss_customer_sk, count(*) AS n
                FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk
                     JOIN store ON ss_store_sk = s_store_sk
                     JOIN household_demographics ON ss_hdemo_sk = hd_demo_sk
                WHERE d_moy = 12 AND d_weekend = 'Y' AND d_year BETWEEN 1999 AND 2001
                  AND s_county = 'Williamson County'
                  AND hd_buy_potential IN ('>10000', '5001-10000') AND hd_vehicle_count > 0
                GROUP BY ss_ticket_number, ss_customer_sk) t
               JOIN customer ON ss_customer_sk = c_customer_sk
          WHERE n BETWEEN 10 AND 20`,
  },
  {
    name: 'ds_returns_of_sales',
    what: 'returns joined to their sales (ticket, item): days to return by store, Q1 2000 sales',
    sql: `SELECT s_store_name,
                 sum(CASE WHEN sr_returned_date_sk - ss_sold_date_sk <= 30 THEN 1 ELSE 0 END) AS d30,
                 sum(CASE WHEN sr_returned_date_sk - ss_sold_date_sk BETWEEN 31 AND 90 THEN 1 ELSE 0 END) AS d90,
                 sum(CASE WHEN sr_returned_date_sk - ss_sold_date_sk > 90 THEN 1 ELSE 0 END) AS later,
                 sum(sr_return_amt) AS returned, sum(ss_ext_sales_price) AS sold
          FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk
               JOIN store_returns ON sr_ticket_number = ss_ticket_number AND sr_item_sk = ss_item_sk
               JOIN store ON ss_store_sk = s_store_sk
          WHERE d_year = 2000 AND d_qoy = 1
          GROUP BY s_store_name`,
  },
  {
    name: 'ds_catalog_ship_lag',
    what: 'catalog orders of a year by warehouse, ship mode and call center, bucketed by days to ship',
    sql: `SELECT w_warehouse_name, sm_type, cc_name,
                 sum(CASE WHEN cs_ship_date_sk - cs_sold_date_sk <= 30 THEN 1 ELSE 0 END) AS d30,
                 sum(CASE WHEN cs_ship_date_sk - cs_sold_date_sk BETWEEN 31 AND 60 THEN 1 ELSE 0 END) AS d60,
                 sum(CASE WHEN cs_ship_date_sk - cs_sold_date_sk BETWEEN 61 AND 120 THEN 1 ELSE 0 END) AS d120,
                 sum(CASE WHEN cs_ship_date_sk - cs_sold_date_sk > 120 THEN 1 ELSE 0 END) AS later
          FROM catalog_sales JOIN date_dim ON cs_sold_date_sk = d_date_sk
               JOIN warehouse ON cs_warehouse_sk = w_warehouse_sk
               JOIN ship_mode ON cs_ship_mode_sk = sm_ship_mode_sk
               JOIN call_center ON cs_call_center_sk = cc_call_center_sk
          WHERE d_month_seq BETWEEN 1212 AND 1223
          GROUP BY w_warehouse_name, sm_type, cc_name`,
  },
  {
    name: 'ds_web_refunds_by_reason',
    what: 'web returns of 2001 joined to their sales (order, item) and reasons',
    sql: `SELECT r_reason_desc, count(*) AS returns, sum(wr_refunded_cash) AS cash,
                 sum(wr_fee) AS fees, avg(ws_sales_price) AS price
          FROM web_returns JOIN date_dim ON wr_returned_date_sk = d_date_sk
               JOIN web_sales ON ws_order_number = wr_order_number AND ws_item_sk = wr_item_sk
               JOIN reason ON wr_reason_sk = r_reason_sk
          WHERE d_year = 2001
          GROUP BY r_reason_desc`,
  },
  {
    name: 'ds_channels_rollup',
    what: 'the three channels of one quarter, ROLLUP by category and class',
    sql: `SELECT i_category, i_class, sum(price) AS revenue, count(*) AS lines
          FROM (SELECT ss_item_sk AS item, ss_sold_date_sk AS day, ss_ext_sales_price AS price FROM store_sales
                UNION ALL
                SELECT cs_item_sk, cs_sold_date_sk, cs_ext_sales_price FROM catalog_sales
                UNION ALL
                SELECT ws_item_sk, ws_sold_date_sk, ws_ext_sales_price FROM web_sales) sales
               JOIN date_dim ON day = d_date_sk JOIN item ON item = i_item_sk
          WHERE d_year = 2002 AND d_qoy = 2
          GROUP BY ROLLUP (i_category, i_class)`,
  },
  {
    name: 'ds_top_items_per_category',
    what: 'window ranking: the three best-selling items of each category in December 2000',
    sql: `SELECT i_category, i_item_id, revenue, rk
          FROM (SELECT i_category, i_item_id, sum(ss_net_paid) AS revenue,
                       rank() OVER (PARTITION BY i_category ORDER BY sum(ss_net_paid) DESC) AS rk
                FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk
                     JOIN item ON ss_item_sk = i_item_sk
                WHERE d_year = 2000 AND d_moy = 12
                GROUP BY i_category, i_item_id) t
          WHERE rk <= 3`,
  },
  {
    name: 'ds_running_total',
    what: 'window running total of web revenue per day through 2001, sites in one class',
    sql: `SELECT d_date, sum(ws_ext_sales_price) AS revenue,
                 sum(sum(ws_ext_sales_price)) OVER (ORDER BY d_date ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS running
          FROM web_sales JOIN date_dim ON ws_sold_date_sk = d_date_sk
               JOIN web_site ON ws_web_site_sk = web_site_sk
          WHERE d_year = 2001 AND web_class = 'Unknown'
          GROUP BY d_date`,
  },
  {
    name: 'ds_inventory_weeks',
    what: 'inventory of nine weeks of 2001 (9 partitions of 261) for pricey items, by warehouse and category',
    sql: `SELECT w_warehouse_name, i_category, avg(inv_quantity_on_hand) AS on_hand, count(*) AS n
          FROM inventory JOIN date_dim ON inv_date_sk = d_date_sk
               JOIN item ON inv_item_sk = i_item_sk
               JOIN warehouse ON inv_warehouse_sk = w_warehouse_sk
          WHERE d_date BETWEEN DATE '2001-03-01' AND DATE '2001-04-26' AND i_current_price > 50
          GROUP BY w_warehouse_name, i_category`,
  },
  {
    name: 'ds_store_and_web_customers',
    what: 'INTERSECT: customers who bought in a store and on the web in the same month of 2000',
    sql: `SELECT count(*) AS customers FROM (
            SELECT ss_customer_sk, d_moy FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk
            WHERE d_year = 2000 AND ss_customer_sk IS NOT NULL
            INTERSECT
            SELECT ws_bill_customer_sk, d_moy FROM web_sales JOIN date_dim ON ws_sold_date_sk = d_date_sk
            WHERE d_year = 2000) t`,
  },
  {
    name: 'ds_catalog_young_by_county',
    what: 'catalog sales of 2002 to customers born after 1980 in a few states, by state and county',
    sql: `SELECT ca_state, ca_county, count(*) AS lines, sum(cs_net_paid) AS paid
          FROM catalog_sales JOIN date_dim ON cs_sold_date_sk = d_date_sk
               JOIN customer ON cs_bill_customer_sk = c_customer_sk
               JOIN customer_address ON c_current_addr_sk = ca_address_sk
          WHERE d_year = 2002 AND c_birth_year > 1980 AND ca_state IN ('TX', 'GA', 'OH', 'CA')
          GROUP BY ca_state, ca_county`,
  },
  {
    name: 'ds_hours_at_store',
    what: 'store sales per hour of the morning at one store, by households with two dependants',
    sql: `SELECT t_hour, count(*) AS lines
          FROM store_sales JOIN time_dim ON ss_sold_time_sk = t_time_sk
               JOIN household_demographics ON ss_hdemo_sk = hd_demo_sk
               JOIN store ON ss_store_sk = s_store_sk
          WHERE t_hour BETWEEN 8 AND 12 AND hd_dep_count = 2 AND s_store_name = 'ese'
          GROUP BY t_hour`,
  },
  {
    name: 'ds_returners_above_average',
    what: 'CTE and correlated subquery: customers returning over 1.2x their store\'s average in 2001',
    sql: `WITH totals AS (
            SELECT sr_customer_sk AS customer, sr_store_sk AS store, sum(sr_return_amt) AS total
            FROM store_returns JOIN date_dim ON sr_returned_date_sk = d_date_sk
            WHERE d_year = 2001 GROUP BY sr_customer_sk, sr_store_sk)
          SELECT c_customer_id FROM totals t1 JOIN store ON t1.store = s_store_sk
               JOIN customer ON t1.customer = c_customer_sk
          WHERE s_state = 'TN'
            AND t1.total > (SELECT avg(total) * 1.2 FROM totals t2 WHERE t2.store = t1.store)
          ORDER BY c_customer_id LIMIT 100`,
  },
];

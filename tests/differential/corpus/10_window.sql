-- Window functions: ranking, lag/lead, value functions, aggregates over frames (ROWS, RANGE,
-- GROUPS, EXCLUDE), windows over aggregates (TPC-DS q12/q20/q36/q47/q51/q53/q67/q98 shapes),
-- NULL partition and order keys, ties, top-N per group, QUALIFY. Order keys are unique within
-- partitions wherever the answer depends on the order of ties.

SELECT i_category, i_item_sk, i_current_price,
       rank() OVER (PARTITION BY i_category ORDER BY i_current_price DESC) rk,
       dense_rank() OVER (PARTITION BY i_category ORDER BY i_current_price DESC) dr,
       percent_rank() OVER (PARTITION BY i_category ORDER BY i_current_price) pr,
       cume_dist() OVER (PARTITION BY i_category ORDER BY i_current_price) cd
FROM item;

SELECT i_item_sk, row_number() OVER (ORDER BY i_item_sk) rn, ntile(7) OVER (ORDER BY i_item_sk) nt,
       ntile(1000) OVER (ORDER BY i_item_sk) big
FROM item;

SELECT i_category, i_item_sk,
       row_number() OVER (PARTITION BY i_category ORDER BY i_item_sk) rn,
       lag(i_item_sk) OVER (PARTITION BY i_category ORDER BY i_item_sk) prev,
       lead(i_item_sk, 2) OVER (PARTITION BY i_category ORDER BY i_item_sk) next2,
       lag(i_current_price, 1, 0) OVER (PARTITION BY i_category ORDER BY i_item_sk) prev_price,
       lead(i_brand, 1, 'none') OVER (PARTITION BY i_category ORDER BY i_item_sk) next_brand
FROM item;

SELECT i_category, i_item_sk,
       first_value(i_brand) OVER (PARTITION BY i_category ORDER BY i_item_sk) fv,
       last_value(i_brand) OVER (PARTITION BY i_category ORDER BY i_item_sk) lv_default,
       last_value(i_brand) OVER (PARTITION BY i_category ORDER BY i_item_sk ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) lv,
       nth_value(i_item_sk, 3) OVER (PARTITION BY i_category ORDER BY i_item_sk) n3
FROM item;

SELECT i_category, count(*) OVER (PARTITION BY i_category) c, sum(i_current_price) OVER (PARTITION BY i_category) s,
       avg(i_current_price) OVER (PARTITION BY i_category) a, min(i_brand) OVER (PARTITION BY i_category) mn,
       max(i_class) OVER (PARTITION BY i_category) mx, count(i_class) OVER () total
FROM item;

SELECT i_item_sk, sum(i_current_price) OVER (ORDER BY i_item_sk ROWS BETWEEN 3 PRECEDING AND 2 FOLLOWING) s,
       count(*) OVER (ORDER BY i_item_sk ROWS BETWEEN 1 FOLLOWING AND 4 FOLLOWING) c,
       min(i_current_price) OVER (ORDER BY i_item_sk ROWS BETWEEN 10 PRECEDING AND 5 PRECEDING) mn,
       max(i_current_price) OVER (ORDER BY i_item_sk ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) mx
FROM item;

SELECT i_item_sk, i_current_price,
       sum(i_item_sk) OVER (ORDER BY i_current_price RANGE BETWEEN 5 PRECEDING AND 5 FOLLOWING) s,
       count(*) OVER (ORDER BY i_current_price DESC RANGE BETWEEN 2.5 PRECEDING AND CURRENT ROW) c,
       count(*) OVER (ORDER BY i_current_price RANGE BETWEEN CURRENT ROW AND 1 FOLLOWING) c2
FROM item;

SELECT i_item_sk, i_class,
       count(*) OVER (ORDER BY i_class GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING) g,
       count(*) OVER (ORDER BY i_class GROUPS BETWEEN CURRENT ROW AND CURRENT ROW EXCLUDE CURRENT ROW) peers,
       sum(i_item_sk) OVER (ORDER BY i_class ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING EXCLUDE GROUP) other_rows,
       count(*) OVER (ORDER BY i_class RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW EXCLUDE TIES) no_ties
FROM item;

SELECT d_date, d_year,
       count(*) OVER (ORDER BY d_date RANGE BETWEEN INTERVAL 6 DAY PRECEDING AND CURRENT ROW) last_week,
       min(d_date) OVER (ORDER BY d_date RANGE BETWEEN INTERVAL '1 month' PRECEDING AND INTERVAL '1 month' FOLLOWING) m
FROM date_dim WHERE d_year = 2000;

SELECT ss_store_sk, ss_promo_sk, count(*),
       sum(count(*)) OVER (PARTITION BY ss_store_sk) store_total,
       rank() OVER (PARTITION BY ss_store_sk ORDER BY count(*) DESC, ss_promo_sk) rk
FROM store_sales GROUP BY ss_store_sk, ss_promo_sk;

-- q98 / q12 / q20: each item's revenue as a share of its class.
SELECT i_category, i_class, i_item_sk, sum(ss_sales_price * ss_quantity) revenue,
       sum(ss_sales_price * ss_quantity) * 100 / sum(sum(ss_sales_price * ss_quantity)) OVER (PARTITION BY i_class) ratio
FROM store_sales JOIN item ON ss_item_sk = i_item_sk JOIN date_dim ON ss_sold_date_sk = d_date_sk
WHERE i_category IN ('Books', 'Home', 'Sports') AND d_year = 2000 AND d_moy = 2
GROUP BY i_category, i_class, i_item_sk;

-- q36 / q70: rank within a category by profit.
SELECT i_category, i_class, sum(ss_net_profit) profit,
       rank() OVER (PARTITION BY i_category ORDER BY sum(ss_net_profit) DESC) rank_within
FROM store_sales JOIN item ON ss_item_sk = i_item_sk JOIN date_dim ON ss_sold_date_sk = d_date_sk
WHERE d_year = 2001
GROUP BY i_category, i_class;

-- q47 / q57: monthly sales against the yearly average, with the months around.
WITH v1 AS (
  SELECT i_category, i_brand, s_store_name, d_year, d_moy, sum(ss_sales_price) sum_sales,
         avg(sum(ss_sales_price)) OVER (PARTITION BY i_category, i_brand, s_store_name, d_year) avg_monthly_sales,
         rank() OVER (PARTITION BY i_category, i_brand, s_store_name ORDER BY d_year, d_moy) rn
  FROM item JOIN store_sales ON ss_item_sk = i_item_sk JOIN date_dim ON ss_sold_date_sk = d_date_sk
       JOIN store ON ss_store_sk = s_store_sk
  WHERE d_year = 1999 OR (d_year = 1998 AND d_moy = 12) OR (d_year = 2000 AND d_moy = 1)
  GROUP BY i_category, i_brand, s_store_name, d_year, d_moy),
v2 AS (
  SELECT v1.i_category, v1.i_brand, v1.s_store_name, v1.d_year, v1.d_moy, v1.avg_monthly_sales, v1.sum_sales,
         v1_lag.sum_sales psum, v1_lead.sum_sales nsum
  FROM v1 JOIN v1 v1_lag ON v1.i_category = v1_lag.i_category AND v1.i_brand = v1_lag.i_brand
       AND v1.s_store_name = v1_lag.s_store_name AND v1.rn = v1_lag.rn + 1
       JOIN v1 v1_lead ON v1.i_category = v1_lead.i_category AND v1.i_brand = v1_lead.i_brand
       AND v1.s_store_name = v1_lead.s_store_name AND v1.rn = v1_lead.rn - 1)
SELECT * FROM v2
WHERE d_year = 1999 AND avg_monthly_sales > 0
  AND CASE WHEN avg_monthly_sales > 0 THEN abs(sum_sales - avg_monthly_sales) / avg_monthly_sales ELSE NULL END > 0.1;

-- q51: running totals per item, compared across two channels.
SELECT item_sk, d_date, sum(sales) OVER (PARTITION BY item_sk ORDER BY d_date ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) cume_sales
FROM (SELECT ss_item_sk item_sk, d_date, sum(ss_sales_price) sales
      FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk
      WHERE d_year = 2000 AND d_moy <= 3 AND ss_item_sk IS NOT NULL
      GROUP BY ss_item_sk, d_date) x;

-- q53 / q63 / q89: quarterly sales against the manufacturer's average.
SELECT * FROM (
  SELECT i_brand, d_qoy, sum(ss_sales_price) sum_sales,
         avg(sum(ss_sales_price)) OVER (PARTITION BY i_brand) avg_quarterly_sales
  FROM item JOIN store_sales ON ss_item_sk = i_item_sk JOIN date_dim ON ss_sold_date_sk = d_date_sk
  WHERE d_year = 2000 AND i_category IN ('Books', 'Music')
  GROUP BY i_brand, d_qoy) t
WHERE CASE WHEN avg_quarterly_sales > 0 THEN abs(sum_sales - avg_quarterly_sales) / avg_quarterly_sales ELSE NULL END > 0.1;

-- q67: top 3 classes per category (window in a subquery, filtered outside).
SELECT * FROM (
  SELECT i_category, i_class, sum(ss_quantity) q,
         rank() OVER (PARTITION BY i_category ORDER BY sum(ss_quantity) DESC, i_class) rk
  FROM store_sales JOIN item ON ss_item_sk = i_item_sk
  GROUP BY i_category, i_class) t
WHERE rk <= 3;

-- q44: best and worst items by average profit.
SELECT * FROM (
  SELECT item_sk, rank() OVER (ORDER BY rank_col ASC, item_sk) rnk
  FROM (SELECT ss_item_sk item_sk, avg(ss_net_profit) rank_col FROM store_sales WHERE ss_store_sk = 4
        GROUP BY ss_item_sk HAVING avg(ss_net_profit) > 0) v1) v11
WHERE rnk < 11;

-- NULL partition and order keys, ties.
SELECT ss_promo_sk, ss_customer_sk, count(*) c,
       rank() OVER (PARTITION BY ss_promo_sk ORDER BY ss_customer_sk NULLS FIRST) r1,
       rank() OVER (PARTITION BY ss_promo_sk ORDER BY ss_customer_sk DESC NULLS LAST) r2,
       sum(count(*)) OVER (PARTITION BY ss_promo_sk ORDER BY ss_customer_sk) running,
       count(*) OVER (ORDER BY ss_promo_sk RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING) near
FROM store_sales WHERE ss_store_sk = 2 GROUP BY ss_promo_sk, ss_customer_sk;

SELECT c_preferred_cust_flag, c_birth_year, count(*) OVER (PARTITION BY c_preferred_cust_flag ORDER BY c_birth_year) c,
       dense_rank() OVER (ORDER BY c_birth_year DESC NULLS LAST) d,
       rank() OVER (ORDER BY c_birth_year DESC NULLS FIRST) d_nulls_first
FROM customer;

-- Named windows, QUALIFY, a window in ORDER BY.
SELECT i_category, i_item_sk, sum(i_current_price) OVER w s, rank() OVER (w2 ORDER BY i_item_sk) r
FROM item WINDOW w AS (PARTITION BY i_category ORDER BY i_item_sk), w2 AS (PARTITION BY i_class);

SELECT i_category, i_item_sk, i_current_price FROM item
QUALIFY row_number() OVER (PARTITION BY i_category ORDER BY i_current_price DESC, i_item_sk) <= 2;

-- ordered
SELECT i_category, max(i_current_price) FROM item GROUP BY i_category
ORDER BY rank() OVER (ORDER BY max(i_current_price) DESC), i_category;

-- Empty input, one-row partitions, windows over a DISTINCT.
SELECT i_item_sk, rank() OVER (ORDER BY i_item_sk), sum(i_item_sk) OVER () FROM item WHERE i_item_sk < 0;

SELECT DISTINCT i_category, count(*) OVER (PARTITION BY i_category) FROM item;

SELECT s_store_sk, stddev_samp(s_number_employees) OVER (ORDER BY s_store_sk ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) sd,
       avg(s_floor_space) OVER (ORDER BY s_store_sk ROWS 2 PRECEDING) a
FROM store;

-- Top N per group (window_limit): row_number / rank / dense_rank <= N, < N, = 1, with ties,
-- DESC, NULLs in the order key, several windows, partitions smaller than N.
SELECT ss_store_sk, ss_item_sk, ss_ticket_number, rn FROM (
  SELECT ss_store_sk, ss_item_sk, ss_ticket_number, row_number() OVER (PARTITION BY ss_store_sk ORDER BY ss_net_paid DESC NULLS LAST, ss_ticket_number, ss_item_sk) rn
  FROM store_sales) s WHERE rn <= 3;

SELECT ss_store_sk, ss_quantity, rk FROM (
  SELECT ss_store_sk, ss_quantity, rank() OVER (PARTITION BY ss_store_sk ORDER BY ss_quantity DESC) rk FROM store_sales) s
WHERE rk < 3;

SELECT i_category, i_brand, dense_rank() OVER (PARTITION BY i_category ORDER BY i_brand NULLS FIRST) dr FROM item QUALIFY dr <= 2;

SELECT c_birth_year, c_customer_sk, rank() OVER (ORDER BY c_birth_year NULLS FIRST) r,
       row_number() OVER (ORDER BY c_birth_year NULLS FIRST, c_customer_sk) rn
FROM customer QUALIFY r <= 5;

SELECT ss_customer_sk, ss_ticket_number, ss_item_sk, s FROM (
  SELECT ss_customer_sk, ss_ticket_number, ss_item_sk, row_number() OVER (PARTITION BY ss_customer_sk ORDER BY ss_ticket_number DESC, ss_item_sk) rn,
         sum(ss_quantity) OVER (PARTITION BY ss_customer_sk ORDER BY ss_ticket_number DESC, ss_item_sk) s
  FROM store_sales WHERE ss_store_sk = 1) x WHERE rn = 1;

SELECT s_store_sk, s_store_name, rk FROM (SELECT s_store_sk, s_store_name, rank() OVER (PARTITION BY s_state ORDER BY s_number_employees) rk FROM store) s WHERE 100 >= rk;

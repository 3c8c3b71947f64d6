-- Statistical and holistic aggregates: variances, covariances, corr, quantiles (median,
-- quantile_cont / quantile_disc, percentile_* WITHIN GROUP), mode, string_agg (ORDER BY),
-- bool_and / bool_or, arg_min / arg_max, any_value; grouped, ungrouped, with FILTER and
-- DISTINCT, over DECIMAL, integer, DOUBLE, DATE and VARCHAR inputs. Ties are avoided where
-- the answer would depend on which tied row wins.

SELECT var_pop(ss_quantity), var_samp(ss_quantity), variance(ss_sales_price), stddev_pop(ss_sales_price),
       stddev(ss_net_profit), stddev_samp(ss_quantity)
FROM store_sales;

SELECT ss_store_sk, var_pop(ss_net_profit), var_samp(ss_sales_price), stddev_pop(ss_quantity),
       covar_pop(ss_net_profit, ss_sales_price), covar_samp(ss_quantity, ss_sales_price), corr(ss_quantity, ss_net_profit)
FROM store_sales GROUP BY ss_store_sk;

SELECT i_category, covar_pop(i_current_price, i_item_sk), corr(i_item_sk, i_current_price),
       var_pop(i_current_price) FILTER (WHERE i_class < 'm'), covar_samp(i_item_sk, i_item_sk)
FROM item GROUP BY i_category;

SELECT c_birth_year, var_samp(c_customer_sk), var_pop(c_customer_sk), corr(c_customer_sk, c_current_addr_sk)
FROM customer GROUP BY c_birth_year;

SELECT median(ss_sales_price), median(ss_quantity), quantile_cont(ss_net_profit, 0.25), quantile_disc(ss_net_profit, 0.75),
       quantile_cont(ss_quantity, 0.1), quantile_disc(ss_quantity, 0.9), quantile_disc(ss_item_sk, 0.5)
FROM store_sales;

SELECT ss_store_sk, median(ss_net_profit), quantile_cont(ss_sales_price, 0.3), quantile_disc(ss_sales_price, 0.3),
       percentile_cont(0.9) WITHIN GROUP (ORDER BY ss_quantity), percentile_disc(0.9) WITHIN GROUP (ORDER BY ss_quantity),
       percentile_cont(0.2) WITHIN GROUP (ORDER BY ss_sales_price DESC), percentile_disc(0.2) WITHIN GROUP (ORDER BY ss_sales_price DESC)
FROM store_sales GROUP BY ss_store_sk;

SELECT d_year, median(d_date), quantile_cont(d_date, 0.3), quantile_disc(d_date, 0.3), min(d_date)
FROM date_dim GROUP BY d_year;

SELECT i_category, median(i_brand), quantile_disc(i_class, 0.25), median(i_current_price), median(DISTINCT i_current_price)
FROM item GROUP BY i_category;

SELECT c_preferred_cust_flag, median(c_birth_year), quantile_cont(c_birth_year, 0.75), quantile_disc(c_current_addr_sk, 0.5),
       median(c_birth_year) FILTER (WHERE c_customer_sk % 3 = 0), quantile_disc(c_last_name, 0.1)
FROM customer GROUP BY c_preferred_cust_flag;

SELECT ss_store_sk, quantile_cont(ss_sales_price::DOUBLE, 0.37), quantile_disc(ss_sales_price::DOUBLE, 0.37)
FROM store_sales GROUP BY ss_store_sk;

-- One month (August) has a day more than the others: among equally frequent values mode keeps
-- the first it collected, an order threads and ranks do not fix (a tie here made the distributed
-- run differ now and then).
SELECT d_year, mode(d_moy) FROM date_dim WHERE d_dom <= 27 OR (d_moy = 8 AND d_dom = 28) GROUP BY d_year;

SELECT s_state, mode(s_city), mode() WITHIN GROUP (ORDER BY s_city) FROM store GROUP BY s_state;

SELECT i_category, string_agg(i_brand, ', ' ORDER BY i_item_sk) FROM item WHERE i_item_sk < 60 GROUP BY i_category;

SELECT i_category, string_agg(i_brand, '|' ORDER BY i_current_price DESC, i_item_sk) FILTER (WHERE i_current_price > 50),
       string_agg(i_class ORDER BY i_item_sk DESC) FILTER (WHERE i_item_sk % 7 = 0)
FROM item GROUP BY i_category;

SELECT string_agg(DISTINCT s_state, ',') IS NOT NULL, length(string_agg(s_city, '')) FROM store;

SELECT c_birth_year, string_agg(c_first_name, '/' ORDER BY c_customer_sk) FROM customer WHERE c_customer_sk < 200 GROUP BY c_birth_year;

SELECT i_category, bool_and(i_current_price > 1), bool_or(i_current_price > 90), bool_and(i_class IS NOT NULL)
FROM item GROUP BY i_category;

SELECT bool_or(ss_quantity > 99), bool_and(ss_quantity >= 1), bool_or(ss_quantity > 100) FROM store_sales;

SELECT i_category, arg_min(i_item_sk, i_current_price * 1000 + i_item_sk), arg_max(i_brand, i_item_sk),
       min_by(i_class, i_item_sk), max_by(i_current_price, i_item_sk)
FROM item GROUP BY i_category;

SELECT d_year, arg_max(d_date, d_date_sk), arg_min(d_day_name, d_date_sk) FILTER (WHERE d_moy = 6) FROM date_dim GROUP BY d_year;

SELECT ss_store_sk, arg_max(ss_ticket_number, ss_net_profit * 100000 + ss_ticket_number) FROM store_sales GROUP BY ss_store_sk;

SELECT d_year, any_value(d_year), count(*) FROM date_dim GROUP BY d_year;

SELECT d_year, d_moy, median(ss_sales_price), var_pop(ss_sales_price)
FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk WHERE d_year = 2000 GROUP BY ROLLUP (d_year, d_moy);

SELECT count(*) FROM (SELECT ss_customer_sk, median(ss_quantity) m FROM store_sales GROUP BY ss_customer_sk) t WHERE m > 50;

-- Estimates differ between the engines (DuckDB's sketch is smaller): both within 30%.
SELECT approx_count_distinct(ss_customer_sk) BETWEEN count(DISTINCT ss_customer_sk) * 0.7 AND count(DISTINCT ss_customer_sk) * 1.3,
       approx_count_distinct(ss_store_sk), approx_count_distinct(NULL::INTEGER)
FROM store_sales;

SELECT ss_store_sk, abs(approx_count_distinct(ss_item_sk) - count(DISTINCT ss_item_sk)) <= count(DISTINCT ss_item_sk) * 0.3
FROM store_sales GROUP BY ss_store_sk;

-- Aggregates over empty input: NULL (bool_and, median, string_agg ...) or 0 (approx_count_distinct).
SELECT var_pop(ss_quantity), var_samp(ss_quantity), corr(ss_quantity, ss_quantity), median(ss_quantity),
       mode(ss_quantity), string_agg(ss_quantity::VARCHAR, ','), bool_and(ss_quantity > 0), arg_min(ss_quantity, ss_quantity),
       approx_count_distinct(ss_quantity), quantile_disc(ss_quantity, 0.5)
FROM store_sales WHERE ss_quantity > 1000;

-- A single row: sample statistics are NULL, population ones 0, corr NaN.
SELECT var_samp(ss_quantity), var_pop(ss_quantity), stddev_pop(ss_quantity), covar_pop(ss_quantity, ss_sales_price),
       covar_samp(ss_quantity, ss_sales_price), median(ss_quantity)
FROM store_sales WHERE ss_ticket_number = 1 AND ss_item_sk = (SELECT min(ss_item_sk) FROM store_sales WHERE ss_ticket_number = 1);

-- The same aggregates over windows: whole partitions, running frames, sliding frames (segment tree).
SELECT i_category, i_item_sk, median(i_current_price) OVER (PARTITION BY i_category) med,
       var_pop(i_current_price) OVER (PARTITION BY i_category) vp,
       quantile_disc(i_brand, 0.5) OVER (PARTITION BY i_category) qb,
       string_agg(i_class, ',' ORDER BY i_item_sk) OVER (PARTITION BY i_category ORDER BY i_item_sk ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) sa
FROM item;

SELECT i_category, i_item_sk,
       median(i_current_price) OVER (PARTITION BY i_category ORDER BY i_item_sk) running_med,
       quantile_cont(i_current_price, 0.25) OVER (PARTITION BY i_category ORDER BY i_item_sk ROWS BETWEEN 5 PRECEDING AND 5 FOLLOWING) q,
       covar_pop(i_current_price, i_item_sk) OVER (PARTITION BY i_category ORDER BY i_item_sk ROWS BETWEEN 3 PRECEDING AND 1 FOLLOWING) cv,
       corr(i_current_price, i_item_sk) OVER (PARTITION BY i_category ORDER BY i_item_sk) cr,
       arg_max(i_brand, i_item_sk) OVER (PARTITION BY i_category ORDER BY i_item_sk ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) am,
       bool_or(i_current_price > 80) OVER (PARTITION BY i_category ORDER BY i_item_sk ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING) bo,
       stddev_pop(i_current_price) OVER (PARTITION BY i_category ORDER BY i_item_sk ROWS BETWEEN 4 PRECEDING AND CURRENT ROW EXCLUDE CURRENT ROW) sp
FROM item;

SELECT d_year, d_moy, sum(ss_quantity) q, median(sum(ss_quantity)) OVER (PARTITION BY d_year) med,
       var_samp(sum(ss_quantity)) OVER (PARTITION BY d_year ORDER BY d_moy) vs,
       count(*) FILTER (WHERE d_moy > 6) OVER (PARTITION BY d_year) second_half,
       sum(sum(ss_quantity)) FILTER (WHERE d_moy % 2 = 0) OVER (PARTITION BY d_year ORDER BY d_moy) even_running
FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk GROUP BY d_year, d_moy;

SELECT s_state, s_store_sk, mode(s_state) OVER (), string_agg(s_city, '/' ORDER BY s_store_sk DESC) OVER (PARTITION BY s_state) FROM store;

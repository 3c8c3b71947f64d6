-- SQL an analyst writes that the coverage sweep of issues 16 / 17 found missing: the bitwise
-- aggregates, product, the regr_* family, sum of a BOOLEAN, row comparisons (DuckDB's value
-- semantics for NULL fields), x op ANY / ALL (ARRAY[...]), generate_series / range over dates
-- with an INTERVAL step, age(a, b) (compared as text) and trunc(x, digits).

SELECT ss_store_sk, bit_and(ss_quantity), bit_or(ss_quantity), bit_xor(ss_quantity), bit_or(CAST(ss_ticket_number AS BIGINT)) FROM store_sales GROUP BY 1;

SELECT ss_store_sk, regr_count(ss_net_profit, ss_quantity), regr_avgx(ss_net_profit, ss_quantity), regr_avgy(ss_net_profit, ss_quantity), regr_sxx(ss_net_profit, ss_quantity), regr_syy(ss_net_profit, ss_quantity), regr_sxy(ss_net_profit, ss_quantity) FROM store_sales GROUP BY 1;

SELECT ss_store_sk, regr_slope(ss_net_profit, ss_sales_price), regr_intercept(ss_net_profit, ss_sales_price), regr_r2(ss_net_profit, ss_sales_price) FROM store_sales GROUP BY 1;

SELECT i_category, product(CASE WHEN i_current_price > 50 THEN 1.01 ELSE 0.99 END), sum(i_current_price > 50), count(*) FROM item GROUP BY 1;

SELECT ss_store_sk, sum(ss_quantity > 50), sum(DISTINCT ss_quantity > 50), bit_xor(ss_quantity) FILTER (WHERE ss_quantity % 2 = 0) FROM store_sales GROUP BY 1;

SELECT d_year, d_moy, bit_or(d_dom) OVER (PARTITION BY d_year ORDER BY d_moy ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM date_dim WHERE d_dom = 1 AND d_year BETWEEN 1999 AND 2000;

SELECT count(*) FROM store_sales WHERE (ss_store_sk, ss_quantity) > (3, 50);

SELECT count(*) FROM store_sales WHERE (ss_store_sk, ss_quantity, ss_item_sk) <= (2, 10, 100);

SELECT ss_store_sk, count(*) FROM store_sales WHERE (ss_store_sk, ss_quantity) IN ((1, 10), (2, 20), (NULL, 30)) GROUP BY 1;

SELECT count(*) FROM store_sales WHERE (ss_store_sk, ss_quantity) NOT IN ((1, 10), (2, 20));

SELECT count(*) FROM store_sales s1 JOIN store s2 ON (s1.ss_store_sk, 1) = (s2.s_store_sk, 1) WHERE s1.ss_quantity < 5;

SELECT i_category, count(*) FROM item WHERE i_category = ANY (ARRAY['Music', 'Books', NULL]) GROUP BY 1;

SELECT count(*) FROM store_sales WHERE ss_quantity > ALL (ARRAY[10, 90]) OR ss_quantity <> ALL (ARRAY[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]) AND ss_store_sk < ANY (ARRAY[2, 3]);

SELECT count(*), min(d), max(d) FROM generate_series(DATE '2000-01-01', DATE '2000-03-31', INTERVAL '1 day') g(d) JOIN date_dim ON d_date = CAST(g.d AS DATE);

SELECT CAST(g.t AS DATE), count(ss_quantity) FROM range(TIMESTAMP '2000-02-01', TIMESTAMP '2000-02-08', INTERVAL '12 hours') g(t) LEFT JOIN date_dim ON d_date = CAST(g.t AS DATE) LEFT JOIN store_sales ON ss_sold_date_sk = d_date_sk GROUP BY 1;

SELECT CAST(g.m AS DATE), count(d_date_sk) FROM generate_series(DATE '1999-01-01', DATE '2000-12-01', INTERVAL '1 month') g(m) JOIN date_dim ON d_year = year(g.m) AND d_moy = month(g.m) GROUP BY 1;

SELECT * FROM range(TIMESTAMP '1999-03-15 06:00:00', TIMESTAMP '2001-03-15 06:00:00', INTERVAL '3 months');

SELECT d_date, CAST(age(d_date, DATE '1998-01-31') AS VARCHAR), CAST(age(DATE '1998-01-31', d_date) AS VARCHAR) FROM date_dim WHERE d_dom IN (1, 29, 30, 31) AND d_year = 2000;

SELECT trunc(ss_sales_price, 1), trunc(ss_net_profit, -1), trunc(CAST(ss_sales_price AS DOUBLE), 1), count(*) FROM store_sales WHERE ss_store_sk = 1 GROUP BY 1, 2, 3;

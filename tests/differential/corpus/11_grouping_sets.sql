-- GROUPING SETS, ROLLUP, CUBE, grouping() / grouping_id() (TPC-DS q05 q14 q18 q22 q27 q36
-- q67 q70 q77 q80 q86 use them).

SELECT s.s_state, s.s_city, count(*), sum(ss.ss_sales_price), grouping(s.s_state, s.s_city)
FROM store_sales ss JOIN store s ON ss.ss_store_sk = s.s_store_sk
GROUP BY ROLLUP (s.s_state, s.s_city);

SELECT i.i_category, d.d_year, count(*), sum(ss.ss_net_profit)
FROM store_sales ss JOIN item i ON ss.ss_item_sk = i.i_item_sk
JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk
GROUP BY CUBE (i.i_category, d.d_year);

SELECT c.c_preferred_cust_flag, grouping(c.c_preferred_cust_flag), count(*)
FROM customer c GROUP BY ROLLUP (c.c_preferred_cust_flag);

SELECT d.d_year, d.d_qoy, d.d_moy, count(*), grouping_id(d.d_year, d.d_qoy, d.d_moy)
FROM date_dim d WHERE d.d_year < 2000
GROUP BY GROUPING SETS ((d.d_year, d.d_qoy), (d.d_moy), ());

SELECT d.d_year, i.i_category, i.i_class, count(DISTINCT ss.ss_customer_sk)
FROM store_sales ss JOIN item i ON ss.ss_item_sk = i.i_item_sk
JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk
WHERE d.d_moy = 11 GROUP BY d.d_year, ROLLUP (i.i_category, i.i_class);

-- ordered
SELECT i.i_category, grouping(i.i_category) AS g, sum(ss.ss_sales_price) AS total
FROM store_sales ss JOIN item i ON ss.ss_item_sk = i.i_item_sk
GROUP BY ROLLUP (i.i_category)
HAVING grouping(i.i_category) = 1 OR sum(ss.ss_sales_price) > 100000
ORDER BY g DESC, total DESC LIMIT 5;

SELECT s.s_state, count(*), sum(ss.ss_quantity)
FROM store_sales ss JOIN store s ON ss.ss_store_sk = s.s_store_sk
WHERE ss.ss_quantity < 0 GROUP BY ROLLUP (s.s_state);

SELECT count(*) FROM store GROUP BY ();

SELECT sum(a.s_store_sk), sum(b.s_store_sk) FROM store a, store b WHERE a.s_store_sk = 1;

-- ordered
SELECT sum(ss.ss_net_profit) AS total, i.i_category, i.i_class,
  grouping(i.i_category) + grouping(i.i_class) AS lochierarchy,
  rank() OVER (PARTITION BY grouping(i.i_category) + grouping(i.i_class),
    CASE WHEN grouping(i.i_class) = 0 THEN i.i_category END ORDER BY sum(ss.ss_net_profit) DESC) AS rank_within_parent
FROM store_sales ss JOIN item i ON ss.ss_item_sk = i.i_item_sk
GROUP BY ROLLUP (i.i_category, i.i_class)
ORDER BY lochierarchy DESC, CASE WHEN lochierarchy = 0 THEN i.i_category END, rank_within_parent, i.i_class LIMIT 20;

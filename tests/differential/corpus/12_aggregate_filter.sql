-- Aggregates with FILTER (WHERE ...).

SELECT count(*) FILTER (WHERE ss.ss_quantity > 50), sum(ss.ss_sales_price) FILTER (WHERE ss.ss_quantity <= 10),
  count(DISTINCT ss.ss_customer_sk) FILTER (WHERE ss.ss_store_sk = 1), max(ss.ss_item_sk) FILTER (WHERE ss.ss_promo_sk IS NULL)
FROM store_sales ss;

SELECT d.d_year, count(*) FILTER (WHERE d.d_moy = 12), sum(ss.ss_net_profit) FILTER (WHERE ss.ss_net_profit > 0),
  min(ss.ss_sales_price) FILTER (WHERE ss.ss_customer_sk IS NULL)
FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk GROUP BY d.d_year;

SELECT c.c_preferred_cust_flag, count(*) FILTER (WHERE c.c_birth_year > 1970)
FROM customer c GROUP BY ROLLUP (c.c_preferred_cust_flag);

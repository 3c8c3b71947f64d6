-- Aggregates: GROUP BY, HAVING, DISTINCT, aggregates over empty input and NULLs.

SELECT ss_store_sk, count(*), count(ss_customer_sk), sum(ss_quantity), min(ss_sales_price), max(ss_net_profit)
FROM store_sales GROUP BY ss_store_sk;

SELECT ss_store_sk, ss_promo_sk IS NULL, count(*) FROM store_sales GROUP BY 1, 2;

SELECT ss_sold_date_sk, count(*) FROM store_sales GROUP BY ss_sold_date_sk;

SELECT ss_sold_date_sk IS NULL, count(*), sum(ss_sales_price) FROM store_sales GROUP BY ss_sold_date_sk IS NULL;

SELECT ss_quantity, count(*) FROM store_sales GROUP BY ss_quantity HAVING count(*) > 300;

SELECT ss_item_sk, sum(ss_quantity) FROM store_sales GROUP BY ss_item_sk HAVING sum(ss_quantity) > 1000;

SELECT ss_customer_sk, count(DISTINCT ss_ticket_number) FROM store_sales
GROUP BY ss_customer_sk HAVING count(DISTINCT ss_ticket_number) > 20;

SELECT count(DISTINCT ss_customer_sk), count(DISTINCT ss_item_sk), count(DISTINCT ss_sold_date_sk) FROM store_sales;

SELECT ss_store_sk, count(DISTINCT ss_customer_sk) FROM store_sales GROUP BY ss_store_sk;

SELECT count(*), sum(ss_quantity), min(ss_quantity), max(ss_sales_price), avg(ss_quantity)
FROM store_sales WHERE ss_sold_date_sk = 1;

SELECT ss_store_sk, count(*), sum(ss_quantity) FROM store_sales WHERE ss_sold_date_sk = 1 GROUP BY ss_store_sk;

SELECT avg(ss_quantity), avg(ss_sales_price), avg(ss_net_profit) FROM store_sales;

SELECT ss_store_sk, avg(ss_sales_price) FROM store_sales GROUP BY ss_store_sk;

SELECT stddev_samp(ss_quantity), stddev_samp(ss_sales_price) FROM store_sales;

SELECT i_category, stddev_samp(i_current_price), count(*) FROM item GROUP BY i_category;

SELECT sum(ss_sales_price * ss_quantity), sum(ss_net_profit * 2), sum(ss_sales_price - ss_net_profit) FROM store_sales;

SELECT d_year, sum(ss_sales_price * ss_quantity) AS revenue FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk
GROUP BY d_year HAVING sum(ss_sales_price * ss_quantity) > 1000;

SELECT DISTINCT ss_store_sk FROM store_sales;

SELECT DISTINCT ss_store_sk, ss_promo_sk IS NULL FROM store_sales;

SELECT DISTINCT d_year, d_qoy FROM date_dim;

SELECT DISTINCT i_category FROM item i JOIN store_sales ss ON ss.ss_item_sk = i.i_item_sk WHERE ss.ss_quantity = 77;

SELECT count(*) FROM (SELECT DISTINCT ss_ticket_number, ss_store_sk FROM store_sales) t;

SELECT min(d_date), max(d_date), min(d_day_name), max(d_day_name) FROM date_dim;

SELECT min(c_first_name), max(c_last_name), min(c_preferred_cust_flag), count(c_preferred_cust_flag) FROM customer;

SELECT c_preferred_cust_flag, count(*) FROM customer GROUP BY c_preferred_cust_flag;

SELECT ca_state, ca_gmt_offset, count(*) FROM customer_address GROUP BY ca_state, ca_gmt_offset HAVING count(*) > 5;

SELECT d_year, d_moy, count(*) FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk
WHERE d_year = 1998 GROUP BY d_year, d_moy HAVING min(ss_quantity) = 1;

SELECT sum(CASE WHEN ss_quantity > 50 THEN 1 ELSE 0 END), sum(CASE WHEN ss_customer_sk IS NULL THEN ss_quantity END) FROM store_sales;

SELECT ss_store_sk, sum(CASE WHEN ss_sales_price > 100 THEN ss_quantity END) FROM store_sales GROUP BY ss_store_sk;

SELECT count(*) FROM store_sales GROUP BY ss_store_sk HAVING ss_store_sk > 1;

SELECT ss_quantity % 10 AS bucket, count(*), sum(ss_sales_price) FROM store_sales GROUP BY ss_quantity % 10;

SELECT i_category, i_class, count(*) FROM item GROUP BY i_category, i_class HAVING count(*) > 2;

SELECT s_state, count(*), sum(ss_net_profit), avg(ss_quantity) FROM store_sales
JOIN store ON ss_store_sk = s_store_sk GROUP BY s_state;

SELECT max(ss_sold_date_sk) - min(ss_sold_date_sk) FROM store_sales;

SELECT count(*) FROM (SELECT ss_ticket_number FROM store_sales GROUP BY ss_ticket_number HAVING count(DISTINCT ss_item_sk) <> count(*)) t;

SELECT sr_store_sk, count(*), sum(sr_return_amt), max(sr_return_quantity) FROM store_returns GROUP BY sr_store_sk;

SELECT d_day_name, count(*) FROM store_returns JOIN date_dim ON sr_returned_date_sk = d_date_sk GROUP BY d_day_name;

SELECT count(*), count(DISTINCT sr_ticket_number), sum(sr_return_quantity) FROM store_returns WHERE sr_returned_date_sk IS NULL;

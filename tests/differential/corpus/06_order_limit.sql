-- ORDER BY and LIMIT/OFFSET; every query marked `ordered` orders totally, so rows compare in order.

-- ordered
SELECT ss_store_sk, count(*) FROM store_sales GROUP BY ss_store_sk ORDER BY ss_store_sk NULLS FIRST;

-- ordered
SELECT ss_store_sk, count(*) FROM store_sales GROUP BY ss_store_sk ORDER BY ss_store_sk DESC NULLS LAST;

-- ordered
SELECT ss_store_sk, count(*) FROM store_sales GROUP BY ss_store_sk ORDER BY 1 ASC NULLS LAST;

-- ordered
SELECT d_year, d_moy, count(*) AS n FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk
GROUP BY d_year, d_moy ORDER BY n DESC, d_year, d_moy LIMIT 10;

-- ordered
SELECT ss_item_sk, sum(ss_quantity) AS q FROM store_sales GROUP BY ss_item_sk ORDER BY q DESC, ss_item_sk LIMIT 5;

-- ordered
SELECT ss_item_sk, sum(ss_quantity) AS q FROM store_sales GROUP BY ss_item_sk ORDER BY q DESC, ss_item_sk LIMIT 5 OFFSET 5;

-- ordered
SELECT ss_ticket_number, ss_item_sk, ss_sales_price FROM store_sales
ORDER BY ss_sales_price DESC, ss_ticket_number, ss_item_sk LIMIT 20;

-- ordered
SELECT ss_ticket_number, ss_item_sk FROM store_sales WHERE ss_sold_date_sk = 2451545
ORDER BY ss_ticket_number DESC, ss_item_sk ASC;

-- ordered
SELECT c_customer_sk, c_first_name, c_preferred_cust_flag FROM customer
ORDER BY c_preferred_cust_flag NULLS FIRST, c_customer_sk LIMIT 30;

-- ordered
SELECT c_customer_sk, c_preferred_cust_flag FROM customer
ORDER BY c_preferred_cust_flag DESC NULLS FIRST, c_customer_sk DESC LIMIT 30;

-- ordered
SELECT d_date, d_day_name FROM date_dim WHERE d_year = 2000 AND d_moy = 2 ORDER BY d_date DESC;

-- ordered
SELECT i_category, max(i_current_price) AS top FROM item GROUP BY i_category ORDER BY top DESC, i_category;

-- ordered
SELECT i_item_sk, i_current_price FROM item ORDER BY i_current_price, i_item_sk LIMIT 7;

-- ordered
SELECT i_brand, count(*) FROM item GROUP BY i_brand ORDER BY count(*) DESC, i_brand LIMIT 10;

-- ordered
SELECT ca_state, count(*) FROM customer_address GROUP BY ca_state ORDER BY lower(ca_state) DESC;

-- ordered
SELECT ss_customer_sk, sum(ss_sales_price) AS spent FROM store_sales WHERE ss_customer_sk IS NOT NULL
GROUP BY ss_customer_sk ORDER BY spent DESC, ss_customer_sk LIMIT 15;

-- ordered
SELECT ss_sold_date_sk, count(*) FROM store_sales WHERE ss_sold_date_sk IS NULL OR ss_sold_date_sk < 2450830
GROUP BY ss_sold_date_sk ORDER BY ss_sold_date_sk NULLS FIRST;

-- ordered
SELECT sr_returned_date_sk, count(*) FROM store_returns GROUP BY sr_returned_date_sk
ORDER BY sr_returned_date_sk DESC NULLS FIRST LIMIT 5;

-- ordered
SELECT s_store_name, sum(ss_quantity) FROM store_sales JOIN store ON ss_store_sk = s_store_sk
WHERE ss_sold_date_sk BETWEEN 2451000 AND 2451099 GROUP BY s_store_name ORDER BY s_store_name;

-- ordered
SELECT DISTINCT d_year FROM date_dim ORDER BY d_year DESC LIMIT 3;

-- ordered
SELECT d_moy, d_dom FROM date_dim WHERE d_year = 2001 AND d_dom > 29 ORDER BY d_moy, d_dom;

-- ordered
SELECT c_last_name, count(*) FROM customer GROUP BY c_last_name ORDER BY count(*) DESC, c_last_name LIMIT 3;

-- ordered
SELECT ss_quantity * 2 AS doubled, count(*) FROM store_sales WHERE ss_quantity < 5 GROUP BY ss_quantity ORDER BY doubled;

-- ordered
SELECT ss_ticket_number, count(*) FROM store_sales GROUP BY ss_ticket_number ORDER BY count(*) DESC, ss_ticket_number LIMIT 1 OFFSET 3;

-- LIMIT 0, and LIMIT over a union.
SELECT * FROM store LIMIT 0;

-- ordered
SELECT k FROM (SELECT s_store_sk AS k FROM store UNION ALL SELECT p_promo_sk FROM promotion) t ORDER BY k DESC LIMIT 4;

-- ordered
SELECT p_promo_sk, p_cost FROM promotion ORDER BY p_cost DESC, p_promo_sk LIMIT 3;

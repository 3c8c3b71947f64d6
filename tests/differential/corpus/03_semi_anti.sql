-- Semi and anti joins through IN, EXISTS, NOT IN and NOT EXISTS, with NULLs on either side.

SELECT count(*) FROM store_sales WHERE ss_sold_date_sk IN
(SELECT d_date_sk FROM date_dim WHERE d_dom = 1);

SELECT count(*) FROM store_sales WHERE ss_sold_date_sk NOT IN
(SELECT d_date_sk FROM date_dim WHERE d_year <= 2000);

SELECT count(*) FROM store_sales ss WHERE EXISTS
(SELECT 1 FROM date_dim d WHERE d.d_date_sk = ss.ss_sold_date_sk AND d.d_moy = 7);

SELECT count(*) FROM store_sales ss WHERE NOT EXISTS
(SELECT 1 FROM date_dim d WHERE d.d_date_sk = ss.ss_sold_date_sk AND d.d_year <= 2001);

SELECT count(*) FROM store_sales WHERE ss_customer_sk IN
(SELECT c_customer_sk FROM customer WHERE c_preferred_cust_flag = 'Y');

SELECT count(*) FROM store_sales WHERE ss_customer_sk NOT IN
(SELECT c_customer_sk FROM customer WHERE c_preferred_cust_flag = 'Y');

-- NOT IN over a subquery holding a NULL selects nothing.
SELECT count(*) FROM store_sales WHERE ss_customer_sk NOT IN
(SELECT sr_customer_sk FROM store_returns);

SELECT count(*) FROM store_sales WHERE ss_customer_sk NOT IN
(SELECT sr_customer_sk FROM store_returns WHERE sr_customer_sk IS NOT NULL);

-- NOT IN over an empty subquery keeps every row, NULL keys too.
SELECT count(*) FROM store_sales WHERE ss_customer_sk NOT IN
(SELECT c_customer_sk FROM customer WHERE c_birth_year > 3000);

SELECT count(*) FROM store_sales WHERE ss_sold_date_sk NOT IN
(SELECT d_date_sk FROM date_dim WHERE d_year > 3000);

SELECT count(*) FROM store_sales ss WHERE NOT EXISTS
(SELECT 1 FROM customer c WHERE c.c_customer_sk = ss.ss_customer_sk);

SELECT count(*) FROM store_sales ss WHERE NOT EXISTS
(SELECT 1 FROM store_returns sr WHERE sr.sr_ticket_number = ss.ss_ticket_number
 AND sr.sr_item_sk = ss.ss_item_sk);

SELECT count(*) FROM store_sales ss WHERE EXISTS
(SELECT 1 FROM store_returns sr WHERE sr.sr_ticket_number = ss.ss_ticket_number
 AND sr.sr_item_sk = ss.ss_item_sk AND sr.sr_returned_date_sk IS NULL);

SELECT count(*) FROM store_sales WHERE ss_ticket_number IN
(SELECT sr_ticket_number FROM store_returns WHERE sr_return_quantity > 50);

SELECT count(*) FROM store_sales WHERE ss_ticket_number NOT IN
(SELECT sr_ticket_number FROM store_returns WHERE sr_return_quantity > 50);

SELECT count(*) FROM store_sales ss WHERE ss_ticket_number IN
(SELECT sr_ticket_number FROM store_returns sr WHERE sr.sr_item_sk = ss.ss_item_sk);

SELECT count(*) FROM store_sales WHERE ss_sold_date_sk IN
(SELECT sr_returned_date_sk FROM store_returns WHERE sr_return_amt > 500);

SELECT count(*) FROM store_sales WHERE ss_sold_date_sk NOT IN
(SELECT sr_returned_date_sk FROM store_returns WHERE sr_returned_date_sk IS NOT NULL);

SELECT count(*) FROM store_sales ss WHERE ss_item_sk IN
(SELECT i_item_sk FROM item WHERE i_category = 'Music')
AND ss_sold_date_sk IN (SELECT d_date_sk FROM date_dim WHERE d_year = 2001);

SELECT count(*) FROM store_sales ss WHERE ss_item_sk IN
(SELECT i_item_sk FROM item WHERE i_category = 'Music')
OR ss_sold_date_sk IN (SELECT d_date_sk FROM date_dim WHERE d_dom = 31);

SELECT count(*) FROM store_sales ss WHERE ss_quantity > 90 OR EXISTS
(SELECT 1 FROM promotion p WHERE p.p_promo_sk = ss.ss_promo_sk AND p.p_channel_tv = 'Y');

SELECT count(*) FROM store_sales ss WHERE NOT (ss_item_sk IN
(SELECT i_item_sk FROM item WHERE i_current_price > 50));

SELECT ss_store_sk, count(*) FROM store_sales ss WHERE ss_customer_sk IN
(SELECT c_customer_sk FROM customer c JOIN customer_address ca ON c.c_current_addr_sk = ca.ca_address_sk
 WHERE ca.ca_state = 'TX')
GROUP BY ss_store_sk;

SELECT d_year, count(*) FROM date_dim d WHERE EXISTS
(SELECT 1 FROM store_sales ss WHERE ss.ss_sold_date_sk = d.d_date_sk AND ss.ss_quantity = 100)
GROUP BY d_year;

SELECT d_year, count(*) FROM date_dim d WHERE NOT EXISTS
(SELECT 1 FROM store_sales ss WHERE ss.ss_sold_date_sk = d.d_date_sk) GROUP BY d_year;

SELECT count(*) FROM item i WHERE i.i_item_sk NOT IN (SELECT ss_item_sk FROM store_sales);

SELECT count(*) FROM customer c WHERE c.c_customer_sk NOT IN
(SELECT ss_customer_sk FROM store_sales WHERE ss_customer_sk IS NOT NULL);

SELECT count(*) FROM customer c WHERE c.c_current_addr_sk IN
(SELECT ca_address_sk FROM customer_address WHERE ca_state = 'GA');

SELECT count(*) FROM customer c WHERE c.c_current_addr_sk NOT IN
(SELECT ca_address_sk FROM customer_address WHERE ca_state = 'GA');

SELECT count(*) FROM store_sales ss WHERE EXISTS
(SELECT 1 FROM store_returns sr WHERE sr.sr_customer_sk = ss.ss_customer_sk
 AND sr.sr_returned_date_sk < ss.ss_sold_date_sk);

SELECT count(*) FROM store_sales ss WHERE NOT EXISTS
(SELECT 1 FROM store_returns sr WHERE sr.sr_customer_sk = ss.ss_customer_sk
 AND sr.sr_return_amt > ss.ss_sales_price);

SELECT count(*) FROM store_sales WHERE ss_store_sk = ANY (SELECT s_store_sk FROM store WHERE s_state <> 'TN');

SELECT count(*) FROM store_sales WHERE ss_quantity > ALL (SELECT s_store_sk * 30 FROM store);

SELECT count(*) FROM store_sales WHERE ss_quantity < ANY (SELECT s_store_sk FROM store);

SELECT in_tn, count(*) FROM (SELECT ss_store_sk IN (SELECT s_store_sk FROM store WHERE s_state = 'TN') AS in_tn
FROM store_sales) t GROUP BY in_tn;

SELECT flag, count(*) FROM (SELECT ss_customer_sk NOT IN
(SELECT sr_customer_sk FROM store_returns WHERE sr_return_quantity > 95) AS flag FROM store_sales) t GROUP BY flag;

SELECT returned, count(*) FROM (SELECT EXISTS (SELECT 1 FROM store_returns sr
WHERE sr.sr_ticket_number = ss.ss_ticket_number) AS returned FROM store_sales ss) t GROUP BY returned;

SELECT count(*) FROM store_sales ss
JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk
WHERE d.d_year = 2000 AND ss.ss_item_sk NOT IN (SELECT i_item_sk FROM item WHERE i_category = 'Books');

SELECT count(*) FROM store_sales WHERE ss_sold_date_sk IN
(SELECT d_date_sk FROM date_dim WHERE d_year = 2001 AND d_date_sk IN
  (SELECT sr_returned_date_sk FROM store_returns WHERE sr_return_quantity = 1));

SELECT count(*) FROM store_sales WHERE ss_promo_sk IN (SELECT p_promo_sk FROM promotion WHERE p_channel_dmail IS NULL);

SELECT count(*) FROM store_sales WHERE ss_promo_sk NOT IN (SELECT p_promo_sk FROM promotion WHERE p_channel_dmail IS NULL);

-- A small outer side with a residual: RIGHT_SEMI / RIGHT_ANTI joins building on the outer rows
-- (TPC-DS q16/q94's shape), NULL keys and NULLs in the residual on both sides.
SELECT count(*), sum(sr.sr_return_amt) FROM store_returns sr WHERE sr.sr_reason_sk < 10 AND EXISTS
(SELECT 1 FROM store_sales ss WHERE ss.ss_ticket_number = sr.sr_ticket_number
 AND ss.ss_item_sk <> sr.sr_item_sk);

SELECT count(*), sum(sr.sr_return_amt), count(sr.sr_customer_sk) FROM store_returns sr WHERE sr.sr_reason_sk < 10 AND NOT EXISTS
(SELECT 1 FROM store_sales ss WHERE ss.ss_ticket_number = sr.sr_ticket_number
 AND ss.ss_customer_sk <> sr.sr_customer_sk);

SELECT sr.sr_ticket_number, sr.sr_item_sk, sr.sr_customer_sk FROM store_returns sr WHERE sr.sr_store_sk = 1 AND EXISTS
(SELECT 1 FROM store_sales ss WHERE ss.ss_customer_sk = sr.sr_customer_sk AND ss.ss_store_sk <> sr.sr_store_sk);

SELECT count(*) FROM customer c WHERE c.c_birth_month = 1 AND NOT EXISTS
(SELECT 1 FROM store_sales ss WHERE ss.ss_customer_sk = c.c_customer_sk AND ss.ss_quantity > c.c_birth_day);

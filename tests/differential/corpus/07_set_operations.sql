-- UNION [ALL], INTERSECT, EXCEPT (set semantics; NULLs count as equal).

SELECT ss_store_sk FROM store_sales UNION SELECT s_store_sk FROM store;

SELECT ss_store_sk FROM store_sales WHERE ss_quantity = 1 UNION ALL SELECT s_store_sk FROM store;

SELECT count(*) FROM (SELECT ss_customer_sk FROM store_sales UNION ALL SELECT sr_customer_sk FROM store_returns) t;

SELECT count(*) FROM (SELECT ss_customer_sk FROM store_sales UNION SELECT sr_customer_sk FROM store_returns) t;

SELECT ss_customer_sk FROM store_sales WHERE ss_sold_date_sk < 2451000
INTERSECT SELECT sr_customer_sk FROM store_returns WHERE sr_return_quantity > 90;

SELECT count(*) FROM (SELECT ss_item_sk FROM store_sales INTERSECT SELECT i_item_sk FROM item WHERE i_category = 'Men') t;

SELECT count(*) FROM (SELECT i_item_sk FROM item EXCEPT SELECT ss_item_sk FROM store_sales) t;

SELECT ss_promo_sk FROM store_sales EXCEPT SELECT p_promo_sk FROM promotion WHERE p_cost > 100;

SELECT ss_sold_date_sk FROM store_sales WHERE ss_sold_date_sk IS NULL OR ss_sold_date_sk < 2450820
EXCEPT SELECT d_date_sk FROM date_dim WHERE d_dom = 2;

SELECT d_year, 'sales' AS kind, count(*) FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk GROUP BY d_year
UNION ALL
SELECT d_year, 'returns', count(*) FROM store_returns JOIN date_dim ON sr_returned_date_sk = d_date_sk GROUP BY d_year;

SELECT c_first_name FROM customer WHERE c_birth_year < 1930
UNION SELECT c_last_name FROM customer WHERE c_birth_year > 1990;

SELECT s_state FROM store UNION SELECT ca_state FROM customer_address WHERE ca_gmt_offset = -8
EXCEPT SELECT 'CA';

SELECT count(*), sum(x) FROM (SELECT ss_quantity AS x FROM store_sales WHERE ss_store_sk = 1
UNION ALL SELECT sr_return_quantity FROM store_returns WHERE sr_store_sk = 1) t;

SELECT 1 AS a, NULL AS b UNION SELECT 1, NULL UNION SELECT 2, 3;

SELECT ss_store_sk, ss_promo_sk FROM store_sales WHERE ss_quantity = 42
INTERSECT SELECT ss_store_sk, ss_promo_sk FROM store_sales WHERE ss_quantity = 43;

-- The NULL literal in one branch takes the other branch's type (q27).
SELECT s.s_state, s.s_city, 1 FROM store s
UNION ALL SELECT NULL AS s_state, NULL, 2 FROM store s WHERE s.s_store_sk = 1;

-- A set operation of parenthesised queries in FROM (q87).
SELECT count(*) FROM (
  (SELECT DISTINCT c.c_last_name, c.c_first_name FROM customer c WHERE c.c_birth_year < 1970)
  EXCEPT (SELECT DISTINCT c.c_last_name, c.c_first_name FROM customer c WHERE c.c_preferred_cust_flag = 'Y')
  EXCEPT (SELECT DISTINCT c.c_last_name, c.c_first_name FROM customer c WHERE c.c_birth_year < 1940)
) cool_cust;

SELECT count(*) FROM customer c WHERE c.c_current_addr_sk IN
  ((SELECT ca.ca_address_sk FROM customer_address ca WHERE ca.ca_state = 'TX') UNION (SELECT 1));

-- INTERSECT ALL and EXCEPT ALL: multiset semantics, NULLs equal.
SELECT ss_store_sk, ss_quantity % 3 AS q FROM store_sales WHERE ss_quantity < 20
INTERSECT ALL SELECT sr_store_sk, sr_return_quantity % 3 FROM store_returns;

SELECT ss_store_sk, ss_quantity % 4 AS q FROM store_sales
EXCEPT ALL SELECT sr_store_sk, sr_return_quantity % 4 FROM store_returns;

SELECT i.i_category, count(*) FROM (
  SELECT ss_item_sk AS k FROM store_sales WHERE ss_quantity < 30
  EXCEPT ALL SELECT sr_item_sk FROM store_returns
  INTERSECT ALL SELECT ss_item_sk FROM store_sales WHERE ss_store_sk = 2) t
JOIN item i ON i.i_item_sk = t.k GROUP BY i.i_category;

SELECT c.c_birth_year FROM customer c EXCEPT ALL SELECT c.c_birth_year FROM customer c WHERE c.c_birth_year > 1960;

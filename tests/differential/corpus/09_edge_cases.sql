-- Shapes that decorrelation, outer joins and pruning get wrong easily.

-- The count bug: a correlated count over no rows is 0, not NULL.
SELECT count(*) FROM store_sales ss WHERE ss.ss_quantity >
(SELECT count(*) FROM store_returns sr WHERE sr.sr_ticket_number = ss.ss_ticket_number);

SELECT c.c_customer_sk, (SELECT count(*) FROM store_returns sr WHERE sr.sr_customer_sk = c.c_customer_sk) AS n
FROM customer c WHERE c.c_customer_sk <= 40;

SELECT count(*) FROM customer c WHERE 0 =
(SELECT count(*) FROM store_returns sr WHERE sr.sr_customer_sk = c.c_customer_sk);

SELECT count(*) FROM customer c WHERE
(SELECT sum(sr.sr_return_quantity) FROM store_returns sr WHERE sr.sr_customer_sk = c.c_customer_sk) IS NULL;

SELECT s.s_store_sk, (SELECT count(*) FROM store_sales ss WHERE ss.ss_store_sk = s.s_store_sk AND ss.ss_sold_date_sk = 1) FROM store s;

-- Outer joins with conditions on both sides and residuals.
SELECT count(*), count(sr.sr_item_sk) FROM store_sales ss LEFT JOIN store_returns sr
ON ss.ss_ticket_number = sr.sr_ticket_number AND ss.ss_item_sk = sr.sr_item_sk AND sr.sr_return_amt > ss.ss_sales_price;

SELECT count(*), count(ss.ss_item_sk), count(sr.sr_item_sk) FROM
(SELECT * FROM store_sales WHERE ss_sold_date_sk BETWEEN 2451000 AND 2451100) ss FULL JOIN
(SELECT * FROM store_returns WHERE sr_returned_date_sk BETWEEN 2451050 AND 2451150) sr
ON ss.ss_ticket_number = sr.sr_ticket_number AND ss.ss_item_sk = sr.sr_item_sk;

SELECT count(*) FROM store_sales ss LEFT JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk
WHERE COALESCE(d.d_year, 0) = 0;

SELECT d.d_year, count(*) FROM store_sales ss RIGHT JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk
WHERE ss.ss_item_sk IS NULL GROUP BY d.d_year;

SELECT count(*) FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk IS NOT DISTINCT FROM d.d_date_sk WHERE d.d_dom = 2;

SELECT count(*) FROM store_sales ss LEFT JOIN customer c ON ss.ss_customer_sk = c.c_customer_sk
LEFT JOIN customer_address ca ON c.c_current_addr_sk = ca.ca_address_sk WHERE ca.ca_state IS NULL;

-- Anti joins after outer joins: NULL keys from the outer side.
SELECT count(*) FROM store_sales ss LEFT JOIN promotion p ON ss.ss_promo_sk = p.p_promo_sk AND p.p_cost > 500
WHERE p.p_promo_sk NOT IN (SELECT p_promo_sk FROM promotion WHERE p_channel_tv = 'Y');

SELECT count(*) FROM store_sales ss LEFT JOIN promotion p ON ss.ss_promo_sk = p.p_promo_sk AND p.p_cost > 500
WHERE NOT EXISTS (SELECT 1 FROM promotion p2 WHERE p2.p_promo_sk = p.p_promo_sk AND p2.p_channel_tv = 'Y');

-- Pruning through two facts joined on the date key, one filtered by a dimension.
SELECT count(*) FROM store_sales ss JOIN store_returns sr ON ss.ss_sold_date_sk = sr.sr_returned_date_sk
JOIN date_dim d ON sr.sr_returned_date_sk = d.d_date_sk WHERE d.d_date BETWEEN DATE '2000-06-01' AND DATE '2000-06-03';

SELECT count(*) FROM store_sales ss WHERE ss.ss_sold_date_sk IN
(SELECT sr_returned_date_sk FROM store_returns sr JOIN item i ON sr.sr_item_sk = i.i_item_sk WHERE i.i_category = 'Toys');

SELECT count(*) FROM store_sales ss WHERE ss.ss_sold_date_sk NOT IN
(SELECT d_date_sk FROM date_dim WHERE d_year = 2000) AND ss.ss_sold_date_sk IN (SELECT d_date_sk FROM date_dim WHERE d_moy = 1);

-- Aggregates over empty inputs after joins.
SELECT count(*), sum(ss.ss_quantity), max(d.d_date) FROM store_sales ss JOIN date_dim d
ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_year = 2003;

SELECT d.d_year, count(ss.ss_item_sk), sum(ss.ss_quantity) FROM date_dim d LEFT JOIN store_sales ss
ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_year >= 2002 GROUP BY d.d_year;

-- HAVING with a scalar subquery; ORDER BY an aggregate not selected.
SELECT ss_store_sk FROM store_sales GROUP BY ss_store_sk HAVING count(*) > (SELECT count(*) // 4 FROM store_sales);

-- ordered
SELECT ss_store_sk FROM store_sales WHERE ss_store_sk IS NOT NULL GROUP BY ss_store_sk ORDER BY sum(ss_quantity) DESC, ss_store_sk;

-- Same column name twice from two aliases.
-- ordered
SELECT d1.d_year, d2.d_year FROM date_dim d1 JOIN date_dim d2 ON d1.d_date_sk = d2.d_date_sk + 365
GROUP BY d1.d_year, d2.d_year ORDER BY d2.d_year DESC, d1.d_year DESC;

SELECT a.ss_item_sk, b.ss_item_sk, count(*) FROM store_sales a JOIN store_sales b ON a.ss_ticket_number = b.ss_ticket_number
WHERE a.ss_sold_date_sk = 2451545 AND a.ss_item_sk < b.ss_item_sk GROUP BY a.ss_item_sk, b.ss_item_sk;

-- DISTINCT with NULLs, count DISTINCT over a nullable column.
SELECT count(DISTINCT ss_customer_sk), count(DISTINCT ss_promo_sk), count(*) FROM store_sales WHERE ss_sold_date_sk < 2451000;

SELECT DISTINCT ss_promo_sk IS NULL, ss_customer_sk IS NULL FROM store_sales;

-- Union of fact rows with different partition columns, then a join.
SELECT d.d_year, count(*) FROM
(SELECT ss_sold_date_sk AS k FROM store_sales WHERE ss_quantity = 5 UNION ALL SELECT sr_returned_date_sk FROM store_returns WHERE sr_return_quantity = 5) t
JOIN date_dim d ON t.k = d.d_date_sk GROUP BY d.d_year;

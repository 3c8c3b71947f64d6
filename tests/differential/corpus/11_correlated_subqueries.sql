-- Correlated subqueries of any shape (the dependent-join rewrite, planner/dependent_join.cpp):
-- conditions other than equalities, correlation in the select list, HAVING and ORDER BY,
-- LIMIT inside, nesting, NULL correlated columns, set operations, LATERAL.

SELECT i.i_item_sk, (SELECT count(*) FROM item i2 WHERE i2.i_current_price > i.i_current_price) AS pricier
FROM item i WHERE i.i_item_sk < 40;

SELECT s.s_store_sk, (SELECT sum(ss.ss_quantity) FROM store_sales ss WHERE ss.ss_store_sk = s.s_store_sk AND ss.ss_quantity > s.s_store_sk * 10) FROM store s;

SELECT count(*) FROM item i WHERE i.i_current_price > (SELECT avg(i2.i_current_price) * 1.2 FROM item i2 WHERE i2.i_category = i.i_category AND i2.i_item_sk <> i.i_item_sk);

SELECT d.d_year, d.d_moy, (SELECT count(*) FROM store_returns sr WHERE sr.sr_returned_date_sk BETWEEN d.d_date_sk - 3 AND d.d_date_sk) AS recent
FROM date_dim d WHERE d.d_year = 2001 AND d.d_dom = 1;

SELECT c.c_customer_sk, (SELECT max(ss.ss_sales_price) FROM store_sales ss WHERE ss.ss_customer_sk = c.c_customer_sk AND ss.ss_quantity > c.c_birth_year % 100) AS later_max
FROM customer c WHERE c.c_birth_year BETWEEN 1950 AND 1952;

SELECT c.c_birth_year, (SELECT count(*) FROM customer c2 WHERE c2.c_birth_year < c.c_birth_year) FROM customer c GROUP BY c.c_birth_year;

SELECT c.c_birth_year, count(*) FROM customer c GROUP BY c.c_birth_year
HAVING count(*) > (SELECT count(*) / 60 FROM customer c2 WHERE c2.c_birth_year >= c.c_birth_year);

SELECT i.i_item_sk, (SELECT ss.ss_ticket_number FROM store_sales ss WHERE ss.ss_item_sk = i.i_item_sk ORDER BY ss.ss_sales_price DESC, ss.ss_ticket_number LIMIT 1) AS top_ticket
FROM item i WHERE i.i_item_sk < 30;

SELECT count(*) FROM store s WHERE EXISTS (SELECT 1 FROM store_sales ss WHERE ss.ss_store_sk = s.s_store_sk GROUP BY ss.ss_item_sk HAVING count(*) > 40);

SELECT i.i_item_sk FROM item i WHERE i.i_item_sk < 60 AND NOT EXISTS
(SELECT 1 FROM store_returns sr WHERE sr.sr_item_sk = i.i_item_sk AND sr.sr_return_quantity > i.i_item_sk % 50);

SELECT i.i_item_sk, i.i_current_price > ALL (SELECT i2.i_current_price FROM item i2 WHERE i2.i_category = i.i_category AND i2.i_item_sk < i.i_item_sk) AS record
FROM item i WHERE i.i_item_sk < 50;

SELECT i.i_item_sk, i.i_brand IN (SELECT i2.i_brand FROM item i2 WHERE i2.i_item_sk > i.i_item_sk) AS later_brand
FROM item i WHERE i.i_item_sk < 50;

SELECT s.s_store_sk, (SELECT count(*) FROM item i WHERE i.i_current_price < (SELECT avg(ss.ss_sales_price) FROM store_sales ss WHERE ss.ss_store_sk = s.s_store_sk AND ss.ss_item_sk = i.i_item_sk)) FROM store s;

SELECT c.c_customer_sk, (SELECT count(*) FROM (SELECT sr.sr_item_sk FROM store_returns sr WHERE sr.sr_customer_sk = c.c_customer_sk UNION SELECT ss.ss_item_sk FROM store_sales ss WHERE ss.ss_customer_sk = c.c_customer_sk AND ss.ss_quantity > 90) u) AS items
FROM customer c WHERE c.c_customer_sk < 80;

SELECT sr.sr_store_sk, (SELECT count(*) FROM store_returns sr2 WHERE sr2.sr_store_sk IS NOT DISTINCT FROM sr.sr_store_sk AND sr2.sr_return_quantity > 50) FROM store_returns sr GROUP BY sr.sr_store_sk;

SELECT s.s_store_sk, t.ss_ticket_number, t.ss_sales_price FROM store s,
LATERAL (SELECT ss.ss_ticket_number, ss.ss_sales_price FROM store_sales ss WHERE ss.ss_store_sk = s.s_store_sk ORDER BY ss.ss_sales_price DESC, ss.ss_ticket_number, ss.ss_item_sk LIMIT 3) t;

SELECT i.i_item_sk, t.n FROM item i LEFT JOIN LATERAL (SELECT count(*) AS n FROM store_returns sr WHERE sr.sr_item_sk = i.i_item_sk AND sr.sr_return_quantity > 30) t ON true WHERE i.i_item_sk < 40;

-- Subqueries: scalar (uncorrelated and correlated), derived tables, WITH.

SELECT count(*) FROM store_sales WHERE ss_sold_date_sk =
(SELECT max(d_date_sk) FROM date_dim WHERE d_year = 2002 AND d_moy = 6);

SELECT count(*) FROM store_sales WHERE ss_sales_price > (SELECT avg(i_current_price) FROM item);

SELECT count(*) FROM store_sales WHERE ss_sales_price > (SELECT max(i_current_price) FROM item WHERE i_category = 'Nope');

SELECT (SELECT count(*) FROM store) AS stores, (SELECT count(*) FROM promotion) AS promotions;

SELECT i_category, (SELECT max(i_current_price) FROM item) - max(i_current_price) FROM item GROUP BY i_category;

SELECT count(*) FROM store_sales ss WHERE ss.ss_sales_price >
(SELECT avg(ss2.ss_sales_price) FROM store_sales ss2 WHERE ss2.ss_item_sk = ss.ss_item_sk);

SELECT count(*) FROM store_sales ss WHERE ss.ss_quantity =
(SELECT max(ss2.ss_quantity) FROM store_sales ss2 WHERE ss2.ss_ticket_number = ss.ss_ticket_number);

SELECT i.i_category, count(*) FROM item i WHERE i.i_current_price >
(SELECT avg(i2.i_current_price) FROM item i2 WHERE i2.i_category = i.i_category) GROUP BY i.i_category;

SELECT c.c_customer_sk, (SELECT count(*) FROM store_returns sr WHERE sr.sr_customer_sk = c.c_customer_sk) AS returns
FROM customer c WHERE c.c_birth_year = 1950;

SELECT s.s_store_name, (SELECT sum(ss.ss_quantity) FROM store_sales ss WHERE ss.ss_store_sk = s.s_store_sk) FROM store s;

SELECT count(*) FROM (SELECT ss_item_sk, sum(ss_quantity) AS q FROM store_sales GROUP BY ss_item_sk) t WHERE t.q > 100;

SELECT t.d_year, max(t.revenue) FROM
(SELECT d.d_year, d.d_moy, sum(ss.ss_sales_price) AS revenue
 FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk GROUP BY d.d_year, d.d_moy) t
GROUP BY t.d_year;

SELECT count(*) FROM (SELECT DISTINCT ss_customer_sk FROM store_sales) t;

SELECT count(*) FROM (SELECT * FROM store_sales WHERE ss_sold_date_sk > 2452000) ss
JOIN (SELECT * FROM date_dim WHERE d_moy = 3) d ON ss.ss_sold_date_sk = d.d_date_sk;

WITH daily AS (SELECT ss_sold_date_sk AS day, count(*) AS n FROM store_sales GROUP BY ss_sold_date_sk)
SELECT d.d_year, sum(daily.n), max(daily.n) FROM daily JOIN date_dim d ON daily.day = d.d_date_sk GROUP BY d.d_year;

WITH big AS (SELECT ss_ticket_number FROM store_sales GROUP BY ss_ticket_number HAVING count(*) >= 15)
SELECT count(*) FROM store_sales WHERE ss_ticket_number IN (SELECT ss_ticket_number FROM big);

WITH tx AS (SELECT ca_address_sk FROM customer_address WHERE ca_state = 'TX'),
     tx_customers AS (SELECT c_customer_sk FROM customer WHERE c_current_addr_sk IN (SELECT ca_address_sk FROM tx))
SELECT count(*), sum(ss_sales_price) FROM store_sales WHERE ss_customer_sk IN (SELECT c_customer_sk FROM tx_customers);

WITH y AS (SELECT d_date_sk FROM date_dim WHERE d_year = 2000)
SELECT (SELECT count(*) FROM store_sales WHERE ss_sold_date_sk IN (SELECT d_date_sk FROM y)) AS sales,
       (SELECT count(*) FROM store_returns WHERE sr_returned_date_sk IN (SELECT d_date_sk FROM y)) AS returns;

SELECT count(*) FROM store_returns sr WHERE sr.sr_return_amt >
(SELECT max(ss.ss_sales_price) FROM store_sales ss WHERE ss.ss_ticket_number = sr.sr_ticket_number AND ss.ss_item_sk = sr.sr_item_sk);

SELECT count(*) FROM store_sales ss WHERE ss.ss_sold_date_sk IN
(SELECT d.d_date_sk FROM date_dim d WHERE d.d_moy = (SELECT min(d2.d_moy) + 1 FROM date_dim d2 WHERE d2.d_year = 2001));

SELECT max(total), min(total) FROM
(SELECT ss_customer_sk, sum(ss_sales_price * ss_quantity) AS total FROM store_sales
 WHERE ss_customer_sk IS NOT NULL GROUP BY ss_customer_sk) t;

SELECT CASE WHEN (SELECT count(*) FROM store WHERE s_state = 'TN') > 0 THEN 'yes' ELSE 'no' END;

SELECT count(*) FROM item i WHERE EXISTS (SELECT 1 FROM store_sales ss WHERE ss.ss_item_sk = i.i_item_sk AND ss.ss_quantity > 99)
OR i.i_current_price > 95;

-- The correlation in every branch of an OR (TPC-DS q41).
SELECT DISTINCT i1.i_brand FROM item i1 WHERE i1.i_item_sk BETWEEN 100 AND 300
AND (SELECT count(*) FROM item i2
     WHERE (i2.i_class = i1.i_class AND i2.i_category = 'Books' AND i2.i_current_price > 50)
        OR (i2.i_class = i1.i_class AND i2.i_category = 'Music')) > 0;

-- CTEs referenced more than once are materialized; once, inlined; MATERIALIZED / NOT MATERIALIZED force it.
WITH s AS (SELECT ss_store_sk AS store, sum(ss_quantity) AS q FROM store_sales GROUP BY ss_store_sk)
SELECT a.store, a.q, b.q FROM s a JOIN s b ON a.store = b.store - 1;

WITH y AS (SELECT d_year, count(*) AS n FROM date_dim WHERE d_moy = 1 GROUP BY d_year),
z AS (SELECT y1.d_year, y1.n + y2.n AS nn FROM y y1 JOIN y y2 ON y1.d_year = y2.d_year + 1)
SELECT z.d_year, z.nn, (SELECT count(*) FROM y) FROM z JOIN y ON z.d_year = y.d_year;

WITH t AS (SELECT i_category AS cat, i_item_sk AS item, i_current_price AS price FROM item GROUP BY i_category, i_item_sk, i_current_price)
SELECT cat, count(*) FROM t t1 WHERE price > (SELECT avg(price) FROM t t2 WHERE t2.cat = t1.cat) GROUP BY cat;

WITH m AS MATERIALIZED (SELECT d.d_dom AS dom, count(*) AS n FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_year = 2000 AND d.d_moy = 3 GROUP BY 1)
SELECT a.dom, a.n, b.n FROM m a LEFT JOIN m b ON a.dom + 1 = b.dom;

WITH t AS NOT MATERIALIZED (SELECT ss_item_sk AS item, sum(ss_quantity) AS q FROM store_sales GROUP BY 1)
SELECT count(*), sum(t1.q) FROM t t1 JOIN t t2 ON t1.item = t2.item;

-- One query a line, run alone and under mpirun by run.sh. Rows are compared sorted unless the
-- query has ORDER BY, so only order what is ordered fully.
SELECT count(*) AS n, sum(ss_quantity) AS quantity, min(ss_sales_price) AS lo, max(ss_sales_price) AS hi FROM 'store_sales'
SELECT d_moy, count(*) AS sales, sum(ss_sales_price) AS revenue FROM 'store_sales' ss JOIN 'date_dim' d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_year = 2000 GROUP BY d_moy ORDER BY d_moy
SELECT count(*) AS sales, sum(ss_net_profit) AS profit FROM 'store_sales' ss JOIN 'date_dim' d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_year = 2001 AND d.d_day_name = 'Sunday'
SELECT count(*) AS sales, sum(ss_quantity) AS quantity FROM 'store_sales' WHERE ss_sold_date_sk IN (SELECT d_date_sk FROM 'date_dim' WHERE d_year = 1999 AND d_dom = 1)
SELECT count(*) AS sales, sum(ss_quantity) AS quantity FROM 'store_sales' ss WHERE NOT EXISTS (SELECT 1 FROM 'date_dim' d WHERE d.d_date_sk = ss.ss_sold_date_sk AND d.d_year <= 2001)
SELECT count(*) AS sales, sum(ss_quantity) AS quantity FROM 'store_sales' ss JOIN 'date_dim' d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_year = 1900
SELECT d_year, i_category, count(*) AS n, sum(ss_sales_price) AS sales, min(ss_quantity) AS lo, max(ss_quantity) AS hi FROM 'store_sales' ss JOIN 'date_dim' d ON ss.ss_sold_date_sk = d.d_date_sk JOIN 'item' i ON ss.ss_item_sk = i.i_item_sk WHERE i.i_category = 'Music' GROUP BY d_year, i_category
SELECT s_state, count(*) AS n, sum(ss_net_profit) AS paid FROM 'store_sales' ss JOIN 'store' s ON ss.ss_store_sk = s.s_store_sk JOIN 'date_dim' d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_year = 2002 AND d.d_moy BETWEEN 3 AND 5 GROUP BY s_state
SELECT ss_ticket_number, ss_item_sk, ss_sales_price FROM 'store_sales' ORDER BY ss_sales_price DESC, ss_ticket_number, ss_item_sk LIMIT 10
SELECT ss_ticket_number, ss_item_sk, ss_net_profit FROM 'store_sales' ss JOIN 'date_dim' d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_year = 2000 ORDER BY ss_net_profit, ss_ticket_number, ss_item_sk LIMIT 5 OFFSET 3
SELECT count(*) AS n FROM (SELECT * FROM 'store_sales' LIMIT 100) t
SELECT count(DISTINCT ss_customer_sk) AS customers, avg(ss_quantity) AS mean FROM 'store_sales' ss JOIN 'date_dim' d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_year = 2001
SELECT i_brand, count(*) AS n FROM 'store_sales' ss LEFT JOIN 'item' i ON ss.ss_item_sk = i.i_item_sk AND i.i_category = 'Books' GROUP BY i_brand
SELECT d_moy, sales, rank() OVER (ORDER BY sales DESC) AS r FROM (SELECT d_moy, count(*) AS sales FROM 'store_sales' ss JOIN 'date_dim' d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_year = 1999 GROUP BY d_moy) t
SELECT 'sales' AS kind, count(*) AS n FROM 'store_sales' UNION ALL SELECT 'returns', count(*) FROM 'store_returns'
SELECT count(*) AS n, sum(sr_return_amt) AS amount FROM 'store_returns' sr JOIN 'store_sales' ss ON sr.sr_ticket_number = ss.ss_ticket_number AND sr.sr_item_sk = ss.ss_item_sk
SELECT ss_customer_sk, sum(ss_net_profit) AS paid FROM 'store_sales' WHERE ss_customer_sk IS NOT NULL GROUP BY ss_customer_sk HAVING sum(ss_net_profit) > 200
SELECT ss_store_sk IS NULL AS no_store, bool_or(ss_quantity > 99) AS big, bool_and(ss_quantity > 0) AS positive, count(ss_store_sk) AS stores FROM 'store_sales' GROUP BY 1
SELECT d_year, count(ss_ticket_number) AS sales, count(*) AS n FROM 'store_sales' ss RIGHT JOIN 'date_dim' d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_moy = 2 AND d.d_dom = 3 GROUP BY d_year
SELECT count(*) AS n, count(sr_ticket_number) AS returns, count(ss_ticket_number) AS sales FROM (SELECT * FROM 'store_returns' WHERE sr_return_quantity > 20) sr FULL JOIN (SELECT * FROM 'store_sales' WHERE ss_quantity < 5) ss ON sr.sr_ticket_number = ss.ss_ticket_number AND sr.sr_item_sk = ss.ss_item_sk
SELECT c_preferred_cust_flag, count(*) AS n, count(c_customer_sk) AS known FROM 'store_sales' ss LEFT JOIN 'customer' c ON ss.ss_customer_sk = c.c_customer_sk GROUP BY c_preferred_cust_flag
SELECT i.i_brand, count(*) AS n FROM 'store_sales' ss JOIN 'item' i ON ss.ss_item_sk = i.i_item_sk JOIN (SELECT DISTINCT i_brand AS brand FROM 'item' WHERE i_category = 'Music') m ON i.i_brand = m.brand GROUP BY i.i_brand
SELECT ss_customer_sk, count(*) AS n FROM 'store_sales' ss WHERE ss_customer_sk NOT IN (SELECT c_customer_sk FROM 'customer' WHERE c_birth_year > 1950) GROUP BY ss_customer_sk HAVING count(*) > 3
SELECT old, none, count(*) AS n FROM (SELECT ss_customer_sk IN (SELECT CASE WHEN c_birth_year < 1935 THEN NULL ELSE c_customer_sk END FROM 'customer' WHERE c_birth_year < 1945) AS old, ss_customer_sk IN (SELECT c_customer_sk FROM 'customer' WHERE c_birth_year = 1800) AS none FROM 'store_sales') t GROUP BY old, none
SELECT d_year, d_moy, count(*) AS n, sum(ss_quantity) AS quantity, grouping(d_moy) AS g FROM 'store_sales' ss JOIN 'date_dim' d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_year >= 2000 GROUP BY GROUPING SETS ((d_year), (d_year, d_moy))
SELECT ss_store_sk, avg(ss_quantity) AS quantity, avg(ss_sales_price) AS price, avg(CASE WHEN ss_store_sk IS NULL THEN NULL ELSE ss_net_profit END) AS profit, count(*) AS n FROM 'store_sales' GROUP BY ss_store_sk
SELECT d_moy, count(DISTINCT ss_item_sk) AS items, sum(DISTINCT ss_item_sk) AS item_sum, avg(DISTINCT ss_item_sk) AS item_mean FROM 'store_sales' ss JOIN 'date_dim' d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_year = 2000 GROUP BY d_moy
SELECT count(DISTINCT ss_customer_sk) AS customers FROM 'store_sales' WHERE ss_quantity > 1000
SELECT ss_customer_sk % 7 AS k, count(DISTINCT ss_item_sk % 13) AS d FROM 'store_sales' GROUP BY 1
SELECT i_category, sum(ss_quantity) AS quantity, avg(ss_quantity) AS mean, count(*) AS n FROM 'store_sales' ss JOIN 'item' i ON ss.ss_item_sk = i.i_item_sk GROUP BY i_category
SELECT count(*) AS n, sum(c_birth_year) AS years FROM 'store_sales' ss JOIN 'customer' c ON ss.ss_customer_sk = c.c_customer_sk WHERE c.c_birth_year > 1950 AND ss.ss_quantity < 30

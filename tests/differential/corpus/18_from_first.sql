-- DuckDB's FROM-first queries: without a select list (SELECT *), and with one, which may be
-- followed by every clause of a query.

FROM store WHERE s_store_sk <= 3;

FROM store SELECT s_store_sk, s_store_name WHERE s_store_sk <= 3;

FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk
SELECT d.d_moy, count(*), sum(ss.ss_quantity)
WHERE d.d_year = 2000
GROUP BY d.d_moy
HAVING count(*) > 10;

-- ordered
FROM item SELECT DISTINCT i_category ORDER BY i_category LIMIT 3;

FROM (SELECT i_item_sk, i_category FROM item) t SELECT i_category, count(*) GROUP BY ALL;

-- ordered
FROM store_sales SELECT ss_store_sk, sum(ss_net_profit) AS paid GROUP BY ss_store_sk ORDER BY paid DESC, ss_store_sk LIMIT 5;

SELECT count(*), max(x) FROM (FROM store_sales SELECT ss_quantity AS x WHERE ss_store_sk = 1);

WITH s AS (FROM store SELECT s_store_sk, s_store_name) SELECT s_store_name, (FROM store_sales ss SELECT count(*) WHERE ss.ss_store_sk = s.s_store_sk) FROM s;

-- Shapes dynamic filters reach through (issue 15): UNION branches pruned each on its own key,
-- semi joins whose subquery side is the fact (run as inner joins on its distinct keys), keys
-- computed by casts and arithmetic on the way, with NULL keys (store_sales and store_returns
-- hold NULL dates) and keys no dimension row has.

SELECT count(*), sum(q) FROM (SELECT ss_sold_date_sk AS k, ss_quantity AS q FROM store_sales UNION ALL SELECT sr_returned_date_sk, sr_return_quantity FROM store_returns) x JOIN date_dim d ON x.k = d.d_date_sk WHERE d_year = 2001 AND d_moy = 7;

SELECT d_dom, count(*) FROM (SELECT ss_sold_date_sk AS k FROM store_sales UNION SELECT sr_returned_date_sk FROM store_returns) x JOIN date_dim d ON x.k = d.d_date_sk WHERE d_year = 2000 AND d_moy = 2 GROUP BY d_dom;

SELECT count(*) FROM (SELECT ss_sold_date_sk AS k FROM store_sales UNION ALL SELECT sr_returned_date_sk FROM store_returns UNION ALL SELECT ss_sold_date_sk FROM store_sales WHERE ss_quantity > 50) x WHERE x.k IN (SELECT d_date_sk FROM date_dim WHERE d_year = 2001 AND d_moy = 7);

SELECT count(*) FROM (SELECT ss_sold_date_sk AS k FROM store_sales INTERSECT SELECT sr_returned_date_sk FROM store_returns) x JOIN date_dim d ON x.k = d.d_date_sk WHERE d_year = 1999;

SELECT count(*) FROM (SELECT ss_sold_date_sk AS k FROM store_sales EXCEPT SELECT sr_returned_date_sk FROM store_returns) x JOIN date_dim d ON x.k = d.d_date_sk WHERE d_year = 1999 AND d_moy < 3;

SELECT count(*), count(x.k) FROM date_dim d LEFT JOIN (SELECT ss_sold_date_sk AS k FROM store_sales UNION ALL SELECT sr_returned_date_sk FROM store_returns) x ON x.k = d.d_date_sk WHERE d_year = 2002 AND d_moy = 12;

SELECT count(*), count(d.d_date_sk) FROM (SELECT ss_sold_date_sk AS k FROM store_sales UNION ALL SELECT sr_returned_date_sk FROM store_returns) x LEFT JOIN date_dim d ON x.k = d.d_date_sk AND d_year = 2001;

SELECT count(*) FROM (SELECT ss_item_sk AS i FROM store_sales UNION ALL SELECT sr_item_sk FROM store_returns) x JOIN item ON x.i = i_item_sk WHERE i_category = 'Music';

SELECT count(*) FROM (SELECT CAST(ss_sold_date_sk AS INTEGER) AS k FROM store_sales UNION ALL SELECT sr_returned_date_sk FROM store_returns) x JOIN date_dim d ON x.k = d.d_date_sk WHERE d_year = 2001 AND d_moy = 7;

SELECT d_date FROM date_dim d WHERE d_year = 2000 AND d_moy = 2 AND d_date_sk IN (SELECT ss_sold_date_sk FROM store_sales WHERE ss_quantity = 100);

SELECT count(*) FROM date_dim d WHERE d_year = 2000 AND EXISTS (SELECT 1 FROM store_sales ss WHERE ss.ss_sold_date_sk = d.d_date_sk AND ss_quantity > 95);

SELECT d_moy, count(*) FROM date_dim d WHERE d_year = 2001 AND d_date_sk IN (SELECT k FROM (SELECT ss_sold_date_sk AS k FROM store_sales UNION ALL SELECT sr_returned_date_sk FROM store_returns) u) GROUP BY d_moy;

SELECT count(*) FROM item WHERE i_category = 'Books' AND i_item_sk IN (SELECT ss_item_sk FROM store_sales WHERE ss_quantity < 5);

SELECT count(*) FROM item i WHERE i_category = 'Books' AND EXISTS (SELECT 1 FROM store_returns sr WHERE sr.sr_item_sk = i.i_item_sk AND sr.sr_customer_sk IS NOT NULL);

SELECT count(*) FROM (SELECT ss_sold_date_sk + 1 AS k FROM store_sales) x JOIN date_dim d ON x.k = d.d_date_sk + 1 WHERE d_year = 2001 AND d_moy = 7;

SELECT count(*) FROM (SELECT ss_sold_date_sk - 1 AS k FROM store_sales) x JOIN date_dim d ON x.k + 1 = d.d_date_sk WHERE d_year = 1998 AND d_moy = 3;

SELECT count(*), sum(c) FROM (SELECT ss_sold_date_sk + 1 AS k, count(*) AS c FROM store_sales GROUP BY ss_sold_date_sk + 1) x JOIN date_dim d ON x.k = d.d_date_sk + 1 WHERE d_year = 2001;

SELECT count(*) FROM (SELECT ss_item_sk + 1 AS i FROM store_sales) x JOIN item ON x.i = i_item_sk + 1 WHERE i_category = 'Music';

SELECT count(*) FROM store_sales ss JOIN item ON ss.ss_item_sk - 3 = i_item_sk WHERE i_category = 'Music';

SELECT count(*) FROM store_sales ss JOIN (VALUES (CAST(5 AS BIGINT)), (CAST(4294967301 AS BIGINT))) v(k) ON CAST(ss.ss_quantity AS BIGINT) = v.k;

SELECT count(*) FROM (SELECT ss_item_sk * 2 AS i FROM store_sales) x JOIN item ON x.i = i_item_sk WHERE i_category = 'Music';

-- Keys the scan computes per row (not mapped back): monotone ones also test files and row
-- groups through their bounds' images (ticket * 10, 10^9 - ticket, a DECIMAL), text rows only;
-- a batch the computation fails on passes untested (quantity * 10^8 overflows INTEGER past 21).
SELECT count(*), sum(ss.ss_quantity) FROM store_sales ss JOIN (SELECT sr_ticket_number * 10 AS t FROM store_returns WHERE sr_returned_date_sk BETWEEN 2451000 AND 2451030) r ON ss.ss_ticket_number * 10 = r.t;

SELECT count(*) FROM store_sales ss JOIN (SELECT 1000000000 - sr_ticket_number AS t FROM store_returns WHERE sr_returned_date_sk BETWEEN 2451000 AND 2451030) r ON 1000000000 - ss.ss_ticket_number = r.t;

SELECT count(*) FROM store_sales ss JOIN item i ON ss.ss_sales_price * 2 = i.i_current_price WHERE i.i_category = 'Music';

SELECT count(*) FROM store_sales ss JOIN item ON CAST(ss.ss_item_sk * 2 AS VARCHAR) = CAST(i_item_sk * 2 AS VARCHAR) WHERE i_category = 'Music' AND i_current_price < 5;

SELECT count(*) FROM (SELECT ss.ss_quantity AS q FROM store_sales ss JOIN item i ON ss.ss_item_sk = i.i_item_sk WHERE ss.ss_quantity + 0 * i.i_current_price <= 21) x JOIN (VALUES (100000000)) v(k) ON x.q * 100000000 = v.k;

-- An integer key's text, mapped back to the integers whose canonical text it is.
SELECT count(*) FROM store_sales ss JOIN (VALUES ('7'), ('007'), ('+7'), ('x'), ('4294967303')) v(k) ON CAST(ss.ss_quantity AS VARCHAR) = v.k;

SELECT count(*) FROM store_returns sr JOIN date_dim d ON sr.sr_returned_date_sk = d.d_date_sk JOIN store_sales ss ON CAST(ss.ss_ticket_number AS VARCHAR) = CAST(sr.sr_ticket_number AS VARCHAR) WHERE d.d_year = 2001 AND d.d_moy = 7;

-- NOT IN with the fact inside, kept by a WHERE (a right anti join and two one-row checks): a
-- NULL in the subquery (the fact's NULL dates), none, an empty subquery, NULL outer keys.
SELECT count(*) FROM date_dim d WHERE d_year = 2000 AND d_moy = 2 AND d_date_sk NOT IN (SELECT ss_sold_date_sk FROM store_sales WHERE ss_quantity > 90);

SELECT count(*) FROM date_dim d WHERE d_year = 2000 AND d_moy = 2 AND d_date_sk NOT IN (SELECT ss_sold_date_sk FROM store_sales WHERE ss_quantity > 90 AND ss_sold_date_sk IS NOT NULL);

SELECT count(*), count(k) FROM (SELECT d_date_sk AS k FROM date_dim WHERE d_year = 2000 AND d_moy = 2 UNION ALL SELECT NULL) v WHERE k NOT IN (SELECT ss_sold_date_sk FROM store_sales WHERE ss_quantity > 90 AND ss_sold_date_sk IS NOT NULL);

SELECT count(*), count(k) FROM (SELECT d_date_sk AS k FROM date_dim WHERE d_year = 2000 AND d_moy = 2 UNION ALL SELECT NULL) v WHERE k NOT IN (SELECT ss_sold_date_sk FROM store_sales WHERE ss_quantity > 1000);

SELECT d_moy, count(*) FROM date_dim d WHERE d_year = 2001 AND d_date_sk NOT IN (SELECT sr_returned_date_sk FROM store_returns WHERE sr_returned_date_sk IS NOT NULL AND sr_return_quantity > 50) GROUP BY d_moy;

SELECT count(*) FROM item WHERE i_category = 'Books' AND i_item_sk NOT IN (SELECT ss_item_sk FROM store_sales WHERE ss_quantity < 5);

-- NOT IN with the fact outside, kept by a WHERE (an anti join pruning by its complement, two
-- one-row checks): none, a NULL in the subquery, an empty subquery (NULL dates kept).
SELECT count(*), sum(ss_quantity) FROM store_sales WHERE ss_sold_date_sk NOT IN (SELECT d_date_sk FROM date_dim WHERE d_year < 2002);

SELECT count(*) FROM store_sales WHERE ss_quantity > 50 AND ss_sold_date_sk NOT IN (SELECT d_date_sk FROM date_dim WHERE d_year < 2002 UNION ALL SELECT NULL);

SELECT count(*), count(ss_sold_date_sk) FROM store_sales WHERE ss_sold_date_sk NOT IN (SELECT d_date_sk FROM date_dim WHERE d_year < 1800);

SELECT count(*), count(sr_returned_date_sk) FROM store_returns WHERE sr_returned_date_sk NOT IN (SELECT d_date_sk FROM date_dim WHERE d_year = 2001 AND d_moy > 1) AND sr_return_quantity < 10;

-- Outer joins whose NULL-extended rows the WHERE rejects (made inner, the fact pruned), and
-- conditions accepting NULLs (kept outer).
SELECT count(*), sum(ss_quantity) FROM store_sales ss LEFT JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d_year = 2001 AND d_moy = 7;

SELECT count(*), sum(ss_quantity) FROM date_dim d RIGHT JOIN store_sales ss ON ss.ss_sold_date_sk = d.d_date_sk WHERE d_year = 2001 AND d_moy = 7;

SELECT count(*), count(ss_quantity), count(DISTINCT d_date_sk) FROM store_sales ss FULL JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d_year = 2001 AND d_moy = 7;

SELECT count(*), count(ss_quantity), count(d_date_sk) FROM store_sales ss FULL JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk WHERE ss_quantity > 95;

SELECT count(*) FROM store_sales ss LEFT JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk WHERE (d_year = 2001 AND d_moy = 7) OR (d_year = 2000 AND d_moy = 1);

SELECT count(*), count(i_item_sk) FROM (SELECT ss_item_sk, d_year + 0 AS y, d_moy AS m FROM store_sales ss LEFT JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk) x LEFT JOIN item ON x.ss_item_sk = i_item_sk AND i_category = 'Music' WHERE y = 2001 AND m = 7;

SELECT count(*) FROM store_sales ss LEFT JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d_year IS NULL OR (d_year = 2001 AND d_moy = 7);

SELECT count(*) FROM store_sales ss LEFT JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk WHERE COALESCE(d_year, 2001) = 2001 AND COALESCE(d_moy, 7) = 7;

SELECT count(*) FROM store_sales ss LEFT JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk WHERE (d_year = 2001 AND d_moy = 7) OR ss_quantity > 99;

SELECT count(*) FROM store_sales ss LEFT JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk WHERE CASE WHEN d_year IS NULL THEN true ELSE d_year = 2001 END;

SELECT count(*) FROM (SELECT d_year FROM store_sales ss LEFT JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk ORDER BY ss_sold_date_sk NULLS FIRST, ss_ticket_number, ss_item_sk LIMIT 100) x WHERE d_year = 1998;

SELECT count(*), count(sr_ticket_number) FROM store_sales ss LEFT JOIN store_returns sr ON ss.ss_ticket_number = sr.sr_ticket_number AND ss.ss_item_sk = sr.sr_item_sk LEFT JOIN date_dim d ON sr.sr_returned_date_sk = d.d_date_sk WHERE d_year = 2001;

-- Calendar keys computed from a date (monotone: files and row groups pruned by their bounds).
SELECT count(*) FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk JOIN (VALUES (2001)) v(y) ON year(d.d_date) = v.y;

SELECT d_moy, count(*) FROM date_dim d JOIN (VALUES (TIMESTAMP '2000-02-01 00:00:00'), (TIMESTAMP '2001-07-01 00:00:00')) v(m) ON date_trunc('month', d.d_date) = v.m GROUP BY d_moy;

SELECT count(*) FROM date_dim d JOIN (VALUES (2001, 200)) v(y, c) ON EXTRACT(year FROM d.d_date) = v.y AND decade(d.d_date) = v.c;

SELECT count(*), sum(ss_quantity) FROM store_sales WHERE ss_sold_date_sk IN (SELECT d_date_sk FROM date_dim WHERE d_year = 2001 AND d_moy = 7) OR ss_sold_date_sk IS NULL;

SELECT count(*) FROM store_sales WHERE ss_sold_date_sk IS NULL OR ss_sold_date_sk IN (SELECT sr_returned_date_sk FROM store_returns WHERE sr_return_quantity > 90);

SELECT count(*) FROM store_sales WHERE ss_sold_date_sk + 1 IN (SELECT d_date_sk FROM date_dim WHERE d_moy = 2) OR ss_sold_date_sk + 1 IS NULL OR ss_quantity > 95;

SELECT count(*) FROM store_sales WHERE ss_sold_date_sk IN (SELECT d_date_sk FROM date_dim WHERE d_year = 2001 AND d_moy = 7) OR ss_sold_date_sk IS NULL OR ss_sold_date_sk IS NULL;

SELECT count(*), sum(ss_quantity) FROM store_sales WHERE ss_sold_date_sk BETWEEN (SELECT min(d_date_sk) FROM date_dim WHERE d_year = 2001 AND d_moy = 7) AND (SELECT max(d_date_sk) FROM date_dim WHERE d_year = 2001 AND d_moy = 7);

SELECT count(*) FROM store_sales WHERE ss_sold_date_sk > (SELECT max(d_date_sk) FROM date_dim WHERE d_year = 2002 AND d_moy = 12);

SELECT count(*) FROM store_sales WHERE ss_sold_date_sk < (SELECT min(d_date_sk) FROM date_dim WHERE d_year = 1900);

SELECT count(*), count(DISTINCT d.d_date_sk) FROM store_sales s JOIN (SELECT d_date_sk FROM date_dim WHERE d_year = 2001 AND d_dom = 1) d ON s.ss_sold_date_sk >= d.d_date_sk AND s.ss_sold_date_sk < d.d_date_sk + 3;

SELECT count(*) FROM store_sales WHERE (SELECT min(d_date_sk) FROM date_dim WHERE d_year = 2000 AND d_moy = 2) <= ss_sold_date_sk AND (SELECT max(d_date_sk) FROM date_dim WHERE d_year = 2000 AND d_moy = 2) > ss_sold_date_sk;

SELECT count(*), count(d.d_date_sk) FROM store_sales s LEFT JOIN (SELECT d_date_sk FROM date_dim WHERE d_year = 2002 AND d_moy = 12 AND d_dom = 31) d ON s.ss_sold_date_sk >= d.d_date_sk;


-- A materialized CTE whose references are each joined to a filtered dimension: its scan is
-- pruned by the OR of the references' filters (tests/sql/dpp/cte.test).
WITH s AS MATERIALIZED (SELECT ss_sold_date_sk k, ss_net_profit p FROM store_sales) SELECT count(*), sum(p) FROM (SELECT p FROM s JOIN date_dim d1 ON s.k = d1.d_date_sk AND d1.d_year = 2001 AND d1.d_moy = 7 UNION ALL SELECT p FROM s JOIN date_dim d2 ON s.k = d2.d_date_sk AND d2.d_year = 2001 AND d2.d_moy = 8) x;

WITH s AS (SELECT ss_sold_date_sk k, count(*) c, sum(ss_net_profit) p FROM store_sales GROUP BY ss_sold_date_sk) SELECT count(*), sum(c), sum(p) FROM (SELECT c, p FROM s JOIN date_dim d1 ON s.k = d1.d_date_sk WHERE d1.d_year = 2001 AND d1.d_moy = 7 UNION ALL SELECT c, p FROM s JOIN date_dim d2 ON s.k = d2.d_date_sk WHERE d2.d_year = 2001 AND d2.d_moy = 8) x;

WITH s AS (SELECT ss_sold_date_sk k, count(*) c FROM store_sales GROUP BY ss_sold_date_sk) SELECT count(*), sum(c) FROM (SELECT k, c FROM s a UNION ALL SELECT k, c + 1 FROM s b) x JOIN date_dim d ON x.k = d.d_date_sk WHERE d.d_year = 2001 AND d.d_moy = 7;

WITH s AS (SELECT ss_sold_date_sk k, count(*) c FROM store_sales GROUP BY ss_sold_date_sk) SELECT count(*), sum(a.c + b.c) FROM s a JOIN s b ON a.k = b.k JOIN date_dim d ON a.k = d.d_date_sk WHERE d.d_year = 2001 AND d.d_moy = 7;

WITH s AS MATERIALIZED (SELECT ss_sold_date_sk k FROM store_sales) SELECT (SELECT count(*) FROM s JOIN date_dim d ON s.k = d.d_date_sk WHERE d.d_year = 2001 AND d.d_moy = 7), (SELECT count(*) FROM s);

WITH s AS MATERIALIZED (SELECT ss_sold_date_sk k FROM store_sales) SELECT (SELECT count(*) FROM s JOIN date_dim d ON s.k = d.d_date_sk WHERE d.d_year = 2001 AND d.d_moy = 7), (SELECT count(d.d_date_sk) FROM s LEFT JOIN (SELECT d_date_sk FROM date_dim WHERE d_year = 2001 AND d_moy = 8) d ON s.k = d.d_date_sk);

WITH s AS MATERIALIZED (SELECT ss_sold_date_sk k, ss_quantity q FROM store_sales) SELECT count(*) FROM s a WHERE a.q > 90 AND a.k IN (SELECT b.k FROM s b JOIN date_dim d ON b.k = d.d_date_sk WHERE d.d_year = 2001 AND d.d_moy = 7);

WITH s AS MATERIALIZED (SELECT ss_sold_date_sk k FROM store_sales) SELECT (SELECT count(*) FROM s JOIN date_dim d ON s.k = d.d_date_sk WHERE d.d_year = 2001 AND d.d_moy = 7), (SELECT count(*) FROM s WHERE NOT EXISTS (SELECT 1 FROM date_dim d WHERE d.d_date_sk = s.k AND d.d_year < 2002));

WITH s AS MATERIALIZED (SELECT ss_sold_date_sk k FROM store_sales) SELECT (SELECT count(*) FROM s WHERE k BETWEEN (SELECT min(d_date_sk) FROM date_dim WHERE d_year = 2001 AND d_moy = 7) AND (SELECT max(d_date_sk) FROM date_dim WHERE d_year = 2001 AND d_moy = 7)), (SELECT count(*) FROM s WHERE k BETWEEN (SELECT min(d_date_sk) FROM date_dim WHERE d_year = 2001 AND d_moy = 8) AND (SELECT max(d_date_sk) FROM date_dim WHERE d_year = 2001 AND d_moy = 8));

WITH r AS (SELECT sr_returned_date_sk k, sr_item_sk item, sum(sr_return_quantity) q FROM store_returns GROUP BY sr_returned_date_sk, sr_item_sk) SELECT count(*), sum(q) FROM (SELECT r.q FROM r JOIN date_dim d ON r.k = d.d_date_sk WHERE d.d_year = 2000 AND d.d_qoy = 1 UNION ALL SELECT r.q FROM r JOIN item i ON r.item = i.i_item_sk JOIN date_dim d ON r.k = d.d_date_sk WHERE d.d_year = 2002 AND i.i_category = 'Music') x;

-- WITH RECURSIVE: counting, walks over a graph built from the star schema (UNION ends cycles),
-- joins of the working table with base tables.

WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 100) SELECT count(*), sum(n) FROM t;

WITH RECURSIVE chain(k, depth) AS (
  SELECT i_item_sk, 0 FROM item WHERE i_item_sk <= 5
  UNION ALL SELECT k + 7, depth + 1 FROM chain WHERE depth < 6)
SELECT depth, count(*), sum(k) FROM chain GROUP BY depth;

-- Items linked to the item 7 positions on, modulo the item count: a cycle, ended by UNION.
WITH RECURSIVE reach(sk) AS (
  SELECT 1 UNION SELECT i.i_item_sk FROM reach r JOIN item i ON i.i_item_sk = (r.sk * 3) % 50 + 1)
SELECT count(*), min(sk), max(sk) FROM reach;

WITH RECURSIVE days(d, n) AS (
  SELECT min(d_date), 0 FROM date_dim WHERE d_year = 2000
  UNION ALL SELECT d + 1, n + 1 FROM days WHERE n < 30)
SELECT count(*), min(d), max(d) FROM days;

WITH RECURSIVE r(a, b) AS (SELECT 1, 1 UNION SELECT b, (a + b) % 11 FROM r) SELECT a, b FROM r;

WITH RECURSIVE stores(sk, total) AS (
  SELECT s_store_sk, 0::BIGINT FROM store WHERE s_store_sk = 1
  UNION ALL SELECT st.s_store_sk, s.total + st.s_store_sk FROM stores s JOIN store st ON st.s_store_sk = s.sk + 1)
SELECT sk, total FROM stores;

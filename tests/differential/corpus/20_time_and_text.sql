-- Values as text: TIMESTAMPs without trailing zeros in their fractions, TIME values (literals,
-- casts from TIMESTAMP and VARCHAR, arithmetic, extract), BLOBs with DuckDB's \xHH escapes.

SELECT d_date, CAST(d_date AS TIMESTAMP) + INTERVAL '90 minutes', CAST(d_date AS TIMESTAMP) + INTERVAL '1.5 seconds', CAST(d_date AS TIMESTAMP) + to_microseconds(d_date_sk % 1000) FROM date_dim WHERE d_date_sk % 397 = 0;

SELECT d_date_sk, CAST(CAST(d_date AS TIMESTAMP) + to_seconds(d_date_sk % 86400) AS TIME) AS t FROM date_dim WHERE d_date_sk % 211 = 0;

-- ordered
SELECT CAST(CAST(d_date AS TIMESTAMP) + to_minutes(d_date_sk % 1440) AS TIME) AS t, count(*) FROM date_dim WHERE d_year = 2000 GROUP BY 1 ORDER BY 1 LIMIT 20;

SELECT TIME '23:00:00' + INTERVAL '2 hours', TIME '01:00:00' - INTERVAL '2 hours', TIME '01:00:00' + INTERVAL '1 day 5 minutes', DATE '2024-01-02' + TIME '03:04:05.5', CAST('2024-01-02 03:04:05.25' AS TIME), CAST('1:2:3' AS TIME), TIME '24:00:00';

SELECT extract(hour FROM t), extract(minute FROM t), extract(second FROM t), extract(millisecond FROM t), extract(microsecond FROM t), hour(t), minute(t), second(t) FROM (SELECT CAST(CAST(d_date AS TIMESTAMP) + to_seconds(d_date_sk % 86400 + 0.25) AS TIME) AS t FROM date_dim WHERE d_date_sk % 503 = 0) x;

SELECT count(*) FROM date_dim WHERE CAST(CAST(d_date AS TIMESTAMP) + to_seconds(d_date_sk % 86400) AS TIME) BETWEEN TIME '06:00' AND TIME '18:00';

SELECT CAST(CAST(i_brand AS BLOB) AS VARCHAR), CAST('A\xFF\x00\x27' AS BLOB), CAST(CAST('\x5C\x22 ~' AS BLOB) AS VARCHAR) FROM item WHERE i_item_sk < 5;

-- format ({fmt}'s syntax) and printf (C's), as DuckDB.
SELECT format('{}-{:.2f}-{:>12}', i_item_sk, i_current_price, i_category), printf('%d|%5.1f|%s', i_item_sk, i_current_price, i_brand) FROM item WHERE i_item_sk < 20;

-- ordered
SELECT format('{} {}', d_year, d_moy), count(*) FROM date_dim WHERE d_year = 2000 GROUP BY 1 ORDER BY 1;

-- USING SAMPLE: which rows is random, how many is not.
SELECT count(*) FROM store_sales USING SAMPLE 100 ROWS;

SELECT count(*) FROM (SELECT * FROM item USING SAMPLE 5) s;

SELECT count(*) FROM customer USING SAMPLE 100%;

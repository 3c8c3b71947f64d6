-- PostgreSQL's numeric typing where DuckDB agrees (integer division written `//`, DuckDB's `/`
-- being floating point; a DECIMAL quotient against DuckDB's DOUBLE within the tolerance), and
-- the regular expression, digest and date functions.

SELECT ss_store_sk, sum(ss_quantity), sum(ss_quantity) // count(*), sum(ss_sales_price) / count(*), avg(ss_quantity) FROM store_sales GROUP BY 1;

SELECT ss_quantity // 7, ss_quantity % 7, count(*) FROM store_sales WHERE ss_store_sk = 1 GROUP BY 1, 2;

SELECT sum(ss_sales_price * ss_quantity) / sum(ss_quantity), sum(ss_net_profit) / 3 FROM store_sales WHERE ss_quantity > 0;

SELECT i_category, sum(i_current_price) / count(i_current_price), 7 // count(*) FROM item GROUP BY 1;

SELECT ss_sales_price / 2.5, ss_quantity * 1.5, ss_quantity ^ 2, count(*) FROM store_sales WHERE ss_sold_date_sk = 2451300 GROUP BY 1, 2, 3;

SELECT regexp_extract(i_brand, '([a-z]+) #([0-9]+)', 2) AS n, count(*) FROM item GROUP BY 1;

SELECT regexp_replace(i_category, '[aeiou]', '_', 'g'), regexp_replace(i_class, '([0-9]+)', '<\1>'), count(*) FROM item GROUP BY 1, 2;

SELECT count(*) FROM item WHERE regexp_matches(i_brand, '#1[0-9]$') OR regexp_matches(i_class, ' 7');

SELECT count(*) FROM customer WHERE regexp_matches(c_first_name, '^j', 'i');

SELECT md5(i_category), sha256(i_category), count(*) FROM item GROUP BY 1, 2;

SELECT strftime(d_date, '%Y/%m/%d %a %b %j'), dayname(d_date), monthname(d_date) FROM date_dim WHERE d_date_sk BETWEEN 2451540 AND 2451560;

SELECT date_diff('day', DATE '1998-01-01', d_date), date_diff('month', DATE '1998-01-31', d_date), date_diff('week', DATE '1998-01-01', d_date), date_diff('year', DATE '1998-07-01', d_date), date_diff('quarter', DATE '1998-03-31', d_date) FROM date_dim WHERE d_dom = 1 AND d_year = 2000;

SELECT count(*) FROM date_dim WHERE strptime(strftime(d_date, '%d.%m.%Y'), '%d.%m.%Y') = CAST(d_date AS TIMESTAMP);

SELECT dayname(d_date), count(*) FROM date_dim GROUP BY 1;

-- REAL (DuckDB's FLOAT): casts round to float, REAL arithmetic stays REAL, sums are DOUBLE.
SELECT CAST(ss_sales_price AS REAL), CAST(ss_quantity AS REAL) * CAST(1.5 AS REAL), CAST(ss_quantity AS REAL) / CAST(7 AS REAL), count(*) FROM store_sales WHERE ss_sold_date_sk = 2451300 GROUP BY 1, 2, 3;

SELECT ss_store_sk, sum(CAST(ss_sales_price AS REAL)), min(CAST(ss_net_profit AS REAL)), max(CAST(ss_net_profit AS REAL)) FROM store_sales GROUP BY 1;

SELECT TRY_CAST(c_first_name AS INTEGER), TRY_CAST(CAST(c_birth_year AS VARCHAR) AS INTEGER) FROM customer WHERE c_customer_sk <= 20;
SELECT ss_quantity + 7 // 2, ss_quantity - ss_store_sk // 2 * 3, (ss_quantity + 7) // 2, count(*) FROM store_sales WHERE ss_store_sk = 1 GROUP BY 1, 2, 3;

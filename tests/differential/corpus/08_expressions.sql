-- CASE, COALESCE, NULLIF, casts, date and string functions, decimal arithmetic.

SELECT CASE WHEN ss_quantity < 10 THEN 'few' WHEN ss_quantity < 50 THEN 'some' ELSE 'many' END AS size, count(*)
FROM store_sales GROUP BY 1;

SELECT CASE ss_store_sk WHEN 1 THEN 'one' WHEN 2 THEN 'two' END AS store, count(*) FROM store_sales GROUP BY 1;

SELECT COALESCE(ss_customer_sk, ss_store_sk, -1) AS k, count(*) FROM store_sales WHERE ss_sold_date_sk < 2450900 GROUP BY 1;

SELECT COALESCE(c_preferred_cust_flag, 'unknown'), count(*) FROM customer GROUP BY 1;

SELECT NULLIF(ss_store_sk, 1) AS s, count(*) FROM store_sales GROUP BY 1;

SELECT sum(NULLIF(ss_quantity, 100)), count(NULLIF(ss_quantity, 100)) FROM store_sales;

SELECT greatest(ss_quantity, 50), least(ss_sales_price, 20.00), count(*) FROM store_sales WHERE ss_sold_date_sk = 2451545 GROUP BY 1, 2;

SELECT CAST(ss_sales_price AS INTEGER) AS whole, count(*) FROM store_sales WHERE ss_quantity = 3 GROUP BY 1;

SELECT CAST(ss_quantity AS DECIMAL(10,2)) / 4 AS x, count(*) FROM store_sales WHERE ss_store_sk = 2 AND ss_quantity < 8 GROUP BY 1;

SELECT CAST(ss_sales_price AS DOUBLE) * 1.5 AS x FROM store_sales WHERE ss_sold_date_sk = 2452000;

SELECT CAST(ss_sold_date_sk AS VARCHAR) AS k, count(*) FROM store_sales WHERE ss_sold_date_sk < 2450820 GROUP BY 1;

SELECT CAST(i_current_price AS VARCHAR), CAST(i_item_sk AS VARCHAR) || '-' || i_category FROM item WHERE i_item_sk < 20;

SELECT CAST('2001-02-03' AS DATE) + 30, CAST('12.345' AS DECIMAL(6,3)), CAST(' 42 ' AS INTEGER), CAST(2.5 AS INTEGER), CAST(-2.5 AS INTEGER);

SELECT CAST(ss_net_profit AS DECIMAL(12,1)) AS p, count(*) FROM store_sales WHERE ss_quantity = 99 GROUP BY 1;

SELECT ss_sales_price * ss_quantity AS total FROM store_sales WHERE ss_sold_date_sk = 2451179;

SELECT ss_sales_price - ss_net_profit AS cost, ss_net_profit + 1.005 AS p1 FROM store_sales WHERE ss_sold_date_sk = 2451180;

SELECT sum(ss_sales_price * ss_quantity * 1.07), sum(ss_net_profit * -1) FROM store_sales;

SELECT i_current_price * 100, i_current_price % 3, -i_current_price, abs(-i_current_price) FROM item WHERE i_item_sk <= 25;

SELECT round(i_current_price, 1), round(i_current_price), floor(i_current_price), ceil(i_current_price) FROM item WHERE i_item_sk <= 25;

SELECT ca_gmt_offset * 2, ca_gmt_offset + 0.5, sign(ca_gmt_offset) FROM customer_address WHERE ca_address_sk <= 20;

SELECT ss_quantity % 7, ss_quantity * ss_quantity - 3 FROM store_sales WHERE ss_sold_date_sk = 2451181;

SELECT round(avg(ss_sales_price), 2), round(sum(ss_sales_price) / count(*), 4) FROM store_sales WHERE ss_store_sk = 3;

SELECT EXTRACT(year FROM d_date), EXTRACT(month FROM d_date), EXTRACT(day FROM d_date), EXTRACT(dow FROM d_date), EXTRACT(doy FROM d_date)
FROM date_dim WHERE d_date_sk % 97 = 0;

SELECT EXTRACT(quarter FROM d_date) = d_qoy, count(*) FROM date_dim GROUP BY 1;

SELECT EXTRACT(isodow FROM d_date), EXTRACT(week FROM d_date), EXTRACT(isoyear FROM d_date) FROM date_dim WHERE d_dom IN (1, 31) AND d_moy IN (1, 12);

SELECT date_part('year', d_date), date_part('dow', d_date) FROM date_dim WHERE d_date_sk % 211 = 0;

SELECT CAST(date_trunc('month', d_date) AS DATE), count(*) FROM date_dim WHERE d_year = 2000 GROUP BY 1;

SELECT CAST(date_trunc('year', d_date) AS DATE), CAST(date_trunc('quarter', d_date) AS DATE) FROM date_dim WHERE d_date_sk % 301 = 0;

SELECT d_date + 1, d_date - 1, d_date - DATE '2000-01-01' FROM date_dim WHERE d_date_sk % 150 = 0;

SELECT CAST(d_date + INTERVAL '1 month' AS DATE), CAST(d_date - INTERVAL '2 days' AS DATE), CAST(d_date + INTERVAL '1 year' AS DATE)
FROM date_dim WHERE d_dom = 31 AND d_year = 2000;

SELECT last_day(d_date), make_date(d_year, d_moy, 1) FROM date_dim WHERE d_date_sk % 173 = 0;

SELECT count(*) FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk
WHERE d.d_date >= DATE '2000-01-01' AND d.d_date < DATE '2000-01-01' + INTERVAL '3 months';

SELECT upper(i_category), lower(i_class), length(i_brand), char_length(i_category) FROM item WHERE i_item_sk <= 12;

SELECT substring(c_first_name, 2, 3), substr(c_last_name, 1, 2), left(c_first_name, 1), right(c_last_name, 2) FROM customer WHERE c_customer_sk <= 30;

SELECT c_first_name || ' ' || c_last_name, concat(c_first_name, '/', c_birth_year), concat_ws('-', c_first_name, c_preferred_cust_flag, c_last_name)
FROM customer WHERE c_customer_sk <= 30;

SELECT trim('  x  '), ltrim('  x'), rtrim('x  '), replace(i_brand, 'brand', 'b'), reverse(i_category), repeat('ab', 3) FROM item WHERE i_item_sk < 6;

SELECT position('a' IN c_first_name), strpos(c_last_name, 'o'), starts_with(c_first_name, 'J'), c_last_name LIKE '%son' FROM customer WHERE c_customer_sk <= 40;

SELECT lpad(CAST(s_store_sk AS VARCHAR), 5, '0'), rpad(s_state, 4, '*'), split_part(s_store_id, 'A', 9) FROM store;

SELECT c_first_name, count(*) FROM customer WHERE c_first_name ILIKE '%AR%' GROUP BY c_first_name;

SELECT i_brand FROM item WHERE i_brand LIKE 'brand #_' ;

SELECT ca_city, ca_zip FROM customer_address WHERE ca_zip LIKE '1%' AND ca_city NOT LIKE 'S%';

SELECT ss_quantity BETWEEN 10 AND 20, ss_quantity NOT BETWEEN 30 AND 40, count(*) FROM store_sales GROUP BY 1, 2;

SELECT ss_customer_sk IS NULL AND ss_quantity > 50, ss_customer_sk IS NULL OR ss_quantity > 50, count(*) FROM store_sales GROUP BY 1, 2;

SELECT (ss_customer_sk > 500) AND (ss_quantity > 50), (ss_customer_sk > 500) OR (ss_quantity > 50), count(*) FROM store_sales GROUP BY 1, 2;

SELECT NOT (ss_customer_sk > 500), count(*) FROM store_sales GROUP BY 1;

SELECT ss_store_sk IN (1, 2), ss_store_sk NOT IN (1, NULL), count(*) FROM store_sales GROUP BY 1, 2;

SELECT p_promo_id, p_cost / 3, p_cost * 1.5 FROM promotion WHERE p_promo_sk <= 10;

SELECT sum(p_cost), avg(p_cost), max(p_cost - 1000) FROM promotion;

SELECT 1 + 2 * 3, 7 % 3, -5 + 2, 10 - 20, 2.50 * 4, 1.1 + 2.22, 100.0 / 8;

SELECT CAST(1e3 AS INTEGER), CAST(3.99 AS BIGINT), CAST(true AS INTEGER), CAST('true' AS BOOLEAN), CAST(0 AS BOOLEAN);

SELECT 'it''s', 'a' < 'b', 'B' < 'a', 'abc' = 'abc ', '' IS NULL;

SELECT ss_sales_price > 100.5, ss_net_profit >= 0, count(*) FROM store_sales GROUP BY 1, 2;

SELECT i_current_price = 28.8, count(*) FROM item GROUP BY 1;

SELECT sqrt(ss_quantity), power(ss_quantity, 2), ln(ss_quantity), exp(ss_quantity / 50.0) FROM store_sales WHERE ss_sold_date_sk = 2451300;

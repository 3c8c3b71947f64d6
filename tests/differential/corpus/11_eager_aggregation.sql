-- Aggregates over inner joins grouping by a dimension's columns, which eager_aggregation
-- computes in two steps (the fact side by the join key first): every kind of aggregate it
-- splits, the fact's own group columns, NULL keys, a dimension key that is not unique, and
-- three-way joins where one dimension comes off and the other stays inside.

SELECT i_category, sum(ss_quantity), count(*), count(ss_customer_sk), min(ss_sales_price), max(ss_net_profit)
FROM store_sales JOIN item ON ss_item_sk = i_item_sk GROUP BY i_category;

SELECT i_brand, ss_store_sk, sum(ss_sales_price), avg(ss_quantity) IS NULL, count(*)
FROM store_sales JOIN item ON ss_item_sk = i_item_sk GROUP BY i_brand, ss_store_sk;

SELECT d_year, d_moy, sum(ss_net_profit), count(*), bool_or(ss_quantity > 90), bool_and(ss_quantity > 0)
FROM store_sales, date_dim WHERE ss_sold_date_sk = d_date_sk AND d_year = 2000 GROUP BY d_year, d_moy;

SELECT c_last_name, c_first_name, d_year, sum(ss_sales_price), count(*)
FROM customer, store_sales, date_dim
WHERE c_customer_sk = ss_customer_sk AND ss_sold_date_sk = d_date_sk AND d_year IN (1999, 2000)
GROUP BY c_last_name, c_first_name, d_year;

SELECT i_category, s_store_name, sum(ss_quantity), min(ss_sold_date_sk), max(ss_sold_date_sk)
FROM store_sales, item, store WHERE ss_item_sk = i_item_sk AND ss_store_sk = s_store_sk GROUP BY i_category, s_store_name;

-- The dimension's key repeated (each item key once per brand row of a derived table).
SELECT b.i_class, sum(ss_quantity), count(*)
FROM store_sales JOIN (SELECT i_item_sk, i_class FROM item UNION ALL SELECT i_item_sk, i_class FROM item WHERE i_item_sk % 2 = 0) b
ON ss_item_sk = b.i_item_sk GROUP BY b.i_class;

-- NULL fact keys: their partial group meets no dimension row.
SELECT c_preferred_cust_flag, count(*), sum(ss_quantity), count(ss_promo_sk)
FROM store_sales JOIN customer ON ss_customer_sk = c_customer_sk GROUP BY c_preferred_cust_flag;

SELECT i_category, sum(ss_quantity * ss_sales_price), sum(ss_quantity)
FROM store_sales JOIN item ON ss_item_sk = i_item_sk WHERE ss_sold_date_sk BETWEEN 2451545 AND 2451575 GROUP BY i_category;

-- avg of INTEGER, DECIMAL and BIGINT columns: partial sums and counts below the join.
SELECT i_category, avg(ss_quantity), avg(ss_sales_price), avg(ss_net_profit), count(*)
FROM store_sales JOIN item ON ss_item_sk = i_item_sk GROUP BY i_category;

SELECT d_year, d_moy, avg(ss_customer_sk), avg(ss_quantity), sum(ss_quantity)
FROM store_sales, date_dim WHERE ss_sold_date_sk = d_date_sk AND d_year = 2000 GROUP BY d_year, d_moy;

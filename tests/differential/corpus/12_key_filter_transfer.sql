-- A filter on one input's join key of an inner join also filters the other input's key
-- (filter_pushdown's TransferKeyFilters): ranges, equalities and IN lists on either side, and
-- a filter that is not a comparison with a constant.

SELECT d_moy, count(*), sum(ss_quantity) FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk
WHERE d_date_sk BETWEEN 2451545 AND 2451575 GROUP BY d_moy;

SELECT i_category, count(*) FROM store_sales JOIN item ON ss_item_sk = i_item_sk
WHERE ss_item_sk IN (3, 17, 250) GROUP BY i_category;

SELECT s_store_name, count(*), sum(ss_sales_price) FROM store_sales JOIN store ON ss_store_sk = s_store_sk
WHERE s_store_sk = 2 GROUP BY s_store_name;

SELECT count(*), sum(ss_quantity) FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk
WHERE d_date_sk % 7 = 3 AND d_year = 2000;

SELECT d_year, count(*) FROM store_sales, date_dim, item
WHERE ss_sold_date_sk = d_date_sk AND ss_item_sk = i_item_sk AND ss_sold_date_sk < 2451000 AND i_item_sk <= 100
GROUP BY d_year;

-- Scans with filters on partition and non-partition columns (store_sales is partitioned by
-- ss_sold_date_sk, store_returns by sr_returned_date_sk; both have a NULL partition).

SELECT count(*), sum(ss_quantity), sum(ss_sales_price) FROM store_sales;

SELECT count(*) FROM store_sales WHERE ss_sold_date_sk = 2451000;

SELECT count(*), sum(ss_net_profit) FROM store_sales WHERE ss_sold_date_sk BETWEEN 2451000 AND 2451100;

SELECT count(*) FROM store_sales WHERE ss_sold_date_sk IS NULL;

SELECT count(*) FROM store_sales WHERE ss_sold_date_sk IS NOT NULL;

SELECT count(*) FROM store_sales WHERE ss_sold_date_sk IN (2450815, 2451179, 2452640, 1);

SELECT count(*) FROM store_sales WHERE ss_sold_date_sk NOT IN (2450815, 2451179);

SELECT count(*) FROM store_sales WHERE ss_sold_date_sk < 2450900 OR ss_sold_date_sk > 2452600;

SELECT count(*) FROM store_sales WHERE ss_sold_date_sk + 1 = 2451001;

SELECT count(*) FROM store_sales WHERE CAST(ss_sold_date_sk AS INTEGER) % 7 = 3;

SELECT count(*) FROM store_sales WHERE ss_sold_date_sk > 2452640;

SELECT count(*) FROM store_sales WHERE ss_sold_date_sk < 0;

SELECT count(*), min(ss_sold_date_sk), max(ss_sold_date_sk) FROM store_sales WHERE ss_quantity > 95;

SELECT count(*) FROM store_sales WHERE ss_sales_price BETWEEN 10.00 AND 10.99;

SELECT count(*) FROM store_sales WHERE ss_sales_price = 0;

SELECT count(*) FROM store_sales WHERE ss_net_profit < -40;

SELECT count(*) FROM store_sales WHERE ss_customer_sk IS NULL;

SELECT count(*) FROM store_sales WHERE ss_customer_sk IS NULL AND ss_store_sk IS NULL;

SELECT count(*) FROM store_sales WHERE ss_promo_sk IS NULL OR ss_quantity = 1;

SELECT count(*) FROM store_sales WHERE NOT (ss_quantity > 10);

SELECT count(*) FROM store_sales WHERE ss_store_sk <> 2;

SELECT count(*) FROM store_sales WHERE ss_store_sk IS DISTINCT FROM 2;

SELECT count(*) FROM store_sales WHERE ss_customer_sk IS NOT DISTINCT FROM NULL;

SELECT count(*) FROM store_sales WHERE ss_item_sk IN (1, 2, 3, 4, 5) AND ss_sold_date_sk > 2451500;

SELECT count(*) FROM store_sales WHERE ss_ticket_number BETWEEN 100 AND 200;

SELECT count(*) FROM store_returns WHERE sr_returned_date_sk IS NULL;

SELECT count(*), sum(sr_return_amt) FROM store_returns WHERE sr_returned_date_sk BETWEEN 2451000 AND 2451300 AND sr_return_quantity > 5;

SELECT count(*) FROM date_dim WHERE d_year = 2000 AND d_moy = 2;

SELECT count(*) FROM date_dim WHERE d_date BETWEEN DATE '2000-02-01' AND DATE '2000-03-01';

SELECT count(*) FROM date_dim WHERE d_day_name IN ('Saturday', 'Sunday') AND d_year = 2001;

SELECT count(*) FROM item WHERE i_category = 'Books' AND i_current_price > 50;

SELECT count(*) FROM item WHERE i_brand LIKE 'brand #1%';

SELECT count(*) FROM item WHERE i_class NOT LIKE 'class 1%';

SELECT count(*) FROM item WHERE i_category ILIKE 'BOOK%';

SELECT count(*) FROM customer WHERE c_preferred_cust_flag IS NULL;

SELECT count(*) FROM customer WHERE c_preferred_cust_flag <> 'Y';

SELECT count(*) FROM customer WHERE c_birth_year BETWEEN 1950 AND 1960 AND c_first_name LIKE 'J%';

SELECT count(*) FROM customer_address WHERE ca_state IN ('TX', 'CA') AND ca_gmt_offset = -6;

SELECT count(*) FROM promotion WHERE p_channel_dmail IS NULL OR p_channel_email = 'Y';

SELECT s_store_sk, s_store_name, s_state FROM store WHERE s_number_employees > 210;

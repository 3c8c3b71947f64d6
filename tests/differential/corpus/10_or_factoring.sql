-- Join conditions and filters written in every branch of an OR (TPC-DS q13 and q48 style):
-- or_factoring takes the common conjuncts out and derives per-table filters.

SELECT sum(ss.ss_quantity), count(*)
FROM store_sales ss, store s, customer c, customer_address ca, date_dim d
WHERE s.s_store_sk = ss.ss_store_sk AND ss.ss_sold_date_sk = d.d_date_sk AND d.d_year = 2000
AND ((c.c_customer_sk = ss.ss_customer_sk AND c.c_birth_year < 1960 AND ss.ss_sales_price BETWEEN 10 AND 50)
  OR (c.c_customer_sk = ss.ss_customer_sk AND c.c_birth_year > 1980 AND ss.ss_sales_price BETWEEN 50 AND 100))
AND ((c.c_current_addr_sk = ca.ca_address_sk AND ca.ca_state IN ('TX', 'OH') AND ss.ss_net_profit BETWEEN 0 AND 2000)
  OR (c.c_current_addr_sk = ca.ca_address_sk AND ca.ca_state IN ('CA', 'NY') AND ss.ss_net_profit BETWEEN 150 AND 3000));

SELECT count(*), sum(ss.ss_sales_price)
FROM store_sales ss, item i, date_dim d
WHERE (ss.ss_item_sk = i.i_item_sk AND ss.ss_sold_date_sk = d.d_date_sk AND i.i_category = 'Books' AND d.d_moy = 1)
   OR (ss.ss_item_sk = i.i_item_sk AND ss.ss_sold_date_sk = d.d_date_sk AND i.i_category = 'Music' AND d.d_moy = 12);

SELECT count(*) FROM customer c, customer_address ca
WHERE (c.c_current_addr_sk = ca.ca_address_sk) OR (c.c_current_addr_sk = ca.ca_address_sk AND ca.ca_state = 'TX');

SELECT count(*), count(ca.ca_address_sk) FROM customer c LEFT JOIN customer_address ca
ON (c.c_current_addr_sk = ca.ca_address_sk AND ca.ca_state = 'TX' AND c.c_birth_year < 1950)
OR (c.c_current_addr_sk = ca.ca_address_sk AND ca.ca_state = 'CA');

SELECT count(*) FROM customer c, customer_address ca
WHERE c.c_current_addr_sk = ca.ca_address_sk
AND ((ca.ca_state = 'TX' AND c.c_preferred_cust_flag IS NULL) OR (ca.ca_state = 'CA' AND c.c_birth_year IS NULL)
  OR (ca.ca_state IS NULL AND c.c_birth_year > 1980));

-- Joins of every type, star joins through several dimensions, snowflakes.

SELECT d.d_year, count(*), sum(ss.ss_sales_price)
FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk
GROUP BY d.d_year;

SELECT d.d_moy, count(*) FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk
WHERE d.d_year = 2000 GROUP BY d.d_moy;

SELECT count(*) FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk
WHERE d.d_day_name = 'Sunday' AND d.d_year = 2001;

SELECT count(*) FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk
WHERE d.d_year = 1900;

SELECT i.i_category, count(*), sum(ss.ss_quantity)
FROM store_sales ss JOIN item i ON ss.ss_item_sk = i.i_item_sk
WHERE i.i_current_price > 80 GROUP BY i.i_category;

SELECT s.s_store_name, d.d_qoy, count(*), sum(ss.ss_net_profit)
FROM store_sales ss
JOIN store s ON ss.ss_store_sk = s.s_store_sk
JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk
WHERE d.d_year = 1999 GROUP BY s.s_store_name, d.d_qoy;

SELECT i.i_category, s.s_state, count(*)
FROM store_sales ss
JOIN item i ON ss.ss_item_sk = i.i_item_sk
JOIN store s ON ss.ss_store_sk = s.s_store_sk
JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk
JOIN promotion p ON ss.ss_promo_sk = p.p_promo_sk
WHERE d.d_year = 2002 AND p.p_channel_email = 'N' AND i.i_category IN ('Books', 'Music')
GROUP BY i.i_category, s.s_state;

SELECT ca.ca_state, count(*), sum(ss.ss_sales_price)
FROM store_sales ss
JOIN customer c ON ss.ss_customer_sk = c.c_customer_sk
JOIN customer_address ca ON c.c_current_addr_sk = ca.ca_address_sk
WHERE ca.ca_state IN ('TX', 'GA') GROUP BY ca.ca_state;

SELECT count(*), count(c.c_customer_sk), count(ca.ca_address_sk)
FROM store_sales ss
LEFT JOIN customer c ON ss.ss_customer_sk = c.c_customer_sk
LEFT JOIN customer_address ca ON c.c_current_addr_sk = ca.ca_address_sk;

SELECT count(*), count(d.d_date_sk) FROM store_sales ss
LEFT JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk AND d.d_year = 2000;

SELECT count(*), count(d.d_date_sk) FROM store_sales ss
LEFT JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_year = 2000;

SELECT count(*), count(d.d_date_sk) FROM store_sales ss
LEFT JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_date_sk IS NULL;

SELECT count(*), count(ss.ss_item_sk) FROM date_dim d
LEFT JOIN store_sales ss ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_year = 2003;

SELECT d.d_year, count(ss.ss_item_sk) FROM date_dim d
LEFT JOIN store_sales ss ON ss.ss_sold_date_sk = d.d_date_sk AND ss.ss_quantity > 90
GROUP BY d.d_year;

SELECT count(*), count(d.d_date_sk), count(ss.ss_item_sk)
FROM store_sales ss RIGHT JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk
WHERE d.d_moy = 1;

SELECT count(*), count(d.d_date_sk), count(ss.ss_item_sk)
FROM (SELECT * FROM store_sales WHERE ss_quantity < 3) ss
FULL JOIN (SELECT * FROM date_dim WHERE d_dom = 1) d ON ss.ss_sold_date_sk = d.d_date_sk;

SELECT count(*), count(i.i_item_sk), count(ss.ss_item_sk)
FROM (SELECT * FROM store_sales WHERE ss_sold_date_sk BETWEEN 2451000 AND 2451010) ss
FULL OUTER JOIN (SELECT * FROM item WHERE i_category = 'Home') i ON ss.ss_item_sk = i.i_item_sk;

SELECT count(*) FROM store_sales ss JOIN store_returns sr
ON ss.ss_ticket_number = sr.sr_ticket_number AND ss.ss_item_sk = sr.sr_item_sk;

SELECT count(*), sum(sr.sr_return_amt), sum(ss.ss_sales_price)
FROM store_sales ss JOIN store_returns sr
ON ss.ss_ticket_number = sr.sr_ticket_number AND ss.ss_item_sk = sr.sr_item_sk
WHERE sr.sr_returned_date_sk - ss.ss_sold_date_sk > 60;

SELECT count(*), count(sr.sr_item_sk) FROM store_sales ss LEFT JOIN store_returns sr
ON ss.ss_ticket_number = sr.sr_ticket_number AND ss.ss_item_sk = sr.sr_item_sk
WHERE ss.ss_sold_date_sk BETWEEN 2451000 AND 2451200;

SELECT d1.d_year, d2.d_year, count(*)
FROM store_returns sr
JOIN date_dim d1 ON sr.sr_returned_date_sk = d1.d_date_sk
JOIN store_sales ss ON ss.ss_ticket_number = sr.sr_ticket_number AND ss.ss_item_sk = sr.sr_item_sk
JOIN date_dim d2 ON ss.ss_sold_date_sk = d2.d_date_sk
GROUP BY d1.d_year, d2.d_year;

SELECT count(*) FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk
JOIN store_returns sr ON sr.sr_returned_date_sk = d.d_date_sk
WHERE d.d_date BETWEEN DATE '2001-01-01' AND DATE '2001-01-07';

SELECT count(*) FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk + 1
WHERE d.d_year = 2000 AND d.d_moy = 3;

SELECT count(*) FROM store_sales ss JOIN date_dim d ON CAST(ss.ss_sold_date_sk AS INTEGER) = d.d_date_sk
WHERE d.d_dom = 15;

SELECT count(*) FROM store_sales ss JOIN date_dim d
ON ss.ss_sold_date_sk = d.d_date_sk AND ss.ss_quantity > d.d_dom
WHERE d.d_year = 2000;

SELECT count(*) FROM store_sales ss JOIN item i
ON ss.ss_item_sk = i.i_item_sk AND ss.ss_sales_price > i.i_current_price;

SELECT count(*) FROM store_sales ss JOIN date_dim d
ON ss.ss_sold_date_sk BETWEEN d.d_date_sk AND d.d_date_sk + 2
WHERE d.d_year = 2001 AND d.d_moy = 5 AND d.d_dom < 4;

SELECT count(*) FROM store s CROSS JOIN promotion p WHERE p.p_cost > 500;

SELECT count(*), sum(ss.ss_quantity) FROM store_sales ss, date_dim d
WHERE ss.ss_sold_date_sk = d.d_date_sk AND d.d_year = 2001 AND d.d_qoy = 3;

SELECT count(*) FROM store_sales ss, item i, date_dim d
WHERE ss.ss_item_sk = i.i_item_sk AND ss.ss_sold_date_sk = d.d_date_sk
AND i.i_category = 'Shoes' AND d.d_moy = 12;

SELECT count(*) FROM store_sales JOIN store ON ss_store_sk = s_store_sk WHERE s_state = 'TN';

SELECT count(*) FROM (SELECT ss_store_sk AS store_sk, ss_quantity FROM store_sales) ss
JOIN (SELECT s_store_sk AS store_sk, s_state FROM store) s USING (store_sk)
WHERE s.s_state = 'VA';

SELECT count(*) FROM (SELECT s_store_sk AS k FROM store) a NATURAL JOIN (SELECT p_promo_sk AS k FROM promotion) b;

SELECT c.c_birth_year, count(*) FROM customer c JOIN customer_address ca
ON c.c_current_addr_sk = ca.ca_address_sk WHERE ca.ca_state = 'CA' GROUP BY c.c_birth_year;

SELECT count(*), count(ca.ca_state) FROM customer c LEFT JOIN customer_address ca
ON c.c_current_addr_sk = ca.ca_address_sk AND ca.ca_gmt_offset = -5;

SELECT p.p_promo_name, count(ss.ss_item_sk)
FROM promotion p LEFT JOIN store_sales ss ON ss.ss_promo_sk = p.p_promo_sk
AND ss.ss_sold_date_sk BETWEEN p.p_start_date_sk AND p.p_end_date_sk
GROUP BY p.p_promo_name;

SELECT count(*) FROM store_sales ss JOIN promotion p ON ss.ss_promo_sk = p.p_promo_sk
WHERE ss.ss_sold_date_sk BETWEEN p.p_start_date_sk AND p.p_end_date_sk;

SELECT i.i_category, count(*) FROM store_sales ss
JOIN item i ON ss.ss_item_sk = i.i_item_sk
JOIN customer c ON ss.ss_customer_sk = c.c_customer_sk
JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk
WHERE c.c_birth_year < 1940 AND d.d_year BETWEEN 1999 AND 2000
GROUP BY i.i_category;

SELECT count(*) FROM store_sales a JOIN store_sales b
ON a.ss_ticket_number = b.ss_ticket_number AND a.ss_item_sk < b.ss_item_sk
WHERE a.ss_sold_date_sk BETWEEN 2451000 AND 2451030;

SELECT count(*) FROM store_sales ss JOIN customer c ON ss.ss_customer_sk = c.c_customer_sk
JOIN store_returns sr ON sr.sr_customer_sk = c.c_customer_sk
WHERE c.c_first_name = 'Mary' AND sr.sr_returned_date_sk < 2451000;

SELECT count(*) FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk
WHERE d.d_year = 2000 AND d.d_moy = 2 AND ss.ss_sold_date_sk > 2451590;

SELECT d.d_year, count(*) FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk
WHERE d.d_dom = 1 OR ss.ss_quantity = 100 GROUP BY d.d_year;

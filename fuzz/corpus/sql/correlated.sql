SELECT i.i_item_sk, (SELECT count(*) FROM sales s WHERE s.ss_quantity > i.i_item_sk AND s.ss_item_sk <> i.i_item_sk),
(SELECT s.ss_price FROM sales s WHERE s.ss_item_sk >= i.i_item_sk ORDER BY s.ss_price DESC LIMIT 1 OFFSET 1)
FROM item i WHERE EXISTS (SELECT 1 FROM sales s WHERE s.ss_item_sk = i.i_item_sk GROUP BY s.ss_sold_date_sk HAVING count(*) > 1)
OR i.i_item_sk > ALL (SELECT s.ss_quantity FROM sales s, LATERAL (SELECT d.d_year FROM date_dim d WHERE d.d_date_sk < s.ss_sold_date_sk LIMIT 2) l WHERE l.d_year > i.i_item_sk)
ORDER BY 1

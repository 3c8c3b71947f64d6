SELECT s.ss_item_sk, i.i_brand, coalesce(d.d_day_name, '?') FROM sales s LEFT JOIN item i ON s.ss_item_sk = i.i_item_sk
FULL OUTER JOIN date_dim d ON s.ss_sold_date_sk = d.d_date_sk WHERE i.i_price IS NULL OR i.i_price < 5 ORDER BY 1 NULLS FIRST

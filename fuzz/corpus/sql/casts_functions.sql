SELECT CAST(ss_price AS VARCHAR) || '-' || upper(i_brand), date_trunc('month', d_date), ss_quantity / NULLIF(ss_quantity, 0), CASE WHEN ss_price > 2 THEN 'hi' ELSE 'lo' END, substr(i_category, 2, 3) LIKE '%o%'
FROM sales, item, date_dim WHERE ss_item_sk = i_item_sk AND ss_sold_date_sk = d_date_sk UNION ALL SELECT NULL, NULL, NULL, NULL, NULL

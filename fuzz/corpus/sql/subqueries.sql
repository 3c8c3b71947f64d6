SELECT i_item_sk FROM item WHERE i_item_sk IN (SELECT ss_item_sk FROM sales WHERE ss_quantity > 1)
AND NOT EXISTS (SELECT 1 FROM date_dim WHERE d_date_sk = i_item_sk) ORDER BY 1

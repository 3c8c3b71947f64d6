SET runtime_filter = 'always'; SELECT ss_item_sk FROM sales INTERSECT SELECT i_item_sk FROM item EXCEPT SELECT 12 ORDER BY 1 LIMIT 10 OFFSET 1

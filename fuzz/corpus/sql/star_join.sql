SELECT d.d_year, i.i_category, sum(s.ss_quantity * s.ss_price) AS revenue
FROM sales s JOIN date_dim d ON s.ss_sold_date_sk = d.d_date_sk
JOIN item i ON s.ss_item_sk = i.i_item_sk
WHERE d.d_moy = 1 AND i.i_category = 'books'
GROUP BY d.d_year, i.i_category ORDER BY revenue DESC

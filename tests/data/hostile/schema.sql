-- The fixed schema fuzz_sql and hostile_data_test run SQL against: a small star schema of
-- views over VALUES, and a view over the Hive dataset in tests/data (${DATA}).
CREATE VIEW date_dim AS SELECT * FROM (VALUES
  (1, DATE '2024-01-01', 2024, 1, 'Mon'), (2, DATE '2024-01-02', 2024, 1, 'Tue'),
  (3, DATE '2024-02-01', 2024, 2, 'Thu'), (4, DATE '2025-03-01', 2025, 3, 'Sat'),
  (5, NULL, NULL, NULL, NULL)) t(d_date_sk, d_date, d_year, d_moy, d_day_name);
CREATE VIEW item AS SELECT * FROM (VALUES
  (10, 'books', 1.50, 'a'), (11, 'music', 2.25, 'b'), (12, 'books', NULL, 'c'),
  (13, NULL, 9.99, '')) t(i_item_sk, i_category, i_price, i_brand);
CREATE VIEW sales AS SELECT * FROM (VALUES
  (1, 10, 3, 4.50), (1, 11, 1, 2.25), (2, 10, 2, 3.00), (3, 12, 5, NULL), (4, 13, 1, 9.99),
  (NULL, 10, 7, 1.00), (2, 99, 1, 1.00), (5, 11, 0, 0.00)) t(ss_sold_date_sk, ss_item_sk,
  ss_quantity, ss_price);
CREATE VIEW hive AS SELECT * FROM '${DATA}/hive/hive_year_month';

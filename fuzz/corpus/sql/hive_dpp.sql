EXPLAIN ANALYZE SELECT count(*), sum(h.amount) FROM hive h JOIN (SELECT DISTINCT year FROM hive WHERE region = 'north' AND month = 2) d ON h.year = d.year

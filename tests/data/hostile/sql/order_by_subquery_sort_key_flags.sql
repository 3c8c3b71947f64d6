SELECT id FROM hive ORDER BY (SELECT max(id) FROM hive) - id LIMIT 3


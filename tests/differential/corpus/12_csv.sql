-- CSV read by both engines' sniffers from the same files (${TESTDATA} is tests/data): the
-- delimiter, quoting, header and column types must agree, and so must the rows.

SELECT * FROM read_csv('${TESTDATA}/csv/basic.csv');

SELECT id, name, price + 1, day + 1, NOT active FROM read_csv('${TESTDATA}/csv/basic.csv');

SELECT * FROM read_csv('${TESTDATA}/csv/semicolon_noheader.csv');

SELECT * FROM read_csv('${TESTDATA}/csv/tabs.tsv');

SELECT k, v, d, d + 1 FROM read_csv('${TESTDATA}/csv/pipe_dates.csv');

SELECT id, length(note) FROM read_csv('${TESTDATA}/csv/crlf_multiline.csv');

SELECT * FROM read_csv('${TESTDATA}/csv/backslash_escape.csv', escape = '\');

SELECT * FROM read_csv('${TESTDATA}/csv/skip.csv', skip = 2);

SELECT * FROM read_csv('${TESTDATA}/csv/basic.csv.gz');

SELECT x, y, year, region FROM read_csv('${TESTDATA}/csv/hive/*/*/*.csv', hive_partitioning = true);

SELECT year, count(*), sum(x) FROM read_csv('${TESTDATA}/csv/hive/*/*/*.csv', hive_partitioning = true) WHERE region = 'eu' GROUP BY year;

SELECT a, b, c FROM read_csv('${TESTDATA}/csv/union/*.csv', union_by_name = true);

SELECT * FROM read_csv('${TESTDATA}/csv/basic.csv', all_varchar = true);

SELECT * FROM read_csv('${TESTDATA}/csv/tabs.tsv', header = false);

SELECT * FROM read_csv('${TESTDATA}/csv/bad_rows.csv', ignore_errors = true);

SELECT a FROM read_csv('${TESTDATA}/hostile/csv/single_column_blank.csv');

SELECT count(*) FROM read_csv('${TESTDATA}/hostile/csv/only_header.csv');

-- A CSV joined with the star schema's tables.
SELECT b.id, count(*) FROM read_csv('${TESTDATA}/csv/basic.csv') b JOIN store s ON s.s_store_sk = b.id GROUP BY b.id;

SELECT k, v, d FROM read_csv('${TESTDATA}/csv/pipe_dates.csv', header = true, columns = {'k': 'INTEGER', 'v': 'VARCHAR', 'd': 'VARCHAR'}) ORDER BY k;

SELECT sum(id), typeof(sum(id)) FROM read_csv('${TESTDATA}/csv/basic.csv', types = {'id': 'DOUBLE'});

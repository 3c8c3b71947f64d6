// Writes the LIST fixtures of tests/sql/types/parquet_list.test with DuckDB
// (cd tests/data/parquet/lists && node make_lists.mjs; needs @duckdb/node-api from `npm ci`).
import { DuckDBInstance } from '@duckdb/node-api';

const instance = await DuckDBInstance.create(':memory:');
const con = await instance.connect();
// Every scalar type as elements; NULL lists, empty lists and NULL elements; several row groups
// and, in `big`, lists of hundreds of elements.
await con.run(`COPY (
  SELECT i AS id,
    CASE WHEN i % 7 = 0 THEN NULL WHEN i % 5 = 0 THEN []
         ELSE [i, NULL, i * 2][1:1 + i % 3] END::INTEGER[] AS li,
    CASE WHEN i % 11 = 0 THEN NULL ELSE [i::BIGINT * 1000000007, -i] END AS lb,
    CASE WHEN i % 3 = 0 THEN [i / 4, NULL] ELSE [] END::DOUBLE[] AS ld,
    CASE WHEN i % 13 = 0 THEN NULL
         ELSE ['s' || i, NULL, '', 'a,b' || (i % 10)][1:i % 5] END AS ls,
    [(i / 100)::DECIMAL(10,2), NULL] AS ldec,
    [DATE '2024-01-01' + i, NULL] AS ldate,
    [TIMESTAMP '2024-01-01 00:00:00' + INTERVAL (i) SECOND] AS lts,
    CASE WHEN i % 2 = 0 THEN [true, false, NULL] ELSE [false] END AS lbool,
    CASE WHEN i % 4 = 0 THEN NULL ELSE [i::REAL / 8, (i * 1.5)::DECIMAL(30, 4)::REAL] END AS lreal,
    [(i * 3)::DECIMAL(30,4), NULL] AS lwide
  FROM (SELECT range::INTEGER AS i FROM range(5000))) TO 'lists.parquet' (FORMAT parquet, ROW_GROUP_SIZE 1000)`);
await con.run(`COPY (
  SELECT i AS id, CASE WHEN i % 10 = 9 THEN NULL ELSE range(i * 50, i * 50 + 200 + i % 500) END AS big,
    CASE WHEN i % 3 = 0 THEN NULL ELSE [repeat(chr(97 + i % 26), 1 + i % 40), 'x'] END AS words
  FROM (SELECT range::INTEGER AS i FROM range(300))) TO 'big_lists.parquet' (FORMAT parquet, ROW_GROUP_SIZE 100)`);
// Nested shapes beside a flat column.
await con.run(`COPY (SELECT 1 AS x, [[1, 2], [3]] AS ll, {'a': 1, 'b': 'x'} AS s, MAP {'k': 1} AS m)
  TO 'nested.parquet' (FORMAT parquet)`);
console.log('wrote lists.parquet, big_lists.parquet, nested.parquet');

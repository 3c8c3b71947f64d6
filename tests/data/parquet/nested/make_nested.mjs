// Writes the nested-column fixtures of tests/sql/types/parquet_nested.test with DuckDB
// (cd tests/data/parquet/nested && node make_nested.mjs; needs @duckdb/node-api from `npm ci`).
import { DuckDBInstance } from '@duckdb/node-api';

const instance = await DuckDBInstance.create(':memory:');
const con = await instance.connect();
// Every nesting shape, NULLs at every level, empty lists and maps; three row groups.
await con.run(`COPY (
  SELECT i AS id,
    CASE WHEN i % 7 = 0 THEN NULL
         ELSE {'a': CASE WHEN i % 3 = 0 THEN NULL ELSE i END, 'b': 'b' || (i % 5)} END AS s,
    CASE WHEN i % 5 = 0 THEN NULL WHEN i % 5 = 1 THEN []
         ELSE [[i, NULL], [], NULL, [i % 3]] END::INTEGER[][] AS ll,
    CASE WHEN i % 4 = 0 THEN NULL WHEN i % 4 = 1 THEN MAP {}
         ELSE MAP {'k' || (i % 3): i, 'z': NULL} END::MAP(VARCHAR, INTEGER) AS m,
    CASE WHEN i % 6 = 0 THEN NULL
         ELSE [{'x': i % 10, 'y': CASE WHEN i % 2 = 0 THEN [i, NULL] END}, NULL] END AS ls,
    {'l': CASE WHEN i % 3 = 1 THEN NULL ELSE range(i % 4)::INTEGER[] END,
     'n': CASE WHEN i % 8 = 0 THEN NULL ELSE {'z': 'z' || (i % 4)} END} AS sl,
    CASE WHEN i % 9 = 0 THEN NULL ELSE [[['a' || (i % 3)], []], [NULL]] END AS lll,
    MAP {i % 2: [{'p': i}]} AS mls
  FROM (SELECT range::INTEGER AS i FROM range(3000))) TO 'nested.parquet'
  (FORMAT parquet, ROW_GROUP_SIZE 1000)`);
// A dimension to join on a struct field.
await con.run(`COPY (SELECT k, 'tag' || (k % 3) AS tag FROM range(100) t(k))
  TO 'dim.parquet' (FORMAT parquet)`);
console.log('wrote nested.parquet, dim.parquet');

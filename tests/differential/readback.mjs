// What shears writes, DuckDB reads back to the same values: every type shears has (with NULLs),
// every codec, several row groups and pages, dictionary and plain encodings, a Hive-partitioned
// directory. Each file is read by DuckDB and compared with the query that produced it.
//   node readback.mjs --server BIN --dir TMPDIR

import fs from 'node:fs';
import path from 'node:path';
import { diffRows } from './compare.mjs';
import { ShearsServer } from './engines.mjs';

// Low-cardinality columns stay dictionary encoded; `u` (unique) falls back to PLAIN.
const EVERY_TYPE = `SELECT
  id,
  CAST(id AS INTEGER) % 100 - 50 AS i,
  CASE WHEN id % 7 = 0 THEN NULL ELSE id * 1000003 - 5000000000 END AS b,
  CASE WHEN id % 11 = 0 THEN NULL ELSE id % 2 = 0 END AS flag,
  CASE WHEN id % 13 = 0 THEN NULL ELSE CAST(id AS DOUBLE) / 8 - 100 END AS d,
  CASE WHEN id % 17 = 0 THEN NULL ELSE CAST(id AS REAL) / CAST(7 AS REAL) END AS f,
  CAST((id % 1000) * 0.25 AS DECIMAL(9, 2)) AS dec9,
  CAST(id * 1000.0001 - 2000000 AS DECIMAL(18, 4)) AS dec18,
  CASE WHEN id % 5 = 0 THEN NULL ELSE CAST(id AS DECIMAL(38, 10)) * 123456789012.3456789 END AS dec38,
  DATE '1999-12-31' + CAST(id % 400 AS INTEGER) AS day,
  CAST(CAST(DATE '2024-02-29' + CAST(id % 1000 AS INTEGER) AS VARCHAR) || ' 12:' ||
       lpad(CAST(id % 60 AS VARCHAR), 2, '0') || ':' || lpad(CAST(id % 59 AS VARCHAR), 2, '0') ||
       '.' || CAST(100000 + id AS VARCHAR) AS TIMESTAMP) AS ts,
  CASE WHEN id % 3 = 0 THEN NULL ELSE 'naïve-' || CAST(id % 50 AS VARCHAR) || '-€' END AS s,
  'unique-' || CAST(id AS VARCHAR) AS u
FROM range(5000)`;

// Every nesting shape shears writes (STRUCT, LIST of LIST, MAP, LIST of STRUCT, STRUCT of LIST
// and STRUCT), NULLs at every level and empty lists; compared as DuckDB's text of each value.
const NESTED = `SELECT id,
  CASE WHEN id % 7 = 0 THEN NULL ELSE {'a': CASE WHEN id % 3 = 0 THEN NULL ELSE id END, 'b': 'x' || id} END AS s,
  CASE WHEN id % 5 = 0 THEN NULL WHEN id % 5 = 1 THEN [] ELSE [[id, NULL], [], NULL] END AS ll,
  CASE WHEN id % 4 = 0 THEN NULL ELSE map([id, id + 1], ['v' || id, NULL]) END AS m,
  [{'x': id, 'y': [id * 2, NULL]}, NULL] AS ls,
  {'l': CASE WHEN id % 2 = 0 THEN [id] END, 'n': {'z': id % 10}} AS sl
FROM range(3000)`;
const NESTED_TEXT = 'SELECT id, CAST(s AS VARCHAR) AS s, CAST(ll AS VARCHAR) AS ll, CAST(m AS VARCHAR) AS m, ' +
  'CAST(ls AS VARCHAR) AS ls, CAST(sl AS VARCHAR) AS sl FROM';

const CODECS = ['snappy', 'zstd', 'gzip', 'lz4_raw', 'uncompressed'];

function parseArgs(argv) {
  const options = {};
  for (let i = 0; i < argv.length; i += 2) options[argv[i].replace(/^--/, '')] = argv[i + 1];
  if (!options.server || !options.dir) throw new Error('usage: readback.mjs --server BIN --dir DIR');
  return options;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  let DuckDBInstance;
  try {
    ({ DuckDBInstance } = await import('@duckdb/node-api'));
  } catch (e) {
    console.error('@duckdb/node-api is not installed: run scripts/install_deps.sh --node (make test does); skipping');
    process.exit(77);
  }
  const dir = path.resolve(options.dir);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const duck = await (await DuckDBInstance.create(':memory:')).connect();
  const shears = new ShearsServer(options.server, dir, { tables: [] });
  await shears.start();
  const must = async (sql) => {
    const answer = await shears.query(sql);
    if (answer.error) throw new Error(`shears: ${answer.error}: ${answer.message}\n${sql}`);
    return answer;
  };
  const expected = await must(EVERY_TYPE);
  const cases = CODECS.map((codec) => ({
    name: `COMPRESSION ${codec}`,
    copy: `COPY (${EVERY_TYPE}) TO '${dir}/${codec}.parquet' (FORMAT parquet, COMPRESSION ${codec}, ROW_GROUP_SIZE 1500)`,
    read: `SELECT * FROM read_parquet('${dir}/${codec}.parquet')`,
    expected,
  }));
  cases.push({
    name: 'PARTITION_BY (day)',
    copy: `COPY (${EVERY_TYPE} WHERE id < 1200) TO '${dir}/by_day' (FORMAT parquet, PARTITION_BY (day))`,
    // DuckDB infers the partition column's type from the directory names: ask for a DATE.
    read: `SELECT * EXCLUDE (day), CAST(day AS DATE) AS day FROM read_parquet('${dir}/by_day/**/*.parquet', hive_partitioning = true)`,
    expectedSql: `SELECT id, i, b, flag, d, f, dec9, dec18, dec38, ts, s, u, day FROM (${EVERY_TYPE} WHERE id < 1200) t`,
  });
  cases.push({
    name: 'nested columns',
    copy: `COPY (${NESTED}) TO '${dir}/nested.parquet' (FORMAT parquet, ROW_GROUP_SIZE 1000)`,
    read: `${NESTED_TEXT} read_parquet('${dir}/nested.parquet')`,
    expectedSql: `${NESTED_TEXT} (${NESTED}) t`,
  });
  let failed = 0;
  for (const c of cases) {
    await must(c.copy);
    const want = c.expectedSql ? await must(c.expectedSql) : c.expected;
    let got;
    try {
      const reader = await duck.runAndReadAll(c.read);
      got = { names: reader.columnNames(), types: reader.columnTypes().map(String), rows: reader.getRowsJson() };
    } catch (e) {
      console.error(`FAILED ${c.name}: DuckDB cannot read it: ${e.message}`);
      failed++;
      continue;
    }
    const diff = diffRows(got.rows, want.rows, { leftTypes: got.types, rightTypes: want.types,
      ordered: false, names: ['DuckDB', 'shears'] });
    if (diff || got.names.join() !== want.names.join()) {
      console.error(`FAILED ${c.name}: ${diff || `columns ${got.names} vs ${want.names}`}\n  types: DuckDB ${got.types.join(', ')}; shears ${want.types.join(', ')}`);
      failed++;
    } else {
      console.log(`ok ${c.name}: ${got.rows.length} rows, DuckDB types ${got.types.join(', ')}`);
    }
  }
  const exit = await shears.close();
  if (exit) { console.error(`FAILED ${exit}`); failed++; }
  fs.rmSync(dir, { recursive: true, force: true });
  console.log(`${cases.length - failed} of ${cases.length} written files read back by DuckDB to the same values`);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => { console.error(e.stack || String(e)); process.exit(1); });

// DuckDB's side of bench/run's fresh mode: one new process per query, as a user meets it.
//   node duckdb_fresh.mjs SCRIPT.json   ({"setup": [SQL, ...], "query": SQL})
// Opens an in-memory DuckDB, runs the setup (the views), runs the query and prints its rows as
// one JSON array of arrays. star_bench.mjs times this whole process from spawn to exit and
// subtracts the time of a run with no setup and `SELECT 1` (node's start-up and loading
// DuckDB), as it does for shears with `shears -c 'SELECT 1'`.
import fs from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';

const script = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const instance = await DuckDBInstance.create(':memory:');
const connection = await instance.connect();
for (const sql of script.setup) await connection.run(sql);
const reader = await connection.runAndReadAll(script.query);
process.stdout.write(JSON.stringify(reader.getRowsJson()) + '\n');

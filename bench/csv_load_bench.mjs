// CSV loading, shears against DuckDB, side by side and alternating (each engine's runs
// interleaved with the other's, so both see the same page cache and machine load):
//   node bench/csv_load_bench.mjs FILE.csv [runs] [threads]
// Each run is a fresh process/instance: a full aggregate scan over every column
// (sum/count of read_csv(FILE)), CREATE TABLE AS SELECT * FROM read_csv(FILE) and COPY t FROM
// FILE (HEADER) into a table created with the sniffed columns (DuckDB into its in-memory
// storage, shears into a managed Parquet table in a temporary database).
// Prints the median wall seconds of each, and the median CPU seconds (user + system: on a
// shared, loaded machine the wall time mostly measures the other processes).

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [file, runsText = '3', threadsText = '2'] = process.argv.slice(2);
if (!file) throw new Error('usage: node bench/csv_load_bench.mjs FILE.csv [runs] [threads]');
const runs = Number(runsText);
const threads = Number(threadsText);
const shears = new URL('../build/release/shears', import.meta.url).pathname;
const { DuckDBInstance } = await import('@duckdb/node-api');

async function columns() {
  const instance = await DuckDBInstance.create(':memory:');
  const c = await instance.connect();
  const r = await c.runAndReadAll(`DESCRIBE SELECT * FROM read_csv('${file}')`);
  return r.getRowsJson().map((row) => [row[0], row[1]]);
}
const described = await columns();
const names = described.map(([name]) => name);
const createTable = `CREATE TABLE t (${described.map(([n, type]) => `${n} ${type}`).join(', ')})`;
const copyFrom = `COPY t FROM '${file}' (HEADER)`;
const aggregate = `SELECT count(*), ${names.map((n) => `count(${n})`).join(', ')} FROM read_csv('${file}')`;

async function duck(sql, setup) {
  const instance = await DuckDBInstance.create(':memory:');
  const c = await instance.connect();
  await c.run(`SET threads = ${threads}`);
  if (setup) await c.run(setup);
  const start = performance.now();
  const cpu = process.cpuUsage();
  const r = await c.runAndReadAll(sql);
  const seconds = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  return { seconds, cpu: (used.user + used.system) / 1e6, rows: r.getRowsJson() };
}

function shearsRun(sql, db) {
  const start = performance.now();
  const cpuFile = join(tmpdir(), `csvbench-cpu-${process.pid}`);
  const out = execFileSync('/usr/bin/time', ['-f', '%U %S', '-o', cpuFile, shears,
    ...(db ? [db] : []), '-c', `SET threads = ${threads}; ${sql}`],
  { encoding: 'utf8', maxBuffer: 1 << 26 });
  const [user, system] = readFileSync(cpuFile, 'utf8').trim().split(/\s+/).map(Number);
  return { seconds: (performance.now() - start) / 1000, cpu: user + system, out };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const keys = ['duckAgg', 'shearsAgg', 'duckCtas', 'shearsCtas', 'duckCopy', 'shearsCopy'];
const times = Object.fromEntries(keys.map((k) => [k, []]));
const cpu = Object.fromEntries(keys.map((k) => [k, []]));
const record = (key, run) => {
  times[key].push(run.seconds);
  cpu[key].push(run.cpu);
  return run;
};
for (let i = 0; i < runs; i++) {
  const d = record('duckAgg', await duck(aggregate));
  const s = record('shearsAgg', shearsRun(aggregate));
  if (i === 0) console.log('duckdb:', JSON.stringify(d.rows[0]), '\nshears:', s.out.trim().split('\n').slice(-3, -2)[0]);
  record('duckCtas', await duck(`CREATE TABLE t AS SELECT * FROM read_csv('${file}')`));
  const db = mkdtempSync(join(tmpdir(), 'csvbench-'));
  record('shearsCtas', shearsRun(`CREATE TABLE t AS SELECT * FROM read_csv('${file}')`, db));
  rmSync(db, { recursive: true, force: true });
  record('duckCopy', await duck(copyFrom, createTable));
  const copyDb = mkdtempSync(join(tmpdir(), 'csvbench-'));
  record('shearsCopy', shearsRun(`${createTable}; ${copyFrom}`, copyDb));
  rmSync(copyDb, { recursive: true, force: true });
}
for (const [k, v] of Object.entries(times)) {
  console.log(`${k.padEnd(11)} wall median ${median(v).toFixed(3)} s (${v.map((x) => x.toFixed(2)).join(', ')}), ` +
    `cpu median ${median(cpu[k]).toFixed(3)} s`);
}

// What opening a Hive directory costs a fresh process: queries that read one partition (by a
// static filter or through a date_dim join pruned dynamically) and one that reads them all,
// over a generated star schema (`shears generate star`), on shears (each run a new process) and
// on DuckDB (each run a new in-memory instance, so no cache carries over), runs alternating.
//
//   node bench/metadata_bench.mjs --shears build/release/shears --data /tmp/star10 [--runs 10]
//        [--baseline OTHER_SHEARS_BINARY]
//
// Prints a markdown table: medians of the statement time (`--timer`, what the statement took
// inside shears: listing, footers, planning, execution), of the whole process (start to exit),
// with perf installed of the process's CPU time (all threads; `SELECT 1` alone takes some 6
// ms), and of DuckDB's query; with strace installed, the Parquet files each shears binary
// opens.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DuckDBInstance } from '@duckdb/node-api';

function parseArgs(argv) {
  const options = { runs: 10, baseline: '' };
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i].replace(/^--/, '');
    if (!['shears', 'data', 'runs', 'baseline'].includes(name) || i + 1 >= argv.length) {
      throw new Error(`usage: --shears BIN --data DIR [--runs N] [--baseline BIN] (got ${argv[i]})`);
    }
    options[name] = argv[i + 1];
  }
  if (!options.shears || !options.data) throw new Error('--shears and --data are required');
  options.runs = Number(options.runs);
  options.data = path.resolve(options.data);
  return options;
}

function queries(data) {
  const sales = `${data}/store_sales`;
  const glob = `read_parquet('${sales}/*/*.parquet', hive_partitioning = true)`;
  const dates = `read_parquet('${data}/date_dim/*.parquet')`;
  return [
    { name: 'one partition, read_parquet glob',
      shears: `SELECT count(*), sum(ss_quantity) FROM ${glob} WHERE ss_sold_date_sk = 2451545`,
      duckdb: `SELECT count(*), sum(ss_quantity) FROM ${glob} WHERE ss_sold_date_sk = 2451545` },
    { name: "one partition, FROM 'dir'",
      shears: `SELECT count(*), sum(ss_quantity) FROM '${sales}' WHERE ss_sold_date_sk = 2451545`,
      duckdb: `SELECT count(*), sum(ss_quantity) FROM read_parquet('${sales}/**/*.parquet', ` +
        `hive_partitioning = true) WHERE ss_sold_date_sk = 2451545` },
    { name: 'one partition, date_dim join (dynamic pruning)',
      shears: `SELECT count(*), sum(ss_quantity) FROM '${sales}' ss JOIN '${data}/date_dim' d ` +
        `ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_date = DATE '2000-01-01'`,
      duckdb: `SELECT count(*), sum(ss_quantity) FROM ${glob} ss JOIN ${dates} d ` +
        `ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_date = DATE '2000-01-01'` },
    { name: 'every partition',
      shears: `SELECT count(*), sum(ss_quantity) FROM '${sales}'`,
      duckdb: `SELECT count(*), sum(ss_quantity) FROM ${glob}` },
  ];
}

// CPU time of the shears process (perf stat's task-clock, all threads), steadier than wall
// time on a busy machine; null without perf.
const perfOut = path.join(os.tmpdir(), `metadata_bench_${process.pid}.perf`);
const havePerf = spawnSync('perf', ['stat', '-x,', '-e', 'task-clock', '-o', perfOut, 'true']).status === 0;

function runShears(binary, sql) {
  const args = ['--timer', '--format', 'csv', '-c', sql];
  const started = performance.now();
  const child = havePerf
    ? spawnSync('perf', ['stat', '-x,', '-e', 'task-clock', '-o', perfOut, binary, ...args],
      { encoding: 'utf8' })
    : spawnSync(binary, args, { encoding: 'utf8' });
  const wall = performance.now() - started;
  if (child.status !== 0) throw new Error(`${binary}: ${child.stderr}`);
  const statement = Number(child.stderr.match(/Run Time: ([\d.]+) ms/)[1]);
  let cpu = null;
  if (havePerf) {
    const line = fs.readFileSync(perfOut, 'utf8').split('\n').find((l) => l.includes('task-clock'));
    cpu = line ? Number(line.split(',')[0]) : null;
  }
  return { statement, wall, cpu, rows: child.stdout.trim().split('\n').slice(1).join(';') };
}

async function runDuckDB(sql) {
  const started = performance.now();
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const opened = performance.now();
  const cpuBefore = process.cpuUsage();
  const reader = await connection.runAndReadAll(sql);
  const done = performance.now();
  const cpuUsed = process.cpuUsage(cpuBefore);  // every thread of this process: DuckDB's
  const rows = reader.getRowsJson().map((r) => r.join(',')).join(';');
  connection.closeSync?.();
  return { query: done - opened, wall: done - started, rows,
    cpu: (cpuUsed.user + cpuUsed.system) / 1000 };
}

function parquetFilesOpened(binary, sql) {
  const trace = path.join(os.tmpdir(), `metadata_bench_${process.pid}.strace`);
  const child = spawnSync('strace', ['-f', '-e', 'trace=openat', '-o', trace, binary, '-c', sql]);
  if (child.error || child.status !== 0) return '?';
  const lines = fs.readFileSync(trace, 'utf8').split('\n');
  fs.rmSync(trace, { force: true });
  return String(lines.filter((l) => /\.parquet"/.test(l) && !/= -1/.test(l)).length);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ms = (x) => x.toFixed(1);

const options = parseArgs(process.argv.slice(2));
const binaries = [['shears', options.shears]];
if (options.baseline) binaries.push(['baseline', options.baseline]);
const table = [];
for (const q of queries(options.data)) {
  const times = Object.fromEntries(
    binaries.map(([label]) => [label, { statement: [], wall: [], cpu: [] }]));
  const duck = { query: [], wall: [], cpu: [] };
  let expected;
  for (let run = 0; run <= options.runs; run++) {  // run 0 warms the page cache
    for (const [label, binary] of binaries) {
      const r = runShears(binary, q.shears);
      if (run > 0) {
        times[label].statement.push(r.statement);
        times[label].wall.push(r.wall);
        if (r.cpu !== null) times[label].cpu.push(r.cpu);
      }
      expected ??= r.rows;
      if (r.rows !== expected) throw new Error(`${label} gave ${r.rows}, expected ${expected}`);
    }
    const d = await runDuckDB(q.duckdb);
    if (run > 0) {
      duck.query.push(d.query);
      duck.wall.push(d.wall);
      duck.cpu.push(d.cpu);
    }
    if (d.rows.replace(/"/g, '') !== expected) {
      throw new Error(`DuckDB gave ${d.rows}, shears ${expected}`);
    }
  }
  const row = [q.name];
  for (const [label, binary] of binaries) {
    const cpu = times[label].cpu.length ? ms(median(times[label].cpu)) : '?';
    row.push(`${ms(median(times[label].statement))} / ${ms(median(times[label].wall))}`, cpu,
      parquetFilesOpened(binary, q.shears));
  }
  row.push(`${ms(median(duck.query))} / ${ms(median(duck.wall))}`, ms(median(duck.cpu)));
  table.push(row);
}
const header = ['query'];
for (const [label] of binaries) {
  header.push(`${label} ms (statement / process)`, `${label} CPU ms`, `${label} files`);
}
header.push('DuckDB ms (query / with instance)', 'DuckDB query CPU ms');
console.log(`| ${header.join(' | ')} |`);
console.log(`|${header.map(() => '---').join('|')}|`);
for (const row of table) console.log(`| ${row.join(' | ')} |`);
console.log(`\n${options.runs} runs each (medians), ${os.cpus().length} cores, data ${options.data}`);

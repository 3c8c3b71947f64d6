// Runs the star-join suite (queries.mjs) on shears and on DuckDB over the same Parquet files,
// checks that they agree, and writes a markdown table and an SVG chart of the time ratios.
// bench/run builds shears, generates the data and calls this; see bench/README.md.
//
// Timing leaves out process start-up on both sides: shears runs each query in a fresh
// process with --timer (the statement's wall time, measured inside shears); DuckDB runs
// in this process and is timed around runAndReadAll. Runs alternate between the engines.
//
// Files and bytes read come from one extra run per engine and mode:
//   files: shears' EXPLAIN (ANALYZE, FORMAT JSON) files_read; DuckDB's JSON profile
//          "Total Files Read" (both summed over the table scans);
//   bytes: the rchar of /proc/self/io (bytes returned by read system calls, footers and
//          page cache hits included) before and after, the same measure for both engines.
//          A child's counters are added to its parent's when it is reaped, so for shears
//          this process's delta around the child is the child's; the bytes a bare
//          `shears -c "SELECT 1"` reads (its own start-up) are subtracted.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DuckDBInstance } from '@duckdb/node-api';
import { BENCH_TABLES, QUERIES, shearsSql } from './queries.mjs';
import { collectNodes, diffRows, findNumber, markdown, median, ms, sum, svgChart } from './report.mjs';

const HELP = `usage: node star_bench.mjs --shears BIN --data DIR [options]
  --runs N        timed runs per engine and mode after the warm-up (default 5)
  --warmup N      untimed runs first (default 1)
  --only REGEX    run only the queries whose name matches
  --out DIR       where RESULTS.md and ratios.svg go (default: this folder)
  --timeout S     give up on a shears run after S seconds (default 600)
  --scale S       the data's scale factor, for the report`;

function parseArgs(argv) {
  const options = { runs: 5, warmup: 1, only: '', out: path.dirname(new URL(import.meta.url).pathname),
    timeout: 600, scale: '?' };
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].replace(/^--/, '');
    if (name === 'help' || name === 'h') { console.log(HELP); process.exit(0); }
    if (!(name in options) && name !== 'shears' && name !== 'data') {
      throw new Error(`unknown option ${argv[i]}\n${HELP}`);
    }
    if (i + 1 >= argv.length) throw new Error(`${argv[i]} needs a value`);
    options[name] = argv[++i];
  }
  for (const required of ['shears', 'data']) {
    if (!options[required]) throw new Error(`--${required} is required\n${HELP}`);
  }
  for (const number of ['runs', 'warmup', 'timeout']) {
    options[number] = Number(options[number]);
    if (!Number.isInteger(options[number]) || options[number] < 0) {
      throw new Error(`--${number} must be a whole number, got ${options[number]}`);
    }
  }
  if (options.runs < 1) throw new Error('--runs must be at least 1');
  options.data = path.resolve(options.data);
  return options;
}

function readChar() {
  const match = fs.readFileSync('/proc/self/io', 'utf8').match(/^rchar: (\d+)$/m);
  return Number(match[1]);
}

/// Runs `sql` (after SET and the views) in one shears process; returns {ms, rows} or {error}.
function runShears(options, sql, dynamicFiltering, format = 'json') {
  const script = `SET dynamic_filtering = ${dynamicFiltering}; ${shearsSql(options.data, sql)}`;
  const child = spawnSync(options.shears, ['--timer', '--format', format, '-c', script], {
    encoding: 'utf8', timeout: options.timeout * 1000, maxBuffer: 1 << 30,
  });
  if (child.error) return { error: child.error.message };
  if (child.status !== 0) {
    return { error: (child.stderr || `exit ${child.status ?? child.signal}`).trim() };
  }
  const times = [...child.stderr.matchAll(/^Run Time: ([\d.]+) ms$/gm)].map((m) => Number(m[1]));
  const rows = child.stdout.split('\n').filter((l) => l).map((l) => Object.values(JSON.parse(l)));
  return { ms: times[times.length - 1], rows };
}

let shearsStartupBytes = 0;

function shearsMetrics(options, sql, dynamicFiltering) {
  const before = readChar();
  const result = runShears(options, `EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, dynamicFiltering);
  const bytes = readChar() - before - shearsStartupBytes;
  if (result.error) return result;
  const plan = JSON.parse(result.rows[0][0]);
  const scans = collectNodes(plan, (n) => n.operator === 'TABLE_SCAN');
  return {
    files: sum(scans.map((s) => findNumber(s, 'files_read'))),
    partitions: sum(scans.map((s) => findNumber(s, 'partitions_read'))),
    bytes: Math.max(0, bytes),
  };
}

// ---- DuckDB -----------------------------------------------------------------------------

async function openDuckDB(data) {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  // DuckDB keeps Parquet bytes it has read in memory across queries by default; shears
  // reads through the OS page cache every time, so both do that here.
  await connection.run('SET enable_external_file_cache = false');
  for (const t of BENCH_TABLES) {
    await connection.run(`CREATE VIEW ${t} AS SELECT * FROM read_parquet(` +
      `'${data}/${t}/**/*.parquet', hive_partitioning = true)`);
  }
  return connection;
}

async function runDuckDB(connection, sql) {
  try {
    const start = performance.now();
    const reader = await connection.runAndReadAll(sql);
    const ms = performance.now() - start;
    return { ms, rows: reader.getRowsJson() };
  } catch (e) {
    return { error: String(e.message || e) };
  }
}

async function duckdbMetrics(connection, sql) {
  const profile = path.join(os.tmpdir(), `shears-bench-duckdb-${process.pid}.json`);
  await connection.run(`PRAGMA enable_profiling = 'json'`);
  await connection.run(`SET profiling_output = '${profile}'`);
  const before = readChar();
  const result = await runDuckDB(connection, sql);
  const bytes = readChar() - before;
  await connection.run('PRAGMA disable_profiling');
  if (result.error) return result;
  const plan = JSON.parse(fs.readFileSync(profile, 'utf8'));
  fs.rmSync(profile, { force: true });
  const scans = collectNodes(plan, (n) => n.operator_type === 'TABLE_SCAN');
  return { files: sum(scans.map((s) => Number(s.extra_info?.['Total Files Read'] ?? 0))), bytes };
}


function machineInfo(options, duckdbVersion) {
  const cpu = os.cpus()[0]?.model.replace(/\s+/g, ' ').trim() ?? 'unknown CPU';
  const salesDir = path.join(options.data, 'store_sales');
  const partitions = fs.existsSync(salesDir) ? fs.readdirSync(salesDir).length : 0;
  return { cpus: os.cpus().length, cpu, memory: Math.round(os.totalmem() / 2 ** 30),
    duckdb: duckdbVersion, partitions, sales: '?', load: os.loadavg()[0].toFixed(1) };
}

// ---- main -------------------------------------------------------------------------------

/// The unpartitioned copy of store_sales the full-scan queries read: 8 files, written once
/// by shears next to the generated tables (the generator writes only the partitioned fact).
function ensureFlatCopy(options) {
  const dir = path.join(options.data, 'store_sales_flat');
  if (fs.existsSync(path.join(dir, '.complete'))) return;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir);
  for (let k = 0; k < 8; k++) {
    const sql = `COPY (SELECT * FROM '${options.data}/store_sales' WHERE ss_ticket_number % 8 = ${k}) ` +
      `TO '${dir}/part_${k}.parquet'`;
    const child = spawnSync(options.shears, ['-c', sql], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`writing ${dir}: ${child.stderr}`);
  }
  fs.writeFileSync(path.join(dir, '.complete'), '');
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  ensureFlatCopy(options);
  const only = new RegExp(options.only);
  const queries = QUERIES.filter((q) => only.test(q.name));
  if (!queries.length) throw new Error(`no query matches --only ${options.only}`);
  const duckdb = await openDuckDB(options.data);
  const version = (await duckdb.runAndReadAll('SELECT version()')).getRowsJson()[0][0];
  const machine = machineInfo(options, version);
  machine.sales = (await duckdb.runAndReadAll('SELECT count(*) FROM store_sales')).getRowsJson()[0][0];
  {
    const before = readChar();
    runShears(options, 'SELECT 1', true);
    shearsStartupBytes = readChar() - before;
  }

  const results = [];
  let mismatches = 0;
  for (const q of queries) {
    process.stderr.write(`${q.name}: `);
    const r = { name: q.name, what: q.what };
    const on = [], off = [], duck = [];
    let first;
    for (let run = 0; run < options.warmup + options.runs; run++) {
      const a = runShears(options, q.sql, true);
      if (a.error) { r.unsupported = a.error; break; }
      const d = await runDuckDB(duckdb, q.sql);
      if (d.error) throw new Error(`DuckDB failed on ${q.name}: ${d.error}`);
      const b = runShears(options, q.sql, false);
      if (b.error) { r.unsupported = `with dynamic filtering off: ${b.error}`; break; }
      if (!first) {
        const vsDuck = diffRows(a.rows, d.rows), vsOff = diffRows(a.rows, b.rows);
        r.check = vsDuck ? `MISMATCH vs DuckDB: ${vsDuck}` : vsOff ? `MISMATCH DF on vs off: ${vsOff}` : '';
        first = true;
      }
      if (run >= options.warmup) { on.push(a.ms); duck.push(d.ms); off.push(b.ms); }
      process.stderr.write('.');
    }
    if (r.unsupported) {
      const d = await runDuckDB(duckdb, q.sql);
      r.duckdb = d.ms;
      process.stderr.write(` unsupported by shears: ${r.unsupported.split('\n')[0]}\n`);
      results.push(r);
      continue;
    }
    r.shears = median(on); r.duckdb = median(duck); r.off = median(off);
    r.ratio = r.shears / r.duckdb;
    r.m = { on: shearsMetrics(options, q.sql, true), off: shearsMetrics(options, q.sql, false),
      duckdb: await duckdbMetrics(duckdb, q.sql) };
    if (r.check) {
      mismatches++;
      process.stderr.write(`\n\x1b[1;31m*** ${q.name}: ${r.check}\x1b[0m\n`);
    }
    process.stderr.write(` shears ${ms(r.shears)} ms, DuckDB ${ms(r.duckdb)} ms, ratio ${r.ratio.toFixed(2)}\n`);
    results.push(r);
  }

  fs.mkdirSync(options.out, { recursive: true });
  fs.writeFileSync(path.join(options.out, 'RESULTS.md'), markdown(results, options, machine));
  fs.writeFileSync(path.join(options.out, 'ratios.svg'), svgChart(results));
  console.log(markdown(results, options, machine));
  if (mismatches) {
    console.error(`\x1b[1;31m${mismatches} queries gave different results on shears and DuckDB\x1b[0m`);
    process.exit(1);
  }
}

main().catch((e) => {
  console.error(e.message || e);
  process.exit(2);
});

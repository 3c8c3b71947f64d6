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
import { QUERIES, TABLES } from './queries.mjs';

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

// ---- shears -----------------------------------------------------------------------------

const KEYWORDS = new Set(['where', 'join', 'left', 'right', 'full', 'inner', 'cross', 'on',
  'group', 'order', 'limit', 'union', 'having', 'using', 'natural', 'except', 'intersect']);

// Points the suite's table names at the data: "FROM store_sales ss" becomes
// "FROM '<data>/store_sales' ss" (and a table without alias gets its name as alias). Views
// (CREATE VIEW store_sales AS SELECT * FROM '...') would be simpler, but shears does not yet
// prune columns through a view's projection, so every scan would read every column.
function shearsSql(data, sql) {
  const names = TABLES.join('|');
  return sql.replace(new RegExp(`\\b(FROM|JOIN)\\s+(${names})\\b(\\s+(AS\\s+)?(\\w+))?`, 'gi'),
    (match, keyword, table, aliasPart, as, alias) => {
      const source = `${keyword} '${data}/${table}'`;
      if (alias && !KEYWORDS.has(alias.toLowerCase())) return `${source}${aliasPart}`;
      return `${source} AS ${table}${aliasPart ?? ''}`;
    });
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
  for (const t of TABLES) {
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

// ---- results ----------------------------------------------------------------------------

function collectNodes(node, match, out = []) {
  if (node && typeof node === 'object') {
    if (match(node)) out.push(node);
    for (const value of Object.values(node)) collectNodes(value, match, out);
  }
  return out;
}

function findNumber(node, key) {
  const found = collectNodes(node, (n) => typeof n[key] === 'number');
  return found.length ? found[0][key] : 0;
}

const sum = (values) => values.reduce((a, b) => a + b, 0);

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

// Values from either engine as numbers where they look like numbers, so 12.50 (DECIMAL text)
// equals 12.5 and a BIGINT equals its text.
function normalize(value) {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return String(value);
  const text = String(value);
  return /^-?\d+(\.\d+)?(e[-+]?\d+)?$/i.test(text) ? Number(text) : text;
}

function compareValues(a, b) {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : 1;
}

function sortRows(rows) {
  return rows.map((r) => r.map(normalize)).sort((x, y) => {
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      const c = compareValues(x[i], y[i]);
      if (c !== 0) return c;
    }
    return x.length - y.length;
  });
}

const close = (a, b) => a === b ||
  (typeof a === 'number' && typeof b === 'number' &&
   Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b)));

/// "" when equal, else what differs first.
function diffRows(left, right) {
  const a = sortRows(left), b = sortRows(right);
  if (a.length !== b.length) return `${a.length} rows vs ${b.length}`;
  for (let r = 0; r < a.length; r++) {
    if (a[r].length !== b[r].length) return `row ${r}: ${a[r].length} columns vs ${b[r].length}`;
    for (let c = 0; c < a[r].length; c++) {
      if (!close(a[r][c], b[r][c])) {
        return `row ${r}: ${JSON.stringify(a[r])} vs ${JSON.stringify(b[r])}`;
      }
    }
  }
  return '';
}

// ---- report -----------------------------------------------------------------------------

const ms = (v) => (v === undefined ? '–' : v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : v.toFixed(0));
const mb = (v) => (v === undefined ? '–' : (v / 1e6).toFixed(v < 1e7 ? 2 : 1));

function markdown(results, options, machine) {
  const lines = [];
  lines.push('# shears vs DuckDB: the star-join suite', '');
  lines.push(`Written by \`bench/run\` on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC. ` +
    `Scale ${options.scale} (${machine.sales} store_sales rows in ${machine.partitions} partitions); ` +
    `${machine.cpus} cores (${machine.cpu}), ${machine.memory} GiB; DuckDB ${machine.duckdb}; ` +
    `median of ${options.runs} runs after ${options.warmup} warm-up, engines alternating.`, '');
  lines.push('Times in ms without process start-up. *DF off*: shears with `dynamic_filtering = false`. ' +
    'Files: data files opened (each engine\'s profiler); MB: bytes returned by read calls ' +
    '(`/proc/self/io` rchar, footers included). Ratio < 1: shears faster.', '');
  lines.push('![shears/DuckDB time ratio per query](ratios.svg)', '');
  lines.push('| query | shears | DuckDB | shears/DuckDB | shears DF off | files shears / DF off / DuckDB | MB shears / DF off / DuckDB | check |');
  lines.push('|---|--:|--:|--:|--:|--:|--:|---|');
  for (const r of results) {
    const cell = (x) => (x === undefined ? '–' : x);
    if (r.unsupported) {
      lines.push(`| ${r.name} | unsupported | ${ms(r.duckdb)} | – | – | – | – | ${r.unsupported.replace(/\|/g, '\\|').replace(/\n/g, ' ')} |`);
      continue;
    }
    lines.push(`| ${r.name} | ${ms(r.shears)} | ${ms(r.duckdb)} | **${r.ratio.toFixed(2)}** | ${ms(r.off)} | ` +
      `${cell(r.m.on.files)} / ${cell(r.m.off.files)} / ${cell(r.m.duckdb.files)} | ` +
      `${mb(r.m.on.bytes)} / ${mb(r.m.off.bytes)} / ${mb(r.m.duckdb.bytes)} | ${r.check || 'equal'} |`);
  }
  const ratios = results.filter((r) => r.ratio).map((r) => r.ratio);
  if (ratios.length) {
    lines.push('', `Geometric mean of shears/DuckDB over ${ratios.length} queries: ` +
      `**${geomean(ratios).toFixed(2)}**.`);
  }
  lines.push('', 'Queries:', '');
  for (const r of results) lines.push(`- \`${r.name}\`: ${r.what}`);
  return lines.join('\n') + '\n';
}

const geomean = (values) => Math.exp(sum(values.map(Math.log)) / values.length);

const escapeXml = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/// Horizontal bars on a log scale around 1: left of the line shears is faster.
function svgChart(results) {
  const rows = results;
  const label = 230, plot = 460, right = 70, rowHeight = 22, top = 40;
  const width = label + plot + right, height = top + rows.length * rowHeight + 30;
  const ran = rows.filter((r) => r.ratio);
  const extent = Math.max(2, ...ran.map((r) => Math.max(r.ratio, 1 / r.ratio)));
  const decades = Math.ceil(Math.log10(extent) * 2) / 2;  // half decades
  const x = (ratio) => label + plot / 2 + (Math.log10(ratio) / decades) * (plot / 2);
  const out = [`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
    `font-family="sans-serif" font-size="12">`,
  `<rect width="${width}" height="${height}" fill="white"/>`,
  `<text x="${width / 2}" y="18" text-anchor="middle" font-size="14">shears / DuckDB time ` +
    `(log scale; left: shears faster)</text>`];
  for (const tick of [1 / 100, 1 / 10, 1 / 3, 1, 3, 10, 100]) {
    if (Math.abs(Math.log10(tick)) > decades + 1e-9) continue;
    const tx = x(tick).toFixed(1);
    out.push(`<line x1="${tx}" y1="${top - 6}" x2="${tx}" y2="${height - 24}" stroke="${tick === 1 ? '#333' : '#ddd'}"/>`);
    out.push(`<text x="${tx}" y="${height - 10}" text-anchor="middle" fill="#555">${tick < 1 ? '1/' + Math.round(1 / tick) : tick}</text>`);
  }
  rows.forEach((r, i) => {
    const y = top + i * rowHeight;
    const x0 = x(1), x1 = x(r.ratio);
    out.push(`<text x="${label - 8}" y="${y + 15}" text-anchor="end">${escapeXml(r.name)}</text>`);
    if (!r.ratio) {
      out.push(`<text x="${x0 + 4}" y="${y + 15}" fill="#888">unsupported by shears</text>`);
      return;
    }
    out.push(`<rect x="${Math.min(x0, x1).toFixed(1)}" y="${y + 4}" width="${Math.max(1, Math.abs(x1 - x0)).toFixed(1)}" ` +
      `height="${rowHeight - 8}" fill="${r.ratio <= 1 ? '#2a9d58' : '#d1495b'}"/>`);
    out.push(`<text x="${(r.ratio <= 1 ? x0 : x1) + 4}" y="${y + 15}">${r.ratio.toFixed(2)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}

function machineInfo(options, duckdbVersion) {
  const cpu = os.cpus()[0]?.model.replace(/\s+/g, ' ').trim() ?? 'unknown CPU';
  const salesDir = path.join(options.data, 'store_sales');
  const partitions = fs.existsSync(salesDir) ? fs.readdirSync(salesDir).length : 0;
  return { cpus: os.cpus().length, cpu, memory: Math.round(os.totalmem() / 2 ** 30),
    duckdb: duckdbVersion, partitions, sales: '?' };
}

// ---- main -------------------------------------------------------------------------------

async function main() {
  const options = parseArgs(process.argv.slice(2));
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

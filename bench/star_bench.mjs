// Runs the star-join suite (queries.mjs; --suite tpcds: tpcds_queries.mjs) on shears and on DuckDB over the same Parquet files,
// checks that they agree, and writes RESULTS.md and a ratio chart per mode. bench/run builds
// shears, generates the data and calls this; bench/README.md says what each mode measures.
//
// Modes (--mode, default all), each engine alternating with the other run by run:
//   fresh:   a new process per query, as a user first meets each engine: `shears -f script`
//            and `node duckdb_fresh.mjs script` (views, then the query), timed from spawn to
//            exit; an empty run of each (shears -c 'SELECT 1'; node, DuckDB, SELECT 1)
//            alternates with them and is subtracted for the net time.
//   session: one long-lived process per engine with the views created once; the statement's
//            own time (shears_query_server's "ms", as --timer prints it; DuckDB around
//            runAndReadAll in this process). Also shears with dynamic filtering off.
//   catalog: shears on a database directory whose tables are CREATE EXTERNAL TABLE (footers
//            read once at registration), in the server as in session mode; DuckDB as there.
//
// Files: shears' EXPLAIN (ANALYZE, FORMAT JSON) files_read and DuckDB's JSON profile
// "Total Files Read", summed over the table scans (one extra run per engine and mode).
// Bytes: rchar of /proc/PID/io (bytes returned by read calls, page cache hits and footers
// included) around a query run: of the server process in session and catalog modes, of this
// process for DuckDB in them; in fresh mode of this process around the child (Linux adds a
// reaped child's counters to its parent's), less what the empty run reads.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DuckDBInstance } from '@duckdb/node-api';
import { ShearsServer } from '../tests/differential/engines.mjs';
import { BENCH_TABLES, QUERIES, viewSql } from './queries.mjs';
import { TPCDS_QUERIES, TPCDS_TABLES } from './tpcds_queries.mjs';
import { MODES, collectNodes, diffRows, findNumber, markdown, median, ms, netTimes, sum, svgChart } from './report.mjs';

const HERE = path.dirname(new URL(import.meta.url).pathname);

const HELP = `usage: node star_bench.mjs --shears BIN --data DIR [options]
  --suite S       star (queries.mjs, default) or tpcds (tpcds_queries.mjs, on shears generate tpcds data)
  --mode M        fresh, session, catalog or all (default all)
  --runs N        timed runs per engine and mode after the warm-up (default 5)
  --warmup N      untimed runs first (default 1)
  --only REGEX    run only the queries whose name matches
  --out DIR       where RESULTS.md and the charts go (default: this folder)
  --timeout S     give up on a shears run after S seconds (default 600)
  --server BIN    shears_query_server (default: tests/differential/ beside --shears)
  --scale S       the data's scale factor, for the report`;

function parseArgs(argv) {
  const options = { mode: 'all', runs: 5, warmup: 1, only: '', out: HERE, timeout: 600,
    scale: '?', server: '', suite: 'star' };
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
  options.modes = options.mode === 'all' ? MODES : [options.mode];
  if (!MODES.includes(options.mode) && options.mode !== 'all') {
    throw new Error(`--mode must be ${MODES.join(', ')} or all, got ${options.mode}`);
  }
  if (!['star', 'tpcds'].includes(options.suite)) {
    throw new Error(`--suite must be star or tpcds, got ${options.suite}`);
  }
  options.tables = options.suite === 'tpcds' ? TPCDS_TABLES : BENCH_TABLES;
  options.queries = options.suite === 'tpcds' ? TPCDS_QUERIES : QUERIES;
  // The star suite's report keeps its file names; the others' carry the suite's name.
  options.suffix = options.suite === 'star' ? '' : `-${options.suite}`;
  options.data = path.resolve(options.data);
  options.server ||= path.join(path.dirname(options.shears), 'tests/differential/shears_query_server');
  if (!fs.existsSync(options.server)) throw new Error(`no query server at ${options.server}`);
  return options;
}

const readChar = (pid = 'self') =>
  Number(fs.readFileSync(`/proc/${pid}/io`, 'utf8').match(/^rchar: (\d+)$/m)[1]);

/// A table is Hive-partitioned when its directory holds key=value directories.
function views(data, tables) {
  return tables.map((t) => viewSql(data, t,
    fs.readdirSync(path.join(data, t)).some((e) => e.includes('='))));
}

/// Runs a child to its end: {ms (spawn to exit), bytes (its rchar), stdout} or {error}.
function timedChild(options, command, args) {
  const before = readChar();
  const start = performance.now();
  const child = spawnSync(command, args, { encoding: 'utf8', timeout: options.timeout * 1000,
    maxBuffer: 1 << 30 });
  const elapsed = performance.now() - start;
  const bytes = readChar() - before;
  if (child.error) return { error: child.error.message };
  if (child.status !== 0) return { error: (child.stderr || `exit ${child.status ?? child.signal}`).trim() };
  return { ms: elapsed, bytes, stdout: child.stdout };
}

// ---- fresh: a process per query ---------------------------------------------------------

class Fresh {
  constructor(options) {
    this.options = options;
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shears-bench-'));
    this.views = views(options.data, options.tables);
  }

  shears(sql) {
    const script = path.join(this.dir, 'query.sql');
    fs.writeFileSync(script, [...this.views, sql].join(';\n') + ';\n');
    const r = timedChild(this.options, this.options.shears, ['--format', 'json', '-f', script]);
    if (r.error) return r;
    r.rows = r.stdout.split('\n').filter((l) => l).map((l) => Object.values(JSON.parse(l)));
    return r;
  }

  shearsEmpty() { return timedChild(this.options, this.options.shears, ['-c', 'SELECT 1']); }

  duckdb(sql, setup = this.views) {
    const script = path.join(this.dir, 'query.json');
    fs.writeFileSync(script, JSON.stringify({ setup, query: sql }));
    const r = timedChild(this.options, process.execPath, [path.join(HERE, 'duckdb_fresh.mjs'), script]);
    if (r.error) return r;
    r.rows = JSON.parse(r.stdout);
    return r;
  }

  duckdbEmpty() { return this.duckdb('SELECT 1', []); }

  close() { fs.rmSync(this.dir, { recursive: true, force: true }); }
}

// ---- session and catalog: one shears_query_server each ----------------------------------

async function shearsQuery(server, sql, dynamicFiltering = true) {
  const answer = await server.query(sql, [`SET dynamic_filtering = ${dynamicFiltering}`]);
  if (answer.error) return { error: `${answer.error}: ${answer.message}` };
  return { ms: answer.ms, rows: answer.rows };
}

async function serverMetrics(server, sql, dynamicFiltering = true) {
  const explained = await shearsQuery(server, `EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, dynamicFiltering);
  if (explained.error) return explained;
  const scans = collectNodes(JSON.parse(explained.rows[0][0]), (n) => n.operator === 'TABLE_SCAN');
  const pid = server.child.pid;
  const before = readChar(pid);
  await shearsQuery(server, sql, dynamicFiltering);
  return { files: sum(scans.map((s) => findNumber(s, 'files_read'))), bytes: readChar(pid) - before };
}

/// A database directory with every table registered as an external table; returns its setup
/// time (listing and reading every footer once).
function makeCatalog(options, dir) {
  fs.rmSync(dir, { recursive: true, force: true });
  const sql = options.tables.map((t) =>
    `CREATE EXTERNAL TABLE ${t} STORED AS PARQUET LOCATION '${options.data}/${t}'`).join(';\n');
  const r = timedChild(options, options.shears, [dir, '-c', sql]);
  if (r.error) throw new Error(`registering the catalog in ${dir}: ${r.error}`);
  return r.ms;
}

// ---- DuckDB in this process -------------------------------------------------------------

async function openDuckDB(data, tables) {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  // DuckDB keeps Parquet bytes it has read in memory across queries by default; shears
  // reads through the OS page cache every time, so both do that here.
  await connection.run('SET enable_external_file_cache = false');
  for (const sql of views(data, tables)) await connection.run(sql);
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

/// Times one query in one mode: `engines` are {label: () => Promise<{ms, rows} | {error}>},
/// run in turn warmup + runs times; the first run's rows are checked against DuckDB's.
async function measure(options, r, engines) {
  const times = Object.fromEntries(Object.keys(engines).map((k) => [k, []]));
  const last = {};
  for (let run = 0; run < options.warmup + options.runs; run++) {
    for (const [label, go] of Object.entries(engines)) {
      const x = await go();
      if (x.error) {
        if (label === 'duckdb') throw new Error(`DuckDB failed on ${r.name}: ${x.error}`);
        r.unsupported = (label === 'off' ? 'with dynamic filtering off: ' : '') + x.error;
        return;
      }
      last[label] = x;
      if (run >= options.warmup) times[label].push(x.ms);
    }
    if (run === 0) {
      for (const label of Object.keys(engines).filter((l) => l === 'on' || l === 'off')) {
        const diff = diffRows(last[label].rows, last.duckdb.rows);
        if (diff && !r.check) r.check = `MISMATCH ${label === 'off' ? 'DF off ' : ''}vs DuckDB: ${diff}`;
      }
      r.check ??= '';
    }
    process.stderr.write('.');
  }
  for (const label of Object.keys(engines)) r[label === 'on' ? 'shears' : label] = median(times[label]);
  return last;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (options.suite === 'star') ensureFlatCopy(options);
  const only = new RegExp(options.only);
  const queries = options.queries.filter((q) => only.test(q.name));
  if (!queries.length) throw new Error(`no query matches --only ${options.only}`);
  const duckdb = await openDuckDB(options.data, options.tables);
  const version = (await duckdb.runAndReadAll('SELECT version()')).getRowsJson()[0][0];
  const machine = machineInfo(options, version);
  machine.sales = (await duckdb.runAndReadAll('SELECT count(*) FROM store_sales')).getRowsJson()[0][0];
  const modes = options.modes;

  const fresh = modes.includes('fresh') ? new Fresh(options) : null;
  const session = modes.includes('session')
    ? new ShearsServer(options.server, options.data, { setup: views(options.data, options.tables),
      timeoutMs: options.timeout * 1000 })
    : null;
  let catalog = null;
  if (modes.includes('catalog')) {
    const dir = `${options.data}.catalog`;
    machine.catalogMs = makeCatalog(options, dir);
    catalog = new ShearsServer(options.server, options.data, { args: [dir], setup: [],
      timeoutMs: options.timeout * 1000 });
  }

  const report = Object.fromEntries(modes.map((m) => [m, []]));
  let mismatches = 0;
  for (const q of queries) {
    const duck = () => runDuckDB(duckdb, q.sql);
    let duckM;
    const duckdbMeasured = async () => (duckM ??= await duckdbMetrics(duckdb, q.sql));
    for (const mode of modes) {
      process.stderr.write(`${q.name} ${mode}: `);
      const r = { name: q.name, what: q.what };
      if (mode === 'fresh') {
        // The empty runs alternate with the queries too, so that each query's net time
        // subtracts start-up measured under the same load.
        const last = await measure(options, r, { on: async () => fresh.shears(q.sql),
          duckdb: async () => fresh.duckdb(q.sql), onEmpty: async () => fresh.shearsEmpty(),
          duckdbEmpty: async () => fresh.duckdbEmpty() });
        if (!r.unsupported) {
          r.shearsRaw = r.shears; r.duckdbRaw = r.duckdb;
          netTimes(r);
          const m = await duckdbMeasured();
          r.m = { on: { bytes: Math.max(0, last.on.bytes - last.onEmpty.bytes) },
            duckdb: { files: m.files, bytes: Math.max(0, last.duckdb.bytes - last.duckdbEmpty.bytes) } };
        }
      } else {
        const server = mode === 'session' ? session : catalog;
        const engines = { on: () => shearsQuery(server, q.sql), duckdb: duck };
        if (mode === 'session') engines.off = () => shearsQuery(server, q.sql, false);
        await measure(options, r, engines);
        if (!r.unsupported) {
          r.m = { on: await serverMetrics(server, q.sql), duckdb: await duckdbMeasured() };
          if (mode === 'session') r.m.off = await serverMetrics(server, q.sql, false);
        }
      }
      if (r.unsupported) {
        r.duckdb = (await duck()).ms;
        process.stderr.write(` unsupported by shears: ${r.unsupported.split('\n')[0]}\n`);
        report[mode].push(r);
        continue;
      }
      if (!r.noise) r.ratio = r.shears / r.duckdb;
      report[mode].push(r);
      if (r.check) {
        mismatches++;
        process.stderr.write(`\n\x1b[1;31m*** ${q.name} (${mode}): ${r.check}\x1b[0m\n`);
      }
      process.stderr.write(` shears ${ms(r.shears)} ms, DuckDB ${ms(r.duckdb)} ms, ` +
        (r.noise ? 'net time within start-up noise (left out of the net mean)\n' : `ratio ${r.ratio.toFixed(2)}\n`));
    }
  }
  if (report.fresh) {
    const ran = report.fresh.filter((r) => r.onEmpty !== undefined);
    if (ran.length) {
      machine.baseline = { shears: median(ran.map((r) => r.onEmpty)),
        duckdb: median(ran.map((r) => r.duckdbEmpty)) };
    }
  }
  // Files and bytes of the fresh shears runs: the plan is the session's (the same views).
  if (report.fresh && report.session) {
    for (const r of report.fresh) {
      const s = report.session.find((x) => x.name === r.name);
      if (r.m && s?.m) r.m.on.files = s.m.on.files;
    }
  }
  fresh?.close();
  await session?.close();
  await catalog?.close();

  fs.mkdirSync(options.out, { recursive: true });
  machine.loadEnd = os.loadavg()[0].toFixed(1);
  const text = markdown(report, options, machine);
  fs.writeFileSync(path.join(options.out, `RESULTS${options.suffix}.md`), text);
  // The figures themselves, to compare runs or render the report again.
  fs.writeFileSync(path.join(options.out, `results${options.suffix}.json`),
    JSON.stringify({ options: { ...options, shears: undefined, server: undefined, data: undefined,
      out: undefined, tables: undefined, queries: undefined },
      machine, report }, null, 1) + '\n');
  for (const mode of modes) {
    fs.writeFileSync(path.join(options.out, `ratios${options.suffix}-${mode}.svg`), svgChart(report[mode], mode));
  }
  console.log(text);
  if (mismatches) {
    console.error(`\x1b[1;31m${mismatches} query runs gave different results on shears and DuckDB\x1b[0m`);
    process.exit(1);
  }
}

main().catch((e) => {
  console.error(e.message || e);
  process.exit(2);
});

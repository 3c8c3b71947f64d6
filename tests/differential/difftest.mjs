// Differential tests: every query runs on DuckDB and on shears (dynamic filtering on, off, and
// runtime_filter = 'always'); all must agree. See tests/differential/README.md.
//
//   node difftest.mjs prepare --shears BIN --data DIR [--scale S]   generate the data once
//   node difftest.mjs corpus  --server BIN --data DIR [--only REGEX]
//   node difftest.mjs random  --server BIN --data DIR [--count N] [--seed N] [--start I]

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { diffRows } from './compare.mjs';
import { ShearsServer, openDuckDB } from './engines.mjs';
import { generateQuery } from './generator.mjs';

const HERE = path.dirname(new URL(import.meta.url).pathname);

/// The shears settings each query runs under; the first is the reference for the others.
export const MODES = [
  { name: 'shears', settings: [] },
  { name: 'shears dynamic_filtering=false', settings: ['SET dynamic_filtering = false'] },
  { name: "shears runtime_filter='always'", settings: ["SET runtime_filter = 'always'"] },
];

function parseArgs(argv) {
  const options = { command: argv[0], scale: '0.01', count: '300', seed: '1', start: '0',
    only: '', timeout: '120', verbose: false, 'memory-limit': '' };
  for (let i = 1; i < argv.length; i++) {
    const name = argv[i].replace(/^--/, '');
    if (name === 'verbose') { options.verbose = true; continue; }
    if (!['shears', 'server', 'data', 'scale', 'count', 'seed', 'start', 'only', 'timeout', 'memory-limit'].includes(name)) {
      throw new Error(`unknown option ${argv[i]}`);
    }
    if (i + 1 >= argv.length) throw new Error(`${argv[i]} needs a value`);
    options[name] = argv[++i];
  }
  for (const n of ['count', 'seed', 'start', 'timeout']) {
    options[n] = Number(options[n]);
    if (!Number.isInteger(options[n]) || options[n] < 0) throw new Error(`--${n} must be a whole number`);
  }
  if (options.data) options.data = path.resolve(options.data);
  return options;
}

/// Generates the star schema into `data` unless a finished copy (.complete) is there.
function prepare(options) {
  if (!options.shears || !options.data) throw new Error('prepare needs --shears and --data');
  if (fs.existsSync(path.join(options.data, '.complete'))) return;
  fs.rmSync(options.data, { recursive: true, force: true });
  const child = spawnSync(options.shears, ['generate', 'star', '--scale', options.scale, '--out', options.data],
    { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`shears generate failed: ${child.stderr || child.error}`);
  fs.writeFileSync(path.join(options.data, '.complete'), `scale ${options.scale}\n`);
  process.stdout.write(child.stdout);
}

const TESTDATA = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', 'data');

/// Queries of tests/differential/corpus/*.sql: statements end with ';' at the end of a line;
/// the comment lines before one describe it, and `-- ordered` there compares rows in order.
export function readCorpus(dir) {
  const queries = [];
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.sql')).sort()) {
    const lines = fs.readFileSync(path.join(dir, file), 'utf8').split('\n');
    let text = [], comments = [], startLine = 0;
    lines.forEach((line, i) => {
      if (!text.length && /^\s*--/.test(line)) { comments.push(line.replace(/^\s*--\s?/, '')); return; }
      if (!text.length && !line.trim()) { comments = []; return; }
      if (!text.length) startLine = i + 1;
      text.push(line);
      if (/;\s*$/.test(line)) {
        // ${TESTDATA}: tests/data, so both engines read the same files (12_csv.sql).
        const sql = text.join('\n').replace(/;\s*$/, '').replaceAll('${TESTDATA}', TESTDATA);
        queries.push({ name: `${file}:${startLine}`, sql,
          ordered: comments.some((c) => /^ordered\b/.test(c)) });
        text = [];
        comments = [];
      }
    });
    if (text.length) throw new Error(`${file}:${startLine}: statement without a final ';'`);
  }
  return queries;
}

const firstLine = (text) => String(text).split('\n')[0];

/// Runs one query everywhere; returns {status: 'agreed' | 'unsupported' | 'both_rejected' |
/// 'failed', detail}.
async function check(duckdb, shears, query, timing, options = {}) {
  // DuckDB runs on its own threads while shears runs in its process.
  const start = Date.now();
  const duckdbDone = duckdb.query(query.sql).then((result) => {
    timing.duckdb += Date.now() - start;
    return result;
  });
  const results = [];
  // --memory-limit: every mode runs under it (operators spill past half of it).
  const limit = options['memory-limit'] ? [`SET memory_limit = '${options['memory-limit']}'`] : [];
  for (const mode of MODES) results.push(await shears.query(query.sql, [...limit, ...mode.settings]));
  timing.shears += Date.now() - start;
  const expected = await duckdbDone;
  const reference = results[0];
  if (reference.error === 'Not Supported Error') {
    return { status: 'unsupported', detail: firstLine(reference.message) };
  }
  // The modes must agree with each other whatever DuckDB says.
  for (let m = 1; m < MODES.length; m++) {
    const other = results[m];
    if (Boolean(other.error) !== Boolean(reference.error)) {
      const failed = other.error ? other : reference;
      return { status: 'failed', detail: `${other.error ? MODES[m].name : MODES[0].name} failed where ` +
        `${other.error ? MODES[0].name : MODES[m].name} did not: ${failed.error}: ${failed.message}` };
    }
    if (other.error) continue;
    const diff = diffRows(reference.rows, other.rows, { leftTypes: reference.types,
      rightTypes: other.types, ordered: query.ordered, names: [MODES[0].name, MODES[m].name] });
    if (diff) return { status: 'failed', detail: `${MODES[0].name} and ${MODES[m].name} differ: ${diff}` };
  }
  if (expected.error && reference.error) {
    return { status: 'both_rejected', detail: `DuckDB: ${firstLine(expected.message)}; shears: ${firstLine(reference.message)}` };
  }
  if (reference.error) {
    return { status: 'failed', detail: `shears failed, DuckDB did not: ${reference.error}: ${reference.message}` };
  }
  if (expected.error) return { status: 'failed', detail: `DuckDB failed, shears did not: ${expected.message}` };
  if (expected.names.length !== reference.names.length) {
    return { status: 'failed', detail: `columns: DuckDB ${JSON.stringify(expected.names)}, shears ${JSON.stringify(reference.names)}` };
  }
  const diff = diffRows(expected.rows, reference.rows, { leftTypes: expected.types,
    rightTypes: reference.types, ordered: query.ordered, names: ['DuckDB', 'shears'] });
  if (diff) {
    return { status: 'failed', detail: `DuckDB and shears differ: ${diff}\n  types: DuckDB ` +
      `${expected.types.join(', ')}; shears ${reference.types.join(', ')}` };
  }
  return { status: 'agreed', rows: expected.rows.length };
}

/// analyze: ANALYZE the tables in shears first (statistics from the data rather than from the
/// Parquet footers; the corpus runs without, the random queries with).
async function runAll(options, queries, describe, analyze) {
  if (!options.server || !options.data) throw new Error(`${options.command} needs --server and --data`);
  if (!fs.existsSync(path.join(options.data, '.complete'))) {
    throw new Error(`no generated data in ${options.data} (run 'difftest.mjs prepare' first)`);
  }
  const setupStart = Date.now();
  let duckdb;
  try {
    duckdb = await openDuckDB(options.data);
  } catch (e) {
    if (e.code === 'ERR_MODULE_NOT_FOUND') {
      console.error('@duckdb/node-api is not installed: run scripts/install_deps.sh --node ' +
        '(make test does); skipping');
      process.exit(77);
    }
    throw e;
  }
  const shears = new ShearsServer(options.server, options.data, { timeoutMs: options.timeout * 1000, analyze });
  await shears.start();
  console.log(`set-up (DuckDB loads the tables, shears creates${analyze ? " and analyzes" : ""} them): ${((Date.now() - setupStart) / 1000).toFixed(1)} s`);
  const counts = { agreed: 0, unsupported: 0, both_rejected: 0, failed: 0 };
  const unsupported = [], failures = [];
  let nonEmpty = 0;
  const started = Date.now();
  const timing = { duckdb: 0, shears: 0 };
  for (const query of queries) {
    const outcome = await check(duckdb, shears, query, timing, options);
    counts[outcome.status]++;
    if (outcome.rows) nonEmpty++;
    if (outcome.status === 'unsupported') unsupported.push(`${describe(query)}: ${outcome.detail}`);
    if (outcome.status === 'failed') {
      const report = `\x1b[1;31mFAILED\x1b[0m ${describe(query)}\n${query.sql}\n${outcome.detail}\n`;
      failures.push(report);
      console.error(report);
    } else if (options.verbose) {
      console.error(`${outcome.status} ${describe(query)}${outcome.detail ? ': ' + outcome.detail : ''}`);
    }
  }
  const exit = await shears.close();
  if (exit) {
    counts.failed++;
    console.error(`\x1b[1;31mFAILED\x1b[0m ${exit}`);
  }
  duckdb.close();
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (unsupported.length) {
    console.log(`unsupported by shears (not failures):\n  ${unsupported.join('\n  ')}`);
  }
  console.log(`${queries.length} queries in ${seconds} s (DuckDB ${duckdb.version} ` +
    `${(timing.duckdb / 1000).toFixed(1)} s, shears in ${MODES.length} modes ${(timing.shears / 1000).toFixed(1)} s): ${counts.agreed} agreed ` +
    `(${nonEmpty} with rows), ${counts.both_rejected} rejected by both, ${counts.unsupported} ` +
    `unsupported by shears, ${counts.failed} failed`);
  return counts.failed ? 1 : 0;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  switch (options.command) {
    case 'prepare':
      prepare(options);
      return 0;
    case 'corpus': {
      const only = new RegExp(options.only);
      const queries = readCorpus(path.join(HERE, 'corpus')).filter((q) => only.test(q.name) || only.test(q.sql));
      return runAll(options, queries, (q) => q.name, false);
    }
    case 'random': {
      console.log(`random queries: --seed ${options.seed} --start ${options.start} --count ${options.count}`);
      const queries = [];
      for (let i = options.start; i < options.start + options.count; i++) {
        queries.push({ index: i, ...generateQuery(options.seed, i) });
      }
      return runAll(options, queries,
        (q) => `random query ${q.index} (reproduce: tests/differential/run random --seed ${options.seed} --start ${q.index} --count 1)`,
        true);
    }
    default:
      throw new Error('usage: difftest.mjs prepare|corpus|random [options] (see tests/differential/README.md)');
  }
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  main().then((code) => process.exit(code), (e) => {
    console.error(e.stack || e.message || e);
    process.exit(2);
  });
}

// Issue 19's two spilling queries, shears against DuckDB under the same memory_limit:
//   node bench/spill.mjs TPCDS_DIR [--limit 256MB] [--runs 3] [--shears build/release/shears]
//                        [--queries aggregate,self_join,rollup]
// TPCDS_DIR is `shears generate tpcds --out` (store_sales Hive-partitioned). Each engine runs
// each query in a fresh process (2 threads, a temp directory of its own), runs alternating;
// printed: median wall seconds, the largest resident size, and whether the answers agree (an
// engine failing, DuckDB's Out of Memory Error for one, is printed as such). /usr/bin/time gives
// the resident size, so it includes node's for DuckDB.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const dir = args[0];
if (!dir || !fs.existsSync(path.join(dir, 'store_sales'))) {
  console.error('usage: node bench/spill.mjs TPCDS_DIR [--limit 256MB] [--runs 3] [--shears BIN]');
  process.exit(2);
}
const limit = option('--limit', '256MB');
const runs = Number(option('--runs', '3'));
const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const shears = option('--shears', path.join(root, 'build/release/shears'));
const sales = `read_parquet('${path.resolve(dir)}/store_sales/*/*.parquet', hive_partitioning = true)`;
const queries = {
  aggregate: `SELECT count(*), sum(c), max(c) FROM (SELECT ss_ticket_number, ss_item_sk, count(*) c FROM ${sales} GROUP BY 1, 2) t`,
  self_join: `SELECT count(*), sum(a.ss_quantity), sum(b.ss_quantity) FROM ${sales} a JOIN ${sales} b ON a.ss_ticket_number = b.ss_ticket_number AND a.ss_item_sk = b.ss_item_sk`,
  // The aggregate's groups rolled up: one row per (ticket, item), per ticket and in all.
  rollup: `SELECT count(*), sum(c), max(c), count(ss_item_sk) FROM (SELECT ss_ticket_number, ss_item_sk, count(*) c FROM ${sales} GROUP BY ROLLUP (1, 2)) t`,
};
// --queries aggregate,rollup: only those.
const only = option('--queries', null);
if (only) for (const name of Object.keys(queries)) if (!only.split(',').includes(name)) delete queries[name];
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'spill-bench-'));
const duckScript = path.join(temp, 'duck.mjs');
fs.writeFileSync(duckScript, `
import { DuckDBInstance } from '${path.join(root, 'node_modules/@duckdb/node-api/lib/index.js')}';
const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
for (const s of JSON.parse(process.argv[2])) await c.run(s);
const r = await c.runAndReadAll(process.argv[3]);
console.log(r.getRows().map((row) => row.join(',')).join('\\n'));
`);

// Runs argv under /usr/bin/time: [seconds, resident MB, last stdout line or the error].
function timed(argv) {
  const start = process.hrtime.bigint();
  const run = spawnSync('/usr/bin/time', ['-f', '%M', ...argv], { encoding: 'utf8' });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const rss = Number(run.stderr.trim().split('\n').pop()) / 1024;
  const out = run.stdout.trim().split('\n').pop() ?? '';
  const error = run.status === 0 ? null : (run.stderr.match(/[A-Za-z ]*Error/) ?? ['failed'])[0].trim();
  return { seconds, rss, answer: error ?? out };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`memory_limit = ${limit}, ${runs} runs each, alternating; ${dir}`);
console.log('| query | shears s | shears MB | DuckDB s | DuckDB MB | answers |\n|---|--:|--:|--:|--:|---|');
for (const [name, sql] of Object.entries(queries)) {
  const s = [], d = [];
  for (let r = 0; r < runs; r++) {
    s.push(timed([shears, '--format', 'csv', '-c', `SET threads = 2; SET temp_directory = '${temp}/shears'; SET memory_limit = '${limit}'; ${sql}`]));
    d.push(timed(['node', duckScript, JSON.stringify(['SET threads = 2', `SET temp_directory = '${temp}/duck'`, `SET memory_limit = '${limit}'`]), sql]));
  }
  const agree = s[0].answer === d[0].answer ? 'agree' : `shears ${s[0].answer} / DuckDB ${d[0].answer}`;
  const fmt = (xs) => xs.some((x) => x.answer.includes('Error')) ? 'fails' : median(xs.map((x) => x.seconds)).toFixed(2);
  console.log(`| ${name} | ${fmt(s)} | ${Math.max(...s.map((x) => x.rss)).toFixed(0)} | ${fmt(d)} | ${Math.max(...d.map((x) => x.rss)).toFixed(0)} | ${agree} |`);
}
execFileSync('rm', ['-rf', temp]);

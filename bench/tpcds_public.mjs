// The public TPC-DS queries (one NN.sql per query in QDIR, e.g. DuckDB's copies in its
// extension/tpcds/dsdgen/queries/; not kept here) on `shears generate tpcds` data: shears in one
// shears_query_server over views, DuckDB in this process over the same views, alternating run by
// run. Prints per query the median wall time of each engine (statement sent to rows received),
// the ratio and whether the answers agree (compare.mjs, rows sorted), then the geometric mean
// over the queries that agree. Each line: query, median wall ms shears, DuckDB, ratio, then
// median CPU ms (all threads, user + system) shears, DuckDB, ratio, and the check.
//   node bench/tpcds_public.mjs SERVER DATA QDIR [regex] [runs]
//   e.g. node bench/tpcds_public.mjs build/release/tests/differential/shears_query_server \
//          tpcds-1 queries/ '^(67|23)\.' 5
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { DuckDBInstance } from '@duckdb/node-api';
import { ShearsServer } from '../tests/differential/engines.mjs';
import { diffRows } from '../tests/differential/compare.mjs';

const [server, data, qdir, pattern = '.', runsArg = '3'] = process.argv.slice(2);
const runs = Number(runsArg);
const tables = fs.readdirSync(data).filter((t) => fs.statSync(`${data}/${t}`).isDirectory());
const views = tables.map((t) => {
  const hive = fs.readdirSync(`${data}/${t}`).some((e) => e.includes('='));
  const glob = hive ? `${data}/${t}/*/*.parquet` : `${data}/${t}/*.parquet`;
  return `CREATE VIEW ${t} AS SELECT * FROM read_parquet('${glob}'${hive ? ', hive_partitioning = true' : ''})`;
});
const duck = await (await DuckDBInstance.create(':memory:')).connect();
await duck.run('SET threads = 2');
for (const v of views) await duck.run(v);
const shears = new ShearsServer(server, data, { setup: views, timeoutMs: 600000 });
await shears.start();

// DuckDB runs in this process, so its CPU time is this process's (user + system, all threads).
const cpuNow = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
async function runDuck(sql) {
  const t = performance.now(), c = cpuNow();
  try {
    const r = await duck.runAndReadAll(sql);
    const ms = performance.now() - t, cpu = cpuNow() - c;
    return { ms, cpu, names: r.columnNames(), types: r.columnTypes().map(String), rows: r.getRowsJson() };
  } catch (e) { return { ms: performance.now() - t, cpu: cpuNow() - c, error: String(e.message || e) }; }
}
async function runShears(sql) {
  const t = performance.now();
  const r = await shears.send(sql.replace(/;\s*$/, ''));
  r.wall = performance.now() - t;
  return r;
}
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const files = fs.readdirSync(qdir).filter((f) => f.endsWith('.sql') && new RegExp(pattern).test(f)).sort();
const ratios = [], cpuRatios = [];
let agree = 0, total = 0;
for (const f of files) {
  const sql = fs.readFileSync(`${qdir}/${f}`, 'utf8').trim();
  const st = [], dt = [], sc = [], dc = [];
  let s, d;
  for (let i = 0; i < runs; i++) {
    s = await runShears(sql); st.push(s.wall); sc.push(s.cpu_ms ?? NaN);
    d = await runDuck(sql); dt.push(d.ms); dc.push(d.cpu);
  }
  total++;
  let check;
  if (s.error) check = `shears error: ${s.error} ${String(s.message).slice(0, 200)}`;
  else if (d.error) check = `duckdb error: ${d.error.slice(0, 200)}`;
  else {
    const diff = diffRows(s.rows, d.rows, { leftTypes: s.types, rightTypes: d.types, names: ['shears', 'duckdb'] });
    check = diff === '' ? 'equal' : `DIFF ${diff.split('\n').slice(0, 4).join(' | ')}`;
  }
  const sm = median(st), dm = median(dt), ratio = sm / dm;
  const scm = median(sc), dcm = median(dc), cpuRatio = scm / dcm;
  if (check === 'equal') { agree++; ratios.push(ratio); cpuRatios.push(cpuRatio); }
  console.log(`${f}\t${sm.toFixed(1)}\t${dm.toFixed(1)}\t${ratio.toFixed(3)}\tcpu ${scm.toFixed(0)}\t${dcm.toFixed(0)}\t${cpuRatio.toFixed(3)}\t${check}`);
}
const geomean = (xs) => Math.exp(xs.reduce((a, r) => a + Math.log(r), 0) / Math.max(1, xs.length));
console.log(`agree ${agree}/${total}  geomean(shears/duckdb over agreeing) wall ${geomean(ratios).toFixed(3)} cpu ${geomean(cpuRatios).toFixed(3)}`);
await shears.close();
process.exit(0);

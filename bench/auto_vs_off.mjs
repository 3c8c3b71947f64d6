// What dynamic filtering costs where it does not pay: every star query (queries.mjs) on
// shears with its defaults (dynamic filtering on, runtime filters `auto`) against
// `dynamic_filtering = false`, in one shears_query_server, the two settings alternating run by
// run (which goes first alternates too). Per query and setting: the median statement time and
// the median CPU time (user + system of every thread of the server over the request: steadier
// than wall time on a shared machine), and their ratios auto/off. Answers are checked equal.
//
//   node bench/auto_vs_off.mjs --server BIN --data DIR [--mode session|catalog] [--runs N]
//        [--warmup N] [--only REGEX] [--shears BIN (catalog mode: registers the tables)]
//        [--auto 'SET ...; SET ...'] [--off 'SET ...']  (the two sides' settings, to compare
//        others: by default none, and dynamic_filtering = false)
//
// session: views over the directories, as bench/run's session mode; catalog: a database
// directory DIR.catalog registered afresh, as bench/run's catalog mode.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ShearsServer } from '../tests/differential/engines.mjs';
import { BENCH_TABLES, QUERIES, viewSql } from './queries.mjs';
import { diffRows, median } from './report.mjs';

function parseArgs(argv) {
  const options = { mode: 'session', runs: 15, warmup: 2, only: '', server: '', shears: '',
    data: '', auto: '', off: 'SET dynamic_filtering = false' };
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i].replace(/^--/, '');
    if (!(name in options) || i + 1 >= argv.length) {
      throw new Error(`usage: node bench/auto_vs_off.mjs --server BIN --data DIR [--mode session|catalog]
  [--runs N] [--warmup N] [--only REGEX] [--shears BIN]  (bad argument: ${argv[i]})`);
    }
    options[name] = argv[i + 1];
  }
  if (!options.server || !options.data) throw new Error('--server and --data are required');
  if (!['session', 'catalog'].includes(options.mode)) throw new Error('--mode: session or catalog');
  if (options.mode === 'catalog' && !options.shears) throw new Error('catalog mode needs --shears');
  options.runs = Number(options.runs);
  options.warmup = Number(options.warmup);
  options.data = path.resolve(options.data);
  return options;
}

function views(data) {
  return BENCH_TABLES.map((t) => viewSql(data, t,
    fs.readdirSync(path.join(data, t)).some((e) => e.includes('='))));
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  let server;
  if (options.mode === 'catalog') {
    const dir = `${options.data}.catalog`;
    fs.rmSync(dir, { recursive: true, force: true });
    const sql = BENCH_TABLES.map((t) =>
      `CREATE EXTERNAL TABLE ${t} STORED AS PARQUET LOCATION '${options.data}/${t}'`).join(';\n');
    const made = spawnSync(options.shears, [dir, '-c', sql], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`registering ${dir}: ${made.stderr}`);
    server = new ShearsServer(options.server, options.data, { args: [dir], setup: [] });
  } else {
    server = new ShearsServer(options.server, options.data, { setup: views(options.data) });
  }
  const split = (sql) => sql.split(';').map((x) => x.trim()).filter((x) => x);
  const settings = { auto: split(options.auto), off: split(options.off) };
  const only = new RegExp(options.only);
  const lines = ['| query | auto ms | off ms | wall auto/off | auto CPU ms | off CPU ms | CPU auto/off |',
    '|---|--:|--:|--:|--:|--:|--:|'];
  const cpuRatios = [];
  for (const q of QUERIES.filter((x) => only.test(x.name))) {
    const times = { auto: { ms: [], cpu: [] }, off: { ms: [], cpu: [] } };
    const rows = {};
    for (let run = 0; run < options.warmup + options.runs; run++) {
      const order = run % 2 ? ['off', 'auto'] : ['auto', 'off'];
      for (const label of order) {
        const answer = await server.query(q.sql, settings[label]);
        if (answer.error) throw new Error(`${q.name} (${label}): ${answer.error}: ${answer.message}`);
        rows[label] ??= answer.rows;
        if (run < options.warmup) continue;
        times[label].ms.push(answer.ms);
        times[label].cpu.push(answer.cpu_ms);
      }
    }
    const diff = diffRows(rows.auto, rows.off);
    if (diff) throw new Error(`${q.name}: auto and off disagree: ${diff}`);
    const m = (label, key) => median(times[label][key]);
    const cpuRatio = m('auto', 'cpu') / m('off', 'cpu');
    cpuRatios.push(cpuRatio);
    const f = (v) => v.toFixed(v < 10 ? 2 : 1);
    const line = `| ${q.name} | ${f(m('auto', 'ms'))} | ${f(m('off', 'ms'))} | ` +
      `${(m('auto', 'ms') / m('off', 'ms')).toFixed(3)} | ${f(m('auto', 'cpu'))} | ` +
      `${f(m('off', 'cpu'))} | ${cpuRatio > 1.02 ? '**' : ''}${cpuRatio.toFixed(3)}` +
      `${cpuRatio > 1.02 ? '**' : ''} |`;
    lines.push(line);
    process.stderr.write(line + '\n');
  }
  const geomean = Math.exp(cpuRatios.reduce((a, r) => a + Math.log(r), 0) / cpuRatios.length);
  lines.push('', `${options.mode} mode, median of ${options.runs} runs after ${options.warmup} ` +
    `warm-up(s), settings alternating; geometric mean of CPU auto/off ${geomean.toFixed(3)}; ` +
    `worst ${Math.max(...cpuRatios).toFixed(3)}.`);
  console.log(lines.join('\n'));
  await server.close();
}

main().catch((e) => {
  console.error(String(e.stack || e));
  process.exit(1);
});

// Tests of the bench's SQL rewrite, result check and report (node --test; registered in ctest).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { viewSql } from './queries.mjs';
import { diffRows, geomean, markdown, median, netTimes, summarize, svgChart } from './report.mjs';

test('viewSql reads a partitioned table by a two-level glob with hive partitioning', () => {
  assert.equal(viewSql('/d', 'store_sales', true), 'CREATE VIEW store_sales AS SELECT * FROM ' +
    "read_parquet('/d/store_sales/*/*.parquet', hive_partitioning = true)");
  assert.equal(viewSql('/d', 'item', false),
    "CREATE VIEW item AS SELECT * FROM read_parquet('/d/item/*.parquet')");
});

test('diffRows ignores row order and number formatting, within a tolerance', () => {
  assert.equal(diffRows([['b', '12.50'], ['a', 3n.toString()]], [['a', 3], ['b', 12.5]]), '');
  assert.equal(diffRows([[0.1 + 0.2]], [[0.3]]), '');
  assert.equal(diffRows([[null, 'x']], [[null, 'x']]), '');
});

test('diffRows reports what differs', () => {
  assert.match(diffRows([[1], [2]], [[1]]), /2 rows vs 1/);
  assert.match(diffRows([[1, 'a']], [[1, 'b']]), /row 0/);
  assert.match(diffRows([[1.0001]], [[1]]), /row 0/);
  assert.match(diffRows([[null]], [[0]]), /row 0/);
  assert.match(diffRows([[1, 2]], [[1]]), /columns/);
});

test('median and geometric mean', () => {
  assert.equal(median([5, 1, 3]), 3);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.ok(Math.abs(geomean([0.5, 2]) - 1) < 1e-12);
});

const session = [
  { name: 'fast', what: 'a query', shears: 10, duckdb: 40, off: 30, ratio: 0.25, check: '',
    m: { on: { files: 3, bytes: 1e6 }, off: { files: 9, bytes: 9e6 }, duckdb: { files: 3, bytes: 2e6 } } },
  { name: 'wrong', what: 'b query', shears: 40, duckdb: 10, off: 40, ratio: 4, check: 'MISMATCH vs DuckDB: 1 rows vs 2',
    m: { on: {}, off: {}, duckdb: {} } },
  { name: 'new_feature', what: 'c query', duckdb: 5, unsupported: 'Not Supported Error: a | b' },
];
const fresh = [
  { name: 'fast', what: 'a query', shears: 20, duckdb: 10, ratio: 2, shearsRaw: 30, duckdbRaw: 810,
    rawRatio: 30 / 810, check: '', m: { on: { files: 3, bytes: 5e5 }, duckdb: { files: 3, bytes: 2e6 } } },
  { name: 'wrong', what: 'b query', shears: 5, duckdb: 20, ratio: 0.25, shearsRaw: 15, duckdbRaw: 820,
    rawRatio: 15 / 820, check: '', m: { on: { bytes: 1e6 }, duckdb: { files: 1, bytes: 1e6 } } },
  { name: 'new_feature', what: 'c query', duckdb: 5, unsupported: 'Not Supported Error: a | b' },
];
const machine = { cpus: 2, cpu: 'cpu', memory: 24, duckdb: 'v1', partitions: 1827, sales: 100,
  baseline: { shears: 10, duckdb: 800 }, catalogMs: 700 };

test('summarize gives the geometric means and the worst queries first', () => {
  const s = summarize(fresh);
  assert.equal(s.count, 2);
  assert.ok(Math.abs(s.geomean - Math.sqrt(2 * 0.25)) < 1e-12);
  assert.ok(Math.abs(s.rawGeomean - Math.sqrt((30 / 810) * (15 / 820))) < 1e-12);
  assert.deepEqual(s.worst.map((r) => r.name), ['fast', 'wrong']);
  assert.equal(summarize(session).rawGeomean, undefined);
  assert.equal(summarize([session[2]]), null);
});

test('markdown shows each mode: net and raw times, DF off, unsupported queries, geometric means', () => {
  const text = markdown({ fresh, session, catalog: session }, { scale: 1, runs: 5, warmup: 1 }, machine);
  // Sections in MODES order, each with its chart.
  const at = (s) => text.indexOf(s);
  assert.ok(at('## Fresh') > 0 && at('## Fresh') < at('## One session') && at('## One session') < at('## Catalog'));
  for (const mode of ['fresh', 'session', 'catalog']) assert.match(text, new RegExp(`ratios-${mode}\\.svg`));
  // The summary: one row per mode with its geometric mean and worst query.
  assert.match(text, /\| fresh \| whole process, less an empty run \| 2 \| \*\*0\.71\*\* \(raw 0\.03\) \| fast 2\.00, wrong 0\.25 \|/);
  assert.match(text, /\| session \| the statement \| 2 \| \*\*1\.00\*\* \| wrong 4\.00, fast 0\.25 \|/);
  // The baselines and the catalog's registration time are said.
  assert.match(text, /SELECT 1'` 10\.0 ms/);
  assert.match(text, /`SELECT 1` 800 ms\)/);
  assert.match(text, /700 ms for all tables/);
  // fresh: net, DuckDB net, ratio, raw shears, raw DuckDB, raw ratio, files, MB.
  assert.match(text, /\| fast \| 20\.0 \| 10\.0 \| \*\*2\.00\*\* \| 30\.0 \| 810 \| 0\.04 \| 3 \/ 3 \| 0\.50 \/ 2\.00 \| equal \|/);
  assert.match(text, /\| wrong \| 5\.00 \| 20\.0 \| \*\*0\.25\*\* \| 15\.0 \| 820 \| 0\.02 \| – \/ 1 \|/);
  // session: with DF off.
  assert.match(text, /\| fast \| 10\.0 \| 40\.0 \| \*\*0\.25\*\* \| 30\.0 \| 3 \/ 9 \/ 3 \| 1\.00 \/ 9\.00 \/ 2\.00 \| equal \|/);
  // catalog: no DF off column.
  assert.match(text, /\| fast \| 10\.0 \| 40\.0 \| \*\*0\.25\*\* \| 3 \/ 3 \| 1\.00 \/ 2\.00 \| equal \|/);
  assert.match(text, /MISMATCH vs DuckDB/);
  assert.doesNotMatch(text, /load average/);  // only when known
  assert.match(text, /\| new_feature \| unsupported \| 5\.00 \| – \| – \| – \| – \| – \| – \| Not Supported Error: a \\\| b \|/);
  assert.match(text, /Geometric mean of shears\/DuckDB over 2 queries: \*\*0\.71\*\* \(raw: 0\.03\)/);
  assert.match(text, /Geometric mean of shears\/DuckDB over 2 queries: \*\*1\.00\*\*\./);
  assert.equal((text.match(/^- `fast`: a query$/gm) || []).length, 1);
});

test('netTimes leaves a query whose net time is lost in start-up noise out of the net mean', () => {
  const noisy = netTimes({ name: 'lost', what: 'd query', shearsRaw: 9, onEmpty: 10, duckdbRaw: 900,
    duckdbEmpty: 800, check: '', m: { on: {}, duckdb: {} } });
  assert.equal(noisy.noise, true);
  assert.equal(noisy.ratio, undefined);
  assert.equal(noisy.shears, -1);
  const kept = netTimes({ name: 'kept', shearsRaw: 30, onEmpty: 10, duckdbRaw: 840, duckdbEmpty: 800 });
  assert.equal(kept.noise, undefined);
  assert.equal(kept.ratio, 0.5);
  assert.equal(kept.rawRatio, 30 / 840);
  // The net mean stays that of the other queries (it was 0.00 when the net time was clamped
  // at 0); the raw mean takes every query; the summary names the one left out.
  const s = summarize([...fresh, noisy]);
  assert.equal(s.count, 2);
  assert.ok(Math.abs(s.geomean - Math.sqrt(2 * 0.25)) < 1e-12);
  assert.ok(Math.abs(s.rawGeomean - Math.cbrt((30 / 810) * (15 / 820) * (9 / 900))) < 1e-12);
  assert.deepEqual(s.noisy, ['lost']);
  const text = markdown({ fresh: [...fresh, noisy] }, { scale: 1, runs: 5, warmup: 1 }, machine);
  assert.match(text, /\| fresh \| whole process, less an empty run \| 2 \(\+1 noise\) \| \*\*0\.71\*\* \(raw 0\.02\)/);
  assert.match(text, /\| lost \| ≤ 0 \| 100 \| noise \| 9\.00 \| 900 \| 0\.01 \|/);
  assert.match(text, /over 2 queries: \*\*0\.71\*\* \(raw: 0\.02\); left out of the net mean, .*: lost\./);
  assert.match(svgChart([noisy], 'fresh'), /within start-up noise/);
  // All lost: no net mean, but the raw one.
  const only = summarize([noisy]);
  assert.equal(only.geomean, undefined);
  assert.equal(only.count, 0);
});

test('markdown leaves out the modes not run', () => {
  const text = markdown({ catalog: session }, { scale: 1, runs: 5, warmup: 1 }, { ...machine, load: '1.5' });
  assert.doesNotMatch(text, /## Fresh|## One session|ratios-fresh/);
  assert.match(text, /## Catalog/);
  assert.match(text, /load average 1\.5 at the start/);
});

test('markdown names the TPC-DS-style suite and its charts', () => {
  const text = markdown({ session }, { scale: 1, runs: 5, warmup: 1, suite: 'tpcds', suffix: '-tpcds' }, machine);
  assert.match(text, /^# shears vs DuckDB: the TPC-DS-style suite$/m);
  assert.match(text, /\(ratios-tpcds-session\.svg\)/);
  assert.doesNotMatch(text, /star-join/);
});

test('svgChart draws a bar per measured query and names unsupported ones', () => {
  const svg = svgChart(session, 'session');
  assert.ok(svg.startsWith('<svg '));
  assert.equal((svg.match(/<rect /g) || []).length, 3);  // background + two bars
  assert.match(svg, /unsupported by shears/);
  assert.match(svg, />0\.25</);
  assert.match(svg, /session mode/);
});

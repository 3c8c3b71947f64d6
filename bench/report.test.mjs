// Tests of the bench's SQL rewrite, result check and report (node --test; registered in ctest).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { shearsSql } from './queries.mjs';
import { diffRows, geomean, markdown, median, svgChart } from './report.mjs';

test('shearsSql points tables at the data and keeps or adds aliases', () => {
  assert.equal(shearsSql('/d', 'SELECT 1 FROM store_sales ss JOIN date_dim AS d ON x'),
    "SELECT 1 FROM '/d/store_sales' ss JOIN '/d/date_dim' AS d ON x");
  assert.equal(shearsSql('/d', 'x IN (SELECT d_date_sk FROM date_dim WHERE d_dom = 1)'),
    "x IN (SELECT d_date_sk FROM '/d/date_dim' AS date_dim WHERE d_dom = 1)");
  assert.equal(shearsSql('/d', 'FROM item)'), "FROM '/d/item' AS item)");
  // Column names that merely start like a table are left alone.
  assert.equal(shearsSql('/d', 'SELECT store_sales_x FROM t'), 'SELECT store_sales_x FROM t');
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

const results = [
  { name: 'fast', what: 'a query', shears: 10, duckdb: 40, off: 30, ratio: 0.25, check: '',
    m: { on: { files: 3, bytes: 1e6 }, off: { files: 9, bytes: 9e6 }, duckdb: { files: 3, bytes: 2e6 } } },
  { name: 'wrong', what: 'b query', shears: 40, duckdb: 10, off: 40, ratio: 4, check: 'MISMATCH vs DuckDB: 1 rows vs 2',
    m: { on: {}, off: {}, duckdb: {} } },
  { name: 'new_feature', what: 'c query', duckdb: 5, unsupported: 'Not Supported Error: a | b' },
];

test('markdown shows each query, unsupported ones with their error, and the geometric mean', () => {
  const text = markdown(results, { scale: 1, runs: 5, warmup: 1 },
    { cpus: 2, cpu: 'cpu', memory: 24, duckdb: 'v1', partitions: 1827, sales: 100 });
  assert.match(text, /\| fast \| 10\.0 \| 40\.0 \| \*\*0\.25\*\* \|/);
  assert.match(text, /MISMATCH vs DuckDB/);
  assert.doesNotMatch(text, /load average/);  // only when known
  assert.match(text, /\| new_feature \| unsupported \| 5\.00 .*Not Supported Error: a \\\| b/);
  assert.match(text, /Geometric mean of shears\/DuckDB over 2 queries: \*\*1\.00\*\*/);
});

test('svgChart draws a bar per measured query and names unsupported ones', () => {
  const svg = svgChart(results);
  assert.ok(svg.startsWith('<svg '));
  assert.equal((svg.match(/<rect /g) || []).length, 3);  // background + two bars
  assert.match(svg, /unsupported by shears/);
  assert.match(svg, />0\.25</);
});

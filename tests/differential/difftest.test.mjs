// Tests of the differential test's own parts (node --test; ctest difftest_unit): the result
// comparison, the corpus reader and the random generator. No engine needed.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { diffRows } from './compare.mjs';
import { readCorpus } from './difftest.mjs';
import { generateQuery } from './generator.mjs';

const HERE = path.dirname(new URL(import.meta.url).pathname);

test('exact types compare exactly, whatever the scale', () => {
  const types = ['DECIMAL(7,2)', 'BIGINT'];
  assert.equal(diffRows([['12.50', '3']], [['12.5', '3']], { leftTypes: types, rightTypes: ['DECIMAL(38,4)', 'HUGEINT'] }), '');
  assert.equal(diffRows([['-0.00']], [['0']], { leftTypes: ['DECIMAL(3,2)'], rightTypes: ['INTEGER'] }), '');
  // Two exact values one unit apart in the 19th digit differ, where doubles could not tell.
  assert.match(diffRows([['1234567890123456789']], [['1234567890123456788']],
    { leftTypes: ['BIGINT'], rightTypes: ['BIGINT'] }), /row 0/);
  assert.match(diffRows([['0.01']], [['0.02']], { leftTypes: ['DECIMAL(3,2)'], rightTypes: ['DECIMAL(3,2)'] }), /row 0/);
});

test('doubles compare within a relative tolerance; a decimal against a double within its scale', () => {
  const d = { leftTypes: ['DOUBLE'], rightTypes: ['DOUBLE'] };
  assert.equal(diffRows([[0.1 + 0.2]], [['0.3']], d), '');
  assert.match(diffRows([[1.0001]], [[1]], d), /row 0/);
  assert.equal(diffRows([['inf', 'nan']], [['Infinity', 'NaN']], { leftTypes: ['DOUBLE', 'DOUBLE'], rightTypes: ['DOUBLE', 'DOUBLE'] }), '');
  assert.equal(diffRows([['2.333333']], [[2.3333333333]], { leftTypes: ['DECIMAL(38,6)'], rightTypes: ['DOUBLE'] }), '');
  assert.match(diffRows([['2.333']], [[2.3333333333]], { leftTypes: ['DECIMAL(38,6)'], rightTypes: ['DOUBLE'] }), /row 0/);
});

test('a FLOAT as its shortest text equals the same float widened, and nothing else', () => {
  const f = { leftTypes: ['FLOAT'], rightTypes: ['FLOAT'] };
  assert.equal(diffRows([['0.14285715']], [[0.1428571492433548]], f), '');
  assert.equal(diffRows([['1.1']], [[1.100000023841858]], f), '');
  assert.match(diffRows([['0.1428572']], [[0.1428571492433548]], f), /row 0/);
});

test('NULLs equal only NULLs; text and booleans compare exactly', () => {
  const t = { leftTypes: ['VARCHAR', 'INTEGER'], rightTypes: ['VARCHAR', 'INTEGER'] };
  assert.equal(diffRows([[null, null]], [[null, null]], t), '');
  assert.match(diffRows([[null, '0']], [['', '0']], t), /row 0/);
  assert.match(diffRows([['a', null]], [['a', '0']], t), /row 0/);
  assert.equal(diffRows([[true]], [['true']], { leftTypes: ['BOOLEAN'], rightTypes: ['BOOLEAN'] }), '');
  assert.match(diffRows([['1']], [['01']], { leftTypes: ['VARCHAR'], rightTypes: ['VARCHAR'] }), /row 0/);
});

test('timestamps and times compare as text: shears prints them as DuckDB does', () => {
  const t = { leftTypes: ['TIMESTAMP'], rightTypes: ['TIMESTAMP'] };
  assert.equal(diffRows([['2024-02-29 12:00:00.1']], [['2024-02-29 12:00:00.1']], t), '');
  assert.match(diffRows([['2024-02-29 12:00:00']], [['2024-02-29 12:00:00.000000']], t), /row 0/);
  assert.match(diffRows([['2024-02-29 12:00:00.1']], [['2024-02-29 12:00:00.01']], t), /row 0/);
});

test('rows compare as multisets unless ordered, and the diff shows the differing rows', () => {
  const rows = [['1', 'a'], ['2', 'b'], ['2', 'b']];
  assert.equal(diffRows(rows, [rows[2], rows[0], rows[1]]), '');
  assert.match(diffRows(rows, [rows[0], rows[1]]), /3 rows vs 2/);
  assert.match(diffRows(rows, [['1', 'a'], ['2', 'b'], ['3', 'b']], { names: ['DuckDB', 'shears'] }),
    /1 rows only in DuckDB, 1 only in shears:\n {2}- DuckDB: \[2,"b"\]\n {2}\+ shears: \[3,"b"\]/);
  assert.match(diffRows(rows, [rows[1], rows[0], rows[2]], { ordered: true }), /row 0:.*\n.*first difference at row 0/);
  assert.match(diffRows([[1, 2]], [[1]]), /columns/);
});

test('the corpus parses: names, ordered flags, no empty statements', () => {
  const queries = readCorpus(path.join(HERE, 'corpus'));
  assert.ok(queries.length >= 200, `only ${queries.length} corpus queries`);
  for (const q of queries) {
    assert.match(q.sql, /^\s*(SELECT|WITH|FROM)\b/i, q.name);
    assert.doesNotMatch(q.sql, /;/, q.name);
    // A LIMIT without an ordered comparison would make the test depend on row order.
    if (/\bLIMIT\s+[1-9]/i.test(q.sql) && !/\(\s*SELECT[^()]*LIMIT/i.test(q.sql)) assert.ok(q.ordered, `${q.name}: LIMIT needs -- ordered`);
  }
  assert.ok(queries.some((q) => q.ordered));
});

test('the generator is deterministic for a seed and varies with it', () => {
  assert.deepEqual(generateQuery(7, 3), generateQuery(7, 3));
  assert.notEqual(generateQuery(7, 3).sql, generateQuery(8, 3).sql);
  const sqls = new Set();
  for (let i = 0; i < 200; i++) {
    const { sql, ordered } = generateQuery(1, i);
    sqls.add(sql);
    if (/\bLIMIT\b/.test(sql)) assert.ok(ordered && /\bORDER BY\b/.test(sql), sql);
  }
  assert.ok(sqls.size > 190);
  const all = [...sqls].join('\n');
  for (const shape of [/LEFT JOIN/, /NOT IN \(SELECT/, /NOT EXISTS/, / IN \(SELECT/, /EXISTS \(SELECT/,
    /GROUP BY/, /HAVING/, /count\(DISTINCT/, /ORDER BY/, /ss_sold_date_sk (BETWEEN|=|IN|IS)/, /JOIN customer_address/,
    /WITH u AS MATERIALIZED/, /WITH u AS \(SELECT/]) {
    assert.match(all, shape);
  }
});

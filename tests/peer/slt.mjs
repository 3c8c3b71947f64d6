#!/usr/bin/env node
// Runs sqllogictest files (SQLite's format: `statement ok|error`, `query <types> <sort>`,
// `skipif`/`onlyif`, `hash-threshold`, results as values or "N values hashing to MD5") against
// shears, as a peer's suite nobody on the project wrote. PostgreSQL's conditions apply (records
// under `skipif postgresql` or `onlyif <other>` are skipped), as the grammar shears speaks.
//
//   node tests/peer/slt.mjs [--server build/release/tests/differential/shears_query_server] [--timeout 30]
//        [--show N] FILE_OR_DIR...
//
// Each file runs on a fresh in-memory database. Prints, per file and in total, the queries and
// statements that passed, gave a wrong answer or failed with an error, then the most common
// error messages (numbers and quoted names blanked so alike messages group) and the first
// wrong answers. The suite itself is not in the repository: point it at a checkout of
// sqllogictest's test/ directory. Exit status 1 when anything was wrong or failed.

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ShearsServer } from '../differential/engines.mjs';

const args = process.argv.slice(2);
let server = resolve('build/release/tests/differential/shears_query_server');
let timeoutMs = 30000;
let show = 10;
const inputs = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--server') server = resolve(args[++i]);
  else if (args[i] === '--timeout') timeoutMs = Number(args[++i]) * 1000;
  else if (args[i] === '--show') show = Number(args[++i]);
  else inputs.push(args[i]);
}
if (inputs.length === 0) {
  console.error('usage: node tests/peer/slt.mjs [--server BIN] [--timeout S] [--show N] FILE_OR_DIR...');
  process.exit(2);
}

function files(path) {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).sort().flatMap((name) => files(join(path, name)))
    .filter((p) => p.endsWith('.test'));
}

/// The records of one file: {kind, sql, line, expectError, types, sort, expected}.
function parse(text) {
  const lines = text.split(/\r?\n/);  // some of the suite's files end lines with CRLF
  const records = [];
  let skip = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === '' || line.startsWith('#')) { skip = false; continue; }
    const words = line.split(/\s+/);
    if (words[0] === 'skipif') { if (words[1] === 'postgresql') skip = true; continue; }
    if (words[0] === 'onlyif') { if (words[1] !== 'postgresql') skip = true; continue; }
    if (words[0] === 'halt') { if (!skip) break; skip = false; continue; }
    if (words[0] === 'hash-threshold') { records.push({ kind: 'threshold', value: Number(words[1]) }); continue; }
    if (words[0] !== 'statement' && words[0] !== 'query') continue;
    const start = i + 1;
    const sql = [];
    for (i++; i < lines.length && lines[i].trim() !== '' && lines[i] !== '----'; i++) sql.push(lines[i]);
    const expected = [];
    if (lines[i] === '----') {
      for (i++; i < lines.length && lines[i].trim() !== ''; i++) expected.push(lines[i]);
    }
    if (!skip) {
      records.push(words[0] === 'statement'
        ? { kind: 'statement', sql: sql.join('\n'), line: start, expectError: words[1] === 'error' }
        : { kind: 'query', sql: sql.join('\n'), line: start, types: words[1] ?? '',
          sort: words[2] ?? 'nosort', expected });
    }
    skip = false;
  }
  return records;
}

/// A value as sqllogictest prints it for a column of type I (integer), R (3 decimals) or T.
function format(value, type) {
  if (value === null || value === undefined) return 'NULL';
  if (type === 'I') {
    if (/^-?\d+$/.test(value)) return value;
    if (value === 'true' || value === 'false') return value === 'true' ? '1' : '0';
    const n = Number(value);
    return Number.isFinite(n) ? String(Math.trunc(n)) : '0';
  }
  if (type === 'R') {
    const n = Number(value);
    return Number.isFinite(n) ? n.toFixed(3) : value;
  }
  if (value === '') return '(empty)';
  return value.replace(/[^\x20-\x7e]/g, '@');
}

function compareRows(a, b) {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return a.length - b.length;
}

/// The values in the order the record asks for, and their text as the file states it.
function render(record, rows, threshold) {
  const types = record.types;
  let table = rows.map((row) => row.map((v, c) => format(v, types[c] ?? 'T')));
  let values;
  if (record.sort === 'rowsort') values = table.sort(compareRows).flat();
  else if (record.sort === 'valuesort') values = table.flat().sort();
  else values = table.flat();
  if (threshold > 0 && values.length > threshold) {
    const md5 = createHash('md5');
    for (const v of values) md5.update(v + '\n');
    return [`${values.length} values hashing to ${md5.digest('hex')}`];
  }
  return values;
}

/// Whether an answer matches: the file may state values or their hash whatever the threshold.
function matches(record, rows, threshold) {
  const expected = record.expected;
  if (expected.length === 1 && / values hashing to /.test(expected[0])) {
    return render(record, rows, 1)[0] === expected[0] ||
      (rows.length === 0 && expected[0].startsWith('0 values'));
  }
  const got = render(record, rows, 0);
  return got.length === expected.length && got.every((v, i) => v === expected[i].trim());
}

const blank = (message) => message.split('\n')[0]
  .replace(/'[^']*'/g, "'_'").replace(/"[^"]*"/g, '"_"').replace(/\b\d+(\.\d+)?\b/g, 'N')
  .slice(0, 160);

const total = { ok: 0, wrong: 0, error: 0, skipped: 0 };
const messages = new Map();
const examples = new Map();  // message -> the first statement that gave it
const note = (key, sql) => {
  messages.set(key, (messages.get(key) ?? 0) + 1);
  if (!examples.has(key)) examples.set(key, sql.replace(/\s+/g, ' ').slice(0, 200));
};
const wrongs = [];
for (const input of inputs) {
  for (const file of files(input)) {
    const records = parse(readFileSync(file, 'utf8'));
    const shears = new ShearsServer(server, '', { timeoutMs, setup: [] });
    const count = { ok: 0, wrong: 0, error: 0 };
    let threshold = 0;
    let statementFailed = false;
    for (const record of records) {
      if (record.kind === 'threshold') { threshold = record.value; continue; }
      if (!shears.child) await shears.start();
      const answer = await shears.send(record.sql);
      if (record.kind === 'statement') {
        const good = record.expectError ? Boolean(answer.error) : !answer.error;
        if (good) { count.ok++; continue; }
        count.error++;
        if (!record.expectError) statementFailed = true;
        note(record.expectError ? 'statement error expected, it succeeded'
          : `${answer.error}: ${blank(answer.message ?? '')}`, record.sql);
        continue;
      }
      if (answer.error) {
        count.error++;
        note(`${answer.error}: ${blank(answer.message ?? '')}`, record.sql);
        continue;
      }
      if (matches(record, answer.rows, threshold)) { count.ok++; continue; }
      count.wrong++;
      if (wrongs.length < show) {
        wrongs.push(`${file}:${record.line}: ${record.sql.replace(/\s+/g, ' ').slice(0, 300)}\n` +
          `  expected: ${record.expected.slice(0, 8).join(' ')}\n` +
          `  got:      ${render(record, answer.rows, threshold).slice(0, 8).join(' ')}`);
      }
    }
    await shears.close();
    const n = count.ok + count.wrong + count.error;
    console.log(`${file}: ${count.ok}/${n} ok, ${count.wrong} wrong, ${count.error} errors` +
      (statementFailed ? ' (a setup statement failed)' : ''));
    for (const k of ['ok', 'wrong', 'error']) total[k] += count[k];
  }
}
const n = total.ok + total.wrong + total.error;
console.log(`\ntotal: ${total.ok}/${n} ok (${(100 * total.ok / Math.max(1, n)).toFixed(1)}%), ` +
  `${total.wrong} wrong, ${total.error} errors`);
const top = [...messages.entries()].sort((a, b) => b[1] - a[1]).slice(0, show);
if (top.length) console.log('\nmost common errors:');
for (const [message, count] of top) {
  console.log(`${String(count).padStart(7)}  ${message}\n         e.g. ${examples.get(message)}`);
}
if (wrongs.length) console.log('\nwrong answers (first ' + wrongs.length + '):\n' + wrongs.join('\n'));
process.exit(total.wrong + total.error > 0 ? 1 : 0);

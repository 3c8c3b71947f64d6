#!/usr/bin/env node
// Runs sqllogictest files against shears, as a peer's suite nobody on the project wrote. Two
// dialects:
//   sqlite (default): SQLite's format (`statement ok|error`, `query <types> <sort>`,
//     `skipif`/`onlyif`, `hash-threshold`, results as values or "N values hashing to MD5"), with
//     PostgreSQL's conditions (records under `skipif postgresql` or `onlyif <other>` are
//     skipped), as the grammar shears speaks.
//   duckdb (`--dialect duckdb`): DuckDB's test/sql files. On top of the above: expected error
//     messages after `statement error` (a match when shears errors; a different message is
//     counted apart), `require X` (the file is skipped unless shears has X), `mode skip|unskip`,
//     `loop`/`foreach`/`concurrentloop` ... `endloop` with ${var}, `load`/`restart` (a catalog
//     directory kept across the restart), connection names (con1, con2, ...: each its own
//     connection to the file's database), query
//     labels, results as tab-separated rows compared as DuckDB's runner does (exact text, NULL,
//     (empty), floating-point within 1%), `skipif`/`onlyif duckdb`. Records that read files of
//     DuckDB's data/ directory and DuckDB's own PRAGMAs (verification, profiling, checkpoints)
//     and EXPLAIN (its text is each engine's own) are skipped.
//
//   node tests/peer/slt.mjs [--dialect sqlite|duckdb] [--server BIN] [--timeout 30] [--show N]
//        [--names] FILE_OR_DIR...
//
// Each file runs on a fresh in-memory database. Prints, per file and in total, the queries and
// statements that passed, gave a wrong answer or failed with an error, then the most common
// error messages (numbers and quoted names blanked so alike messages group; --names keeps the
// names) and the first
// wrong answers. The suites themselves are not in the repository. Exit status 1 when anything
// was wrong or failed.

import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ShearsServer } from '../differential/engines.mjs';

const args = process.argv.slice(2);
let server = resolve('build/release/tests/differential/shears_query_server');
let timeoutMs = 30000;
let show = 10;
let dialect = 'sqlite';
let keepNames = false;
const inputs = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--server') server = resolve(args[++i]);
  else if (args[i] === '--timeout') timeoutMs = Number(args[++i]) * 1000;
  else if (args[i] === '--show') show = Number(args[++i]);
  else if (args[i] === '--dialect') dialect = args[++i];
  else if (args[i] === '--names') keepNames = true;
  else inputs.push(args[i]);
}
if (inputs.length === 0 || !['sqlite', 'duckdb'].includes(dialect)) {
  console.error('usage: node tests/peer/slt.mjs [--dialect sqlite|duckdb] [--server BIN] ' +
    '[--timeout S] [--show N] [--names] FILE_OR_DIR...');
  process.exit(2);
}
const duck = dialect === 'duckdb';
const ENGINE = duck ? 'duckdb' : 'postgresql';

function files(path) {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).sort().flatMap((name) => files(join(path, name)))
    .filter((p) => p.endsWith('.test'));
}

// What `require X` may ask of shears: it reads Parquet and JSON natively; the rest are DuckDB's
// build options that shears satisfies (vector_size: shears' batches hold 2048 rows).
const HAVE = new Set(['parquet', 'json', 'skip_reload', 'noforcestorage', 'no_force_storage',
  'no_alternative_verify', 'notwindows', 'notmingw', 'no_extension_autoloading',
  'no_vector_verification', 'no_latest_storage', '64bit', 'core_functions']);
const requirementMet = (words) => HAVE.has(words[1]) ||
  (words[1] === 'vector_size' && Number(words[2]) <= 2048);

// DuckDB's `foreach` shorthands.
const INTEGRAL = ['tinyint', 'smallint', 'integer', 'bigint', 'hugeint'];
const UNSIGNED = ['utinyint', 'usmallint', 'uinteger', 'ubigint', 'uhugeint'];
const GROUPS = {
  '<integral>': [...INTEGRAL, ...UNSIGNED], '<signed>': INTEGRAL, '<unsigned>': UNSIGNED,
  '<numeric>': [...INTEGRAL, ...UNSIGNED, 'float', 'double'],
  '<alltypes>': [...INTEGRAL, ...UNSIGNED, 'float', 'double', 'varchar', 'date', 'time',
    'timestamp', 'interval', 'boolean', 'blob'],
};

// DuckDB's settings of its own test harness: verification, profiling, storage. No-ops here.
const NOOP = /^\s*(PRAGMA|SET|RESET)\s+(enable_verification|disable_verification|verify_\w+|enable_profiling|disable_profiling|profiling_\w+|profile_output|explain_output|enable_object_cache|disable_object_cache|wal_autocheckpoint|checkpoint_threshold|disable_checkpoint_on_shutdown|force_compression|force_bitpacking_mode|debug_\w+|force_checkpoint|enable_progress_bar|disable_progress_bar|enable_print_progress_bar|disable_print_progress_bar|immediate_transaction_mode|storage_compatibility_version)\b/i;

/// A condition of `skipif`/`onlyif`: an engine's name, or (DuckDB) `var=value` of a loop.
const conditionHolds = (condition, env) => {
  const eq = condition.indexOf('=');
  if (duck && eq > 0) return String(env[condition.slice(0, eq)]) === condition.slice(eq + 1);
  return condition === ENGINE;
};

/// The records of one file: {kind, sql, line, expectError, message, types, sort, label,
/// expected}; {kind: 'skipfile', why} when a requirement is missing.
function parse(text) {
  const lines = text.split(/\r?\n/);  // some of the suite's files end lines with CRLF
  const records = [];
  // A loop variable is written ${x} or, in newer files, {x}.
  const substitute = (s, env) => s.replace(/\$?\{(\w+)\}/g, (m, name) => name in env ? env[name] : m);
  // The lines from `start` up to the `endloop` closing them, or the end.
  const endOfLoop = (start) => {
    let depth = 0;
    for (let i = start; i < lines.length; i++) {
      const w = lines[i].trim().split(/\s+/)[0];
      if (['loop', 'foreach', 'concurrentloop', 'concurrentforeach'].includes(w)) depth++;
      else if (w === 'endloop' && depth-- === 0) return i;
    }
    return lines.length;
  };
  let skipMode = false;
  let halted = false;
  const run = (from, to, env) => {
    let skip = false;
    for (let i = from; i < to && !halted; i++) {
      const line = substitute(lines[i], env);
      if (line.trim() === '' || line.startsWith('#')) { skip = false; continue; }
      const words = line.trim().split(/\s+/);
      if (words[0] === 'skipif') { if (conditionHolds(words[1], env)) skip = true; continue; }
      if (words[0] === 'onlyif') { if (!conditionHolds(words[1], env)) skip = true; continue; }
      if (words[0] === 'halt') { if (!skip) halted = true; skip = false; continue; }
      if (words[0] === 'hash-threshold') { records.push({ kind: 'threshold', value: Number(words[1]) }); continue; }
      if (duck) {
        if (words[0] === 'require') {
          if (!requirementMet(words)) { records.push({ kind: 'skipfile', why: `require ${words.slice(1).join(' ')}` }); halted = true; }
          continue;
        }
        if (words[0] === 'require-env' || words[0] === 'include' || words[0] === 'unzip') {
          records.push({ kind: 'skipfile', why: words[0] });
          halted = true;
          continue;
        }
        if (words[0] === 'mode') {
          if (words[1] === 'skip') skipMode = true;
          else if (words[1] === 'unskip') skipMode = false;
          continue;
        }
        if (['loop', 'foreach', 'concurrentloop', 'concurrentforeach'].includes(words[0])) {
          const end = endOfLoop(i + 1);
          let values;
          if (words[0].endsWith('loop')) {
            values = [];
            for (let v = Number(words[2]); v < Number(words[3]); v++) values.push(String(v));
          } else {
            values = words.slice(2).flatMap((w) => GROUPS[w] ?? [w]);
          }
          if (!skip) for (const v of values) run(i + 1, end, { ...env, [words[1]]: v });
          skip = false;
          i = end;
          continue;
        }
        if (words[0] === 'load' || words[0] === 'restart' || words[0] === 'reconnect') {
          if (!skip && !skipMode) records.push({ kind: words[0], path: words[1] });
          skip = false;
          continue;
        }
      }
      if (words[0] !== 'statement' && words[0] !== 'query') continue;
      const start = i + 1;
      const sql = [];
      for (i++; i < to && lines[i].trim() !== '' && lines[i] !== '----'; i++) sql.push(substitute(lines[i], env));
      const expected = [];
      if (lines[i] === '----') {
        for (i++; i < to && lines[i].trim() !== ''; i++) expected.push(substitute(lines[i], env));
      }
      if (!skip && !skipMode) {
        const text = sql.join('\n');
        // DuckDB's connection names (`statement ok con1`, `query I con2`): each its own
        // connection to the file's database.
        // (a statement's second word; a query's when it is no sort mode, as DuckDB's runner reads).
        const sortModes = ['nosort', 'rowsort', 'valuesort', 'sort'];
        const connection = !duck || words[2] === undefined ? null
          : words[0] === 'statement' || !sortModes.includes(words[2]) ? words[2] : null;
        if (words[0] === 'statement') {
          records.push({ kind: 'statement', sql: text, line: start, expectError: words[1] === 'error',
            maybe: words[1] === 'maybe', message: expected.join('\n'), connection });
        } else if (duck && words.includes('error')) {
          records.push({ kind: 'statement', sql: text, line: start, expectError: true,
            message: expected.join('\n'), connection });
        } else {
          const sorts = ['nosort', 'rowsort', 'valuesort', 'sort'];
          const sort = sorts.includes(words[2]) ? (words[2] === 'sort' ? 'rowsort' : words[2]) : 'nosort';
          records.push({ kind: 'query', sql: text, line: start, types: words[1] ?? '', sort,
            label: duck && sorts.includes(words[2]) ? words[3] : undefined, expected, connection });
        }
      }
      skip = false;
    }
  };
  run(0, lines.length, {});
  return records;
}

/// A value as sqllogictest prints it for a column of type I (integer), R (3 decimals) or T.
function format(value, type) {
  if (value === null || value === undefined) return 'NULL';
  if (duck) return value === '' ? '(empty)' : value;
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

const FLOATING = /^(FLOAT|DOUBLE|REAL)/i;
const NUMERIC = /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|DECIMAL|NUMERIC)/i;

/// One value as DuckDB's runner compares it: the same text, else the file's text read as the
/// result column's type (numbers by value, floating point within 1%), or a <REGEX>: pattern.
function sameValue(got, want, type) {
  if (got === want) return true;
  if (want.startsWith('<REGEX>:')) return new RegExp(`^${want.slice(8)}$`, 's').test(got);
  if (want.startsWith('<!REGEX>:')) return !new RegExp(`^${want.slice(9)}$`, 's').test(got);
  if (got === 'NULL' || want === 'NULL') return false;
  if (FLOATING.test(type ?? '')) {
    const g = Number(got), w = Number(want);
    if (Number.isNaN(g) || Number.isNaN(w)) return Number.isNaN(g) && Number.isNaN(w) && /nan/i.test(want);
    if (!Number.isFinite(g) || !Number.isFinite(w)) return g === w;
    return Math.abs(g - w) <= Math.abs(w) * 0.01 + 1e-8;
  }
  if (NUMERIC.test(type ?? '') && want.trim() !== '') return Number(got) === Number(want) && /^[-+\d.eE ]+$/.test(want);
  if (/^BOOL/i.test(type ?? '')) {
    const truth = { true: 'true', t: 'true', '1': 'true', false: 'false', f: 'false', '0': 'false' };
    return truth[got.toLowerCase()] !== undefined && truth[got.toLowerCase()] === truth[want.toLowerCase()];
  }
  return false;
}

/// DuckDB's expected block as rows of values: a tab-separated row a line, or (as SQLite's
/// format) a value a line.
function expectedTable(expected, columns) {
  const rows = expected.map((line) => line.split('\t'));
  if (rows.every((r) => r.length === columns)) return rows;
  const values = expected.map((line) => line.trim());
  if (columns > 0 && values.length % columns === 0) {
    const out = [];
    for (let i = 0; i < values.length; i += columns) out.push(values.slice(i, i + columns));
    return out;
  }
  return null;
}

/// Whether an answer matches: the file may state values or their hash whatever the threshold.
function matches(record, answer, threshold) {
  const rows = answer.rows;
  const expected = record.expected;
  if (expected.length === 1 && / values hashing to /.test(expected[0])) {
    return render(record, rows, 1)[0] === expected[0] ||
      (rows.length === 0 && expected[0].startsWith('0 values'));
  }
  if (!duck) {
    const got = render(record, rows, 0);
    return got.length === expected.length && got.every((v, i) => v === expected[i].trim());
  }
  const columns = answer.types?.length ?? (rows[0]?.length ?? 0);
  const got = rows.map((row) => row.map((v) => format(v, 'T')));
  if (expected.length === 0) return got.length === 0;
  const want = expectedTable(expected, columns);
  if (!want || want.length !== got.length) return false;
  if (record.sort === 'valuesort') {
    const g = got.flat().sort(), w = want.flat().sort();
    return g.every((v, i) => sameValue(v, w[i], answer.types?.[0]));
  }
  if (record.sort === 'rowsort') { got.sort(compareRows); want.sort(compareRows); }
  return got.every((row, r) => row.every((v, c) => sameValue(v, want[r][c], answer.types?.[c])));
}

// --names keeps quoted names in the grouped messages (which function, type or option is
// missing), blanking only numbers.
const blank = (message) => {
  const first = message.split('\n')[0];
  const named = keepNames ? first : first.replace(/'[^']*'/g, "'_'").replace(/"[^"]*"/g, '"_"');
  return named.replace(/\b\d+(\.\d+)?\b/g, 'N').slice(0, 160);
};

// SQL that reads DuckDB's data/ directory (not in the copy of the suite) or its extensions.
const NEEDS_FILES = /['"](data|test|third_party|extension)\/|__WORKING_DIRECTORY__|\b(dbgen|dsdgen)\s*\(/i;

const total = { ok: 0, wrong: 0, error: 0, skipped: 0, messageMismatch: 0 };
const skippedFiles = new Map();
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
    const skipFile = records.find((r) => r.kind === 'skipfile');
    if (skipFile) {
      skippedFiles.set(skipFile.why, (skippedFiles.get(skipFile.why) ?? 0) + 1);
      console.log(`${file}: skipped (${skipFile.why})`);
      continue;
    }
    const testDir = duck ? mkdtempSync(join(tmpdir(), 'slt-')) : null;
    let shears = new ShearsServer(server, '', { timeoutMs, setup: [] });
    const count = { ok: 0, wrong: 0, error: 0, skipped: 0 };
    let threshold = 0;
    let statementFailed = false;
    const labels = new Map();
    for (const record of records) {
      if (record.kind === 'threshold') { threshold = record.value; continue; }
      if (record.kind === 'load' || record.kind === 'restart') {
        // `load PATH` opens a database kept on disk, `restart` reopens it: a catalog directory.
        const dir = record.kind === 'load' ? (record.path ? join(testDir, `db${labels.size}-${Date.now()}`) : null)
          : shears.args[0];
        await shears.close();
        shears = new ShearsServer(server, '', { timeoutMs, setup: [], args: dir ? [dir] : [] });
        continue;
      }
      if (record.kind === 'reconnect') continue;
      let sql = record.sql;
      if (duck) {
        // EXPLAIN's text is each engine's own.
        if (NOOP.test(sql) || NEEDS_FILES.test(sql) || /^\s*EXPLAIN\b/i.test(sql)) { count.skipped++; continue; }
        sql = sql.replace(/__TEST_DIR__|\{TEST_DIR\}/g, testDir);
      }
      if (!shears.child) await shears.start();
      const answer = await shears.send(sql, record.connection);
      if (record.kind === 'statement') {
        if (record.maybe) { count.ok++; continue; }
        const good = record.expectError ? Boolean(answer.error) : !answer.error;
        if (good) {
          count.ok++;
          if (record.expectError && record.message && !record.message.startsWith('<REGEX>:') &&
              !(answer.message ?? '').includes(record.message.split('\n')[0].trim())) {
            total.messageMismatch++;
          }
          continue;
        }
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
      if (record.label && record.expected.length === 0) {
        // A labelled query without results must agree with the first of its label.
        const got = JSON.stringify(answer.rows);
        if (!labels.has(record.label)) { labels.set(record.label, got); count.ok++; continue; }
        if (labels.get(record.label) === got) { count.ok++; continue; }
      } else if (matches(record, answer, threshold)) { count.ok++; continue; }
      count.wrong++;
      if (wrongs.length < show) {
        wrongs.push(`${file}:${record.line}: ${record.sql.replace(/\s+/g, ' ').slice(0, 300)}\n` +
          `  expected: ${record.expected.slice(0, 8).join(' | ')}\n` +
          `  got:      ${(duck ? answer.rows.map((r) => r.map((v) => format(v, 'T')).join('\t'))
            : render(record, answer.rows, threshold)).slice(0, 8).join(' | ')}`);
      }
    }
    await shears.close();
    if (testDir) rmSync(testDir, { recursive: true, force: true });
    const n = count.ok + count.wrong + count.error;
    console.log(`${file}: ${count.ok}/${n} ok, ${count.wrong} wrong, ${count.error} errors` +
      (count.skipped ? `, ${count.skipped} skipped` : '') +
      (statementFailed ? ' (a setup statement failed)' : ''));
    for (const k of ['ok', 'wrong', 'error', 'skipped']) total[k] += count[k];
  }
}
const n = total.ok + total.wrong + total.error;
console.log(`\ntotal: ${total.ok}/${n} ok (${(100 * total.ok / Math.max(1, n)).toFixed(1)}%), ` +
  `${total.wrong} wrong, ${total.error} errors` +
  (duck ? `, ${total.skipped} records skipped, ${total.messageMismatch} expected errors with another message` : ''));
if (skippedFiles.size) {
  console.log('files skipped: ' + [...skippedFiles.entries()].map(([k, v]) => `${v} (${k})`).join(', '));
}
const top = [...messages.entries()].sort((a, b) => b[1] - a[1]).slice(0, show);
if (top.length) console.log('\nmost common errors:');
for (const [message, count] of top) {
  console.log(`${String(count).padStart(7)}  ${message}\n         e.g. ${examples.get(message)}`);
}
if (wrongs.length) console.log('\nwrong answers (first ' + wrongs.length + '):\n' + wrongs.join('\n'));
process.exit(total.wrong + total.error > 0 ? 1 : 0);

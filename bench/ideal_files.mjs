// Files read against the ideal, per fact table, for every query of the star suite (queries.mjs).
//
// The ideal file count of a fact table in a query: its files holding at least one row that
// survives all the query's filters and joins (for a NOT EXISTS / NOT IN over a fact: the rows
// that decide the answer, those that match). For each query and fact an "ideal" query counts
// the distinct files of the fact's surviving rows (IDEAL below: mostly the query's own FROM and
// WHERE with its select list replaced by that count; written out where the fact hides in a
// derived table, a UNION ALL or a subquery). shears counts the distinct partition key values
// (NULL counted as one): the generator writes one file per partition, which is checked on disk.
// `--duckdb` has DuckDB count the distinct `filename`s of the same rows (read_parquet's
// filename = true), an oracle independent of that layout, and fails when they differ.
//
// Files read: EXPLAIN (ANALYZE, FORMAT JSON) of the query, files_read and files_data_read
// (files some row group of which was read) summed over the scans of each fact table, after one
// untimed run of the query. --mode session: views as bench/run's session mode (footers cached
// from earlier queries of the process); catalog: CREATE EXTERNAL TABLE (the catalog's file
// statistics). The unpartitioned store_sales_flat copy is left out.
//
//   node bench/ideal_files.mjs --shears build/release/shears --data DIR [--mode catalog]
//        [--only REGEX] [--duckdb] [--extra] [--json FILE]

import fs from 'node:fs';
import path from 'node:path';
import { ShearsServer } from '../tests/differential/engines.mjs';
import { QUERIES, TABLES, viewSql } from './queries.mjs';
import { collectNodes, findNumber } from './report.mjs';

const FACTS = ['store_sales', 'store_returns'];
const PARTITION_KEY = { store_sales: 'ss_sold_date_sk', store_returns: 'sr_returned_date_sk' };

/// What identifies a row's file: shears, its partition key (one file per partition); DuckDB,
/// its filename.
const byPartition = (alias, table) =>
  `coalesce(CAST(${alias ? `${alias}.` : ''}${PARTITION_KEY[table]} AS VARCHAR), 'NULL')`;
const byFilename = (alias) => (alias ? `${alias}.filename` : 'filename');

/// The query with its select list replaced by the count of distinct `file`s and its top-level
/// GROUP BY dropped: the files of the fact rows the joins and filters keep.
export function distinctFiles(sql, file) {
  const text = sql.replace(/\s+/g, ' ').trim();
  let depth = 0;
  let from = -1;
  let groupBy = -1;
  const upper = text.toUpperCase();
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')') depth--;
    else if (depth === 0 && from < 0 && upper.startsWith(' FROM ', i)) from = i;
    else if (depth === 0 && from >= 0 && upper.startsWith(' GROUP BY ', i)) groupBy = i;
  }
  if (from < 0) throw new Error(`no top-level FROM in ${sql}`);
  return `SELECT count(DISTINCT ${file})${text.slice(from, groupBy < 0 ? undefined : groupBy)}`;
}

const MONTH = (year, month) => `d.d_year = ${year} AND d.d_moy = ${month}`;

/// The fact inside IN, NOT EXISTS, NOT IN: its rows that match a day of February 2000 decide
/// the answer; the others cannot.
const factInMonth = (file) => `SELECT count(DISTINCT ${file('ss', 'store_sales')})
  FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk
  WHERE ${MONTH(2000, 2)} AND ss.ss_quantity = 100`;

/// Per query whose own joins do not give the ideal: {table: (file) => SQL}.
const IDEAL = {
  two_facts_one_date_filter: {
    // A day's sales reach the result only when the day also had returns (and the reverse).
    store_sales: (file) => `SELECT count(DISTINCT ${file('ss', 'store_sales')}) FROM store_sales ss
      JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk WHERE ${MONTH(2001, 8)}
      AND EXISTS (SELECT 1 FROM store_returns sr WHERE sr.sr_returned_date_sk = d.d_date_sk)`,
    store_returns: (file) => `SELECT count(DISTINCT ${file('sr', 'store_returns')})
      FROM store_returns sr JOIN date_dim d ON sr.sr_returned_date_sk = d.d_date_sk
      WHERE ${MONTH(2001, 8)}
      AND EXISTS (SELECT 1 FROM store_sales ss WHERE ss.ss_sold_date_sk = d.d_date_sk)`,
  },
  union_all_two_facts: {
    store_sales: (file) => `SELECT count(DISTINCT ${file('ss', 'store_sales')}) FROM store_sales ss
      JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk WHERE ${MONTH(2001, 7)}`,
    store_returns: (file) => `SELECT count(DISTINCT ${file('sr', 'store_returns')})
      FROM store_returns sr JOIN date_dim d ON sr.sr_returned_date_sk = d.d_date_sk
      WHERE ${MONTH(2001, 7)}`,
  },
  fact_in_subquery: { store_sales: factInMonth },
  fact_in_not_exists: { store_sales: factInMonth },
  fact_in_not_in: { store_sales: factInMonth },
  key_computed_below: {
    store_sales: (file) => `SELECT count(DISTINCT ${file('ss', 'store_sales')}) FROM store_sales ss
      JOIN date_dim d ON ss.ss_sold_date_sk + 1 = d.d_date_sk + 1 WHERE ${MONTH(2001, 7)}`,
  },
};

/// Returns of the second half of 2001 joined to their sales of July 2001 (`sales`: more
/// conditions on the sale date d2).
const returnsH2WithSales = (sales = '') => `SELECT count(*) AS returns, sum(sr.sr_return_amt) AS returned
  FROM store_returns sr JOIN date_dim d1 ON sr.sr_returned_date_sk = d1.d_date_sk
  JOIN store_sales ss ON ss.ss_ticket_number = sr.sr_ticket_number AND ss.ss_item_sk = sr.sr_item_sk
  JOIN date_dim d2 ON ss.ss_sold_date_sk = d2.d_date_sk
  WHERE d1.d_year = 2001 AND d1.d_moy >= 7 AND d2.d_year = 2001 AND d2.d_moy = 7${sales}`;

/// Shapes of issue 15 beyond the bench suite (--extra): the query's joins give the ideal.
export const EXTRA_QUERIES = [
  {
    name: 'returns_h2_with_july_sales',
    what: 'returns of the second half of 2001 joined to their sales of July 2001',
    sql: returnsH2WithSales(),
  },
  {
    name: 'returns_h2_with_sales_july_1_3',
    what: 'the same, sales of July 1-3 2001 only',
    sql: returnsH2WithSales(' AND d2.d_dom <= 3'),
  },
  {
    name: 'returns_one_store_with_july_sales',
    what: 'returns of one store and quantity (few, they build) joined to their sales of July 2001: backward transfer',
    sql: `SELECT count(*) AS returns, sum(sr.sr_return_amt) AS returned
          FROM store_returns sr JOIN store_sales ss ON ss.ss_ticket_number = sr.sr_ticket_number AND ss.ss_item_sk = sr.sr_item_sk
          JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk
          WHERE d.d_year = 2001 AND d.d_moy = 7 AND sr.sr_store_sk = 2 AND sr.sr_return_quantity = 1`,
  },
  {
    name: 'returns_with_sales_1999_2001',
    what: 'returns of every date joined to their sales of 1999 and 2001: the sales\' tickets in two ranges',
    sql: `SELECT count(*) AS returns, sum(sr.sr_return_amt) AS returned
          FROM store_returns sr JOIN store_sales ss ON ss.ss_ticket_number = sr.sr_ticket_number AND ss.ss_item_sk = sr.sr_item_sk
          JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk
          WHERE d.d_year IN (1999, 2001)`,
  },
  {
    name: 'returns_one_store_with_novembers_sales',
    what: 'returns of one store and quantity joined to their sales of the Novembers 1999-2002: four ticket ranges apart',
    sql: `SELECT count(*) AS returns, sum(sr.sr_return_amt) AS returned
          FROM store_returns sr JOIN store_sales ss ON ss.ss_ticket_number = sr.sr_ticket_number AND ss.ss_item_sk = sr.sr_item_sk
          JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk
          WHERE d.d_moy = 11 AND d.d_year BETWEEN 1999 AND 2002 AND sr.sr_store_sk = 2 AND sr.sr_return_quantity = 1`,
  },
  {
    name: 'novembers_one_brand',
    what: 'TPC-DS q3 shape: November of every year, items of one brand',
    sql: `SELECT d.d_year, count(*) AS sales, sum(ss.ss_sales_price) AS revenue
          FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk
          JOIN item i ON ss.ss_item_sk = i.i_item_sk
          WHERE d.d_moy = 11 AND i.i_brand = 'brand #7' GROUP BY d.d_year`,
  },
];

const NOT_ALIAS = /^(JOIN|WHERE|GROUP|CROSS|ON|UNION|LEFT|RIGHT|INNER|FULL)$/i;

/// The facts a query reads, with the alias it gives each (null: the bare table name).
function factsOf(sql) {
  const found = [];
  for (const table of FACTS) {
    const match = sql.match(new RegExp(`\\b${table}\\b(?:\\s+(?:AS\\s+)?(\\w+))?`, 'i'));
    if (match) found.push({ table, alias: match[1] && !NOT_ALIAS.test(match[1]) ? match[1] : null });
  }
  return found;
}

/// {table: SQL counting its ideal files}, the files told apart by `file(alias, table)`.
export function idealQueries(query, file) {
  const out = {};
  if (IDEAL[query.name]) {
    for (const [table, sql] of Object.entries(IDEAL[query.name])) out[table] = sql(file);
    return out;
  }
  for (const { table, alias } of factsOf(query.sql)) {
    out[table] = distinctFiles(query.sql, file(alias, table));
  }
  return out;
}

function parseArgs(argv) {
  const options = { mode: 'session', only: '', duckdb: false, extra: false, json: '' };
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].replace(/^--/, '');
    if (name === 'duckdb' || name === 'extra') { options[name] = true; continue; }
    if (!['shears', 'data', 'mode', 'only', 'json', 'server'].includes(name) || i + 1 >= argv.length) {
      throw new Error(`usage: node ideal_files.mjs --shears BIN --data DIR [--mode session|catalog] [--only RE] [--duckdb] [--extra] [--json FILE]`);
    }
    options[name] = argv[++i];
  }
  if (!options.shears || !options.data) throw new Error('--shears and --data are required');
  if (!['session', 'catalog'].includes(options.mode)) throw new Error('--mode: session or catalog');
  options.data = path.resolve(options.data);
  options.server ||= path.join(path.dirname(options.shears), 'tests/differential/shears_query_server');
  return options;
}

function tablesIn(data) {
  return TABLES.filter((t) => fs.existsSync(path.join(data, t)));
}

const partitioned = (data, t) => fs.readdirSync(path.join(data, t)).some((e) => e.includes('='));

/// One file per partition directory, so a partition key value names one file.
function checkOneFilePerPartition(data, table) {
  for (const partition of fs.readdirSync(path.join(data, table))) {
    const files = fs.readdirSync(path.join(data, table, partition)).filter((f) => f.endsWith('.parquet'));
    if (files.length !== 1) {
      throw new Error(`${table}/${partition} holds ${files.length} files: the partition key does not name a file`);
    }
  }
}

function filenameView(data, table) {
  return viewSql(data, table, partitioned(data, table)).replace(/\)$/, ', filename = true)');
}

/// The fact a TABLE_SCAN reads: its details name the table (catalog) or the view's path.
function scanTable(node) {
  const source = String(node.details ?? '').split(' ')[1] ?? '';
  return FACTS.find((t) => new RegExp(`(^|/)${t}(/|$)`).test(source));
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const tables = tablesIn(options.data);
  // Only the queries over the generator's tables (not bench/run's unpartitioned copy).
  const queries = [...QUERIES, ...(options.extra ? EXTRA_QUERIES : [])].filter((q) => (!options.only || new RegExp(options.only).test(q.name)) &&
    !/\bstore_sales_flat\b/.test(q.sql));
  for (const t of FACTS) checkOneFilePerPartition(options.data, t);
  const views = tables.map((t) => viewSql(options.data, t, partitioned(options.data, t)));
  const ideal = new ShearsServer(options.server, options.data, { setup: views, timeoutMs: 600000 });
  const measured = new ShearsServer(options.server, options.data, options.mode === 'catalog'
    ? { tables, timeoutMs: 600000 }
    : { setup: views, timeoutMs: 600000 });
  let duck = null;
  if (options.duckdb) {
    const { DuckDBInstance } = await import('@duckdb/node-api');
    duck = await (await DuckDBInstance.create(':memory:')).connect();
    for (const t of tables) await duck.run(filenameView(options.data, t));
  }
  const results = [];
  for (const query of queries) {
    await measured.query(query.sql);  // warm-up: the footers, as in bench/run's session mode
    const explained = await measured.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${query.sql}`);
    if (explained.error) throw new Error(`${query.name}: ${explained.message}`);
    const scans = collectNodes(JSON.parse(explained.rows[0][0]), (n) => n.operator === 'TABLE_SCAN');
    const theirs = idealQueries(query, byFilename);
    for (const [table, sql] of Object.entries(idealQueries(query, byPartition))) {
      const answer = await ideal.query(sql);
      if (answer.error) throw new Error(`${query.name} ideal of ${table}: ${answer.message}\n${sql}`);
      const row = { query: query.name, table, ideal: Number(answer.rows[0][0]), files_read: 0,
        files_data_read: 0 };
      for (const scan of scans.filter((s) => scanTable(s) === table)) {
        row.files_read += findNumber(scan, 'files_read');
        // Only scans with runtime or dynamic filters report files_data_read; the others read
        // every file they open.
        row.files_data_read += findNumber(scan, 'files_data_read' in scan ? 'files_data_read' : 'files_read');
      }
      if (duck) {
        const count = Number((await duck.runAndReadAll(theirs[table])).getRowsJson()[0][0]);
        if (count !== row.ideal) throw new Error(`${query.name} ${table}: ideal ${row.ideal}, DuckDB counts ${count}`);
      }
      results.push(row);
      console.log(`| ${row.query} | ${row.table} | ${row.files_read} | ${row.files_data_read} | ${row.ideal} |`);
    }
  }
  await ideal.close();
  await measured.close();
  if (options.json) fs.writeFileSync(options.json, JSON.stringify(results, null, 1));
  const total = (key) => results.reduce((a, r) => a + r[key], 0);
  console.log(`| total | | ${total('files_read')} | ${total('files_data_read')} | ${total('ideal')} |`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((e) => { console.error(e.message); process.exit(1); });
}

// The two engines of the differential tests, over the same generated star schema.
//   DuckDB: in this process (@duckdb/node-api), each table loaded into memory once from
//           read_parquet with Hive partitioning (querying 1,827 files each time costs DuckDB
//           about a second a query; it is the oracle here, not the subject).
//   shears: one shears_query_server process (query_server.cpp) on an in-memory catalog where
//           each table is an external table (analyzed if asked); restarted after a crash or a
//           timeout.

import { spawn } from 'node:child_process';
import { TABLES } from '../../bench/queries.mjs';

export { TABLES };

export async function openDuckDB(data) {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  await connection.run('SET threads = 2');
  for (const t of TABLES) {
    await connection.run(`CREATE TABLE ${t} AS SELECT * FROM read_parquet(` +
      `'${data}/${t}/**/*.parquet', hive_partitioning = true)`);
  }
  return {
    version: (await connection.runAndReadAll('SELECT version()')).getRowsJson()[0][0],
    /// {names, types, rows} or {error}
    async query(sql) {
      try {
        const reader = await connection.runAndReadAll(sql);
        return { names: reader.columnNames(), types: reader.columnTypes().map(String),
          rows: reader.getRowsJson() };
      } catch (e) {
        return { error: 'DuckDB error', message: String(e.message || e) };
      }
    },
    close() { connection.closeSync?.(); },
  };
}

const SEPARATOR = '\n\x1e\n';

/// The shears side: query(sql) resolves to {names, types, rows} or {error, message}; a crash
/// or a query running past `timeoutMs` is {error: 'crash' | 'timeout'} and restarts the server.
/// `args` go to the server (a database directory); `setup`, when given, is the SQL run at each
/// start instead of creating the external tables (bench/star_bench.mjs: views, or nothing).
export class ShearsServer {
  constructor(binary, data, { timeoutMs = 120000, analyze = false, tables = TABLES, args = [],
    setup = null } = {}) {
    Object.assign(this, { binary, data, timeoutMs, analyze, tables, args, setup });
    this.child = null;
  }

  async start() {
    this.child = spawn(this.binary, this.args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.buffer = '';
    this.stderr = '';
    this.waiting = null;
    const child = this.child;
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk) => {
      // A server killed at a timeout may still deliver what was in its pipe: never mix that
      // into the next server's answers.
      if (this.child !== child) return;
      this.buffer += chunk;
      let newline;
      while ((newline = this.buffer.indexOf('\n')) >= 0 && this.waiting) {
        const line = this.buffer.slice(0, newline);
        this.buffer = this.buffer.slice(newline + 1);
        const resolve = this.waiting;
        this.waiting = null;
        resolve(JSON.parse(line));
      }
    });
    this.child.stderr.on('data', (chunk) => { this.stderr = (this.stderr + chunk).slice(-4000); });
    child.on('exit', (code, signal) => {
      if (this.child !== child) return;
      this.child = null;
      if (this.waiting) {
        const resolve = this.waiting;
        this.waiting = null;
        resolve({ error: 'crash', message: `shears_query_server exited (${signal ?? code}): ${this.stderr.trim()}` });
      }
    });
    child.stdin.on('error', () => {});  // a crash shows through 'exit'
    for (const sql of this.setup ?? []) {
      const answer = await this.send(sql);
      if (answer.error) throw new Error(`shears setup failed: ${sql}: ${answer.message}`);
    }
    for (const t of this.setup ? [] : this.tables) {
      const answer = await this.send(`CREATE EXTERNAL TABLE ${t} STORED AS PARQUET LOCATION '${this.data}/${t}'`);
      if (answer.error) throw new Error(`shears cannot create table ${t}: ${answer.message}`);
      if (this.analyze) {
        const analyzed = await this.send(`ANALYZE ${t}`);
        if (analyzed.error) throw new Error(`shears cannot analyze ${t}: ${analyzed.message}`);
      }
    }
  }

  /// `connection`: a name of another connection to the same database (made at first use).
  send(sql, connection = null) {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        if (this.waiting !== settle) return;
        this.waiting = null;
        this.kill();
        resolve({ error: 'timeout', message: `no answer after ${this.timeoutMs / 1000} s` });
      }, this.timeoutMs);
      const settle = (answer) => { clearTimeout(timer); resolve(answer); };
      this.waiting = settle;
      this.child.stdin.write((connection ? `\x1d${connection}\n` : '') + sql + SEPARATOR);
    });
  }

  /// Runs `sql` after `settings` (SET statements) on a fresh set of defaults.
  async query(sql, settings = []) {
    if (!this.child) await this.start();
    const script = ['RESET ALL', ...settings, sql.replace(/;\s*$/, '')].join(';\n');
    return this.send(script);
  }

  kill() {
    const child = this.child;
    this.child = null;
    if (child) child.kill('SIGKILL');
  }

  /// Ends the server; resolves to "" after a clean exit, else what went wrong (under ASan a
  /// leak report comes at exit).
  close() {
    const child = this.child;
    this.child = null;
    if (!child) return Promise.resolve('');
    return new Promise((resolve) => {
      child.on('exit', (code, signal) => resolve(code === 0 ? ''
        : `shears_query_server exited with ${signal ?? code} at the end: ${this.stderr.trim()}`));
      child.stdin.end();
    });
  }
}

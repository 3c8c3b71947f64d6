// Fills the expected rows of each `query` record of a SQL logic test file with DuckDB's answers
// (node scripts/duckdb_answers.mjs FILE...; needs @duckdb/node-api from `npm ci`). Every value
// is DuckDB's text of it (CAST to VARCHAR), NULL as NULL and '' as (empty), as the runner
// prints shears' results. A record whose query DuckDB rejects is left as written and reported.
import { DuckDBInstance } from '@duckdb/node-api';
import fs from 'node:fs';

const instance = await DuckDBInstance.create(':memory:');
for (const file of process.argv.slice(2)) {
  const con = await instance.connect();
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith('statement ok')) {
      out.push(line);
      const sql = [];
      while (i + 1 < lines.length && lines[i + 1].trim() !== '') sql.push(lines[++i]);
      out.push(...sql);
      try { await con.run(sql.join('\n')); } catch (e) { console.error(`${file}: ${e.message}`); }
      continue;
    }
    if (!line.startsWith('query ')) { out.push(line); continue; }
    out.push(line);
    const sql = [];
    while (i + 1 < lines.length && lines[i + 1] !== '----') sql.push(lines[++i]);
    out.push(...sql);
    i++;  // ----
    const old = [];
    while (i + 1 < lines.length && lines[i + 1].trim() !== '') old.push(lines[++i]);
    let rows;
    try {
      const text = sql.join('\n');
      const result = await con.run(`SELECT COLUMNS(*)::VARCHAR FROM (${text}) __answer`);
      rows = (await result.getRows()).map(r => r.map(v => v === null ? 'NULL' : v === '' ? '(empty)' : String(v)).join('\t'));
    } catch (e) {
      console.error(`${file}: ${sql.join(' ')}: ${e.message}`);
      rows = old;
    }
    out.push('----', ...rows);
  }
  fs.writeFileSync(file, out.join('\n'));
}

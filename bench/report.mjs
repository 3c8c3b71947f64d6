// Checking and reporting bench results: comparing two engines' rows, medians and geometric
// means, the markdown table and the SVG chart. No I/O here, so the tests need no engine.

export function collectNodes(node, match, out = []) {
  if (node && typeof node === 'object') {
    if (match(node)) out.push(node);
    for (const value of Object.values(node)) collectNodes(value, match, out);
  }
  return out;
}

export function findNumber(node, key) {
  const found = collectNodes(node, (n) => typeof n[key] === 'number');
  return found.length ? found[0][key] : 0;
}

export const sum = (values) => values.reduce((a, b) => a + b, 0);

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

// Result comparison is shared with the differential tests.
export { diffRows } from '../tests/differential/compare.mjs';

// ---- report -----------------------------------------------------------------------------

export const ms = (v) => (v === undefined ? '–' : v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : v.toFixed(0));
export const mb = (v) => (v === undefined ? '–' : (v / 1e6).toFixed(v < 1e7 ? 2 : 1));

export const MODES = ['fresh', 'session', 'catalog'];

const TITLES = {
  fresh: 'Fresh processes: what a new user meets first',
  session: 'One session: statement time',
  catalog: 'Catalog tables: statement time',
};

const ABOUT = {
  fresh: (m) => 'A new process per query and engine: `shears -f script.sql` and `node duckdb_fresh.mjs`, ' +
    'each script creating the views over `read_parquet` and then running the query, timed from spawn to exit. ' +
    (m.baseline ? 'An empty run of each engine, alternating with them, is subtracted for the net times ' +
      `(median over the queries: \`shears -c 'SELECT 1'\` ${ms(m.baseline.shears)} ms; ` +
      `node loading DuckDB and running \`SELECT 1\` ${ms(m.baseline.duckdb)} ms); ` +
      'view creation, listing files, reading footers, planning and execution stay in. ' : '') +
    'Ratio: of the net times; raw ratio: of the raw ones (node\'s start-up weighs on DuckDB there). ' +
    'A query whose median raw time is not above its engine\'s empty run (net time ≤ 0: its cost lost in the ' +
    'start-up\'s noise) shows *noise* for its ratio and is left out of the net geometric mean, which names it; ' +
    'its raw ratio still counts. ' +
    'Node\'s start-up varies by a hundred ms or more from run to run on a loaded machine, so a net DuckDB ' +
    'time well under that is mostly noise (a tiny net time makes a huge ratio): read those rows by their raw times. ' +
    'Files: the scans\' files as in session mode (the same views and plans); MB: everything the process read, less the empty run\'s.',
  session: () => 'One process per engine for the whole suite, the views created once at its start: ' +
    'shears in `shears_query_server` (`tests/differential/query_server.cpp`; the statement\'s time as `--timer` prints it), ' +
    'DuckDB in the bench\'s node process (around `runAndReadAll`). Start-up and view creation are left out. ' +
    'Both keep their defaults for metadata: shears caches listings and footers across statements, DuckDB\'s ' +
    '`parquet_metadata_cache` is off. ' +
    '*DF off*: shears with `dynamic_filtering = false` (no dynamic partition pruning, no runtime join filters).',
  catalog: (m) => 'shears on a database directory whose tables are `CREATE EXTERNAL TABLE ... STORED AS PARQUET LOCATION` ' +
    '(files listed and footers read once, at registration' +
    (m.catalogMs === undefined ? '' : `: ${ms(m.catalogMs)} ms for all tables, not in the times`) +
    '), queried in `shears_query_server` as in session mode; DuckDB as in session mode (its views; it has no such catalog for Parquet).',
};

const escapeCell = (s) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function modeTable(mode, results, machine, suffix = '') {
  const lines = [`## ${TITLES[mode]}`, '', ABOUT[mode](machine), '',
    `![shears/DuckDB time ratio per query, ${mode} mode](ratios${suffix}-${mode}.svg)`, ''];
  const cell = (x) => (x === undefined ? '–' : x);
  const header = mode === 'fresh'
    ? ['shears', 'DuckDB', 'shears/DuckDB', 'raw shears', 'raw DuckDB', 'raw ratio', 'files shears / DuckDB', 'MB shears / DuckDB']
    : mode === 'session'
      ? ['shears', 'DuckDB', 'shears/DuckDB', 'shears DF off', 'files shears / DF off / DuckDB', 'MB shears / DF off / DuckDB']
      : ['shears', 'DuckDB', 'shears/DuckDB', 'files shears / DuckDB', 'MB shears / DuckDB'];
  lines.push(`| query | ${header.join(' | ')} | check |`);
  lines.push(`|---|${header.map(() => '--:').join('|')}|---|`);
  for (const r of results) {
    if (r.unsupported) {
      const blanks = header.slice(2).map(() => '–').join(' | ');
      lines.push(`| ${r.name} | unsupported | ${ms(r.duckdb)} | ${blanks} | ${escapeCell(r.unsupported)} |`);
      continue;
    }
    const sides = mode === 'session' ? ['on', 'off', 'duckdb'] : ['on', 'duckdb'];
    const files = sides.map((k) => cell(r.m[k]?.files)).join(' / ');
    const bytes = sides.map((k) => mb(r.m[k]?.bytes)).join(' / ');
    const net = (x) => (x > 0 ? ms(x) : `≤ 0`);
    const cells = r.noise
      ? [net(r.shears), net(r.duckdb), 'noise']
      : [ms(r.shears), ms(r.duckdb), `**${r.ratio.toFixed(2)}**`];
    if (mode === 'fresh') cells.push(ms(r.shearsRaw), ms(r.duckdbRaw), r.rawRatio.toFixed(2));
    if (mode === 'session') cells.push(ms(r.off));
    lines.push(`| ${r.name} | ${[...cells, files, bytes].join(' | ')} | ${r.check || 'equal'} |`);
  }
  const summary = summarize(results);
  if (summary) {
    lines.push('', `Geometric mean of shears/DuckDB over ${summary.count} queries: **${fixed(summary.geomean)}**` +
      (mode === 'fresh' ? ` (raw: ${fixed(summary.rawGeomean)})` : '') + noiseNote(summary) + '.');
  }
  lines.push('');
  return lines;
}

/// A fresh-mode result's net times: its median raw times less the empty runs'. A net time
/// that is not positive means the query's own cost was lost in the start-up's noise; its
/// ratio would be 0 or infinite and drag the geometric mean to 0.00 or past any bound, so
/// such a query gets no net ratio (`r.noise`), is left out of the net mean and is named
/// there; its raw ratio still counts.
export function netTimes(r) {
  r.shears = r.shearsRaw - r.onEmpty;
  r.duckdb = r.duckdbRaw - r.duckdbEmpty;
  r.rawRatio = r.shearsRaw / r.duckdbRaw;
  if (r.shears > 0 && r.duckdb > 0) {
    r.ratio = r.shears / r.duckdb;
  } else {
    r.noise = true;
    delete r.ratio;
  }
  return r;
}

/// Geometric means and the worst queries of one mode, or null when shears ran none. Queries
/// whose net time was lost in start-up noise (`noise`) count only in the raw mean and are
/// listed as `noisy`.
export function summarize(results) {
  const ran = results.filter((r) => r.ratio !== undefined);
  const noisy = results.filter((r) => r.noise);
  if (!ran.length && !noisy.length) return null;
  const worst = [...ran].sort((a, b) => b.ratio - a.ratio).slice(0, 3);
  const raw = [...ran, ...noisy].filter((r) => r.rawRatio !== undefined).map((r) => r.rawRatio);
  return { count: ran.length, geomean: ran.length ? geomean(ran.map((r) => r.ratio)) : undefined,
    rawGeomean: raw.length ? geomean(raw) : undefined, worst, noisy: noisy.map((r) => r.name) };
}

const fixed = (x) => (x === undefined ? '–' : x.toFixed(2));
const noiseNote = (s) => (s.noisy.length
  ? `; left out of the net mean, their net time within start-up noise (raw not above the empty run): ${s.noisy.join(', ')}`
  : '');

/// `report` maps each mode run (MODES order) to its results, one per query.
export function markdown(report, options, machine) {
  const modes = MODES.filter((m) => report[m]);
  const lines = [];
  lines.push(`# shears vs DuckDB: ${options.suite === 'tpcds' ? 'the TPC-DS-style suite' : 'the star-join suite'}`, '');
  lines.push(`Written by \`bench/run\` on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC. ` +
    `Scale ${options.scale} (${machine.sales} store_sales rows in ${machine.partitions} partitions); ` +
    `${machine.cpus} cores (${machine.cpu}), ${machine.memory} GiB` +
    (machine.load === undefined ? '' : `, load average ${machine.load} at the start`) +
    (machine.loadEnd === undefined ? '' : ` and ${machine.loadEnd} at the end`) +
    `; DuckDB ${machine.duckdb}; ` +
    `median of ${options.runs} runs after ${options.warmup} warm-up, engines alternating run by run.`, '');
  lines.push('Times in ms. Both engines query the same views, `read_parquet(\'<data>/<table>/*/*.parquet\', ' +
    'hive_partitioning = true)` for the partitioned facts and `read_parquet(\'<data>/<table>/*.parquet\')` for ' +
    'the other tables, except shears in catalog mode. Both use all cores. Files: data files opened (each engine\'s ' +
    'profiler); MB: bytes returned by read calls (`/proc/PID/io` rchar, footers included). ' +
    'Ratio < 1: shears faster. Results are checked equal to DuckDB\'s in every mode.', '');
  lines.push('| mode | what is timed | queries | geometric mean shears/DuckDB | worst |', '|---|---|--:|--:|---|');
  const timed = { fresh: 'whole process, less an empty run', session: 'the statement', catalog: 'the statement' };
  for (const mode of modes) {
    const s = summarize(report[mode]);
    if (!s) continue;
    lines.push(`| ${mode} | ${timed[mode]} | ${s.count}` + (s.noisy.length ? ` (+${s.noisy.length} noise)` : '') +
      ` | **${fixed(s.geomean)}**` +
      (s.rawGeomean === undefined ? '' : ` (raw ${s.rawGeomean.toFixed(2)})`) + ' | ' +
      s.worst.map((r) => `${r.name} ${r.ratio.toFixed(2)}`).join(', ') + ' |');
  }
  lines.push('');
  for (const mode of modes) lines.push(...modeTable(mode, report[mode], machine, options.suffix ?? ''));
  lines.push('Queries:', '');
  for (const r of report[modes[0]] ?? []) lines.push(`- \`${r.name}\`: ${r.what}`);
  return lines.join('\n') + '\n';
}

export const geomean = (values) => Math.exp(sum(values.map(Math.log)) / values.length);

const escapeXml = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/// Horizontal bars on a log scale around 1: left of the line shears is faster.
export function svgChart(results, mode = '') {
  const rows = results;
  const label = 230, plot = 460, right = 70, rowHeight = 22, top = 40;
  const width = label + plot + right, height = top + rows.length * rowHeight + 30;
  const ran = rows.filter((r) => r.ratio);
  const extent = Math.max(2, ...ran.map((r) => Math.max(r.ratio, 1 / r.ratio)));
  const decades = Math.ceil(Math.log10(extent) * 2) / 2;  // half decades
  const x = (ratio) => label + plot / 2 + (Math.log10(ratio) / decades) * (plot / 2);
  const out = [`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
    `font-family="sans-serif" font-size="12">`,
  `<rect width="${width}" height="${height}" fill="white"/>`,
  `<text x="${width / 2}" y="18" text-anchor="middle" font-size="14">shears / DuckDB time${mode ? `, ${mode} mode` : ''} ` +
    `(log scale; left: shears faster)</text>`];
  for (const tick of [1 / 100, 1 / 10, 1 / 3, 1, 3, 10, 100]) {
    if (Math.abs(Math.log10(tick)) > decades + 1e-9) continue;
    const tx = x(tick).toFixed(1);
    out.push(`<line x1="${tx}" y1="${top - 6}" x2="${tx}" y2="${height - 24}" stroke="${tick === 1 ? '#333' : '#ddd'}"/>`);
    out.push(`<text x="${tx}" y="${height - 10}" text-anchor="middle" fill="#555">${tick < 1 ? '1/' + Math.round(1 / tick) : tick}</text>`);
  }
  rows.forEach((r, i) => {
    const y = top + i * rowHeight;
    const x0 = x(1), x1 = x(r.ratio);
    out.push(`<text x="${label - 8}" y="${y + 15}" text-anchor="end">${escapeXml(r.name)}</text>`);
    if (!r.ratio) {
      out.push(`<text x="${x0 + 4}" y="${y + 15}" fill="#888">${r.noise ? 'net time within start-up noise' : 'unsupported by shears'}</text>`);
      return;
    }
    out.push(`<rect x="${Math.min(x0, x1).toFixed(1)}" y="${y + 4}" width="${Math.max(1, Math.abs(x1 - x0)).toFixed(1)}" ` +
      `height="${rowHeight - 8}" fill="${r.ratio <= 1 ? '#2a9d58' : '#d1495b'}"/>`);
    out.push(`<text x="${(r.ratio <= 1 ? x0 : x1) + 4}" y="${y + 15}">${r.ratio.toFixed(2)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}

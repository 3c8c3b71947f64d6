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

export function markdown(results, options, machine) {
  const lines = [];
  lines.push('# shears vs DuckDB: the star-join suite', '');
  lines.push(`Written by \`bench/run\` on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC. ` +
    `Scale ${options.scale} (${machine.sales} store_sales rows in ${machine.partitions} partitions); ` +
    `${machine.cpus} cores (${machine.cpu}), ${machine.memory} GiB` +
    (machine.load === undefined ? '' : `, load average ${machine.load} at the start`) +
    `; DuckDB ${machine.duckdb}; ` +
    `median of ${options.runs} runs after ${options.warmup} warm-up, engines alternating.`, '');
  lines.push('Times in ms without process start-up. *DF off*: shears with `dynamic_filtering = false` (no dynamic partition pruning, no runtime join filters). ' +
    'Files: data files opened (each engine\'s profiler); MB: bytes returned by read calls ' +
    '(`/proc/self/io` rchar, footers included). Ratio < 1: shears faster.', '');
  lines.push('![shears/DuckDB time ratio per query](ratios.svg)', '');
  lines.push('| query | shears | DuckDB | shears/DuckDB | shears DF off | files shears / DF off / DuckDB | MB shears / DF off / DuckDB | check |');
  lines.push('|---|--:|--:|--:|--:|--:|--:|---|');
  for (const r of results) {
    const cell = (x) => (x === undefined ? '–' : x);
    if (r.unsupported) {
      lines.push(`| ${r.name} | unsupported | ${ms(r.duckdb)} | – | – | – | – | ${r.unsupported.replace(/\|/g, '\\|').replace(/\n/g, ' ')} |`);
      continue;
    }
    lines.push(`| ${r.name} | ${ms(r.shears)} | ${ms(r.duckdb)} | **${r.ratio.toFixed(2)}** | ${ms(r.off)} | ` +
      `${cell(r.m.on.files)} / ${cell(r.m.off.files)} / ${cell(r.m.duckdb.files)} | ` +
      `${mb(r.m.on.bytes)} / ${mb(r.m.off.bytes)} / ${mb(r.m.duckdb.bytes)} | ${r.check || 'equal'} |`);
  }
  const ratios = results.filter((r) => r.ratio).map((r) => r.ratio);
  if (ratios.length) {
    lines.push('', `Geometric mean of shears/DuckDB over ${ratios.length} queries: ` +
      `**${geomean(ratios).toFixed(2)}**.`);
  }
  lines.push('', 'Queries:', '');
  for (const r of results) lines.push(`- \`${r.name}\`: ${r.what}`);
  return lines.join('\n') + '\n';
}

export const geomean = (values) => Math.exp(sum(values.map(Math.log)) / values.length);

const escapeXml = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/// Horizontal bars on a log scale around 1: left of the line shears is faster.
export function svgChart(results) {
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
  `<text x="${width / 2}" y="18" text-anchor="middle" font-size="14">shears / DuckDB time ` +
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
      out.push(`<text x="${x0 + 4}" y="${y + 15}" fill="#888">unsupported by shears</text>`);
      return;
    }
    out.push(`<rect x="${Math.min(x0, x1).toFixed(1)}" y="${y + 4}" width="${Math.max(1, Math.abs(x1 - x0)).toFixed(1)}" ` +
      `height="${rowHeight - 8}" fill="${r.ratio <= 1 ? '#2a9d58' : '#d1495b'}"/>`);
    out.push(`<text x="${(r.ratio <= 1 ? x0 : x1) + 4}" y="${y + 15}">${r.ratio.toFixed(2)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}

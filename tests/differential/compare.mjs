// Comparing two engines' results, shared by the differential tests and bench/ (report.mjs).
//
// A result is rows of values as the engines print them (strings, numbers, null), optionally
// with the column types. With types, integers and DECIMALs compare exactly (12.50 = 12.5),
// DOUBLEs within a relative tolerance, and a DECIMAL against a DOUBLE (one engine's avg of a
// decimal may be either) within the DECIMAL's last digit. Without types, anything that looks
// like a number is compared as a DOUBLE. Rows are compared as multisets unless `ordered`.

const RELATIVE_TOLERANCE = 1e-9;

/// 'exact', 'double', 'bool' or 'text' for a type name of either engine ('DECIMAL(7,2)', ...).
export function typeClass(type) {
  const name = String(type ?? '').toUpperCase();
  if (/^(TINYINT|SMALLINT|INTEGER|INT|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|DECIMAL|NUMERIC)\b/.test(name)) {
    return 'exact';
  }
  if (/^(DOUBLE|FLOAT|REAL)\b/.test(name)) return 'double';
  if (name === 'BOOLEAN') return 'bool';
  return 'text';
}

const NUMBER_TEXT = /^[-+]?\d+(\.\d*)?(e[-+]?\d+)?$/i;

// Canonical text of an exact number: no sign on zero, no leading or trailing zeros.
function canonicalExact(text) {
  let s = String(text).trim();
  let negative = false;
  if (s[0] === '-' || s[0] === '+') {
    negative = s[0] === '-';
    s = s.slice(1);
  }
  let [whole, fraction = ''] = s.split('.');
  whole = whole.replace(/^0+(?=\d)/, '');
  fraction = fraction.replace(/0+$/, '');
  const body = fraction ? `${whole}.${fraction}` : whole;
  return negative && /[1-9]/.test(body) ? `-${body}` : body;
}

function parseDouble(value) {
  if (typeof value === 'number') return value;
  const text = String(value).trim().toLowerCase();
  if (text === 'nan') return NaN;
  if (text === 'inf' || text === 'infinity' || text === '+inf' || text === '+infinity') return Infinity;
  if (text === '-inf' || text === '-infinity') return -Infinity;
  return Number(text);
}

/// One value in comparable form: null, {num, exact?, scale?} or {text}.
export function normalizeValue(value, type) {
  if (value === null || value === undefined) return null;
  const cls = type === undefined ? undefined : typeClass(type);
  if (typeof value === 'bigint') value = value.toString();
  if (cls === 'exact' && NUMBER_TEXT.test(String(value)) && !/e/i.test(String(value))) {
    const exact = canonicalExact(value);
    // The type's scale, not the text's: 2.330 of a DECIMAL(9,3) was rounded at the third digit.
    const declared = /^DECIMAL\s*\(\s*\d+\s*,\s*(\d+)\s*\)/i.exec(String(type));
    const scale = declared ? Number(declared[1]) : (String(value).split('.')[1] ?? '').length;
    return { num: Number(exact), exact, scale };
  }
  if (cls === 'double' || (cls === undefined && (typeof value === 'number' || NUMBER_TEXT.test(String(value))))) {
    // A FLOAT may come as its shortest float text (shears: 1.1) or widened (1.100000023841858).
    if (/^(FLOAT|REAL)\b/i.test(String(type ?? ''))) return { num: parseDouble(value), float: true };
    return { num: parseDouble(value) };
  }
  if (cls === 'bool' || typeof value === 'boolean') return { text: String(value).toLowerCase() };
  return { text: String(value) };
}

function closeNumbers(a, b) {
  if (a.exact !== undefined && b.exact !== undefined) return a.exact === b.exact;
  if (Number.isNaN(a.num) || Number.isNaN(b.num)) return Number.isNaN(a.num) && Number.isNaN(b.num);
  if (a.num === b.num) return true;
  if ((a.float || b.float) && Math.fround(a.num) === Math.fround(b.num)) return true;
  const diff = Math.abs(a.num - b.num);
  // A DECIMAL against a DOUBLE: the decimal was rounded to its scale.
  const scale = a.exact !== undefined ? a.scale : b.exact !== undefined ? b.scale : undefined;
  if (scale !== undefined && diff <= 0.5 * 10 ** -scale * (1 + 1e-9)) return true;
  return diff <= RELATIVE_TOLERANCE * Math.max(1, Math.abs(a.num), Math.abs(b.num));
}

export function valuesEqual(a, b) {
  if (a === null || b === null) return a === b;
  if ('num' in a && 'num' in b) return closeNumbers(a, b);
  if ('text' in a && 'text' in b) return a.text === b.text;
  return false;
}

// Sort key part: NULLs first, then numbers (rounded, so values equal within the tolerance
// sort alike and ties fall through to the next column), then text.
function sortKey(v) {
  if (v === null) return [0, 0];
  if ('num' in v) return [1, Number.isFinite(v.num) ? Number(v.num.toPrecision(10)) : v.num];
  return [2, v.text];
}

function compareKeys(x, y) {
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const [kx, vx] = x[i], [ky, vy] = y[i];
    if (kx !== ky) return kx - ky;
    if (vx === vy || (Number.isNaN(vx) && Number.isNaN(vy))) continue;
    if (kx === 1) return Number.isNaN(vx) ? 1 : Number.isNaN(vy) ? -1 : vx - vy;
    return vx < vy ? -1 : 1;
  }
  return x.length - y.length;
}

function normalizeRows(rows, types) {
  return rows.map((row) => row.map((v, c) => normalizeValue(v, types ? types[c] : undefined)));
}

function sortNormalized(rows) {
  return rows.map((row) => ({ row, key: row.map(sortKey) }))
    .sort((x, y) => compareKeys(x.key, y.key)).map((x) => x.row);
}

const rowsEqual = (x, y) => x.length === y.length && x.every((v, i) => valuesEqual(v, y[i]));

/// Rows as they were before normalising, for messages.
function show(row) {
  return JSON.stringify(row.map((v) => (v === null ? null : 'exact' in v ? v.exact : 'num' in v ? v.num : v.text)));
}

// Rows of `a` with no equal row left in `b` (each row of `b` matches once).
function unmatched(a, b) {
  const used = new Array(b.length).fill(false);
  const out = [];
  for (const row of a) {
    const j = b.findIndex((other, k) => !used[k] && rowsEqual(row, other));
    if (j < 0) out.push(row);
    else used[j] = true;
  }
  return out;
}

/// Compares two results; "" when they agree, else a message whose first line says what differs
/// first (`N rows vs M`, `row R: ...`) followed by up to `context` differing rows of each side.
///   left, right: arrays of rows; options: {leftTypes, rightTypes, ordered, context = 5,
///   names: [left name, right name]}
export function diffRows(left, right, options = {}) {
  const { leftTypes, rightTypes, ordered = false, context = 5 } = options;
  const [leftName, rightName] = options.names ?? ['left', 'right'];
  let a = normalizeRows(left, leftTypes), b = normalizeRows(right, rightTypes);
  if (!ordered) {
    a = sortNormalized(a);
    b = sortNormalized(b);
  }
  let first = -1;
  for (let r = 0; r < Math.min(a.length, b.length); r++) {
    if (a[r].length !== b[r].length) return `row ${r}: ${a[r].length} columns vs ${b[r].length}`;
    if (!rowsEqual(a[r], b[r])) { first = r; break; }
  }
  if (first < 0 && a.length === b.length) return '';
  // Sorting rounds doubles; rows equal within the tolerance may still sort apart. Matching row
  // by row settles it for results small enough.
  if (!ordered && a.length === b.length && a.length <= 5000 && unmatched(a, b).length === 0) return '';
  const lines = [a.length !== b.length ? `${a.length} rows vs ${b.length}`
    : `row ${first}: ${show(a[first])} vs ${show(b[first])}`];
  if (ordered || a.length > 5000 || b.length > 5000) {
    const from = Math.max(0, first < 0 ? Math.min(a.length, b.length) : first);
    lines.push(`  first difference at row ${from}${ordered ? '' : ' (sorted)'}:`);
    for (const row of a.slice(from, from + context)) lines.push(`  - ${leftName}: ${show(row)}`);
    for (const row of b.slice(from, from + context)) lines.push(`  + ${rightName}: ${show(row)}`);
  } else {
    const onlyA = unmatched(a, b), onlyB = unmatched(b, a);
    lines.push(`  ${onlyA.length} rows only in ${leftName}, ${onlyB.length} only in ${rightName}:`);
    for (const row of onlyA.slice(0, context)) lines.push(`  - ${leftName}: ${show(row)}`);
    for (const row of onlyB.slice(0, context)) lines.push(`  + ${rightName}: ${show(row)}`);
  }
  return lines.join('\n');
}

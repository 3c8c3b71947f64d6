// Random queries over the star schema of `shears generate star`, for the differential tests.
// generateQuery(seed, index) is a pure function: the same seed and index give the same SQL, so a
// failing query is reproduced with `run --seed S --start I --count 1`.
//
// Shapes: a fact (store_sales, sometimes store_returns or both as one UNION ALL) joined to one
// to three dimensions
// (inner, left or right joins, customer -> customer_address as a snowflake), semi and anti joins through
// IN / EXISTS / NOT IN / NOT EXISTS (NOT IN over nullable columns too), filters on dimension
// attributes, on the fact's partition key and on its other columns, a scalar subquery or a
// derived table now and then, then either aggregates (GROUP BY, HAVING, DISTINCT aggregates) or
// plain rows; now and then a filtered dimension outside with the facts inside a semi join or a
// UNION (dimensionOutside), or a materialized CTE over a fact whose references each join a
// filtered dimension (cteReferences). Every ORDER BY is a total order (all group keys, or all selected columns), with
// NULLS FIRST/LAST spelled out, so LIMIT is deterministic.

// A small, fast PRNG (mulberry32) seeded from the seed and the query's index.
function makeRng(seed, index) {
  let state = (Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const rng = {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    chance: (p) => next() < p,
    pick: (items) => items[Math.floor(next() * items.length)],
    // n distinct items
    sample: (items, n) => {
      const copy = [...items];
      const out = [];
      while (out.length < n && copy.length) out.push(copy.splice(Math.floor(next() * copy.length), 1)[0]);
      return out;
    },
  };
  return rng;
}

const DATE_KEY_MIN = 2450815, DATE_KEY_MAX = 2452640;  // 1998-01-01 .. 2002-12-31 sale days
const STATES = ['TX', 'GA', 'CA', 'KY', 'VA', 'IN', 'MO', 'OH', 'NY', 'TN', 'IL', 'ZZ'];
const CATEGORIES = ['Women', 'Jewelry', 'Shoes', 'Books', 'Men', 'Music', 'Sports', 'Children',
  'Electronics', 'Home', 'Toys'];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const NAMES = ['Mary', 'John', 'James', 'Susan', 'David', 'Linda', 'Nobody'];

const q = (s) => `'${s}'`;

// Predicates on one dimension's attributes (alias `a`).
const DIMENSIONS = {
  date_dim: {
    key: 'd_date_sk', groups: ['d_year', 'd_moy', 'd_qoy', 'd_day_name', 'd_date'],
    predicate: (r, a) => r.pick([
      () => `${a}.d_year = ${r.int(1997, 2003)}`,
      () => `${a}.d_year BETWEEN ${r.int(1998, 2000)} AND ${r.int(2000, 2002)}`,
      () => `${a}.d_moy ${r.pick(['=', '<', '>=', '<>'])} ${r.int(1, 12)}`,
      () => `${a}.d_dom = ${r.int(1, 31)}`,
      () => `${a}.d_qoy IN (${r.sample([1, 2, 3, 4], r.int(1, 3)).join(', ')})`,
      () => `${a}.d_day_name ${r.pick(['=', '<>'])} ${q(r.pick(DAYS))}`,
      () => `${a}.d_date BETWEEN DATE ${q(`${r.int(1998, 2002)}-0${r.int(1, 9)}-1${r.int(0, 9)}`)} AND DATE ${q(`${r.int(2000, 2003)}-0${r.int(1, 9)}-2${r.int(0, 8)}`)}`,
      () => `EXTRACT(dow FROM ${a}.d_date) = ${r.int(0, 6)}`,
      () => `(${a}.d_year = ${r.int(1998, 2002)} AND ${a}.d_moy = ${r.int(1, 12)})`,
    ])(),
  },
  item: {
    key: 'i_item_sk', groups: ['i_category', 'i_class', 'i_brand'],
    predicate: (r, a) => r.pick([
      () => `${a}.i_category = ${q(r.pick(CATEGORIES))}`,
      () => `${a}.i_category IN (${r.sample(CATEGORIES, r.int(2, 4)).map(q).join(', ')})`,
      () => `${a}.i_current_price ${r.pick(['>', '<', '<='])} ${r.int(1, 90)}.${r.int(0, 99)}`,
      () => `${a}.i_class LIKE ${q(`class ${r.int(1, 9)}%`)}`,
      () => `${a}.i_brand = ${q(`brand #${r.int(1, 60)}`)}`,
      () => `(${a}.i_category = ${q(r.pick(CATEGORIES))} OR ${a}.i_current_price > ${r.int(50, 99)})`,
    ])(),
  },
  customer: {
    key: 'c_customer_sk', groups: ['c_birth_year', 'c_preferred_cust_flag', 'c_first_name'],
    predicate: (r, a) => r.pick([
      () => `${a}.c_birth_year ${r.pick(['<', '>', '='])} ${r.int(1924, 1992)}`,
      () => `${a}.c_preferred_cust_flag = ${q(r.pick(['Y', 'N']))}`,
      () => `${a}.c_preferred_cust_flag IS ${r.pick(['', 'NOT '])}NULL`,
      () => `${a}.c_first_name IN (${r.sample(NAMES, r.int(1, 3)).map(q).join(', ')})`,
      () => `${a}.c_last_name LIKE ${q(`${r.pick(['M', 'S', 'J', 'T', 'W'])}%`)}`,
      () => `${a}.c_current_addr_sk IS NULL`,
    ])(),
  },
  customer_address: {
    key: 'ca_address_sk', groups: ['ca_state', 'ca_gmt_offset'],
    predicate: (r, a) => r.pick([
      () => `${a}.ca_state = ${q(r.pick(STATES))}`,
      () => `${a}.ca_state IN (${r.sample(STATES, r.int(2, 4)).map(q).join(', ')})`,
      () => `${a}.ca_gmt_offset = ${r.pick(['-5.00', '-6', '-7.0', '-8'])}`,
      () => `${a}.ca_city LIKE ${q(`${r.pick(['S', 'F', 'P', 'M'])}%`)}`,
    ])(),
  },
  store: {
    key: 's_store_sk', groups: ['s_state', 's_store_name'],
    predicate: (r, a) => r.pick([
      () => `${a}.s_state = ${q(r.pick(['TN', 'VA', 'IL', 'TX']))}`,
      () => `${a}.s_number_employees ${r.pick(['>', '<'])} ${r.int(200, 240)}`,
      () => `${a}.s_store_name <> ${q(r.pick(['able', 'pri', 'ese']))}`,
    ])(),
  },
  promotion: {
    key: 'p_promo_sk', groups: ['p_channel_email', 'p_channel_tv'],
    predicate: (r, a) => r.pick([
      () => `${a}.p_channel_email = ${q(r.pick(['Y', 'N']))}`,
      () => `${a}.p_channel_dmail IS NULL`,
      () => `${a}.p_cost > ${r.int(0, 1200)}`,
      () => `${a}.p_start_date_sk BETWEEN ${r.int(DATE_KEY_MIN, 2451500)} AND ${r.int(2451500, DATE_KEY_MAX)}`,
    ])(),
  },
};

const FACTS = {
  store_sales: {
    alias: 'ss', partition: 'ss_sold_date_sk',
    fks: { date_dim: 'ss_sold_date_sk', item: 'ss_item_sk', customer: 'ss_customer_sk',
      store: 'ss_store_sk', promotion: 'ss_promo_sk' },
    groups: ['ss_store_sk', 'ss_promo_sk', 'ss_quantity'],
    measures: ['ss_quantity', 'ss_sales_price', 'ss_net_profit'],
    ticket: 'ss_ticket_number',
    predicate: (r, a) => r.pick([
      () => `${a}.ss_quantity ${r.pick(['>', '<', '='])} ${r.int(1, 100)}`,
      () => `${a}.ss_sales_price BETWEEN ${r.int(0, 100)} AND ${r.int(100, 200)}.${r.int(0, 99)}`,
      () => `${a}.ss_net_profit < 0`,
      () => `${a}.ss_customer_sk IS ${r.pick(['', 'NOT '])}NULL`,
      () => `${a}.ss_promo_sk IS NOT NULL`,
      () => `${a}.ss_sales_price * ${a}.ss_quantity > ${r.int(100, 5000)}`,
      () => `COALESCE(${a}.ss_store_sk, 0) ${r.pick(['=', '<>'])} ${r.int(0, 3)}`,
    ])(),
  },
  store_returns: {
    alias: 'sr', partition: 'sr_returned_date_sk',
    fks: { date_dim: 'sr_returned_date_sk', item: 'sr_item_sk', customer: 'sr_customer_sk',
      store: 'sr_store_sk' },
    groups: ['sr_store_sk', 'sr_return_quantity'],
    measures: ['sr_return_quantity', 'sr_return_amt'],
    ticket: 'sr_ticket_number',
    predicate: (r, a) => r.pick([
      () => `${a}.sr_return_quantity ${r.pick(['>', '<'])} ${r.int(1, 100)}`,
      () => `${a}.sr_return_amt > ${r.int(0, 500)}`,
      () => `${a}.sr_customer_sk IS NULL`,
    ])(),
  },
};

// Both facts as one (UNION ALL, each branch on its own partition column): the dimensions'
// filters must reach both scans.
FACTS.sales_and_returns = {
  alias: 'b', partition: 'date_sk',
  source: '(SELECT ss_item_sk AS item_sk, ss_customer_sk AS customer_sk, ss_store_sk AS store_sk, '
    + 'ss_ticket_number AS ticket, ss_quantity AS quantity, ss_sales_price AS amount, '
    + "ss_sold_date_sk AS date_sk, 'sale' AS kind FROM store_sales UNION ALL SELECT sr_item_sk, "
    + 'sr_customer_sk, sr_store_sk, sr_ticket_number, sr_return_quantity, sr_return_amt, '
    + "sr_returned_date_sk, 'return' FROM store_returns)",
  fks: { date_dim: 'date_sk', item: 'item_sk', customer: 'customer_sk', store: 'store_sk' },
  groups: ['store_sk', 'quantity', 'kind'],
  measures: ['quantity', 'amount'],
  ticket: 'ticket',
  predicate: (r, a) => r.pick([
    () => `${a}.quantity ${r.pick(['>', '<', '='])} ${r.int(1, 100)}`,
    () => `${a}.amount > ${r.int(0, 200)}`,
    () => `${a}.kind = ${q(r.pick(['sale', 'return']))}`,
    () => `${a}.customer_sk IS NULL`,
  ])(),
};

const DIM_ALIAS = { date_dim: 'd', item: 'i', customer: 'c', customer_address: 'ca', store: 's',
  promotion: 'p' };

function partitionPredicate(r, column) {
  const lo = r.int(DATE_KEY_MIN - 20, DATE_KEY_MAX);
  return r.pick([
    () => `${column} BETWEEN ${lo} AND ${lo + r.int(0, 400)}`,
    () => `${column} = ${r.int(DATE_KEY_MIN, DATE_KEY_MAX)}`,
    () => `${column} IN (${Array.from({ length: r.int(1, 5) }, () => r.int(DATE_KEY_MIN, DATE_KEY_MAX)).join(', ')})`,
    () => `${column} IS ${r.pick(['', 'NOT '])}NULL`,
    () => `${column} ${r.pick(['<', '>='])} ${lo}`,
    () => `(${column} < ${lo} OR ${column} IS NULL)`,
  ])();
}

// A semi or anti join of the fact with `dim` as a WHERE condition.
function semiAnti(r, dim, fkRef, depth) {
  const d = DIMENSIONS[dim];
  const inner = `${DIM_ALIAS[dim]}${depth}`;
  const filter = d.predicate(r, inner);
  const shape = r.pick(['in', 'exists', 'not in', 'not exists']);
  switch (shape) {
    case 'in':
      return `${fkRef} IN (SELECT ${inner}.${d.key} FROM ${dim} ${inner} WHERE ${filter})`;
    case 'not in':
      return `${fkRef} NOT IN (SELECT ${inner}.${d.key} FROM ${dim} ${inner} WHERE ${filter})`;
    case 'exists':
      return `EXISTS (SELECT 1 FROM ${dim} ${inner} WHERE ${inner}.${d.key} = ${fkRef} AND ${filter})`;
    default:
      return `NOT EXISTS (SELECT 1 FROM ${dim} ${inner} WHERE ${inner}.${d.key} = ${fkRef} AND ${filter})`;
  }
}

// A filtered dimension outside, the facts inside: IN / EXISTS / NOT EXISTS over a fact or a
// UNION of both facts, or a join to such a union; the key sometimes computed on the way
// (k - 1 inside, k + 1 = key outside, a CAST, * 2, negated or as text on both sides), or both
// facts joined to each other (inner, left or right, the ticket sometimes computed, each fact
// sometimes filtered on its own). Dynamic filters must reach each branch, the fact inside a
// semi join and, backward, a fact that builds (issue 15).
function dimensionOutside(r) {
  const dim = r.pick(['date_dim', 'item']);
  const d = DIMENSIONS[dim], a = DIM_ALIAS[dim];
  // How the key is computed on the way: k - 1 inside and + 1 outside, CASTs between INTEGER and
  // BIGINT (both invertible: the build keys are mapped back), or computations the scan must
  // evaluate per row: * 2 on both sides (monotone: bounds map too), - k (decreasing), text.
  const computation = r.pick(['plain', 'plain', 'offset', 'cast', 'times', 'negate', 'text']);
  const cast = computation === 'cast' ? r.pick(['INTEGER', 'BIGINT']) : null;
  const column = (fact) => {
    const c = FACTS[fact].fks[dim];
    switch (computation) {
      case 'offset': return `${c} - 1`;
      case 'cast': return `CAST(${c} AS ${cast})`;
      case 'times': return `${c} * 2`;
      case 'negate': return `-${c}`;
      case 'text': return `CAST(${c} AS VARCHAR)`;
      default: return c;
    }
  };
  // The dimension's key as the computed key meets it.
  const dimKey = { times: `${a}.${d.key} * 2`, negate: `-${a}.${d.key}`, text: `CAST(${a}.${d.key} AS VARCHAR)` }[computation] ?? `${a}.${d.key}`;
  const sales = `SELECT ${column('store_sales')} AS k FROM store_sales ss${r.chance(0.4) ? ` WHERE ${FACTS.store_sales.predicate(r, 'ss')}` : ''}`;
  const returns = `SELECT ${column('store_returns')} AS k FROM store_returns sr${r.chance(0.3) ? ` WHERE ${FACTS.store_returns.predicate(r, 'sr')}` : ''}`;
  const source = r.pick([sales, returns, `${sales} UNION ${r.pick(['ALL ', ''])}${returns}`,
    `${returns} UNION ALL ${sales}`]);
  const key = computation === 'offset' ? 'u.k + 1' : 'u.k';
  const where = [d.predicate(r, a)];
  let from = `${dim} ${a}`;
  switch (r.pick(['in', 'exists', 'not exists', 'join', 'facts', 'facts'])) {
    case 'in':
      where.push(`${dimKey} IN (SELECT ${key} FROM (${source}) u)`);
      break;
    case 'exists':
      where.push(`EXISTS (SELECT 1 FROM (${source}) u WHERE ${key} = ${dimKey})`);
      break;
    case 'not exists':
      where.push(`NOT EXISTS (SELECT 1 FROM (${source}) u WHERE ${key} = ${dimKey})`);
      break;
    case 'join':
      from += ` JOIN (${source}) u ON ${key} = ${dimKey}`;
      break;
    default: {
      // Fact to fact: returns joined to their sales (ticket, and item or not), the dimension
      // on either fact; each fact is pruned by the other's surviving keys where it can be. The
      // ticket sometimes computed on both sides (the sales files' ticket bounds map through
      // * 10; text does not order as numbers do).
      const onFact = r.chance(0.5) ? `sr.${FACTS.store_returns.fks[dim]}` : `ss.${FACTS.store_sales.fks[dim]}`;
      const ticket = r.pick([(t) => t, (t) => t, (t) => `${t} * 10`, (t) => `CAST(${t} AS VARCHAR)`, (t) => `${t} + 1`]);
      // RIGHT: every sale kept, so the returns (build side or not) may never be bounded by
      // the sales' kept files (statistics_transfer's legality).
      const join = r.pick(['JOIN', 'JOIN', 'LEFT JOIN', 'RIGHT JOIN']);
      from += ` JOIN store_returns sr ON ${onFact} = ${a}.${d.key} ${join} store_sales ss ON ${ticket('ss.ss_ticket_number')} = ${ticket('sr.sr_ticket_number')}${r.chance(0.7) ? ' AND ss.ss_item_sk = sr.sr_item_sk' : ''}`;
      if (r.chance(0.4)) {
        const sales = FACTS.store_sales.predicate(r, 'ss');
        // In WHERE a LEFT join's predicate drops the unmatched returns; in ON it keeps them.
        if (join === 'LEFT JOIN' && r.chance(0.5)) from += ` AND ${sales}`;
        else where.push(sales);
      }
      if (r.chance(0.3)) where.push(partitionPredicate(r, 'ss.ss_sold_date_sk'));
      // A row filter on the returns alone: few returns build, and a dimension on the sales
      // then prunes them backward (predicate_transfer's semi join with the sales' keys, the
      // sales computed first, once).
      if (r.chance(0.3)) where.push(FACTS.store_returns.predicate(r, 'sr'));
    }
  }
  const group = `${a}.${r.pick(d.groups)}`;
  const sql = `SELECT ${group}, count(*)\nFROM ${from}\nWHERE ${where.join(' AND ')}\nGROUP BY ${group}\nORDER BY ${group} NULLS FIRST`;
  return { sql, ordered: true };
}

// A CTE over a fact, materialized (by the keyword, or an aggregate referenced twice), whose two
// references are each joined to their own filtered copy of a dimension, or one of them left
// unfiltered, LEFT joined or anti joined: the CTE's scan is pruned by the OR of what each
// reference needs (issue 15).
function cteReferences(r) {
  const fact = r.pick(['store_sales', 'store_returns']);
  const f = FACTS[fact];
  const dim = r.pick(['date_dim', 'date_dim', 'item']);
  const d = DIMENSIONS[dim];
  const measure = f.measures[0];
  const body = r.chance(0.5)
    ? `MATERIALIZED (SELECT ${f.fks[dim]} AS k, ${measure} AS m FROM ${fact}${r.chance(0.3) ? ` WHERE ${f.predicate(r, fact)}` : ''})`
    : `(SELECT ${f.fks[dim]} AS k, sum(${measure}) AS m FROM ${fact} GROUP BY ${f.fks[dim]})`;
  const joined = (a) => `SELECT ${a}.${d.key} AS g, u.m FROM u JOIN ${dim} ${a} ON u.k = ${a}.${d.key} WHERE ${d.predicate(r, a)}`;
  const second = r.pick([
    () => joined('b'),
    () => joined('b'),
    () => 'SELECT u.k, u.m FROM u',
    () => `SELECT b.${d.key}, u.m FROM u LEFT JOIN ${dim} b ON u.k = b.${d.key} AND ${d.predicate(r, 'b')}`,
    () => `SELECT u.k, u.m FROM u WHERE NOT EXISTS (SELECT 1 FROM ${dim} b WHERE b.${d.key} = u.k AND ${d.predicate(r, 'b')})`,
  ])();
  const sql = `WITH u AS ${body}\nSELECT x.g, count(*), sum(x.m)\nFROM (${joined('a')} UNION ALL ${second}) x\nGROUP BY x.g\nORDER BY x.g NULLS FIRST`;
  return { sql, ordered: true };
}

export function generateQuery(seed, index) {
  const r = makeRng(seed, index);
  if (r.chance(0.1)) return r.chance(0.3) ? cteReferences(r) : dimensionOutside(r);
  const factName = r.chance(0.1) ? 'sales_and_returns'
    : r.chance(0.8) ? 'store_sales' : 'store_returns';
  const fact = FACTS[factName];
  const f = fact.alias;
  const table = fact.source ? `${fact.source}` : factName;
  const from = [r.chance(0.1)
    ? `(SELECT * FROM ${table} ${factName} WHERE ${fact.predicate(r, factName)}) ${f}`
    : `${table} ${f}`];
  const where = [];
  const groupable = fact.groups.map((c) => `${f}.${c}`);
  groupable.push(`${f}.${fact.partition}`);

  const dims = r.sample(Object.keys(fact.fks), r.int(0, 3));
  for (const dim of dims) {
    const d = DIMENSIONS[dim], a = DIM_ALIAS[dim];
    const fk = `${f}.${fact.fks[dim]}`;
    const kind = r.pick(['inner', 'inner', 'inner', 'left', 'left', 'right', 'semi']);
    if (kind === 'semi') {
      where.push(semiAnti(r, dim, fk, 1));
      continue;
    }
    const join = { left: 'LEFT JOIN', right: 'RIGHT JOIN' }[kind] ?? 'JOIN';
    let on = `${fk} = ${a}.${d.key}`;
    // A residual condition between the two sides, checked per matching pair.
    if (dim === 'date_dim' && r.chance(0.15)) on += ` AND ${f}.${fact.measures[0]} > ${a}.d_dom`;
    if (dim === 'item' && r.chance(0.15)) on += ` AND ${f}.${fact.measures[1]} < ${a}.i_current_price`;
    // A left join's dimension filter in ON keeps every fact row; in WHERE it removes them
    // (the join is then an inner one: outer_join_simplification), unless it accepts the
    // NULL-extended rows too (IS NULL, COALESCE: the join stays outer).
    if (r.chance(0.7)) {
      const predicate = d.predicate(r, a);
      if (kind === 'left' && r.chance(0.4)) on += ` AND ${predicate}`;
      else if (kind === 'left' && r.chance(0.3)) where.push(`(${predicate} OR ${a}.${d.key} IS NULL)`);
      else where.push(predicate);
    }
    from.push(`${join} ${dim} ${a} ON ${on}`);
    groupable.push(...d.groups.map((c) => `${a}.${c}`));
    if (dim === 'customer' && r.chance(0.4)) {
      const ca = DIMENSIONS.customer_address;
      from.push(`${r.pick(['JOIN', 'LEFT JOIN'])} customer_address ca ON c.c_current_addr_sk = ca.ca_address_sk`);
      if (r.chance(0.6)) where.push(ca.predicate(r, 'ca'));
      groupable.push(...ca.groups.map((c) => `ca.${c}`));
    }
  }
  if (r.chance(0.5)) where.push(partitionPredicate(r, `${f}.${fact.partition}`));
  if (r.chance(0.4)) where.push(fact.predicate(r, f));
  if (r.chance(0.15)) {
    // Semi/anti join on the ticket with the other fact, whose keys hold NULLs (NOT IN!).
    const other = factName === 'store_sales' ? 'store_returns' : 'store_sales';
    const o = FACTS[other];
    const col = r.chance(0.5) ? [fact.ticket, o.ticket] : [fact.fks.customer, o.fks.customer];
    where.push(`${f}.${col[0]} ${r.pick(['IN', 'NOT IN'])} (SELECT ${col[1]} FROM ${other} WHERE ${partitionPredicate(r, o.partition)})`);
  }
  if (r.chance(0.08)) {
    // Correlated through the ticket: a count over no rows is 0, a sum NULL.
    const other = factName === 'store_sales' ? 'store_returns' : 'store_sales';
    const o = FACTS[other];
    const aggregate = r.pick(['count(*)', `sum(x.${o.measures[0]})`, `max(x.${o.measures[0]})`]);
    where.push(`${r.pick(['0', '1', `${f}.${fact.measures[0]}`])} ${r.pick(['=', '<', '>='])} (SELECT ${aggregate} FROM ${other} x WHERE x.${o.ticket} = ${f}.${fact.ticket})`);
  }
  if (r.chance(0.06)) {
    where.push(`${r.pick(['', 'NOT '])}EXISTS (SELECT 1 FROM item x WHERE x.i_item_sk = ${f}.${fact.fks.item} AND x.i_current_price > ${f}.${fact.measures[1]})`);
  }
  if (r.chance(0.1)) {
    where.push(`${f}.${fact.measures[1]} > (SELECT ${r.pick(['avg', 'min', 'max'])}(i_current_price) FROM item WHERE ${DIMENSIONS.item.predicate(r, 'item')})`);
  }

  const whereSql = where.length ? `\nWHERE ${where.join(r.chance(0.1) && where.length > 1 ? ' OR ' : ' AND ')}` : '';
  const fromSql = from.join('\n  ');
  if (r.chance(0.2)) groupable.push(`CASE WHEN ${f}.${fact.measures[0]} > ${r.int(10, 90)} THEN 'high' ELSE 'low' END`);
  if (from.some((x) => / date_dim d ON /.test(x)) && r.chance(0.3)) {
    groupable.push(`EXTRACT(${r.pick(['year', 'month', 'dow'])} FROM d.d_date)`);
  }
  if (r.chance(0.7)) {
    const keys = r.sample(groupable, r.int(0, 2));
    const measure = `${f}.${r.pick(fact.measures)}`;
    const aggregates = r.sample([
      'count(*)', `sum(${measure})`, `min(${measure})`, `max(${measure})`, `avg(${measure})`,
      `count(DISTINCT ${f}.${fact.ticket})`, `count(${f}.${fact.fks.customer})`,
      `sum(${f}.${fact.measures[1]} * ${f}.${fact.measures[0]})`,
      `sum(CASE WHEN ${f}.${fact.measures[0]} > 50 THEN 1 ELSE 0 END)`,
    ], r.int(1, 3));
    const select = [...keys, ...aggregates].join(', ');
    let sql = `SELECT ${select}\nFROM ${fromSql}${whereSql}`;
    if (keys.length) sql += `\nGROUP BY ${keys.join(', ')}`;
    if (keys.length && r.chance(0.3)) sql += `\nHAVING count(*) > ${r.int(1, 20)}`;
    if (keys.length && r.chance(0.5)) {
      const nulls = r.pick(['NULLS FIRST', 'NULLS LAST']);
      sql += `\nORDER BY ${keys.map((k) => `${k} ${r.pick(['ASC', 'DESC'])} ${nulls}`).join(', ')}`;
      if (r.chance(0.7)) sql += `\nLIMIT ${r.int(1, 20)}`;
      return { sql, ordered: true };
    }
    return { sql, ordered: false };
  }
  const columns = r.sample(groupable, r.int(1, 3));
  const distinct = r.chance(0.3) ? 'DISTINCT ' : '';
  const order = columns.map((c) => `${c} ${r.pick(['ASC', 'DESC'])} ${r.pick(['NULLS FIRST', 'NULLS LAST'])}`);
  const sql = `SELECT ${distinct}${columns.join(', ')}\nFROM ${fromSql}${whereSql}\nORDER BY ${order.join(', ')}\nLIMIT ${r.int(1, 50)}`;
  return { sql, ordered: true };
}

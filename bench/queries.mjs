// The star-join suite of bench/run. Each query names tables as in `shears generate star`; the
// runner makes those names views over the generated Parquet (or catalog tables). Results are
// compared between engines after sorting rows, so ORDER BY is only needed under a LIMIT.

export const TABLES = ['date_dim', 'item', 'customer', 'customer_address', 'store', 'promotion',
  'store_sales', 'store_returns'];
/// Not written by the generator: an unpartitioned 8-file copy of store_sales that star_bench.mjs
/// writes once beside the data (ensureFlatCopy), for the full-scan queries.
export const BENCH_TABLES = [...TABLES, 'store_sales_flat'];

/// The view every mode but shears' catalog mode queries a table through, the same text on both
/// engines: a Hive-partitioned table (a directory of key=value directories) by a two-level glob
/// with hive_partitioning, any other by the files in its directory.
export function viewSql(data, table, partitioned) {
  const files = partitioned ? `'${data}/${table}/*/*.parquet', hive_partitioning = true`
    : `'${data}/${table}/*.parquet'`;
  return `CREATE VIEW ${table} AS SELECT * FROM read_parquet(${files})`;
}

export const QUERIES = [
  {
    name: 'range_month',
    what: 'contiguous dates: one month (31 partitions)',
    sql: `SELECT d_moy, count(*) AS sales, sum(ss_sales_price) AS revenue
          FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk
          WHERE d.d_year = 2000 AND d.d_moy = 12 GROUP BY d_moy`,
  },
  {
    name: 'range_quarter_by_day',
    what: 'contiguous dates: a quarter by BETWEEN on d_date, grouped by day',
    sql: `SELECT d.d_date, count(*) AS sales, sum(ss.ss_net_profit) AS profit
          FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk
          WHERE d.d_date BETWEEN DATE '2001-04-01' AND DATE '2001-06-30' GROUP BY d.d_date`,
  },
  {
    name: 'scattered_sundays',
    what: 'scattered keys: every Sunday of 2001 (52 partitions far apart)',
    sql: `SELECT count(*) AS sales, sum(ss_net_profit) AS profit
          FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk
          WHERE d.d_year = 2001 AND d.d_day_name = 'Sunday'`,
  },
  {
    name: 'scattered_dom1_in',
    what: 'scattered keys by IN (subquery): the first day of every month (60 partitions)',
    sql: `SELECT count(*) AS sales, sum(ss_quantity) AS quantity FROM store_sales ss
          WHERE ss.ss_sold_date_sk IN (SELECT d_date_sk FROM date_dim WHERE d_dom = 1)`,
  },
  {
    name: 'exists_semi',
    what: 'correlated EXISTS (semi join): January and July 1999',
    sql: `SELECT count(*) AS sales, sum(ss.ss_sales_price) AS revenue FROM store_sales ss
          WHERE EXISTS (SELECT 1 FROM date_dim d WHERE d.d_date_sk = ss.ss_sold_date_sk
                        AND d.d_year = 1999 AND d.d_moy IN (1, 7))`,
  },
  {
    name: 'not_exists_anti',
    what: 'NOT EXISTS (anti join): sales not dated up to 2001 (2002 and NULL keys)',
    sql: `SELECT count(*) AS sales, sum(ss.ss_quantity) AS quantity FROM store_sales ss
          WHERE NOT EXISTS (SELECT 1 FROM date_dim d WHERE d.d_date_sk = ss.ss_sold_date_sk
                            AND d.d_year <= 2001)`,
  },
  {
    name: 'left_outer_dim_kept',
    what: 'LEFT JOIN keeping the days of a month, sales per day (fact on the outer side)',
    sql: `SELECT d.d_dom, count(ss.ss_item_sk) AS sales
          FROM date_dim d LEFT JOIN store_sales ss ON ss.ss_sold_date_sk = d.d_date_sk
          WHERE d.d_year = 2002 AND d.d_moy = 2 GROUP BY d.d_dom`,
  },
  {
    name: 'right_outer_subquery',
    what: 'RIGHT JOIN to a filtered date subquery (fact on the left, prunable)',
    sql: `SELECT count(ss.ss_item_sk) AS sales, count(*) AS row_count
          FROM store_sales ss RIGHT JOIN (SELECT d_date_sk FROM date_dim
                                          WHERE d_year = 2000 AND d_moy = 2) d
            ON ss.ss_sold_date_sk = d.d_date_sk`,
  },
  {
    name: 'two_dims_date_item',
    what: 'two dimensions on one fact: a month and an item category',
    sql: `SELECT i.i_brand, count(*) AS sales, sum(ss.ss_sales_price) AS revenue
          FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk
          JOIN item i ON ss.ss_item_sk = i.i_item_sk
          WHERE d.d_year = 2001 AND d.d_moy = 11 AND i.i_category = 'Music'
          GROUP BY i.i_brand`,
  },
  {
    name: 'snowflake_customer_address',
    what: 'snowflake: store_sales -> customer -> customer_address, plus a month',
    sql: `SELECT ca.ca_state, count(*) AS sales, sum(ss.ss_net_profit) AS profit
          FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk
          JOIN customer c ON ss.ss_customer_sk = c.c_customer_sk
          JOIN customer_address ca ON c.c_current_addr_sk = ca.ca_address_sk
          WHERE d.d_year = 2002 AND d.d_moy = 6 AND ca.ca_state IN ('AK', 'HI', 'NM')
          GROUP BY ca.ca_state`,
  },
  {
    name: 'two_facts_one_date_filter',
    what: 'two facts through one dimension: sales and returns per day of one month',
    sql: `SELECT d.d_date, s.sales, r.returned
          FROM date_dim d
          JOIN (SELECT ss_sold_date_sk AS day, count(*) AS sales FROM store_sales ss
                GROUP BY ss_sold_date_sk) s ON s.day = d.d_date_sk
          JOIN (SELECT sr_returned_date_sk AS day, sum(sr_return_amt) AS returned
                FROM store_returns sr GROUP BY sr_returned_date_sk) r ON r.day = d.d_date_sk
          WHERE d.d_year = 2001 AND d.d_moy = 8`,
  },
  {
    name: 'returns_with_their_sales',
    what: 'fact to fact: returns of one month joined with their sales (ticket, item)',
    sql: `SELECT count(*) AS returns, sum(sr.sr_return_amt) AS returned,
                 sum(ss.ss_sales_price * sr.sr_return_quantity) AS paid
          FROM store_returns sr JOIN date_dim d ON sr.sr_returned_date_sk = d.d_date_sk
          JOIN store_sales ss ON ss.ss_ticket_number = sr.sr_ticket_number
                             AND ss.ss_item_sk = sr.sr_item_sk
          WHERE d.d_year = 2000 AND d.d_moy = 2`,
  },
  {
    name: 'union_all_two_facts',
    what: 'UNION ALL of sales and returns joined to one month: each branch pruned on its own key',
    sql: `SELECT count(*) AS rows_kept, sum(q) AS quantity
          FROM (SELECT ss_sold_date_sk AS k, ss_quantity AS q FROM store_sales
                UNION ALL SELECT sr_returned_date_sk, sr_return_quantity FROM store_returns) x
          JOIN date_dim d ON x.k = d.d_date_sk WHERE d.d_year = 2001 AND d.d_moy = 7`,
  },
  {
    name: 'fact_in_subquery',
    what: 'the fact inside IN (subquery): days of one month that had a sale of 100 items',
    sql: `SELECT d.d_date FROM date_dim d WHERE d.d_year = 2000 AND d.d_moy = 2
            AND d.d_date_sk IN (SELECT ss_sold_date_sk FROM store_sales WHERE ss_quantity = 100)`,
  },
  {
    name: 'fact_in_not_exists',
    what: 'the fact inside NOT EXISTS: days of one month without a sale of 100 items',
    sql: `SELECT count(*) AS days FROM date_dim d WHERE d.d_year = 2000 AND d.d_moy = 2
            AND NOT EXISTS (SELECT 1 FROM store_sales ss WHERE ss.ss_sold_date_sk = d.d_date_sk
                            AND ss.ss_quantity = 100)`,
  },
  {
    name: 'fact_in_not_in',
    what: 'the fact inside NOT IN: days of one month without a sale of 100 items (NULL dates excluded)',
    sql: `SELECT count(*) AS days FROM date_dim d WHERE d.d_year = 2000 AND d.d_moy = 2
            AND d.d_date_sk NOT IN (SELECT ss_sold_date_sk FROM store_sales
                                    WHERE ss_quantity = 100 AND ss_sold_date_sk IS NOT NULL)`,
  },
  {
    name: 'returns_of_one_months_sales',
    what: 'two hops: returns of the sales of one month (date -> sales -> returns by ticket, item)',
    sql: `SELECT count(*) AS returns, sum(sr.sr_return_amt) AS returned
          FROM store_returns sr
          JOIN store_sales ss ON ss.ss_ticket_number = sr.sr_ticket_number
                             AND ss.ss_item_sk = sr.sr_item_sk
          JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk
          WHERE d.d_year = 2001 AND d.d_moy = 7`,
  },
  {
    name: 'key_computed_below',
    what: 'a partition key computed in a subquery (k + 1) joined to one month',
    sql: `SELECT count(*) AS sales, sum(x.q) AS quantity
          FROM (SELECT ss_sold_date_sk + 1 AS k, ss_quantity AS q FROM store_sales) x
          JOIN date_dim d ON x.k = d.d_date_sk + 1 WHERE d.d_year = 2001 AND d.d_moy = 7`,
  },
  {
    name: 'item_key_cast',
    what: 'non-partition key through a cast: CAST(ss_item_sk AS INTEGER) against Music items',
    sql: `SELECT count(*) AS sales, sum(ss.ss_net_profit) AS profit
          FROM store_sales ss JOIN (SELECT CAST(i_item_sk AS INTEGER) AS k FROM item
                                    WHERE i_category = 'Music' AND i_class = 'class 4') i
            ON CAST(ss.ss_item_sk AS INTEGER) = i.k`,
  },
  {
    name: 'item_category_class',
    what: 'non-partition key: items of one category and class (runtime filter target)',
    sql: `SELECT i.i_brand, count(*) AS sales, sum(ss.ss_net_profit) AS profit
          FROM store_sales ss JOIN item i ON ss.ss_item_sk = i.i_item_sk
          WHERE i.i_category = 'Jewelry' AND i.i_class = 'class 4' GROUP BY i.i_brand`,
  },
  {
    name: 'item_in_subquery',
    what: 'non-partition key by IN (subquery): expensive books',
    sql: `SELECT count(*) AS sales, sum(ss.ss_quantity) AS quantity FROM store_sales ss
          WHERE ss.ss_item_sk IN (SELECT i_item_sk FROM item
                                  WHERE i_category = 'Books' AND i_current_price > 95)`,
  },
  {
    name: 'customer_and_promotion',
    what: 'non-partition keys: customers born in 1970 and e-mail+TV promotions',
    sql: `SELECT c.c_preferred_cust_flag, count(*) AS sales, sum(ss.ss_sales_price) AS revenue
          FROM store_sales ss JOIN customer c ON ss.ss_customer_sk = c.c_customer_sk
          JOIN promotion p ON ss.ss_promo_sk = p.p_promo_sk
          WHERE c.c_birth_year = 1970 AND p.p_channel_email = 'Y' AND p.p_channel_tv = 'Y'
          GROUP BY c.c_preferred_cust_flag`,
  },
  {
    name: 'store_state_year',
    what: 'store state and a year, revenue per store',
    sql: `SELECT s.s_store_name, count(*) AS sales, sum(ss.ss_sales_price) AS revenue
          FROM store_sales ss JOIN store s ON ss.ss_store_sk = s.s_store_sk
          JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk
          WHERE s.s_state = 'TN' AND d.d_year = 1999 GROUP BY s.s_store_name`,
  },
  {
    name: 'filter_selects_nothing',
    what: 'a date filter selecting nothing',
    sql: `SELECT count(*) AS sales, sum(ss.ss_quantity) AS quantity
          FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk
          WHERE d.d_year = 1900`,
  },
  {
    name: 'filter_selects_everything',
    what: 'a date filter selecting every day',
    sql: `SELECT d.d_year, count(*) AS sales, sum(ss.ss_sales_price) AS revenue
          FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk
          WHERE d.d_year BETWEEN 1990 AND 2010 GROUP BY d.d_year`,
  },
  {
    name: 'scalar_subquery_last_day',
    what: 'scalar subquery: sales of the last day of June 2002',
    sql: `SELECT count(*) AS sales, sum(ss.ss_sales_price) AS revenue FROM store_sales ss
          WHERE ss.ss_sold_date_sk = (SELECT max(d_date_sk) FROM date_dim
                                      WHERE d_year = 2002 AND d_moy = 6)`,
  },
  {
    name: 'cross_join_thresholds',
    what: 'cross join with a one-row price threshold',
    sql: `SELECT count(*) AS sales FROM store_sales ss
          CROSS JOIN (SELECT max(i_current_price) * 0.99 AS threshold FROM item) t
          WHERE ss.ss_sales_price > t.threshold`,
  },
  // Full scans: nothing can be pruned, so these show raw execution speed (decoding,
  // expressions, aggregation, joins) apart from pruning.
  {
    name: 'full_sum',
    what: 'full scan: sum of one column of the partitioned fact',
    sql: `SELECT sum(ss_sales_price) AS revenue FROM store_sales`,
  },
  {
    name: 'full_group_store',
    what: 'full scan: group by the store key (12 stores at scale 1, 38 at scale 10)',
    sql: `SELECT ss_store_sk, count(*) AS sales, sum(ss_net_profit) AS profit FROM store_sales
          GROUP BY ss_store_sk`,
  },
  {
    name: 'full_group_customer',
    what: 'full scan: group by customer (many groups)',
    sql: `SELECT ss_customer_sk, count(*) AS sales, sum(ss_sales_price) AS revenue
          FROM store_sales GROUP BY ss_customer_sk`,
  },
  {
    name: 'full_join_item_category',
    what: 'full scan: join with item, group by category',
    sql: `SELECT i.i_category, count(*) AS sales, sum(ss.ss_sales_price) AS revenue
          FROM store_sales ss JOIN item i ON ss.ss_item_sk = i.i_item_sk GROUP BY i.i_category`,
  },
  {
    name: 'full_flat_sum2',
    what: 'full scan: two-column sum over the unpartitioned copy (8 files)',
    sql: `SELECT sum(ss_quantity) AS quantity, sum(ss_net_profit) AS profit FROM store_sales_flat`,
  },
  {
    name: 'full_group_modulo',
    what: 'full scan: group by an expression, ss_item_sk % 100',
    sql: `SELECT ss_item_sk % 100 AS bucket, count(*) AS sales, sum(ss_quantity) AS quantity
          FROM store_sales GROUP BY ss_item_sk % 100`,
  },
  {
    name: 'full_group_case',
    what: 'full scan: group by a CASE string',
    sql: `SELECT CASE WHEN ss_quantity > 50 THEN 'big' ELSE 'small' END AS size, count(*) AS sales,
                 sum(ss_sales_price) AS revenue
          FROM store_sales GROUP BY CASE WHEN ss_quantity > 50 THEN 'big' ELSE 'small' END`,
  },
  {
    name: 'full_join_brand_like',
    // The generator's brands are 'brand #0' to 'brand #499': TPC-DS's '%ought%' would match
    // none, and both engines would then skip the fact altogether.
    what: 'full scan: join with item filtered by i_brand LIKE (a substring in a fifth of the items)',
    sql: `SELECT count(*) AS sales, sum(ss.ss_sales_price) AS revenue
          FROM store_sales ss JOIN item i ON ss.ss_item_sk = i.i_item_sk
          WHERE i.i_brand LIKE '%#1%'`,
  },
];

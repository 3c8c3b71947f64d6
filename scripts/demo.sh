#!/usr/bin/env bash
# The demo `make demo` runs: a small TPC-DS-shaped star schema (generated once), and queries
# showing what dynamic partition pruning does: the answer, then partitions and bytes read with
# dynamic filtering on versus off.
set -euo pipefail
SHEARS="$(cd "$(dirname "${1:-build/release/shears}")" && pwd)/$(basename "${1:-build/release/shears}")"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DATA="$ROOT/build/demo-data"

if [ ! -d "$DATA/store_sales" ]; then
  echo "Generating the demo star schema (scale 0.05) into $DATA ..."
  rm -rf "$DATA"
  "$SHEARS" generate star --scale 0.05 --out "$DATA"
fi

# Prints the scan counters of the fact table from EXPLAIN ANALYZE, with dynamic filtering
# on and off.
compare() {
  local sql="$1"
  for mode in true false; do
    "$SHEARS" -c "SET dynamic_filtering = $mode; EXPLAIN ANALYZE $sql" | awk -v mode="$mode" '
      /^Total time/ { split($0, t, ","); time = t[1]; sub("Total time: ", "", time) }
      /TABLE_SCAN/ { fact = 0 }
      /partitions_total:/ { fact = 1; total = $2 }
      fact && /partitions_read:/ { parts = $2 }
      fact && /bytes_read:/ { bytes = $2 }
      END { printf "  dynamic filtering %-5s: store_sales partitions read %5s of %s, %8s bytes read, %s\n", (mode == "true" ? "on" : "off"), parts, total, bytes, time }'
  done
}

show() {
  printf '\n\033[1m== %s\033[0m\n%s\n' "$1" "$2"
  "$SHEARS" -c "$2"
  compare "$2"
}

cd "$DATA"
show "Flink's example: sales of the days of one year and month (date_dim filtered, store_sales partitioned by date key)" \
  "SELECT d_moy, count(*) AS sales, sum(ss_sales_price) AS revenue FROM 'store_sales' ss JOIN 'date_dim' d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_year = 2000 AND d.d_moy = 12 GROUP BY d_moy"

show "Scattered keys: every Sunday of 2001 (52 partitions far apart; ranges cannot capture them)" \
  "SELECT count(*) AS sales, sum(ss_net_profit) AS profit FROM 'store_sales' ss JOIN 'date_dim' d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_year = 2001 AND d.d_day_name = 'Sunday'"

show "IN (subquery) becomes a semi join and prunes the same way" \
  "SELECT count(*) AS sales, sum(ss_quantity) AS quantity FROM 'store_sales' WHERE ss_sold_date_sk IN (SELECT d_date_sk FROM 'date_dim' WHERE d_year = 1999 AND d_dom = 1)"

show "NOT EXISTS (anti join): partitions whose key is in the set hold only rows that are removed" \
  "SELECT count(*) AS sales, sum(ss_quantity) AS quantity FROM 'store_sales' ss WHERE NOT EXISTS (SELECT 1 FROM 'date_dim' d WHERE d.d_date_sk = ss.ss_sold_date_sk AND d.d_year <= 2001)"

show "NOT IN with the fact outside: an anti join pruning by the complement (NULL keys are read)" \
  "SELECT count(*) AS sales, sum(ss_quantity) AS quantity FROM 'store_sales' WHERE ss_sold_date_sk NOT IN (SELECT d_date_sk FROM 'date_dim' WHERE d_year <= 2001)"

show "LEFT JOIN whose WHERE rejects the NULL-extended rows: an inner join, pruned" \
  "SELECT count(*) AS sales, sum(ss_quantity) AS quantity FROM 'store_sales' ss LEFT JOIN 'date_dim' d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_year = 2000 AND d.d_moy = 12"

show "A filter selecting nothing: the fact table is not read at all" \
  "SELECT count(*) AS sales, sum(ss_quantity) AS quantity FROM 'store_sales' ss JOIN 'date_dim' d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_year = 1900"

# Runtime join filters: prints the rows of the fact scan that reach the join, on and off.
compare_rows() {
  local sql="$1"
  for mode in true false; do
    "$SHEARS" -c "SET dynamic_filtering = $mode; EXPLAIN ANALYZE $sql" | awk -v mode="$mode" '
      /^Total time/ { split($0, t, ","); time = t[1]; sub("Total time: ", "", time) }
      /TABLE_SCAN ss / { fact = 1; match($0, /\(rows: [0-9]+/); rows = substr($0, RSTART + 7, RLENGTH - 7) }
      /TABLE_SCAN/ && !/TABLE_SCAN ss / { fact = 0 }
      fact && /rows_scanned:/ { scanned = $2 }
      fact && /runtime_filter_[0-9]+: [a-z]/ { sub(/^ *runtime_filter_[0-9]+: /, ""); split($0, k, ","); kind = k[1] }
      END { printf "  dynamic filtering %-5s: store_sales rows read %7s, into the join %7s%s, %s\n", (mode == "true" ? "on" : "off"), scanned, rows, (kind != "" ? " (runtime filter: " kind ")" : ""), time }'
  done
}

printf '\n\033[1m== %s\033[0m\n%s\n' "Runtime join filter on a non-partition key: sales of one item category (rows are dropped in the scan, before the join)" \
  "SELECT i_category, count(*) AS sales, sum(ss_sales_price) AS revenue FROM 'store_sales' ss JOIN 'item' i ON ss.ss_item_sk = i.i_item_sk WHERE i.i_category = 'Music' GROUP BY i_category"
"$SHEARS" -c "SELECT i_category, count(*) AS sales, sum(ss_sales_price) AS revenue FROM 'store_sales' ss JOIN 'item' i ON ss.ss_item_sk = i.i_item_sk WHERE i.i_category = 'Music' GROUP BY i_category"
compare_rows "SELECT i_category, count(*) AS sales, sum(ss_sales_price) AS revenue FROM 'store_sales' ss JOIN 'item' i ON ss.ss_item_sk = i.i_item_sk WHERE i.i_category = 'Music' GROUP BY i_category"

printf '\nEXPLAIN shows the plan: the join builds the partition filter from its build side, the fact scan tests its partitions with it.\n'
"$SHEARS" -c "EXPLAIN SELECT count(*) FROM 'store_sales' ss JOIN 'date_dim' d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_year = 2000 AND d.d_moy = 12" | sed -n '/Physical plan/,$p'

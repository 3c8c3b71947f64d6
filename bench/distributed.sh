#!/usr/bin/env bash
# Times star queries with shears alone and under mpirun -np 1, 2, 4 (docs/distributed.md):
#   bench/distributed.sh DATA_DIR [SHEARS] [REPS]
# ONLY="name ..." runs only those queries. With node and DuckDB's node module at hand
# (npm install), each query also runs on DuckDB alone over the same files, in the same run
# ("duckdb": its process time less that of `SELECT 1`, node's and DuckDB's start-up).
# Prints a Markdown table: the median query time (EXPLAIN ANALYZE's total on rank 0) and wall
# time of the whole process (mpirun's start-up included), the bytes exchanged and the files
# (and bytes) each rank was assigned, from the last run.
set -euo pipefail
DATA="$1"
SHEARS="$(cd "$(dirname "${2:-build/release/shears}")" && pwd)/$(basename "${2:-build/release/shears}")"
REPS="${3:-3}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
HERE="$(cd "$(dirname "$0")" && pwd)"
cd "$DATA"

declare -a NAMES SQLS
# A query is run as EXPLAIN ANALYZE unless it says so itself (after a SET).
add() {
  NAMES+=("$1")
  case "$2" in SET*) SQLS+=("$2") ;; *) SQLS+=("EXPLAIN ANALYZE $2") ;; esac
}
add full_scan_group "SELECT ss_store_sk, count(*) AS n, sum(ss_net_profit) AS profit FROM 'store_sales' GROUP BY ss_store_sk"
add range_month "SELECT d_moy, count(*) AS sales, sum(ss_sales_price) AS revenue FROM 'store_sales' ss JOIN 'date_dim' d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_year = 2000 AND d.d_moy = 12 GROUP BY d_moy"
add scattered_sundays "SELECT count(*) AS sales, sum(ss_net_profit) AS profit FROM 'store_sales' ss JOIN 'date_dim' d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_year = 2001 AND d.d_day_name = 'Sunday'"
add two_dims_date_item "SELECT i.i_brand, count(*) AS sales, sum(ss.ss_sales_price) AS revenue FROM 'store_sales' ss JOIN 'date_dim' d ON ss.ss_sold_date_sk = d.d_date_sk JOIN 'item' i ON ss.ss_item_sk = i.i_item_sk WHERE d.d_year = 2000 AND i.i_category = 'Music' GROUP BY i.i_brand"
add group_by_customer "SELECT ss_customer_sk, count(*) AS n, sum(ss_net_profit) AS profit FROM 'store_sales' GROUP BY ss_customer_sk"
add group_by_customer_at_rank0 "SET distributed.shuffle_groups = 1000000000; EXPLAIN ANALYZE SELECT ss_customer_sk, count(*) AS n, sum(ss_net_profit) AS profit FROM 'store_sales' GROUP BY ss_customer_sk"
add customer_top "SELECT ss_ticket_number, ss_item_sk, c_birth_year, ss_net_profit FROM 'store_sales' ss JOIN 'customer' c ON ss.ss_customer_sk = c.c_customer_sk WHERE c.c_birth_year = 1950 ORDER BY ss_net_profit DESC, ss_ticket_number, ss_item_sk LIMIT 10"
add customer_top_shuffle "SET distributed.join_strategy = 'shuffle'; EXPLAIN ANALYZE SELECT ss_ticket_number, ss_item_sk, c_birth_year, ss_net_profit FROM 'store_sales' ss JOIN 'customer' c ON ss.ss_customer_sk = c.c_customer_sk WHERE c.c_birth_year = 1950 ORDER BY ss_net_profit DESC, ss_ticket_number, ss_item_sk LIMIT 10"
add two_dims_shuffle "SET distributed.join_strategy = 'shuffle'; EXPLAIN ANALYZE SELECT i.i_brand, count(*) AS sales, sum(ss.ss_sales_price) AS revenue FROM 'store_sales' ss JOIN 'date_dim' d ON ss.ss_sold_date_sk = d.d_date_sk JOIN 'item' i ON ss.ss_item_sk = i.i_item_sk WHERE d.d_year = 2000 AND i.i_category = 'Music' GROUP BY i.i_brand"
add customer_years_shuffle "SET distributed.join_strategy = 'shuffle'; EXPLAIN ANALYZE SELECT c_birth_year, count(*) AS sales, sum(ss_net_profit) AS profit FROM 'store_sales' ss JOIN 'customer' c ON ss.ss_customer_sk = c.c_customer_sk WHERE ss.ss_quantity > 90 GROUP BY c_birth_year"
add avg_by_store "SELECT ss_store_sk, avg(ss_quantity) AS quantity, avg(ss_net_profit) AS profit FROM 'store_sales' GROUP BY ss_store_sk"
add distinct_customers_by_month "SELECT d_moy, count(DISTINCT ss_customer_sk) AS customers FROM 'store_sales' ss JOIN 'date_dim' d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_year = 2001 GROUP BY d_moy"
add top_n "SELECT ss_ticket_number, ss_item_sk, ss_net_profit FROM 'store_sales' ORDER BY ss_net_profit DESC, ss_ticket_number, ss_item_sk LIMIT 10"

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# DuckDB: views over the same files; the query without shears' SET / EXPLAIN ANALYZE and with
# the tables' names unquoted.
DUCK="$HERE/duckdb_fresh.mjs"
DUCK_WORK="$(mktemp -d)"
trap 'rm -rf "$DUCK_WORK"' EXIT
duck_views=""
TABLES=(store_sales store_returns date_dim item customer store)
for table in "${TABLES[@]}"; do
  # As the star suite's views (bench/queries.mjs): partitioned facts with hive_partitioning.
  if compgen -G "$table/*/*.parquet" >/dev/null; then
    files="'$PWD/$table/*/*.parquet', hive_partitioning = true"
  else
    files="'$PWD/$table/*.parquet'"
  fi
  duck_views+="${duck_views:+, }\"CREATE VIEW $table AS SELECT * FROM read_parquet($files)\""
done
duck_ms() {  # duck_ms SQL: DuckDB's wall ms for SQL (with node's start-up)
  local sql="$1" start
  printf '{"setup": [%s], "query": %s}' "$duck_views" "$(node -e 'process.stdout.write(JSON.stringify(process.argv[1]))' "$sql")" \
    >"$DUCK_WORK/script.json"
  start=$(date +%s%N)
  node "$DUCK" "$DUCK_WORK/script.json" >/dev/null
  echo $((($(date +%s%N) - start) / 1000000))
}
have_duck=0
if command -v node >/dev/null && [ -f "$DUCK" ] && duck_ms "SELECT 1" >/dev/null 2>&1; then have_duck=1; fi

echo "| query | ranks | query ms (median) | wall ms (median) | bytes exchanged | files (MB) per rank |"
echo "|---|---|---|---|---|---|"
for i in "${!NAMES[@]}"; do
  if [ -n "${ONLY:-}" ] && ! grep -qw -- "${NAMES[$i]}" <<<"$ONLY"; then continue; fi
  if [ "$have_duck" = 1 ]; then
    sql="${SQLS[$i]#*EXPLAIN ANALYZE }"
    for table in "${TABLES[@]}"; do sql="${sql//\'$table\'/$table}"; done
    duck=() base=()
    for ((r = 0; r < REPS; r++)); do
      base+=("$(duck_ms "SELECT 1")")
      duck+=("$(duck_ms "$sql")")
    done
    printf "| %s | duckdb | %s | - | - | - |\n" "${NAMES[$i]}" \
      $(($(printf '%s\n' "${duck[@]}" | median) - $(printf '%s\n' "${base[@]}" | median)))
  fi
  for np in 0 1 2 4; do
    times=() walls=()
    for ((r = 0; r < REPS; r++)); do
      start=$(date +%s%N)
      if [ "$np" = 0 ]; then
        out="$("$SHEARS" -c "${SQLS[$i]}")"
      else
        out="$(timeout 600 mpirun --oversubscribe -np "$np" "$SHEARS" --distributed -c "${SQLS[$i]}" </dev/null)"
      fi
      walls+=($((($(date +%s%N) - start) / 1000000)))
      times+=("$(grep -m1 -o 'Total time: [0-9.]*' <<<"$out" | awk '{ print $3 }')")
    done
    bytes="$(grep -o 'bytes exchanged: [0-9]*' <<<"$out" | awk '{ print $3 }' || true)"
    files="$(grep -oE 'rank [0-9]+: [0-9]+ rows, [0-9]+ files \([0-9]+ bytes\)' <<<"$out" |
      awk '{ gsub(/\(/, "", $7); printf "%s%s (%.0f)", (NR > 1 ? ", " : ""), $5, $7 / 1e6 }' || true)"
    label=$([ "$np" = 0 ] && echo "alone" || echo "$np")
    printf "| %s | %s | %s | %s | %s | %s |\n" "${NAMES[$i]}" "$label" \
      "$(printf '%s\n' "${times[@]}" | median)" "$(printf '%s\n' "${walls[@]}" | median)" \
      "${bytes:--}" "${files:--}"
  done
done

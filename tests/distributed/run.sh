#!/usr/bin/env bash
# shears --distributed under mpirun gives what a single shears gives (ctest: distributed).
#   tests/distributed/run.sh SHEARS DATA_DIR
# Generates a small star schema into DATA_DIR when missing, then runs each query of
# queries.sql (one a line) with dynamic filtering on and off, alone and under mpirun -np 1, 2
# and 3 (and with every GROUP BY shuffled, and every join shuffled), comparing the CSV output (sorted, unless the query
# orders its rows); then the
# statements that run once (a catalog on disk, COPY), a planning error and a failure at run
# time.
set -euo pipefail
SHEARS="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
DATA="$2"
HERE="$(cd "$(dirname "$0")" && pwd)"
MPIRUN=(timeout 300 mpirun --oversubscribe)
# shellcheck source=tests/distributed/common.sh
source "$HERE/common.sh"

# Rows in a stable order: as given under ORDER BY, else sorted (the header stays first).
normalize() {
  local sql="$1" file="$2"
  if grep -qi "order by" <<<"$sql" && ! grep -qi "over (" <<<"$sql"; then
    cat "$file"
  else
    { head -n 1 "$file"; tail -n +2 "$file" | LC_ALL=C sort; }
  fi
}

# All queries in one run per setting (mpirun starts in a second or two), each after a marker
# row that splits the output into one file per query.
script="$WORK/queries.sql"
: >"$script"
queries=()
while IFS= read -r sql; do
  if [ -z "$sql" ] || [ "${sql:0:2}" = "--" ]; then continue; fi
  printf "SELECT 'query %d' AS query_marker;\n%s;\n" "${#queries[@]}" "$sql" >>"$script"
  queries+=("$sql")
done <"$HERE/queries.sql"

# Splits run output $1 into $2.N, one file per query.
split_output() {
  awk -v prefix="$2" '
    /^query_marker$/ { marker = 1; next }
    marker && /^query [0-9]+$/ { out = prefix "." $2; marker = 0; printf "" > out; next }
    out { print > out }' "$1"
}

# Dynamic filtering on and off; every GROUP BY shuffled by key; every join that can be a
# shuffle join shuffled, dynamic filtering on and off (alone, the distributed settings do
# nothing).
for setting in "dynamic_filtering = true" "dynamic_filtering = false" "distributed.shuffle_groups = 0" \
  "distributed.join_strategy = 'shuffle'" "distributed.join_strategy = 'shuffle'; SET dynamic_filtering = false"; do
  { echo "SET $setting;"; cat "$script"; } >"$WORK/run.sql"
  "$SHEARS" -f "$WORK/run.sql" --format csv >"$WORK/alone" 2>&1 || fail "alone: $(tail -n 3 "$WORK/alone")"
  split_output "$WORK/alone" "$WORK/alone"
  for np in 1 2 3; do
    "${MPIRUN[@]}" -np "$np" "$SHEARS" --distributed -f "$WORK/run.sql" --format csv \
      >"$WORK/ranks" 2>&1 </dev/null || fail "-np $np: $(tail -n 3 "$WORK/ranks")"
    split_output "$WORK/ranks" "$WORK/ranks"
    for i in "${!queries[@]}"; do
      sql="${queries[$i]}"
      normalize "$sql" "$WORK/alone.$i" >"$WORK/expected"
      normalize "$sql" "$WORK/ranks.$i" >"$WORK/got" 2>/dev/null || : >"$WORK/got"
      if [ ! -s "$WORK/expected" ] || ! cmp -s "$WORK/expected" "$WORK/got"; then
        fail "-np $np, $setting: $sql"
        diff "$WORK/expected" "$WORK/got" | head -n 10 || true
      fi
    done
  done
done
echo "${#queries[@]} queries compared"

# The plan has a gather and a distributed scan; EXPLAIN ANALYZE reports every rank.
explain="$("${MPIRUN[@]}" -np 2 "$SHEARS" --distributed -c \
  "EXPLAIN ANALYZE SELECT count(*) FROM 'store_sales' ss JOIN 'date_dim' d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_year = 2000" 2>&1 </dev/null)"
for expected in "GATHER to rank 0 from 2 ranks" "rank 0:" "rank 1:" "bytes exchanged:" \
  "distributed: files assigned by rank 0" "files enumerated on rank 0: 366"; do
  grep -qF "$expected" <<<"$explain" || fail "EXPLAIN ANALYZE lacks '$expected'"
done
# Every file that survived pruning went to exactly one rank.
assigned="$(grep -o '[0-9]* files ([0-9]* bytes) assigned' <<<"$explain" | awk '{ n += $1 } END { print n }')"
[ "$assigned" = 366 ] || fail "ranks were assigned $assigned files, not the 366 kept"

# Joins as the planner chose them, or shuffled: EXPLAIN says which, EXPLAIN ANALYZE counts the
# shuffle's rows and bytes.
star="SELECT count(*) FROM 'store_sales' ss JOIN 'date_dim' d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_year = 2000"
explain="$("${MPIRUN[@]}" -np 2 "$SHEARS" --distributed -c "EXPLAIN $star" 2>&1 </dev/null)"
grep -qF "BROADCAST (every rank builds all of it: estimated" <<<"$explain" || fail "EXPLAIN shows no BROADCAST: $explain"
explain="$("${MPIRUN[@]}" -np 3 "$SHEARS" --distributed -c \
  "SET distributed.join_strategy = 'shuffle'; EXPLAIN ANALYZE $star" 2>&1 </dev/null)"
# Both sides are plain scans: both are split and shuffled. The join's partition filter, built
# from each rank's share of the dates, is merged across the ranks: all 366 days of 2000.
for expected in "SHUFFLE the probe side of a shuffle join by hash of ss_sold_date_sk over 3 ranks" \
  "SHUFFLE the build side of a shuffle join by hash of d_date_sk over 3 ranks" \
  "partition_filter_1: exact_set+range, 366 distinct keys from 366 rows" \
  "filter_merge: 1 partial filters merged across 3 ranks" "rows kept," "shuffle time:"; do
  grep -qF "$expected" <<<"$explain" || fail "EXPLAIN ANALYZE of a shuffle join lacks '$expected'"
done
# A build side that is not a plain scan is computed whole on every rank, which keeps its share.
explain="$("${MPIRUN[@]}" -np 3 "$SHEARS" --distributed -c "SET distributed.join_strategy = 'shuffle';
  EXPLAIN SELECT count(*) FROM 'store_sales' ss JOIN (SELECT d_date_sk FROM 'date_dim' WHERE d_year = 2000
  GROUP BY d_date_sk) d ON ss.ss_sold_date_sk = d.d_date_sk" 2>&1 </dev/null)"
grep -qF "HASH_SELECT the build side of a shuffle join: the rows whose d_date_sk hash to this rank of 3" <<<"$explain" ||
  fail "EXPLAIN of a shuffle join with a grouped build side lacks HASH_SELECT: $explain"
# A shuffle join's runtime filter, built from each rank's share of the build side, is merged:
# every rank's filter holds all the build keys, as alone.
music="SELECT count(*) FROM 'store_sales' ss JOIN 'item' i ON ss.ss_item_sk = i.i_item_sk WHERE i.i_category = 'Music'"
keys_alone="$("$SHEARS" -c "EXPLAIN ANALYZE $music" | grep -o 'runtime_filter_1: [a-z_+]*, [0-9]* distinct keys' | head -n 1)"
explain="$("${MPIRUN[@]}" -np 3 "$SHEARS" --distributed -c \
  "SET distributed.join_strategy = 'shuffle'; EXPLAIN ANALYZE $music" 2>&1 </dev/null)"
grep -qF "filter_merge: 1 partial filters merged across 3 ranks" <<<"$explain" || fail "no filter merge: $explain"
[ -n "$keys_alone" ] && grep -qF "$keys_alone" <<<"$explain" || fail "the merged filter is not '$keys_alone': $explain"
# Past the exact set's size, a bloom filter: the ranks' bloom filters are OR-ed by an
# all-reduce into one of the size shears alone builds (bit for bit: runtime_filter_encoding_test).
bloom="SET runtime_filter.max_exact_keys = 10; EXPLAIN ANALYZE $music"
filter_alone="$("$SHEARS" -c "$bloom" | grep -o 'runtime_filter_1: bloom+range, [0-9]* distinct keys from [0-9]* rows, [0-9]* bytes' | head -n 1)"
explain="$("${MPIRUN[@]}" -np 3 "$SHEARS" --distributed -c \
  "SET distributed.join_strategy = 'shuffle'; $bloom" 2>&1 </dev/null)"
grep -qE "filter_merge: 1 partial filters merged \(256 bytes of bloom filter OR-ed by MPI_Allreduce\) across 3 ranks" <<<"$explain" ||
  fail "no bloom filter OR-ed: $explain"
[ -n "$filter_alone" ] && grep -qF "$filter_alone" <<<"$explain" || fail "the merged bloom filter is not '$filter_alone': $explain"
# A MARK join (IN in a select list) shuffled: every rank keeps the build rows with a NULL key.
explain="$("${MPIRUN[@]}" -np 2 "$SHEARS" --distributed -c "SET distributed.join_strategy = 'shuffle';
  EXPLAIN SELECT ss_customer_sk IN (SELECT c_customer_sk FROM 'customer') AS known FROM 'store_sales'" 2>&1 </dev/null)"
grep -qF "those with a NULL key and one more (for the MARK join)" <<<"$explain" || fail "a MARK join is not shuffled: $explain"
# Past the filter's key limit across ranks, no part is gathered: every rank disables it.
explain="$("${MPIRUN[@]}" -np 2 "$SHEARS" --distributed -c "SET distributed.join_strategy = 'shuffle';
  SET runtime_filter.max_build_size = 100; EXPLAIN ANALYZE $music AND i.i_item_sk > 5" 2>&1 </dev/null)"
grep -qF "not applied: the build side has up to 180 distinct keys across 2 ranks, more than 100" <<<"$explain" &&
  grep -qF "filter_merge: 0 partial filters merged, 1 past the key limit (not gathered)" <<<"$explain" ||
  fail "a filter past its key limit across ranks is not disabled: $explain"

# avg and DISTINCT aggregates are split: sums and counts, distinct (group, argument) pairs.
explain="$("${MPIRUN[@]}" -np 2 "$SHEARS" --distributed -c "EXPLAIN SELECT ss_store_sk, avg(ss_quantity) AS q FROM 'store_sales' GROUP BY 1;
  EXPLAIN SELECT ss_store_sk, count(DISTINCT ss_item_sk) AS n, sum(DISTINCT ss_item_sk) AS s FROM 'store_sales' GROUP BY 1" 2>&1 </dev/null)"
for expected in "avg_of_partials(#1, #2)" "HASH_GROUP_BY (groups: ss_store_sk, sum(ss_quantity), count(ss_quantity))" \
  "count(DISTINCT #1), sum(DISTINCT #1)" "HASH_GROUP_BY (groups: ss_store_sk, ss_item_sk)"; do
  grep -qF "$expected" <<<"$explain" || fail "a split aggregate lacks '$expected': $explain"
done
# Eager aggregation's partial aggregate below a join: the join (and its runtime filter) runs
# on every rank, below the gather.
explain="$("${MPIRUN[@]}" -np 2 "$SHEARS" --distributed -c "EXPLAIN SELECT i_category, sum(ss_quantity) AS q FROM 'store_sales' ss
  JOIN 'item' i ON ss.ss_item_sk = i.i_item_sk WHERE i_category = 'Music' GROUP BY i_category" 2>&1 </dev/null)"
sed -n '/GATHER/,$p' <<<"$explain" | grep -q "HASH_JOIN" || fail "eager aggregation's join is above the gather: $explain"
# A shuffle join's other side, a scan, is a second distributed scan, shuffled by its keys.
explain="$("${MPIRUN[@]}" -np 2 "$SHEARS" --distributed -c "SET distributed.join_strategy = 'shuffle';
  EXPLAIN SELECT count(*) FROM 'store_sales' ss JOIN 'customer' c ON ss.ss_customer_sk = c.c_customer_sk WHERE c.c_birth_year > 1950" 2>&1 </dev/null)"
grep -qF "SHUFFLE the build side of a shuffle join by hash of c_customer_sk over 2 ranks" <<<"$explain" &&
  [ "$(grep -c "distributed: files assigned by rank 0" <<<"$explain")" = 2 ] ||
  fail "a shuffle join's scanned build side is not split: $explain"

# By default a build side is shuffled when estimated at distributed.shuffle_join_rows or more
# and at least the probe side's rows over the ranks; a RIGHT join always (it cannot broadcast).
few="SELECT count(*) FROM 'store_sales' ss JOIN 'item' i ON ss.ss_item_sk = i.i_item_sk WHERE ss.ss_quantity = 7 AND ss.ss_store_sk = 2"
for rows in 100 2000; do
  explain="$("${MPIRUN[@]}" -np 2 "$SHEARS" --distributed -c \
    "SET distributed.shuffle_join_rows = $rows; EXPLAIN $few" 2>&1 </dev/null)"
  expected=$([ "$rows" = 100 ] && echo "SHUFFLE the probe side of a shuffle join" || echo "BROADCAST")
  grep -qF "$expected" <<<"$explain" || fail "shuffle_join_rows $rows: no '$expected': $explain"
done
explain="$("${MPIRUN[@]}" -np 2 "$SHEARS" --distributed -c \
  "EXPLAIN SELECT count(*) FROM 'store_sales' ss RIGHT JOIN 'date_dim' d ON ss.ss_sold_date_sk = d.d_date_sk" 2>&1 </dev/null)"
grep -qF "SHUFFLE the probe side of a shuffle join" <<<"$explain" || fail "a RIGHT join is not shuffled: $explain"
"$SHEARS" -c "SET distributed.join_strategy = 'sideways'" >"$WORK/err" 2>&1 && fail "a bad join strategy is accepted"
grep -qF "expects auto, broadcast or shuffle" "$WORK/err" || fail "a bad join strategy: $(cat "$WORK/err")"

# A catalog on disk: rank 0 changes it, every rank sees the view.
"${MPIRUN[@]}" -np 2 "$SHEARS" --distributed "$WORK/db" --format csv -c \
  "CREATE VIEW big AS SELECT * FROM '$DATA/store_sales' WHERE ss_quantity > 50; SELECT count(*) AS n FROM big" \
  >"$WORK/view" 2>&1 </dev/null || fail "CREATE VIEW in a database directory: $(cat "$WORK/view")"
"$SHEARS" "$WORK/db" --format csv -c "SELECT count(*) AS n FROM big" >"$WORK/view_alone"
tail -n 2 "$WORK/view" | cmp -s - "$WORK/view_alone" || fail "the view's rows differ"
# Without a database directory each rank writes its tables into a temporary directory of its
# own, their files split differently: such a scan is not split over the ranks (each runs the
# whole query, rank 0 prints), so the answers are those of shears alone.
zips="CREATE TABLE zips AS SELECT x AS id, lpad(CAST(x % 1000 AS VARCHAR), 5, '0') || '-' || CAST(x AS VARCHAR) AS zip FROM range(20000) t(x);
  SELECT count(*) AS n, sum(id) AS s FROM zips WHERE substring(zip, 1, 5) NOT IN ('00001', '00999', 'x');"
"$SHEARS" --format csv -c "$zips EXPLAIN SELECT count(*) FROM zips" >"$WORK/zips_alone" 2>&1
"${MPIRUN[@]}" -np 2 "$SHEARS" --distributed --format csv -c "$zips EXPLAIN SELECT count(*) FROM zips" \
  >"$WORK/zips" 2>&1 </dev/null || fail "an in-memory table under mpirun: $(tail -n 3 "$WORK/zips")"
# (After the CREATE's row: how many files it wrote depends on its threads.)
grep -qF "19960,199590000" "$WORK/zips_alone" && cmp -s <(tail -n +3 "$WORK/zips_alone") <(tail -n +3 "$WORK/zips") ||
  fail "an in-memory table's scan is split: $(diff "$WORK/zips_alone" "$WORK/zips" | head -n 6)"
# COPY writes its file once.
"${MPIRUN[@]}" -np 2 "$SHEARS" --distributed -c \
  "COPY (SELECT ss_item_sk, count(*) AS n FROM 'store_sales' GROUP BY ss_item_sk) TO '$WORK/out.parquet'" \
  >/dev/null 2>&1 </dev/null || fail "COPY under mpirun"
copied="$("$SHEARS" --format csv -c "SELECT sum(n) FROM '$WORK/out.parquet'" | tail -n 1)"
total="$("$SHEARS" --format csv -c "SELECT count(*) FROM 'store_sales'" | tail -n 1)"
[ "$copied" = "$total" ] || fail "COPY wrote $copied rows' counts, not $total"

# A planning error: reported once, as alone, exit code 1.
set +e
"${MPIRUN[@]}" -np 2 "$SHEARS" --distributed -c "SELECT nope FROM 'store_sales'" >"$WORK/err" 2>&1 </dev/null
code=$?
set -e
[ "$code" = 1 ] || fail "a binder error exits with $code"
[ "$(grep -c 'Binder Error' "$WORK/err")" = 1 ] || fail "a binder error is printed $(grep -c 'Binder Error' "$WORK/err") times"
# A failure while running: an error naming the rank, a non-zero exit, no hang.
set +e
"${MPIRUN[@]}" -np 2 "$SHEARS" --distributed -c \
  "SELECT sum(CAST(CAST(ss_quantity AS VARCHAR) || 'x' AS INTEGER)) FROM 'store_sales'" >"$WORK/err" 2>&1 </dev/null
code=$?
set -e
[ "$code" != 0 ] && [ "$code" != 124 ] || fail "a failing query exits with $code"
grep -qE "^rank [0-9]+: .*Error" "$WORK/err" || fail "a failing query does not name its rank: $(head -n 3 "$WORK/err")"
# The same while the other rank waits in a shuffle join's exchange.
set +e
"${MPIRUN[@]}" -np 2 "$SHEARS" --distributed -c "SET distributed.join_strategy = 'shuffle';
  SELECT count(*) FROM 'store_sales' ss JOIN 'item' i ON ss.ss_item_sk = i.i_item_sk
  WHERE CAST(CAST(ss_quantity AS VARCHAR) || 'x' AS INTEGER) > 0" >"$WORK/err" 2>&1 </dev/null
code=$?
set -e
[ "$code" != 0 ] && [ "$code" != 124 ] || fail "a query failing before a shuffle exits with $code"
grep -qE "^rank [0-9]+: .*Error" "$WORK/err" || fail "a query failing before a shuffle does not name its rank: $(head -n 3 "$WORK/err")"
# A rank killed mid-run: mpirun ends every rank and names the dead one; nothing hangs.
# Joins shuffled, so the kill may land in an exchange.
{ echo "SET distributed.join_strategy = 'shuffle';"; for ((i = 0; i < 30; i++)); do cat "$script"; done; } >"$WORK/long.sql"
set +e
timeout 300 mpirun --oversubscribe -np 2 "$SHEARS" --distributed -f "$WORK/long.sql" --format csv \
  >"$WORK/killed" 2>&1 </dev/null &
launcher=$!
# Both ranks started (waited for: a loaded machine may take seconds), then 2 s into the run.
victim=""
w=0
while [ -z "$victim" ] && [ "$w" -lt 200 ]; do
  w=$((w + 1))
  sleep 0.2
  runner="$(pgrep -P "$launcher" -x mpirun)"
  [ -n "$runner" ] && victim="$(pgrep -P "$runner" | sed -n 2p)"
done
sleep 2
[ -n "$victim" ] && kill -9 "$victim"
wait "$launcher"
code=$?
set -e
if [ -z "$victim" ]; then
  fail "no rank to kill (mpirun started no second rank within 40 s)"
else
  [ "$code" != 0 ] && [ "$code" != 124 ] || fail "a killed rank: mpirun exits with $code"
  grep -qE "rank [0-9]+ .*exited on signal 9" "$WORK/killed" || fail "a killed rank is not named: $(grep -v '^$' "$WORK/killed" | tail -n 3)"
fi
# Without mpirun, --distributed is one rank: a plain shears.
"$SHEARS" --distributed -c "SELECT count(*) FROM 'store_sales'" --format csv >"$WORK/single" 2>&1 ||
  fail "--distributed outside mpirun: $(cat "$WORK/single")"

if [ "$failures" -gt 0 ]; then
  echo "$failures failures"
  exit 1
fi
echo "distributed: all passed"

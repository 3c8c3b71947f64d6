#!/usr/bin/env bash
# The DuckDB differential corpus (tests/differential/corpus) under mpirun gives what shears
# alone gives (ctest: distributed_corpus).
#   tests/distributed/corpus.sh SHEARS DATA_DIR [NP...]
# DATA_DIR: the difftests' data (difftest.mjs prepare). Each corpus query runs alone first; the
# ones shears answers alone then run in one script, alone and under mpirun: with dynamic
# filtering on (joins broadcast or shuffled as the planner chooses) on 2 ranks, then with every
# join that can be shuffled shuffled, dynamic filtering on (3 ranks) and off (2 ranks); with
# NP given, each of those on -np NP instead. Each query's rows must be the same multiset.
set -euo pipefail
SHEARS="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
DATA="$(cd "$2" && pwd)"
shift 2
RANKS=("$@")
HERE="$(cd "$(dirname "$0")" && pwd)"
CORPUS="$HERE/../differential/corpus"
TESTDATA="$(cd "$HERE/../data" && pwd)"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
WORK="$(mktemp -d)"
[ -n "${KEEP:-}" ] && echo "work: $WORK" || trap 'rm -rf "$WORK"' EXIT

# The tables, as the difftests create them.
setup="$WORK/setup.sql"
: >"$setup"
for table in "$DATA"/*/; do
  name="$(basename "$table")"
  echo "CREATE EXTERNAL TABLE $name STORED AS PARQUET LOCATION '$DATA/$name';" >>"$setup"
done

# One query a file ($WORK/q.N): statements end with ';' at the end of a line.
awk -v out="$WORK/q" -v testdata="$TESTDATA" '
  BEGIN { n = 0 }
  !started && /^[ \t]*--/ { next }
  !started && /^[ \t]*$/ { next }
  { started = 1; gsub(/\$\{TESTDATA\}/, testdata); text = text $0 "\n" }
  /;[ \t]*$/ { printf "%s", text > (out "." n); close(out "." n); n++; text = ""; started = 0 }
' "$CORPUS"/*.sql

# The queries shears answers alone (the others are the difftests' business).
script="$WORK/script.sql"
: >"$script"
kept=()
for file in "$WORK"/q.*; do
  i="${file##*.}"
  # An unseeded USING SAMPLE draws its seed per process, so the ranks plan it differently and
  # refuse it (a known limit, docs/distributed.md); seeded samples are compared.
  if grep -qi 'using sample' "$file" && ! grep -qiE 'repeatable|using sample[^;]*\(' "$file"; then
    continue
  fi
  if "$SHEARS" -f <(cat "$setup" "$file") --format csv >/dev/null 2>&1; then
    printf "SELECT 'query %d' AS query_marker;\n" "$i" >>"$script"
    cat "$file" >>"$script"
    kept+=("$i")
  fi
done

split_output() {
  awk -v prefix="$2" '
    /^query_marker$/ { marker = 1; next }
    marker && /^query [0-9]+$/ { out = prefix "." $2; marker = 0; printf "" > out; next }
    out { print > out }' "$1"
}

# The same rows, doubles within a relative 1e-9 (sums of doubles depend on the order rows
# arrive in, which differs between ranks and threads), as the difftests compare.
same_rows() {
  [ "$(wc -l <"$1")" = "$(wc -l <"$2")" ] || return 1
  paste <(LC_ALL=C sort "$1") <(LC_ALL=C sort "$2") | awk -F '\t' '
    function number(x) { return x ~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ }
    $1 == $2 { next }
    {
      n = split($1, a, ","); m = split($2, b, ",")
      if (n != m) { bad = 1; next }
      for (i = 1; i <= n; i++) {
        if (a[i] == b[i]) continue
        if (!number(a[i]) || !number(b[i]) || a[i] !~ /[.eE]/) { bad = 1; continue }
        d = a[i] - b[i]; if (d < 0) d = -d
        scale = a[i] < 0 ? -a[i] : a[i]; if (scale < 1) scale = 1
        if (d > 1e-9 * scale) bad = 1
      }
    }
    END { exit bad }'
}

failures=0
for run in "2 true auto" "3 true shuffle" "2 false shuffle"; do
  read -r default_np filtering strategy <<<"$run"
  { echo "SET dynamic_filtering = $filtering;"; cat "$setup" "$script"; } >"$WORK/run.sql"
  # The join strategy changes nothing alone: one run alone per filtering setting.
  if [ ! -f "$WORK/alone-$filtering" ]; then
    "$SHEARS" -f "$WORK/run.sql" --format csv >"$WORK/alone-$filtering" 2>&1 || {
      echo "FAIL: alone: $(tail -n 3 "$WORK/alone-$filtering")"
      failures=$((failures + 1))
    }
    split_output "$WORK/alone-$filtering" "$WORK/alone-$filtering"
  fi
  { echo "SET distributed.join_strategy = '$strategy';"; cat "$WORK/run.sql"; } >"$WORK/ranks.sql"
  for np in "${RANKS[@]:-$default_np}"; do
    timeout 900 mpirun --oversubscribe -np "$np" "$SHEARS" --distributed -f "$WORK/ranks.sql" \
      --format csv >"$WORK/ranks" 2>&1 </dev/null || {
      echo "FAIL: -np $np, dynamic_filtering $filtering, joins $strategy: $(tail -n 3 "$WORK/ranks")"
      failures=$((failures + 1))
    }
    split_output "$WORK/ranks" "$WORK/ranks"
    for i in "${kept[@]}"; do
      [ -f "$WORK/ranks.$i" ] || : >"$WORK/ranks.$i"
      if ! same_rows "$WORK/alone-$filtering.$i" "$WORK/ranks.$i"; then
        echo "FAIL: -np $np, dynamic_filtering $filtering, joins $strategy: $(head -c 300 "$WORK/q.$i")"
        diff <(LC_ALL=C sort "$WORK/alone-$filtering.$i") <(LC_ALL=C sort "$WORK/ranks.$i") | head -n 6 || true
        failures=$((failures + 1))
      fi
    done
    rm -f "$WORK"/ranks.[0-9]*
  done
done
echo "${#kept[@]} corpus queries compared under mpirun"
if [ "$failures" -gt 0 ]; then
  echo "$failures failures"
  exit 1
fi

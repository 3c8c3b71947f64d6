#!/usr/bin/env bash
# Runs each libFuzzer target of fuzz/ in one of two modes:
#   scripts/fuzz.sh BUILD_DIR SECONDS [TARGET...]      explore: each target for SECONDS seconds
#   scripts/fuzz.sh --gate BUILD_DIR [TARGET...]       gate (make test): a fixed amount of work
# (default: all targets).
#
# Gate mode gives one verdict per commit on any machine, however loaded: each target executes
# the repository's seeds, the corpus committed from exploring runs (fuzz/corpus/NAME) and a
# fixed number of variants of them made by a fixed-seed mutator without coverage feedback
# (gate_variants below, GATE_VARIANTS overrides), from an empty corpus of its own
# (BUILD_DIR/gate/TARGET, emptied first), without corpus reloads (a clock) and without address
# randomization, so neither the clock, the machine nor an earlier exploring run can change what
# it executes. The SQL target bounds each query by work (statement_batch_limit), not time, for
# the same reason.
#
# Explore mode is for finding new bugs (FUZZ_RUNS=N stops a target after N executions, when
# sooner than SECONDS; FUZZ_TIMEOUT, default 10, is the seconds one input may take, more on a
# loaded machine): FUZZ_SEED (default 1) fixes libFuzzer's seed, FUZZ_SEED=0
# lets libFuzzer pick one; what a target learns is kept in BUILD_DIR/corpus/TARGET for the next
# run. Whatever it finds becomes a regression input under tests/data/hostile/ (replayed by
# HostileDataTest) and so part of the gate's seeds; a corpus that reached new code can be kept,
# minimized (TARGET -merge=1 fuzz/corpus/NAME BUILD_DIR/corpus/TARGET), under fuzz/corpus/NAME.
#
# Seeds come from the repository (tests/data, tests/sql, fuzz/corpus, tests/data/hostile) and,
# when present, the shared Parquet fixtures. A crash, leak, timeout or out-of-memory (2 GB)
# stops the run: the input is saved as BUILD_DIR/artifacts/TARGET-*, to be replayed with
# `BUILD_DIR/fuzz/TARGET FILE` and kept as a regression (tests/data/hostile/).
set -euo pipefail

GATE=0
if [ "${1:-}" = --gate ]; then
  GATE=1
  shift
fi
# Absolute: the targets run from inside it.
BUILD_DIR=$(mkdir -p "${1:?build dir}" && cd "$1" && pwd)
shift
if [ "$GATE" = 0 ]; then
  SECONDS_EACH=${1:-30}
  shift || true
fi
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] &&
  TARGETS=(fuzz_parquet_file fuzz_parquet_footer fuzz_page_decoders fuzz_hive_path fuzz_sql)

# One run per build directory: each run empties BUILD_DIR/seeds, which a running target still
# reads its inputs from (libFuzzer opens them one by one). Run two at once with two directories,
# each holding a link "fuzz" to the targets.
exec 9> "$BUILD_DIR/.fuzz.lock"
if ! flock -n 9; then
  echo "another scripts/fuzz.sh is running in $BUILD_DIR; give this one another build directory" >&2
  exit 1
fi
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=$BUILD_DIR/fuzz
SEEDS=$BUILD_DIR/seeds
FIXTURES=$ROOT/../shared/fixtures/parquet
[ -d "$FIXTURES" ] || FIXTURES=/work/shared/fixtures/parquet
mkdir -p "$BUILD_DIR/artifacts"
# Seeds are made anew from this checkout each run: stale ones from an older commit would change
# what the gate executes.
rm -rf "$SEEDS"

parquet_files() {
  find "$ROOT/tests/data" -name '*.parquet' -size -300k
  if [ -d "$FIXTURES" ]; then
    find "$FIXTURES/external" "$FIXTURES/generated" -name '*.parquet*' -size -300k
  fi
}

seed_dirs() {  # prints the read-only seed directories of target $1, building them when needed
  case $1 in
    fuzz_parquet_file)
      mkdir -p "$SEEDS/parquet_file"
      # Named by content: libFuzzer orders seeds of one size by name, which must not depend on
      # where the checkout is.
      parquet_files | while read -r f; do cp -f "$f" "$SEEDS/parquet_file/$(md5sum < "$f" | cut -c1-16)"; done
      echo "$SEEDS/parquet_file"
      [ -d "$ROOT/tests/data/hostile/parquet" ] && echo "$ROOT/tests/data/hostile/parquet" ;;
    fuzz_parquet_footer)
      mkdir -p "$SEEDS/footer"
      parquet_files | xargs "$BIN/fuzz_seeds" footer "$SEEDS/footer" >&2
      echo "$SEEDS/footer" ;;
    fuzz_page_decoders)
      mkdir -p "$SEEDS/decoders"
      parquet_files | xargs "$BIN/fuzz_seeds" decoders "$SEEDS/decoders" >&2
      echo "$SEEDS/decoders" ;;
    fuzz_hive_path)
      mkdir -p "$SEEDS/hive_path"
      (cd "$ROOT/tests/data/hive" && find . -name '*.parquet') | while read -r p; do
        printf '%s' "${p#./*/}" > "$SEEDS/hive_path/$(echo "$p" | md5sum | cut -c1-16)"
      done
      echo "$SEEDS/hive_path" ;;
    fuzz_sql)
      mkdir -p "$SEEDS/sql"
      # Each statement of the SQL logic tests, its file paths turned into the fuzz schema's views.
      awk -v out="$SEEDS/sql" '
        /^(query|statement)/ { sql = ""; grab = 1; next }
        grab && (/^----/ || /^$/) { if (sql != "") { n++; print sql > (out "/t" n); close(out "/t" n) } grab = 0; next }
        grab { sql = sql $0 "\n" }
        END { if (grab && sql != "") print sql > (out "/t" (n + 1)) }' \
        $(find "$ROOT/tests/sql" -name '*.test')
      sed -i -E "s#'\\\$\\{DATA\\}[^']*'#hive#g" "$SEEDS"/sql/*
      echo "$SEEDS/sql"
      echo "$ROOT/fuzz/corpus/sql"
      [ -d "$ROOT/tests/data/hostile/sql" ] && echo "$ROOT/tests/data/hostile/sql"
      if [ "$GATE" = 1 ]; then
        # The gate's generated SQL: variants of all these by a fixed-seed mutator (fuzz_seeds
        # sql), not libFuzzer's coverage-guided mutation, which cannot repeat itself here.
        mkdir -p "$SEEDS/sql_variants"
        find "$SEEDS/sql" "$ROOT/fuzz/corpus/sql" "$ROOT/tests/data/hostile/sql" -type f 2>/dev/null |
          xargs "$BIN/fuzz_seeds" sql "$SEEDS/sql_variants" "$SQL_VARIANTS" "$ROOT/fuzz/sql.dict" >&2
        echo "$SEEDS/sql_variants"
      fi ;;
  esac
}

# The read-only inputs of target $1: its seeds (seed_dirs), the corpus committed from
# exploring runs (fuzz/corpus/NAME) and, in gate mode, the generated variants of all those.
input_dirs() {
  local name=${1#fuzz_} dirs
  mapfile -t dirs < <(seed_dirs "$1")
  [ "$1" != fuzz_sql ] && [ -d "$ROOT/fuzz/corpus/$name" ] && dirs+=("$ROOT/fuzz/corpus/$name")
  printf '%s\n' "${dirs[@]}"
  if [ "$GATE" = 1 ] && [ "$1" != fuzz_sql ]; then
    # fuzz_seeds bytes: a fixed-seed byte mutator, for the reason given at gate_variants.
    mkdir -p "$SEEDS/${name}_variants"
    find "${dirs[@]}" -type f -print0 |
      xargs -0 "$BIN/fuzz_seeds" bytes "$SEEDS/${name}_variants" "$(gate_variants "$1")" >&2
    echo "$SEEDS/${name}_variants"
  fi
}

# Generated inputs per target in gate mode. No target runs libFuzzer's coverage-guided
# mutation in the gate: each executes its seeds, its committed corpus and a fixed set of variants
# of them made without feedback (fuzz_seeds sql for SQL, fuzz_seeds bytes for the rest), then
# stops (-runs=1: the initial inputs alone pass it). Coverage-guided runs do not repeat
# themselves: fuzz_sql's inputs are queries against an engine that keeps caches from one input to
# the next and hashes by address, heap addresses move with the scheduler (ASan hands out chunks
# from free lists shared with libFuzzer's RSS thread), coverage counts follow them, and two runs
# of one commit drifted apart within a few thousand inputs, one finding a crash the other did
# not. The Parquet and path targets repeated themselves on one machine but not on another (1,069
# against 1,101 new units for fuzz_parquet_file on one commit): addresses differ between machines
# too. Variants made without feedback are the same inputs everywhere; what exploring finds
# (make fuzz) is kept under fuzz/corpus/NAME and so replayed by every later gate.
# Counts: about 20-40 s per target on a 2-core machine; GATE_VARIANTS overrides them all.
SQL_VARIANTS=${SQL_VARIANTS:-${GATE_VARIANTS:-20000}}
gate_variants() {
  if [ -n "${GATE_VARIANTS:-}" ]; then echo "$GATE_VARIANTS"; return; fi
  case $1 in
    fuzz_parquet_file) echo 10000 ;;
    fuzz_parquet_footer) echo 40000 ;;
    fuzz_page_decoders) echo 100000 ;;
    *) echo 100000 ;;
  esac
}

status=0
for target in "${TARGETS[@]}"; do
  mapfile -t dirs < <(input_dirs "$target")
  dict=()
  [ -f "$ROOT/fuzz/${target#fuzz_}.dict" ] && dict=(-dict="$ROOT/fuzz/${target#fuzz_}.dict")
  if [ "$GATE" = 1 ]; then
    corpus=$BUILD_DIR/gate/$target
    rm -rf "$corpus"
    # A generous per-input limit: the gate must not fail because the machine is busy.
    # -reload=0: libFuzzer rereads its corpus directory every second by default, re-running
    # inputs at times set by the clock; that alone made two runs diverge.
    mode=(-seed=1 -runs=1 -timeout=120 -reload=0 -rss_limit_mb=2048)
    # Without address randomization, absl's per-process hash seed (an address) is the same in
    # every run, so hash tables probe alike and coverage, hence the mutations, repeat. The
    # environment and the arguments are the same in every checkout too (env -i, paths relative
    # to BUILD_DIR): their length moves the stack, and stack addresses reach compared values.
    launch=(env -i PATH=/usr/bin:/bin HOME=/nonexistent setarch "$(uname -m)" -R)
    echo "== $target: its seeds and corpus, then their generated variants; no coverage feedback"
  else
    corpus=$BUILD_DIR/corpus/$target
    # -entropic_scale_per_exec_time: mutate fast inputs up to 30 times as often as slow ones. A
    # few slow inputs (fuzz_sql's spill tests, big Parquet files) otherwise take most of the
    # time; exploring repeats itself no better without it (see gate_variants).
    mode=(-seed="${FUZZ_SEED:-1}" -max_total_time="$SECONDS_EACH" -timeout="${FUZZ_TIMEOUT:-10}"
      -rss_limit_mb=2048 -entropic_scale_per_exec_time=1)
    # FUZZ_RUNS: stop after that many executions (or SECONDS, whichever comes first).
    [ -n "${FUZZ_RUNS:-}" ] && mode+=(-runs="$FUZZ_RUNS")
    launch=()
    echo "== $target: ${SECONDS_EACH}s"
  fi
  mkdir -p "$corpus"
  # Every path handed to the target lives under BUILD_DIR and is named relative to it (seeds of
  # the checkout are copied there), so the command line is the same wherever the checkout is.
  args=()
  for dir in "$corpus" "${dirs[@]}"; do
    case $dir in
      "$BUILD_DIR"/*) args+=("${dir#"$BUILD_DIR"/}") ;;
      *) copy=seeds/copy-${#args[@]}; mkdir -p "$BUILD_DIR/$copy"; cp -R "$dir"/. "$BUILD_DIR/$copy"
         args+=("$copy") ;;
    esac
  done
  if [ ${#dict[@]} -gt 0 ]; then
    cp "${dict[0]#-dict=}" "$SEEDS/$target.dict"
    dict=(-dict="seeds/$target.dict")
  fi
  start=$(date +%s)
  if ! (cd "$BUILD_DIR" && "${launch[@]}" "./fuzz/$target" "${mode[@]}" \
      -max_len=262144 -print_final_stats=1 -artifact_prefix="artifacts/$target-" "${dict[@]}" \
      "${args[@]}") > "$BUILD_DIR/$target.log" 2>&1; then
    echo "FAILED: $target (see $BUILD_DIR/$target.log and $BUILD_DIR/artifacts/)"
    grep -E "ERROR|SUMMARY|internal error" "$BUILD_DIR/$target.log" | head -5 || true
    status=1
  fi
  grep -E "^stat::number_of_executed_units|^stat::new_units_added" "$BUILD_DIR/$target.log" | tr '\n' ' '
  echo "($(($(date +%s) - start)) s)"
done
exit $status

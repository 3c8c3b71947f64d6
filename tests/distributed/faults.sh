#!/usr/bin/env bash
# A rank that dies or stops in any phase of a distributed query ends the job with an error
# naming it, on every rank still alive, within distributed.timeout (ctest: distributed_faults).
#   tests/distributed/faults.sh SHEARS DATA_DIR
# Faults are injected with SHEARS_DISTRIBUTED_FAULT=PHASE:RANK:kill|stop (src/distributed/
# watchdog.h): SIGKILL or SIGSTOP sent by the rank to itself as it reaches PHASE.
set -euo pipefail
SHEARS="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
DATA="$2"
HERE="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=tests/distributed/common.sh
source "$HERE/common.sh"

# A shuffle join with a runtime filter: every phase is reached on every rank (the plan's
# agreement, file requests, the filter merge, the shuffle, the gather).
query="SET distributed.timeout = 3; SET distributed.join_strategy = 'shuffle';
  SELECT count(*) FROM 'store_sales' ss JOIN 'item' i ON ss.ss_item_sk = i.i_item_sk WHERE i.i_category = 'Music'"

# Runs the query under mpirun -np $1 with fault $2; sets $code and leaves the output in $WORK/out.
run() {
  set +e
  SHEARS_DISTRIBUTED_FAULT="$2" timeout 120 mpirun --oversubscribe -np "$1" "$SHEARS" --distributed \
    -c "$query" --format csv >"$WORK/out" 2>&1 </dev/null
  code=$?
  set -e
}

# The query runs through with the watchdog's heartbeats.
run 3 ""
[ "$code" = 0 ] && grep -qx "[0-9][0-9]*" <(tail -n 1 "$WORK/out") || fail "no fault: exit $code: $(tail -n 3 "$WORK/out")"

# Killed: mpirun ends the job and names the rank (the others stop with it).
for phase in plan splits filter_merge shuffle gather; do
  run 2 "$phase:1:kill"
  [ "$code" != 0 ] && [ "$code" != 124 ] || fail "rank 1 killed at $phase: exit $code"
  grep -q "rank 1 .*exited on signal 9" "$WORK/out" || fail "rank 1 killed at $phase is not named: $(grep -v '^$' "$WORK/out" | tail -n 3)"
done

# Stopped (SIGSTOP: no exit for the launcher to notice; MPI waits forever): the watchdog of
# every rank alive names it after distributed.timeout (3 s here).
#   stopped NP FAULT STOPPED_RANK RANKS_ALIVE...
stopped() {
  local np="$1" fault="$2" silent="$3"
  shift 3
  run "$np" "$fault"
  [ "$code" != 0 ] && [ "$code" != 124 ] || fail "$fault: exit $code"
  for rank in "$@"; do
    grep -q "^rank $rank: IO Error: rank $silent has not been heard from for" "$WORK/out" ||
      fail "$fault: rank $rank does not name rank $silent: $(grep -v '^$' "$WORK/out" | tail -n 4)"
  done
}
# A rank other than 0, in a shuffle: rank 0 notices and tells rank 2.
stopped 3 shuffle:1:stop 1 0 2
# Rank 0, where it gathers: every other rank notices.
stopped 3 gather:0:stop 0 1 2
# While the plans are agreed on.
stopped 2 plan:1:stop 1 0

# A failure at run time on one rank: every other rank names it.
set +e
timeout 120 mpirun --oversubscribe -np 3 "$SHEARS" --distributed -c \
  "SELECT sum(CAST(CAST(ss_quantity AS VARCHAR) || 'x' AS INTEGER)) FROM 'store_sales'" >"$WORK/out" 2>&1 </dev/null
code=$?
set -e
[ "$code" != 0 ] && [ "$code" != 124 ] || fail "a failing query: exit $code"
# Every rank prints: its own error, or (when it did not fail itself) that another rank failed.
for rank in 0 1 2; do
  grep -qE "^rank $rank: ([A-Za-z ]*Error: Could not convert|stopped: rank [0-9]+ failed: [A-Za-z ]*Error: Could not convert)" "$WORK/out" ||
    fail "a failing query: rank $rank prints no error naming a rank: $(head -n 5 "$WORK/out")"
done

"$SHEARS" -c "SET distributed.timeout = 0.5" >"$WORK/err" 2>&1 && fail "a timeout under a second is accepted"
grep -qF "must be at least 1" "$WORK/err" || fail "a bad timeout: $(cat "$WORK/err")"

if [ "$failures" -gt 0 ]; then
  echo "$failures failures"
  exit 1
fi
echo "distributed_faults: all passed"

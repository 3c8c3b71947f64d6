#!/usr/bin/env bash
# The static checks `make test` runs before any test (issue 21), both fast:
#   1. formatting: every tracked C++ file is as clang-format (.clang-format) writes it;
#   2. clang-tidy: the checks in .clang-tidy over every compiled source of src/ and bench/ (the
#      tests are left out for time); a warning beyond those
#      recorded in scripts/tidy_baseline.txt (counted per file and check, so moving code does not
#      matter) fails. The baseline may only shrink: fix a warning, then `scripts/lint.sh --update`.
# Usage: scripts/lint.sh [--update] [--format-only] [BUILD_DIR]   (BUILD_DIR default build/release,
# whose compile_commands.json clang-tidy reads).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

UPDATE=0
FORMAT_ONLY=0
BUILD_DIR=build/release
for arg in "$@"; do
  case "$arg" in
    --update) UPDATE=1 ;;
    --format-only) FORMAT_ONLY=1 ;;
    -*) echo "lint.sh: unknown option $arg" >&2; exit 2 ;;
    *) BUILD_DIR=$arg ;;
  esac
done
JOBS=$(nproc)

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t SOURCES < <(git ls-files '*.cpp' '*.h')
else
  mapfile -t SOURCES < <(find src tests bench fuzz -name '*.cpp' -o -name '*.h' | sort)
fi

# 1. Formatting.
unformatted=$(printf '%s\n' "${SOURCES[@]}" |
  xargs -P "$JOBS" -n 20 clang-format --dry-run -Werror 2>&1 | grep -o '^[^:]*:[0-9]*:[0-9]*: error:' | cut -d: -f1 | sort -u || true)
if [ -n "$unformatted" ]; then
  echo "lint: these files are not clang-formatted (run: clang-format -i FILE, or make format):" >&2
  echo "$unformatted" | sed 's/^/  /' >&2
  exit 1
fi
echo "lint: clang-format: ${#SOURCES[@]} files formatted"
[ "$FORMAT_ONLY" = 1 ] && exit 0

# 2. clang-tidy against the baseline.
DB="$BUILD_DIR/compile_commands.json"
if [ ! -f "$DB" ]; then
  echo "lint: $DB is missing: build first (make build)" >&2
  exit 1
fi
mapfile -t UNITS < <(python3 - "$DB" "$ROOT" <<'EOF'
import json, os, sys
db, root = sys.argv[1], sys.argv[2]
files = {os.path.relpath(e['file'], root) for e in json.load(open(db))}
print('\n'.join(sorted(f for f in files if f.split('/')[0] in ('src', 'bench'))))
EOF
)
OUT=$(mktemp)
trap 'rm -f "$OUT"' EXIT
# --quiet hides the per-file summaries; warnings inside system and third-party headers are
# filtered by the header filter (only the project's own files count).
printf '%s\n' "${UNITS[@]}" |
  xargs -P "$JOBS" -n 4 clang-tidy -p "$BUILD_DIR" --quiet \
    --header-filter="^$ROOT/(src|tests|bench)/" 2>/dev/null >"$OUT" || true
# One line per distinct warning (a header's warning shows once per unit that includes it),
# then counted per file and check.
# clang errors (a unit clang cannot compile) count too, as check clang-diagnostic-error.
current=$(grep -E '^/.*: (warning|error): .*\[[a-z0-9.,-]+\]$' "$OUT" |
  sed -E "s#^$ROOT/##" | sort -u |
  sed -E 's#^([^:]+):[0-9]+:[0-9]+: (warning|error): .*\[([a-z0-9.,-]+)\]$#\1 \3#' |
  sort | uniq -c | awk '{print $2, $3, $1}')
BASELINE=scripts/tidy_baseline.txt
if [ "$UPDATE" = 1 ]; then
  {
    echo "# file check count: clang-tidy warnings accepted when this was written (scripts/lint.sh)."
    echo "# May only shrink; regenerate with scripts/lint.sh --update after fixing some."
    [ -n "$current" ] && echo "$current"
  } >"$BASELINE"
  echo "lint: wrote $BASELINE ($(grep -vc '^#' "$BASELINE" || true) entries)"
  exit 0
fi
new=$(awk 'NR == FNR { if ($1 !~ /^#/) accepted[$1 " " $2] = $3; next }
  { was = ($1 " " $2) in accepted ? accepted[$1 " " $2] : 0; if ($3 > was) print $1, $2, $3, was }' \
  "$BASELINE" <(echo "$current" | grep . || true))
if [ -n "$new" ]; then
  echo "lint: clang-tidy warnings beyond scripts/tidy_baseline.txt:" >&2
  while read -r file check now was; do
    echo "  $file [$check]: $now now, $was accepted" >&2
    grep -E "^$ROOT/$file:[0-9]+:[0-9]+: (warning|error): .*\[$check\]$" "$OUT" | sort -u | sed "s#^$ROOT/#    #" >&2
  done <<<"$new"
  exit 1
fi
echo "lint: clang-tidy: ${#UNITS[@]} units, no warning beyond the baseline"

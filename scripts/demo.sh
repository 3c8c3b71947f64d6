#!/usr/bin/env bash
# The demo `make demo` runs: shears reading Parquet the way the rest of the engine will.
# It grows with the engine; today it shows the Parquet reader and Hive-partitioned datasets.
set -euo pipefail
SHEARS=${1:-build/release/shears}
DATA="$(cd "$(dirname "$0")/.." && pwd)/tests/data"

step() { printf '\n\033[1m== %s\033[0m\n$ %s\n' "$1" "$2"; eval "$2"; }

step "Inspect a Parquet file: schema, row groups, statistics, bloom filters" \
  "$SHEARS inspect $DATA/parquet/generated/bloom_filter.parquet | head -30"
step "Read a Hive-partitioned dataset: partition columns come from the directory names" \
  "$SHEARS cat $DATA/hive/hive_year_month --limit 8"
step "Partition values that need escaping, and NULL partitions" \
  "$SHEARS cat $DATA/hive/hive_escaping --columns id,category --format csv | head -12"
step "A file with every codec's sibling: ZSTD, dictionary-encoded strings, decimals, dates" \
  "$SHEARS cat $DATA/parquet/generated/codec_zstd.parquet --limit 5"
step "A broken file gets a typed error naming it, not a crash" \
  "head -c 300 $DATA/parquet/generated/codec_zstd.parquet > /tmp/shears_demo_truncated.parquet; $SHEARS cat /tmp/shears_demo_truncated.parquet || true"

# Sourced by run.sh and faults.sh after they set SHEARS and DATA: the environment mpirun
# needs here, a small star schema in DATA (generated when missing) as the working directory,
# a scratch directory WORK, and fail() counting failures.
# Open MPI refuses root unless told; this machine may have fewer cores than ranks.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
# MPI's own allocations outlive MPI_Finalize: no leak report from them under ASan (ctest runs
# these in optimized builds only; by hand they may run against any build).
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

if [ ! -d "$DATA/store_sales" ]; then
  rm -rf "$DATA"
  "$SHEARS" generate star --scale 0.01 --out "$DATA" >/dev/null 2>&1
fi
cd "$DATA"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

#!/usr/bin/env bash
# Installs the Debian packages shears needs to build and test, only those missing.
# Idempotent: a second run installs nothing and takes a second. With --node (make test,
# tests/differential/run) or --bench (bench/run), also node and npm, and the npm packages pinned
# in package-lock.json (@duckdb/node-api) into node_modules/ when it does not match the lock.
set -euo pipefail

PACKAGES=(
  cmake ninja-build ccache g++ clang clang-format clang-tidy pkg-config
  libthrift-dev thrift-compiler libpg-query-dev
  libsnappy-dev libzstd-dev liblz4-dev libbrotli-dev zlib1g-dev libxxhash-dev
  libabsl-dev libfmt-dev libcli11-dev libsqlite3-dev libreadline-dev libre2-dev libssl-dev
  libgtest-dev libgmock-dev libbenchmark-dev libclang-rt-14-dev libboost-dev libprotobuf-c-dev
  nlohmann-json3-dev
  pybind11-dev python3-dev python3-numpy python3-pandas python3-pytest
  openmpi-bin libopenmpi-dev
)

# A node from elsewhere (with its own npm) is fine too.
NODE=0
case "${1:-}" in --node | --bench) NODE=1 ;; esac
if [ "$NODE" = 1 ]; then
  command -v node >/dev/null || PACKAGES+=(nodejs)
  command -v npm >/dev/null || PACKAGES+=(npm)
fi

missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "install_deps: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# node_modules/.installed-lock is the lock it was installed from.
if [ "$NODE" = 1 ]; then
  cd "$(dirname "$0")/.."
  if ! cmp -s package-lock.json node_modules/.installed-lock; then
    echo "install_deps: installing the npm packages of package-lock.json (npm ci)"
    npm ci --no-audit --no-fund
    cp package-lock.json node_modules/.installed-lock
  fi
fi

#!/usr/bin/env bash
# Installs the Debian packages shears needs to build and test, only those missing.
# Idempotent: a second run installs nothing and takes a second. With --bench, also what
# bench/run needs.
set -euo pipefail

PACKAGES=(
  cmake ninja-build ccache g++ clang clang-format pkg-config
  libthrift-dev thrift-compiler libpg-query-dev
  libsnappy-dev libzstd-dev liblz4-dev libbrotli-dev zlib1g-dev libxxhash-dev
  libabsl-dev libfmt-dev libcli11-dev libsqlite3-dev libreadline-dev
  libgtest-dev libgmock-dev libbenchmark-dev libclang-rt-14-dev libboost-dev libprotobuf-c-dev
)

# bench/run also needs node and npm; a node from elsewhere (with its own npm) is fine too.
if [ "${1:-}" = "--bench" ]; then
  command -v node >/dev/null || PACKAGES+=(nodejs)
  command -v npm >/dev/null || PACKAGES+=(npm)
fi

missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install_deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"

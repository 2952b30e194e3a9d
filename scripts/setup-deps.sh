#!/usr/bin/env bash
# Installs every Debian package loom needs to build, test and benchmark.
#
# Idempotent: when every package is already installed (checked with dpkg-query) it
# does nothing and returns at once. Needs root or sudo. Used by scripts/test.sh and
# scripts/bench.sh; safe to run by hand.
#
# Besides the list below, it installs the packages named in any `apt-packages.txt`
# file in the tree (one package per line, '#' starts a comment), so the owner of a
# part of the tree can declare what that part needs (see docs/building.md), and the
# packages that bench/README.md lists on a line starting with "apt-packages:".
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

packages=(
  # toolchains and build tools
  build-essential g++ cmake ninja-build pkg-config
  clang-19 libomp-19-dev           # clang -fopenmp and llvm-OpenMP (peer and reference)
  # libraries loom is built on
  libhwloc-dev hwloc libboost-context-dev
  # tests and benchmarks
  libgtest-dev libgmock-dev googletest
  libtbb-dev                       # oneTBB, the peer of the C++ API
  libopenblas-dev liblapacke-dev   # tile kernels of the dense linear-algebra benchmarks
  python3 python3-venv             # the benchmark driver and its tests (pytest in a venv)
  valgrind
  llvm-19-tools xz-utils           # FileCheck and not for LLVM's OpenMP runtime tests
  libopenmpi-dev openmpi-bin       # loom::mpi (src/mpi), its tests and the distributed Task Bench
)

# Packages declared by other parts of the tree.
while IFS= read -r -d '' list; do
  while IFS= read -r line; do
    read -ra words <<<"${line%%#*}"
    packages+=("${words[@]}")
  done <"$list"
done < <(find "$repo_root" \( -name .git -o -name build -o -name .venv -o -name .cache \
                             -o -name node_modules \) -prune -o -name apt-packages.txt -print0 2>/dev/null)
if [[ -f "$repo_root/bench/README.md" ]]; then
  while IFS= read -r line; do
    read -ra words <<<"$line"
    packages+=("${words[@]}")
  done < <(sed -n 's/^[[:space:]>*-]*`\{0,1\}apt-packages:[[:space:]]*//p' "$repo_root/bench/README.md" | tr -d '`')
fi

mapfile -t packages < <(printf '%s\n' "${packages[@]}" | awk 'NF && !seen[$0]++')

missing=()
for p in "${packages[@]}"; do
  status="$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)"
  [[ "$status" == ii* ]] || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
  echo "setup-deps: all ${#packages[@]} packages are installed"
  exit 0
fi

sudo=()
if [[ "$(id -u)" -ne 0 ]]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "setup-deps: need root or sudo to install: ${missing[*]}" >&2
    exit 1
  fi
  sudo=(sudo)
fi

echo "setup-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt_opts=(-o DPkg::Lock::Timeout=600 -o Dpkg::Use-Pty=0)
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "${apt_opts[@]}" update -qq
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "${apt_opts[@]}" install -y -qq \
  --no-install-recommends "${missing[@]}" >/dev/null
echo "setup-deps: done"

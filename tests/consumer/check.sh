#!/usr/bin/env bash
# Checks an installed loom the way a user meets it:
#   1. find_package(loom) from a separate CMake project (CMakeLists.txt here);
#   2. the same main.cpp built with `pkg-config --cflags --libs loom`;
#   3. no path of the source or build tree leaked into the installed package files;
#   4. when libloom-omp is installed: an OpenMP program built with clang -fopenmp
#      against the system libomp runs on loom through LD_LIBRARY_PATH=<libdir>/loom.
# Usage: tests/consumer/check.sh PREFIX [WORKDIR]   (scripts/test.sh runs it)
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$here/../.." && pwd)"
prefix="${1:?usage: check.sh PREFIX [WORKDIR]}"
prefix="$(cd "$prefix" && pwd)"
work="${2:-$(mktemp -d)}"
mkdir -p "$work"
cxx="${CXX:-c++}"

passed=0 failed=0 skipped=0
pass() { echo "consumer: PASS $1"; passed=$((passed + 1)); }
fail() { echo "consumer: FAIL $1" >&2; failed=$((failed + 1)); }
skip() { echo "consumer: SKIP $1"; skipped=$((skipped + 1)); }

# 1. CMake package.
if cmake -S "$here" -B "$work/cmake" -G Ninja -DCMAKE_BUILD_TYPE=Release \
       -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF &&
   cmake --build "$work/cmake" &&
   (cd "$work/cmake" && ctest --output-on-failure); then
  pass "find_package(loom) + loom::loom"
else
  fail "find_package(loom) + loom::loom"
fi

# 2. pkg-config.
pcdir="$(dirname "$(find "$prefix" -name loom.pc -print -quit)")"
if [[ "$pcdir" == . ]]; then
  fail "pkg-config: no loom.pc under $prefix"
else
  export PKG_CONFIG_PATH="$pcdir"
  # shellcheck disable=SC2046 # word splitting of pkg-config's output is intended
  if libdir="$(pkg-config --variable=libdir loom)" &&
     "$cxx" -std=c++20 -O2 "$here/main.cpp" -o "$work/loom_consumer_pc" \
       $(pkg-config --cflags --libs loom) -Wl,-rpath,"$libdir" &&
     "$work/loom_consumer_pc"; then
    pass "pkg-config loom ($(pkg-config --modversion loom))"
  else
    fail "pkg-config loom"
  fi
fi

# 3. Relocatable: nothing installed names the source or build tree.
if leaks="$(grep -rlF "$repo_root" "$prefix" --include="*.cmake" --include="*.pc" 2>/dev/null)"; then
  fail "installed files name the source tree: $leaks"
else
  pass "no source-tree paths in the installed files"
fi

# 4. OpenMP runtime, when installed.
ompdir="$(find "$prefix" -path '*/loom/libomp.so.5' -printf '%h\n' -quit)"
if [[ -z "$ompdir" ]]; then
  skip "libloom-omp is not installed (no <libdir>/loom/libomp.so.5)"
elif ! command -v clang-19 >/dev/null; then
  skip "clang-19 not found: OpenMP consumer not built"
elif clang-19 -fopenmp -O2 "$here/omp_main.c" -o "$work/omp_consumer" &&
     LD_LIBRARY_PATH="$ompdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$work/omp_consumer"; then
  pass "clang -fopenmp program on loom via LD_LIBRARY_PATH=$ompdir"
else
  fail "clang -fopenmp program on loom via LD_LIBRARY_PATH=$ompdir"
fi

echo "consumer checks: $passed passed, $failed failed, $skipped skipped"
((failed == 0))

#!/usr/bin/env bash
# Checks an installed loom the way a user meets it:
#   1. find_package(loom) from a separate CMake project (CMakeLists.txt here);
#   2. the same main.cpp built with `pkg-config --cflags --libs loom`;
#   3. no path of the source or build tree leaked into the installed package files;
#   4. when libloom-omp is installed: an OpenMP program built with clang -fopenmp
#      against the system libomp runs on loom through LD_LIBRARY_PATH=<libdir>/loom;
#   5. when libloom-mpi is installed: find_package(loom COMPONENTS mpi) and
#      pkg-config loom-mpi, each program run on 2 MPI ranks.
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

# 5. loom::mpi, when installed: the CMake component and loom-mpi.pc, run on 2 ranks.
mpi_pc="$(find "$prefix" -name loom-mpi.pc -print -quit)"
mpi_run=(mpiexec -n 2 --oversubscribe)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
if [[ -z "$mpi_pc" ]]; then
  skip "libloom-mpi is not installed (no loom-mpi.pc)"
elif ! command -v mpiexec >/dev/null; then
  skip "mpiexec not found: loom::mpi consumer not run"
else
  if cmake -S "$here/mpi" -B "$work/mpi-cmake" -G Ninja -DCMAKE_BUILD_TYPE=Release \
         -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF &&
     cmake --build "$work/mpi-cmake" &&
     "${mpi_run[@]}" "$work/mpi-cmake/loom_mpi_consumer"; then
    pass "find_package(loom COMPONENTS mpi) + loom::mpi on 2 ranks"
  else
    fail "find_package(loom COMPONENTS mpi) + loom::mpi on 2 ranks"
  fi
  export PKG_CONFIG_PATH="$(dirname "$mpi_pc")"
  # shellcheck disable=SC2046 # word splitting of pkg-config's output is intended
  if libdir="$(pkg-config --variable=libdir loom-mpi)" &&
     "$cxx" -std=c++20 -O2 "$here/mpi/mpi_main.cpp" -o "$work/loom_mpi_consumer_pc" \
       $(pkg-config --cflags --libs loom-mpi) -Wl,-rpath,"$libdir" &&
     "${mpi_run[@]}" "$work/loom_mpi_consumer_pc"; then
    pass "pkg-config loom-mpi on 2 ranks"
  else
    fail "pkg-config loom-mpi"
  fi
fi

echo "consumer checks: $passed passed, $failed failed, $skipped skipped"
((failed == 0))

#!/usr/bin/env bash
# Runs GCC's libgomp C, C++ and Fortran test suites (libgomp.c, libgomp.c++,
# libgomp.c-c++-common and libgomp.fortran of Debian's gcc-12 source package, fetched and
# cached by scripts/fetch-libgomp-tests.sh) with gcc/g++/gfortran -fopenmp on GNU libgomp
# and/or on loom through its libgomp.so.1 name, and classifies the results.
#
#   scripts/run-libgomp-tests.sh [--runtime loom|libgomp|both] [--jobs N] [--timeout S]
#       [--filter REGEX] [--threads N] [--preset NAME] [--lib-dir DIR] [--out DIR]
#       [--expected FILE] [--languages c,c++,fortran] [--ci]
#
#   --runtime both     (default) every test on Debian's libgomp and on loom: a test is
#                      "pass on both", "fail on libgomp" (reported, not counted), or
#                      "fail on loom only" (unexpected unless listed in --expected)
#   --runtime loom     loom only (every loom failure unexpected unless listed)
#   --runtime libgomp  GNU libgomp only (the reference)
#   --lib-dir DIR      loom's folder with libgomp.so.1 (default build/<preset>/src/omp,
#                      --preset default 'default')
#   --jobs N           tests compiled and run at once (default: CPUs)
#   --timeout S        limit of one run in seconds (default 60); a hung run is TIMEOUT
#   --threads N        OMP_NUM_THREADS of every run unless the test sets it (default 4:
#                      the tests assume more threads than this machine's 2 cores)
#   --filter REGEX     only tests whose name matches: libgomp.c/..., libgomp.c++/...,
#                      libgomp.c-c++-common/... (its C run), c++:libgomp.c-c++-common/...
#                      (its C++ run)
#   --languages L      c: c.exp's tests (libgomp.c, libgomp.c-c++-common with gcc); c++:
#                      c++.exp's (libgomp.c++, libgomp.c-c++-common with g++); fortran:
#                      fortran.exp's (libgomp.fortran with gfortran); default all three
#   --out DIR          results (default build/libgomp-tests/<runtime>): summary.txt,
#                      results.json, logs/ (compile and run output of every test);
#                      binaries go to build/libgomp-tests/bin, reused while source,
#                      flags and gcc are unchanged
#   --expected FILE    known loom failures (default
#                      tests/omp/libgomp/expected-failures-loom.txt; format: test path,
#                      '#', one-line reason)
#   --ci               the CI mode (scripts/test.sh): both runtimes, 2 jobs, 30 s per
#                      run, at most 900 s; exit 1 on an unexpected loom failure
#
# Each test is built as libgomp's DejaGnu drivers build it (gcc, g++ -x c++ or gfortran;
# -fopenmp, -O2 unless dg-options say otherwise, dg-additional-options/-sources, -lm);
# dg-do, dg-require-effective-target, dg-skip-if, dg-set-target-env-var, dg-shouldfail,
# dg-output and dg-xfail-run-if are honoured (tests/omp/libgomp/libgomp_suite.py).
# Offload-only tests are unsupported. Every run starts from an environment without
# OMP_*, GOMP_*, KMP_*, LOOM_* variables and checks with ldd that libgomp.so.1 resolves
# to the runtime under test. Exit status: 0 unless a loom failure is not listed (or the
# suite could not run).
# Environment: LOOM_CACHE_DIR as for scripts/fetch-libgomp-tests.sh.
set -euo pipefail

main() {
    here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
    repo=$(cd "$here/.." && pwd)
    runtime=both jobs="" timeout="" filter="" threads=4 preset=default lib_dir="" out=""
    expected="" ci=0 max_time=0 languages=c,c++,fortran
    while [[ $# -gt 0 ]]; do
        case "$1" in
            --runtime) runtime=$2; shift 2 ;;
            --jobs|-j) jobs=$2; shift 2 ;;
            --timeout) timeout=$2; shift 2 ;;
            --filter) filter=$2; shift 2 ;;
            --threads) threads=$2; shift 2 ;;
            --preset) preset=$2; shift 2 ;;
            --lib-dir) lib_dir=$2; shift 2 ;;
            --out) out=$2; shift 2 ;;
            --expected) expected=$2; shift 2 ;;
            --languages) languages=$2; shift 2 ;;
            --ci) ci=1; shift ;;
            -h|--help) sed -n '2,46p' "$0"; exit 0 ;;
            *) echo "run-libgomp-tests: unknown argument '$1' (see --help)" >&2; exit 2 ;;
        esac
    done
    log() { echo "run-libgomp-tests: $*" >&2; }
    case "$runtime" in loom|libgomp|both) ;; *) log "--runtime must be loom, libgomp or both"; exit 2 ;; esac
    if [[ $ci == 1 ]]; then
        jobs=${jobs:-2}
        timeout=${timeout:-30}
        max_time=900
    fi
    jobs=${jobs:-$(nproc)}
    timeout=${timeout:-60}
    expected=${expected:-$repo/tests/omp/libgomp/expected-failures-loom.txt}
    start=$(date +%s)

    cc=$(command -v gcc-12 || command -v gcc || true)
    [[ -n "$cc" ]] || { log "gcc not found (apt-get install gcc)"; exit 1; }
    cxx=$(command -v g++-12 || command -v g++ || true)
    if [[ ",$languages," == *",c++,"* && -z "$cxx" ]]; then
        log "g++ not found (apt-get install g++)"; exit 1
    fi
    fc=$(command -v gfortran-12 || command -v gfortran || true)
    if [[ ",$languages," == *",fortran,"* && -z "$fc" ]]; then
        log "gfortran not found (apt-get install gfortran-12; or --languages c,c++)"; exit 1
    fi
    libgomp_dir=$(dirname "$(readlink -f "$("$cc" -print-file-name=libgomp.so.1)")")
    [[ -e "$libgomp_dir/libgomp.so.1" ]] || { log "GNU libgomp.so.1 not found (apt-get install libgomp1)"; exit 1; }

    args=(--runtime "$runtime" --libgomp-dir "$libgomp_dir" --cc "$cc" --cxx "${cxx:-g++}"
          --fc "${fc:-gfortran}" --languages "$languages" --jobs "$jobs"
          --timeout "$timeout" --threads "$threads" --expected "$expected" --max-time "$max_time")
    if [[ $runtime != libgomp ]]; then
        lib_dir=${lib_dir:-$repo/build/$preset/src/omp}
        lib_dir=$(readlink -f "$lib_dir" 2>/dev/null || echo "$lib_dir")
        if [[ ! -e "$lib_dir/libgomp.so.1" ]]; then
            log "no libgomp.so.1 in '$lib_dir': build loom first (cmake --build --preset $preset), or this build of loom does not answer to libgomp.so.1"
            exit 1
        fi
        args+=(--loom-dir "$lib_dir")
    fi
    [[ -n "$filter" ]] && args+=(--filter "$filter")

    suite=$("$repo/scripts/fetch-libgomp-tests.sh" | tail -n1)
    [[ -d "$suite/libgomp.c" ]] || { log "no suite at '$suite'"; exit 1; }
    out=${out:-$repo/build/libgomp-tests/$runtime}
    mkdir -p "$out"
    out=$(cd "$out" && pwd)
    status=0
    python3 "$repo/tests/omp/libgomp/libgomp_suite.py" --suite "$suite" --out "$out" \
        --bin-dir "$repo/build/libgomp-tests/bin" "${args[@]}" || status=$?
    log "done in $(( $(date +%s) - start )) s; results in $out"
    exit $status
}

main "$@"

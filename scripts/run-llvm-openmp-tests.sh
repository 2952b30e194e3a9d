#!/usr/bin/env bash
# Runs LLVM's OpenMP runtime tests (openmp/runtime/test of Debian's llvm-toolchain-19)
# against one OpenMP runtime and prints a summary.
#
#   scripts/run-llvm-openmp-tests.sh [--runtime loom|libomp] [--suite DIR]...
#       [--preset NAME] [--lib-dir DIR] [--header-dir DIR] [--jobs N] [--timeout S]
#       [--out DIR] [--write-baseline] [--fail-on-regression] [-- LIT_ARGS...]
#
#   --runtime libomp   Debian's libomp 19 (the reference: the suite is its own)
#   --runtime loom     loom's libloom-omp through its libomp.so name (default), from
#                      build/<preset>/src/omp (--preset, default 'default') or --lib-dir;
#                      omp.h from --header-dir, else the first of that lib dir,
#                      src/omp/include, src/omp, include/ that holds one
#   --suite DIR        a top folder of the suite (api, atomic, lock, tasking, ...);
#                      repeatable; default: all of them
#   --timeout S        per-test limit (default 300); a hung test is a TIMEOUT failure
#   --out DIR          results (default build/llvm-openmp-tests/<runtime>): summary.txt,
#                      summary.json, lit-*.json and the compiled tests
#   --write-baseline   (libomp) record the tests that pass into
#                      tests/omp/lit/libomp-baseline.txt
#   --fail-on-regression  exit 1 if a test in that baseline does not pass
#   --expected FILE    known failures (tests/omp/lit/expected-failures-<runtime>.txt
#                      format: test path, '#', one-line reason); exit 1 only on an
#                      unexpected result: a failure not listed, or a listed test that
#                      now passes ("remove it from the list")
#   --ci               the CI mode (scripts/test.sh): fetch (cached), run every folder
#                      but tasking (--suite overrides), 2 jobs, 120 s per test,
#                      at most 540 s of lit time, compare with
#                      tests/omp/lit/expected-failures-<runtime>.txt (--expected)
#
# Environment: OMP_NUM_THREADS=4 for every test (8 for the tasking tests that sleep);
# LOOM_CACHE_DIR as for scripts/fetch-llvm-openmp-tests.sh; LIT=<lit executable> to
# use another lit (default: the project's .venv, created with lit from PyPI if absent).
# Tests needing OMPT or libomp's own __kmp*/kmp_* extensions are counted and listed
# separately (tags 'ompt' and 'kmp-ext'); OMPT is on for both runtimes.
set -euo pipefail

# Everything runs inside main(), so the whole script is read before any of it runs.
main() {

    here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
    repo=$(cd "$here/.." && pwd)
    helper="$repo/tests/omp/lit/llvm_suite.py"

    runtime=loom preset=default lib_dir="" header_dir="" jobs="" timeout=300 out=""
    write_baseline=0 fail_on_regression=0 ci=0 expected="" timeout_set=0
    suites=() lit_extra=()
    while [[ $# -gt 0 ]]; do
        case "$1" in
            --runtime) runtime=$2; shift 2 ;;
            --suite) suites+=("${2%/}"); shift 2 ;;
            --preset) preset=$2; shift 2 ;;
            --lib-dir) lib_dir=$2; shift 2 ;;
            --header-dir) header_dir=$2; shift 2 ;;
            --jobs|-j) jobs=$2; shift 2 ;;
            --timeout) timeout=$2; timeout_set=1; shift 2 ;;
            --expected) expected=$2; shift 2 ;;
            --ci) ci=1; shift ;;
            --out) out=$2; shift 2 ;;
            --write-baseline) write_baseline=1; shift ;;
            --fail-on-regression) fail_on_regression=1; shift ;;
            --) shift; lit_extra=("$@"); break ;;
            -h|--help) sed -n '2,38p' "$0"; exit 0 ;;
            *) echo "run-llvm-openmp-tests: unknown argument '$1' (see --help)" >&2; exit 2 ;;
        esac
    done
    log() { echo "run-llvm-openmp-tests: $*" >&2; }
    start=$(date +%s)
    max_time=""
    if [[ $ci == 1 ]]; then
        # Every folder but explicit tasks (tasking). The tool interface (ompt) takes
        # about 20 s at 2 jobs; its known failures are listed in the expectations file.
        [[ ${#suites[@]} -gt 0 ]] || suites=(affinity api atomic barrier critical env flush
                                             lock master misc_bugs ompt parallel target teams
                                             threadprivate transform worksharing)
        # 120 s: worksharing/for/kmp_sch_simd_guided.c, whose threads spin 10^6 rounds
        # per loop while the master takes every chunk, takes 4 s on a quiet machine
        # and 40-116 s on a loaded one (the test's own spinning against loom's
        # waiting threads; libomp: 5.6 s), past the former 60 s.
        [[ $timeout_set == 1 ]] || timeout=120
        jobs=${jobs:-2}
        max_time=540
        expected=${expected:-$repo/tests/omp/lit/expected-failures-$runtime.txt}
    fi

    # ---- tools ----------------------------------------------------------------------------
    cc=$(command -v clang-19 || true)
    cxx=$(command -v clang++-19 || true)
    [[ -n "$cc" && -n "$cxx" ]] || { log "clang-19 / clang++-19 not found (apt-get install clang-19)"; exit 1; }
    llvm_bin=$(dirname "$(readlink -f "$cc")")
    filecheck=$(command -v FileCheck-19 || echo "$llvm_bin/FileCheck")
    notbin="$llvm_bin/not"
    [[ -x "$filecheck" && -x "$notbin" ]] || { log "FileCheck / not missing: apt-get install llvm-19-tools"; exit 1; }
    version=$("$cc" -dumpversion)                 # 19.1.7
    features="['clang', 'clang-${version%%.*}', 'clang-$(echo "$version" | cut -d. -f1-2)', 'clang-$version', 'x86_64']"

    lit=${LIT:-}
    if [[ -z "$lit" ]]; then
        if [[ ! -x "$repo/.venv/bin/lit" ]]; then
            log "installing lit (PyPI) into $repo/.venv"
            [[ -x "$repo/.venv/bin/python" ]] || python3 -m venv "$repo/.venv"
            "$repo/.venv/bin/python" -m pip install -q 'lit==18.1.8' psutil >&2
        fi
        lit="$repo/.venv/bin/lit"
    fi
    # --timeout needs psutil beside lit.
    "$(dirname "$lit")/python" -c 'import psutil' 2>/dev/null ||
        "$(dirname "$lit")/python" -m pip install -q psutil >&2 || true

    # ---- the suite ------------------------------------------------------------------------
    suite_dir=$("$repo/scripts/fetch-llvm-openmp-tests.sh" | tail -n1)
    [[ -f "$suite_dir/lit.cfg" ]] || { log "no suite at '$suite_dir'"; exit 1; }

    # ---- the runtime under test ---------------------------------------------------------------
    case "$runtime" in
        libomp)
            lib_dir=${lib_dir:-$(dirname "$(readlink -f "$(clang-19 -print-file-name=libomp.so)")")}
            header_dir=${header_dir:-$(dirname "$(clang-19 -print-file-name=include/omp.h)")}
            has_ompt=True ;;
        loom)
            lib_dir=${lib_dir:-$repo/build/$preset/src/omp}
            if [[ -z "$header_dir" ]]; then
                for d in "$lib_dir" "$repo/src/omp/include" "$repo/src/omp" "$repo/include"; do
                    if [[ -f "$d/omp.h" ]]; then header_dir=$d; break; fi
                done
            fi
            has_ompt=True ;;
        *) log "--runtime must be loom or libomp"; exit 2 ;;
    esac
    lib_dir=$(readlink -f "$lib_dir" 2>/dev/null || echo "$lib_dir")
    [[ -e "$lib_dir/libomp.so" ]] || { log "no libomp.so in '$lib_dir' (build loom first: cmake --build --preset $preset)"; exit 1; }
    [[ -n "$header_dir" && -f "$header_dir/omp.h" ]] || { log "no omp.h found for $runtime (use --header-dir)"; exit 1; }
    # A ThreadSanitizer-built loom (--preset tsan): the test programs are not
    # instrumented, so each run goes through a wrapper that preloads the TSan runtime
    # the library links (after a tool the test preloads itself), ignores the programs'
    # own calls into libc and fails on a report (lit.site.cfg.py.in, run_wrapper).
    tsan_so=$(ldd "$lib_dir/libomp.so" 2>/dev/null | awk '/libtsan/ {print $3; exit}')

    out=${out:-$repo/build/llvm-openmp-tests/$runtime}
    mkdir -p "$out"
    out=$(cd "$out" && pwd)
    rm -f "$out"/lit-*.json
    if [[ -n "$tsan_so" ]]; then
        log "runtime built with ThreadSanitizer: every run preloads $tsan_so"
        printf '%s\n' '#!/bin/sh' \
            "export LD_PRELOAD=\"$tsan_so\${LD_PRELOAD:+:\$LD_PRELOAD}\"" \
            "export TSAN_OPTIONS=\"ignore_noninstrumented_modules=1:allocator_may_return_null=1:suppressions=$repo/tests/omp/tsan.supp\"" \
            'exec "$@"' > "$out/run-sanitized.sh"
        chmod +x "$out/run-sanitized.sh"
        lit_extra=(--param "run_wrapper=$out/run-sanitized.sh" "${lit_extra[@]}")
    fi
    python3 "$helper" configure --template "$repo/tests/omp/lit/lit.site.cfg.py.in" \
        --out "$out/lit.site.cfg.py" \
        "CC=$cc" "CXX=$cxx" "COMPILER_FEATURES=$features" "FILECHECK=$filecheck" "NOT=$notbin" \
        "EXTRA_FLAGS=" "EXEC_ROOT=$out" "LIBRARY_DIR=$lib_dir" "HEADER_DIR=$header_dir" \
        "HAS_OMPT=$has_ompt" "SUITE_DIR=$suite_dir"
    log "runtime $runtime: $lib_dir/libomp.so, $header_dir/omp.h"

    # ---- which tests ------------------------------------------------------------------------
    esc() { printf '%s' "$1" | sed 's/[][\.*^$+?(){}|/]/\\&/g'; }
    filter="" folder_re=""
    if [[ ${#suites[@]} -gt 0 ]]; then
        alts=""
        for s in "${suites[@]}"; do alts+="${alts:+|}$(esc "$s")"; done
        filter="^libomp :: ($alts)/"
        folder_re="^($alts)/"
    fi
    sleepers=$(python3 "$helper" sleepers "$suite_dir")
    sleep_re=""
    for s in $sleepers; do sleep_re+="${sleep_re:+|}$(esc "$s")"; done
    sleep_re="^libomp :: ($sleep_re)\$"

    common=(-s --timeout "$timeout" --allow-empty-runs)
    [[ -n "$max_time" ]] && common+=(--max-time "$max_time")
    [[ -n "$jobs" ]] && common+=(-j "$jobs")
    run_lit() {  # name, extra args...
        local name=$1; shift
        # lit exits 1 when a test fails: the summary reports that.
        "$lit" "${common[@]}" -o "$out/lit-$name.json" "$@" "${lit_extra[@]}" "$out" || true
    }
    log "lit: OMP_NUM_THREADS=4 pass"
    if [[ -n "$filter" ]]; then
        run_lit main --filter "$filter" --filter-out "$sleep_re"
    else
        run_lit main --filter-out "$sleep_re"
    fi
    if [[ -z "$filter" ]] || grep -qE "$folder_re" <<<"$sleepers"; then
        log "lit: OMP_NUM_THREADS=8 pass (tasking tests that sleep)"
        if [[ -n "$filter" ]]; then
            # Both filters must hold: apply the folder filter to the sleeper list.
            sub=""
            for s in $sleepers; do
                if grep -qE "$folder_re" <<<"$s"; then sub+="${sub:+|}$(esc "$s")"; fi
            done
            run_lit sleep --param omp_num_threads=8 --filter "^libomp :: ($sub)\$"
        else
            run_lit sleep --param omp_num_threads=8 --filter "$sleep_re"
        fi
    fi

    # ---- summary ----------------------------------------------------------------------------
    sumargs=(--suite-dir "$suite_dir" --runtime "$runtime" --out "$out"
             --baseline "$repo/tests/omp/lit/libomp-baseline.txt")
    if [[ $write_baseline == 1 ]]; then
        [[ $runtime == libomp && ${#suites[@]} -eq 0 ]] ||
            { log "--write-baseline needs --runtime libomp and the whole suite"; exit 2; }
        sumargs+=(--write-baseline "$repo/tests/omp/lit/libomp-baseline.txt")
    fi
    [[ $fail_on_regression == 1 ]] && sumargs+=(--fail-on-regression)
    if [[ -n "$expected" ]]; then
        if [[ ! -f "$expected" ]]; then
            log "no expectations file '$expected': every failure counts as unexpected"
            expected=/dev/null
        fi
        sumargs+=(--expected "$expected")
    fi
    status=0
    python3 "$helper" summarize "${sumargs[@]}" "$out"/lit-*.json || status=$?
    log "done in $(( $(date +%s) - start )) s; results in $out"
    exit $status
}

main "$@"

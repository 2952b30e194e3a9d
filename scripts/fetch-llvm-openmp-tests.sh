#!/usr/bin/env bash
# Fetches LLVM's OpenMP runtime test suite (openmp/runtime/test) from Debian's
# llvm-toolchain-19 source package, the one that built the installed libomp, and
# extracts only that folder.
#
#   scripts/fetch-llvm-openmp-tests.sh [--force]
#
# Result: $CACHE/src/openmp/runtime/test (path printed on the last line).
# $CACHE is $LOOM_CACHE_DIR/llvm-openmp-tests, else <repo>/.cache/llvm-openmp-tests.
#
# deb-src is usually not configured. The script derives deb-src entries at run time
# from the machine's own apt entries (deb822 *.sources and one-line *.list) into a
# private apt configuration under $CACHE/apt; no archive address is kept anywhere in
# the repository, and the system's apt configuration is left untouched.
# The download (one large orig tarball) is cached: a second run only re-extracts if
# the extracted tree is missing, and does nothing at all if it is present.
set -euo pipefail

# Everything runs inside main(), so the whole script is read before any of it runs.
main() {

    here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
    repo=$(cd "$here/.." && pwd)
    if [[ -n "${LOOM_CACHE_DIR:-}" ]]; then
        cache="$LOOM_CACHE_DIR/llvm-openmp-tests"
    else
        cache="$repo/.cache/llvm-openmp-tests"
    fi
    force=0
    for arg in "$@"; do
        case "$arg" in
            --force) force=1 ;;
            -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
            *) echo "fetch-llvm-openmp-tests: unknown argument '$arg'" >&2; exit 2 ;;
        esac
    done

    srcpkg=llvm-toolchain-19
    # The source version of the installed runtime, so the tests match it exactly.
    want_version=$(dpkg-query -W -f='${source:Version}' libomp5-19 2>/dev/null || true)
    dest="$cache/src"
    stamp="$dest/.complete"
    # Bump when the set of extracted paths changes: a cached tree of an older layout is
    # extracted again (from the cached download).
    layout=2

    if [[ $force == 0 && -f "$stamp" ]] && grep -q " layout=$layout\$" "$stamp"; then
        echo "fetch-llvm-openmp-tests: cached ($(cat "$stamp"))" >&2
        echo "$dest/openmp/runtime/test"
        exit 0
    fi

    mkdir -p "$cache/download"
    log() { echo "fetch-llvm-openmp-tests: $*" >&2; }

    have_orig() { compgen -G "$cache/download/${srcpkg}_*.orig.tar.*" >/dev/null; }

    # ---- 1. download (skipped when the tarballs are cached) -----------------------------
    if [[ $force == 1 ]] || ! have_orig; then
        command -v apt-get >/dev/null || { log "apt-get not found: this needs a Debian-based machine"; exit 1; }
        apt="$cache/apt"
        rm -rf "$apt/sources.list.d"
        mkdir -p "$apt/sources.list.d" "$apt/lists/partial" "$apt/archives/partial"
        : > "$apt/sources.list"
        codename=$( . /etc/os-release 2>/dev/null; echo "${VERSION_CODENAME:-}" )

        # Keep only entries of this distribution release (suite == codename or codename-*):
        # third-party repositories rarely publish sources and would make 'update' fail.
        python3 "$here/deb_src.py" "$apt/sources.list.d/loom-deb-src.sources" "$codename"
        aptopts=(-o "Dir::Etc::SourceList=$apt/sources.list"
                 -o "Dir::Etc::SourceParts=$apt/sources.list.d"
                 -o "Dir::State::Lists=$apt/lists"
                 -o "Dir::Cache::Archives=$apt/archives"
                 -o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache="
                 -o "APT::Sandbox::User=root"
                 -o "Acquire::Languages=none")
        log "updating a private source index in $apt"
        apt-get "${aptopts[@]}" -q update >&2
        spec=$srcpkg
        # (Not `apt-cache | grep -q`: grep's early exit would fail the pipe under pipefail.)
        local versions
        versions=$(apt-cache "${aptopts[@]}" showsrc "$srcpkg" 2>/dev/null | sed -n 's/^Version: //p')
        if [[ -n "$want_version" ]] && grep -qxF "$want_version" <<<"$versions"; then
            spec="$srcpkg=$want_version"
        else
            log "warning: source version '${want_version:-?}' of the installed libomp is not in the index; taking the newest $srcpkg"
        fi
        log "downloading $spec (the orig tarball is large; it is cached in $cache/download)"
        (cd "$cache/download" && apt-get "${aptopts[@]}" -q source --download-only "$spec" >&2)
    fi
    have_orig || { log "no orig tarball was downloaded"; exit 1; }

    # ---- 2. extract only openmp/runtime/test -------------------------------------------
    dsc=$(ls -t "$cache/download/${srcpkg}"_*.dsc | head -n1)
    version=$(sed -n 's/^Version: //p' "$dsc" | head -n1)
    upstream=${version#*:}; upstream=${upstream%-*}
    orig=$(ls "$cache/download/${srcpkg}_${upstream}".orig.tar.* | head -n1)
    log "extracting openmp/runtime/test from $(basename "$orig")"
    rm -rf "$dest.tmp"
    mkdir -p "$dest.tmp"
    # The tarball has one top-level folder; keep only the test tree under openmp/runtime,
    # plus the one runtime header some tests include by relative path (kmp_platform.h).
    tar -xf "$orig" -C "$dest.tmp" --strip-components=1 --wildcards --no-anchored \
        '*/openmp/runtime/test/*' '*/openmp/runtime/src/kmp_platform.h'

    # Debian patches that touch the test tree are applied too, so the tree is the one that
    # matches the installed runtime.
    debtar=$(ls "$cache/download/${srcpkg}_${version#*:}".debian.tar.* 2>/dev/null | head -n1 || true)
    if [[ -n "$debtar" ]]; then
        mkdir -p "$dest.tmp/.debian"
        tar -xf "$debtar" -C "$dest.tmp/.debian"
        series="$dest.tmp/.debian/debian/patches/series"
        applied=0
        if [[ -f "$series" ]]; then
            while read -r p _; do
                [[ -z "$p" || "$p" == \#* ]] && continue
                pf="$dest.tmp/.debian/debian/patches/$p"
                [[ -f "$pf" ]] || continue
                if grep -qE '^\+\+\+ [^ ]*openmp/runtime/test/' "$pf"; then
                    # Only the hunks for the test tree: filterdiff is not always there, so
                    # let patch skip files that are absent (-f, -N) and keep quiet.
                    if (cd "$dest.tmp" && patch -p1 -N -f -s --no-backup-if-mismatch < "$pf" >/dev/null 2>&1); then
                        applied=$((applied + 1))
                    else
                        log "note: patch $p applies only partly (files outside the test tree)"
                        applied=$((applied + 1))
                    fi
                fi
            done < "$series"
        fi
        rm -rf "$dest.tmp/.debian"
        find "$dest.tmp" -name '*.rej' -delete -o -name '*.orig' -delete
        log "applied $applied Debian patch(es) touching the test tree"
    fi
    test -f "$dest.tmp/openmp/runtime/test/lit.cfg" || { log "extraction found no openmp/runtime/test/lit.cfg"; exit 1; }
    rm -rf "$dest"
    mv "$dest.tmp" "$dest"
    echo "$srcpkg $version layout=$layout" > "$stamp"
    log "ready: $(find "$dest/openmp/runtime/test" -name '*.c' -o -name '*.cpp' | wc -l) test sources"
    echo "$dest/openmp/runtime/test"
}

main "$@"

#!/usr/bin/env bash
# Fetches GCC's libgomp C, C++ and Fortran test suites (libgomp/testsuite/libgomp.c,
# libgomp.c++, libgomp.c-c++-common and libgomp.fortran) from Debian's gcc-12 source
# package, the one that built the installed libgomp1, and extracts only those four
# folders (and the one OpenACC file a Fortran test includes).
#
#   scripts/fetch-libgomp-tests.sh [--force]
#
# Result: $CACHE/src/libgomp/testsuite (path printed on the last line), holding
# libgomp.c/, libgomp.c++/, libgomp.c-c++-common/ and libgomp.fortran/ (and
# ../libgomp_g.h and ../../include/gomp-constants.h, which some tests include).
# $CACHE is $LOOM_CACHE_DIR/libgomp-tests, else <repo>/.cache/libgomp-tests (git-ignored).
#
# deb-src is usually not configured. As scripts/fetch-llvm-openmp-tests.sh does, the
# script derives deb-src entries at run time from the machine's own apt entries (deb822
# *.sources and one-line *.list) into a private apt configuration under $CACHE/apt; no
# archive address is kept in the repository and the system's apt setup is untouched.
# Debian's gcc-12 orig tarball (~85 MB) holds the gcc sources as a tarball of its own
# (gcc-12.2.0-dfsg.tar.xz); only that inner tarball is kept in the cache and only the
# four test folders are taken out of it. With the download cached nothing is downloaded
# again; with the tree extracted nothing is done. --force downloads and extracts again.
set -euo pipefail

# Everything runs inside main(), so the whole script is read before any of it runs.
main() {
    here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
    repo=$(cd "$here/.." && pwd)
    if [[ -n "${LOOM_CACHE_DIR:-}" ]]; then
        cache="$LOOM_CACHE_DIR/libgomp-tests"
    else
        cache="$repo/.cache/libgomp-tests"
    fi
    force=0
    for arg in "$@"; do
        case "$arg" in
            --force) force=1 ;;
            -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
            *) echo "fetch-libgomp-tests: unknown argument '$arg'" >&2; exit 2 ;;
        esac
    done
    log() { echo "fetch-libgomp-tests: $*" >&2; }

    srcpkg=gcc-12
    # The source version of the installed runtime, so the tests match it exactly.
    want_version=$(dpkg-query -W -f='${source:Version}' libgomp1 2>/dev/null || true)
    dest="$cache/src"
    stamp="$dest/.complete"
    layout=5
    t0=$(date +%s)

    if [[ $force == 0 && -f "$stamp" ]] && grep -q " layout=$layout\$" "$stamp"; then
        log "cached ($(cat "$stamp"))"
        echo "$dest/libgomp/testsuite"
        exit 0
    fi

    mkdir -p "$cache/download"
    inner_glob="$cache/download/gcc-*.tar.*"
    have_inner() { compgen -G "$inner_glob" >/dev/null; }

    # ---- 1. download (skipped when the inner gcc tarball is cached) -----------------------
    if [[ $force == 1 ]] || ! have_inner; then
        command -v apt-get >/dev/null || { log "apt-get not found: this needs a Debian-based machine"; exit 1; }
        apt="$cache/apt"
        rm -rf "$apt/sources.list.d"
        mkdir -p "$apt/sources.list.d" "$apt/lists/partial" "$apt/archives/partial"
        : > "$apt/sources.list"
        codename=$( . /etc/os-release 2>/dev/null; echo "${VERSION_CODENAME:-}" )
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
        local versions
        versions=$(apt-cache "${aptopts[@]}" showsrc "$srcpkg" 2>/dev/null | sed -n 's/^Version: //p')
        if [[ -n "$want_version" ]] && grep -qxF "$want_version" <<<"$versions"; then
            spec="$srcpkg=$want_version"
        else
            log "warning: source version '${want_version:-?}' of the installed libgomp1 is not in the index; taking the newest $srcpkg"
        fi
        dl="$cache/download/pkg"
        rm -rf "$dl"; mkdir -p "$dl"
        log "downloading $spec (the orig tarball is ~85 MB; only the gcc tarball inside it is cached)"
        (cd "$dl" && apt-get "${aptopts[@]}" -q source --download-only "$spec" >&2)
        orig=$(ls "$dl"/${srcpkg}_*.orig.tar.* 2>/dev/null | head -n1 || true)
        [[ -n "$orig" ]] || { log "no orig tarball was downloaded"; exit 1; }
        # The orig tarball holds the upstream sources as one inner tarball (gcc-*.tar.xz).
        inner=$(tar -tf "$orig" | grep -E '(^|/)gcc-[0-9][^/]*\.tar\.(xz|gz|bz2)$' | head -n1 || true)
        [[ -n "$inner" ]] || { log "no gcc-*.tar.* inside $(basename "$orig")"; exit 1; }
        log "keeping $(basename "$inner") from $(basename "$orig")"
        rm -f $inner_glob
        tar -xf "$orig" -C "$cache/download" --strip-components="$(awk -F/ '{print NF-1}' <<<"$inner")" "$inner"
        sed -n 's/^Version: //p' "$dl"/${srcpkg}_*.dsc | head -n1 > "$cache/download/version"
        rm -rf "$dl"
    fi
    have_inner || { log "no gcc tarball in $cache/download"; exit 1; }
    inner=$(ls $inner_glob | head -n1)
    version=$(cat "$cache/download/version" 2>/dev/null || echo "?")

    # ---- 2. extract only libgomp/testsuite/libgomp.c and libgomp.c-c++-common -----------
    # (libgomp/libgomp_g.h too: the GOMP_* prototypes a few tests include to call the
    # entry points by hand, found through -I libgomp as libgomp's DejaGnu driver does.)
    log "extracting libgomp.c, libgomp.c++, libgomp.c-c++-common and libgomp.fortran from $(basename "$inner")"
    rm -rf "$dest.tmp"
    mkdir -p "$dest.tmp"
    tar -xf "$inner" -C "$dest.tmp" --strip-components=1 --wildcards --no-anchored \
        '*/libgomp/testsuite/libgomp.c/*' '*/libgomp/testsuite/libgomp.c++/*' \
        '*/libgomp/testsuite/libgomp.c-c++-common/*' '*/libgomp/testsuite/libgomp.fortran/*' \
        '*/libgomp/testsuite/libgomp.oacc-fortran/pr90030.f90' '*/include/gomp-constants.h' \
        '*/libgomp/libgomp_g.h'
    [[ -d "$dest.tmp/libgomp/testsuite/libgomp.c" && -d "$dest.tmp/libgomp/testsuite/libgomp.c++" &&
       -d "$dest.tmp/libgomp/testsuite/libgomp.c-c++-common" &&
       -d "$dest.tmp/libgomp/testsuite/libgomp.fortran" ]] ||
        { log "extraction found no libgomp/testsuite/libgomp.c"; exit 1; }
    rm -rf "$dest"
    mv "$dest.tmp" "$dest"
    echo "$srcpkg $version layout=$layout" > "$stamp"
    log "ready in $(( $(date +%s) - t0 )) s: $(find "$dest/libgomp/testsuite" -name '*.c' | wc -l) C, $(find "$dest/libgomp/testsuite" -name '*.C' | wc -l) C++ and $(find "$dest/libgomp/testsuite/libgomp.fortran" -iname '*.f*' | wc -l) Fortran sources"
    echo "$dest/libgomp/testsuite"
}

main "$@"

#!/usr/bin/env bash
# THE main job (README.md): installs the dependencies, builds loom and the benchmarks
# (the `default` preset) and runs the benchmark comparison with tools/loom-bench, which
# writes results.json and a Markdown report with plots.
#
#   bash scripts/bench.sh            quick suite (--quick, under 15 minutes on 2 cores)
#   bash scripts/bench.sh --full     everything; any other arguments go to loom-bench
#   bash scripts/bench.sh --skip-deps ...   do not run scripts/setup-deps.sh
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"

args=() skip_deps=0 mode=--quick
for arg in "$@"; do
  case "$arg" in
    --skip-deps) skip_deps=1 ;;
    --full|--quick) mode="$arg" ;;
    *) args+=("$arg") ;;
  esac
done

((skip_deps)) || bash scripts/setup-deps.sh
# The venv first: configuring finds pytest and matplotlib in it (tests/python).
bash tools/loom-bench --setup
cmake --preset default
cmake --build --preset default

if [[ ! -f tools/loom-bench ]]; then
  echo "bench.sh: tools/loom-bench does not exist yet; loom is built in build/default" >&2
  exit 1
fi

stamp="$(mktemp)"
trap 'rm -f "$stamp"' EXIT
echo "==== tools/loom-bench $mode --build-dir build/default ${args[*]}"
rc=0
bash tools/loom-bench "$mode" --build-dir build/default "${args[@]}" || rc=$?

# Where the driver wrote its report this run (it prints it too).
echo
reports="$(find "$repo_root" \( -path "$repo_root/.git" -o -path "$repo_root/.venv" -o -path "$repo_root/.cache" \) -prune \
              -o -name report.md -newer "$stamp" -print 2>/dev/null || true)"
if [[ -n "$reports" ]]; then
  while IFS= read -r r; do
    echo "bench.sh: report: ${r#"$repo_root"/}"
  done <<<"$reports"
else
  echo "bench.sh: no report.md was written by this run"
fi
if ((rc != 0)); then
  echo "bench.sh: tools/loom-bench exited with status $rc" >&2
fi
exit "$rc"

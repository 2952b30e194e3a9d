"""Command line of loom-bench and the orchestration of one run.

`loom-bench` discovers the manifests, checks which variants can run, prints
the plan with an estimate, runs the cells within the time budget while
printing progress, then writes results.json and the report. The workloads
come only from the manifests; this module knows none of them.
"""

from __future__ import annotations

import argparse
import datetime
import os
import subprocess
import sys
import time
from pathlib import Path

from . import budget as budget_mod
from . import machine, manifest, plan, progress, report, results, runner, sim_cli, simreport
from .energy import POWERCAP_ROOT, EnergyMeter
from .results import FAILED, SKIPPED, CellResult, Document
from .systems import SYSTEMS

REPO = Path(__file__).resolve().parents[2]
# 10 minutes: scripts/bench.sh installs packages and builds everything (about 2 min
# of compiling on 2 cores) before this command starts, all inside the 15-minute promise.
QUICK_BUDGET_S = 600.0
DEFAULT_REPEATS = {"quick": 1, "full": 3}
# One recording run per system of each [simulate] manifest, and the simulations.
SIMULATE_ESTIMATE_S = 20.0


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="loom-bench",
        description="Run loom's benchmark suite against its peers and write "
                    "results.json plus a Markdown report with plots.",
        epilog="Manifest format and the result-line protocol: bench/manifest_format.md")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--quick", dest="mode", action="store_const", const="quick",
                      help="small parameter sets, time-budgeted (default)")
    mode.add_argument("--full", dest="mode", action="store_const", const="full",
                      help="every parameter of every manifest, no budget unless --budget")
    p.add_argument("--build-dir", type=Path, default=REPO / "build" / "default",
                   help="where binaries are (manifest paths are relative to it) "
                        "[%(default)s]")
    p.add_argument("--bench-root", type=Path, default=REPO / "bench",
                   help="directory whose */manifest.toml (and */manifest.*.toml) are the benchmarks [%(default)s]")
    p.add_argument("--loom-omp-dir", type=Path, default=None,
                   help="directory with loom's libomp.so.5 / libgomp.so.1 "
                        "[$LOOM_OMP_DIR or BUILD_DIR/src/omp]")
    p.add_argument("--only", action="append", default=[], metavar="NAME,...",
                   help="run only these benchmarks")
    p.add_argument("--systems", action="append", default=[], metavar="SYSTEM,...",
                   help=f"run only these systems ({', '.join(SYSTEMS)})")
    p.add_argument("--repeats", type=int, default=None,
                   help="runs per cell, medians are reported [quick 1, full 3]")
    p.add_argument("--out", type=Path, default=None,
                   help="output directory for results.json and report/ [REPO/results]")
    p.add_argument("--timeout", type=float, default=None,
                   help="seconds before a run is killed and marked FAILED "
                        "[manifest timeout_s, else quick 60, full 600]")
    p.add_argument("--budget", type=float, default=None,
                   help="wall-clock budget in seconds for the whole command (--build "
                        "included); cells beyond it are reported as skipped; 0 = none "
                        f"[quick {QUICK_BUDGET_S:.0f}, full none]")
    p.add_argument("--list", action="store_true", help="list benchmarks and variants, run nothing")
    p.add_argument("--report-only", type=Path, metavar="RESULTS_JSON",
                   help="redraw the report from an existing results.json")
    p.add_argument("--build", action="store_true",
                   help="first run `cmake --preset default && cmake --build --preset default`")
    p.add_argument("--strict", action="store_true",
                   help="exit with status 1 when any cell failed")
    p.add_argument("--powercap-root", type=Path, default=POWERCAP_ROOT, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    args.mode = args.mode or "quick"
    args.only = _split(args.only)
    args.systems = _split(args.systems)
    if args.repeats is not None and args.repeats < 1:
        p.error("--repeats must be at least 1")
    unknown = [s for s in args.systems if s not in SYSTEMS]
    if unknown:
        p.error(f"unknown system(s) {', '.join(unknown)}; known: {', '.join(SYSTEMS)}")
    return args


def main(argv: list[str] | None = None) -> int:
    started = time.monotonic()
    raw = list(sys.argv[1:] if argv is None else argv)
    if raw[:1] == ["simulate"]:
        return sim_cli.main(raw[1:])
    args = parse_args(argv)
    args.raw_argv = list(sys.argv[1:] if argv is None else argv)
    args.started = started
    if args.report_only:
        return _report_only(args)
    if args.build and not _build():
        return 2
    ctx = _context(args)
    manifests, broken = manifest.discover(args.bench_root)
    if args.only:
        missing = sorted(set(args.only) - {m.name for m in manifests})
        if missing:
            _err(f"no benchmark named {', '.join(missing)}; known: "
                 f"{', '.join(m.name for m in manifests) or 'none'}")
            return 2
        manifests = [m for m in manifests if m.name in args.only]
        broken = [b for b in broken if b.name in args.only]
    statuses = {m.name: {v.system: plan.variant_status(m, v, ctx) for v in m.variants}
                for m in manifests}
    allowed = set(args.systems) if args.systems else None
    if args.list:
        _print_list(manifests, broken, statuses, ctx, allowed)
        return 0
    return _run(args, ctx, manifests, broken, statuses, allowed)


def _run(args, ctx, manifests, broken, statuses, allowed) -> int:
    repeats = args.repeats or DEFAULT_REPEATS[ctx.mode]
    plans = [(m, plan.cells_for(m, ctx, allowed, statuses[m.name])) for m in manifests]
    total = sum(len(cells) for _, cells in plans)
    estimate = sum(plan.estimate_seconds(cells, repeats) for _, cells in plans)
    limit = _budget_seconds(args)
    spent = time.monotonic() - args.started
    _err(f"loom-bench: {ctx.mode} mode, {len(manifests)} benchmark(s), {total} cell(s) x "
         f"{repeats} repeat(s), estimated {progress.format_duration(estimate)}"
         + (f" (budget {progress.format_duration(limit)}, "
            f"{progress.format_duration(spent)} already spent)" if limit else ""))
    if limit and estimate > limit - spent:
        _err("loom-bench: the estimate exceeds the budget; cells that do not fit are "
             "reported as skipped (see the report)")
    _warn_unavailable(manifests, statuses, allowed)
    meter = EnergyMeter(args.powercap_root)
    keeper = budget_mod.Budget(limit, len(plans), start=args.started)
    bar = progress.Progress(total, estimate)
    cells: list[CellResult] = []
    start = time.monotonic()
    for _, bench_cells in plans:
        cells += _run_benchmark(bench_cells, repeats, meter, keeper, bar)
    simulations = []
    if any(m.simulate for m in manifests) and keeper.fits(SIMULATE_ESTIMATE_S):
        _err("loom-bench: recording task graphs for the simulator")
        simulations = simreport.record(manifests, statuses, ctx, args.out or REPO / "results",
                                       allowed, meter)
    doc = Document(
        mode=ctx.mode, created=datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        argv=args.raw_argv, config=_config(args, ctx, repeats, limit),
        machine=machine.describe(REPO, ctx.build_dir, ctx.loom_omp_dir, meter.available),
        benchmarks=[_bench_json(m, statuses[m.name], allowed) for m in manifests],
        broken_manifests=[{"path": str(b.path), "name": b.name, "error": b.error} for b in broken],
        cells=cells, elapsed_s=time.monotonic() - start, simulations=simulations)
    return _write_outputs(doc, args)


def _run_benchmark(cells: list[plan.Cell], repeats: int, meter: EnergyMeter,
                   keeper: budget_mod.Budget, bar: progress.Progress) -> list[CellResult]:
    """Run one benchmark's cells within its share of the budget."""
    keeper.begin_benchmark()
    out: list[CellResult] = []
    out_of_time = False
    for cell in cells:
        expected = cell.estimate_s * repeats
        out_of_time = out_of_time or not keeper.fits(expected)
        if out_of_time:
            reason = f"time budget of {keeper.total_s:.0f} s exhausted"
            bar.skip(cell.label(), "time budget", expected)
            out.append(_skipped(cell, reason))
            continue
        cell.timeout_s = keeper.cap_timeout(cell.timeout_s)
        bar.start(cell.label())
        result = runner.run_cell(cell, repeats, meter)
        if result.status == FAILED:
            bar.finish(f"FAILED: {result.reason}", expected, None)
        else:
            bar.finish("ok", expected, result.time_s)
        out.append(result)
    keeper.end_benchmark()
    return out


def _skipped(cell: plan.Cell, reason: str) -> CellResult:
    return CellResult(bench=cell.bench, system=cell.system, params=dict(cell.params),
                      threads=cell.threads, argv=list(cell.argv), env=dict(cell.env),
                      status=SKIPPED, reason=reason)


def _write_outputs(doc: Document, args) -> int:
    out = args.out or REPO / "results"
    results.save(doc, out / "results.json")
    path = report.write(doc, out / "report")
    failed = sum(1 for c in doc.cells if c.status == FAILED)
    print(f"results: {out / 'results.json'}")
    print(f"report:  {path}")
    if failed:
        _err(f"loom-bench: {failed} cell(s) FAILED; see the report's failure section")
    return 1 if failed and args.strict else 0


def _report_only(args) -> int:
    try:
        doc = results.load(args.report_only)
    except (OSError, ValueError) as exc:
        _err(f"loom-bench: cannot read {args.report_only}: {exc}")
        return 2
    out = args.out or args.report_only.parent
    print(f"report:  {report.write(doc, out / 'report')}")
    return 0


def _context(args) -> plan.Context:
    build_dir = args.build_dir.resolve()
    omp_dir = args.loom_omp_dir or (Path(os.environ["LOOM_OMP_DIR"])
                                    if os.environ.get("LOOM_OMP_DIR") else build_dir / "src" / "omp")
    return plan.Context(build_dir=build_dir, loom_omp_dir=omp_dir.resolve(), mode=args.mode,
                        cores=plan.available_cores(), timeout_s=args.timeout)


def _budget_seconds(args) -> float | None:
    if args.budget is not None:
        return args.budget or None
    return QUICK_BUDGET_S if args.mode == "quick" else None


def _config(args, ctx: plan.Context, repeats: int, limit: float | None) -> dict:
    return {"build_dir": str(ctx.build_dir), "bench_root": str(args.bench_root.resolve()),
            "loom_omp_dir": str(ctx.loom_omp_dir), "repeats": repeats, "budget_s": limit,
            "timeout_s": args.timeout, "only": args.only, "systems": args.systems,
            "cores": ctx.cores}


def _bench_json(m: manifest.Manifest, statuses: dict, allowed: set[str] | None) -> dict:
    variants = []
    for v in m.variants:
        st = statuses[v.system]
        variants.append({"system": v.system, "binary": st.binary, "unavailable": st.unavailable,
                         "excluded": allowed is not None and v.system not in allowed,
                         "libraries": st.libraries})
    return {"name": m.name, "title": m.title, "kind": m.kind, "metric": m.metric,
            "description": m.description, "reference": m.reference, "report": m.report,
            "path": _relative(m.path), "variants": variants}


def _print_list(manifests, broken, statuses, ctx: plan.Context, allowed) -> None:
    if not manifests and not broken:
        print("no benchmarks: no */manifest.toml under the bench root")
    for m in manifests:
        counts = []
        for mode in manifest.MODES:
            mctx = plan.Context(ctx.build_dir, ctx.loom_omp_dir, mode, ctx.cores, ctx.timeout_s)
            cells = plan.cells_for(m, mctx, allowed, statuses[m.name])
            est = plan.estimate_seconds(cells, DEFAULT_REPEATS[mode])
            counts.append(f"{mode}: {len(cells)} cells ~{progress.format_duration(est)}")
        print(f"{m.name} ({m.kind}) — {m.title}  [{_relative(m.path)}]")
        print(f"    {'; '.join(counts)}")
        for v in m.variants:
            st = statuses[m.name][v.system]
            state = st.unavailable and f"unavailable: {st.unavailable}" or "ok"
            if allowed is not None and v.system not in allowed:
                state = "not selected"
            print(f"    {v.system:<9} {st.binary}  {state}")
    for b in broken:
        print(f"BROKEN {_relative(b.path)}: {b.error}")


def _warn_unavailable(manifests, statuses, allowed) -> None:
    for m in manifests:
        for system, st in statuses[m.name].items():
            if st.unavailable and (allowed is None or system in allowed):
                _err(f"  {m.name} / {system}: unavailable: {st.unavailable}")


def _build() -> bool:
    """Configure and build loom and the benchmarks with the default preset."""
    for cmd in (["cmake", "--preset", "default"], ["cmake", "--build", "--preset", "default"]):
        _err("loom-bench: " + " ".join(cmd))
        if subprocess.run(cmd, cwd=REPO, stdout=sys.stderr, check=False).returncode != 0:
            _err(f"loom-bench: `{' '.join(cmd)}` failed")
            return False
    return True


def _relative(path: Path) -> str:
    try:
        return str(Path(path).resolve().relative_to(REPO))
    except ValueError:
        return str(path)


def _split(values: list[str]) -> list[str]:
    return [x.strip() for v in values for x in v.split(",") if x.strip()]


def _err(text: str) -> None:
    print(text, file=sys.stderr, flush=True)

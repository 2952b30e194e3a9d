"""`loom-bench simulate GRAPH...`: replay recorded task graphs in the simulator."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import gantt, simreport, taskgraph
from . import simulate as sim


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="loom-bench simulate",
        description="Replay task graphs recorded by a tile benchmark's --record-graph FILE "
                    "under loom's scheduling policies (a simulation; docs/simulator.md) and "
                    "print the makespan per policy next to the lower bounds.")
    p.add_argument("graphs", nargs="+", type=Path, metavar="GRAPH", help="recorded graph files")
    p.add_argument("--workers", default="16,64", metavar="N,...",
                   help="simulated worker counts [%(default)s]")
    p.add_argument("--overhead-us", type=float, default=0.5, help="cost added to every task [%(default)s]")
    p.add_argument("--steal-us", type=float, default=1.0, help="latency of a steal [%(default)s]")
    p.add_argument("--create-us", type=float, default=0.5,
                   help="time the creating thread spends per task [%(default)s]")
    p.add_argument("--victims", choices=sim.VICTIM_ORDERS, default="nearest",
                   help="victim order of a thief [%(default)s]")
    p.add_argument("--seed", type=int, default=1, help="seed of the random victim order [%(default)s]")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument("--gantt", type=Path, metavar="DIR",
                   help="also draw each graph's recorded run as DIR/<file>.png")
    args = p.parse_args(argv)
    try:
        args.workers = [int(w) for w in args.workers.split(",") if w.strip()]
    except ValueError:
        p.error(f"--workers {args.workers!r}: expected a comma-separated list of integers")
    if not args.workers or min(args.workers) < 1:
        p.error("--workers: every worker count must be at least 1")
    for name in ("overhead_us", "steal_us", "create_us"):
        if getattr(args, name) < 0:
            p.error(f"--{name.replace('_', '-')} must not be negative")
    return args


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    params = {"overhead_us": args.overhead_us, "steal_us": args.steal_us,
              "create_us": args.create_us, "victims": args.victims, "seed": args.seed}
    out = []
    for path in args.graphs:
        try:
            graph = taskgraph.load(path)
        except taskgraph.GraphError as exc:
            print(f"loom-bench simulate: {exc}", file=sys.stderr)
            return 2
        summary = simreport.summarize(graph, args.workers, **params)
        summary["file"] = str(path)
        out.append(summary)
        if args.gantt:
            gantt.draw(graph, args.gantt / (path.stem + ".png"), f"{graph.label()} (recorded)")
        if not args.json:
            _print(summary)
    if args.json:
        print(json.dumps(out, indent=1))
    return 0


def _print(s: dict) -> None:
    g = s["graph"]
    print(f"{s['file']}: {g.get('bench')} on {g.get('system')}, {g.get('nt')}x{g.get('nt')} "
          f"tiles, {s['tasks']} tasks, {s['edges']} edges (a simulation)")
    print(f"  critical path {s['critical_path_us']:.1f} us, total work {s['work_us']:.1f} us")
    head = f"  {'workers':>7} {'work/P us':>11}" + "".join(f" {q:>24}" for q in sim.POLICIES)
    print(head)
    for r in s["rows"]:
        cells = "".join(f" {r['makespan_us'][q]:>13.1f} ({r['ratio'][q]:.3f}x)" for q in sim.POLICIES)
        print(f"  {r['workers']:>7} {r['work_per_worker_us']:>11.1f}{cells}")
    print("  (makespan in us; ratio = makespan / max(critical path, work / workers))")

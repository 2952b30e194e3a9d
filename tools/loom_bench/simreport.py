"""The report's "Simulated at 16 and 64 workers" section.

For every manifest with a [simulate] table (the tile factorisations), the driver
runs each available system's binary once more with `--record-graph` at the
table's n and nb (no hints, one repetition, all cores), keeps the graph files
beside results.json, replays one of them (loom's own run when there is one) in
the scheduling simulator (simulate.py) at the listed worker counts under each
policy, and draws a Gantt chart of every system's recorded run (gantt.py).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from . import gantt, plan, runner
from . import simulate as sim
from . import taskgraph
from .results import Document

PREFERRED_SYSTEMS = ("loom-omp", "loom-gomp", "llvm-omp", "gnu-omp")


def summarize(graph: taskgraph.TaskGraph, workers: list[int], **params: Any) -> dict[str, Any]:
    """Makespan per policy and worker count next to the two lower bounds (all in us)."""
    cp, work = graph.critical_path_ns(), graph.total_work_ns()
    rows = []
    for p in workers:
        row: dict[str, Any] = {"workers": p, "work_per_worker_us": work / p / 1e3,
                               "makespan_us": {}, "ratio": {}, "high_tasks": {}}
        bound = max(cp, work / p)
        for policy in sim.POLICIES:
            res = sim.simulate(graph, sim.Params(p, policy, **params))
            row["makespan_us"][policy] = res.makespan_ns / 1e3
            row["ratio"][policy] = res.makespan_ns / bound if bound else None
            row["high_tasks"][policy] = res.high_tasks
        rows.append(row)
    defaults = sim.Params(1)
    used = {k: params.get(k, getattr(defaults, k))
            for k in ("overhead_us", "steal_us", "create_us", "victims", "seed")}
    return {"graph": {k: graph.meta.get(k) for k in ("bench", "system", "n", "nb", "nt",
                                                      "threads", "time_s")},
            "tasks": len(graph), "edges": len(graph.edges), "critical_path_us": cp / 1e3,
            "work_us": work / 1e3, "params": used, "rows": rows}


def record(manifests, statuses, ctx: plan.Context, out_dir: Path, allowed: set[str] | None,
           meter, timeout_s: float = 120.0) -> list[dict[str, Any]]:
    """Record and simulate the graph of every manifest with [simulate]."""
    entries = []
    for m in manifests:
        if not m.simulate:
            continue
        entry: dict[str, Any] = {"bench": m.name, "n": m.simulate["n"], "nb": m.simulate["nb"],
                                 "workers": m.simulate["workers"], "graphs": {}, "errors": {}}
        for v in m.variants:
            if statuses[m.name][v.system].unavailable or (allowed and v.system not in allowed):
                continue
            path = out_dir / "graphs" / f"{m.name}-{v.system}.json"
            error = _record_one(m, v, ctx, path, meter, timeout_s)
            if error:
                entry["errors"][v.system] = error
            else:
                entry["graphs"][v.system] = str(path)
        entry["simulation"] = _simulate_entry(entry)
        entries.append(entry)
    return entries


def _record_one(m, variant, ctx: plan.Context, path: Path, meter, timeout_s: float) -> str | None:
    point = {k: vals[0] for k, vals in m.params[ctx.mode].items() if k != "threads"}
    point.update(n=m.simulate["n"], nb=m.simulate["nb"], reps=1)
    point.update({k: False for k in ("priority", "critical_path") if k in point})
    # The same command line as a measured cell of that point, plus the recording.
    cell = plan._make_cell(m, variant, point, ctx.cores, ctx)
    path.parent.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ)
    env.update(cell.env)
    run = runner.run_once(cell.argv + ["--record-graph", str(path)], env, timeout_s, meter)
    if run.failure:
        return run.failure
    try:
        taskgraph.load(path)
    except taskgraph.GraphError as exc:
        return str(exc)
    return None


def _simulate_entry(entry: dict[str, Any]) -> dict[str, Any] | None:
    graphs = entry["graphs"]
    system = next((s for s in PREFERRED_SYSTEMS if s in graphs), next(iter(graphs), None))
    if system is None:
        return None
    return summarize(taskgraph.load(graphs[system]), entry["workers"])


def section(doc: Document, out_dir: Path) -> list[str]:
    """Markdown for the simulations in `doc` (nothing when there are none)."""
    if not doc.simulations:
        return []
    counts = sorted({p for e in doc.simulations for p in e.get("workers", [])})
    lines = [f"## Simulated at {' and '.join(str(c) for c in counts)} workers", "",
             "**A simulation, not a measurement.** Each benchmark's task graph was recorded "
             "in one run on this machine (task costs timed inside the tasks, edges from "
             "the tasks' dependences) and replayed by `loom-bench simulate` under loom's "
             "scheduling policies: per-worker LIFO deques with nearest-first FIFO "
             "stealing, the pool-wide high-priority queue by level, the starvation bound, "
             "no hints / priority(1) on the panel tasks / automatic critical-path priority "
             "(LOOM_CRITICAL_PATH). The lower bounds are the critical path (longest path "
             "by recorded costs) and total work / workers; *ratio* is makespan / the "
             "larger bound. docs/simulator.md describes the model.", ""]
    for e in doc.simulations:
        lines += _bench_lines(e, out_dir)
    return lines


def _bench_lines(e: dict[str, Any], out_dir: Path) -> list[str]:
    lines = [f"### {e['bench']} (n={e['n']}, nb={e['nb']})", ""]
    s = e.get("simulation")
    if s:
        g = s["graph"]
        p = s["params"]
        lines += [f"Graph recorded on `{g.get('system')}` at {g.get('threads')} threads: "
                  f"{g.get('nt')}x{g.get('nt')} tiles, {s['tasks']} tasks, {s['edges']} edges; "
                  f"critical path {_us(s['critical_path_us'])}, total work "
                  f"{_us(s['work_us'])}. Model: {p['overhead_us']} us per task, steal "
                  f"{p['steal_us']} us, creation {p['create_us']} us per task, "
                  f"{p['victims']} victims, seed {p['seed']}.", ""]
        head = ["workers", "critical path", "work / workers"]
        head += [f"{sim.POLICY_TITLES[q]} (ratio)" for q in sim.POLICIES]
        rows = []
        for r in s["rows"]:
            rows.append([str(r["workers"]), _us(s["critical_path_us"]),
                         _us(r["work_per_worker_us"])]
                        + [f"{_us(r['makespan_us'][q])} ({r['ratio'][q]:.3f})"
                           for q in sim.POLICIES])
        lines += ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
        lines += ["| " + " | ".join(row) + " |" for row in rows] + [""]
    else:
        lines += ["No graph could be recorded.", ""]
    for system, error in e.get("errors", {}).items():
        lines += [f"- recording on `{system}` failed: {error}"]
    if e.get("errors"):
        lines += [""]
    for system, path in e.get("graphs", {}).items():
        try:
            graph = taskgraph.load(path)
        except taskgraph.GraphError as exc:
            lines += [f"- {system}: {exc}", ""]
            continue
        png = gantt.draw(graph, out_dir / f"gantt-{e['bench']}-{system}.png",
                         f"{e['bench']} on {system}: {graph.meta.get('threads')} threads, "
                         f"{len(graph)} tasks, {graph.meta.get('time_s', 0) * 1e3:.1f} ms")
        if png:
            lines += [f"![Gantt chart of {e['bench']} on {system}]({png.name})", ""]
    return lines


def _us(value: float) -> str:
    return f"{value / 1e3:.2f} ms" if value >= 1000 else f"{value:.0f} us"

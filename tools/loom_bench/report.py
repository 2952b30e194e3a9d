"""report.md: the human-readable face of results.json.

The report is derived from the results document alone. It shows every
benchmark for every system the manifests name: measured cells in tables and
figures, and everything that did not produce a number (broken manifest,
unavailable system, failed or skipped cell) in "Failures and unavailable
systems" with its reason. Nothing a manifest registers is silently left out.
"""

from __future__ import annotations

import re
import shlex
from collections import defaultdict
from pathlib import Path
from typing import Any

from . import metg as metg_mod
from . import metrics, plots, simreport
from .manifest import FLOP_METRICS
from .results import FAILED, OK, SKIPPED, CellResult, Document
from .systems import SYSTEMS, reference_for

DETAILS_ROWS = 40     # longer tables fold into <details>
FENCE = "`" * 3


def write(doc: Document, out_dir: Path) -> Path:
    """Write report.md and its PNGs into out_dir; return report.md's path."""
    out_dir.mkdir(parents=True, exist_ok=True)
    for old in out_dir.glob("*.png"):
        old.unlink()
    lines = _header(doc) + _overview(doc)
    for bench in doc.benchmarks:
        cells = [c for c in doc.cells if c.bench == bench["name"]]
        lines += _benchmark_section(bench, cells, out_dir)
    lines += simreport.section(doc, out_dir)
    lines += _failures(doc) + _conventions()
    path = out_dir / "report.md"
    path.write_text("\n".join(lines) + "\n")
    return path


# --- header and overview -------------------------------------------------------------------

def _header(doc: Document) -> list[str]:
    m = doc.machine
    git = m.get("git") or {}
    compilers = ", ".join(f"{v}" for v in (m.get("compilers") or {}).values() if v) or "n/a"
    commit = (git.get("commit") or "unknown")[:12] + (" (dirty)" if git.get("dirty") else "")
    return [
        "# loom benchmark report", "",
        f"Mode **{doc.mode}**, run {doc.created}, took {doc.elapsed_s:.0f} s. "
        f"Raw data: `results.json`.", "",
        "| | |", "|---|---|",
        f"| CPU | {_cell(m.get('cpu_model'))} |",
        f"| cores (available / online) | {m.get('cores_available')} / {m.get('cores_online')} |",
        f"| kernel / OS | {_cell(m.get('kernel'))} / {_cell(m.get('os'))} |",
        f"| compilers | {_cell(compilers)} |",
        f"| loom OpenMP dir | `{m.get('loom_omp_dir')}` "
        f"({', '.join(m.get('loom_omp_libraries') or []) or 'no libraries'}) |",
        f"| peer runtimes | {_cell(_libraries(m.get('runtime_libraries') or {}))} |",
        f"| energy | {m.get('energy') or 'not available (no readable RAPL counters)'} |",
        f"| git commit | `{commit}` |", "",
    ]


def _libraries(libs: dict[str, Any]) -> str:
    return ", ".join(f"{k} → {v}" for k, v in libs.items() if v) or "none found"


def _overview(doc: Document) -> list[str]:
    systems = _systems_in(doc)
    lines = ["## Overview", "",
             "Cells measured per benchmark and system: `ok n/N`; anything else is explained "
             "under [Failures and unavailable systems](#failures-and-unavailable-systems).", "",
             "| benchmark | kind | " + " | ".join(systems) + " |",
             "|---|---|" + "---|" * len(systems)]
    for bench in doc.benchmarks:
        cells = [c for c in doc.cells if c.bench == bench["name"]]
        variants = {v["system"]: v for v in bench["variants"]}
        row = [_overview_cell(variants.get(s), [c for c in cells if c.system == s])
               for s in systems]
        lines.append(f"| [{bench['name']}](#{_anchor(bench['name'])}) | {bench['kind']} | "
                     + " | ".join(row) + " |")
    for broken in doc.broken_manifests:
        name = broken.get("name") or broken["path"]
        lines.append(f"| {name} | broken manifest | " + " | ".join("—" for _ in systems) + " |")
    return lines + [""]


def _overview_cell(variant: dict | None, cells: list[CellResult]) -> str:
    if variant is None:
        return "—"
    if variant.get("unavailable"):
        return "unavailable"
    if variant.get("excluded"):
        return "not selected"
    counts = defaultdict(int)
    for c in cells:
        counts[c.status] += 1
    parts = [f"ok {counts[OK]}/{len(cells)}"] if counts[OK] or not counts[FAILED] else []
    if counts[FAILED]:
        parts.append(f"**FAILED {counts[FAILED]}/{len(cells)}**")
    if counts[SKIPPED]:
        parts.append(f"skipped {counts[SKIPPED]}")
    return ", ".join(parts) if cells else "no cells"


def _systems_in(doc: Document) -> list[str]:
    present = {v["system"] for b in doc.benchmarks for v in b["variants"]}
    return [s for s in SYSTEMS if s in present] + sorted(present - set(SYSTEMS))


# --- one benchmark ---------------------------------------------------------------------------

def _benchmark_section(bench: dict, cells: list[CellResult], out_dir: Path) -> list[str]:
    lines = [f"## {bench['name']}", "", f"**{bench['title']}** — kind `{bench['kind']}`, "
             f"metric `{bench['metric']}`, manifest `{bench['path']}`.", ""]
    if bench.get("description"):
        lines += [bench["description"], ""]
    lines += _summary_table(bench, cells)
    figures = {
        "scaling": _scaling_figures, "metg": _metg_section, "sort_cutoff": _heatmap_section,
        "flops_bars": _bars_section,
    }.get(bench["kind"])
    if figures is not None:
        lines += figures(bench, cells, out_dir)
    return lines


def _available(bench: dict) -> set[str]:
    """Systems that could run (a failed reference still shows its cells as n/a).

    An unavailable reference (loom-gomp before loom's libgomp.so.1 exists) passes
    the comparison on to the next loom system in line, which the ratio names.
    """
    return {v["system"] for v in bench["variants"] if not v.get("unavailable")}


def _summary_table(bench: dict, cells: list[CellResult]) -> list[str]:
    if not cells:
        return ["No cells were run for this benchmark (see Failures).", ""]
    names = list(cells[0].params)
    present = _available(bench)
    index = metrics.by_key(cells)
    metric = bench["metric"]
    head = [*names, "T", "system", "median time", "vs loom", "CPU-s", "J"]
    if metric != "time":
        head.insert(len(names) + 4, metrics.metric_label(metric))
    # Composition benchmarks report the peak number of OS threads of the process.
    show_threads = any("peak_threads" in c.work for c in cells)
    if show_threads:
        head.append("OS threads")
    rows = []
    for c in cells:
        ref, ratio = metrics.ratio_to_reference(c, index, present, bench.get("reference"))
        row = [*(str(c.params.get(n)) for n in names), str(c.threads), c.system]
        if c.status != OK:
            row += [f"**{c.status.upper()}**", "", "", ""] + ([""] if metric != "time" else [])
            row += [""] if show_threads else []
        else:
            row += [metg_mod.format_seconds(c.time_s),
                    f"{ratio:.2f} ({ref})" if ratio is not None else ("—" if ref is None else "n/a")]
            if metric != "time":
                row.append(_metric_text(c, metric))
            row += [_num(c.cpu_s), _num(c.energy_j)]
            if show_threads:
                peak = c.work.get("peak_threads")
                row.append(str(int(peak)) if peak is not None else "")
        rows.append(row)
    table = _table(head, rows)
    if len(rows) > DETAILS_ROWS:
        table = ["<details><summary>Summary table "
                 f"({len(rows)} rows)</summary>", ""] + table + ["", "</details>"]
    note = ("*vs loom* = this system's median time / the loom reference's (same point and "
            "threads): above 1 means loom was faster.")
    return ["### Summary", "", note, ""] + table + [""]


def _metric_text(cell: CellResult, metric: str) -> str:
    """The metric's value; a FLOP metric of a cell that reports bytes instead (Task
    Bench's memory_bound) shows bytes/s at the same scale, labelled."""
    value = metrics.metric_value(cell, metric)
    if value is None and metric in FLOP_METRICS and "bytes" in cell.work and cell.time_s:
        scale = FLOP_METRICS[metric]
        prefix = {1.0: "", 1e3: "k", 1e6: "M", 1e9: "G"}[scale]
        return f"{cell.work['bytes'] / cell.time_s / scale:.3g} {prefix}B/s"
    return _num(value)


def _scaling_figures(bench: dict, cells: list[CellResult], out_dir: Path) -> list[str]:
    baseline = (bench.get("report") or {}).get("baseline", "serial")
    lines = ["### Speed-up", ""]
    if baseline == "self":
        lines += ["Each system against its own time at the smallest thread count "
                  "(`baseline = \"self\"`).", ""]
    series = metrics.speedups(cells, baseline)
    shown = _varying([dict(point) for point in series]) or None
    panels = [(_point_label(point, shown), s) for point, s in series.items()]
    png = plots.speedup_grid(panels, out_dir / f"{_slug(bench['name'])}-speedup.png",
                             f"{bench['title']}: speed-up")
    lines += [_image(png, "speed-up"), ""]
    lines += _metric_vs_threads(bench, cells, shown, out_dir)
    size = (bench.get("report") or {}).get("size")
    if size:
        lines += _metric_vs_size(bench, cells, size, out_dir)
    return lines


def _metric_vs_threads(bench: dict, cells: list[CellResult], shown: set[str] | None,
                       out_dir: Path) -> list[str]:
    """The metric itself per thread count: who is faster, which speed-ups hide."""
    metric = bench["metric"]
    series: dict[metrics.PointKey, dict[str, list[tuple[int, float]]]] = defaultdict(dict)
    for c in sorted(metrics.ok(cells), key=lambda c: c.threads):
        value = metrics.metric_value(c, metric)
        if value is not None and value > 0:
            series[metrics.point_key(c.params)].setdefault(c.system, []).append((c.threads, value))
    label = metrics.metric_label(metric)
    panels = [(_point_label(point, shown), s) for point, s in series.items()]
    png = plots.speedup_grid(panels, out_dir / f"{_slug(bench['name'])}-threads.png",
                             f"{bench['title']}: {label}", ylabel=label, ideal=False)
    better = "lower" if metric == "time" else "higher"
    return [f"### {label} over threads ({better} is better)", "", _image(png, label), ""]


def _metric_vs_size(bench: dict, cells: list[CellResult], size: str, out_dir: Path) -> list[str]:
    good = metrics.ok(cells)
    top = metrics.max_threads(good)
    metric = bench["metric"]
    series: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for c in good:
        value = metrics.metric_value(c, metric)
        if c.threads == top and value is not None and _is_number(c.params.get(size)):
            series[c.system].append((float(c.params[size]), value))
    png = plots.metric_vs_size(dict(series), out_dir / f"{_slug(bench['name'])}-{_slug(size)}.png",
                               f"{bench['title']}: {metrics.metric_label(metric)} at T={top}",
                               size, metrics.metric_label(metric))
    return [f"### {metrics.metric_label(metric)} over {size} (T={top})", "",
            _image(png, f"{metric} over {size}"), ""]


def _metg_section(bench: dict, cells: list[CellResult], out_dir: Path) -> list[str]:
    grain = bench["report"]["grain"]
    peak_by = bench["report"].get("peak_by")
    curves = metg_mod.from_cells(cells, grain, peak_by=peak_by)
    if not curves:
        return ["### METG", "", "No successful cells to compute METG from.", ""]
    systems = sorted({s for per in curves.values() for s in per})
    varying = _varying([dict(rest) for rest, _ in curves])
    if peak_by is None:
        peak = "each curve's efficiency is a share of its own largest grain's rate"
    else:
        by = ", ".join(f"`{k}`" for k in peak_by)
        peak = ("efficiency is a share of one peak per thread count" + (f" and {by}" if by else "")
                + ": the best rate any system reached at any grain in this run, so it never "
                  "exceeds 100 % and is comparable across systems")
    spreads = [m.spread for per in curves.values() for m in per.values() if m.spread is not None]
    lines = ["### METG(50 %)", "",
             f"Minimum effective task granularity per curve (grain parameter `{grain}`); "
             f"smaller is better; {peak}. In brackets: the range of the METG over "
             "replicates (replicate j uses the j-th timed sample of every grain)"
             + (f"; the widest range is {max(spreads) * 100:.0f} % of its METG" if spreads else "")
             + ". Definition under Conventions.", ""]
    rows, figures = [], []
    for n, ((rest, threads), per_system) in enumerate(sorted(curves.items(), key=str)):
        label = " ".join(f"{k}={v}" for k, v in rest if k in varying) + f" T={threads}"
        units = sorted({m.unit for m in per_system.values()})
        if units != ["FLOP/s"]:   # memory_bound: efficiency of bytes/s, say so
            label += f" [{' / '.join(units)}]"
        rows.append([label.strip()] + [per_system[s].text() if s in per_system else "—"
                                       for s in systems])
        png = plots.metg_curves(per_system, out_dir / f"{_slug(bench['name'])}-metg-{n}.png",
                                f"{bench['title']}: efficiency, {label.strip()}")
        figures += [f"#### Efficiency: {label.strip()}", "", _image(png, "METG curve"), ""]
    return lines + _table(["curve", *systems], rows) + [""] + figures


def _heatmap_section(bench: dict, cells: list[CellResult], out_dir: Path) -> list[str]:
    cutoff = bench["report"]["cutoff"]
    good = metrics.ok(cells)
    present = _available(bench)
    index = metrics.by_key(good)
    lines = ["### Time ratio runtime / loom over threads x cut-off", "",
             "Each square: peer's median time / loom's at the same threads and cut-off "
             "(green above 1: loom faster).", ""]
    groups = defaultdict(list)
    for c in good:
        groups[tuple((k, v) for k, v in c.params.items() if k != cutoff)].append(c)
    for n, (rest, group) in enumerate(sorted(groups.items(), key=str)):
        threads = sorted({c.threads for c in group})
        cuts = sorted({c.params[cutoff] for c in group}, key=_sort_key)
        grids = {}
        for peer in sorted({c.system for c in group}):
            ref = reference_for(peer, present, bench.get("reference"))
            if ref is None:
                continue
            grids[f"{peer} / {ref}"] = [[_ratio(index, peer, ref, group[0].params, cutoff, cut, t)
                                         for cut in cuts] for t in threads]
        title = f"{bench['title']}: time ratio " + " ".join(f"{k}={v}" for k, v in rest)
        png = plots.ratio_heatmaps(grids, threads, cuts,
                                   out_dir / f"{_slug(bench['name'])}-heatmap-{n}.png",
                                   title.strip(), "threads", cutoff)
        lines += [_image(png, "time ratio heat map"), ""]
    return lines


def _ratio(index: dict, peer: str, ref: str, template: dict, cutoff: str, cut: Any,
           threads: int) -> float | None:
    """time(peer) / time(ref) at one cut-off and thread count, or None if either is missing."""
    key = metrics.point_key({k: (cut if k == cutoff else v) for k, v in template.items()})
    a, b = index.get((peer, key, threads)), index.get((ref, key, threads))
    if a is None or b is None or not b.time_s:
        return None
    return a.time_s / b.time_s


def _bars_section(bench: dict, cells: list[CellResult], out_dir: Path) -> list[str]:
    good = metrics.ok(cells)
    if not good:
        return ["### Bars", "", "No successful cells to plot.", ""]
    top = metrics.max_threads(good)
    at_top = [c for c in good if c.threads == top]
    # Without `group`: the parameters that differ between bars (not reps and sizes
    # every bar shares), or all of them when only one group exists.
    group = bench["report"].get("group") or (
        [k for k in good[0].params if k in _varying([c.params for c in at_top])]
        or list(good[0].params))
    categories = sorted({_group_label(c, group) for c in at_top}, key=str)
    systems = sorted({c.system for c in at_top})
    value = {(c.system, _group_label(c, group)): c for c in at_top}

    def column(fn):
        return {s: [fn(value[(s, k)]) if (s, k) in value else None for k in categories]
                for s in systems}

    metric = bench["metric"]
    panels = [(metrics.metric_label(metric), column(lambda c: metrics.metric_value(c, metric))),
              ("CPU-seconds", column(lambda c: c.cpu_s))]
    if any(c.energy_j is not None for c in at_top):
        panels.append(("energy [J]", column(lambda c: c.energy_j)))
    png = plots.grouped_bars(categories, panels, out_dir / f"{_slug(bench['name'])}-bars.png",
                             f"{bench['title']} at T={top}")
    return [f"### {metrics.metric_label(metric)}, CPU-seconds and energy at T={top}", "",
            _image(png, "bars"), ""]


def _group_label(cell: CellResult, group: list[str]) -> str:
    return " ".join(f"{k}={cell.params.get(k)}" for k in group) or "all"


# --- failures --------------------------------------------------------------------------------

def _failures(doc: Document) -> list[str]:
    lines = ["## Failures and unavailable systems", ""]
    empty = True
    for broken in doc.broken_manifests:
        empty = False
        lines.append(f"- **broken manifest** `{broken['path']}`: {_inline(broken['error'])}")
    for bench in doc.benchmarks:
        for v in bench["variants"]:
            if v.get("unavailable"):
                empty = False
                lines.append(f"- {bench['name']} / **{v['system']}**: unavailable: "
                             f"{_inline(v['unavailable'])}")
    lines += [""] if not empty else []
    failed = defaultdict(list)
    for c in doc.cells:
        if c.status == FAILED:
            failed[(c.bench, c.system, c.reason)].append(c)
    for (bench, system, reason), group in failed.items():
        first = group[0]
        lines += [f"### FAILED: {bench} / {system} ({len(group)} cell(s))", "",
                  f"Reason: {_inline(reason or '?')}", "",
                  "Cells: " + ", ".join(f"`{_inline(c.label())}`" for c in group), "",
                  f"Command (first cell): `{_inline(_command(first))}`", ""]
        if first.stderr_tail:
            lines += ["stderr (tail, first cell):", "", FENCE,
                      first.stderr_tail.replace(FENCE, "'''"), FENCE, ""]
    skipped = defaultdict(list)
    for c in doc.cells:
        if c.status == SKIPPED:
            skipped[(c.bench, c.system, c.reason)].append(c)
    for (bench, system, reason), group in skipped.items():
        lines.append(f"- {bench} / {system}: {len(group)} cell(s) skipped: {_inline(reason or '')}")
    if failed or skipped:
        empty = False
    notes = [(c, n) for c in doc.cells for n in c.notes]
    if notes:
        lines += ["", "Notes:", ""] + [f"- {c.label()}: {_inline(n)}" for c, n in notes]
    if empty:
        lines.append("None: every registered benchmark ran on every registered system.")
    return lines + [""]


def _conventions() -> list[str]:
    return [
        "## Conventions", "",
        "- *median time*: median of every sample the binary reported (`times_s`) over all "
        "repeats of the cell.",
        "- *CPU-s*: user + system CPU-seconds of the benchmark process (median over repeats); "
        "*J*: package energy from RAPL over the process lifetime (n/a where unreadable).",
        "- *speed-up*: against the `serial` variant at the same point when the benchmark has "
        "one (and the manifest does not say `baseline = \"self\"`), otherwise against the "
        "same system's smallest thread count.",
        "- *METG(50 %)* (Task Bench): peak FLOP/s = the best any system reached at any grain "
        "with the same threads and kernel (the manifest's `peak_by`; without it, each curve's "
        "largest grain, as Task Bench does); efficiency = FLOP/s "
        "/ peak (bytes/s for kernels that report `work.bytes` instead of FLOPs, such as "
        "memory_bound; such curves are marked [bytes/s]); granularity = wall time x threads / tasks; METG = granularity where "
        "efficiency crosses 50 %, linearly interpolated between the two neighbouring grains "
        "(Task Bench's convention). `< smallest measured`: efficiency never fell below 50 %; "
        "`not reached`: never reached 50 %.",
        "",
    ]


# --- helpers ---------------------------------------------------------------------------------

def _command(cell: CellResult) -> str:
    """The cell's command line with the environment it set, ready to paste."""
    env = " ".join(f"{k}={shlex.quote(v)}" for k, v in cell.env.items())
    return (env + " " if env else "") + shlex.join(cell.argv)


def _table(head: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(_cell(h) for h in head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(_cell(v) for v in row) + " |" for row in rows]
    return out


def _image(png: Path | None, alt: str) -> str:
    return f"![{alt}]({png.name})" if png else "*(not enough data to plot)*"


def _varying(points: list[dict]) -> set[str]:
    keys = {k for p in points for k in p}
    return {k for k in keys if len({str(p.get(k)) for p in points}) > 1}


def _point_label(point: metrics.PointKey, shown: set[str] | None = None) -> str:
    """k=v for the parameters in `shown` (all when None)."""
    return " ".join(f"{k}={v}" for k, v in point if shown is None or k in shown)


def _num(value: float | None) -> str:
    """3 significant digits; k, M, G, T for thousands and up (no exponents)."""
    if value is None:
        return "n/a"
    for scale, suffix in ((1e12, " T"), (1e9, " G"), (1e6, " M"), (1e3, " k")):
        if abs(value) >= scale:
            return f"{value / scale:.3g}{suffix}"
    return f"{value:.3g}"


def _cell(value: Any) -> str:
    return _inline(str(value if value is not None else "n/a")).replace("|", "\\|")


def _inline(text: str) -> str:
    return " ".join(str(text).split())


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text)


def _anchor(text: str) -> str:
    return re.sub(r"[^a-z0-9_ -]", "", text.lower()).replace(" ", "-")


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _sort_key(value: Any) -> tuple:
    return (0, value, "") if _is_number(value) else (1, 0, str(value))

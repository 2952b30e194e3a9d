"""PNG figures for the report (matplotlib, headless Agg backend).

Each function takes already-derived numbers, draws one figure and returns the
file it wrote, or None when there is nothing to draw. Every series is drawn
with markers, so a single measured point still shows up as a dot; missing
values are left out (or shown as "n/a") instead of breaking the figure.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Sequence

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)
from matplotlib.colors import LogNorm  # noqa: E402

from .metg import Metg  # noqa: E402

SYSTEM_COLORS = {
    "loom": "#d62728", "loom-omp": "#ff7f0e", "loom-gomp": "#bcbd22", "llvm-omp": "#1f77b4",
    "gnu-omp": "#2ca02c", "tbb": "#9467bd", "threads": "#8c564b", "serial": "#7f7f7f",
    "mpi": "#e377c2", "mpi-llvm-omp": "#aec7e8", "mpi-gnu-omp": "#393b79",
}
DPI = 110


def color(system: str) -> str:
    return SYSTEM_COLORS.get(system, "#17becf")


def speedup_grid(panels: list[tuple[str, dict[str, list[tuple[int, float]]]]], path: Path,
                 title: str, ylabel: str = "speed-up", ideal: bool = True) -> Path | None:
    """Speed-up vs threads, one panel per parameter point, one line per system.

    With ideal=False any per-thread value (the metric itself, log scale)."""
    panels = [(name, series) for name, series in panels if any(series.values())]
    if not panels:
        return None
    fig, axes = _grid(len(panels))
    for ax, (name, series) in zip(axes, panels):
        threads = {1}
        for system, points in sorted(series.items()):
            xs, ys = zip(*points)
            ax.plot(xs, ys, marker="o", label=system, color=color(system))
            threads.update(xs)
        top = max(threads)
        if ideal:
            ax.plot([1, top], [1, top], linestyle=":", color="black", linewidth=0.8, label="ideal")
        else:
            ax.set_yscale("log")
        ax.set_xticks(sorted(threads))
        ax.set_title(name or "all", fontsize=9)
        ax.set_xlabel("threads")
        ax.set_ylabel(ylabel)
        ax.grid(alpha=0.3)
    # Above the ideal line is where curves rarely go: the legend hides least there.
    axes[0].legend(fontsize=7, loc="upper left" if ideal else "best")
    return _save(fig, path, title)


def metric_vs_size(series: dict[str, list[tuple[float, float]]], path: Path, title: str,
                   xlabel: str, ylabel: str) -> Path | None:
    """Metric over problem size (log x), one line per system/thread count."""
    series = {k: sorted(v) for k, v in series.items() if v}
    if not series:
        return None
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for name, points in sorted(series.items()):
        xs, ys = zip(*points)
        ax.plot(xs, ys, marker="o", label=name, color=color(name.split(" ")[0]))
    if all(x > 0 for pts in series.values() for x, _ in pts):
        ax.set_xscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    return _save(fig, path, title)


def metg_curves(curves: dict[str, Metg], path: Path, title: str,
                threshold: float = 0.5) -> Path | None:
    """Efficiency vs task granularity (log x) per system, METG marked."""
    curves = {s: m for s, m in curves.items() if m.curve}
    if not curves:
        return None
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for system, result in sorted(curves.items()):
        xs = [c.granularity_s * 1e6 for c in result.curve]
        ys = [c.efficiency * 100 for c in result.curve]
        ax.plot(xs, ys, marker="o", label=f"{system}: {result.text()}", color=color(system))
        if result.status == "ok" and result.value_s:
            ax.axvline(result.value_s * 1e6, color=color(system), linestyle="--", linewidth=0.8)
    ax.axhline(threshold * 100, color="red", linestyle="--", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_xlabel("task granularity [µs]  (wall time x cores / tasks)")
    units = sorted({m.unit for m in curves.values()})
    ax.set_ylabel(f"efficiency [% of peak {' / '.join(units)}]")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    return _save(fig, path, title)


def ratio_heatmaps(grids: dict[str, list[list[float | None]]], rows: Sequence[Any],
                   cols: Sequence[Any], path: Path, title: str, row_label: str,
                   col_label: str) -> Path | None:
    """One heat map per peer: time(peer) / time(loom) over rows x cols (>1: loom faster)."""
    grids = {k: g for k, g in grids.items() if any(v is not None for row in g for v in row)}
    if not grids or not rows or not cols:
        return None
    values = [v for g in grids.values() for row in g for v in row if v is not None and v > 0]
    spread = max([abs(math.log10(v)) for v in values] + [0.05])
    norm = LogNorm(vmin=10 ** -spread, vmax=10 ** spread)
    fig, axes = _grid(len(grids), width=4.2, height=3.2)
    for ax, (peer, grid) in zip(axes, sorted(grids.items())):
        data = [[math.nan if v is None or v <= 0 else v for v in row] for row in grid]
        image = ax.imshow(data, cmap="RdYlGn", norm=norm, aspect="auto", origin="lower")
        for i, row in enumerate(grid):
            for j, v in enumerate(row):
                ax.text(j, i, "n/a" if v is None else f"{v:.2f}", ha="center", va="center",
                        fontsize=8)
        ax.set_xticks(range(len(cols)), [str(c) for c in cols], fontsize=8)
        ax.set_yticks(range(len(rows)), [str(r) for r in rows], fontsize=8)
        ax.set_xlabel(col_label)
        ax.set_ylabel(row_label)
        ax.set_title(peer, fontsize=9)
        bar = fig.colorbar(image, ax=ax, shrink=0.8)
        bar.ax.minorticks_off()
        bar.set_ticks([norm.vmin, 1.0, norm.vmax])
        bar.set_ticklabels([f"{norm.vmin:.2g}", "1", f"{norm.vmax:.2g}"])
    return _save(fig, path, title)


def grouped_bars(categories: list[str], panels: list[tuple[str, dict[str, list[float | None]]]],
                 path: Path, title: str) -> Path | None:
    """Side-by-side panels of grouped bars: categories on x, one bar per system."""
    panels = [(label, data) for label, data in panels
              if any(v is not None for vs in data.values() for v in vs)]
    if not categories or not panels:
        return None
    fig, axes = plt.subplots(1, len(panels), figsize=(5.2 * len(panels), 4.0), squeeze=False)
    for ax, (label, data) in zip(axes[0], panels):
        systems = sorted(data)
        width = 0.8 / max(1, len(systems))
        for k, system in enumerate(systems):
            xs = [i + (k - (len(systems) - 1) / 2) * width for i in range(len(categories))]
            heights = [v if v is not None else 0.0 for v in data[system]]
            bars = ax.bar(xs, heights, width=width, label=system, color=color(system))
            for bar, v in zip(bars, data[system]):
                if v is None:
                    ax.annotate("n/a", (bar.get_x() + bar.get_width() / 2, 0), ha="center",
                                va="bottom", fontsize=7)
        ax.set_xticks(range(len(categories)), categories, rotation=20, ha="right", fontsize=8)
        ax.set_ylabel(label)
        ax.grid(axis="y", alpha=0.3)
        ax.set_ylim(top=ax.get_ylim()[1] * 1.18)   # headroom for the legend row
    axes[0][0].legend(fontsize=7, loc="upper center", ncol=len(axes[0][0].get_legend_handles_labels()[1]),
                      frameon=False)
    return _save(fig, path, title)


def _grid(n: int, width: float = 4.0, height: float = 3.2):
    cols = min(3, n)
    rows = math.ceil(n / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(width * cols, height * rows), squeeze=False)
    flat = [ax for row in axes for ax in row]
    for ax in flat[n:]:
        ax.set_visible(False)
    return fig, flat[:n]


def _save(fig, path: Path, title: str) -> Path:
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=DPI)
    plt.close(fig)
    return path

"""Gantt charts of one run: one row per OpenMP thread, one bar per task.

Drawn from a recorded task graph (taskgraph.py): the benchmark itself stamps each
task with omp_get_thread_num() and steady-clock start/end inside the task, so the
chart means the same for every runtime and needs no tool interface.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)

from .taskgraph import TaskGraph  # noqa: E402

KIND_COLORS = ["#d62728", "#ff7f0e", "#1f77b4", "#2ca02c", "#9467bd", "#8c564b",
               "#e377c2", "#7f7f7f"]
DPI = 110


def draw(graph: TaskGraph, path: Path, title: str) -> Path | None:
    """One PNG: tasks as bars on their thread's row, coloured by kind; None if empty."""
    tasks = [t for t in graph.tasks if t.thread >= 0]
    if not tasks:
        return None
    kinds = list(dict.fromkeys(t.kind for t in graph.tasks))
    colors = {k: KIND_COLORS[i % len(KIND_COLORS)] for i, k in enumerate(kinds)}
    threads = max(t.thread for t in tasks) + 1
    t0 = min(t.start_ns for t in tasks)
    fig, ax = plt.subplots(figsize=(9, 1.2 + 0.35 * min(threads, 32)))
    for kind in kinds:
        bars = [((t.start_ns - t0) / 1e6, t.cost_ns / 1e6) for t in tasks if t.kind == kind]
        rows = [t.thread for t in tasks if t.kind == kind]
        for row in sorted(set(rows)):
            ax.broken_barh([b for b, r in zip(bars, rows) if r == row], (row - 0.4, 0.8),
                           facecolors=colors[kind], edgecolor="none")
        ax.plot([], [], color=colors[kind], linewidth=6, label=kind)
    ax.set_yticks(range(threads))
    ax.set_ylim(-0.6, threads - 0.4)
    ax.invert_yaxis()
    ax.set_xlabel("ms since the factorisation started")
    ax.set_ylabel("thread")
    ax.set_title(title, fontsize=10)
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8, frameon=False)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=DPI)
    plt.close(fig)
    return path

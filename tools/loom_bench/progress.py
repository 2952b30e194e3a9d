"""Progress lines on stderr while the suite runs.

One line per cell, `[12/80] sort cutoff=1000 llvm-omp T=2 ... 0.41 s (ok)  ETA 3m10s`:
the prefix is written before the cell starts (so a slow cell shows what is
running) and the outcome completes the line. The ETA scales the remaining
manifest estimates by how far off the estimates have been so far.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

from .metg import format_seconds


class Progress:
    """Prints the per-cell progress line and keeps the ETA honest."""

    def __init__(self, total: int, estimate_s: float, stream: TextIO | None = None):
        self.total = total
        self.remaining_estimate_s = estimate_s
        self.done = 0
        self.estimated_done_s = 0.0
        self.actual_done_s = 0.0
        self.stream = stream or sys.stderr
        self._started = 0.0

    def start(self, label: str) -> None:
        self.done += 1
        self._started = time.perf_counter()
        self._write(f"[{self.done}/{self.total}] {label} ... ")

    def finish(self, outcome: str, estimate_s: float, shown_s: float | None) -> None:
        """Complete the current line; `shown_s` is the measurement to display."""
        spent = time.perf_counter() - self._started
        self.estimated_done_s += estimate_s
        self.actual_done_s += spent
        self.remaining_estimate_s = max(0.0, self.remaining_estimate_s - estimate_s)
        shown = f"{format_seconds(shown_s)} " if shown_s is not None else ""
        self._write(f"{shown}({outcome})  ETA {format_duration(self.eta_s())}\n")

    def skip(self, label: str, reason: str, estimate_s: float) -> None:
        self.done += 1
        self.remaining_estimate_s = max(0.0, self.remaining_estimate_s - estimate_s)
        self._write(f"[{self.done}/{self.total}] {label} ... skipped ({reason})\n")

    def eta_s(self) -> float:
        """Remaining estimate corrected by the observed actual/estimated ratio."""
        if self.estimated_done_s <= 0:
            return self.remaining_estimate_s
        ratio = min(10.0, max(0.1, self.actual_done_s / self.estimated_done_s))
        return self.remaining_estimate_s * ratio

    def _write(self, text: str) -> None:
        self.stream.write(text)
        self.stream.flush()


def format_duration(seconds: float) -> str:
    """`3m10s`, `1h02m`, `45s`: short enough for a progress line."""
    seconds = max(0, int(round(seconds)))
    if seconds >= 3600:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    if seconds >= 60:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds}s"

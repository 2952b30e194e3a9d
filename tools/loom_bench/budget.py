"""The time budget that keeps `--quick` within its promise.

The quick suite must finish in 15 minutes on 2 cores however many benchmarks
register themselves. Each benchmark gets a fair share of what is left when it
starts (remaining budget / benchmarks still to run), so an expensive early
benchmark cannot starve the later ones; a benchmark that needs less leaves its
rest to the others. The first cell that does not fit its share ends that
benchmark: its remaining cells are recorded as skipped, never dropped.
"""

from __future__ import annotations

import time


class Budget:
    """Wall-clock budget for the whole run (None: unlimited)."""

    def __init__(self, total_s: float | None, benchmarks: int, start: float | None = None):
        """`start` (time.monotonic) lets the budget include work done before the
        cells, such as --build, so the whole command keeps its promise."""
        self.total_s = total_s
        self.benchmarks_left = max(1, benchmarks)
        self.start = time.monotonic() if start is None else start
        self._bench_start = self.start
        self._bench_share_s: float | None = None

    def elapsed_s(self) -> float:
        return time.monotonic() - self.start

    def remaining_s(self) -> float | None:
        return None if self.total_s is None else max(0.0, self.total_s - self.elapsed_s())

    def begin_benchmark(self) -> None:
        """Open a benchmark's share of the remaining budget."""
        self._bench_start = time.monotonic()
        remaining = self.remaining_s()
        self._bench_share_s = None if remaining is None else remaining / self.benchmarks_left

    def end_benchmark(self) -> None:
        self.benchmarks_left = max(1, self.benchmarks_left - 1)

    def fits(self, expected_s: float) -> bool:
        """Whether a cell expected to take `expected_s` still fits this benchmark's share."""
        if self._bench_share_s is None:
            return True
        spent = time.monotonic() - self._bench_start
        return spent + expected_s <= self._bench_share_s

    def cap_timeout(self, timeout_s: float, floor_s: float = 10.0) -> float:
        """A cell may not run far past the whole budget, whatever its timeout."""
        remaining = self.remaining_s()
        return timeout_s if remaining is None else min(timeout_s, max(floor_s, remaining))

"""Derived numbers: metric values, ratios to loom, speed-ups.

All of them are computed from medians (CellResult.time_s), never from single
samples, and all take the cell list of one benchmark so that the report and
the plots agree on every number.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Iterable

from .manifest import FLOP_METRICS
from .results import OK, CellResult
from .systems import reference_for

PointKey = tuple[tuple[str, Any], ...]


def point_key(params: dict[str, Any]) -> PointKey:
    """Hashable form of a parameter point, in the manifest's order."""
    return tuple(params.items())


def ok(cells: Iterable[CellResult]) -> list[CellResult]:
    return [c for c in cells if c.status == OK and c.time_s is not None]


def metric_value(cell: CellResult, metric: str) -> float | None:
    """The cell's value of a manifest metric (see manifest_format.md)."""
    if cell.time_s is None:
        return None
    if metric == "time":
        return cell.time_s
    key, scale = ("flops", FLOP_METRICS[metric]) if metric in FLOP_METRICS else (metric[:-2], 1.0)
    amount = cell.work.get(key)
    if amount is None or cell.time_s <= 0:
        return None
    return amount / cell.time_s / scale


def metric_label(metric: str) -> str:
    if metric == "time":
        return "time [s]"
    if metric in FLOP_METRICS:
        return {"flops": "FLOP/s", "kflops": "kFLOP/s", "mflops": "MFLOP/s",
                "gflops": "GFLOP/s"}[metric]
    return metric


def by_key(cells: Iterable[CellResult]) -> dict[tuple, CellResult]:
    """(system, point, threads) -> cell, for looking up peers of a cell."""
    return {(c.system, point_key(c.params), c.threads): c for c in cells}


def ratio_to_reference(cell: CellResult, index: dict[tuple, CellResult], systems: set[str],
                       override: str | None = None) -> tuple[str | None, float | None]:
    """(reference system, time / reference time) for the same point and threads.

    A ratio above 1 means loom was faster than this peer.
    """
    ref = reference_for(cell.system, systems, override)
    if ref is None:
        return None, None
    other = index.get((ref, point_key(cell.params), cell.threads))
    if other is None or other.status != OK or not other.time_s or cell.time_s is None:
        return ref, None
    return ref, cell.time_s / other.time_s


def speedups(cells: list[CellResult], baseline: str = "serial"
             ) -> dict[PointKey, dict[str, list[tuple[int, float]]]]:
    """point -> system -> [(threads, speed-up)], sorted by threads.

    With baseline "serial" the yardstick is the `serial` variant at the same
    point when the benchmark has one (so curves of different runtimes share one
    yardstick), otherwise each system's own time at its smallest measured
    thread count; baseline "self" always takes the latter (for task trees whose
    serial version the compiler reduces to far less work than the tree).
    """
    series: dict[PointKey, dict[str, list[tuple[int, float]]]] = defaultdict(dict)
    grouped: dict[PointKey, dict[str, list[CellResult]]] = defaultdict(lambda: defaultdict(list))
    for cell in ok(cells):
        grouped[point_key(cell.params)][cell.system].append(cell)
    for point, per_system in grouped.items():
        serial = min(per_system.get("serial", []) if baseline == "serial" else [],
                     key=lambda c: c.threads, default=None)
        for system, group in per_system.items():
            group.sort(key=lambda c: c.threads)
            base = serial.time_s if serial and system != "serial" else group[0].time_s
            if base and base > 0:
                series[point][system] = [(c.threads, base / c.time_s) for c in group
                                         if c.time_s > 0]
    return dict(series)


def max_threads(cells: Iterable[CellResult]) -> int | None:
    threads = [c.threads for c in cells]
    return max(threads) if threads else None

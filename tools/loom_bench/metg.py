"""Minimum effective task granularity (METG), as Task Bench defines it.

Task Bench (Slaughter et al., SC'20) measures runtime overhead as the smallest
average task duration at which an application still reaches 50 % efficiency:

* For one system and one pattern, the same graph (same width, steps, cores) is
  run at decreasing grain sizes (kernel iterations per task).
* Peak FLOP/s is taken from the largest grain size (the run is dominated by
  kernel execution there).
* efficiency(grain) = FLOP/s(grain) / peak.
* task granularity(grain) = wall time x cores / number of tasks.
* METG(50 %) is the granularity where efficiency crosses 50 %.

Crossing point, following Task Bench's `scripts/chart_metg.py`: among the
points with efficiency >= 50 % take the one with the smallest granularity; if
the next smaller grain has a smaller granularity (it is then below 50 %),
interpolate *linearly* in (efficiency, granularity) between the two, i.e.
numpy.interp(0.5, [eff_below, eff_above], [gran_below, gran_above]).
Task Bench interpolates linearly, not in log-granularity; so do we.
If no point falls below 50 % the METG is below the smallest granularity
measured ("< smallest measured"); if none reaches 50 %, it is "not reached".
Where Task Bench averages repeated runs, we use the median (see results.py).

Kernels that do no floating-point work (Task Bench's memory_bound) report
`work.bytes` instead of `work.flops`; their curves measure efficiency in
bytes/s (peak = bytes/s of the largest grain) and say so (`Metg.unit`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

THRESHOLD = 0.5

OK = "ok"
BELOW_SMALLEST = "below_smallest"   # efficiency never fell below the threshold
NOT_REACHED = "not_reached"         # efficiency never reached the threshold
NO_DATA = "no_data"


@dataclass(frozen=True)
class Point:
    """One measured grain size of one system/pattern."""

    grain: float
    wall_s: float
    flops: float
    tasks: float
    cores: int

    @property
    def granularity_s(self) -> float:
        return self.wall_s * self.cores / self.tasks

    @property
    def flops_per_s(self) -> float:
        return self.flops / self.wall_s


@dataclass(frozen=True)
class CurvePoint:
    grain: float
    granularity_s: float
    efficiency: float


@dataclass
class Metg:
    """METG of one curve; `value_s` is set for OK, a bound for BELOW_SMALLEST."""

    status: str
    value_s: float | None = None
    curve: list[CurvePoint] = field(default_factory=list)
    detail: str = ""
    unit: str = "FLOP/s"   # what efficiency is a share of: "FLOP/s" or "bytes/s"

    def text(self) -> str:
        if self.status == OK:
            return format_seconds(self.value_s)
        if self.status == BELOW_SMALLEST:
            return f"< smallest measured ({format_seconds(self.value_s)})"
        if self.status == NOT_REACHED:
            return "not reached"
        return f"n/a ({self.detail})" if self.detail else "n/a"


def efficiency_curve(points: list[Point], peak_flops_per_s: float | None = None
                     ) -> list[CurvePoint]:
    """Efficiency per grain, largest grain first.

    The peak is the FLOP/s of the largest grain unless a machine peak is given
    (Task Bench's scripts accept one; then "not reached" becomes possible).
    """
    usable = [p for p in points if p.wall_s > 0 and p.tasks > 0 and p.cores > 0]
    usable.sort(key=lambda p: p.grain, reverse=True)
    if not usable:
        return []
    peak = peak_flops_per_s or usable[0].flops_per_s
    if peak <= 0:
        return []
    return [CurvePoint(p.grain, p.granularity_s, p.flops_per_s / peak) for p in usable]


def compute(points: list[Point], threshold: float = THRESHOLD,
            peak_flops_per_s: float | None = None) -> Metg:
    """METG of one system/pattern from its measured grain sizes."""
    curve = efficiency_curve(points, peak_flops_per_s)
    if not curve:
        return Metg(NO_DATA, detail="no usable points (need flops, tasks and time > 0)")
    above = [i for i, c in enumerate(curve) if c.efficiency >= threshold]
    if not above:
        return Metg(NOT_REACHED, curve=curve)
    best = min(above, key=lambda i: curve[i].granularity_s)
    if best + 1 >= len(curve):
        smallest = min(c.granularity_s for c in curve)
        return Metg(BELOW_SMALLEST, smallest, curve)
    here, after = curve[best], curve[best + 1]
    value = here.granularity_s
    if after.granularity_s < here.granularity_s:
        value = _interpolate(threshold, here, after)
    return Metg(OK, value, curve)


def _interpolate(threshold: float, above: CurvePoint, below: CurvePoint) -> float:
    """Granularity at `threshold`, linear between the two neighbouring points."""
    span = above.efficiency - below.efficiency
    if span <= 0:
        return above.granularity_s
    t = (threshold - below.efficiency) / span
    return below.granularity_s + t * (above.granularity_s - below.granularity_s)


def format_seconds(value: float | None) -> str:
    """Seconds with an SI unit that keeps 3 significant digits readable."""
    if value is None or not math.isfinite(value):
        return "n/a"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
        if abs(value) >= scale or unit == "ns":
            return f"{value / scale:.3g} {unit}"
    return f"{value:.3g} s"


def from_cells(cells, grain: str, threshold: float = THRESHOLD) -> dict[tuple, dict[str, Metg]]:
    """METG per curve from a metg benchmark's successful cells.

    A curve is every parameter except `grain`, plus the thread count (cores);
    the result maps (other params as a tuple of pairs, threads) -> system -> Metg.
    Cells lacking work.flops or work.tasks make that curve NO_DATA with a reason.
    """
    grouped: dict[tuple, dict[str, list]] = {}
    for cell in cells:
        if cell.status != "ok" or cell.time_s is None or grain not in cell.params:
            continue
        rest = tuple((k, v) for k, v in cell.params.items() if k != grain)
        grouped.setdefault((rest, cell.threads), {}).setdefault(cell.system, []).append(cell)
    out: dict[tuple, dict[str, Metg]] = {}
    for key, per_system in grouped.items():
        out[key] = {system: _curve_metg(group, grain, key[1], threshold)
                    for system, group in per_system.items()}
    return out


# The work measure of a curve, in order of preference, and the rate it gives.
WORK_UNITS = (("flops", "FLOP/s"), ("bytes", "bytes/s"))


def work_unit(cells) -> tuple[str, str] | None:
    """(work key, rate label) that every cell reports, or None."""
    for key, unit in WORK_UNITS:
        if cells and all(key in c.work for c in cells):
            return key, unit
    return None


def _curve_metg(cells, grain: str, threads: int, threshold: float) -> Metg:
    unit = work_unit(cells)
    if unit is None or any("tasks" not in c.work for c in cells):
        return Metg(NO_DATA, detail="binary did not report work.tasks and work.flops "
                                    "(or work.bytes) in every cell")
    key, label = unit
    points = [Point(float(c.params[grain]), c.time_s, float(c.work[key]),
                    float(c.work["tasks"]), threads) for c in cells]
    result = compute(points, threshold)
    result.unit = label
    return result

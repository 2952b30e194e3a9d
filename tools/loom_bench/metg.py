"""Minimum effective task granularity (METG), as Task Bench defines it.

Task Bench (Slaughter et al., SC'20) measures runtime overhead as the smallest
average task duration at which an application still reaches 50 % efficiency:

* For one system and one pattern, the same graph (same width, steps, cores) is
  run at decreasing grain sizes (kernel iterations per task).
* Peak FLOP/s: Task Bench takes each system's own largest grain size. That
  makes a system's efficiency a share of its own best, so curves of different
  systems are not on one scale and climb above 100 % wherever a smaller grain
  happened to run faster than the largest. Here one peak serves every system:
  the best FLOP/s any system reached at any grain in the run, per thread count
  and kernel (the manifest's `[report] peak_by` names the parameters that define
  the kernel). Efficiency therefore never exceeds 100 %, and equal efficiency
  means equal FLOP/s across systems. Without `peak_by` a curve keeps Task
  Bench's own-largest-grain peak.
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

Spread: a METG from medians hides how much the measurement moves, so the same
computation is repeated on replicates -- replicate j takes the j-th timed
sample of every grain of the curve -- and the report shows their range next to
the METG of the medians. Replicates share the peak of the medians.

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
    replicates: list[float] = field(default_factory=list)   # METG per replicate (OK ones)

    @property
    def spread(self) -> float | None:
        """(max - min) / METG over the replicates, or None with fewer than two."""
        if self.status != OK or len(self.replicates) < 2 or not self.value_s:
            return None
        return (max(self.replicates) - min(self.replicates)) / self.value_s

    def text(self) -> str:
        if self.status == OK:
            if len(self.replicates) >= 2:
                lo, hi = min(self.replicates), max(self.replicates)
                return (f"{format_seconds(self.value_s)} "
                        f"({format_seconds(lo)}–{format_seconds(hi)})")
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


def from_cells(cells, grain: str, threshold: float = THRESHOLD,
               peak_by: list[str] | None = None) -> dict[tuple, dict[str, Metg]]:
    """METG per curve from a metg benchmark's successful cells.

    A curve is every parameter except `grain`, plus the thread count (cores);
    the result maps (other params as a tuple of pairs, threads) -> system -> Metg.
    Cells lacking work.flops or work.tasks make that curve NO_DATA with a reason.
    With `peak_by` (a list, possibly empty) every curve's efficiency is a share of
    the one peak of its thread count and `peak_by` parameter values (shared_peaks);
    with None each curve uses its own largest grain.
    """
    good = [c for c in cells if c.status == "ok" and c.time_s is not None and grain in c.params]
    grouped: dict[tuple, dict[str, list]] = {}
    for cell in good:
        rest = tuple((k, v) for k, v in cell.params.items() if k != grain)
        grouped.setdefault((rest, cell.threads), {}).setdefault(cell.system, []).append(cell)
    peaks = shared_peaks(good, peak_by) if peak_by is not None else {}
    out: dict[tuple, dict[str, Metg]] = {}
    for key, per_system in grouped.items():
        out[key] = {system: _curve_metg(group, grain, key[1], threshold,
                                        peaks.get(_peak_key(group[0], peak_by)) if peaks else None)
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


def _peak_key(cell, peak_by: list[str] | None) -> tuple:
    unit = work_unit([cell])
    return (cell.threads, unit[0] if unit else None,
            tuple((k, cell.params.get(k)) for k in (peak_by or [])))


def shared_peaks(cells, peak_by: list[str]) -> dict[tuple, float]:
    """Best median rate (work / time) of any cell, per thread count, work unit and
    `peak_by` parameter values: one peak for every system, pattern and grain."""
    peaks: dict[tuple, float] = {}
    for cell in cells:
        unit = work_unit([cell])
        if unit is None or not cell.time_s or cell.time_s <= 0:
            continue
        rate = float(cell.work[unit[0]]) / cell.time_s
        key = _peak_key(cell, peak_by)
        peaks[key] = max(peaks.get(key, 0.0), rate)
    return peaks


def _curve_metg(cells, grain: str, threads: int, threshold: float,
                peak: float | None = None) -> Metg:
    unit = work_unit(cells)
    if unit is None or any("tasks" not in c.work for c in cells):
        return Metg(NO_DATA, detail="binary did not report work.tasks and work.flops "
                                    "(or work.bytes) in every cell")
    key, label = unit

    def points(time_of) -> list[Point]:
        return [Point(float(c.params[grain]), time_of(c), float(c.work[key]),
                      float(c.work["tasks"]), threads) for c in cells]

    result = compute(points(lambda c: c.time_s), threshold, peak)
    result.unit = label
    samples = min((len(getattr(c, "times_s", None) or []) for c in cells), default=0)
    for j in range(samples if samples >= 2 else 0):
        replicate = compute(points(lambda c, j=j: c.times_s[j]), threshold, peak)
        if replicate.status == OK:
            result.replicates.append(replicate.value_s)
    return result

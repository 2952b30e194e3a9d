"""METG on synthetic curves whose answer is known by construction."""

import pytest

from loom_bench import metg
from loom_bench.metg import Point


def curve(pairs, cores=1, tasks=1):
    """Points with exactly the given (granularity [s], efficiency), largest grain first.

    With cores = tasks = 1 the granularity is the wall time; flops are chosen
    so that flops/time = efficiency x the first point's rate.
    """
    peak = 1e9
    n = len(pairs)
    return [Point(grain=2 ** (n - 1 - i), wall_s=gran * tasks / cores,
                  flops=eff * peak * gran * tasks / cores, tasks=tasks, cores=cores)
            for i, (gran, eff) in enumerate(pairs)]


def test_efficiency_uses_largest_grain_as_peak():
    pts = curve([(8e-6, 1.0), (4e-6, 0.8), (2e-6, 0.4)], cores=2, tasks=1000)
    result = metg.efficiency_curve(list(reversed(pts)))   # order must not matter
    assert [round(c.efficiency, 9) for c in result] == [1.0, 0.8, 0.4]
    assert [c.grain for c in result] == [4, 2, 1]
    assert [c.granularity_s for c in result] == pytest.approx([8e-6, 4e-6, 2e-6])


def test_granularity_is_wall_time_times_cores_over_tasks():
    p = Point(grain=8, wall_s=0.5, flops=1e9, tasks=1000, cores=4)
    assert p.granularity_s == pytest.approx(0.5 * 4 / 1000)


def test_linear_interpolation_between_neighbours():
    pts = curve([(100e-6, 1.0), (20e-6, 0.9), (10e-6, 0.7), (6e-6, 0.3), (5e-6, 0.1)])
    result = metg.compute(pts)
    assert result.status == metg.OK
    # Linear in (efficiency, granularity): 0.5 is halfway from 0.3 to 0.7, so the
    # answer is halfway from 6 us to 10 us -- not the geometric mean (7.75 us).
    assert result.value_s == pytest.approx(8e-6)


def test_known_value_hand_computed():
    # Two points: grain 10 at peak, grain 1 at 25 % efficiency.
    # cores=1, tasks=1: granularity = wall time.
    peak = 1e9
    big = Point(10, 10e6 / peak, 10e6, 1, 1)              # 10 ms, eff 1.0
    small = Point(1, 1e6 / (0.25 * peak), 1e6, 1, 1)      # 4 ms, eff 0.25
    result = metg.compute([big, small])
    # eff 0.5 lies 1/3 of the way from 0.25 to 1.0: 4 ms + (10-4)/3 ms = 6 ms.
    assert result.value_s == pytest.approx(6e-3)


def test_exactly_fifty_percent_point_is_the_answer():
    result = metg.compute(curve([(50e-6, 1.0), (9e-6, 0.5), (4e-6, 0.2)]))
    assert result.value_s == pytest.approx(9e-6)


def test_never_below_threshold_is_below_smallest_measured():
    result = metg.compute(curve([(40e-6, 1.0), (20e-6, 0.9), (10e-6, 0.8), (5e-6, 0.6)]))
    assert result.status == metg.BELOW_SMALLEST
    assert result.value_s == pytest.approx(5e-6)
    assert result.text().startswith("< smallest measured")


def test_never_above_threshold_is_not_reached():
    # With a machine peak far above anything measured, no point reaches 50 %.
    pts = curve([(40e-6, 1.0), (20e-6, 0.9), (10e-6, 0.5)])
    result = metg.compute(pts, peak_flops_per_s=1e12)
    assert result.status == metg.NOT_REACHED
    assert result.text() == "not reached"


def test_non_monotonic_curve_uses_smallest_granularity_above_threshold():
    # Efficiency dips below 50 % and recovers: like Task Bench, take the smallest
    # granularity that still reaches 50 %, then interpolate with the next grain.
    result = metg.compute(curve([(40e-6, 1.0), (20e-6, 0.4), (10e-6, 0.6), (5e-6, 0.2)]))
    assert result.status == metg.OK
    # Between (10 us, 0.6) and (5 us, 0.2): 0.5 is 3/4 of the way up -> 8.75 us.
    assert result.value_s == pytest.approx(8.75e-6)


def test_next_grain_with_larger_granularity_is_not_interpolated():
    # Task Bench only interpolates when the next grain really is finer.
    result = metg.compute(curve([(40e-6, 1.0), (10e-6, 0.6), (12e-6, 0.2)]))
    assert result.value_s == pytest.approx(10e-6)


def test_single_point_and_empty_input():
    assert metg.compute(curve([(1e-3, 1.0)])).status == metg.BELOW_SMALLEST
    assert metg.compute([]).status == metg.NO_DATA


def test_format_seconds():
    assert metg.format_seconds(7.91e-6) == "7.91 µs"
    assert metg.format_seconds(0.25) == "250 ms"
    assert metg.format_seconds(3.0) == "3 s"
    assert metg.format_seconds(None) == "n/a"


class _Cell:
    """The fields of a CellResult that metg.from_cells reads."""

    def __init__(self, grain, time_s, work, system="loom", threads=2):
        self.status, self.time_s, self.system, self.threads = "ok", time_s, system, threads
        self.params = {"kernel": "memory_bound", "grain": grain}
        self.work = work


def test_memory_bound_curves_use_bytes_per_second():
    # 1000 tasks on 2 cores; bytes/s halves at grain 1 (eff 0.5 -> the METG).
    cells = [_Cell(100, 0.100, {"bytes": 1e9, "tasks": 1000}),
             _Cell(10, 0.010, {"bytes": 1e8, "tasks": 1000}),
             _Cell(1, 0.002, {"bytes": 1e7, "tasks": 1000}),
             _Cell(0, 0.002, {"bytes": 0, "tasks": 1000})]
    (key, per_system), = metg.from_cells(cells, "grain").items()
    result = per_system["loom"]
    assert result.unit == "bytes/s"
    assert result.status == metg.OK
    assert result.value_s == pytest.approx(0.002 * 2 / 1000)   # exactly 50 % at grain 1


def test_flops_preferred_and_missing_work_is_no_data():
    both = [_Cell(10, 0.01, {"flops": 1e6, "bytes": 5, "tasks": 10}),
            _Cell(1, 0.01, {"flops": 1e5, "bytes": 5, "tasks": 10})]
    (_, per_system), = metg.from_cells(both, "grain").items()
    assert per_system["loom"].unit == "FLOP/s"
    neither = [_Cell(10, 0.01, {"tasks": 10})]
    (_, per_system), = metg.from_cells(neither, "grain").items()
    assert per_system["loom"].status == metg.NO_DATA


class _Timed(_Cell):
    def __init__(self, grain, times, work, system="loom", threads=2, pattern="trivial"):
        super().__init__(grain, sorted(times)[len(times) // 2], work, system, threads)
        self.params = {"kernel": "compute_bound", "pattern": pattern, "grain": grain}
        self.times_s = list(times)


def _two_systems():
    # 1000 tasks on 2 cores, 1e9 FLOPs at grain 100 and 1e8 at grain 10.
    fast = [_Timed(100, [1.0, 1.0, 1.0], {"flops": 1e9, "tasks": 1000}, "fast"),
            _Timed(10, [0.1, 0.1, 0.1], {"flops": 1e8, "tasks": 1000}, "fast")]
    # The slow system's own largest grain is half as fast, its small grain as fast
    # as that: with its own peak it would look perfectly efficient.
    slow = [_Timed(100, [2.0, 2.0, 2.0], {"flops": 1e9, "tasks": 1000}, "slow"),
            _Timed(10, [0.2, 0.2, 0.2], {"flops": 1e8, "tasks": 1000}, "slow")]
    return fast + slow


def test_shared_peak_is_the_best_rate_of_any_system():
    (_, per_system), = metg.from_cells(_two_systems(), "grain", peak_by=["kernel"]).items()
    slow = per_system["slow"]
    assert max(c.efficiency for c in slow.curve) == pytest.approx(0.5)
    assert max(c.efficiency for c in per_system["fast"].curve) == pytest.approx(1.0)
    # Without a shared peak, each system is its own 100 %.
    (_, own), = metg.from_cells(_two_systems(), "grain").items()
    assert max(c.efficiency for c in own["slow"].curve) == pytest.approx(1.0)


def test_shared_peak_never_gives_efficiency_above_one():
    # A small grain faster per FLOP than the largest one: Task Bench's own-peak rule
    # puts it above 100 %; the shared peak does not.
    cells = [_Timed(100, [1.0], {"flops": 1e9, "tasks": 1000}),
             _Timed(10, [0.05], {"flops": 1e8, "tasks": 1000})]
    (_, own), = metg.from_cells(cells, "grain").items()
    assert max(c.efficiency for c in own["loom"].curve) == pytest.approx(2.0)
    (_, shared), = metg.from_cells(cells, "grain", peak_by=[]).items()
    assert max(c.efficiency for c in shared["loom"].curve) <= 1.0


def test_peak_is_shared_across_patterns_but_not_kernels_or_threads():
    cells = [_Timed(100, [1.0], {"flops": 1e9, "tasks": 1000}, pattern="a"),
             _Timed(100, [2.0], {"flops": 1e9, "tasks": 1000}, pattern="b"),
             _Timed(100, [4.0], {"flops": 1e9, "tasks": 1000}, pattern="b", threads=1)]
    peaks = metg.shared_peaks(cells, ["kernel"])
    assert sorted(peaks.values()) == pytest.approx([0.25e9, 1e9])


def test_replicates_give_the_spread():
    # Three samples per grain; the METG of each replicate differs, the medians' lies inside.
    cells = [_Timed(100, [1.0, 1.0, 1.0], {"flops": 1e9, "tasks": 1000}),
             _Timed(10, [0.1, 0.1, 0.1], {"flops": 1e8, "tasks": 1000}),
             _Timed(1, [0.03, 0.04, 0.05], {"flops": 1e7, "tasks": 1000}),
             _Timed(0, [0.03, 0.04, 0.05], {"flops": 0, "tasks": 1000})]
    (_, per_system), = metg.from_cells(cells, "grain", peak_by=["kernel"]).items()
    result = per_system["loom"]
    assert result.status == metg.OK
    assert len(result.replicates) == 3
    assert min(result.replicates) <= result.value_s <= max(result.replicates)
    assert result.spread == pytest.approx(
        (max(result.replicates) - min(result.replicates)) / result.value_s)
    assert "–" in result.text()

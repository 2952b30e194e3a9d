"""RAPL energy: wrap-around, absence and unreadable counters."""

import os

import pytest

from loom_bench.energy import EnergyMeter


def zone(root, name, energy, max_range=1_000_000):
    d = root / name
    d.mkdir(parents=True)
    (d / "energy_uj").write_text(f"{energy}\n")
    (d / "max_energy_range_uj").write_text(f"{max_range}\n")
    return d


def test_sums_package_zones_only(tmp_path):
    p0 = zone(tmp_path, "intel-rapl:0", 100)
    p1 = zone(tmp_path, "intel-rapl:1", 200)
    zone(tmp_path, "intel-rapl:0:0", 5)            # sub-zone: already inside package 0
    meter = EnergyMeter(tmp_path)
    start = meter.snapshot()
    (p0 / "energy_uj").write_text("1100")
    (p1 / "energy_uj").write_text("2200")
    assert meter.joules_between(start, meter.snapshot()) == pytest.approx(3000 / 1e6)


def test_wrap_around_uses_max_energy_range(tmp_path):
    p0 = zone(tmp_path, "intel-rapl:0", 999_000, max_range=999_999)
    meter = EnergyMeter(tmp_path)
    start = meter.snapshot()
    (p0 / "energy_uj").write_text("500")           # wrapped past 999_999
    # 999_000 -> 999_999 is 999 uJ, one more to reach 0, then 500.
    assert meter.joules_between(start, meter.snapshot()) == pytest.approx(1500 / 1e6)


def test_absent_powercap_gives_none(tmp_path):
    meter = EnergyMeter(tmp_path / "does-not-exist")
    assert not meter.available
    assert meter.joules_between(meter.snapshot(), meter.snapshot()) is None


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_unreadable_counter_gives_none(tmp_path):
    p0 = zone(tmp_path, "intel-rapl:0", 100)
    (p0 / "energy_uj").chmod(0)
    meter = EnergyMeter(tmp_path)
    assert meter.joules_between(meter.snapshot(), meter.snapshot()) is None


def test_counter_becoming_unreadable_gives_none(tmp_path):
    p0 = zone(tmp_path, "intel-rapl:0", 100)
    meter = EnergyMeter(tmp_path)
    start = meter.snapshot()
    (p0 / "energy_uj").unlink()
    (p0 / "energy_uj").mkdir()                     # reading it now fails with an OSError
    assert meter.joules_between(start, meter.snapshot()) is None


def test_garbage_counter_is_ignored(tmp_path):
    p0 = zone(tmp_path, "intel-rapl:0", 100)
    (p0 / "energy_uj").write_text("not a number")
    assert not EnergyMeter(tmp_path).available

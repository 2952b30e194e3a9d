"""Report generation on a tiny run of fake benchmarks of every kind."""

import json
import struct
import zlib

import pytest

from conftest import write_manifest
from loom_bench import cli, metrics, plots, results
from loom_bench.metg import Metg, CurvePoint

GOOD_ARGS = 'args = ["--system", "{system}", "--threads", "{threads}"'

SCALING = """
    name = "daxpy"
    title = "fake daxpy"
    kind = "scaling"
    metric = "mflops"
    estimate_s = 0.1
    [report]
    size = "n"
    [[variant]]
    system = "llvm-omp"
    binary = "@F@/good.py"
    ARGS, "--n", "{n}"]
    [[variant]]
    system = "loom-omp"
    binary = "@F@/good.py"
    ARGS, "--n", "{n}"]
    [[variant]]
    system = "gnu-omp"
    binary = "@F@/crash.sh"
    [[variant]]
    system = "serial"
    binary = "@F@/good.py"
    ARGS, "--n", "{n}"]
    threads = [1]
    [[variant]]
    system = "tbb"
    binary = "@F@/not_built"
    [params.quick]
    n = [1000, 100000]
    threads = [1, 2]
""".replace("ARGS", GOOD_ARGS)

SORT = """
    name = "sort"
    kind = "sort_cutoff"
    estimate_s = 0.1
    [[variant]]
    system = "llvm-omp"
    binary = "@F@/good.py"
    ARGS, "--cutoff", "{cutoff}"]
    [[variant]]
    system = "loom-omp"
    binary = "@F@/good.py"
    ARGS, "--cutoff", "{cutoff}"]
    [[variant]]
    system = "gnu-omp"
    binary = "@F@/wrong.sh"
    [params.quick]
    cutoff = [10, 1000]
    threads = [1, 2]
""".replace("ARGS", GOOD_ARGS)

METG = """
    name = "taskbench"
    kind = "metg"
    estimate_s = 0.1
    [report]
    grain = "grain"
    [[variant]]
    system = "llvm-omp"
    binary = "@F@/good.py"
    ARGS, "--grain", "{grain}", "--tasks", "{tasks}"]
    [[variant]]
    system = "loom"
    binary = "@F@/good.py"
    ARGS, "--grain", "{grain}", "--tasks", "{tasks}"]
    [params.quick]
    pattern = "stencil_1d"
    grain = [1, 4, 16, 64]
    tasks = 100
    threads = [2]
""".replace("ARGS", GOOD_ARGS)

BARS = """
    name = "cholesky"
    kind = "flops_bars"
    metric = "gflops"
    estimate_s = 0.1
    [report]
    group = ["n"]
    [[variant]]
    system = "llvm-omp"
    binary = "@F@/good.py"
    ARGS, "--n", "{n}"]
    [[variant]]
    system = "loom-omp"
    binary = "@F@/good.py"
    ARGS, "--n", "{n}"]
    [params.quick]
    n = 500
    threads = [1]
""".replace("ARGS", GOOD_ARGS)

BROKEN = """
    name = "broken"
    kind = "nonsense"
"""


def assert_png(path):
    """A real PNG: signature, IHDR with a non-empty size, and a valid CRC."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    length, kind = struct.unpack(">I4s", data[8:16])
    assert kind == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    assert width > 10 and height > 10
    crc = struct.unpack(">I", data[16 + length:20 + length])[0]
    assert crc == zlib.crc32(data[12:16 + length]) & 0xFFFFFFFF


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    """One run of all kinds, shared by the tests that only read its output."""
    tmp_path = tmp_path_factory.mktemp("tiny")
    bench_root = tmp_path / "bench"
    loom_omp_dir = tmp_path / "omp"
    loom_omp_dir.mkdir()
    (loom_omp_dir / "libomp.so.5").write_bytes(b"")
    for name, text in (("daxpy", SCALING), ("sort", SORT), ("taskbench", METG),
                       ("cholesky", BARS), ("broken", BROKEN)):
        write_manifest(bench_root, name, text)
    out = tmp_path / "out"
    code = cli.main(["--bench-root", str(bench_root), "--build-dir", str(tmp_path),
                     "--loom-omp-dir", str(loom_omp_dir), "--out", str(out), "--timeout", "10"])
    assert code == 0
    return out


def test_report_lists_every_benchmark_and_system(tiny_run):
    report = (tiny_run / "report" / "report.md").read_text()
    for bench in ("daxpy", "sort", "taskbench", "cholesky"):
        assert f"## {bench}" in report
    overview = report[report.index("## Overview"):report.index("## cholesky")]
    assert ("| [daxpy](#daxpy) | scaling | — | ok 4/4 | ok 4/4 | **FAILED 4/4** | unavailable "
            "| ok 2/2 |") \
        in overview
    assert "broken" in overview
    # One section, however many benchmarks had failures.
    assert report.count("## Failures and unavailable systems") == 1
    failures = report[report.index("## Failures and unavailable systems"):]
    assert "daxpy / **tbb**: unavailable: binary not built" in failures
    assert "FAILED: daxpy / gnu-omp (4 cell(s))" in failures
    assert "FAILED: sort / gnu-omp" in failures and "sum mismatch" in failures
    assert "broken manifest" in failures and "nonsense" in failures


def test_report_tables_and_figures(tiny_run):
    report_dir = tiny_run / "report"
    report = (report_dir / "report.md").read_text()
    assert "| 1000 | 2 | llvm-omp | 625 µs | 1.25 (loom-omp) |" in report
    assert "### METG(50 %)" in report and "| curve | llvm-omp | loom |" in report
    pngs = sorted(p.name for p in report_dir.glob("*.png"))
    assert pngs == ["cholesky-bars.png", "daxpy-n.png", "daxpy-speedup.png", "daxpy-threads.png",
                    "sort-heatmap-0.png", "taskbench-metg-0.png"]
    for png in pngs:
        assert f"]({png})" in report
        assert_png(report_dir / png)


def test_results_json_has_raw_records_and_machine(tiny_run):
    doc = json.loads((tiny_run / "results.json").read_text())
    assert doc["mode"] == "quick" and doc["schema"] == 1
    machine = doc["machine"]
    for key in ("cpu_model", "cores_available", "kernel", "compilers", "runtime_libraries",
                "git", "loom_omp_dir"):
        assert key in machine
    cell = next(c for c in doc["cells"] if c["status"] == "ok")
    run = cell["runs"][0]
    for key in ("wall_s", "cpu_user_s", "cpu_sys_s", "energy_j", "results"):
        assert key in run
    daxpy = next(b for b in doc["benchmarks"] if b["name"] == "daxpy")
    assert {v["system"] for v in daxpy["variants"]} == {
        "llvm-omp", "loom-omp", "gnu-omp", "serial", "tbb"}


def test_report_only_redraws_from_results_json(tiny_run, tmp_path):
    redo = tmp_path / "redo"
    assert cli.main(["--report-only", str(tiny_run / "results.json"), "--out", str(redo)]) == 0
    assert (redo / "report" / "report.md").read_text().count("## ") >= 6
    assert_png(redo / "report" / "daxpy-speedup.png")


def test_loom_omp_unavailable_without_loom_library(bench_root, tmp_path):
    write_manifest(bench_root, "daxpy", SCALING)
    out = tmp_path / "out"
    cli.main(["--bench-root", str(bench_root), "--build-dir", str(tmp_path),
              "--loom-omp-dir", str(tmp_path / "empty"), "--out", str(out),
              "--systems", "llvm-omp,loom-omp"])
    report = (out / "report" / "report.md").read_text()
    assert "daxpy / **loom-omp**: unavailable: loom's OpenMP library not found" in report
    assert "not selected" in report                # gnu-omp, serial, tbb were filtered out
    doc = results.load(out / "results.json")
    assert {c.system for c in doc.cells} == {"llvm-omp"}


def test_budget_skips_are_reported(bench_root, loom_omp_dir, tmp_path):
    write_manifest(bench_root, "daxpy", SCALING.replace("estimate_s = 0.1", "estimate_s = 50"))
    out = tmp_path / "out"
    cli.main(["--bench-root", str(bench_root), "--build-dir", str(tmp_path),
              "--loom-omp-dir", str(loom_omp_dir), "--out", str(out), "--budget", "1"])
    doc = results.load(out / "results.json")
    assert doc.cells and all(c.status == "skipped" for c in doc.cells)
    report = (out / "report" / "report.md").read_text()
    assert "cell(s) skipped: time budget" in report


def test_only_and_list(bench_root, tmp_path, capsys):
    write_manifest(bench_root, "daxpy", SCALING)
    write_manifest(bench_root, "sort", SORT)
    assert cli.main(["--bench-root", str(bench_root), "--list", "--only", "sort"]) == 0
    listed = capsys.readouterr().out
    assert "sort (sort_cutoff)" in listed and "daxpy" not in listed
    assert cli.main(["--bench-root", str(bench_root), "--only", "nope", "--list"]) == 2


def test_plots_degrade_with_little_data(tmp_path):
    one = plots.speedup_grid([("n=1", {"loom": [(1, 1.0)]})], tmp_path / "one.png", "t")
    assert_png(one)
    assert plots.speedup_grid([], tmp_path / "none.png", "t") is None
    single = Metg("below_smallest", 1e-6, [CurvePoint(1, 1e-6, 1.0)])
    assert_png(plots.metg_curves({"loom": single}, tmp_path / "metg.png", "t"))
    assert plots.metg_curves({"loom": Metg("no_data")}, tmp_path / "x.png", "t") is None
    assert_png(plots.ratio_heatmaps({"p": [[None]]} | {"q": [[1.3]]}, [1], [10],
                                    tmp_path / "heat.png", "t", "threads", "cutoff"))
    assert plots.ratio_heatmaps({"p": [[None]]}, [1], [10], tmp_path / "h2.png", "t",
                                "threads", "cutoff") is None
    assert_png(plots.grouped_bars(["a"], [("GFLOP/s", {"loom": [2.0], "tbb": [None]})],
                                  tmp_path / "bars.png", "t"))
    assert_png(plots.metric_vs_size({"loom": [(1000.0, 3.0)]}, tmp_path / "m.png", "t",
                                    "n", "MFLOP/s"))


def test_speedup_baseline_is_serial_when_present():
    def cell(system, threads, t):
        c = results.CellResult("b", system, {"n": 1}, threads, [], {}, "ok", time_s=t)
        return c
    series = metrics.speedups([cell("serial", 1, 1.0), cell("loom", 1, 1.25),
                               cell("loom", 2, 0.5)])
    assert series[(("n", 1),)]["loom"] == [(1, 0.8), (2, 2.0)]
    series = metrics.speedups([cell("loom", 1, 1.0), cell("loom", 2, 0.5)])
    assert series[(("n", 1),)]["loom"] == [(1, 1.0), (2, 2.0)]


def test_speedup_baseline_self_ignores_serial():
    cells = [results.CellResult("b", s, {"n": 1}, t, [], {}, "ok", time_s=v)
             for s, t, v in (("serial", 1, 0.01), ("loom", 1, 1.0), ("loom", 2, 0.5))]
    [(point, by_serial)] = metrics.speedups(cells).items()
    assert by_serial["loom"] == [(1, pytest.approx(0.01)), (2, pytest.approx(0.02))]
    [(point, by_self)] = metrics.speedups(cells, "self").items()
    assert by_self["loom"] == [(1, pytest.approx(1.0)), (2, pytest.approx(2.0))]


def test_unavailable_reference_passes_to_the_next_loom_system():
    from loom_bench import report
    bench = {"variants": [{"system": "gnu-omp"}, {"system": "loom-omp"},
                          {"system": "loom-gomp", "unavailable": "no libgomp.so.1"}]}
    cells = [results.CellResult("b", s, {"n": 1}, 2, [], {}, "ok", time_s=v)
             for s, v in (("gnu-omp", 3.0), ("loom-omp", 1.5))]
    index = metrics.by_key(cells)
    ref, ratio = metrics.ratio_to_reference(cells[0], index, report._available(bench))
    assert (ref, ratio) == ("loom-omp", pytest.approx(2.0))


def test_numbers_use_si_prefixes():
    from loom_bench import report
    assert [report._num(v) for v in (7750171, 2.66e7, 1510306, 999, 0.0123, None)] == \
        ["7.75 M", "26.6 M", "1.51 M", "999", "0.0123", "n/a"]

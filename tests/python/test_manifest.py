"""Manifest discovery and validation."""

import pytest

from conftest import write_manifest
from loom_bench import manifest, plan

GOOD = """
    name = "daxpy"
    kind = "scaling"
    metric = "mflops"
    [report]
    size = "n"
    [[variant]]
    system = "llvm-omp"
    binary = "bench/daxpy/bench_daxpy_clang"
    args = ["--n", "{n}", "--threads", "{threads}", "--flag", "{fast}"]
    [[variant]]
    system = "serial"
    binary = "{bench_dir}/serial.sh"
    threads = [1]
    [params.quick]
    n = [1000, 100000]
    fast = true
    threads = [1, 2]
    [params.full]
    n = [1000, 10000, 100000, 1000000]
    fast = true
    threads = ["pow2"]
"""


def test_discovers_every_manifest(bench_root):
    write_manifest(bench_root, "daxpy", GOOD)
    write_manifest(bench_root, "other", GOOD.replace('"daxpy"', '"other"', 1))
    (bench_root / "no_manifest").mkdir()
    good, broken = manifest.discover(bench_root)
    assert [m.name for m in good] == ["daxpy", "other"]
    assert broken == []
    m = good[0]
    assert m.params["quick"]["n"] == [1000, 100000]
    assert m.params["quick"]["fast"] == [True]
    assert m.params["full"]["threads"] == ["pow2"]
    assert m.estimate_s == {"quick": 1.0, "full": 1.0}


def test_extra_manifests_of_one_folder_follow_its_manifest(bench_root):
    import textwrap
    write_manifest(bench_root, "core", GOOD.replace('"daxpy"', '"core-fib"', 1))
    (bench_root / "core" / "manifest.pingpong.toml").write_text(
        textwrap.dedent(GOOD.replace('"daxpy"', '"core-pingpong"', 1)))
    (bench_root / "core" / "manifest.idle.toml").write_text(
        textwrap.dedent(GOOD.replace('"daxpy"', '"core-idle"', 1)))
    (bench_root / "core" / "notes.toml").write_text("not a manifest")
    write_manifest(bench_root, "abc", GOOD.replace('"daxpy"', '"abc"', 1))
    good, broken = manifest.discover(bench_root)
    assert [m.name for m in good] == ["abc", "core-fib", "core-idle", "core-pingpong"]
    assert broken == []


def test_full_defaults_to_quick(bench_root):
    text = GOOD[:GOOD.index("    [params.full]")]
    write_manifest(bench_root, "d", text)
    [m], _ = manifest.discover(bench_root)
    assert m.params["full"] == m.params["quick"]


@pytest.mark.parametrize("change, message", [
    (('kind = "scaling"', 'kind = "pie"'), "kind 'pie'"),
    (('system = "llvm-omp"', 'system = "openmp"'), "system 'openmp'"),
    (('"{n}"', '"{size}"'), "placeholder {size}"),
    (('metric = "mflops"', 'metric = "speed"'), "metric 'speed'"),
    (('size = "n"', 'size = "m"'), "parameter 'm'"),
    (('threads = [1, 2]', 'threads = [0]'), "thread count 0"),
    (('name = "daxpy"', 'name = "daxpy"\ncolour = "red"'), "unknown key"),
    (('name = "daxpy"', 'name = "bad name"'), "name 'bad name'"),
    (('[params.quick]', '[params.smoke]'), "[params.quick] is required"),
])
def test_invalid_manifests_are_reported_not_raised(bench_root, change, message):
    write_manifest(bench_root, "d", GOOD.replace(*change, 1))
    good, broken = manifest.discover(bench_root)
    assert good == []
    assert message in broken[0].error
    assert broken[0].name in ("daxpy", "bad name")


def test_unparsable_toml(bench_root):
    write_manifest(bench_root, "d", "name = \n")
    _, [broken] = manifest.discover(bench_root)
    assert "cannot parse TOML" in broken.error


def test_duplicate_names(bench_root):
    write_manifest(bench_root, "a", GOOD)
    write_manifest(bench_root, "b", GOOD)
    good, [broken] = manifest.discover(bench_root)
    assert len(good) == 1 and "duplicate" in broken.error


def test_metg_needs_grain(bench_root):
    text = GOOD.replace('kind = "scaling"', 'kind = "metg"').replace('size = "n"', "")
    write_manifest(bench_root, "d", text)
    _, [broken] = manifest.discover(bench_root)
    assert "grain" in broken.error


def test_cells_fill_placeholders_and_thread_env(bench_root, tmp_path):
    write_manifest(bench_root, "daxpy", GOOD)
    [m], _ = manifest.discover(bench_root)
    ctx = plan.Context(build_dir=tmp_path / "build", loom_omp_dir=tmp_path / "omp", cores=4)
    cells = plan.cells_for(m, ctx)
    # point-major, then threads, then systems; serial only at T=1.
    assert [(c.params["n"], c.threads, c.system) for c in cells] == [
        (1000, 1, "llvm-omp"), (1000, 1, "serial"), (1000, 2, "llvm-omp"),
        (100000, 1, "llvm-omp"), (100000, 1, "serial"), (100000, 2, "llvm-omp")]
    first = cells[0]
    assert first.argv == [str(tmp_path / "build/bench/daxpy/bench_daxpy_clang"),
                          "--n", "1000", "--threads", "1", "--flag", "true"]
    assert first.env["OMP_NUM_THREADS"] == "1" and first.env["LOOM_NUM_THREADS"] == "1"
    assert "LD_LIBRARY_PATH" not in first.env
    assert cells[1].argv == [str(bench_root / "daxpy" / "serial.sh")]
    assert first.label() == "daxpy n=1000 fast=True llvm-omp T=1"


def test_loom_omp_cells_put_loom_first_on_library_path(bench_root, tmp_path):
    write_manifest(bench_root, "d", GOOD.replace('system = "llvm-omp"', 'system = "loom-omp"'))
    [m], _ = manifest.discover(bench_root)
    ctx = plan.Context(build_dir=tmp_path, loom_omp_dir=tmp_path / "omp", cores=2)
    cell = plan.cells_for(m, ctx)[0]
    assert cell.env["LD_LIBRARY_PATH"].split(":")[0] == str(tmp_path / "omp")


@pytest.mark.parametrize("values, cores, expected", [
    ([1, "max"], 2, [1, 2]),
    ([1, "max"], 1, [1]),
    (["pow2"], 6, [1, 2, 4, 6]),
    (["pow2"], 8, [1, 2, 4, 8]),
    ([4, 2, 4], 8, [4, 2]),
])
def test_thread_words(values, cores, expected):
    assert plan.expand_threads(values, cores) == expected

"""The variant key `launcher`: a command line put before the binary (mpiexec -n N)."""

import json

import pytest

from conftest import FIXTURES, write_manifest
from loom_bench import cli, manifest, plan

LAUNCHED = """
    name = "dist"
    kind = "metg"
    metric = "gflops"
    estimate_s = 0.1
    [report]
    grain = "grain"
    [[variant]]
    system = "mpi"
    binary = "@F@/good.py"
    launcher = ["@F@/launch.sh", "{bench_dir}/launch.log", "{ranks}", "--"]
    args = ["--system", "{system}", "--threads", "{threads}", "--grain", "{grain}", "--tasks", "64"]
    [[variant]]
    system = "loom"
    binary = "@F@/good.py"
    args = ["--system", "{system}", "--threads", "{threads}", "--grain", "{grain}", "--tasks", "64"]
    [params.quick]
    ranks = 2
    grain = [1, 100]
    threads = [2]
"""


def test_launcher_comes_first_with_placeholders_filled(bench_root, tmp_path):
    path = write_manifest(bench_root, "dist", LAUNCHED)
    m = manifest.load(path)
    assert m.variants[0].launcher[0] == f"{FIXTURES}/launch.sh"
    assert m.variants[1].launcher == []
    ctx = plan.Context(build_dir=tmp_path, loom_omp_dir=tmp_path / "omp", cores=2)
    cells = {c.system: c for c in plan.cells_for(m, ctx) if c.params["grain"] == 1}
    assert cells["mpi"].argv[:5] == [f"{FIXTURES}/launch.sh", f"{bench_root}/dist/launch.log", "2", "--",
                                     f"{FIXTURES}/good.py"]
    assert cells["loom"].argv[0] == f"{FIXTURES}/good.py"


def test_launched_cells_run_and_give_a_metg(bench_root, tmp_path):
    write_manifest(bench_root, "dist", LAUNCHED)
    out = tmp_path / "out"
    assert cli.main(["--bench-root", str(bench_root), "--build-dir", str(tmp_path), "--out", str(out)]) == 0
    doc = json.loads((out / "results.json").read_text())
    statuses = {(c["system"], c["params"]["grain"]): c["status"] for c in doc["cells"]}
    assert set(statuses.values()) == {"ok"}, statuses
    assert (bench_root / "dist" / "launch.log").read_text().splitlines() == ["ranks=2", "ranks=2"]
    report = (out / "report" / "report.md").read_text()
    assert "mpi" in report and "METG" in report


def test_missing_launcher_makes_the_variant_unavailable(bench_root, tmp_path):
    path = write_manifest(bench_root, "dist", LAUNCHED.replace("@F@/launch.sh", "no-such-launcher-here"))
    m = manifest.load(path)
    ctx = plan.Context(build_dir=tmp_path, loom_omp_dir=tmp_path / "omp", cores=2)
    status = plan.variant_status(m, m.variants[0], ctx)
    assert status.unavailable == "launcher not found on PATH: no-such-launcher-here"
    assert plan.variant_status(m, m.variants[1], ctx).unavailable is None


@pytest.mark.parametrize("launcher, message", [
    ('"mpiexec"', "launcher must be a list"),
    ('[["mpiexec"]]', "launcher must be a list"),
    ('[""]', "launcher must be a list"),
    ('["mpiexec", "-n", "{nodes}"]', "placeholder {nodes}"),
])
def test_bad_launchers_are_manifest_errors(bench_root, launcher, message):
    text = LAUNCHED.replace('launcher = ["@F@/launch.sh", "{bench_dir}/launch.log", "{ranks}", "--"]',
                            f"launcher = {launcher}")
    write_manifest(bench_root, "dist", text)
    good, broken = manifest.discover(bench_root)
    assert good == []
    assert message in broken[0].error

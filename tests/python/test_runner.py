"""Failure handling: crash, non-zero exit, wrong result, hang, malformed output.

The fake benchmarks live in fixtures/; each is registered through a temporary
bench root (--bench-root), exactly as a real benchmark would be.
"""

import json
import os
import time

import pytest

from conftest import FIXTURES, write_manifest
from loom_bench import cli, runner
from loom_bench.energy import EnergyMeter
from loom_bench.plan import Cell

ONE_VARIANT = """
    name = "{name}"
    estimate_s = 0.1
    [[variant]]
    system = "llvm-omp"
    binary = "@F@/{script}"
    args = ["--system", "{{system}}", "--threads", "{{threads}}"]
    [params.quick]
    threads = [1]
"""


def run_fixture(bench_root, tmp_path, script, *extra):
    write_manifest(bench_root, "fake", ONE_VARIANT.format(name="fake", script=script))
    out = tmp_path / "out"
    code = cli.main(["--bench-root", str(bench_root), "--build-dir", str(tmp_path),
                     "--out", str(out), *extra])
    doc = json.loads((out / "results.json").read_text())
    [cell] = doc["cells"]
    return code, cell, (out / "report" / "report.md").read_text()


def test_good_benchmark(bench_root, tmp_path):
    code, cell, _ = run_fixture(bench_root, tmp_path, "good.py")
    assert code == 0
    assert cell["status"] == "ok"
    assert cell["time_s"] == pytest.approx(1e-3 * 1.25)      # median of the 3 samples
    assert len(cell["times_s"]) == 3
    assert cell["work"] == {"flops": 2000}
    assert cell["cpu_s"] > 0 and cell["wall_s"] > 0
    assert cell["energy_j"] is None or cell["energy_j"] >= 0


def test_crash_with_signal(bench_root, tmp_path):
    code, cell, report = run_fixture(bench_root, tmp_path, "crash.sh")
    assert code == 0                                   # failures are reported, not fatal
    assert cell["status"] == "failed"
    assert "SIGSEGV" in cell["reason"]
    assert "about to crash" in cell["stderr_tail"]
    assert "FAILED: fake / llvm-omp" in report and "SIGSEGV" in report


def test_nonzero_exit(bench_root, tmp_path):
    _, cell, report = run_fixture(bench_root, tmp_path, "exit_nonzero.sh")
    assert cell["status"] == "failed"
    assert cell["reason"] == "exit code 3"
    assert "could not allocate" in cell["stderr_tail"]
    assert "could not allocate" in report


def test_wrong_result(bench_root, tmp_path):
    _, cell, report = run_fixture(bench_root, tmp_path, "wrong.sh")
    assert cell["status"] == "failed"
    assert cell["reason"].startswith("wrong result (verified: false)")
    assert "sum mismatch: 41 != 42" in report


def test_hang_is_killed_at_timeout(bench_root, tmp_path):
    start = time.monotonic()
    _, cell, report = run_fixture(bench_root, tmp_path, "hang.sh", "--timeout", "1")
    assert time.monotonic() - start < 20
    assert cell["status"] == "failed"
    assert cell["reason"] == "timed out after 1 s"
    assert "timed out" in report


def test_malformed_result_line(bench_root, tmp_path):
    _, cell, _ = run_fixture(bench_root, tmp_path, "malformed.sh")
    assert cell["status"] == "failed"
    assert "malformed result line" in cell["reason"] and "line 2" in cell["reason"]


def test_strict_exit_status(bench_root, tmp_path):
    code, _, _ = run_fixture(bench_root, tmp_path, "wrong.sh", "--strict")
    assert code == 1


def test_repeats_pool_samples_and_stop_at_first_failure(tmp_path):
    good = Cell("fake", "loom", {}, 1, [str(FIXTURES / "good.py"), "--system", "loom",
                                        "--threads", "1"], {}, 0.1, 30)
    result = runner.run_cell(good, 3, EnergyMeter(tmp_path))
    assert len(result.runs) == 3 and len(result.times_s) == 9
    bad = Cell("fake", "loom", {}, 1, [str(FIXTURES / "wrong.sh")], {}, 0.1, 30)
    result = runner.run_cell(bad, 3, EnergyMeter(tmp_path))
    assert len(result.runs) == 1 and result.status == "failed"


def test_missing_executable_is_a_failure_not_an_exception(tmp_path):
    run = runner.run_once([str(tmp_path / "nope")], dict(os.environ), 5, EnergyMeter(tmp_path))
    assert run.failure.startswith("cannot start")


def test_hang_leaves_no_process_behind(tmp_path):
    marker = tmp_path / "pid"
    script = tmp_path / "spawn.sh"
    script.write_text(f"#!/usr/bin/env bash\nsleep 1000 &\necho $! > {marker}\nwait\n")
    script.chmod(0o755)
    run = runner.run_once([str(script)], dict(os.environ), 1, EnergyMeter(tmp_path))
    assert run.timed_out and run.failure == "timed out after 1 s"
    child = int(marker.read_text())
    assert wait_until_dead(child), f"helper process {child} survived the timeout"


def wait_until_dead(pid, seconds=5.0):
    """True once pid is gone or a zombie (its reaper may be slow in containers)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] in ("Z", "X"):
                    return True
        except FileNotFoundError:
            return True
        time.sleep(0.05)
    return False


def test_cpu_seconds_come_from_the_child(tmp_path):
    script = tmp_path / "burn.sh"
    script.write_text('#!/usr/bin/env bash\ni=0; while [ $i -lt 200000 ]; do i=$((i+1)); done\n'
                      'echo \'{"times_s":[0.1],"verified":true}\'\n')
    script.chmod(0o755)
    run = runner.run_once([str(script)], dict(os.environ), 60, EnergyMeter(tmp_path))
    assert run.failure is None
    assert run.cpu_user_s + run.cpu_sys_s > 0.05
    assert run.cpu_user_s + run.cpu_sys_s <= run.wall_s * (os.cpu_count() or 1) + 0.05


def test_wrong_result_wins_over_its_exit_code(tmp_path):
    script = tmp_path / "wrong_exit.sh"
    script.write_text("#!/usr/bin/env bash\n"
                      "echo '{\"times_s\":[0.1],\"verified\":false,\"error\":\"c[3] = 7\"}'\n"
                      "exit 1\n")
    script.chmod(0o755)
    run = runner.run_once([str(script)], dict(os.environ), 10, EnergyMeter(tmp_path))
    assert run.failure == "wrong result (verified: false): c[3] = 7 (exit code 1)"


def test_exit_zero_without_result_line_fails(tmp_path):
    script = tmp_path / "silent.sh"
    script.write_text("#!/usr/bin/env bash\necho 'all good, trust me'\n")
    script.chmod(0o755)
    run = runner.run_once([str(script)], dict(os.environ), 10, EnergyMeter(tmp_path))
    assert run.failure.startswith("no result line on stdout")

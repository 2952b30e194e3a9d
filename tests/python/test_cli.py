"""The entry points: the launcher script and `python -m loom_bench`."""

import os
import subprocess
import sys

from conftest import REPO


def test_python_module_entry_point():
    env = dict(os.environ, PYTHONPATH=str(REPO / "tools"))
    out = subprocess.run([sys.executable, "-m", "loom_bench", "--help"], env=env,
                         capture_output=True, text=True, check=True).stdout
    for option in ("--quick", "--full", "--build-dir", "--only", "--systems", "--repeats",
                   "--out", "--timeout", "--list", "--report-only", "--bench-root", "--build"):
        assert option in out


def test_launcher_is_valid_bash():
    launcher = REPO / "tools" / "loom-bench"
    assert os.access(launcher, os.X_OK)
    subprocess.run(["bash", "-n", str(launcher)], check=True)


def test_unknown_system_is_a_usage_error():
    env = dict(os.environ, PYTHONPATH=str(REPO / "tools"))
    proc = subprocess.run([sys.executable, "-m", "loom_bench", "--systems", "openmp", "--list"],
                          env=env, capture_output=True, text=True)
    assert proc.returncode == 2 and "unknown system" in proc.stderr

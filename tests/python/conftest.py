"""Shared helpers for the loom-bench driver tests.

The driver lives in tools/loom_bench; CTest sets PYTHONPATH=tools, and this file
adds it too so `pytest tests/python` works from a plain checkout.
"""

import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
if str(REPO / "tools") not in sys.path:
    sys.path.insert(0, str(REPO / "tools"))


def pytest_configure(config):
    """Fail loudly, not skip, when the driver's dependencies are missing."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise pytest.UsageError(
            "matplotlib is not installed for " + sys.executable + ": run "
            "`tools/loom-bench --setup` (creates .venv) or "
            "`pip install -r tools/requirements.txt`, then re-run the tests")


def write_manifest(root: Path, dirname: str, text: str) -> Path:
    """Write bench_root/dirname/manifest.toml; `@F@` stands for the fixtures dir."""
    path = root / dirname / "manifest.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).replace("@F@", str(FIXTURES)))
    return path


@pytest.fixture
def bench_root(tmp_path):
    root = tmp_path / "bench"
    root.mkdir()
    return root


@pytest.fixture
def loom_omp_dir(tmp_path):
    """A stand-in for build/default/src/omp holding loom's OpenMP sonames."""
    d = tmp_path / "omp"
    d.mkdir()
    (d / "libomp.so.5").write_bytes(b"")
    (d / "libgomp.so.1").write_bytes(b"")
    return d

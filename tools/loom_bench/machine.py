"""A description of the machine and software a run measured.

Benchmark numbers mean little without the CPU, core count, kernel, compilers
and the exact runtime libraries they ran on, so results.json carries them.
Every probe is best-effort: a missing tool yields None, never an exception.
"""

from __future__ import annotations

import os
import platform
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from .plan import available_cores

COMPILERS = ("clang-19", "clang", "gcc", "g++", "cmake")
RUNTIME_LIBRARIES = ("libomp.so.5", "libgomp.so.1", "libtbb.so.12", "libhwloc.so.15")


def describe(repo: Path, build_dir: Path, loom_omp_dir: Path, energy_available: bool
             ) -> dict[str, Any]:
    """Everything we know about where the run happened."""
    return {
        "hostname": platform.node(),
        "cpu_model": cpu_model(),
        "cores_online": os.cpu_count(),
        "cores_available": available_cores(),
        "kernel": f"{platform.system()} {platform.release()}",
        "os": os_release(),
        "python": sys.version.split()[0],
        "compilers": {name: tool_version(name) for name in COMPILERS},
        "build": build_info(build_dir),
        "runtime_libraries": system_libraries(),
        "loom_omp_dir": str(loom_omp_dir),
        "loom_omp_libraries": sorted(p.name for p in loom_omp_dir.glob("lib*.so*"))
        if loom_omp_dir.is_dir() else [],
        "git": git_info(repo),
        "energy": "RAPL (/sys/class/powercap)" if energy_available else None,
    }


def cpu_model() -> str | None:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or None


def os_release() -> str | None:
    try:
        text = Path("/etc/os-release").read_text()
    except OSError:
        return None
    match = re.search(r'^PRETTY_NAME="?([^"\n]*)"?', text, re.MULTILINE)
    return match.group(1) if match else None


def tool_version(name: str) -> str | None:
    """First line of `name --version`, or None when the tool is absent."""
    if shutil.which(name) is None:
        return None
    out = _run([name, "--version"])
    return out.splitlines()[0].strip() if out else None


def build_info(build_dir: Path) -> dict[str, Any]:
    """Compiler and build type from the build directory's CMake cache."""
    cache = build_dir / "CMakeCache.txt"
    info: dict[str, Any] = {"dir": str(build_dir), "configured": cache.exists()}
    if cache.exists():
        wanted = ("CMAKE_BUILD_TYPE", "CMAKE_CXX_COMPILER", "CMAKE_C_COMPILER")
        for line in cache.read_text(errors="replace").splitlines():
            key = line.split(":", 1)[0]
            if key in wanted and "=" in line:
                info[key] = line.split("=", 1)[1]
    return info


def system_libraries() -> dict[str, str | None]:
    """Where the dynamic loader finds the peer runtimes by default."""
    out = _run(["ldconfig", "-p"]) or _run(["/sbin/ldconfig", "-p"]) or ""
    found: dict[str, str | None] = {name: None for name in RUNTIME_LIBRARIES}
    for line in out.splitlines():
        name = line.strip().split(" ", 1)[0]
        if name in found and found[name] is None and "=>" in line:
            path = line.split("=>", 1)[1].strip()
            found[name] = os.path.realpath(path)
    return found


def git_info(repo: Path) -> dict[str, Any]:
    commit = _run(["git", "-C", str(repo), "rev-parse", "HEAD"])
    status = _run(["git", "-C", str(repo), "status", "--porcelain", "--untracked-files=no"])
    return {"commit": commit.strip() if commit else None,
            "dirty": bool(status.strip()) if status is not None else None}


def _run(argv: list[str]) -> str | None:
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=20, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return proc.stdout if proc.returncode == 0 else None

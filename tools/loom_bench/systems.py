"""What each system name in a manifest means, and whether it can run here.

A *system* is the runtime a variant measures. Most are native binaries; the
`loom-omp` / `loom-gomp` systems run a binary built for another OpenMP runtime
on loom by putting loom's library directory first on LD_LIBRARY_PATH. That swap
is only worth reporting if it really happened, so availability is checked with
the library file itself and, where `ldd` exists, with the binary's resolution.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class System:
    """One runtime a benchmark variant can measure."""

    name: str
    description: str
    # soname a binary of this system must resolve inside loom's OpenMP dir, or None.
    loom_soname: str | None = None
    # loom systems this system is compared against, first present wins.
    references: tuple[str, ...] = field(default_factory=tuple)

    @property
    def is_loom(self) -> bool:
        return self.name == "loom" or self.name.startswith("loom-")


SYSTEMS: dict[str, System] = {
    s.name: s
    for s in (
        System("loom", "loom's native C++ API"),
        System("loom-omp", "clang binary run on loom's libomp.so.5 (kmpc ABI)", "libomp.so.5"),
        System("loom-gomp", "gcc binary run on loom's libgomp.so.1 (GOMP ABI)", "libgomp.so.1",
               references=("loom-omp", "loom")),
        System("llvm-omp", "clang -fopenmp binary on LLVM's libomp",
               references=("loom-omp", "loom-gomp", "loom")),
        System("gnu-omp", "gcc -fopenmp binary on GNU libgomp",
               references=("loom-gomp", "loom-omp", "loom")),
        System("tbb", "oneTBB", references=("loom", "loom-omp")),
        System("threads", "plain std::thread code (bulk-synchronous reference)",
               references=("loom", "loom-omp")),
        System("serial", "sequential code", references=("loom", "loom-omp")),
        System("mpi", "plain MPI, one rank per core, bulk synchronous", references=("loom",)),
        System("mpi-llvm-omp", "MPI + OpenMP, clang -fopenmp on LLVM's libomp", references=("loom",)),
        System("mpi-gnu-omp", "MPI + OpenMP, gcc -fopenmp on GNU libgomp", references=("loom",)),
    )
}

# Environment variables that set the thread count of every runtime we drive.
THREAD_ENV_VARS = ("OMP_NUM_THREADS", "LOOM_NUM_THREADS")


def reference_for(system: str, present: set[str], override: str | None = None) -> str | None:
    """The loom system `system` is compared with, among the systems `present`.

    OpenMP peers are compared with the same binary run on loom, native peers
    with loom's native API. Returns None for a reference system itself (loom,
    loom-omp) or when no reference is present.
    """
    if override:
        return override if override != system and override in present else None
    spec = SYSTEMS.get(system)
    for ref in spec.references if spec else ():
        if ref in present:
            return ref
    return None


def run_env(system: str, threads: int, loom_omp_dir: Path, base: dict[str, str] | None = None,
            extra: dict[str, str] | None = None) -> dict[str, str]:
    """Environment for one run: thread count, loom library swap, variant extras."""
    env = dict(os.environ if base is None else base)
    for var in THREAD_ENV_VARS:
        env[var] = str(threads)
    if SYSTEMS[system].loom_soname:
        old = env.get("LD_LIBRARY_PATH", "")
        env["LD_LIBRARY_PATH"] = str(loom_omp_dir) + (":" + old if old else "")
    env.update(extra or {})
    return env


def binary_unavailable_reason(system: str, binary: Path, loom_omp_dir: Path) -> str | None:
    """Why a variant cannot run here, or None when it can."""
    if not binary.exists():
        return f"binary not built: {binary}"
    if not os.access(binary, os.X_OK):
        return f"binary is not executable: {binary}"
    soname = SYSTEMS[system].loom_soname
    if soname is None:
        return None
    library = loom_omp_dir / soname
    if not library.exists():
        return (f"loom's OpenMP library not found: {library} does not exist "
                f"(build loom's src/omp, or pass --loom-omp-dir)")
    resolved = resolved_libraries(binary, run_env(system, 1, loom_omp_dir)).get(soname)
    if resolved is not None and Path(resolved).resolve() != library.resolve():
        return f"{binary.name} resolves {soname} to {resolved}, not to loom's (RPATH set?)"
    return None


def resolved_libraries(binary: Path, env: dict[str, str]) -> dict[str, str]:
    """Map soname -> path the dynamic loader picks for `binary` (empty without ldd)."""
    ldd = shutil.which("ldd")
    if ldd is None or not binary.exists():
        return {}
    try:
        out = subprocess.run([ldd, str(binary)], env=env, capture_output=True, text=True,
                             timeout=20, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return {}
    libs = {}
    for line in out.splitlines():
        name, sep, rest = line.strip().partition(" => ")
        if sep and rest and not rest.startswith("not found"):
            libs[name] = rest.split(" (")[0].strip()
    return libs

"""Expanding manifests into the cells to run, with time estimates.

A *cell* is one benchmark x system x parameter point x thread count: one
command line that the runner executes `repeats` times. Cells are ordered
parameter-point-major and system-minor, so that when the time budget runs out
every system has been measured on the same points (a partial run still
compares like with like).
"""

from __future__ import annotations

import itertools
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import systems
from .manifest import Manifest, Variant
from .results import cell_label

DEFAULT_TIMEOUT_S = {"quick": 60.0, "full": 600.0}


@dataclass
class Cell:
    """One command to measure."""

    bench: str
    system: str
    params: dict[str, Any]
    threads: int
    argv: list[str]
    env: dict[str, str]             # variant extras and thread variables, not the whole env
    estimate_s: float               # expected seconds per run
    timeout_s: float

    def label(self) -> str:
        """Human name used in progress lines and the report."""
        return cell_label(self.bench, self.params, self.system, self.threads)

    def key(self) -> tuple:
        return (self.bench, self.system, tuple(sorted(self.params.items())), self.threads)


@dataclass
class VariantStatus:
    """Whether a manifest's variant can run here, and why not."""

    system: str
    binary: str
    unavailable: str | None = None
    libraries: dict[str, str] = field(default_factory=dict)


@dataclass
class Context:
    """Where things are and how the run is configured."""

    build_dir: Path
    loom_omp_dir: Path
    mode: str = "quick"
    cores: int = 1
    timeout_s: float | None = None       # CLI override for every cell


def available_cores() -> int:
    """CPUs this process may run on (affinity mask), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def expand_threads(values: list[int | str], cores: int) -> list[int]:
    """Resolve 'max' and 'pow2' thread words; de-duplicate, keep order."""
    out: list[int] = []
    for value in values:
        if value == "max":
            expanded = [cores]
        elif value == "pow2":
            expanded = [1 << i for i in range(cores.bit_length()) if 1 << i < cores] + [cores]
        else:
            expanded = [int(value)]
        out.extend(t for t in expanded if t not in out)
    return out


def binary_path(manifest: Manifest, variant: Variant, ctx: Context) -> Path:
    """The variant's binary: placeholders filled, relative paths under the build dir."""
    text = variant.binary.format(build_dir=ctx.build_dir, bench_dir=manifest.directory)
    path = Path(text)
    return path if path.is_absolute() else ctx.build_dir / path


def variant_status(manifest: Manifest, variant: Variant, ctx: Context) -> VariantStatus:
    """Check one variant's binary and libraries once, before any cell runs."""
    binary = binary_path(manifest, variant, ctx)
    status = VariantStatus(variant.system, str(binary))
    status.unavailable = systems.binary_unavailable_reason(variant.system, binary, ctx.loom_omp_dir)
    if status.unavailable is None and variant.launcher and shutil.which(variant.launcher[0]) is None:
        status.unavailable = f"launcher not found on PATH: {variant.launcher[0]}"
    if status.unavailable is None:
        env = systems.run_env(variant.system, 1, ctx.loom_omp_dir)
        status.libraries = {k: v for k, v in systems.resolved_libraries(binary, env).items()
                            if _is_runtime_library(k)}
    return status


def cells_for(manifest: Manifest, ctx: Context, allowed_systems: set[str] | None = None,
              statuses: dict[str, VariantStatus] | None = None) -> list[Cell]:
    """All cells of one manifest for the context's mode, available variants only."""
    params = manifest.params[ctx.mode]
    names = [k for k in params if k != "threads"]
    variants = [v for v in manifest.variants
                if (allowed_systems is None or v.system in allowed_systems)
                and (statuses is None or statuses[v.system].unavailable is None)]
    cells = []
    for values in itertools.product(*(params[k] for k in names)):
        point = dict(zip(names, values))
        for threads in expand_threads(params["threads"], ctx.cores):
            for variant in variants:
                allowed = expand_threads(variant.threads, ctx.cores) if variant.threads else None
                if allowed is not None and threads not in allowed:
                    continue
                cells.append(_make_cell(manifest, variant, point, threads, ctx))
    return cells


def _make_cell(manifest: Manifest, variant: Variant, point: dict[str, Any], threads: int,
               ctx: Context) -> Cell:
    values = {k: _format_value(v) for k, v in point.items()}
    values.update(threads=str(threads), system=variant.system, build_dir=str(ctx.build_dir),
                  bench_dir=str(manifest.directory))
    # Only the variables a run sets; the runner lays them over the driver's environment.
    full = systems.run_env(variant.system, threads, ctx.loom_omp_dir)
    env = {k: full[k] for k in (*systems.THREAD_ENV_VARS, "LD_LIBRARY_PATH")
           if k in full and (k != "LD_LIBRARY_PATH" or systems.SYSTEMS[variant.system].loom_soname)}
    env.update({k: v.format(**values) for k, v in variant.env.items()})
    argv = ([a.format(**values) for a in variant.launcher] + [str(binary_path(manifest, variant, ctx))]
            + [a.format(**values) for a in variant.args])
    timeout = ctx.timeout_s or manifest.timeout_s[ctx.mode] or DEFAULT_TIMEOUT_S[ctx.mode]
    return Cell(bench=manifest.name, system=variant.system, params=dict(point), threads=threads,
                argv=argv, env=env, estimate_s=float(manifest.estimate_s[ctx.mode]),
                timeout_s=float(timeout))


def _format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _is_runtime_library(soname: str) -> bool:
    return any(key in soname for key in ("omp", "tbb", "loom", "hwloc", "boost_context"))


def estimate_seconds(cells: list[Cell], repeats: int) -> float:
    """Expected wall time of running all cells `repeats` times."""
    return sum(c.estimate_s for c in cells) * repeats

"""The results document: what was measured, written as results.json.

Everything the report shows is derived from this document alone, so
`--report-only results.json` can redraw a report on another machine. The
records are plain dicts/lists (JSON types) with small dataclasses around the
parts the driver builds.
"""

from __future__ import annotations

import json
import statistics
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 1

OK, FAILED, SKIPPED = "ok", "failed", "skipped"


def cell_label(bench: str, params: dict[str, Any], system: str, threads: int) -> str:
    """How a cell is named in progress lines and the report: `sort cutoff=10 loom-omp T=2`."""
    point = " ".join(f"{k}={v}" for k, v in params.items())
    return " ".join(p for p in (bench, point, system, f"T={threads}") if p)


@dataclass
class RunRecord:
    """One execution of a cell's command."""

    wall_s: float
    cpu_user_s: float
    cpu_sys_s: float
    energy_j: float | None
    exit_code: int | None               # None when killed by a signal
    signal: int | None
    timed_out: bool
    results: list[dict[str, Any]] = field(default_factory=list)
    malformed: list[str] = field(default_factory=list)
    failure: str | None = None
    stderr_tail: str = ""


@dataclass
class CellResult:
    """A measured (or failed, or skipped) cell with its aggregates."""

    bench: str
    system: str
    params: dict[str, Any]
    threads: int
    argv: list[str]
    env: dict[str, str]
    status: str
    reason: str | None = None
    stderr_tail: str = ""
    runs: list[RunRecord] = field(default_factory=list)
    times_s: list[float] = field(default_factory=list)   # all samples of all runs
    time_s: float | None = None          # median of times_s: the measurement
    wall_s: float | None = None          # median process wall time
    cpu_s: float | None = None           # median user+sys CPU-seconds of the process
    energy_j: float | None = None        # median package energy of the process
    work: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def label(self) -> str:
        return cell_label(self.bench, self.params, self.system, self.threads)

    def aggregate(self) -> None:
        """Fill the medians from the runs; the median resists one noisy sample."""
        self.times_s = [t for run in self.runs for line in run.results for t in line["times_s"]]
        self.time_s = _median(self.times_s)
        self.wall_s = _median([r.wall_s for r in self.runs])
        self.cpu_s = _median([r.cpu_user_s + r.cpu_sys_s for r in self.runs])
        energies = [r.energy_j for r in self.runs]
        self.energy_j = None if not energies or None in energies else _median(energies)
        first = next((line for run in self.runs for line in run.results), None)
        self.work = dict(first.get("work", {})) if first else {}


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


@dataclass
class Document:
    """The whole results.json."""

    mode: str
    created: str
    argv: list[str]
    machine: dict[str, Any]
    config: dict[str, Any]
    benchmarks: list[dict[str, Any]]         # manifests, variant availability
    broken_manifests: list[dict[str, Any]]
    cells: list[CellResult]
    elapsed_s: float = 0.0
    schema: int = SCHEMA_VERSION
    # Recorded task graphs and their simulations (simreport.py), one entry per benchmark.
    simulations: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def save(doc: Document, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(doc.to_json(), indent=1, sort_keys=False) + "\n")
    tmp.replace(path)


def load(path: Path) -> Document:
    """Read a results.json written by `save` (any older field set is tolerated)."""
    data = json.loads(Path(path).read_text())
    if data.get("schema", 0) > SCHEMA_VERSION:
        raise ValueError(f"{path}: schema {data['schema']} is newer than this driver's "
                         f"({SCHEMA_VERSION})")
    cells = [_cell_from_json(c) for c in data.get("cells", [])]
    return Document(mode=data.get("mode", "?"), created=data.get("created", ""),
                    argv=data.get("argv", []), machine=data.get("machine", {}),
                    config=data.get("config", {}), benchmarks=data.get("benchmarks", []),
                    broken_manifests=data.get("broken_manifests", []), cells=cells,
                    elapsed_s=data.get("elapsed_s", 0.0),
                    simulations=data.get("simulations", []))


def _cell_from_json(data: dict[str, Any]) -> CellResult:
    runs = [RunRecord(**r) for r in data.pop("runs", [])]
    known = set(CellResult.__dataclass_fields__)
    return CellResult(runs=runs, **{k: v for k, v in data.items() if k in known})

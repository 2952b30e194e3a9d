"""Discovery and validation of benchmark manifests (bench/*/manifest.toml).

Every workload registers itself with one manifest beside its sources, so the
driver never names a workload. The format is specified in
bench/manifest_format.md; this module is its executable definition. A broken
manifest must not take the suite down, so errors are collected and reported
next to the results rather than raised.
"""

from __future__ import annotations

import re
import string
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .systems import SYSTEMS

MODES = ("quick", "full")
KINDS = ("scaling", "metg", "sort_cutoff", "flops_bars", "table")
FLOP_METRICS = {"flops": 1.0, "kflops": 1e3, "mflops": 1e6, "gflops": 1e9}
BUILTIN_PLACEHOLDERS = ("threads", "system", "build_dir", "bench_dir")
THREAD_WORDS = ("max", "pow2")
DEFAULT_THREADS = [1, "max"]
DEFAULT_ESTIMATE_S = 1.0
_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
_TOP_KEYS = {"name", "title", "description", "kind", "metric", "reference", "variant",
             "params", "report", "estimate_s", "timeout_s", "simulate"}
_VARIANT_KEYS = {"system", "binary", "args", "env", "threads", "launcher"}
# Report options per kind: option -> default ("" = required, must name a parameter).
# [report] options whose value is a word, not a parameter name.
_REPORT_WORDS: dict[str, tuple[str, ...]] = {"baseline": ("serial", "self")}
_REPORT_OPTIONS: dict[str, dict[str, Any]] = {
    "scaling": {"size": None, "baseline": "serial"},
    "metg": {"grain": "", "peak_by": None},
    "sort_cutoff": {"cutoff": "cutoff"},
    "flops_bars": {"group": None},
    "table": {},
}


class ManifestError(Exception):
    """A manifest that cannot be used; the message says what to fix."""


@dataclass
class Variant:
    """One system's binary for a workload."""

    system: str
    binary: str
    args: list[str]
    env: dict[str, str] = field(default_factory=dict)
    threads: list[int | str] | None = None
    # Command line put before the binary (`mpiexec -n {ranks}`): its first word is
    # looked up on PATH; placeholders as in args.
    launcher: list[str] = field(default_factory=list)


@dataclass
class Manifest:
    """One workload, validated."""

    name: str
    title: str
    kind: str
    metric: str
    path: Path
    variants: list[Variant]
    params: dict[str, dict[str, list]]          # mode -> parameter -> values
    report: dict[str, Any]
    estimate_s: dict[str, float]
    timeout_s: dict[str, float | None]
    reference: str | None = None
    description: str = ""
    # [simulate]: record one task graph (--record-graph) and simulate it (simreport.py)
    simulate: dict[str, Any] | None = None

    @property
    def directory(self) -> Path:
        return self.path.parent

    def systems(self) -> list[str]:
        return [v.system for v in self.variants]


@dataclass
class BrokenManifest:
    """A manifest that failed validation, kept so the report can show it."""

    path: Path
    error: str
    name: str | None = None


def discover(bench_root: Path) -> tuple[list[Manifest], list[BrokenManifest]]:
    """Load every bench_root/*/manifest.toml, sorted by directory name.

    A folder holding several benchmarks (bench/core: fib, ping-pong, idle burn)
    adds one `manifest.<name>.toml` per further benchmark beside its
    manifest.toml; they follow it in file-name order.
    """
    good: list[Manifest] = []
    broken: list[BrokenManifest] = []
    seen: dict[str, Path] = {}
    for path in manifest_paths(bench_root):
        try:
            manifest = load(path)
        except ManifestError as exc:
            broken.append(BrokenManifest(path, str(exc), _peek_name(path)))
            continue
        if manifest.name in seen:
            broken.append(BrokenManifest(
                path, f"duplicate benchmark name {manifest.name!r} (also in {seen[manifest.name]})",
                manifest.name))
            continue
        seen[manifest.name] = path
        good.append(manifest)
    return good, broken


def manifest_paths(bench_root: Path) -> list[Path]:
    """bench_root/<dir>/manifest.toml and <dir>/manifest.*.toml, by directory, then name."""
    paths = [*Path(bench_root).glob("*/manifest.toml"), *Path(bench_root).glob("*/manifest.*.toml")]
    return sorted(set(paths), key=lambda p: (p.parent.name, p.name != "manifest.toml", p.name))


def load(path: Path) -> Manifest:
    """Parse and validate one manifest file."""
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ManifestError(f"cannot parse TOML: {exc}") from exc
    return from_dict(data, Path(path))


def from_dict(data: dict[str, Any], path: Path) -> Manifest:
    """Validate a parsed manifest table."""
    _reject_unknown(data, _TOP_KEYS, "top level")
    name = _require_str(data, "name")
    if not _NAME_RE.match(name):
        raise ManifestError(f"name {name!r} must match {_NAME_RE.pattern}")
    kind = data.get("kind", "table")
    if kind not in KINDS:
        raise ManifestError(f"kind {kind!r} is not one of {', '.join(KINDS)}")
    metric = _parse_metric(data.get("metric", "time"))
    params = _parse_params(data.get("params"))
    variants = _parse_variants(data.get("variant"))
    reference = data.get("reference")
    if reference is not None and reference not in {v.system for v in variants}:
        raise ManifestError(f"reference {reference!r} is not one of this manifest's systems")
    manifest = Manifest(
        name=name, title=str(data.get("title", name)), kind=kind, metric=metric, path=path,
        variants=variants, params=params, report=_parse_report(kind, data.get("report", {}), params),
        estimate_s=_per_mode(data.get("estimate_s", DEFAULT_ESTIMATE_S), "estimate_s"),
        timeout_s=_per_mode(data.get("timeout_s"), "timeout_s"),
        reference=reference, description=str(data.get("description", "")),
        simulate=_parse_simulate(data.get("simulate")))
    _check_placeholders(manifest)
    return manifest


def _parse_simulate(table: Any) -> dict[str, Any] | None:
    """[simulate] n, nb (the recorded run) and workers (simulated worker counts)."""
    if table is None:
        return None
    if not isinstance(table, dict):
        raise ManifestError("[simulate] must be a table")
    _reject_unknown(table, {"n", "nb", "workers"}, "[simulate]")
    out: dict[str, Any] = {}
    for key in ("n", "nb"):
        value = table.get(key)
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ManifestError(f"[simulate] {key} must be a positive integer")
        out[key] = value
    workers = table.get("workers", [16, 64])
    if (not isinstance(workers, list) or not workers
            or not all(isinstance(w, int) and not isinstance(w, bool) and w > 0 for w in workers)):
        raise ManifestError("[simulate] workers must be a list of positive integers")
    out["workers"] = workers
    return out


def _peek_name(path: Path) -> str | None:
    """Best-effort name of a broken manifest, for the report."""
    try:
        with open(path, "rb") as f:
            name = tomllib.load(f).get("name")
        return name if isinstance(name, str) else None
    except (OSError, tomllib.TOMLDecodeError):
        return None


def _reject_unknown(table: dict, allowed: set[str], where: str) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise ManifestError(f"unknown key(s) at {where}: {', '.join(unknown)}")


def _require_str(table: dict, key: str) -> str:
    value = table.get(key)
    if not isinstance(value, str) or not value:
        raise ManifestError(f"{key!r} must be a non-empty string")
    return value


def _parse_metric(metric: Any) -> str:
    if not isinstance(metric, str):
        raise ManifestError("metric must be a string")
    if metric == "time" or metric in FLOP_METRICS or (metric.endswith("/s") and len(metric) > 2):
        return metric
    raise ManifestError(
        f"metric {metric!r} must be 'time', one of {', '.join(FLOP_METRICS)}, or '<work key>/s'")


def _parse_threads(values: Any, where: str) -> list[int | str]:
    values = values if isinstance(values, list) else [values]
    if not values:
        raise ManifestError(f"{where}: threads must not be empty")
    for v in values:
        ok = (isinstance(v, int) and not isinstance(v, bool) and v >= 1) or v in THREAD_WORDS
        if not ok:
            raise ManifestError(f"{where}: thread count {v!r} must be a positive integer, "
                                f"'max' or 'pow2'")
    return values


def _parse_params(table: Any) -> dict[str, dict[str, list]]:
    if not isinstance(table, dict) or "quick" not in table:
        raise ManifestError("[params.quick] is required")
    _reject_unknown(table, set(MODES), "[params]")
    modes = {}
    for mode in MODES:
        raw = table.get(mode, table["quick"])
        if not isinstance(raw, dict):
            raise ManifestError(f"[params.{mode}] must be a table")
        modes[mode] = _parse_param_values(raw, mode)
    if set(modes["quick"]) != set(modes["full"]):
        raise ManifestError("[params.quick] and [params.full] must name the same parameters")
    return modes


def _parse_param_values(raw: dict, mode: str) -> dict[str, list]:
    params: dict[str, list] = {}
    for key, values in raw.items():
        if key in BUILTIN_PLACEHOLDERS and key != "threads":
            raise ManifestError(f"[params.{mode}]: {key!r} is reserved")
        if key == "threads":
            params[key] = _parse_threads(values, f"[params.{mode}]")
            continue
        values = values if isinstance(values, list) else [values]
        if not values or any(isinstance(v, (dict, list)) for v in values):
            raise ManifestError(f"[params.{mode}].{key} must be a scalar or a non-empty list "
                                f"of scalars")
        params[key] = values
    params.setdefault("threads", list(DEFAULT_THREADS))
    return params


def _parse_variants(raw: Any) -> list[Variant]:
    if not isinstance(raw, list) or not raw:
        raise ManifestError("at least one [[variant]] is required")
    variants, systems = [], set()
    for i, table in enumerate(raw):
        where = f"[[variant]] #{i + 1}"
        _reject_unknown(table, _VARIANT_KEYS, where)
        system = _require_str(table, "system")
        if system not in SYSTEMS:
            raise ManifestError(f"{where}: system {system!r} is not one of {', '.join(SYSTEMS)}")
        if system in systems:
            raise ManifestError(f"{where}: system {system!r} appears twice")
        systems.add(system)
        args = table.get("args", [])
        env = table.get("env", {})
        if not isinstance(args, list) or any(isinstance(a, (dict, list)) for a in args):
            raise ManifestError(f"{where}: args must be a list of strings")
        if not isinstance(env, dict) or any(isinstance(v, (dict, list)) for v in env.values()):
            raise ManifestError(f"{where}: env must be a table of strings")
        launcher = table.get("launcher", [])
        if (not isinstance(launcher, list) or any(isinstance(a, (dict, list)) for a in launcher)
                or (launcher and not str(launcher[0]))):
            raise ManifestError(f"{where}: launcher must be a list of strings, a program first")
        threads = table.get("threads")
        variants.append(Variant(
            system=system, binary=_require_str(table, "binary"), args=[str(a) for a in args],
            env={str(k): str(v) for k, v in env.items()},
            threads=None if threads is None else _parse_threads(threads, where),
            launcher=[str(a) for a in launcher]))
    return variants


def _parse_report(kind: str, raw: Any, params: dict[str, dict[str, list]]) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise ManifestError("[report] must be a table")
    options = _REPORT_OPTIONS[kind]
    _reject_unknown(raw, set(options), f"[report] of kind {kind!r}")
    report = {**options, **raw}
    names = set(params["quick"])
    for key, value in report.items():
        if key in _REPORT_WORDS:
            if value not in _REPORT_WORDS[key]:
                raise ManifestError(f"[report].{key} must be one of "
                                    f"{', '.join(_REPORT_WORDS[key])}, not {value!r}")
            continue
        if value == "":
            raise ManifestError(f"[report].{key} is required for kind {kind!r}")
        for param in value if isinstance(value, list) else [value]:
            if param is not None and param not in names:
                raise ManifestError(f"[report].{key} names parameter {param!r}, which "
                                    f"[params] does not define")
    return report


def _per_mode(value: Any, key: str) -> dict[str, float | None]:
    """A number for both modes, or a {quick=, full=} table."""
    if value is None or isinstance(value, (int, float)) and not isinstance(value, bool):
        return {mode: value for mode in MODES}
    if isinstance(value, dict) and set(value) <= set(MODES):
        quick = value.get("quick")
        return {"quick": quick, "full": value.get("full", quick)}
    raise ManifestError(f"{key} must be a number of seconds or a table {{quick = S, full = S}}")


def _check_placeholders(manifest: Manifest) -> None:
    """Every {name} in args/env must be a parameter or a built-in placeholder."""
    known = set(manifest.params["quick"]) | set(BUILTIN_PLACEHOLDERS)
    for variant in manifest.variants:
        for text in [*variant.launcher, *variant.args, *variant.env.values()]:
            try:
                fields = [f for _, f, _, _ in string.Formatter().parse(text) if f is not None]
            except ValueError as exc:
                raise ManifestError(f"{variant.system}: bad placeholder in {text!r}: {exc}") from exc
            for name in fields:
                if name not in known:
                    raise ManifestError(f"{variant.system}: placeholder {{{name}}} in {text!r} is "
                                        f"neither a parameter nor one of "
                                        f"{', '.join(BUILTIN_PLACEHOLDERS)}")

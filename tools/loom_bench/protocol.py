"""The result-line protocol between benchmark binaries and the driver.

A binary prints one JSON object per line on stdout for each measurement;
nothing scrapes free text. Lines whose first non-blank character is not `{`
are ignored (so a binary may print banners or OMP_DISPLAY_ENV output), but a
line that starts with `{` and is not a valid result is an error: silently
ignoring it could hide a broken measurement. The full specification is in
bench/manifest_format.md.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any


@dataclass
class ResultLine:
    """One measurement reported by a binary."""

    times_s: list[float]
    verified: bool
    work: dict[str, float] = field(default_factory=dict)
    params: dict[str, Any] = field(default_factory=dict)
    threads: int | None = None
    bench: str | None = None
    system: str | None = None
    error: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    line_no: int = 0


@dataclass
class ParsedOutput:
    """All result lines of one run, plus the lines that broke the protocol."""

    results: list[ResultLine] = field(default_factory=list)
    malformed: list[str] = field(default_factory=list)   # "line N: why"


class ProtocolError(ValueError):
    """A candidate result line that does not follow the protocol."""


def parse_output(stdout: str) -> ParsedOutput:
    """Split a binary's stdout into result lines, ignored text and malformed lines."""
    parsed = ParsedOutput()
    for number, line in enumerate(stdout.splitlines(), start=1):
        if not line.lstrip().startswith("{"):
            continue
        try:
            result = parse_line(line)
        except ProtocolError as exc:
            parsed.malformed.append(f"line {number}: {exc}")
            continue
        result.line_no = number
        parsed.results.append(result)
    return parsed


def parse_line(line: str) -> ResultLine:
    """Parse one `{...}` line into a ResultLine or raise ProtocolError."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ProtocolError(f"invalid JSON ({exc.msg} at column {exc.colno}): "
                            f"{_shorten(line)}") from exc
    if not isinstance(obj, dict):
        raise ProtocolError(f"not a JSON object: {_shorten(line)}")
    return ResultLine(
        times_s=_times(obj), verified=_verified(obj), work=_work(obj),
        params=_table(obj, "params"), threads=_threads(obj),
        bench=_optional_str(obj, "bench"), system=_optional_str(obj, "system"),
        error=_optional_str(obj, "error"), extra=_table(obj, "extra"))


def _times(obj: dict) -> list[float]:
    times = obj.get("times_s")
    if not isinstance(times, list) or not times:
        raise ProtocolError('"times_s" must be a non-empty list of seconds')
    for t in times:
        if not _is_number(t) or not math.isfinite(t) or t < 0:
            raise ProtocolError(f'"times_s" holds {t!r}, not a finite number >= 0')
    return [float(t) for t in times]


def _verified(obj: dict) -> bool:
    verified = obj.get("verified")
    if not isinstance(verified, bool):
        raise ProtocolError('"verified" must be true or false')
    return verified


def _work(obj: dict) -> dict[str, float]:
    work = _table(obj, "work")
    for key, value in work.items():
        if not _is_number(value) or value < 0:
            raise ProtocolError(f'"work.{key}" must be a number >= 0, not {value!r}')
    return work


def _threads(obj: dict) -> int | None:
    threads = obj.get("threads")
    if threads is not None and (not isinstance(threads, int) or isinstance(threads, bool)):
        raise ProtocolError('"threads" must be an integer')
    return threads


def _table(obj: dict, key: str) -> dict:
    value = obj.get(key, {})
    if not isinstance(value, dict):
        raise ProtocolError(f'"{key}" must be a JSON object')
    return value


def _optional_str(obj: dict, key: str) -> str | None:
    value = obj.get(key)
    if value is not None and not isinstance(value, str):
        raise ProtocolError(f'"{key}" must be a string')
    return value


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _shorten(text: str, limit: int = 120) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[:limit] + "..."

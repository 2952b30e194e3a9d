"""Recorded task graphs (a tile benchmark's `--record-graph FILE`).

The file is one JSON object (bench/common/task_graph.hpp writes it): run facts
(bench, system, n, nb, nt, threads, ...), "tasks" in creation order -- each with
its kind, tile indices, whether `--priority` marks it ("panel"), the OpenMP
thread that ran it and steady-clock nanoseconds of creation, start and end -- and
"edges" [from, to] between task ids. A task is created after its predecessors, so
every edge goes from a smaller id to a larger one, and the graph has no cycle.

`parse` checks all of that and says what is wrong instead of letting a bad file
reach the simulator.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FORMAT = "loom-task-graph"
VERSION = 1


class GraphError(ValueError):
    """A task graph file that cannot be used; the message says why."""


@dataclass
class Task:
    id: int
    kind: str
    cost_ns: float
    panel: bool = False
    tile: tuple[int, ...] = ()
    thread: int = -1
    start_ns: float = 0.0
    end_ns: float = 0.0


@dataclass
class TaskGraph:
    tasks: list[Task]
    edges: list[tuple[int, int]]
    meta: dict[str, Any] = field(default_factory=dict)
    succ: list[list[int]] = field(init=False)    # ascending ids (creation order)
    pred: list[list[int]] = field(init=False)

    def __post_init__(self) -> None:
        self.succ = [[] for _ in self.tasks]
        self.pred = [[] for _ in self.tasks]
        self.edges = sorted(set(self.edges))    # one edge per pair, as the runtimes link them
        for a, b in self.edges:
            self.succ[a].append(b)
            self.pred[b].append(a)
        for s in self.succ:
            s.sort()

    def __len__(self) -> int:
        return len(self.tasks)

    def total_work_ns(self) -> float:
        return sum(t.cost_ns for t in self.tasks)

    def critical_path_ns(self) -> float:
        """The longest path by task costs: no schedule on any number of workers is shorter."""
        finish = [0.0] * len(self.tasks)
        for t in self.tasks:   # ids are a topological order
            start = max((finish[p] for p in self.pred[t.id]), default=0.0)
            finish[t.id] = start + t.cost_ns
        return max(finish, default=0.0)

    def label(self) -> str:
        m = self.meta
        parts = [str(m.get("bench", "graph"))]
        if "nt" in m:
            parts.append(f"{m['nt']}x{m['nt']} tiles (n={m.get('n')}, nb={m.get('nb')})")
        return ", ".join(parts)


def from_costs(costs: list[float], edges: list[tuple[int, int]],
               panel: list[bool] | None = None, kinds: list[str] | None = None) -> TaskGraph:
    """A graph made by hand (costs in ns), checked like a file."""
    data = {"format": FORMAT, "version": VERSION, "tasks": [
        {"id": i, "kind": (kinds[i] if kinds else "task"), "panel": bool(panel and panel[i]),
         "start_ns": 0, "end_ns": c} for i, c in enumerate(costs)],
        "edges": [list(e) for e in edges]}
    return parse(data, "<hand-made>")


def load(path: Path | str) -> TaskGraph:
    try:
        text = Path(path).read_text()
    except OSError as exc:
        raise GraphError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise GraphError(f"{path}: not JSON ({exc.msg} at line {exc.lineno})") from None
    return parse(data, str(path))


def parse(data: Any, source: str) -> TaskGraph:
    if not isinstance(data, dict):
        raise GraphError(f"{source}: expected a JSON object, got {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise GraphError(f"{source}: not a task graph (format {data.get('format')!r}, "
                         f"expected {FORMAT!r})")
    if data.get("version") != VERSION:
        raise GraphError(f"{source}: task graph version {data.get('version')!r}; "
                         f"this reader knows {VERSION}")
    raw_tasks, raw_edges = data.get("tasks"), data.get("edges")
    if not isinstance(raw_tasks, list) or not isinstance(raw_edges, list):
        raise GraphError(f"{source}: 'tasks' and 'edges' must both be lists")
    tasks = [_task(t, i, source) for i, t in enumerate(raw_tasks)]
    edges = [_edge(e, k, len(tasks), source) for k, e in enumerate(raw_edges)]
    meta = {k: v for k, v in data.items() if k not in ("tasks", "edges")}
    return TaskGraph(tasks, edges, meta)


def _task(t: Any, index: int, source: str) -> Task:
    where = f"{source}: task {index}"
    if not isinstance(t, dict):
        raise GraphError(f"{where}: expected an object")
    if t.get("id") != index:
        raise GraphError(f"{where}: id {t.get('id')!r}; ids must be 0, 1, 2, ... in file order")
    start, end = t.get("start_ns"), t.get("end_ns")
    if not _is_number(start) or not _is_number(end):
        raise GraphError(f"{where}: start_ns and end_ns must be numbers")
    if end < start:
        raise GraphError(f"{where}: ends ({end}) before it starts ({start})")
    tile = t.get("tile", [])
    if not isinstance(tile, list) or not all(isinstance(x, int) for x in tile):
        raise GraphError(f"{where}: tile must be a list of integers")
    thread = t.get("thread", -1)
    if not isinstance(thread, int):
        raise GraphError(f"{where}: thread must be an integer")
    return Task(id=index, kind=str(t.get("kind", "task")), cost_ns=float(end - start),
                panel=bool(t.get("panel", False)), tile=tuple(tile), thread=thread,
                start_ns=float(start), end_ns=float(end))


def _edge(e: Any, k: int, n: int, source: str) -> tuple[int, int]:
    if (not isinstance(e, list) or len(e) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in e)):
        raise GraphError(f"{source}: edge {k}: expected [from, to] task ids, got {e!r}")
    a, b = e
    if not (0 <= a < n and 0 <= b < n):
        raise GraphError(f"{source}: edge {k} {e}: no such task (there are {n})")
    if a >= b:
        raise GraphError(f"{source}: edge {k} {e}: a task can only wait for one created "
                         "before it (from < to)")
    return a, b


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)

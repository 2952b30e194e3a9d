"""A discrete-event simulation of loom's scheduler replaying a recorded task graph.

Two cores cannot show what 64 do, so the graph of a real run (task costs measured
inside the tasks, edges from the tasks' dependences; taskgraph.py) is replayed on
any number of simulated workers under the policies of src/core (worker::try_get,
level_queue, critical_path.cpp; docs/architecture.md "Where a worker looks for
work"). What is modelled:

- Worker 0 creates the tasks in program order, `create_us` each, and joins the
  other workers when it has created the last (the OpenMP `single` thread). A task
  whose predecessors have all finished when it is created is ready at once and goes
  on the creator's deque.
- Each worker has a deque: the owner pops the newest task (LIFO), thieves take the
  oldest (FIFO). A task released by a finishing predecessor is pushed on the deque
  of the worker that ran the predecessor; successors are released in the reverse of
  the order their edges were added (the runtime keeps them in a LIFO list).
- A thief scans its victims nearest first (on a flat machine: the next index
  after it, wrapping around) or, with victims="random", from a seeded random start;
  a successful steal costs `steal_us` before the task starts.
- High-priority tasks wait in one pool-wide queue, highest level first, first in
  first out within a level; every worker looks there before its own deque, except
  that after 64 high tasks in a row it takes one task of its own deque first (the
  starvation bound).
- Policies: "none" (every task normal), "panel" (the tasks the benchmark's
  --priority marks get priority(1), i.e. level 1 with OMP_MAX_TASK_PRIORITY=1),
  "critical_path" (LOOM_CRITICAL_PATH=1: a task that becomes ready with n
  successors created so far, n >= 2 and n >= 2x the exponentially weighted mean of
  the successor counts of the tasks ranked before it, is high at level min(n, 255)).
- Every task costs its recorded duration plus `overhead_us` (dispatch, release).
- Idle workers notice new work at once (spinning, not sleeping); tasks never wait.

It is a model: no cache effects, memory bandwidth, or contention on the shared
queue. Runs are deterministic for a given seed.
"""

from __future__ import annotations

import bisect
import heapq
import random
from collections import deque
from dataclasses import dataclass, field

from .taskgraph import TaskGraph

POLICIES = ("none", "panel", "critical_path")
POLICY_TITLES = {"none": "no hints", "panel": "panel priority",
                 "critical_path": "automatic critical path"}
VICTIM_ORDERS = ("nearest", "random")
MAX_HIGH_STREAK = 64            # worker.cpp: max_high_streak
MAX_LEVEL = 255


@dataclass
class Params:
    workers: int
    policy: str = "none"
    overhead_us: float = 0.5
    steal_us: float = 1.0
    create_us: float = 0.5
    victims: str = "nearest"
    seed: int = 1

    def check(self) -> None:
        if self.workers < 1:
            raise ValueError(f"workers must be at least 1, not {self.workers}")
        if self.policy not in POLICIES:
            raise ValueError(f"unknown policy {self.policy!r}; known: {', '.join(POLICIES)}")
        if self.victims not in VICTIM_ORDERS:
            raise ValueError(f"unknown victim order {self.victims!r}; known: "
                             f"{', '.join(VICTIM_ORDERS)}")
        for name in ("overhead_us", "steal_us", "create_us"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must not be negative")


@dataclass
class Result:
    makespan_ns: float
    start_ns: list[float]
    end_ns: list[float]
    worker: list[int]
    high_tasks: int = 0
    steals: int = 0


class CriticalPathRule:
    """critical_path.cpp's critical_level, in the same fixed-point integers."""

    def __init__(self) -> None:
        self.mean_x16 = 16

    def level(self, successors: int) -> int:
        mean_x16 = self.mean_x16
        n = min(successors, 4096)
        self.mean_x16 = mean_x16 - mean_x16 // 16 + n
        if n < 2 or n * 16 < 2 * mean_x16:
            return 0
        return min(n, MAX_LEVEL)


@dataclass(order=True)
class _Event:
    time: float
    seq: int
    kind: int = field(compare=False)        # _CREATE, _FINISH, _START
    worker: int = field(compare=False)
    task: int = field(compare=False)


_CREATE, _FINISH, _START = 0, 1, 2


class _Sim:
    def __init__(self, graph: TaskGraph, p: Params) -> None:
        p.check()
        self.g, self.p = graph, p
        n = len(graph)
        self.overhead = p.overhead_us * 1e3
        self.steal_ns = p.steal_us * 1e3
        self.create_ns = p.create_us * 1e3
        self.rng = random.Random(p.seed)
        self.rule = CriticalPathRule()
        self.waiting = [len(ps) for ps in graph.pred]   # unfinished predecessors
        self.created = 0
        self.done = [False] * n
        self.level = [0] * n                             # > 0: high priority
        self.deques: list[deque[int]] = [deque() for _ in range(p.workers)]
        self.nonempty: set[int] = set()
        self.high: dict[int, deque[int]] = {}
        self.high_size = 0
        self.streak = [0] * p.workers
        self.idle: set[int] = set(range(1, p.workers))
        self.events: list[_Event] = []
        self.seq = 0
        self.res = Result(0.0, [0.0] * n, [0.0] * n, [-1] * n)

    # --- queues ----------------------------------------------------------------------------

    def ready(self, t: int, worker: int) -> None:
        """Task t became ready on `worker` (its creator or its last predecessor's worker)."""
        task = self.g.tasks[t]
        if self.p.policy == "panel" and task.panel:
            self.level[t] = 1
        elif self.p.policy == "critical_path":
            # Successors created so far: edges exist only to tasks already created.
            self.level[t] = self.rule.level(bisect.bisect_left(self.g.succ[t], self.created))
        if self.level[t]:
            self.res.high_tasks += 1
            self.high.setdefault(self.level[t], deque()).append(t)
            self.high_size += 1
        else:
            self.deques[worker].append(t)
            self.nonempty.add(worker)

    def pop_high(self) -> int:
        top = max(lv for lv, q in self.high.items() if q)
        self.high_size -= 1
        return self.high[top].popleft()

    def pop_own(self, w: int) -> int | None:
        d = self.deques[w]
        if not d:
            return None
        t = d.pop()
        if not d:
            self.nonempty.discard(w)
        return t

    def steal(self, w: int) -> int | None:
        if not self.nonempty - {w}:
            return None
        workers = self.p.workers
        origin = w if self.p.victims == "nearest" else self.rng.randrange(workers) - 1
        victim = min((v for v in self.nonempty if v != w),
                     key=lambda v: (v - origin - 1) % workers)
        d = self.deques[victim]
        t = d.popleft()
        if not d:
            self.nonempty.discard(victim)
        self.res.steals += 1
        return t

    # --- workers ---------------------------------------------------------------------------

    def try_get(self, w: int, now: float) -> bool:
        """worker::try_get; starts the task found and says whether there was one."""
        if self.high_size:
            if self.streak[w] >= MAX_HIGH_STREAK:
                t = self.pop_own(w)
                if t is not None:
                    self.streak[w] = 0
                    self.run(w, t, now)
                    return True
            self.streak[w] += 1
            self.run(w, self.pop_high(), now)
            return True
        self.streak[w] = 0
        t = self.pop_own(w)
        if t is not None:
            self.run(w, t, now)
            return True
        t = self.steal(w)
        if t is not None:
            self.push(now + self.steal_ns, _START, w, t)
            return True
        return False

    def run(self, w: int, t: int, now: float) -> None:
        self.res.start_ns[t] = now
        self.res.worker[t] = w
        self.push(now + self.overhead + self.g.tasks[t].cost_ns, _FINISH, w, t)

    def wake_idle(self, now: float) -> None:
        for w in sorted(self.idle):
            if not self.high_size and not self.nonempty:
                return
            if self.try_get(w, now):
                self.idle.discard(w)

    def look(self, w: int, now: float) -> None:
        if not self.try_get(w, now):
            self.idle.add(w)

    # --- events ----------------------------------------------------------------------------

    def push(self, time: float, kind: int, w: int, t: int) -> None:
        self.seq += 1
        heapq.heappush(self.events, _Event(time, self.seq, kind, w, t))

    def finish(self, w: int, t: int, now: float) -> None:
        self.res.end_ns[t] = now
        self.done[t] = True
        # The runtime walks a LIFO list: the successor linked last is released first.
        for s in reversed(self.g.succ[t]):
            if s >= self.created:
                continue    # not created yet: it finds t finished and is ready at creation
            self.waiting[s] -= 1
            if self.waiting[s] == 0:
                self.ready(s, w)
        self.look(w, now)
        self.wake_idle(now)

    def create(self, t: int, now: float) -> None:
        self.created = t + 1
        self.waiting[t] = sum(1 for p in self.g.pred[t] if not self.done[p])
        if self.waiting[t] == 0:
            self.ready(t, 0)
        if t + 1 < len(self.g):
            self.push(now + self.create_ns, _CREATE, 0, t + 1)
        else:
            self.look(0, now)
        self.wake_idle(now)

    def run_all(self) -> Result:
        if not len(self.g):
            return self.res
        self.push(self.create_ns, _CREATE, 0, 0)
        while self.events:
            ev = heapq.heappop(self.events)
            if ev.kind == _CREATE:
                self.create(ev.task, ev.time)
            elif ev.kind == _START:
                self.run(ev.worker, ev.task, ev.time)
            else:
                self.finish(ev.worker, ev.task, ev.time)
        self.res.makespan_ns = max(self.res.end_ns)
        return self.res


def simulate(graph: TaskGraph, params: Params) -> Result:
    """Replay `graph` on params.workers simulated workers under params.policy."""
    return _Sim(graph, params).run_all()

#!/usr/bin/env python3
"""Checks loomrun (argv: loomrun, an OpenMP fib(20) program built by clang, a statically
linked program, a program without OpenMP, a scratch folder): its errors, --stats,
and the --trace file (one slice per task, one track per worker, properly nested,
an arrow from the creating slice into every task, queue-length counters)."""
import json
import os
import subprocess
import sys
from collections import Counter

loomrun, fib, static_prog, plain_prog, scratch = sys.argv[1:6]
failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print(f"FAIL: {what}")
    else:
        print(f"ok: {what}")


def run(*args, env=None):
    return subprocess.run([loomrun, *args], capture_output=True, text=True, env=env, timeout=120)


r = run("--help")
check(r.returncode == 0 and "--trace" in r.stdout and "--stats" in r.stdout, "--help lists the options")
r = run("--version")
check(r.returncode == 0 and "loom" in r.stdout, "--version")
r = run("--", "/no/such/program")
check(r.returncode != 0 and "not found" in r.stderr, "a missing program: one message, non-zero exit")
r = run("--", static_prog)
check(r.returncode != 0 and "statically linked" in r.stderr, "a static program is refused with a reason")
r = run("--", plain_prog)
check(r.returncode == 0 and "plain" in r.stdout, "a program that loads no OpenMP runtime itself runs unchanged")
r = run("--threads", "0", "--", fib)
check(r.returncode != 0 and "--threads" in r.stderr, "--threads 0 is refused")

r = run("--threads", "2", "--stats", "--", fib)
check(r.returncode == 0 and "fib(20) = 6765" in r.stdout, "the program runs on loom")
check("summary (LOOM_STATS)" in r.stderr and "workers            2" in r.stderr, "--stats prints the summary")

trace = os.path.join(scratch, "fib_trace.json")
if os.path.exists(trace):
    os.remove(trace)
r = run("--threads", "2", "--trace", trace, "--", fib)
check(r.returncode == 0, "--trace run succeeds")
events = json.load(open(trace))["traceEvents"]
names = Counter(e.get("name") for e in events if e["ph"] == "B")
check(names["omp task"] == 21890, f"one slice per task (omp task slices: {names['omp task']}, want 21890)")
tracks = {e["tid"] for e in events if e["ph"] == "M"}
check(len(tracks) == 2, f"one track per worker ({len(tracks)})")
region = [n for n in names if n and "trace_fib.c" in n]
check(region, "the parallel region's slice names its source location")
nesting_ok = True
for tid in tracks:
    depth, last = 0, -1.0
    for e in (e for e in events if e.get("tid") == tid and e["ph"] in "BE"):
        if e["ts"] < last:
            nesting_ok = False
        last = e["ts"]
        depth += 1 if e["ph"] == "B" else -1
        if depth < 0:
            nesting_ok = False
    if depth != 0:
        nesting_ok = False
check(nesting_ok, "every track nests: ends match begins, time never goes back")


def innermost_slices(events):
    """Per flow event (by its index in `events`): the name of the innermost slice of
    its track open at that point of the file, or None."""
    open_by_tid, holder = {}, {}
    for i, e in enumerate(events):
        stack = open_by_tid.setdefault(e.get("tid"), [])
        if e["ph"] == "B":
            stack.append(e["name"])
        elif e["ph"] == "E":
            stack.pop()
        elif e["ph"] in "sf":
            holder[i] = stack[-1] if stack else None
    return holder


holder = innermost_slices(events)
starts = {e["id"]: i for i, e in enumerate(events) if e["ph"] == "s"}
ends = {e["id"]: i for i, e in enumerate(events) if e["ph"] == "f"}
check(set(starts) == set(ends), "every spawn arrow has a start and an end")
check(all(holder[i] is not None for i in list(starts.values()) + list(ends.values())),
      "every arrow starts and ends inside a slice")
into_tasks = sum(1 for i in ends.values() if holder[i] in ("task", "omp task"))
check(into_tasks >= 21890, f"an arrow into every explicit task ({into_tasks} arrows end in task slices)")
counters = [e for e in events if e["ph"] == "C"]
check(counters and all(e["args"]["tasks"] >= 0 for e in counters), "queue-length counters present, none negative")
print(f"loomrun_check: {failures} failed")
sys.exit(1 if failures else 0)

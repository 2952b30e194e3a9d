"""A distributed run writes one trace per rank and tools/loom-trace-merge joins them.

argv: the merge tool, then the mpiexec command line that runs 2 ranks of the loom::mpi
tests (without the environment, set here), then "--", then a scratch folder.
Runs the exchange tests with LOOM_TRACE=<scratch>/mpi.json, expects mpi.rank0.json and
mpi.rank1.json, merges them and checks: two processes named after their ranks, and on
each rank MPI_Isend and MPI_Irecv spans whose begin and end match (same id and name)
and lie on the merged time line (end after begin)."""
import json
import os
import subprocess
import sys

merge = sys.argv[1]
sep = sys.argv.index("--")
command, scratch = sys.argv[2:sep], sys.argv[sep + 1]
base = os.path.join(scratch, "mpi_trace.json")
per_rank = [os.path.join(scratch, f"mpi_trace.rank{r}.json") for r in (0, 1)]
merged_path = os.path.join(scratch, "mpi_trace.merged.json")
for p in per_rank + [merged_path]:
    if os.path.exists(p):
        os.remove(p)

env = dict(os.environ, LOOM_TRACE=base)
run = subprocess.run(command + ["--gtest_filter=MpiFutures.SendAndReceive:MpiFutures.RequestsStartedInsideTasks"],
                     env=env, capture_output=True, text=True, timeout=120)
failures = []
if run.returncode != 0:
    failures.append(f"the traced MPI run failed ({run.returncode}):\n{run.stdout}\n{run.stderr}")
for p in per_rank:
    if not os.path.exists(p):
        failures.append(f"{p} was not written")
if not failures:
    m = subprocess.run([sys.executable, merge, merged_path, *per_rank], capture_output=True, text=True)
    if m.returncode != 0:
        failures.append(f"merge failed: {m.stderr}")
if not failures:
    events = json.load(open(merged_path))["traceEvents"]
    names = {e["pid"]: e["args"]["name"] for e in events if e.get("name") == "process_name"}
    if names != {0: "rank 0", 1: "rank 1"}:
        failures.append(f"processes: {names}")
    for pid in (0, 1):
        begins = {e["id"]: e for e in events if e["pid"] == pid and e["ph"] == "b"}
        ends = {e["id"]: e for e in events if e["pid"] == pid and e["ph"] == "e"}
        if set(begins) != set(ends):
            failures.append(f"rank {pid}: spans without both ends: {set(begins) ^ set(ends)}")
        for i, b in begins.items():
            e = ends.get(i)
            if e and (e["name"] != b["name"] or e["ts"] < b["ts"] or b.get("cat") != "MPI"):
                failures.append(f"rank {pid}: span {i} begins as {b} and ends as {e}")
        calls = {b["name"] for b in begins.values()}
        if not {"MPI_Isend", "MPI_Irecv"} <= calls:
            failures.append(f"rank {pid}: spans {calls}, want MPI_Isend and MPI_Irecv")
        peers = {b["args"].get("peer") for b in begins.values() if b["name"] in ("MPI_Isend", "MPI_Irecv")}
        if peers != {1 - pid}:
            failures.append(f"rank {pid}: peers {peers}, want {{{1 - pid}}}")
for f in failures:
    print("FAIL:", f)
print("trace_merge_check:", "ok" if not failures else f"{len(failures)} failed")
sys.exit(1 if failures else 0)

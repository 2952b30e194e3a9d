"""tools/loom-trace-merge: per-rank LOOM_TRACE files into one trace, a process per rank."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

MERGE = Path(__file__).resolve().parents[2] / "tools" / "loom-trace-merge"


def trace(rank, epoch_ns, events):
    return {"displayTimeUnit": "ns", "otherData": {"loom_rank": rank, "loom_realtime_epoch_ns": epoch_ns},
            "traceEvents": events}


def rank_events():
    return [
        {"ph": "M", "pid": 1, "tid": 0, "name": "process_name", "args": {"name": "rank ?"}},
        {"ph": "M", "pid": 1, "tid": 0, "name": "thread_name", "args": {"name": "worker 0"}},
        {"ph": "B", "pid": 1, "tid": 0, "ts": 10.0, "name": "task"},
        {"ph": "s", "pid": 1, "tid": 0, "ts": 11.0, "cat": "flow", "id": 1, "name": "submit"},
        {"ph": "E", "pid": 1, "tid": 0, "ts": 20.0},
        {"ph": "b", "pid": 1, "tid": 1, "ts": 12.0, "cat": "MPI", "id": 1, "name": "MPI_Isend", "args": {}},
        {"ph": "e", "pid": 1, "tid": 1, "ts": 15.5, "cat": "MPI", "id": 1, "name": "MPI_Isend", "args": {}},
    ]


def run(tmp_path, *inputs):
    paths = []
    for i, doc in enumerate(inputs):
        p = tmp_path / f"in{i}.json"
        p.write_text(doc if isinstance(doc, str) else json.dumps(doc))
        paths.append(str(p))
    out = tmp_path / "merged.json"
    r = subprocess.run([sys.executable, str(MERGE), str(out), *paths], capture_output=True, text=True)
    return r, (json.loads(out.read_text()) if r.returncode == 0 else None)


def test_each_rank_is_a_process_on_one_time_line(tmp_path):
    # rank 1 started 2 ms (2000 us) after rank 0, and is given first
    r, merged = run(tmp_path, trace(1, 5_002_000_000, rank_events()), trace(0, 5_000_000_000, rank_events()))
    assert r.returncode == 0, r.stderr
    events = merged["traceEvents"]
    assert {e["pid"] for e in events} == {0, 1}
    names = {e["pid"]: e["args"]["name"] for e in events if e.get("name") == "process_name"}
    assert names == {0: "rank 0", 1: "rank 1"}
    begins = {e["pid"]: e["ts"] for e in events if e["ph"] == "B"}
    assert begins == {0: 10.0, 1: 2010.0}
    assert merged["otherData"]["loom_realtime_epoch_ns"] == 5_000_000_000


def test_ids_stay_paired_and_become_unique_per_rank(tmp_path):
    _, merged = run(tmp_path, trace(0, 1, rank_events()), trace(1, 1, rank_events()))
    events = merged["traceEvents"]
    for ph in ("s", "b", "e"):
        ids = [e["id"] for e in events if e["ph"] == ph]
        assert len(ids) == len(set(ids)) == 2, ph
    for pid in (0, 1):
        b = next(e for e in events if e["ph"] == "b" and e["pid"] == pid)
        e = next(e for e in events if e["ph"] == "e" and e["pid"] == pid)
        assert (b["id"], b["name"]) == (e["id"], e["name"])


def test_a_trace_without_a_rank_takes_its_position(tmp_path):
    r, merged = run(tmp_path, trace(-1, 7, rank_events()), trace(-1, 9, rank_events()))
    assert r.returncode == 0, r.stderr
    assert {e["pid"] for e in merged["traceEvents"]} == {0, 1}


@pytest.mark.parametrize(
    "doc, message",
    [
        ("{not json", "is not JSON"),
        ({"events": []}, "no \"traceEvents\" list"),
        ({"traceEvents": []}, "not a trace written by loom"),
    ],
)
def test_bad_input_is_refused_with_a_message(tmp_path, doc, message):
    r, _ = run(tmp_path, doc)
    assert r.returncode == 2
    assert r.stderr.startswith("loom-trace-merge: error:") and message in r.stderr


def test_two_files_of_one_rank_are_refused(tmp_path):
    r, _ = run(tmp_path, trace(3, 1, []), trace(3, 2, []))
    assert r.returncode == 2 and "both rank 3" in r.stderr


def test_missing_file_and_missing_arguments(tmp_path):
    r = subprocess.run([sys.executable, str(MERGE), str(tmp_path / "o.json"), str(tmp_path / "none.json")],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "cannot read" in r.stderr
    r = subprocess.run([sys.executable, str(MERGE)], capture_output=True, text=True)
    assert r.returncode == 2 and "loom-trace-merge OUT.json" in r.stderr

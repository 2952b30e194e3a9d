"""Running one cell: the command, its timeout, its CPU-seconds and energy.

Each run is a child process in its own session, so a timeout kills the whole
process group (a benchmark's helpers included) and a hang cannot stall the
suite. The parent reaps the child with os.wait4, which returns the child's own
rusage: exact user+sys CPU-seconds for that process and its waited-for
descendants, unaffected by anything else the driver does.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from .energy import EnergyMeter
from .plan import Cell
from .protocol import parse_output
from .results import FAILED, OK, CellResult, RunRecord

STDERR_TAIL_LINES = 20
STDERR_TAIL_CHARS = 2000


def run_cell(cell: Cell, repeats: int, meter: EnergyMeter, cwd: Path | None = None,
             base_env: dict[str, str] | None = None) -> CellResult:
    """Run a cell up to `repeats` times; the first failing run fails the cell."""
    result = CellResult(bench=cell.bench, system=cell.system, params=dict(cell.params),
                        threads=cell.threads, argv=list(cell.argv), env=dict(cell.env),
                        status=OK)
    env = dict(os.environ if base_env is None else base_env)
    env.update(cell.env)
    for _ in range(max(1, repeats)):
        run = run_once(cell.argv, env, cell.timeout_s, meter, cwd)
        result.runs.append(run)
        if run.failure:
            result.status, result.reason, result.stderr_tail = FAILED, run.failure, run.stderr_tail
            break
    result.aggregate()
    _note_thread_mismatch(result)
    return result


def run_once(argv: list[str], env: dict[str, str], timeout_s: float, meter: EnergyMeter,
             cwd: Path | None = None) -> RunRecord:
    """Execute one command and classify the outcome."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        energy_start = meter.snapshot()
        start = time.perf_counter()
        try:
            proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                    env=env, cwd=cwd, start_new_session=True)
        except OSError as exc:
            return RunRecord(0.0, 0.0, 0.0, None, None, None, False,
                             failure=f"cannot start {argv[0]}: {exc.strerror or exc}")
        status, usage, timed_out = _wait(proc, timeout_s)
        wall = time.perf_counter() - start
        energy = meter.joules_between(energy_start, meter.snapshot())
        _kill_group(proc.pid)        # helpers that outlived the benchmark
        stdout, stderr = _read(out), _read(err)
    code = os.waitstatus_to_exitcode(status)
    run = RunRecord(wall_s=wall, cpu_user_s=usage.ru_utime, cpu_sys_s=usage.ru_stime,
                    energy_j=energy, exit_code=code if code >= 0 else None,
                    signal=-code if code < 0 else None, timed_out=timed_out,
                    stderr_tail=_tail(stderr))
    parsed = parse_output(stdout)
    run.results = [_result_dict(r) for r in parsed.results]
    run.malformed = parsed.malformed
    run.failure = classify(run, timeout_s)
    return run


def classify(run: RunRecord, timeout_s: float) -> str | None:
    """Why a run failed, most fundamental reason first; None if it succeeded.

    A binary that detected a wrong result may also exit non-zero; the report
    then says "wrong result" (the finding) rather than only the exit code.
    """
    if run.timed_out:
        return f"timed out after {timeout_s:g} s"
    if run.signal is not None:
        return f"crashed: killed by signal {_signal_name(run.signal)}"
    wrong = [r for r in run.results if not r["verified"]]
    if wrong:
        detail = next((r["error"] for r in wrong if r.get("error")), None)
        exit_note = f" (exit code {run.exit_code})" if run.exit_code else ""
        return "wrong result (verified: false)" + (f": {detail}" if detail else "") + exit_note
    if run.exit_code:
        return f"exit code {run.exit_code}"
    if run.malformed:
        return "malformed result line(s): " + "; ".join(run.malformed[:3])
    if not run.results:
        return "no result line on stdout (see the protocol in bench/manifest_format.md)"
    return None


def _wait(proc: subprocess.Popen, timeout_s: float) -> tuple[int, resource.struct_rusage, bool]:
    """Reap the child, killing its process group if it outlives the timeout."""
    fired = threading.Event()

    def on_timeout() -> None:
        fired.set()
        _kill_group(proc.pid)

    timer = threading.Timer(timeout_s, on_timeout)
    timer.daemon = True
    timer.start()
    try:
        while True:
            try:
                _, status, usage = os.wait4(proc.pid, 0)
                break
            except InterruptedError:
                continue
    finally:
        timer.cancel()
    proc.returncode = os.waitstatus_to_exitcode(status)   # keep Popen from reaping again
    return status, usage, fired.is_set()


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _read(f) -> str:
    f.seek(0)
    return f.read().decode("utf-8", errors="replace")


def _tail(text: str) -> str:
    tail = "\n".join(text.rstrip().splitlines()[-STDERR_TAIL_LINES:])
    return tail[-STDERR_TAIL_CHARS:]


def _signal_name(number: int) -> str:
    try:
        return f"{signal.Signals(number).name} ({number})"
    except ValueError:
        return str(number)


def _result_dict(line) -> dict:
    return {"times_s": line.times_s, "verified": line.verified, "work": line.work,
            "params": line.params, "threads": line.threads, "bench": line.bench,
            "system": line.system, "error": line.error, "extra": line.extra}


def _note_thread_mismatch(result: CellResult) -> None:
    """A binary that reports a different team size than requested deserves a note."""
    reported = {line["threads"] for run in result.runs for line in run.results
                if line.get("threads") is not None}
    if reported and reported != {result.threads}:
        result.notes.append(f"binary reported threads={sorted(reported)}, "
                            f"requested {result.threads}")

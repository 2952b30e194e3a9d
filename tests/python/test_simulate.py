"""The scheduling simulator (tools/loom_bench/simulate.py) and the graph parser."""

import json
import math

import pytest

from loom_bench import simulate as sim
from loom_bench import taskgraph as tg

US = 1000.0   # ns


def free(workers, policy="none", **kw):
    """A machine without overheads: makespans are the textbook ones."""
    return sim.Params(workers, policy, overhead_us=0.0, steal_us=0.0, create_us=0.0, **kw)


def makespan(graph, params):
    return sim.simulate(graph, params).makespan_ns


# --- known optimal makespans ---------------------------------------------------------------

def test_chain_takes_the_sum_of_its_costs():
    g = tg.from_costs([3 * US, 5 * US, 7 * US, 1 * US], [(0, 1), (1, 2), (2, 3)])
    assert g.critical_path_ns() == 16 * US
    for p in (1, 4, 64):
        assert makespan(g, free(p)) == 16 * US


@pytest.mark.parametrize("n,p", [(10, 3), (64, 16), (65, 16), (7, 64)])
def test_independent_tasks_take_ceil_n_over_p_rounds(n, p):
    g = tg.from_costs([10 * US] * n, [])
    assert makespan(g, free(p)) == math.ceil(n / p) * 10 * US


def test_fork_join():
    # 0 -> 1..8 -> 9: on 4 workers the eight middle tasks take two rounds.
    edges = [(0, i) for i in range(1, 9)] + [(i, 9) for i in range(1, 9)]
    g = tg.from_costs([2 * US] + [10 * US] * 8 + [3 * US], edges)
    assert makespan(g, free(4)) == (2 + 20 + 3) * US
    assert makespan(g, free(8)) == (2 + 10 + 3) * US


def test_overheads_are_charged():
    g = tg.from_costs([10 * US, 10 * US], [(0, 1)])
    p = sim.Params(2, overhead_us=1.0, steal_us=5.0, create_us=2.0)
    # Task 0 is created at 2 us and stolen (5 us) by the idle worker 1, which then
    # runs task 1 too: it is released onto worker 1's own deque.
    assert makespan(g, p) == pytest.approx((2 + 5 + 11 + 11) * US)


def chain_behind_short_tasks(shorts=60, links=10):
    """A root whose successors are short independent tasks with the head of a long
    chain created in their middle. Released in the reverse of their creation order,
    the owner reaches the chain's head only after half the short tasks (LIFO) and a
    thief only after the other half (FIFO): without priorities the chain starts late.
    Each chain task has two extra leaf successors, so it has three successors where
    every other task has none, and the critical-path rule ranks it high."""
    costs, edges, panel = [2 * US], [], [False]

    def add(cost, pred=None, is_panel=False):
        costs.append(cost)
        panel.append(is_panel)
        if pred is not None:
            edges.append((pred, len(costs) - 1))
        return len(costs) - 1

    for _ in range(shorts // 2):
        add(10 * US, 0)
    prev = 0
    chain = []
    for _ in range(links):
        prev = add(20 * US, prev, True)
        chain.append(prev)
    for _ in range(shorts - shorts // 2):
        add(10 * US, 0)
    for c in chain:
        add(1 * US, c)
        add(1 * US, c)
    return tg.from_costs(costs, edges, panel=panel)


def test_critical_path_priority_provably_helps():
    g = chain_behind_short_tasks()
    cp = g.critical_path_ns()
    plain = makespan(g, free(2))
    ranked = makespan(g, free(2, "critical_path"))
    panel = makespan(g, free(2, "panel"))
    assert ranked < plain
    assert panel < plain
    assert ranked >= cp and panel >= cp


def test_lower_bounds_hold_on_a_tile_like_graph():
    g = tile_cholesky_graph(6)
    cp, work = g.critical_path_ns(), g.total_work_ns()
    for p in (1, 2, 16, 64):
        for policy in sim.POLICIES:
            m = makespan(g, free(p, policy))
            assert m >= max(cp, work / p) - 1e-6
    assert makespan(g, free(1)) == pytest.approx(work)


# --- determinism -------------------------------------------------------------------------

def test_same_seed_same_schedule():
    g = tile_cholesky_graph(5)
    for victims in sim.VICTIM_ORDERS:
        a = sim.simulate(g, sim.Params(16, "critical_path", victims=victims, seed=7))
        b = sim.simulate(g, sim.Params(16, "critical_path", victims=victims, seed=7))
        assert (a.makespan_ns, a.start_ns, a.worker) == (b.makespan_ns, b.start_ns, b.worker)


# --- the critical-path rule --------------------------------------------------------------

def test_rule_needs_two_successors_and_twice_the_mean():
    r = sim.CriticalPathRule()
    assert r.level(1) == 0          # fewer than two successors: never high
    r = sim.CriticalPathRule()
    assert r.level(2) == 2          # mean starts at 1: 2 >= 2 x 1
    def settled():
        rule = sim.CriticalPathRule()
        for _ in range(200):
            rule.level(4)
        assert rule.mean_x16 == 64  # the mean settles at 4
        return rule

    assert settled().level(7) == 0  # below 2 x 4
    assert settled().level(8) == 8  # at 2 x the mean


def test_rule_level_is_capped_and_mean_is_fixed_point():
    r = sim.CriticalPathRule()
    assert r.level(1000) == 255
    assert r.mean_x16 == 16 - 1 + 1000
    r = sim.CriticalPathRule()
    r.level(0)
    assert r.mean_x16 == 15         # 16 - 16/16 + 0, integer arithmetic as the runtime


def test_uniform_fan_out_gets_no_high_tasks():
    # A stencil-like graph: every task has the same two successors' worth of fan-out.
    width, steps = 8, 6
    edges = []
    for s in range(1, steps):
        for i in range(width):
            for d in (-1, 0, 1):
                j = i + d
                if 0 <= j < width and d != 1:
                    edges.append(((s - 1) * width + j, s * width + i))
    g = tg.from_costs([US] * (width * steps), edges)
    res = sim.simulate(g, free(4, "critical_path"))
    assert res.high_tasks <= 1


def test_starvation_bound_runs_own_work_after_64_high_tasks():
    # One worker: 70 high (panel) tasks and one normal task, all ready at creation.
    costs = [US] * 71
    panel = [True] * 70 + [False]
    g = tg.from_costs(costs, [], panel=panel)
    res = sim.simulate(g, free(1, "panel"))
    order = sorted(range(71), key=lambda t: res.start_ns[t])
    # Created before the creator runs anything; the normal task runs after 64 high ones.
    assert order.index(70) == 64


# --- the graph file ------------------------------------------------------------------------

def graph_json(**over):
    data = {"format": "loom-task-graph", "version": 1, "bench": "cholesky", "nt": 2,
            "tasks": [{"id": 0, "kind": "potrf", "tile": [0, 0, 0], "panel": True, "thread": 0,
                       "created_ns": 0, "start_ns": 10, "end_ns": 110},
                      {"id": 1, "kind": "trsm", "tile": [1, 0, 0], "panel": True, "thread": 1,
                       "created_ns": 5, "start_ns": 120, "end_ns": 200}],
            "edges": [[0, 1]]}
    data.update(over)
    return data


def test_parse_a_good_file(tmp_path):
    path = tmp_path / "g.json"
    path.write_text(json.dumps(graph_json()))
    g = tg.load(path)
    assert [t.cost_ns for t in g.tasks] == [100.0, 80.0]
    assert g.succ[0] == [1] and g.pred[1] == [0]
    assert g.critical_path_ns() == 180.0
    assert g.meta["bench"] == "cholesky"


@pytest.mark.parametrize("change,message", [
    ({"format": "chrome-trace"}, "not a task graph"),
    ({"version": 9}, "version 9"),
    ({"edges": [[1, 0]]}, "from < to"),
    ({"edges": [[0, 5]]}, "no such task"),
    ({"edges": [[0]]}, "expected [from, to]"),
    ({"tasks": "x"}, "must both be lists"),
])
def test_parse_rejects_bad_files_clearly(change, message):
    with pytest.raises(tg.GraphError, match=message.replace("[", r"\[")):
        tg.parse(graph_json(**change), "g.json")


def test_parse_rejects_bad_tasks():
    bad = graph_json()
    bad["tasks"][1]["end_ns"] = 50
    with pytest.raises(tg.GraphError, match="task 1: ends"):
        tg.parse(bad, "g.json")
    bad = graph_json()
    bad["tasks"][1]["id"] = 7
    with pytest.raises(tg.GraphError, match="ids must be"):
        tg.parse(bad, "g.json")


def test_load_names_unreadable_and_non_json_files(tmp_path):
    with pytest.raises(tg.GraphError, match="cannot read"):
        tg.load(tmp_path / "missing.json")
    (tmp_path / "x.json").write_text("{not json")
    with pytest.raises(tg.GraphError, match="not JSON"):
        tg.load(tmp_path / "x.json")


def test_params_are_checked():
    g = tg.from_costs([US], [])
    for bad in (sim.Params(0), sim.Params(2, "fastest"), sim.Params(2, victims="far"),
                sim.Params(2, steal_us=-1)):
        with pytest.raises(ValueError):
            sim.simulate(g, bad)


# --- a tile Cholesky graph made the way the benchmark makes it -----------------------------

def tile_cholesky_graph(nt):
    """Edges by the benchmark's dependence rules, costs 1:3:3:6 (potrf:trsm:syrk:gemm)."""
    costs, kinds, panel, edges = [], [], [], []
    last_writer = {}

    def add(kind, cost, is_panel, reads, writes):
        me = len(costs)
        costs.append(cost * US)
        kinds.append(kind)
        panel.append(is_panel)
        preds = {last_writer[t] for t in reads + writes if t in last_writer}
        edges.extend((p, me) for p in sorted(preds))
        for t in writes:
            last_writer[t] = me

    for k in range(nt):
        add("potrf", 1, True, [], [(k, k)])
        for m in range(k + 1, nt):
            add("trsm", 3, True, [(k, k)], [(m, k)])
        for m in range(k + 1, nt):
            add("syrk", 3, False, [(m, k)], [(m, m)])
            for n in range(k + 1, m):
                add("gemm", 6, False, [(m, k), (n, k)], [(m, n)])
    return tg.from_costs(costs, edges, panel=panel, kinds=kinds)


# --- a graph recorded by bench/cholesky, and the report section ----------------------------

def recorded():
    from conftest import FIXTURES
    return FIXTURES / "graph-cholesky-nt4.json"


def test_recorded_cholesky_graph_has_the_benchmarks_dependences():
    g = tg.load(recorded())
    assert g.meta["bench"] == "cholesky" and g.meta["nt"] == 4
    assert len(g) == 20                       # nt + nt(nt-1) + nt(nt-1)(nt+1)/6 ... by kind:
    kinds = [t.kind for t in g.tasks]
    assert kinds.count("potrf") == 4 and kinds.count("trsm") == 6
    assert kinds.count("syrk") == 6 and kinds.count("gemm") == 4
    by_name = {(t.kind, t.tile): t.id for t in g.tasks}
    # potrf(1) waits for syrk on tile (1,1) of step 0; trsm(2,0) for potrf(0).
    assert by_name[("syrk", (1, 1, 0))] in g.pred[by_name[("potrf", (1, 1, 1))]]
    assert g.pred[by_name[("trsm", (2, 0, 0))]] == [by_name[("potrf", (0, 0, 0))]]
    assert all(t.thread >= 0 and t.cost_ns > 0 for t in g.tasks)
    assert [t.panel for t in g.tasks] == [k in ("potrf", "trsm") for k in kinds]


def test_report_section_shows_the_simulation_and_gantt(tmp_path):
    from loom_bench import simreport
    from loom_bench.results import Document
    entry = {"bench": "cholesky", "n": 256, "nb": 64, "workers": [16, 64],
             "graphs": {"gnu-omp": str(recorded())}, "errors": {"llvm-omp": "exit status 1"}}
    entry["simulation"] = simreport.summarize(tg.load(recorded()), [16, 64])
    doc = Document(mode="quick", created="", argv=[], machine={}, config={}, benchmarks=[],
                   broken_manifests=[], cells=[], simulations=[entry])
    text = "\n".join(simreport.section(doc, tmp_path))
    assert "## Simulated at 16 and 64 workers" in text
    assert "A simulation, not a measurement" in text
    assert "| 64 |" in text and "automatic critical path" in text
    assert "recording on `llvm-omp` failed: exit status 1" in text
    assert (tmp_path / "gantt-cholesky-gnu-omp.png").exists()
    for row in entry["simulation"]["rows"]:
        for ratio in row["ratio"].values():
            assert ratio >= 1.0 - 1e-9


def test_simulate_command_line(capsys):
    from loom_bench import cli
    assert cli.main(["simulate", str(recorded()), "--workers", "4,16"]) == 0
    out = capsys.readouterr().out
    assert "a simulation" in out and "critical path" in out
    with pytest.raises(SystemExit):
        cli.main(["simulate", str(recorded()), "--workers", "x"])


def test_simulate_command_line_rejects_bad_graph(tmp_path, capsys):
    from loom_bench import cli
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "other"}')
    assert cli.main(["simulate", str(bad)]) == 2
    assert "not a task graph" in capsys.readouterr().err


def test_tile_manifests_ask_for_a_simulation():
    from conftest import REPO
    from loom_bench import manifest
    for name in ("cholesky", "lu", "qr"):
        m = manifest.load(REPO / "bench" / name / "manifest.toml")
        assert m.simulate == {"n": 2048, "nb": 128, "workers": [16, 64]}
    with pytest.raises(manifest.ManifestError, match="workers"):
        manifest._parse_simulate({"n": 8, "nb": 4, "workers": [0]})
    with pytest.raises(manifest.ManifestError, match="unknown key"):
        manifest._parse_simulate({"n": 8, "nb": 4, "threads": 2})

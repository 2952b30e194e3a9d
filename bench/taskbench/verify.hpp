// How a taskbench run proves it ran the graph right, as Task Bench does: every task
// writes its identity (t, x) as its output, and before running its kernel checks
// that each input holds exactly (t-1, y) for each y the pattern names. A task run
// too early sees an older row's output, one whose input was overwritten too early
// (a write-after-read violation) sees a newer one. Counting the tasks run shows
// none was skipped.
#pragma once

#include <atomic>
#include <vector>

#include "graph.hpp"
#include "kernel.hpp"

namespace taskbench {

// One task's output, a cache line so neighbours never share one.
struct alignas(64) Record {
  long t = -1;
  long x = -1;
  double value = 0;  // the kernel's result: stored, so the kernel cannot be optimised out
};

// Outputs of two rows: row t is written while row t-1 is read, and row t+1 reuses
// row t-1's slots, so any runtime must order the reads of row t-1 before the
// writes of row t+1 (what `depend` or a barrier provides).
class Rows {
 public:
  explicit Rows(long width) : rows_{std::vector<Record>(size_t(width)), std::vector<Record>(size_t(width))} {}
  Record* row(long t) { return rows_[t & 1].data(); }
  [[nodiscard]] const Record* row(long t) const { return rows_[t & 1].data(); }
  void reset() {
    for (auto& r : rows_) r.assign(r.size(), Record{});
  }

 private:
  std::vector<Record> rows_[2];
};

// Tasks run and input errors seen, one cache line per worker so counting costs
// nothing measurable.
class Tally {
 public:
  explicit Tally(int workers) : slots_(size_t(workers)) {}
  void count(int worker, bool ok) {
    ++slots_[size_t(worker)].tasks;
    if (!ok) ++slots_[size_t(worker)].errors;
  }
  void reset() { slots_.assign(slots_.size(), Slot{}); }
  [[nodiscard]] long tasks() const {
    long n = 0;
    for (const auto& s : slots_) n += s.tasks;
    return n;
  }
  [[nodiscard]] long errors() const {
    long n = 0;
    for (const auto& s : slots_) n += s.errors;
    return n;
  }

 private:
  struct alignas(64) Slot {
    long tasks = 0;
    long errors = 0;
  };
  std::vector<Slot> slots_;
};

// Everything one run of a graph needs besides the runtime.
struct GraphRun {
  const Graph& graph;
  const Kernel& kernel;
  Rows rows;
  Tally tally;
  ScratchPool scratch;

  GraphRun(const Graph& g, const Kernel& k, int workers)
      : graph(g), kernel(k), rows(g.width), tally(workers), scratch(k, workers), workers_(workers) {}

  void reset() {
    rows.reset();
    tally.reset();
    bad_worker_ = false;
  }

  // Task (t, x) on `worker`: check the inputs, run the kernel, publish the output.
  // A worker number outside [0, workers) (a runtime's thread number gone wrong)
  // would index past the per-worker slots: the task is not run, which fails the run.
  void execute(long t, long x, int worker) {
    if (worker < 0 || worker >= workers_) {
      bad_worker_ = true;
      return;
    }
    const Record* in = rows.row(t - 1);
    bool ok = true;
    graph.for_each_input(t, x, [&](long y) { ok = ok && in[y].t == t - 1 && in[y].x == y; });
    const double v = run_kernel(kernel, graph.graph_index, t, x, scratch.at(worker));
    Record& out = rows.row(t)[x];
    out.t = t;
    out.x = x;
    out.value = v;
    tally.count(worker, ok);
  }

  // After a run: every task ran, every input was right, the last row is complete.
  [[nodiscard]] bool verified() const {
    if (bad_worker_ || tally.tasks() != graph.task_count() || tally.errors() != 0) return false;
    const long last = graph.steps - 1;
    const Record* out = rows.row(last);
    for (long x = graph.offset_at(last); x < graph.offset_at(last) + graph.width_at(last); ++x) {
      if (out[x].t != last || out[x].x != x) return false;
    }
    return true;
  }

 private:
  int workers_;
  std::atomic<bool> bad_worker_{false};
};

}  // namespace taskbench

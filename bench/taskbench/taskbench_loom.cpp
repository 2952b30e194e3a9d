// Task Bench graphs on loom's native API: one loom task per graph point, started by
// a per-task counter of unfinished predecessors (a hand-rolled dataflow node).
//
// Why counters and not loom::future / loom::dataflow: a future per point costs a
// shared state, a when_all over the inputs and a continuation per edge; a counter
// costs one pooled task record (loom::ext::make_task: inline closure, no malloc)
// and one atomic decrement per edge. Task Bench's METG measures the runtime's
// per-task overhead, so the cheapest correct expression of the graph on loom is
// the one that shows that overhead, as `depend` does for the OpenMP version.
//
// Edges. The outputs live in two rows of slots (taskbench::Rows): task (t, x)
// writes slot x of row t & 1, which task (t-2, x) wrote and row t-1 read. So,
// exactly as OpenMP's depend(in: prev[y]) depend(out: cur[x]) orders them, (t, x)
// waits for
//   - read after write:  (t-1, y) for every input y of (t, x);
//   - write after read:  every (t-1, z) that reads (t-2, x);
//   - write after write: (t-2, x) itself when no task of row t-1 reads it.
// Each edge is counted once (a point that is both an input and a reader is one
// edge). The edge lists are rebuilt inside the timed region on every repetition,
// as the OpenMP version creates its tasks and depend clauses there: the time covers
// everything the runtime side of a run does. Only the buffers are kept, so after
// the warm-up no repetition allocates.
//
// A finishing task decrements its successors, submits those that became ready
// and runs one of them itself without a round trip through its deque (as TBB's
// continuation bypass does). The calling thread (worker 0 of the pool) starts the
// roots and parks on a wait_slot, working meanwhile, until the last task is done.
#include <atomic>
#include <cstdint>
#include <vector>

#include "app.hpp"
#include "bench.hpp"
#include "loom/ext/scheduler.hpp"
#include "loom/ext/task.hpp"
#include "loom/runtime.hpp"

namespace lb = loom_bench;
namespace tb = taskbench;

namespace {

class DataflowGraph {
 public:
  explicit DataflowGraph(tb::GraphRun& run) : run_(run), g_(run.graph) {
    const size_t n = size_t(g_.steps) * size_t(g_.width);
    first_.resize(n + 1);
    initial_.resize(n);
    pending_ = std::vector<Counter>(n);
    stamp_.resize(size_t(g_.width));
  }

  // One run of the whole graph; returns when every task has finished.
  void run_graph() {
    build();
    remaining_.store(g_.task_count(), std::memory_order_relaxed);
    done_.reset();
    for (long t = 0; t < g_.steps; ++t) {
      for (long x = g_.offset_at(t); x < g_.offset_at(t) + g_.width_at(t); ++x) {
        const long id = index(t, x);
        pending_[size_t(id)].n.store(initial_[size_t(id)], std::memory_order_relaxed);
      }
    }
    // Roots after all counters are set: a root may finish and decrement at once.
    for (long id : roots_) submit(id);
    done_.wait();
  }

 private:
  // Packed, 16 to a cache line: a point's successors are neighbours in the next row,
  // so its decrements mostly hit one line, which then moves between cores once per
  // task rather than once per edge (all_to_all, 8 tasks per core, 2 workers: 595
  // against 672 us per graph padded to a line each, same run; stencil_1d 144-147
  // against 156-193).
  struct Counter {
    std::atomic<std::int32_t> n{0};
  };

  long index(long t, long x) const { return t * g_.width + x; }
  bool exists(long t, long x) const {
    return t >= 0 && t < g_.steps && x >= g_.offset_at(t) && x < g_.offset_at(t) + g_.width_at(t);
  }

  // Successor lists in CSR form (first_, succ_), the predecessor count of every
  // task (initial_) and the roots. Row by row: the successors of (t, x) are
  // the readers of (t, x) in row t+1 (read after write), the writers in row t+1
  // of the slots (t, x) reads (write after read), and (t+2, x) if nobody in row
  // t+1 reads (t, x) (write after write); stamp_ drops duplicates.
  void build() {
    succ_.clear();
    roots_.clear();
    std::fill(initial_.begin(), initial_.end(), 0);
    readers_first_.assign(size_t(g_.width) + 1, 0);
    for (long t = 0; t < g_.steps; ++t) {
      // Readers of row t in row t+1, grouped by the slot they read (counting sort).
      std::fill(readers_first_.begin(), readers_first_.end(), 0);
      readers_.clear();
      if (t + 1 < g_.steps) {
        for (long z = g_.offset_at(t + 1); z < g_.offset_at(t + 1) + g_.width_at(t + 1); ++z) {
          g_.for_each_input(t + 1, z, [&](long y) { ++readers_first_[size_t(y) + 1]; });
        }
        for (size_t i = 1; i < readers_first_.size(); ++i) readers_first_[i] += readers_first_[i - 1];
        readers_.resize(size_t(readers_first_.back()));
        fill_ = readers_first_;
        for (long z = g_.offset_at(t + 1); z < g_.offset_at(t + 1) + g_.width_at(t + 1); ++z) {
          g_.for_each_input(t + 1, z, [&](long y) { readers_[size_t(fill_[size_t(y)]++)] = z; });
        }
      }
      for (long x = g_.offset_at(t); x < g_.offset_at(t) + g_.width_at(t); ++x) {
        const long id = index(t, x);
        first_[size_t(id)] = long(succ_.size());
        auto add = [&](long target) {
          if (stamp_[size_t(target % g_.width)] == id + 1) return;  // row t+1 targets only
          stamp_[size_t(target % g_.width)] = id + 1;
          succ_.push_back(std::int32_t(target));
          ++initial_[size_t(target)];
        };
        const long nreaders = t + 1 < g_.steps ? readers_first_[size_t(x) + 1] - readers_first_[size_t(x)] : 0;
        for (long i = 0; i < nreaders; ++i) add(index(t + 1, readers_[size_t(readers_first_[size_t(x)] + i)]));
        g_.for_each_input(t, x, [&](long y) {
          if (exists(t + 1, y)) add(index(t + 1, y));
        });
        if (nreaders == 0 && exists(t + 2, x)) {
          succ_.push_back(std::int32_t(index(t + 2, x)));  // the only edge into row t+2
          ++initial_[size_t(index(t + 2, x))];
        }
      }
      // Last row's end marker; every id of a row gets first_ set, so ids of points
      // outside a narrow row (dom, tree) are never read.
      first_[size_t(index(t, g_.offset_at(t) + g_.width_at(t)))] = long(succ_.size());
    }
    for (long t = 0; t < g_.steps; ++t) {
      for (long x = g_.offset_at(t); x < g_.offset_at(t) + g_.width_at(t); ++x) {
        if (initial_[size_t(index(t, x))] == 0) roots_.push_back(index(t, x));
      }
    }
    // Stamps hold task ids + 1 of this run; start the next run from zero.
    std::fill(stamp_.begin(), stamp_.end(), 0);
  }

  void submit(long id) {
    loom::ext::submit(loom::ext::make_task([this, id] { run_from(id); }));
  }

  // Runs task `id`, then keeps running one successor it made ready, as long as
  // there is one.
  void run_from(long id) {
    for (;;) {
      const long t = id / g_.width, x = id % g_.width;
      run_.execute(t, x, loom::this_worker());
      long next = -1;
      // The list ends where the next point's (or the row's end marker) begins.
      for (long i = first_[size_t(id)], end = first_[size_t(id) + 1]; i < end; ++i) {
        const long s = succ_[size_t(i)];
        if (pending_[size_t(s)].n.fetch_sub(1, std::memory_order_acq_rel) == 1) {
          if (next >= 0) submit(next);
          next = s;
        }
      }
      // The last task makes nothing ready, so nothing of this object is touched
      // after the notify that lets run_graph() return.
      if (remaining_.fetch_sub(1, std::memory_order_acq_rel) == 1) done_.notify();
      if (next < 0) return;
      id = next;
    }
  }

  tb::GraphRun& run_;
  const tb::Graph& g_;
  std::vector<long> first_;             // CSR offsets, one per id (+ row end markers)
  std::vector<std::int32_t> succ_;      // successor ids
  std::vector<std::int32_t> initial_;   // predecessor count per id
  std::vector<Counter> pending_;        // predecessors not yet finished, this run
  std::vector<long> roots_;
  std::vector<long> stamp_;             // last source id (+1) that added each slot
  std::vector<long> readers_first_, fill_, readers_;
  std::atomic<long> remaining_{0};
  loom::ext::wait_slot done_;
};

}  // namespace

int main(int argc, char** argv) {
  lb::Cli cli(argc, argv, "taskbench", "Task Bench graph on loom tasks with dependence counters");
  tb::Config cfg = tb::parse_config(cli);
  auto run = lb::run_options(cli);
  cli.finish();
  const int threads = lb::default_threads(run);
  tb::resolve(cfg, cli, threads);
  if (cfg.graph.steps * cfg.graph.width >= (1L << 31)) {  // task ids are 32-bit
    cli.fail("steps", std::to_string(cfg.graph.steps), "steps x width below 2^31");
  }

  loom::runtime rt{loom::runtime_options{.num_threads = unsigned(threads)}};
  const int workers = int(loom::num_threads());
  tb::GraphRun graph_run(cfg.graph, cfg.kernel, workers);
  DataflowGraph graph(graph_run);
  long runs = 1;
  auto timing = tb::measure_graph(run, cfg, graph_run, [&] { graph.run_graph(); }, &runs);
  return tb::report_graph(cli, run, workers, timing, cfg, runs);
}

// Task Bench graphs with plain std::threads and a barrier: the bulk-synchronous
// reference. Each thread owns a contiguous block of every row and all threads meet
// at a barrier between rows, so a row's inputs are complete before it runs and
// the row after it may overwrite them. No runtime schedules anything.
//
// The row barrier spins (spin_barrier below): this reference is the floor a
// task runtime is measured against, the cost of nothing but one cache-line
// round trip per row, so it must not pay a futex sleep and wake-up per row as
// std::barrier does once its short spin gives up.
#include <atomic>
#include <thread>

#include "app.hpp"
#include "bench.hpp"

namespace lb = loom_bench;
namespace tb = taskbench;

namespace {

// A sense-reversing centralised barrier that spins (with a pause) instead of
// sleeping. The last arriver resets the count and flips the phase; the others
// wait for the flip. acq_rel on the count and release/acquire on the phase make
// every write before the barrier visible after it. Only meant for one thread per
// core: when more threads than cores share the machine, the spin yields.
class spin_barrier {
 public:
  explicit spin_barrier(int threads) : threads_(threads), left_(threads) {}

  void arrive_and_wait() {
    const unsigned phase = phase_.load(std::memory_order_relaxed);
    if (left_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      left_.store(threads_, std::memory_order_relaxed);
      phase_.store(phase + 1, std::memory_order_release);
      return;
    }
    for (unsigned spins = 0; phase_.load(std::memory_order_acquire) == phase; ++spins) {
      if (spins < 4096) {
        pause();
      } else {
        std::this_thread::yield();
      }
    }
  }

 private:
  static void pause() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
  }

  const int threads_;
  alignas(64) std::atomic<int> left_;
  alignas(64) std::atomic<unsigned> phase_{0};
};

// Threads live across repetitions (creating them is not what a row costs): each
// repetition is one pass through `start`, then a barrier per row.
class Team {
 public:
  Team(tb::GraphRun& run, int threads) : run_(run), threads_(threads), start_(threads), row_(threads) {
    for (int r = 1; r < threads; ++r) workers_.emplace_back([this, r] { worker(r); });
  }
  ~Team() {
    stop_ = true;
    start_.arrive_and_wait();
  }
  Team(const Team&) = delete;
  Team& operator=(const Team&) = delete;

  // One run of the graph, the calling thread taking part as rank 0.
  void run_graph() {
    start_.arrive_and_wait();
    rows(0);
  }

 private:
  void worker(int rank) {
    for (;;) {
      start_.arrive_and_wait();
      if (stop_) return;
      rows(rank);
    }
  }

  // This thread's share of every row, then the barrier that closes the row.
  void rows(int rank) {
    const tb::Graph& g = run_.graph;
    for (long t = 0; t < g.steps; ++t) {
      const long off = g.offset_at(t), w = g.width_at(t);
      const long first = off + w * rank / threads_, last = off + w * (rank + 1) / threads_;
      for (long x = first; x < last; ++x) run_.execute(t, x, rank);
      row_.arrive_and_wait();
    }
  }

  tb::GraphRun& run_;
  int threads_;
  // Both spin: a graph run starts with `start_`, so a sleeping start would time
  // a futex wake-up per run.
  spin_barrier start_, row_;
  std::atomic<bool> stop_{false};  // written before the start barrier, read after it
  std::vector<std::jthread> workers_;
};

}  // namespace

int main(int argc, char** argv) {
  lb::Cli cli(argc, argv, "taskbench", "Task Bench graph with std::threads and a barrier per row");
  tb::Config cfg = tb::parse_config(cli);
  auto run = lb::run_options(cli);
  cli.finish();
  const int threads = lb::default_threads(run);
  tb::resolve(cfg, cli, threads);

  tb::GraphRun graph_run(cfg.graph, cfg.kernel, threads);
  Team team(graph_run, threads);
  long runs = 1;
  auto timing = tb::measure_graph(run, cfg, graph_run, [&] { team.run_graph(); }, &runs);
  return tb::report_graph(cli, run, threads, timing, cfg, runs);
}

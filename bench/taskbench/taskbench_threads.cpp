// Task Bench graphs with plain std::threads and a barrier: the bulk-synchronous
// reference. Each thread owns a contiguous block of every row and all threads meet
// at a barrier between rows, so a row's inputs are complete before it runs and
// the row after it may overwrite them. No runtime schedules anything.
#include <barrier>
#include <thread>

#include "app.hpp"
#include "bench.hpp"

namespace lb = loom_bench;
namespace tb = taskbench;

namespace {

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
  std::barrier<> start_, row_;
  bool stop_ = false;  // written before the start barrier, read after it
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
  auto timing = lb::measure_checked(
      run, [&] { graph_run.reset(); }, [&] { team.run_graph(); },
      [&] { return graph_run.verified(); });
  return lb::report(cli, run, threads, timing.times, timing.verified, tb::work_record(cfg));
}

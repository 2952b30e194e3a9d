// Task Bench graphs with OpenMP tasks: one task per graph point, created row by row
// by one thread, ordered only by `depend` clauses on the output slots (in: the
// inputs of the previous row, out: its own slot). The runtime alone orders the
// tasks, so the run measures its dependence tracking and scheduling.
#include "app.hpp"
#include "omp_team.hpp"

namespace lb = loom_bench;
namespace tb = taskbench;

namespace {

void run_graph(tb::GraphRun& run) {
  const tb::Graph& g = run.graph;
  std::vector<long> inputs;
  inputs.reserve(size_t(g.width));
#pragma omp parallel
#pragma omp single
  for (long t = 0; t < g.steps; ++t) {
    // Only named in depend clauses, which gcc does not count as a use.
    [[maybe_unused]] tb::Record* prev = run.rows.row(t - 1);
    [[maybe_unused]] tb::Record* cur = run.rows.row(t);
    for (long x = g.offset_at(t); x < g.offset_at(t) + g.width_at(t); ++x) {
      // The list is read when the task is created, so one buffer serves all tasks.
      const long k = g.inputs(t, x, inputs);
      const long* in = inputs.data();
#pragma omp task firstprivate(t, x) depend(iterator(i = 0 : k), in : prev[in[i]]) \
    depend(out : cur[x])
      run.execute(t, x, omp_get_thread_num());
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  lb::Cli cli(argc, argv, "taskbench", "Task Bench graph with OpenMP tasks and depend");
  tb::Config cfg = tb::parse_config(cli);
  auto run = lb::run_options(cli);
  cli.finish();
  const int threads = lb::omp_team_size(run);
  tb::resolve(cfg, cli, threads);

  tb::GraphRun graph_run(cfg.graph, cfg.kernel, threads);
  long runs = 1;
  auto timing = tb::measure_graph(run, cfg, graph_run, [&] { run_graph(graph_run); }, &runs);
  return tb::report_graph(cli, run, threads, timing, cfg, runs);
}

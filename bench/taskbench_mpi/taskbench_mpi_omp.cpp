// Distributed Task Bench, MPI + OpenMP (Task Bench's MPI+OpenMP reference): the
// bulk-synchronous exchange of the MPI version before every row, then the rank's
// points of the row in an OpenMP parallel loop over --threads / ranks threads. MPI is
// called by the master thread only, outside the parallel regions (FUNNELED).
// Built twice, against llvm-OpenMP (clang) and GNU OpenMP (gcc).
#include <omp.h>

#include "distributed.hpp"

namespace lb = loom_bench;
namespace tb = taskbench;
namespace dt = taskbench_mpi;

namespace {

void run_graph(tb::GraphRun& run, const dt::Setup& s, std::vector<MPI_Request>& reqs) {
  const tb::Graph& g = run.graph;
  for (long t = 0; t < g.steps; ++t) {
    dt::exchange_before(t, s, run.rows, reqs);
    const long lo = std::max(s.layout.lo(), g.offset_at(t));
    const long hi = std::min(s.layout.hi(), g.offset_at(t) + g.width_at(t));
#pragma omp parallel for schedule(static)
    for (long x = lo; x < hi; ++x) run.execute(t, x, omp_get_thread_num());
  }
}

}  // namespace

int main(int argc, char** argv) {
  lb::Cli cli(argc, argv, "taskbench_mpi", "distributed Task Bench, MPI + OpenMP parallel loops");
  dt::Options o = dt::parse(cli);
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  dt::Setup s = dt::setup(o, cli);
  omp_set_num_threads(s.threads_per_rank);
  int team = 1;
#pragma omp parallel
#pragma omp single
  team = omp_get_num_threads();  // also starts the team before the first repetition
  tb::GraphRun graph_run(o.cfg.graph, o.cfg.kernel, team);
  std::vector<MPI_Request> reqs;
  auto timing = dt::measure(
      o.run, [&] { graph_run.reset(); }, [&] { run_graph(graph_run, s, reqs); },
      [&] { return dt::verified_everywhere(graph_run, s.layout); });
  const int status = dt::report(cli, o, s, timing);
  MPI_Finalize();
  return status;
}

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
  const int status = dt::run_bulk_synchronous(cli, o, s, graph_run, [&](long t, long lo, long hi) {
#pragma omp parallel for schedule(static)
    for (long x = lo; x < hi; ++x) graph_run.execute(t, x, omp_get_thread_num());
  });
  MPI_Finalize();
  return status;
}

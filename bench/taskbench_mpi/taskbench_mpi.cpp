// Distributed Task Bench, plain MPI, bulk synchronous (Task Bench's MPI reference):
// one rank per core, one thread each. Before every row the ranks exchange the outputs
// the row reads (nonblocking sends and receives, then MPI_Waitall), then each rank
// runs its points of the row in order. Communication never overlaps computation.
#include "distributed.hpp"

namespace lb = loom_bench;
namespace tb = taskbench;
namespace dt = taskbench_mpi;

int main(int argc, char** argv) {
  lb::Cli cli(argc, argv, "taskbench_mpi", "distributed Task Bench, MPI bulk synchronous, one rank per core");
  dt::Options o = dt::parse(cli);
  MPI_Init(&argc, &argv);
  dt::Setup s = dt::setup(o, cli);
  if (s.threads_per_rank != 1 && s.layout.rank == 0) {
    std::fprintf(stderr, "taskbench_mpi: %d cores on %d ranks; this version uses one thread per rank\n", s.cores,
                 s.layout.ranks);
  }
  s.cores = s.layout.ranks;  // one core per rank, whatever --threads said
  tb::GraphRun graph_run(o.cfg.graph, o.cfg.kernel, 1);
  const int status = dt::run_bulk_synchronous(cli, o, s, graph_run, [&](long t, long lo, long hi) {
    for (long x = lo; x < hi; ++x) graph_run.execute(t, x, 0);
  });
  MPI_Finalize();
  return status;
}

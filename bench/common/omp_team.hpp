// OpenMP side of the run options: the team size a program really gets.
#pragma once

#include <omp.h>

#include "bench.hpp"

namespace loom_bench {

// Applies --threads (if given) and returns the size of the team a parallel region
// gets. Opening one region here also starts the runtime's threads before the first
// timed repetition, whatever the runtime's start-up policy.
inline int omp_team_size(const RunOptions& run) {
  if (run.threads > 0) omp_set_num_threads(run.threads);
  int n = 1;
#pragma omp parallel
  {
#pragma omp single
    n = omp_get_num_threads();
  }
  return n;
}

}  // namespace loom_bench

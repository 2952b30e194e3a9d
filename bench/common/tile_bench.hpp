// The main program of the tile factorisation benchmarks (Cholesky, LU, QR): one
// OpenMP source each supplies its factorisation and its check; this file parses
// the shared options, times the factorisation of a fresh copy of the matrix per
// repetition, checks the last result and prints the record.
#pragma once

#include <string>

#include "omp_team.hpp"
#include "tile_matrix.hpp"

namespace loom_bench {

struct TileOptions {
  long n;
  long nb;
  // Panel (critical-path) tasks get priority(1) instead of the default 0. The
  // runtime honours it only up to OMP_MAX_TASK_PRIORITY (default 0: ignored), which
  // the record reports as extra.max_task_priority.
  bool priority;
};

// Factor(TileMatrix&, const TileOptions&) factors in place; Check(original, factored)
// says whether the result is right; flops is the work of one factorisation.
template <class Factor, class Check>
int run_tile_bench(int argc, char** argv, const std::string& bench, const std::string& summary,
                   MatrixKind kind, double flops_per_n3, Factor factor, Check check) {
  Cli cli(argc, argv, bench, summary);
  TileOptions opt{};
  opt.n = long(cli.integer("n", 2048, 1, 32768, "matrix order (a multiple of --nb)"));
  opt.nb = long(cli.integer("nb", 256, 1, 4096, "tile size"));
  opt.priority = cli.flag("priority", "priority(1) on the panel (critical-path) tasks");
  auto run = run_options(cli, 3);
  cli.finish();
  if (opt.n % opt.nb != 0) cli.fail("n", std::to_string(opt.n), "a multiple of --nb");
  blas_single_threaded();
  const int threads = omp_team_size(run);

  const TileMatrix original = make_matrix(opt.n, opt.nb, kind);
  TileMatrix work = original;
  auto times = measure(run, [&] { work = original; }, [&] { factor(work, opt); });
  const double n = double(opt.n);
  // Priorities count only up to OMP_MAX_TASK_PRIORITY: the record says what held.
  return report(cli, run, threads, times, check(original, work),
                JsonObject().set("flops", flops_per_n3 * n * n * n),
                JsonObject().set("max_task_priority", omp_get_max_task_priority()),
                "factorisation residual too large, or a kernel reported an error");
}

}  // namespace loom_bench

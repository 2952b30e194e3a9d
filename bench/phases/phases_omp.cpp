// The phase loop with OpenMP: the serial phase on the initial thread outside any
// region, the parallel phase one `parallel for` with one iteration per thread.
#include <vector>

#include "omp_team.hpp"
#include "phases.hpp"

namespace lb = loom_bench;

int main(int argc, char** argv) {
  lb::Cli cli(argc, argv, "phases", "serial/parallel phase loop with OpenMP parallel for");
  const phases::Config cfg = phases::parse(cli);
  auto run = lb::run_options(cli, 3);
  cli.finish();
  const int threads = lb::omp_team_size(run);
  const double per_us = phases::calibrate_iters_per_us();
  const long gap_iters = long(double(cfg.gap_us) * per_us), par_iters = long(double(cfg.par_us) * per_us);
  const long n = phases::phase_count(cfg);
  std::vector<double> out(size_t(threads), 0.0);
  double sink = 1.0, cpu = 0.0;
  auto times = lb::measure(run, [&] {
    const double c0 = phases::process_cpu_s();
    for (long p = 0; p < n; ++p) {
      sink = phases::spin_work(gap_iters, sink);
#pragma omp parallel for schedule(static, 1)
      for (int t = 0; t < threads; ++t) out[size_t(t)] = phases::spin_work(par_iters, out[size_t(t)] + 1.0);
    }
    cpu += phases::process_cpu_s() - c0;
  });
  lb::do_not_optimize(sink);
  const double reps = double(run.reps + run.warmup);
  bool ok = std::isfinite(sink);
  for (double v : out) ok = ok && std::isfinite(v) && v > 0;
  return lb::report(cli, run, threads, times, ok, phases::work(cfg, threads, cpu / reps));
}

// The phase loop on loom's native API: the serial phase on the main thread, the
// parallel phase one task per worker in a task_group (the caller runs one).
#include <vector>

#include "loom/runtime.hpp"
#include "loom/task_group.hpp"
#include "phases.hpp"

namespace lb = loom_bench;

int main(int argc, char** argv) {
  lb::Cli cli(argc, argv, "phases", "serial/parallel phase loop with a loom task_group");
  const phases::Config cfg = phases::parse(cli);
  auto run = lb::run_options(cli, 3);
  cli.finish();
  loom::runtime rt{loom::runtime_options{.num_threads = unsigned(lb::default_threads(run))}};
  const int threads = int(loom::num_threads());
  const double per_us = phases::calibrate_iters_per_us();
  const long gap_iters = long(double(cfg.gap_us) * per_us), par_iters = long(double(cfg.par_us) * per_us);
  const long n = phases::phase_count(cfg);
  std::vector<double> out(size_t(threads), 0.0);
  double sink = 1.0, cpu = 0.0;
  auto times = lb::measure(run, [&] {
    const double c0 = phases::process_cpu_s();
    for (long p = 0; p < n; ++p) {
      sink = phases::spin_work(gap_iters, sink);
      loom::task_group g;
      for (int t = 1; t < threads; ++t) g.spawn([&, t] { out[size_t(t)] = phases::spin_work(par_iters, out[size_t(t)] + 1.0); });
      out[0] = phases::spin_work(par_iters, out[0] + 1.0);
      g.wait();
    }
    cpu += phases::process_cpu_s() - c0;
  });
  lb::do_not_optimize(sink);
  const double reps = double(run.reps + run.warmup);
  bool ok = std::isfinite(sink);
  for (double v : out) ok = ok && std::isfinite(v) && v > 0;
  return lb::report(cli, run, threads, times, ok, phases::work(cfg, threads, cpu / reps));
}

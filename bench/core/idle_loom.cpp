// Idle burn of a loom pool: start it, run one task, sleep; report the CPU-seconds
// the process used while idle (work.cpu_s; metric cpu_s/s = cores kept busy).
#include <string>

#include "bench.hpp"
#include "idle_common.hpp"
#include "loom/loom.hpp"

namespace lb = loom_bench;

int main(int argc, char** argv) {
  lb::Cli cli(argc, argv, "core-idle", "CPU burnt by an idle pool after one task");
  const double seconds = cli.real("seconds", 1.0, 0.01, 60, "idle time per repetition");
  auto run = lb::run_options(cli, 1);
  cli.finish();
  const int threads = lb::default_threads(run);
  loom::runtime rt{loom::runtime_options{.num_threads = unsigned(threads)}};

  std::vector<double> walls;
  double cpu = 0;
  bool ok = true;
  for (int i = 0; i < run.warmup + run.reps; ++i) {
    ok = loom::async([] { return 1; }).get() == 1 && ok;
    const auto s = core_idle::idle_for(seconds);
    if (i >= run.warmup) {
      walls.push_back(s.wall_s);
      cpu += s.cpu_s;
    }
  }
  const double cpu_per_rep = cpu / run.reps;
  return lb::report(cli, run, int(loom::num_threads()), walls, ok,
                    lb::JsonObject().set("cpu_s", cpu_per_rep),
                    lb::JsonObject().set("cpu_share_of_one_core", cpu_per_rep / seconds).set("spin_us", double(loom::ext::spin_budget_us())));
}

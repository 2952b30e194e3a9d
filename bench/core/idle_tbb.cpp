// Idle burn of a oneTBB pool: the same measurement as idle_loom.cpp.
#include <tbb/global_control.h>
#include <tbb/task_group.h>

#include <atomic>

#include "bench.hpp"
#include "idle_common.hpp"

namespace lb = loom_bench;

int main(int argc, char** argv) {
  lb::Cli cli(argc, argv, "core-idle", "CPU burnt by an idle pool after one task");
  const double seconds = cli.real("seconds", 1.0, 0.01, 60, "idle time per repetition");
  auto run = lb::run_options(cli, 1);
  cli.finish();
  const int threads = lb::default_threads(run);
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, size_t(threads));

  std::vector<double> walls;
  double cpu = 0;
  bool ok = true;
  for (int i = 0; i < run.warmup + run.reps; ++i) {
    std::atomic<int> r{0};
    tbb::task_group g;
    g.run([&] { r = 1; });
    g.wait();
    ok = r.load() == 1 && ok;
    const auto s = core_idle::idle_for(seconds);
    if (i >= run.warmup) {
      walls.push_back(s.wall_s);
      cpu += s.cpu_s;
    }
  }
  const double cpu_per_rep = cpu / run.reps;
  return lb::report(cli, run, threads, walls, ok, lb::JsonObject().set("cpu_s", cpu_per_rep),
                    lb::JsonObject().set("cpu_share_of_one_core", cpu_per_rep / seconds));
}

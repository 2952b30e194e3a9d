// fib(n) with oneTBB's task_group, one task per recursive call and no cut-off, the
// same tree as the OpenMP version: the work-stealing reference for the C++ API.
#include <tbb/global_control.h>
#include <tbb/task_group.h>

#include "bench.hpp"
#include "fib.hpp"

namespace lb = loom_bench;

namespace {

std::int64_t fib(int n) {
  if (n < 2) return n;
  std::int64_t x = 0, y = 0;
  tbb::task_group g;
  g.run([&] { x = fib(n - 1); });
  g.run([&] { y = fib(n - 2); });
  g.wait();
  return x + y;
}

}  // namespace

int main(int argc, char** argv) {
  lb::Cli cli(argc, argv, "fib", "fib(n) with a oneTBB task_group task per call, no cut-off");
  const int n = int(cli.integer("n", 30, 0, 60, "fib argument"));
  auto run = lb::run_options(cli);
  cli.finish();
  const int threads = lb::default_threads(run);
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, size_t(threads));

  std::int64_t result = -1;
  auto timing = lb::measure_checked(
      run, [&] { result = -1; }, [&] { result = fib(n); },
      [&] { return result == fib_ref::value(n); });
  return lb::report(cli, run, threads, timing.times, timing.verified,
                    lb::JsonObject().set("tasks", fib_ref::tasks(n)));
}

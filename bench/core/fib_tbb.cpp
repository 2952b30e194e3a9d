// fib(n) with oneTBB's task_group in the same shape as loom::fork_join: fib(n-2) as
// a child task (run), fib(n-1) inline, then wait.
#include <tbb/global_control.h>
#include <tbb/task_group.h>

#include <cstdint>

#include "bench.hpp"
#include "fib_common.hpp"

namespace lb = loom_bench;

namespace {

std::int64_t fib(int n) {
  if (n < 2) return n;
  std::int64_t x = 0, y = 0;
  tbb::task_group g;
  g.run([&] { y = fib(n - 2); });
  x = fib(n - 1);
  g.wait();
  return x + y;
}

}  // namespace

int main(int argc, char** argv) {
  lb::Cli cli(argc, argv, "core-fib", "fib(n) with a oneTBB task_group per call (run + inline)");
  const int n = int(cli.integer("n", 30, 0, 60, "fib argument"));
  // Accepted so that one parameter matrix fits every system; TBB has one style.
  (void)cli.choice("style", "forkjoin", {"forkjoin", "futures"}, "ignored: TBB's task_group");
  auto run = lb::run_options(cli);
  cli.finish();
  const int threads = lb::default_threads(run);
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, size_t(threads));

  std::int64_t result = -1;
  auto timing = lb::measure_checked(
      run, [&] { result = -1; }, [&] { result = fib(n); },
      [&] { return result == core_fib::value(n); });
  return lb::report(cli, run, threads, timing.times, timing.verified,
                    lb::JsonObject().set("tasks", core_fib::tasks(n)));
}

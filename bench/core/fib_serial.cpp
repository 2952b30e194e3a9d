// fib(n) by plain recursion: the 1-thread reference.
#include <cstdint>

#include "bench.hpp"
#include "fib_common.hpp"

namespace lb = loom_bench;

namespace {

__attribute__((noinline)) std::int64_t fib(int n) {
  if (n < 2) return n;
  return fib(n - 1) + fib(n - 2);
}

}  // namespace

int main(int argc, char** argv) {
  lb::Cli cli(argc, argv, "core-fib", "fib(n) by plain recursion");
  const int n = int(cli.integer("n", 30, 0, 60, "fib argument"));
  (void)cli.choice("style", "forkjoin", {"forkjoin", "futures"}, "ignored: serial");
  auto run = lb::run_options(cli);
  cli.finish();

  std::int64_t result = -1;
  auto timing = lb::measure_checked(
      run, [&] { result = -1; }, [&] { result = fib(n); lb::do_not_optimize(result); },
      [&] { return result == core_fib::value(n); });
  return lb::report(cli, run, 1, timing.times, timing.verified,
                    lb::JsonObject().set("tasks", core_fib::tasks(n)));
}

// fib(n) by plain recursion, one call per node: the 1-thread reference.
#include <cstdint>

#include "bench.hpp"
#include "fib_common.hpp"

namespace lb = loom_bench;

namespace {

// Each call is a real call: through a volatile pointer the compiler cannot turn the
// recursion into a loop (gcc -O3 does that to the plain version, which then measures
// something else than a call tree).
std::int64_t fib(int n);
std::int64_t (*volatile fib_call)(int) = &fib;

std::int64_t fib(int n) {
  if (n < 2) return n;
  return fib_call(n - 1) + fib_call(n - 2);
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

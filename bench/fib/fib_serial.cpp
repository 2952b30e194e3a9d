// fib(n) by plain recursion: the one-core reference the task versions are
// compared with (its "tasks" are the calls the task versions turn into tasks).
#include "bench.hpp"
#include "fib.hpp"

namespace lb = loom_bench;

namespace {

// The compiler may turn one of the two calls into a loop: that is the serial code a
// programmer gets from this recursion, and so the fair reference.
std::int64_t fib(int n) {
  if (n < 2) return n;
  return fib(n - 1) + fib(n - 2);
}

}  // namespace

int main(int argc, char** argv) {
  lb::Cli cli(argc, argv, "fib", "fib(n) by serial recursion");
  const int n = int(cli.integer("n", 30, 0, 60, "fib argument"));
  auto run = lb::run_options(cli);
  cli.finish();

  std::int64_t result = -1;
  auto timing = lb::measure_checked(
      run, [&] { result = -1; },
      [&] {
        result = fib(n);
        lb::do_not_optimize(result);
      },
      [&] { return result == fib_ref::value(n); });
  return lb::report(cli, run, 1, timing.times, timing.verified, lb::JsonObject().set("tasks", fib_ref::tasks(n)));
}

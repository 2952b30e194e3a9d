// fib(n) on loom's C++ API, one task per call pair and no cut-off:
//   --style forkjoin: loom::fork_join(fib(n-1) here, fib(n-2) as a child)
//   --style futures:  a = loom::async(fib, n-1); b = fib(n-2); a.get() + b
#include <cstdint>

#include "bench.hpp"
#include "fib_common.hpp"
#include "loom/loom.hpp"

namespace lb = loom_bench;

namespace {

std::int64_t fib_forkjoin(int n) {
  if (n < 2) return n;
  std::int64_t x = 0, y = 0;
  loom::fork_join([&] { x = fib_forkjoin(n - 1); }, [&] { y = fib_forkjoin(n - 2); });
  return x + y;
}

std::int64_t fib_futures(int n) {
  if (n < 2) return n;
  loom::future<std::int64_t> x = loom::async(fib_futures, n - 1);
  const std::int64_t y = fib_futures(n - 2);
  return x.get() + y;
}

}  // namespace

int main(int argc, char** argv) {
  lb::Cli cli(argc, argv, "core-fib", "fib(n) on loom: fork_join or async/future per call");
  const int n = int(cli.integer("n", 30, 0, 60, "fib argument"));
  const std::string style = cli.choice("style", "forkjoin", {"forkjoin", "futures"}, "decomposition");
  auto run = lb::run_options(cli);
  cli.finish();
  const int threads = lb::default_threads(run);
  loom::runtime rt{loom::runtime_options{.num_threads = unsigned(threads)}};

  auto* fn = style == "forkjoin" ? &fib_forkjoin : &fib_futures;
  std::int64_t result = -1;
  const auto before = loom::total(loom::stats());
  auto timing = lb::measure_checked(
      run, [&] { result = -1; }, [&] { result = loom::async(fn, n).get(); },
      [&] { return result == core_fib::value(n); });
  const auto after = loom::total(loom::stats());
  const int reps = run.warmup + run.reps;
  return lb::report(cli, run, int(loom::num_threads()), timing.times, timing.verified,
                    lb::JsonObject().set("tasks", core_fib::tasks(n)),
                    lb::JsonObject()
                        .set("spawns", core_fib::spawns(n))
                        .set("steals_per_rep", double(after.steals - before.steals) / reps)
                        .set("suspensions_per_rep", double(after.suspensions - before.suspensions) / reps));
}

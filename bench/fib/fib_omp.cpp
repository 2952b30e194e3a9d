// fib(n) with one OpenMP task per recursive call and no cut-off: a task tree of
// 2 fib(n+1) - 2 tiny tasks, which measures task creation, scheduling and taskwait.
#include "fib.hpp"
#include "omp_team.hpp"

namespace lb = loom_bench;

namespace {

std::int64_t fib(int n) {
  if (n < 2) return n;
  std::int64_t x = 0, y = 0;
#pragma omp task shared(x) firstprivate(n)
  x = fib(n - 1);
#pragma omp task shared(y) firstprivate(n)
  y = fib(n - 2);
#pragma omp taskwait
  return x + y;
}

}  // namespace

int main(int argc, char** argv) {
  lb::Cli cli(argc, argv, "fib", "fib(n) with an OpenMP task per call, no cut-off");
  const int n = int(cli.integer("n", 30, 0, 60, "fib argument"));
  auto run = lb::run_options(cli);
  cli.finish();
  const int threads = lb::omp_team_size(run);

  std::int64_t result = -1;
  auto timing = lb::measure_checked(
      run, [&] { result = -1; },
      [&] {
#pragma omp parallel
#pragma omp single
        result = fib(n);
      },
      [&] { return result == fib_ref::value(n); });
  return lb::report(cli, run, threads, timing.times, timing.verified,
                    lb::JsonObject().set("tasks", fib_ref::tasks(n)));
}

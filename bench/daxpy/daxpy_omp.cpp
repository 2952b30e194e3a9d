// daxpy y = a*x + y with `parallel for`: the fork/join and worksharing cost of a
// runtime at sizes where a region lasts microseconds (n = 1e3) up to where memory
// bandwidth dominates (n = 1e6).
#include <algorithm>
#include <vector>

#include "omp_team.hpp"

namespace lb = loom_bench;

namespace {

// Values are small multiples of 0.5, so every sum below is exact in double and the
// result can be checked for equality, not within a tolerance.
constexpr double kA = 0.5;
double x_init(long i) { return double(i % 7 + 1); }
double y_init(long i) { return double(i % 5); }

void daxpy(long n, double a, const double* x, double* y) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) y[i] += a * x[i];
}

bool verify(const std::vector<double>& y, long applications) {
  for (long i = 0; i < long(y.size()); ++i) {
    if (y[size_t(i)] != y_init(i) + double(applications) * kA * x_init(i)) return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  lb::Cli cli(argc, argv, "daxpy", "parallel-for daxpy y = a*x + y");
  const long n = long(cli.integer("n", 1000000, 1, 1L << 31, "vector length"));
  // One region at n = 1e3 lasts microseconds: a repetition runs the loop `iters`
  // times so the clock resolves it; the default aims at ~2e6 updates (a few
  // milliseconds) per repetition, at most 2000 regions.
  const long iters = long(cli.integer("iters", 0, 0, 1L << 40,
                                      "daxpy calls per repetition (0: 2e6/n, at most 2000)"));
  auto run = lb::run_options(cli);
  cli.finish();
  const long calls = iters > 0 ? iters : std::clamp(2000000L / n, 1L, 2000L);
  cli.set_param("iters", calls);
  const int threads = lb::omp_team_size(run);

  std::vector<double> x(static_cast<size_t>(n)), y(static_cast<size_t>(n));
  // First touch in the same static distribution as the timed loop.
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) {
    x[size_t(i)] = x_init(i);
    y[size_t(i)] = y_init(i);
  }

  auto times = lb::measure(run, [&] {
    for (long c = 0; c < calls; ++c) daxpy(n, kA, x.data(), y.data());
  });
  const bool ok = verify(y, long(run.warmup + run.reps) * calls);
  return lb::report(cli, run, threads, times, ok,
                    lb::JsonObject().set("flops", 2.0 * double(n) * double(calls)));
}

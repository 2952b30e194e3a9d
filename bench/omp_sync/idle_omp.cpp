// The CPU an idle team costs: a loop of `serial_us` of work on the initial thread
// followed by a parallel region of `parallel_us` of work per member. The ideal process
// spends exactly that on its CPUs: iterations x (serial_us + threads x parallel_us).
// What a runtime burns beyond it is spinning: members waiting for the next region
// through the serial phase, or waiting in the region's join. The record carries the
// measured CPU-seconds (getrusage), the ideal and their ratio; time is wall time.
#include <sys/resource.h>

#include <atomic>

#include "bench.hpp"
#include "cli.hpp"
#include "json.hpp"
#include "omp_team.hpp"

namespace lb = loom_bench;

namespace {

std::atomic<long> g_regions{0};

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

// Busy work for `us` microseconds of this thread's CPU time.
void work_for(double us) {
  timespec t0{}, t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
  volatile double x = 1.0;
  do {
    for (int i = 0; i < 64; ++i) x = x * 1.0000001;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  } while (double(t.tv_sec - t0.tv_sec) * 1e6 + double(t.tv_nsec - t0.tv_nsec) * 1e-3 < us);
}

}  // namespace

int main(int argc, char** argv) {
  lb::Cli cli(argc, argv, "omp_idle", "CPU cost of an idle OpenMP team between regions");
  const long iterations = long(cli.integer("iterations", 100, 1, 1L << 24, "serial+parallel rounds"));
  const double serial_us = cli.real("serial_us", 5000, 0, 1e7, "serial work per round (us)");
  const double parallel_us = cli.real("parallel_us", 200, 0, 1e7, "work per member per region (us)");
  auto run = lb::run_options(cli, 3);
  cli.finish();
  const int threads = lb::omp_team_size(run);

  std::vector<double> times;
  double cpu_total = 0;
  for (int r = 0; r < run.warmup + run.reps; ++r) {
    g_regions.store(0);
    const double cpu0 = cpu_seconds();
    auto t0 = std::chrono::steady_clock::now();
    for (long i = 0; i < iterations; ++i) {
      work_for(serial_us);
#pragma omp parallel
      {
        work_for(parallel_us);
#pragma omp single nowait
        g_regions.fetch_add(1, std::memory_order_relaxed);
      }
    }
    const double wall = lb::seconds_since(t0);
    if (r >= run.warmup) {
      times.push_back(wall);
      cpu_total += cpu_seconds() - cpu0;
    }
  }
  const bool ok = g_regions.load() == iterations;
  // Per repetition, like the times: the report's cpu_s/s is then the average number of
  // busy CPUs, to set against ideal_cpu_s / the ideal wall time.
  const double ideal = double(iterations) * (serial_us + double(threads) * parallel_us) * 1e-6;
  const double cpu = cpu_total / double(run.reps);
  return lb::report(cli, run, threads, times, ok,
                    lb::JsonObject()
                        .set("regions", iterations)
                        .set("cpu_s", cpu)
                        .set("ideal_cpu_s", ideal),
                    lb::JsonObject().set("cpu_over_ideal", cpu / ideal));
}

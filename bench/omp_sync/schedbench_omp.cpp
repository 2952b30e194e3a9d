// EPCC-schedbench-style loop-scheduling overheads (after the EPCC OpenMP micro-benchmark
// suite, schedbench): one parallel region runs `inner` worksharing loops of
// `iters_per_thread` x nthreads iterations, each a short busy delay, under one schedule;
// the serial time of one thread's share of delays is subtracted. A timed repetition
// reports (time - reference) / inner: the overhead of one scheduled loop. The driver's
// `chunks` work field lets the report derive a per-chunk cost for dynamic schedules.
//   static          schedule(static)
//   static_chunk    schedule(static, chunk)
//   dynamic         schedule(dynamic, chunk)
//   guided          schedule(guided, chunk)
// Every iteration is counted and checked against the expected count.
#include <algorithm>
#include <atomic>
#include <string>

#include "bench.hpp"
#include "cli.hpp"
#include "json.hpp"
#include "omp_team.hpp"

namespace lb = loom_bench;

namespace {

int g_delay = 50;
std::atomic<long> g_done{0};

inline void delay() {
  volatile int a = 0;
  for (int i = 0; i < g_delay; ++i) a = a + i;
  lb::do_not_optimize(a);
}

// Orphaned worksharing loops, one per schedule (clang 19 cannot compile an orphaned
// `omp for` inside a lambda). Each returns the iterations the calling member ran.
long loop_static(long n, int) {
  long c = 0;
#pragma omp for schedule(static)
  for (long i = 0; i < n; ++i) { delay(); ++c; }
  return c;
}
long loop_static_chunk(long n, int chunk) {
  long c = 0;
#pragma omp for schedule(static, chunk)
  for (long i = 0; i < n; ++i) { delay(); ++c; }
  return c;
}
long loop_dynamic(long n, int chunk) {
  long c = 0;
#pragma omp for schedule(dynamic, chunk)
  for (long i = 0; i < n; ++i) { delay(); ++c; }
  return c;
}
long loop_guided(long n, int chunk) {
  long c = 0;
#pragma omp for schedule(guided, chunk)
  for (long i = 0; i < n; ++i) { delay(); ++c; }
  return c;
}

// Each member counts its iterations privately and adds them once, so the check costs
// one atomic per member per repetition, not one per iteration.
long scheduled(const std::string& kind, long inner, long n, int chunk) {
  long (*loop)(long, int) = kind == "static"         ? loop_static
                            : kind == "static_chunk" ? loop_static_chunk
                            : kind == "dynamic"      ? loop_dynamic
                                                     : loop_guided;
#pragma omp parallel
  {
    long mine = 0;
    for (long j = 0; j < inner; ++j) mine += loop(n, chunk);
    g_done.fetch_add(mine, std::memory_order_relaxed);
  }
  return inner * n;
}

}  // namespace

int main(int argc, char** argv) {
  lb::Cli cli(argc, argv, "omp_schedbench", "EPCC-style OpenMP loop-scheduling overheads");
  const std::string kind = cli.choice("schedule", "dynamic",
                                      {"static", "static_chunk", "dynamic", "guided"},
                                      "loop schedule");
  const int chunk = int(cli.integer("chunk", 1, 1, 1 << 20, "chunk size"));
  const long per_thread = long(cli.integer("iters_per_thread", 128, 1, 1L << 24,
                                           "loop iterations per thread"));
  const long inner = long(cli.integer("inner", 100, 1, 1L << 24, "loops per repetition"));
  g_delay = int(cli.integer("delay", 50, 0, 1 << 24, "busy iterations per loop iteration"));
  auto run = lb::run_options(cli, 20);
  cli.finish();
  const int threads = lb::omp_team_size(run);
  const long n = per_thread * threads;

  bool ok = true;
  std::vector<double> overheads;
  for (int r = 0; r < run.warmup + run.reps; ++r) {
    // Reference: one thread's share of the delays, serially (the ideal loop time).
    auto t_ref = std::chrono::steady_clock::now();
    for (long j = 0; j < inner * per_thread; ++j) delay();
    const double ref_s = lb::seconds_since(t_ref);
    g_done.store(0);
    auto t0 = std::chrono::steady_clock::now();
    const long expect = scheduled(kind, inner, n, chunk);
    const double test_s = lb::seconds_since(t0);
    ok = ok && g_done.load() == expect;
    // An overhead lost in the noise of the two timings reads 0, never below.
    if (r >= run.warmup) overheads.push_back(std::max(0.0, (test_s - ref_s) / double(inner)));
  }
  const long chunks = kind == "static" ? threads : (n + chunk - 1) / chunk;
  return lb::report(cli, run, threads, overheads, ok,
                    lb::JsonObject().set("loops", inner).set("chunks", chunks));
}

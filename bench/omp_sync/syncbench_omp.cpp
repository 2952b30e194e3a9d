// EPCC-syncbench-style synchronisation overheads (after the EPCC OpenMP micro-benchmark
// suite, syncbench): each test runs `inner` instances of one construct, each around a
// short busy delay, and subtracts the time of the same delays run serially. A timed
// repetition reports that difference divided by `inner`: the overhead of ONE construct.
//   parallel      a parallel region per instance                 (PARALLEL)
//   for           a `for` over nthreads iterations in one region (FOR)
//   parallel_for  a `parallel for` over nthreads iterations      (PARALLEL FOR)
//   barrier       a barrier after each delay                     (BARRIER)
//   single        a `single` around the delay                    (SINGLE)
//   critical      `critical` around the delay, inner/nthreads per thread (CRITICAL)
//   lock          omp_set_lock/omp_unset_lock around the delay   (LOCK/UNLOCK)
//   atomic        `atomic` update, inner/nthreads per thread     (ATOMIC)
//   reduction     a parallel region with reduction(+)            (REDUCTION)
// Every delay bumps a counter that is checked against the expected count; the atomic
// and reduction results are checked too.
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

// Busy work of g_delay iterations the optimiser cannot remove.
inline void delay() {
  volatile int a = 0;
  for (int i = 0; i < g_delay; ++i) a = a + i;
  lb::do_not_optimize(a);
}

struct counts {
  std::atomic<long> delays{0};
  void add(long n = 1) { delays.fetch_add(n, std::memory_order_relaxed); }
};
counts g_counts;

inline void counted_delay() {
  delay();
  g_counts.add();
}

double reference_seconds(long inner) {
  auto t0 = std::chrono::steady_clock::now();
  for (long j = 0; j < inner; ++j) counted_delay();
  return lb::seconds_since(t0);
}

// Runs one test; returns the number of delays it should have counted.
long run_test(const std::string& test, long inner, int threads, double& atomic_sum) {
  if (test == "parallel") {
    for (long j = 0; j < inner; ++j) {
#pragma omp parallel
      counted_delay();
    }
    return inner * threads;
  }
  if (test == "for") {
#pragma omp parallel
    for (long j = 0; j < inner; ++j) {
#pragma omp for
      for (int i = 0; i < omp_get_num_threads(); ++i) counted_delay();
    }
    return inner * threads;
  }
  if (test == "parallel_for") {
    for (long j = 0; j < inner; ++j) {
#pragma omp parallel for
      for (int i = 0; i < threads; ++i) counted_delay();
    }
    return inner * threads;
  }
  if (test == "barrier") {
#pragma omp parallel
    for (long j = 0; j < inner; ++j) {
      counted_delay();
#pragma omp barrier
    }
    return inner * threads;
  }
  if (test == "single") {
#pragma omp parallel
    for (long j = 0; j < inner; ++j) {
#pragma omp single
      counted_delay();
    }
    return inner;
  }
  const long per_thread = inner / threads;
  if (test == "critical") {
#pragma omp parallel
    for (long j = 0; j < per_thread; ++j) {
#pragma omp critical
      counted_delay();
    }
    return per_thread * threads;
  }
  if (test == "lock") {
    omp_lock_t lock;
    omp_init_lock(&lock);
#pragma omp parallel
    for (long j = 0; j < per_thread; ++j) {
      omp_set_lock(&lock);
      counted_delay();
      omp_unset_lock(&lock);
    }
    omp_destroy_lock(&lock);
    return per_thread * threads;
  }
  if (test == "atomic") {
    double sum = 0;
#pragma omp parallel
    {
      for (long j = 0; j < per_thread; ++j) {
#pragma omp atomic
        sum += 1.0;
      }
      g_counts.add(per_thread);  // the atomic is the work; count it for the check
    }
    atomic_sum = sum;
    return per_thread * threads;
  }
  // reduction
  long total = 0;
  for (long j = 0; j < inner; ++j) {
    long part = 0;
#pragma omp parallel reduction(+ : part)
    {
      counted_delay();
      part += 1;
    }
    total += part;
  }
  atomic_sum = double(total);
  return inner * threads;
}

}  // namespace

int main(int argc, char** argv) {
  lb::Cli cli(argc, argv, "omp_syncbench", "EPCC-style OpenMP synchronisation overheads");
  const std::string test = cli.choice(
      "test", "parallel",
      {"parallel", "for", "parallel_for", "barrier", "single", "critical", "lock", "atomic",
       "reduction"},
      "construct");
  const long inner = long(cli.integer("inner", 2000, 1, 1L << 30, "constructs per repetition"));
  g_delay = int(cli.integer("delay", 50, 0, 1 << 24, "busy iterations inside each construct"));
  auto run = lb::run_options(cli, 20);
  cli.finish();
  const int threads = lb::omp_team_size(run);

  bool ok = true;
  std::vector<double> overheads;
  for (int r = 0; r < run.warmup + run.reps; ++r) {
    // The reference (the same delays, serial) is re-measured with every repetition so
    // that a slow phase of a shared machine affects both sides alike.
    const double ref_s = test == "atomic" ? 0.0 : reference_seconds(inner);
    g_counts.delays.store(0);
    double result = 0;
    auto t0 = std::chrono::steady_clock::now();
    const long expect = run_test(test, inner, threads, result);
    const double test_s = lb::seconds_since(t0);
    ok = ok && g_counts.delays.load() == expect;
    if (test == "atomic" || test == "reduction") ok = ok && result == double(expect);
    const long instances = (test == "critical" || test == "lock" || test == "atomic")
                               ? expect : inner;
    // Per-thread shares of critical/lock/atomic run one after another: the serial
    // reference of `inner` delays covers the delays of all of them.
    const double ref_scaled = ref_s * double(instances) / double(inner);
    // An overhead lost in the noise of the two timings reads 0, never below.
    if (r >= run.warmup)
        overheads.push_back(std::max(0.0, (test_s - ref_scaled) / double(instances)));
  }
  return lb::report(cli, run, threads, overheads, ok,
                    lb::JsonObject().set("constructs", inner));
}

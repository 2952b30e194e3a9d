// What every benchmark binary shares: the run options (repetitions, system name,
// threads), the timing loop and the one-JSON-object-per-line record it prints.
//
// Record (one line on stdout per measurement, nothing else on stdout):
//   {"bench":"daxpy","system":"llvm-omp","params":{"n":1000},"threads":2,
//    "times_s":[...],"verified":true,"work":{"flops":2000}}
// times_s holds one wall time per timed repetition (warm-ups are not reported);
// work holds the amount of work ONE repetition does, so rate = work / time.
// Exit status: 0 verified, 1 a result was wrong, 2 bad command line.
#pragma once

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "cli.hpp"
#include "json.hpp"

// Each build names its system (llvm-omp, gnu-omp, tbb, serial, threads); the driver
// overrides it with --system when it runs an OpenMP binary on another runtime.
#ifndef LOOM_BENCH_SYSTEM
#error "compile with -DLOOM_BENCH_SYSTEM=\"<system name>\""
#endif

namespace loom_bench {

struct RunOptions {
  int reps = 5;
  int warmup = 1;
  int threads = 0;  // 0: not given on the command line
  std::string system;
};

inline RunOptions run_options(Cli& cli, int default_reps = 5) {
  RunOptions run;
  run.reps = int(cli.integer("reps", default_reps, 1, 100000, "timed repetitions", false));
  run.warmup = int(cli.integer("warmup", 1, 0, 100000, "untimed warm-up repetitions", false));
  run.threads = int(cli.integer("threads", 0, 0, 4096,
                                "threads (0: OMP_NUM_THREADS, else all hardware threads)",
                                false));
  run.system = cli.text("system", LOOM_BENCH_SYSTEM, "system name written to the record");
  return run;
}

// Thread count for the non-OpenMP systems: the same rule an OpenMP runtime applies,
// so a driver that only sets OMP_NUM_THREADS gets comparable runs everywhere.
inline int default_threads(const RunOptions& run) {
  if (run.threads > 0) return run.threads;
  if (const char* env = std::getenv("OMP_NUM_THREADS")) {
    int n = std::atoi(env);  // "4,2" (nested list) reads as 4
    if (n > 0) return n;
  }
  unsigned hw = std::thread::hardware_concurrency();
  return hw > 0 ? int(hw) : 1;
}

// Keeps a computed value alive so the optimiser cannot drop the work producing it.
template <class T>
inline void do_not_optimize(const T& value) {
  asm volatile("" : : "r,m"(value) : "memory");
}

inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct Timing {
  std::vector<double> times;  // timed repetitions only
  bool verified = true;
};

// Runs prepare() (untimed), body() (timed) and check() (untimed) for every warm-up
// and timed repetition. check() judges every result, warm-ups included: a runtime
// that gets one run in five wrong is caught.
template <class Prepare, class Body, class Check>
Timing measure_checked(const RunOptions& run, Prepare&& prepare, Body&& body, Check&& check) {
  Timing out;
  out.times.reserve(std::size_t(run.reps));
  for (int i = 0; i < run.warmup + run.reps; ++i) {
    prepare();
    auto t0 = std::chrono::steady_clock::now();
    body();
    const double dt = seconds_since(t0);
    if (i >= run.warmup) out.times.push_back(dt);
    out.verified = check() && out.verified;
  }
  return out;
}

// For programs that check only the final state.
template <class Prepare, class Body>
std::vector<double> measure(const RunOptions& run, Prepare&& prepare, Body&& body) {
  return measure_checked(run, prepare, body, [] { return true; }).times;
}

template <class Body>
std::vector<double> measure(const RunOptions& run, Body&& body) {
  return measure(run, [] {}, body);
}

// Prints the record and returns the exit status the program should end with.
// `extra` holds facts the report may show but that are not parameters (a runtime
// setting read back, say); `error` says what was wrong when verification failed.
inline int report(const Cli& cli, const RunOptions& run, int threads,
                  const std::vector<double>& times, bool verified, const JsonObject& work,
                  const JsonObject& extra = {}, std::string_view error = {}) {
  JsonObject rec;
  rec.set("bench", cli.bench())
      .set("system", run.system)
      .set("params", cli.params())
      .set("threads", threads)
      .set("times_s", times)
      .set("verified", verified)
      .set("work", work);
  if (!extra.empty()) rec.set("extra", extra);
  if (!verified) rec.set("error", error.empty() ? "result differs from the reference" : error);
  std::printf("%s\n", rec.str().c_str());
  std::fflush(stdout);
  if (!verified) {
    std::fprintf(stderr, "%s: verification FAILED for %s\n", cli.bench().c_str(),
                 cli.params().str().c_str());
  }
  return verified ? 0 : 1;
}

}  // namespace loom_bench

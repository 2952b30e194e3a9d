// The serial/parallel phase loop of the energy study: a program alternates a serial
// phase (one thread computes for `gap_us`, the others have nothing to do) with a
// parallel phase (every thread computes `par_us` of work). How a runtime waits in
// the gaps decides its CPU time: spinning through a 5 ms gap burns a core per idle
// thread, sleeping at once pays a wake-up per phase. The ideal CPU time is the work
// itself, phases x (gap_us + threads x par_us); the record carries it so that the
// report can set the measured CPU-seconds against it.
#pragma once

#include <sys/resource.h>

#include <chrono>
#include <cmath>

#include "bench.hpp"

namespace phases {

struct Config {
  long gap_us = 5000;
  long par_us = 500;
  long phases = 0;  // 0: enough for about 0.25 s of gaps (at least 4)
};

inline Config parse(loom_bench::Cli& cli) {
  Config c;
  c.gap_us = long(cli.integer("gap-us", 5000, 1, 10'000'000, "serial phase length, microseconds"));
  c.par_us = long(cli.integer("par-us", 500, 1, 10'000'000, "work of each thread per parallel phase, microseconds"));
  c.phases = long(cli.integer("phases", 0, 0, 1'000'000, "phases per repetition (0: 0.25 s of gaps, at least 4)"));
  return c;
}

inline long phase_count(const Config& c) { return c.phases > 0 ? c.phases : std::max(4L, 250000L / c.gap_us); }

// Work, not waiting: a dependent floating-point chain, `iters` long. calibrate()
// says how many iterations take one microsecond on this machine (serially, once),
// so a phase is a fixed amount of work whatever the runtime does around it.
inline double spin_work(long iters, double seed) {
  double a = seed;
  for (long i = 0; i < iters; ++i) {
    a = a * 0.9999999 + 1e-7;
    asm volatile("" : "+x"(a));  // each step is done, not folded away or vectorised
  }
  return a;
}

inline double calibrate_iters_per_us() {
  long iters = 1 << 16;
  for (;;) {
    const auto t0 = std::chrono::steady_clock::now();
    loom_bench::do_not_optimize(spin_work(iters, 1.0));
    const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    if (us > 20000 || iters > (1L << 40)) return double(iters) / us;
    iters *= 2;
  }
}

inline double process_cpu_s() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  auto sec = [](const timeval& t) { return double(t.tv_sec) + double(t.tv_usec) * 1e-6; };
  return sec(u.ru_utime) + sec(u.ru_stime);
}

// The record's work: CPU seconds measured over the timed repetitions and the ideal,
// each per repetition.
inline loom_bench::JsonObject work(const Config& c, int threads, double cpu_per_rep) {
  const double ideal = double(phase_count(c)) * (double(c.gap_us) + double(threads) * double(c.par_us)) * 1e-6;
  loom_bench::JsonObject o;
  o.set("cpu_s", cpu_per_rep).set("ideal_cpu_s", ideal).set("phases", phase_count(c));
  return o;
}

}  // namespace phases

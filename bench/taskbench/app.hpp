// The command line and the record of every taskbench implementation, so that the
// OpenMP, threads and loom versions take the same options and report the same
// work: a METG computation needs, per run, the wall time, the number of tasks, the
// total FLOPs (or bytes, for memory_bound) and the cores, all in the record.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>

#include "bench.hpp"
#include "cli.hpp"
#include "graph.hpp"
#include "json.hpp"
#include "kernel.hpp"
#include "verify.hpp"

namespace taskbench {

struct Config {
  Graph graph;
  Kernel kernel;
  long tasks_per_core = 1;  // tasks per thread in a row when --width is 0
  double min_rep_s = 0;     // shortest timed repetition (graph runs repeated to fill it)
};

// Declares the graph and kernel options. --width 0 (the default) means
// --tasks-per-core tasks per thread in a row (Task Bench's overdecomposition: 1, 8
// and 16 in its published METG table); resolve() fills it in once the thread count
// is known.
inline Config parse_config(loom_bench::Cli& cli) {
  Config c;
  c.graph.pattern = *parse_pattern(cli.choice("pattern", "stencil_1d", pattern_names(),
                                              "dependence pattern"));
  c.kernel.type = *parse_kernel(cli.choice("kernel", "compute_bound", kernel_names(), "task kernel"));
  c.graph.width = long(cli.integer("width", 0, 0, 1L << 20, "tasks per row (0: tasks-per-core x threads)"));
  c.tasks_per_core = long(cli.integer("tasks-per-core", 1, 1, 4096, "tasks per thread in a row when --width is 0"));
  c.graph.steps = long(cli.integer("steps", 100, 1, 1L << 24, "rows of the graph"));
  c.kernel.grain = long(cli.integer("grain", 1024, 0, 1L << 40, "kernel iterations per task"));
  c.graph.radix = long(cli.integer("radix", 3, 0, kMaxRadix, "inputs per task (nearest, spread, random_nearest)"));
  c.graph.period = long(cli.integer("period", 3, 1, 1L << 20, "dependence sets cycled (spread, random_nearest)"));
  c.graph.fraction = cli.real("fraction", 0.25, 0.0, 1.0, "share of neighbours connected (random_nearest)");
  c.kernel.imbalance = cli.real("imbalance", 1.0, 0.0, 2.0, "spread of grains (load_imbalance)");
  c.kernel.scratch_bytes = long(cli.integer("scratch", 65536, 64, 1L << 32, "scratch bytes per worker (memory_bound)"));
  c.kernel.samples = long(cli.integer("samples", 16, 1, 1L << 20, "parts the scratch is cycled in (memory_bound)"));
  c.min_rep_s = cli.real("min-time", 0.0, 0.0, 60.0,
                         "seconds a timed repetition lasts at least: the graph is run as often as "
                         "that takes and the time of one run is reported (0: one run)");
  return c;
}

// Call after Cli::finish(): fills in the default width and checks what single
// options cannot (the scratch must split into samples of at least two bytes).
inline void resolve(Config& c, loom_bench::Cli& cli, int threads) {
  if (c.graph.width == 0) {
    c.graph.width = c.tasks_per_core * threads;
    cli.set_param("width", c.graph.width);
  }
  if (c.kernel.type == KernelType::memory_bound && c.kernel.sample_bytes() < 2) {
    cli.fail("samples", std::to_string(c.kernel.samples), "at most --scratch / 2");
  }
}

inline loom_bench::JsonObject work_record(const Config& c) {
  const GraphWork w = graph_work(c.graph, c.kernel);
  loom_bench::JsonObject o;
  o.set("tasks", w.tasks).set("dependencies", w.dependencies).set("iterations", w.iterations);
  if (c.kernel.type == KernelType::memory_bound) {
    o.set("bytes", w.bytes);
  } else {
    o.set("flops", w.flops);
  }
  return o;
}

// Graph runs per timed repetition so that one repetition lasts about `min_s`: a
// small graph at a small grain takes tens of microseconds, where one preemption or
// one late wake-up moves the time by half, so a single run is no measurement.
inline long runs_per_repetition(double one_run_s, double min_s) {
  if (min_s <= 0 || one_run_s >= min_s) return 1;
  const double runs = std::ceil(min_s / std::max(one_run_s, 1e-9));
  return long(std::min(runs, 100000.0));
}

// The timing loop of every taskbench implementation: reset (untimed), one graph run
// (timed), verification (untimed) -- as loom_bench::measure_checked, except that a
// timed repetition runs the graph `runs` times, calibrated on the first repetition
// (a warm-up when there is one), and reports the mean time of one run. Every run is
// verified. `runs` is returned so that the record can say what was done.
template <class Body>
loom_bench::Timing measure_graph(const loom_bench::RunOptions& run, const Config& c,
                                 GraphRun& graph_run, Body&& body, long* runs_out = nullptr) {
  loom_bench::Timing out;
  out.times.reserve(size_t(run.reps));
  long runs = 1;
  for (int i = 0; i < run.warmup + run.reps; ++i) {
    double total = 0;
    for (long r = 0; r < runs; ++r) {
      graph_run.reset();
      const auto t0 = std::chrono::steady_clock::now();
      body();
      total += loom_bench::seconds_since(t0);
      out.verified = graph_run.verified() && out.verified;
    }
    if (i >= run.warmup) out.times.push_back(total / double(runs));
    if (i == 0) runs = runs_per_repetition(total, c.min_rep_s);
  }
  if (runs_out != nullptr) *runs_out = runs;
  return out;
}

// Report of a graph measurement: the record of loom_bench::report, plus how many
// graph runs each repetition averaged.
inline int report_graph(const loom_bench::Cli& cli, const loom_bench::RunOptions& run, int threads,
                        const loom_bench::Timing& timing, const Config& c, long runs) {
  loom_bench::JsonObject extra;
  extra.set("graph_runs_per_rep", runs);
  return loom_bench::report(cli, run, threads, timing.times, timing.verified, work_record(c), extra);
}

}  // namespace taskbench

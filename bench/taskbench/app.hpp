// The command line and the record of every taskbench implementation, so that the
// OpenMP, threads and loom versions take the same options and report the same
// work: a METG computation needs, per run, the wall time, the number of tasks, the
// total FLOPs (or bytes, for memory_bound) and the cores, all in the record.
#pragma once

#include "cli.hpp"
#include "graph.hpp"
#include "json.hpp"
#include "kernel.hpp"
#include "verify.hpp"

namespace taskbench {

struct Config {
  Graph graph;
  Kernel kernel;
};

// Declares the graph and kernel options. --width 0 (the default) means one task
// per thread in a row, Task Bench's setting for METG; resolve_width() fills it in
// once the thread count is known.
inline Config parse_config(loom_bench::Cli& cli) {
  Config c;
  c.graph.pattern = *parse_pattern(cli.choice("pattern", "stencil_1d", pattern_names(),
                                              "dependence pattern"));
  c.kernel.type = *parse_kernel(cli.choice("kernel", "compute_bound", kernel_names(), "task kernel"));
  c.graph.width = long(cli.integer("width", 0, 0, 1L << 20, "tasks per row (0: one per thread)"));
  c.graph.steps = long(cli.integer("steps", 100, 1, 1L << 24, "rows of the graph"));
  c.kernel.grain = long(cli.integer("grain", 1024, 0, 1L << 40, "kernel iterations per task"));
  c.graph.radix = long(cli.integer("radix", 3, 0, kMaxRadix, "inputs per task (nearest, spread, random_nearest)"));
  c.graph.period = long(cli.integer("period", 3, 1, 1L << 20, "dependence sets cycled (spread, random_nearest)"));
  c.graph.fraction = cli.real("fraction", 0.25, 0.0, 1.0, "share of neighbours connected (random_nearest)");
  c.kernel.imbalance = cli.real("imbalance", 1.0, 0.0, 2.0, "spread of grains (load_imbalance)");
  c.kernel.scratch_bytes = long(cli.integer("scratch", 65536, 64, 1L << 32, "scratch bytes per worker (memory_bound)"));
  c.kernel.samples = long(cli.integer("samples", 16, 1, 1L << 20, "parts the scratch is cycled in (memory_bound)"));
  return c;
}

// Call after Cli::finish(): fills in the default width and checks what single
// options cannot (the scratch must split into samples of at least two bytes).
inline void resolve(Config& c, loom_bench::Cli& cli, int threads) {
  if (c.graph.width == 0) {
    c.graph.width = threads;
    cli.set_param("width", threads);
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

}  // namespace taskbench

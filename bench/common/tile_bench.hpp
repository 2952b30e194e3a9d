// The main program of the tile factorisation benchmarks (Cholesky, LU, QR): one
// OpenMP source each supplies its factorisation and its check; this file parses
// the shared options, times the factorisation of a fresh copy of the matrix per
// repetition, checks the last result and prints the record.
#pragma once

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "omp_team.hpp"
#include "task_graph.hpp"
#include "tile_matrix.hpp"

namespace loom_bench {

struct TileOptions {
  long n;
  long nb;
  // Panel (critical-path) tasks get priority(1) instead of the default 0. The
  // runtime honours it only up to OMP_MAX_TASK_PRIORITY (default 0: ignored), which
  // the record reports as extra.max_task_priority.
  bool priority;
  // --record-graph: each task's kind, tiles, timestamps and edges (task_graph.hpp).
  TaskGraph* graph;
};

// Writes the graph of the last repetition to `f` and closes it; false on a write error.
inline bool write_graph(std::FILE* f, const TaskGraph& graph, const std::string& bench,
                        const RunOptions& run, const TileOptions& opt, int threads,
                        double time_s) {
  const char* cp = std::getenv("LOOM_CRITICAL_PATH");
  JsonObject head;
  head.set("format", "loom-task-graph")
      .set("version", 1)
      .set("bench", bench)
      .set("system", run.system)
      .set("n", opt.n)
      .set("nb", opt.nb)
      .set("nt", opt.n / opt.nb)
      .set("threads", threads)
      .set("priority", opt.priority)
      .set("max_task_priority", omp_get_max_task_priority())
      .set("critical_path_env", cp ? cp : "")
      .set("time_s", time_s);
  const bool ok = graph.write(f, head);
  return std::fclose(f) == 0 && ok;
}

// Factor(TileMatrix&, const TileOptions&) factors in place; Check(original, factored)
// says whether the result is right; flops is the work of one factorisation.
template <class Factor, class Check>
int run_tile_bench(int argc, char** argv, const std::string& bench, const std::string& summary,
                   MatrixKind kind, double flops_per_n3, Factor factor, Check check) {
  Cli cli(argc, argv, bench, summary);
  TileOptions opt{};
  opt.n = long(cli.integer("n", 2048, 1, 32768, "matrix order (a multiple of --nb)"));
  opt.nb = long(cli.integer("nb", 256, 1, 4096, "tile size"));
  opt.priority = cli.flag("priority", "priority(1) on the panel (critical-path) tasks");
  const std::string graph_path =
      cli.text("record-graph", "", "write the task graph of the last repetition to this file");
  auto run = run_options(cli, 3);
  cli.finish();
  if (opt.n % opt.nb != 0) cli.fail("n", std::to_string(opt.n), "a multiple of --nb");
  TaskGraph graph;
  opt.graph = &graph;
  std::FILE* graph_file = nullptr;
  if (!graph_path.empty()) {
    graph_file = std::fopen(graph_path.c_str(), "w");
    if (!graph_file) cli.fail("record-graph", graph_path, std::string("a writable file (") + std::strerror(errno) + ")");
    graph.enable();
  }
  blas_single_threaded();
  const int threads = omp_team_size(run);

  const TileMatrix original = make_matrix(opt.n, opt.nb, kind);
  TileMatrix work = original;
  auto times = measure(
      run,
      [&] {
        work = original;
        graph.begin();
      },
      [&] { factor(work, opt); });
  if (graph_file && !write_graph(graph_file, graph, bench, run, opt, threads, times.back())) {
    std::fprintf(stderr, "%s: could not write the task graph to %s\n", bench.c_str(),
                 graph_path.c_str());
    return 2;
  }
  const double n = double(opt.n);
  // Priorities count only up to OMP_MAX_TASK_PRIORITY: the record says what held.
  return report(cli, run, threads, times, check(original, work),
                JsonObject().set("flops", flops_per_n3 * n * n * n),
                JsonObject().set("max_task_priority", omp_get_max_task_priority()),
                "factorisation residual too large, or a kernel reported an error");
}

}  // namespace loom_bench

// n-queens with oneTBB's task_group: the same tree as the OpenMP version, one task
// per placement tried, no cut-off.
#include <tbb/global_control.h>
#include <tbb/task_group.h>

#include <cstring>

#include "bench.hpp"
#include "nqueens.hpp"

namespace lb = loom_bench;

namespace {

long nqueens(int n, int row, const char* board) {
  if (row == n) return 1;
  long counts[nqueens_ref::kMaxN] = {};
  tbb::task_group g;
  for (int col = 0; col < n; ++col) {
    g.run([=, &counts] {
      char next[nqueens_ref::kMaxN];
      std::memcpy(next, board, size_t(row));
      next[row] = char(col);
      if (nqueens_ref::ok(row + 1, next)) counts[col] = nqueens(n, row + 1, next);
    });
  }
  g.wait();
  long total = 0;
  for (int col = 0; col < n; ++col) total += counts[col];
  return total;
}

}  // namespace

int main(int argc, char** argv) {
  lb::Cli cli(argc, argv, "nqueens", "n-queens with a oneTBB task_group task per placement");
  const int n = int(cli.integer("n", 12, 1, nqueens_ref::kMaxN, "board size"));
  auto run = lb::run_options(cli);
  cli.finish();
  const int threads = lb::default_threads(run);
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, size_t(threads));

  long found = -1;
  auto timing = lb::measure_checked(
      run, [&] { found = -1; }, [&] { found = nqueens(n, 0, nullptr); },
      [&] { return found == nqueens_ref::solutions(n); });
  return lb::report(cli, run, threads, timing.times, timing.verified,
                    lb::JsonObject().set("solutions", nqueens_ref::solutions(n)));
}

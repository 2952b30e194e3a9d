// n-queens with loom::task_group: the same tree as the OpenMP and oneTBB versions,
// one child task per placement tried, no cut-off, each on its own copy of the board.
#include <cstring>

#include "bench.hpp"
#include "loom/runtime.hpp"
#include "loom/task_group.hpp"
#include "nqueens.hpp"

namespace lb = loom_bench;

namespace {

long nqueens(int n, int row, const char* board) {
  if (row == n) return 1;
  long counts[nqueens_ref::kMaxN] = {};
  loom::task_group g;
  for (int col = 0; col < n; ++col) {
    // Captures a pointer to the board, not a copy: the parent's board outlives
    // the children (it waits for them), and the closure stays inside the task record.
    g.spawn([n, row, col, board, &counts] {
      char next[nqueens_ref::kMaxN];
      if (row > 0) std::memcpy(next, board, size_t(row));
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
  lb::Cli cli(argc, argv, "nqueens", "n-queens with a loom::task_group task per placement");
  const int n = int(cli.integer("n", 12, 1, nqueens_ref::kMaxN, "board size"));
  auto run = lb::run_options(cli);
  cli.finish();
  const int threads = lb::default_threads(run);
  loom::runtime rt{loom::runtime_options{.num_threads = unsigned(threads)}};

  long found = -1;
  auto timing = lb::measure_checked(
      run, [&] { found = -1; }, [&] { found = nqueens(n, 0, nullptr); },
      [&] { return found == nqueens_ref::solutions(n); });
  return lb::report(cli, run, int(loom::num_threads()), timing.times, timing.verified,
                    lb::JsonObject().set("solutions", nqueens_ref::solutions(n)));
}

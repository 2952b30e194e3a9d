// BOTS-style n-queens with OpenMP tasks and no cut-off: at every row, one task per
// column tries that placement on its own copy of the board, and the parent sums
// its children's counts after a taskwait.
#include <cstring>

#include "nqueens.hpp"
#include "omp_team.hpp"

namespace lb = loom_bench;

namespace {

long nqueens(int n, int row, const char* board) {
  if (row == n) return 1;
  long counts[nqueens_ref::kMaxN] = {};
  for (int col = 0; col < n; ++col) {
#pragma omp task untied firstprivate(col) shared(counts)
    {
      char next[nqueens_ref::kMaxN];
      std::memcpy(next, board, size_t(row));
      next[row] = char(col);
      if (nqueens_ref::ok(row + 1, next)) counts[col] = nqueens(n, row + 1, next);
    }
  }
#pragma omp taskwait
  long total = 0;
  for (int col = 0; col < n; ++col) total += counts[col];
  return total;
}

}  // namespace

int main(int argc, char** argv) {
  lb::Cli cli(argc, argv, "nqueens", "n-queens with an OpenMP task per placement, no cut-off");
  const int n = int(cli.integer("n", 12, 1, nqueens_ref::kMaxN, "board size"));
  auto run = lb::run_options(cli);
  cli.finish();
  const int threads = lb::omp_team_size(run);

  long found = -1;
  auto timing = lb::measure_checked(
      run, [&] { found = -1; },
      [&] {
#pragma omp parallel
#pragma omp single
        found = nqueens(n, 0, nullptr);
      },
      [&] { return found == nqueens_ref::solutions(n); });
  return lb::report(cli, run, threads, timing.times, timing.verified,
                    lb::JsonObject().set("solutions", nqueens_ref::solutions(n)));
}

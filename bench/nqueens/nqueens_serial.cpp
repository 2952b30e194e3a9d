// n-queens by plain recursion over the same search tree: the one-core reference.
#include <cstring>

#include "bench.hpp"
#include "nqueens.hpp"

namespace lb = loom_bench;

namespace {

long nqueens(int n, int row, const char* board) {
  if (row == n) return 1;
  long total = 0;
  for (int col = 0; col < n; ++col) {
    char next[nqueens_ref::kMaxN];
    std::memcpy(next, board, size_t(row));
    next[row] = char(col);
    if (nqueens_ref::ok(row + 1, next)) total += nqueens(n, row + 1, next);
  }
  return total;
}

}  // namespace

int main(int argc, char** argv) {
  lb::Cli cli(argc, argv, "nqueens", "n-queens by serial recursion");
  const int n = int(cli.integer("n", 12, 1, nqueens_ref::kMaxN, "board size"));
  auto run = lb::run_options(cli);
  cli.finish();

  long found = -1;
  auto timing = lb::measure_checked(
      run, [&] { found = -1; },
      [&] {
        found = nqueens(n, 0, nullptr);
        lb::do_not_optimize(found);
      },
      [&] { return found == nqueens_ref::solutions(n); });
  return lb::report(cli, run, 1, timing.times, timing.verified,
                    lb::JsonObject().set("solutions", nqueens_ref::solutions(n)));
}

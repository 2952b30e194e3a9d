// Blazemark-style dense matrix addition C = A + B (dmatdmatadd) with `parallel for`
// over square blocks. Like Blaze, matrices smaller than a threshold are added
// serially (Blaze's SMP threshold for this operation is 36100 elements); pass
// --threshold 0 to run every size in parallel.
#include <algorithm>
#include <vector>

#include "omp_team.hpp"

namespace lb = loom_bench;

namespace {

// Row-major n x n matrices with small integer entries, so sums are exact.
struct Operands {
  long n;
  std::vector<double> a, b, c;
};

double a_init(long i, long j) { return double((i + 2 * j) % 17); }
double b_init(long i, long j) { return double((3 * i + j) % 13); }

Operands make_operands(long n) {
  const auto size = static_cast<size_t>(n * n);
  Operands m{n, std::vector<double>(size), std::vector<double>(size), std::vector<double>(size)};
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) {
    for (long j = 0; j < n; ++j) {
      m.a[size_t(i * n + j)] = a_init(i, j);
      m.b[size_t(i * n + j)] = b_init(i, j);
      m.c[size_t(i * n + j)] = 0.0;
    }
  }
  return m;
}

void add_block(Operands& m, long bi, long bj, long block) {
  const long n = m.n, ie = std::min(bi + block, n), je = std::min(bj + block, n);
  const double* a = m.a.data();
  const double* b = m.b.data();
  double* c = m.c.data();
  for (long i = bi; i < ie; ++i)
    for (long j = bj; j < je; ++j) c[i * n + j] = a[i * n + j] + b[i * n + j];
}

void matadd(Operands& m, long block, bool parallel) {
  const long nb = (m.n + block - 1) / block;
#pragma omp parallel for collapse(2) schedule(static) if (parallel)
  for (long bi = 0; bi < nb; ++bi)
    for (long bj = 0; bj < nb; ++bj) add_block(m, bi * block, bj * block, block);
}

bool verify(const Operands& m) {
  for (long i = 0; i < m.n; ++i)
    for (long j = 0; j < m.n; ++j)
      if (m.c[size_t(i * m.n + j)] != a_init(i, j) + b_init(i, j)) return false;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  lb::Cli cli(argc, argv, "matadd", "Blazemark-style dense matrix addition C = A + B");
  const long n = long(cli.integer("n", 1000, 1, 50000, "matrix order"));
  const long block = long(cli.integer("block", 64, 1, 50000, "block edge (elements)"));
  const long threshold = long(cli.integer(
      "threshold", 36100, 0, 1L << 40, "matrices with fewer elements are added serially"));
  // Small sizes last microseconds: a repetition performs `iters` additions; the
  // default aims at ~4e6 element additions per repetition, at most 1e4 additions.
  const long iters = long(cli.integer("iters", 0, 0, 1L << 40,
                                      "additions per repetition (0: 4e6/n^2, at most 1e4)"));
  auto run = lb::run_options(cli);
  cli.finish();
  const long calls = iters > 0 ? iters : std::clamp(4000000L / (n * n), 1L, 10000L);
  cli.set_param("iters", calls);
  const int threads = lb::omp_team_size(run);

  Operands m = make_operands(n);
  const bool parallel = n * n >= threshold;
  auto times = lb::measure(run, [&] {
    for (long c = 0; c < calls; ++c) matadd(m, block, parallel);
  });
  return lb::report(cli, run, threads, times, verify(m),
                    lb::JsonObject().set("flops", double(n) * double(n) * double(calls)));
}

// Tiled DGEMM C += A*B in the style of the Parallel Research Kernels: each thread
// copies tiles of A and B into private buffers and multiplies those, the column
// tiles of C are shared out with `omp for`. Checked, as PRK checks it, against the
// closed-form sum of C for A(i,j) = B(i,j) = j.
#include <algorithm>
#include <cmath>
#include <vector>

#include "omp_team.hpp"

namespace lb = loom_bench;

namespace {

struct Matrices {
  long n;
  std::vector<double> a, b, c;  // column-major, element (i,j) at i + n*j
};

Matrices make_matrices(long n) {
  const auto size = static_cast<std::size_t>(n * n);
  Matrices m{n, std::vector<double>(size), std::vector<double>(size), std::vector<double>(size)};
#pragma omp parallel for schedule(static)
  for (long j = 0; j < n; ++j) {
    for (long i = 0; i < n; ++i) {
      m.a[size_t(i + n * j)] = m.b[size_t(i + n * j)] = double(j);
      m.c[size_t(i + n * j)] = 0.0;
    }
  }
  return m;
}

// Private tile buffers of one thread; the padding keeps the three tiles from
// mapping onto the same cache sets when the block is a power of two.
struct Tiles {
  long ld;
  std::vector<double> aa, bb, cc;
  explicit Tiles(long block)
      : ld(block + 8), aa(size_t(block * ld)), bb(size_t(block * ld)), cc(size_t(block * ld)) {}
};

// C(ii.., jj..) += A(ii.., kk..) * B(kk.., jj..) through the private tiles; bb holds
// B's tile transposed, already loaded by the caller.
void multiply_tile(Matrices& m, Tiles& t, long ii, long jj, long kk, long block) {
  const long n = m.n, ie = std::min(ii + block, n), je = std::min(jj + block, n),
             ke = std::min(kk + block, n);
  for (long k = kk; k < ke; ++k)
    for (long i = ii; i < ie; ++i) t.aa[size_t((i - ii) + t.ld * (k - kk))] = m.a[size_t(i + n * k)];
  for (long j = 0; j < je - jj; ++j)
    for (long i = 0; i < ie - ii; ++i) t.cc[size_t(i + t.ld * j)] = 0.0;
  for (long k = 0; k < ke - kk; ++k)
    for (long j = 0; j < je - jj; ++j) {
      const double bjk = t.bb[size_t(j + t.ld * k)];
      for (long i = 0; i < ie - ii; ++i)
        t.cc[size_t(i + t.ld * j)] += t.aa[size_t(i + t.ld * k)] * bjk;
    }
  for (long j = jj; j < je; ++j)
    for (long i = ii; i < ie; ++i) m.c[size_t(i + n * j)] += t.cc[size_t((i - ii) + t.ld * (j - jj))];
}

void dgemm(Matrices& m, long block) {
  const long n = m.n;
#pragma omp parallel
  {
    Tiles t(block);
#pragma omp for schedule(static)
    for (long jj = 0; jj < n; jj += block) {
      for (long kk = 0; kk < n; kk += block) {
        const long je = std::min(jj + block, n), ke = std::min(kk + block, n);
        for (long j = jj; j < je; ++j)
          for (long k = kk; k < ke; ++k) t.bb[size_t((j - jj) + t.ld * (k - kk))] = m.b[size_t(k + n * j)];
        for (long ii = 0; ii < n; ii += block) multiply_tile(m, t, ii, jj, kk, block);
      }
    }
  }
}

// sum_ij C(i,j) after one product: sum_ij sum_k k*j = n * (n(n-1)/2)^2.
bool verify(const Matrices& m, long products) {
  const double n = double(m.n);
  const double reference = 0.25 * n * n * n * (n - 1) * (n - 1) * double(products);
  double checksum = 0.0;
  for (double v : m.c) checksum += v;
  return std::fabs(checksum - reference) <= 1e-8 * std::max(1.0, std::fabs(reference));
}

}  // namespace

int main(int argc, char** argv) {
  lb::Cli cli(argc, argv, "dgemm", "PRK-style tiled DGEMM C += A*B");
  const long n = long(cli.integer("n", 1000, 1, 40000, "matrix order"));
  const long block = long(cli.integer("block", 32, 1, 4096, "tile size"));
  auto run = lb::run_options(cli);
  cli.finish();
  const int threads = lb::omp_team_size(run);

  Matrices m = make_matrices(n);
  auto times = lb::measure(run, [&] { dgemm(m, block); });
  const bool ok = verify(m, run.warmup + run.reps);
  return lb::report(cli, run, threads, times, ok,
                    lb::JsonObject().set("flops", 2.0 * double(n) * double(n) * double(n)));
}

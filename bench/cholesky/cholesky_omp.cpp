// Tile Cholesky A = L L^T (lower) with OpenMP `depend` tasks on LAPACKE/CBLAS tile
// kernels: per step k, POTRF on the diagonal tile, TRSM down the panel, then SYRK
// and GEMM on the trailing tiles. POTRF and TRSM are the critical path (--priority).
#include <lapacke.h>

#include <atomic>

#include "tile_bench.hpp"

namespace lb = loom_bench;

namespace {

// A kernel's failure (a non-positive pivot) cannot leave a task; it is counted here.
std::atomic<int> g_kernel_errors{0};

void potrf(double* akk, int nb) {
  if (LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', nb, akk, nb) != 0) ++g_kernel_errors;
}

// A_mk := A_mk L_kk^-T
void trsm(const double* akk, double* amk, int nb) {
  cblas_dtrsm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, nb, nb, 1.0, akk,
              nb, amk, nb);
}

// A_mm -= A_mk A_mk^T
void syrk(const double* amk, double* amm, int nb) {
  cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, nb, nb, -1.0, amk, nb, 1.0, amm, nb);
}

// A_mn -= A_mk A_nk^T
void gemm(const double* amk, const double* ank, double* amn, int nb) {
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, nb, nb, nb, -1.0, amk, nb, ank, nb, 1.0,
              amn, nb);
}

void cholesky(lb::TileMatrix& a, const lb::TileOptions& opt) {
  const long nt = a.nt();
  const int nb = int(a.nb());
  const int panel = opt.priority ? 1 : 0;
  lb::TaskGraph& g = *opt.graph;
#pragma omp parallel
#pragma omp single
  for (long k = 0; k < nt; ++k) {
    double* akk = a.tile(k, k);
    lb::GraphTask* r = g.add("potrf", k, k, k, true, {}, {akk});
#pragma omp task depend(inout : akk[0]) priority(panel)
    {
      lb::TaskTimer timer(g, r);
      potrf(akk, nb);
    }
    for (long m = k + 1; m < nt; ++m) {
      double* amk = a.tile(m, k);
      r = g.add("trsm", m, k, k, true, {akk}, {amk});
#pragma omp task depend(in : akk[0]) depend(inout : amk[0]) priority(panel)
      {
        lb::TaskTimer timer(g, r);
        trsm(akk, amk, nb);
      }
    }
    for (long m = k + 1; m < nt; ++m) {
      double* amk = a.tile(m, k);
      double* amm = a.tile(m, m);
      r = g.add("syrk", m, m, k, false, {amk}, {amm});
#pragma omp task depend(in : amk[0]) depend(inout : amm[0])
      {
        lb::TaskTimer timer(g, r);
        syrk(amk, amm, nb);
      }
      for (long n = k + 1; n < m; ++n) {
        double* ank = a.tile(n, k);
        double* amn = a.tile(m, n);
        r = g.add("gemm", m, n, k, false, {amk, ank}, {amn});
#pragma omp task depend(in : amk[0], ank[0]) depend(inout : amn[0])
        {
          lb::TaskTimer timer(g, r);
          gemm(amk, ank, amn, nb);
        }
      }
    }
  }
}

// A x == L (L^T x) for the probe vectors.
bool check(const lb::TileMatrix& a, const lb::TileMatrix& l) {
  if (g_kernel_errors.load() != 0) return false;
  const double scale = lb::frobenius(a);
  for (const auto& x : lb::probe_vectors(a.n())) {
    auto lhs = lb::multiply(a, lb::Part::full, false, x);
    auto rhs = lb::multiply(l, lb::Part::lower, false, lb::multiply(l, lb::Part::lower, true, x));
    if (!lb::residual_ok(lhs, rhs, scale, x)) return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  return lb::run_tile_bench(argc, argv, "cholesky", "tile Cholesky with OpenMP depend tasks",
                            lb::MatrixKind::symmetric_positive_definite, 1.0 / 3.0, cholesky,
                            check);
}

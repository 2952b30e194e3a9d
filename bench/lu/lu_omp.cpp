// Tile LU A = L U without pivoting (the matrix is diagonally dominant, so no pivot
// is needed for stability) with OpenMP `depend` tasks on CBLAS tile kernels: per
// step k, LU of the diagonal tile, TRSM along its row and column, GEMM on the
// trailing tiles. The diagonal LU and the TRSMs are the critical path (--priority).
#include <atomic>

#include "tile_bench.hpp"

namespace lb = loom_bench;

namespace {

std::atomic<int> g_kernel_errors{0};  // zero pivots met inside tasks

// One step of unblocked LU on columns [j, j + 1) of the panel that ends at column
// `end`: scale the column below the pivot, update the rest of the panel.
bool lu_column(double* a, int nb, int j, int end) {
  const double pivot = a[j + j * nb];
  if (pivot == 0.0) return false;
  cblas_dscal(nb - j - 1, 1.0 / pivot, &a[j + 1 + j * nb], 1);
  cblas_dger(CblasColMajor, nb - j - 1, end - j - 1, -1.0, &a[j + 1 + j * nb], 1,
             &a[j + (j + 1) * nb], nb, &a[j + 1 + (j + 1) * nb], nb);
  return true;
}

// LU without pivoting of one nb x nb tile, blocked by 32 columns so most of the
// work is in TRSM/GEMM (LAPACK has no getrf without pivoting).
void getrf_nopiv(double* a, int nb) {
  constexpr int ib = 32;
  for (int k = 0; k < nb; k += ib) {
    const int kb = std::min(ib, nb - k), rest = nb - k - kb;
    for (int j = k; j < k + kb; ++j) {
      if (!lu_column(a, nb, j, k + kb)) {
        ++g_kernel_errors;
        return;
      }
    }
    if (rest == 0) continue;
    cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, kb, rest, 1.0,
                &a[k + k * nb], nb, &a[k + (k + kb) * nb], nb);
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, rest, rest, kb, -1.0,
                &a[k + kb + k * nb], nb, &a[k + (k + kb) * nb], nb, 1.0,
                &a[k + kb + (k + kb) * nb], nb);
  }
}

// A_kn := L_kk^-1 A_kn
void trsm_row(const double* akk, double* akn, int nb) {
  cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, nb, nb, 1.0, akk, nb,
              akn, nb);
}

// A_mk := A_mk U_kk^-1
void trsm_col(const double* akk, double* amk, int nb) {
  cblas_dtrsm(CblasColMajor, CblasRight, CblasUpper, CblasNoTrans, CblasNonUnit, nb, nb, 1.0, akk,
              nb, amk, nb);
}

// A_mn -= A_mk A_kn
void gemm(const double* amk, const double* akn, double* amn, int nb) {
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, nb, nb, nb, -1.0, amk, nb, akn, nb, 1.0,
              amn, nb);
}

void lu(lb::TileMatrix& a, const lb::TileOptions& opt) {
  const long nt = a.nt();
  const int nb = int(a.nb());
  const int panel = opt.priority ? 1 : 0;
  lb::TaskGraph& g = *opt.graph;
#pragma omp parallel
#pragma omp single
  for (long k = 0; k < nt; ++k) {
    double* akk = a.tile(k, k);
    lb::GraphTask* r = g.add("getrf", k, k, k, true, {}, {akk});
#pragma omp task depend(inout : akk[0]) priority(panel)
    {
      lb::TaskTimer timer(g, r);
      getrf_nopiv(akk, nb);
    }
    for (long n = k + 1; n < nt; ++n) {
      double* akn = a.tile(k, n);
      r = g.add("trsm_row", k, n, k, true, {akk}, {akn});
#pragma omp task depend(in : akk[0]) depend(inout : akn[0]) priority(panel)
      {
        lb::TaskTimer timer(g, r);
        trsm_row(akk, akn, nb);
      }
    }
    for (long m = k + 1; m < nt; ++m) {
      double* amk = a.tile(m, k);
      r = g.add("trsm_col", m, k, k, true, {akk}, {amk});
#pragma omp task depend(in : akk[0]) depend(inout : amk[0]) priority(panel)
      {
        lb::TaskTimer timer(g, r);
        trsm_col(akk, amk, nb);
      }
    }
    for (long m = k + 1; m < nt; ++m) {
      for (long n = k + 1; n < nt; ++n) {
        double* amk = a.tile(m, k);
        double* akn = a.tile(k, n);
        double* amn = a.tile(m, n);
        r = g.add("gemm", m, n, k, false, {amk, akn}, {amn});
#pragma omp task depend(in : amk[0], akn[0]) depend(inout : amn[0])
        {
          lb::TaskTimer timer(g, r);
          gemm(amk, akn, amn, nb);
        }
      }
    }
  }
}

// A x == L (U x) for the probe vectors.
bool check(const lb::TileMatrix& a, const lb::TileMatrix& f) {
  if (g_kernel_errors.load() != 0) return false;
  const double scale = lb::frobenius(a);
  for (const auto& x : lb::probe_vectors(a.n())) {
    auto lhs = lb::multiply(a, lb::Part::full, false, x);
    auto rhs =
        lb::multiply(f, lb::Part::unit_lower, false, lb::multiply(f, lb::Part::upper, false, x));
    if (!lb::residual_ok(lhs, rhs, scale, x)) return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  return lb::run_tile_bench(argc, argv, "lu", "tile LU (no pivoting) with OpenMP depend tasks",
                            lb::MatrixKind::diagonally_dominant, 2.0 / 3.0, lu, check);
}

// Tile QR A = Q R (flat-tree Householder tile algorithm) with OpenMP `depend` tasks
// on LAPACKE kernels: per step k, GEQRT factors the diagonal tile, GEMQRT applies
// its reflectors along row k, TPQRT folds each tile below into R_kk, and TPMQRT
// applies those reflectors to the trailing rows. GEQRT and TPQRT are the critical
// path (--priority).
#include <lapacke.h>

#include <atomic>
#include <vector>

#include "tile_bench.hpp"

namespace lb = loom_bench;

namespace {

// Inner block of the compact-WY T factors (each T tile is ib x nb).
int inner_block(int nb) { return std::min(32, nb); }
std::atomic<int> g_kernel_errors{0};

void count(lapack_int info) {
  if (info != 0) ++g_kernel_errors;
}

// Work arrays are per call: kernels run in tasks on any thread, and an
// nb x ib array is small next to the O(nb^3) work of the call.
std::vector<double> workspace(int nb) { return std::vector<double>(size_t(nb * inner_block(nb))); }

// A_kk = V R (V below the diagonal, R on and above), T_kk its block reflector.
void geqrt(double* akk, double* tkk, int nb) {
  const int ib = inner_block(nb);
  auto w = workspace(nb);
  count(LAPACKE_dgeqrt_work(LAPACK_COL_MAJOR, nb, nb, ib, akk, nb, tkk, ib, w.data()));
}

// A_kn := Q_kk^T A_kn
void gemqrt(const double* vkk, const double* tkk, double* akn, int nb) {
  const int ib = inner_block(nb);
  auto w = workspace(nb);
  count(LAPACKE_dgemqrt_work(LAPACK_COL_MAJOR, 'L', 'T', nb, nb, nb, ib, vkk, nb, tkk, ib, akn, nb,
                             w.data()));
}

// [R_kk; A_mk] = Q [R_kk'; 0]: V into A_mk, T into T_mk.
void tpqrt(double* rkk, double* amk, double* tmk, int nb) {
  const int ib = inner_block(nb);
  auto w = workspace(nb);
  count(LAPACKE_dtpqrt_work(LAPACK_COL_MAJOR, nb, nb, 0, ib, rkk, nb, amk, nb, tmk, ib, w.data()));
}

// [A_kn; A_mn] := Q_mk^T [A_kn; A_mn]
void tpmqrt(const double* vmk, const double* tmk, double* akn, double* amn, int nb) {
  const int ib = inner_block(nb);
  auto w = workspace(nb);
  count(LAPACKE_dtpmqrt_work(LAPACK_COL_MAJOR, 'L', 'T', nb, nb, nb, 0, ib, vmk, nb, tmk, ib, akn,
                             nb, amn, nb, w.data()));
}

// GEQRT leaves V_kk below the diagonal of A_kk and R_kk on and above it; GEMQRT
// reads only V_kk while TPQRT rewrites only R_kk. A dependence on the tile address
// alone would make every TPQRT wait for all of row k's GEMQRTs, so V_kk gets a
// dependence token of its own.
void qr(lb::TileMatrix& a, const lb::TileOptions& opt) {
  const long nt = a.nt();
  const int nb = int(a.nb());
  const int panel = opt.priority ? 1 : 0;
  const long t_size = inner_block(nb) * nb;
  std::vector<double> t(size_t(nt * nt * t_size));
  std::vector<char> v_token(static_cast<size_t>(nt));
  auto tile_t = [&](long m, long k) { return t.data() + size_t((k * nt + m) * t_size); };
  lb::TaskGraph& g = *opt.graph;
#pragma omp parallel
#pragma omp single
  for (long k = 0; k < nt; ++k) {
    double* akk = a.tile(k, k);
    double* tkk = tile_t(k, k);
    [[maybe_unused]] char* vkk = &v_token[size_t(k)];  // only a dependence token
    lb::GraphTask* r = g.add("geqrt", k, k, k, true, {}, {akk, vkk, tkk});
#pragma omp task depend(inout : akk[0]) depend(out : vkk[0], tkk[0]) priority(panel)
    {
      lb::TaskTimer timer(g, r);
      geqrt(akk, tkk, nb);
    }
    for (long n = k + 1; n < nt; ++n) {
      double* akn = a.tile(k, n);
      r = g.add("gemqrt", k, n, k, false, {vkk, tkk}, {akn});
#pragma omp task depend(in : vkk[0], tkk[0]) depend(inout : akn[0])
      {
        lb::TaskTimer timer(g, r);
        gemqrt(akk, tkk, akn, nb);
      }
    }
    for (long m = k + 1; m < nt; ++m) {
      double* amk = a.tile(m, k);
      double* tmk = tile_t(m, k);
      r = g.add("tpqrt", m, k, k, true, {}, {akk, amk, tmk});
#pragma omp task depend(inout : akk[0], amk[0]) depend(out : tmk[0]) priority(panel)
      {
        lb::TaskTimer timer(g, r);
        tpqrt(akk, amk, tmk, nb);
      }
      for (long n = k + 1; n < nt; ++n) {
        double* akn = a.tile(k, n);
        double* amn = a.tile(m, n);
        r = g.add("tpmqrt", m, n, k, false, {amk, tmk}, {akn, amn});
#pragma omp task depend(in : amk[0], tmk[0]) depend(inout : akn[0], amn[0])
        {
          lb::TaskTimer timer(g, r);
          tpmqrt(amk, tmk, akn, amn, nb);
        }
      }
    }
  }
}

// Q is orthogonal, so A^T A = R^T R: A^T (A x) == R^T (R x) for the probe vectors.
bool check(const lb::TileMatrix& a, const lb::TileMatrix& f) {
  if (g_kernel_errors.load() != 0) return false;
  const double norm = lb::frobenius(a);
  for (const auto& x : lb::probe_vectors(a.n())) {
    auto lhs = lb::multiply(a, lb::Part::full, true, lb::multiply(a, lb::Part::full, false, x));
    auto rhs = lb::multiply(f, lb::Part::upper, true, lb::multiply(f, lb::Part::upper, false, x));
    if (!lb::residual_ok(lhs, rhs, norm * norm, x)) return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  return lb::run_tile_bench(argc, argv, "qr", "tile QR with OpenMP depend tasks",
                            lb::MatrixKind::general, 4.0 / 3.0, qr, check);
}

// Tile layout and checks shared by the tile Cholesky, LU and QR benchmarks.
//
// An n x n matrix is stored as nt x nt tiles of nb x nb, each tile contiguous and
// column-major (leading dimension nb), so a tile's address names it in `depend`
// clauses and the BLAS/LAPACK kernels work on it in place.
//
// Checks are residuals against a few fixed vectors, O(n^2) each, instead of
// products of full factors (O(n^3), slower than the factorisation at one thread):
// e.g. ||A x - L (L^T x)|| is tiny for every x exactly when A = L L^T.
#pragma once

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "hash.hpp"

// Declared here too: OpenBLAS's cblas.h has it, the reference CBLAS header does not.
extern "C" void openblas_set_num_threads(int num_threads);

namespace loom_bench {

// The kernels run inside tasks, one per core: OpenBLAS must not start threads of
// its own on top (the OPENBLAS_NUM_THREADS=1 environment does the same at load).
inline void blas_single_threaded() { openblas_set_num_threads(1); }

class TileMatrix {
 public:
  TileMatrix(long n, long nb) : n_(n), nb_(nb), nt_(n / nb), data_(size_t(n * n)) {}

  [[nodiscard]] long n() const { return n_; }
  [[nodiscard]] long nb() const { return nb_; }
  [[nodiscard]] long nt() const { return nt_; }
  double* tile(long i, long j) { return data_.data() + size_t((j * nt_ + i) * nb_ * nb_); }
  [[nodiscard]] const double* tile(long i, long j) const {
    return data_.data() + size_t((j * nt_ + i) * nb_ * nb_);
  }
  double& at(long r, long c) { return tile(r / nb_, c / nb_)[(c % nb_) * nb_ + r % nb_]; }
  [[nodiscard]] double at(long r, long c) const {
    return tile(r / nb_, c / nb_)[(c % nb_) * nb_ + r % nb_];
  }

 private:
  long n_, nb_, nt_;
  std::vector<double> data_;
};

// Uniform in [-0.5, 0.5) from the pair (r, c): the same matrix on every run.
inline double element_noise(long r, long c) {
  return unit_interval(mix64(std::uint64_t(r) * 0x9e3779b97f4a7c15ULL + std::uint64_t(c) + 1)) -
         0.5;
}

enum class MatrixKind {
  symmetric_positive_definite,  // Cholesky
  diagonally_dominant,          // LU without pivoting stays stable
  general,                      // QR
};

inline TileMatrix make_matrix(long n, long nb, MatrixKind kind) {
  TileMatrix a(n, nb);
  for (long c = 0; c < n; ++c) {
    for (long r = 0; r < n; ++r) {
      double v = kind == MatrixKind::symmetric_positive_definite
                     ? element_noise(std::min(r, c), std::max(r, c))
                     : element_noise(r, c);
      if (r == c && kind != MatrixKind::general) v += double(n);
      a.at(r, c) = v;
    }
  }
  return a;
}

// Which part of a factored tile matrix a product uses.
enum class Part { full, lower, unit_lower, upper };

inline double part_value(const TileMatrix& f, Part part, long r, long c) {
  switch (part) {
    case Part::full: return f.at(r, c);
    case Part::lower: return r >= c ? f.at(r, c) : 0.0;
    case Part::unit_lower: return r > c ? f.at(r, c) : (r == c ? 1.0 : 0.0);
    case Part::upper: return r <= c ? f.at(r, c) : 0.0;
  }
  return 0.0;
}

// y = op(part of f) * x, with op the transpose when `transpose`.
inline std::vector<double> multiply(const TileMatrix& f, Part part, bool transpose,
                                    const std::vector<double>& x) {
  const long n = f.n();
  std::vector<double> y(size_t(n), 0.0);
  for (long c = 0; c < n; ++c) {
    for (long r = 0; r < n; ++r) {
      const double v = part_value(f, part, r, c);
      if (transpose) {
        y[size_t(c)] += v * x[size_t(r)];
      } else {
        y[size_t(r)] += v * x[size_t(c)];
      }
    }
  }
  return y;
}

inline double norm2(const std::vector<double>& v) {
  double s = 0.0;
  for (double e : v) s += e * e;
  return std::sqrt(s);
}

inline double frobenius(const TileMatrix& a) {
  double s = 0.0;
  for (long c = 0; c < a.n(); ++c)
    for (long r = 0; r < a.n(); ++r) s += a.at(r, c) * a.at(r, c);
  return std::sqrt(s);
}

// Test vectors: all ones, alternating signs, and noise.
inline std::vector<std::vector<double>> probe_vectors(long n) {
  std::vector<std::vector<double>> xs(3, std::vector<double>(size_t(n)));
  for (long i = 0; i < n; ++i) {
    xs[0][size_t(i)] = 1.0;
    xs[1][size_t(i)] = (i % 2) ? -1.0 : 1.0;
    xs[2][size_t(i)] = element_noise(i, -1);
  }
  return xs;
}

// LAPACK's test ratio ||lhs - rhs|| / (n eps scale ||x||): below 30 passes there.
inline bool residual_ok(const std::vector<double>& lhs, const std::vector<double>& rhs,
                        double scale, const std::vector<double>& x) {
  std::vector<double> d(lhs.size());
  for (size_t i = 0; i < d.size(); ++i) d[i] = lhs[i] - rhs[i];
  const double eps = std::numeric_limits<double>::epsilon();
  const double ratio = norm2(d) / (double(lhs.size()) * eps * scale * norm2(x));
  return std::isfinite(ratio) && ratio < 30.0;
}

}  // namespace loom_bench

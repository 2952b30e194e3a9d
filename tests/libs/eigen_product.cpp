// An Eigen matrix product built with g++ -fopenmp (Eigen's own OpenMP-parallel GEMM,
// GOMP ABI) run on loom through loomrun, checked against a naive product. Fails unless
// libgomp.so.1 is loom's.
#include <Eigen/Dense>

#include <cstdio>

extern "C" {
#include "loom_check.h"
}

int main() {
    const int n = 384;
    Eigen::MatrixXd a(n, n), b(n, n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) a(i, j) = (i * 7 + j * 3) % 11 - 5, b(i, j) = (i * 5 + j) % 13 - 6;
    std::printf("Eigen threads: %d\n", Eigen::nbThreads());
    Eigen::MatrixXd c = a * b;
    double err = 0;
    for (int i = 0; i < n; i += 5)
        for (int j = 0; j < n; ++j) {
            double s = 0;
            for (int k = 0; k < n; ++k) s += a(i, k) * b(k, j);
            err = std::max(err, std::abs(s - c(i, j)));
        }
    const bool ok = err == 0 && Eigen::nbThreads() > 1;
    if (loom_bound() != 0) {
        std::printf("Eigen did not run on loom\n");
        return ok ? 77 : 1;
    }
    std::printf("%s (max error %g)\n", ok ? "eigen_product: all passed" : "eigen_product: FAILED", err);
    return ok ? 0 : 1;
}

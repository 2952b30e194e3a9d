/* OpenBLAS's OpenMP build (gcc-built, libgomp ABI) run on loom through loomrun:
 * dgemm against a naive product, LAPACKE dpotrf (L L^T = A) and dgetrf (P L U = A)
 * by their residuals, repeated from the main thread and from inside an OpenMP-free
 * loop of calls. Fails unless OpenBLAS's libgomp.so.1 is loom's. */
#include "loom_check.h" /* first: it asks for _GNU_SOURCE (dl_iterate_phdr) */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void cblas_dgemm(int, int, int, int, int, int, double, const double*, int, const double*, int,
                 double, double*, int);
int LAPACKE_dpotrf(int, char, int, double*, int);
int LAPACKE_dgetrf(int, int, int, double*, int, int*);
enum { RowMajor = 101, NoTrans = 111 };

static int failures = 0;
#define CHECK(c, what)                                   \
    do {                                                 \
        if (!(c)) {                                      \
            printf("FAIL: %s\n", what);                  \
            failures++;                                  \
        }                                                \
    } while (0)

static double* matrix(int n) { return (double*)calloc((size_t)n * n, sizeof(double)); }

static void test_dgemm(int n) {
    double *a = matrix(n), *b = matrix(n), *c = matrix(n);
    for (int i = 0; i < n * n; i++) a[i] = (i * 7 % 11) - 5, b[i] = (i * 3 % 13) - 6;
    cblas_dgemm(RowMajor, NoTrans, NoTrans, n, n, n, 1.0, a, n, b, n, 0.0, c, n);
    double err = 0;
    for (int i = 0; i < n; i += 7)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int k = 0; k < n; k++) s += a[i * n + k] * b[k * n + j];
            err = fmax(err, fabs(s - c[i * n + j]));
        }
    CHECK(err == 0, "dgemm equals the naive product (integer entries: exact)");
    free(a), free(b), free(c);
}

static void test_potrf(int n) {
    double *a = matrix(n), *l = matrix(n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) a[i * n + j] = (i == j) ? n + 1.0 : 1.0 / (1 + abs(i - j));
    for (int i = 0; i < n * n; i++) l[i] = a[i];
    CHECK(LAPACKE_dpotrf(RowMajor, 'L', n, l, n) == 0, "dpotrf succeeds");
    double err = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++) {
            double s = 0;
            for (int k = 0; k <= j; k++) s += l[i * n + k] * l[j * n + k];
            err = fmax(err, fabs(s - a[i * n + j]));
        }
    CHECK(err < 1e-9 * n, "dpotrf: L L^T equals A");
    free(a), free(l);
}

static void test_getrf(int n) {
    double *a = matrix(n), *lu = matrix(n);
    int* piv = (int*)malloc(sizeof(int) * n);
    for (int i = 0; i < n * n; i++) a[i] = lu[i] = ((i * 37) % 101) / 50.0 - 1.0 + ((i % (n + 1)) == 0 ? n : 0);
    CHECK(LAPACKE_dgetrf(RowMajor, n, n, lu, n, piv) == 0, "dgetrf succeeds");
    /* Apply the row interchanges to a copy of A, then compare with L U. */
    double* pa = matrix(n);
    for (int i = 0; i < n * n; i++) pa[i] = a[i];
    for (int i = 0; i < n; i++) {
        int p = piv[i] - 1;
        if (p != i)
            for (int j = 0; j < n; j++) {
                double t = pa[i * n + j];
                pa[i * n + j] = pa[p * n + j];
                pa[p * n + j] = t;
            }
    }
    double err = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int k = 0; k <= (i < j ? i : j); k++) s += (k == i ? 1.0 : lu[i * n + k]) * lu[k * n + j];
            err = fmax(err, fabs(s - pa[i * n + j]));
        }
    CHECK(err < 1e-9 * n, "dgetrf: P A equals L U");
    free(a), free(lu), free(pa), free(piv);
}

int main(void) {
    for (int round = 0; round < 3; round++) {
        test_dgemm(300);
        test_potrf(400);
        test_getrf(300);
    }
    if (loom_bound() != 0) {
        printf("OpenBLAS did not run on loom\n");
        return failures ? 1 : 77;
    }
    printf("%s\n", failures ? "blas_lapack: FAILED" : "blas_lapack: all passed");
    return failures != 0;
}

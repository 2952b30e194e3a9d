// Self-verifying task applications: nqueens (count solutions), a cilksort-style
// mergesort (parallel merge), and a Strassen multiply checked against a plain one.
// loom-test: threads 4
// loom-test: timeout 120
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

// ---- nqueens ---------------------------------------------------------------------------
static int ok(int n, const char* a) {
    for (int i = 0; i < n; i++) {
        char p = a[i];
        for (int j = i + 1; j < n; j++) {
            char q = a[j];
            if (q == p || q == p - (j - i) || q == p + (j - i)) return 0;
        }
    }
    return 1;
}

static void nqueens(int n, int j, const char* a, long* count) {
    if (n == j) {
#pragma omp atomic
        (*count)++;
        return;
    }
    for (int i = 0; i < n; i++) {
#pragma omp task firstprivate(i, j, n, a, count)
        {
            char b[20];
            memcpy(b, a, (size_t)j);
            b[j] = (char)i;
            if (ok(j + 1, b)) nqueens(n, j + 1, b, count);
        }
    }
#pragma omp taskwait
}

// ---- cilksort: mergesort with a parallel merge ---------------------------------------
static int lower_bound(const int* a, int n, int v) {
    int lo = 0, hi = n;
    while (lo < hi) {
        int m = (lo + hi) / 2;
        if (a[m] < v) lo = m + 1; else hi = m;
    }
    return lo;
}

static void pmerge(const int* a, int na, const int* b, int nb, int* out) {
    if (na < nb) {
        const int* t = a; a = b; b = t;
        int tn = na; na = nb; nb = tn;
    }
    if (na + nb <= 64) {
        int i = 0, j = 0, k = 0;
        while (i < na && j < nb) out[k++] = a[i] <= b[j] ? a[i++] : b[j++];
        while (i < na) out[k++] = a[i++];
        while (j < nb) out[k++] = b[j++];
        return;
    }
    int ma = na / 2;
    int mb = lower_bound(b, nb, a[ma]);
#pragma omp task
    pmerge(a, ma, b, mb, out);
    pmerge(a + ma, na - ma, b + mb, nb - mb, out + ma + mb);
#pragma omp taskwait
}

static void cilksort(int* a, int* tmp, int n) {
    if (n <= 32) {
        for (int i = 1; i < n; i++) {
            int v = a[i], j = i - 1;
            while (j >= 0 && a[j] > v) { a[j + 1] = a[j]; j--; }
            a[j + 1] = v;
        }
        return;
    }
    int h = n / 2;
#pragma omp task
    cilksort(a, tmp, h);
    cilksort(a + h, tmp + h, n - h);
#pragma omp taskwait
    pmerge(a, h, a + h, n - h, tmp);
    memcpy(a, tmp, sizeof(int) * (size_t)n);
}

// ---- Strassen -------------------------------------------------------------------------
static void madd(int n, const double* a, int lda, const double* b, int ldb, double* c, int ldc, double s) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) c[i * ldc + j] = a[i * lda + j] + s * b[i * ldb + j];
}

static void mmul_plain(int n, const double* a, int lda, const double* b, int ldb, double* c, int ldc) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int k = 0; k < n; k++) s += a[i * lda + k] * b[k * ldb + j];
            c[i * ldc + j] = s;
        }
}

static void strassen(int n, const double* a, int lda, const double* b, int ldb, double* c, int ldc) {
    if (n <= 32) {
        mmul_plain(n, a, lda, b, ldb, c, ldc);
        return;
    }
    int h = n / 2;
    size_t sz = (size_t)h * h;
    double* m = malloc(sizeof(double) * sz * 7);
    double* t = malloc(sizeof(double) * sz * 10);
    const double *a11 = a, *a12 = a + h, *a21 = a + h * lda, *a22 = a + h * lda + h;
    const double *b11 = b, *b12 = b + h, *b21 = b + h * ldb, *b22 = b + h * ldb + h;
#define T(k) (t + (k) * sz)
#define M(k) (m + (k) * sz)
    madd(h, a11, lda, a22, lda, T(0), h, 1); madd(h, b11, ldb, b22, ldb, T(1), h, 1);
    madd(h, a21, lda, a22, lda, T(2), h, 1); madd(h, b12, ldb, b22, ldb, T(3), h, -1);
    madd(h, b21, ldb, b11, ldb, T(4), h, -1); madd(h, a11, lda, a12, lda, T(5), h, 1);
    madd(h, a21, lda, a11, lda, T(6), h, -1); madd(h, b11, ldb, b12, ldb, T(7), h, 1);
    madd(h, a12, lda, a22, lda, T(8), h, -1); madd(h, b21, ldb, b22, ldb, T(9), h, 1);
#pragma omp task
    strassen(h, T(0), h, T(1), h, M(0), h);
#pragma omp task
    strassen(h, T(2), h, b11, ldb, M(1), h);
#pragma omp task
    strassen(h, a11, lda, T(3), h, M(2), h);
#pragma omp task
    strassen(h, a22, lda, T(4), h, M(3), h);
#pragma omp task
    strassen(h, T(5), h, b22, ldb, M(4), h);
#pragma omp task
    strassen(h, T(6), h, T(7), h, M(5), h);
    strassen(h, T(8), h, T(9), h, M(6), h);
#pragma omp taskwait
    for (int i = 0; i < h; i++)
        for (int j = 0; j < h; j++) {
            int k = i * h + j;
            c[i * ldc + j] = M(0)[k] + M(3)[k] - M(4)[k] + M(6)[k];
            c[i * ldc + j + h] = M(2)[k] + M(4)[k];
            c[(i + h) * ldc + j] = M(1)[k] + M(3)[k];
            c[(i + h) * ldc + j + h] = M(0)[k] - M(1)[k] + M(2)[k] + M(5)[k];
        }
#undef T
#undef M
    free(m);
    free(t);
}

int main(void) {
    const long expect[] = {0, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724};
    for (int n = 4; n <= 10; n += 3) {
        long count = 0;
        char a[20];
#pragma omp parallel
#pragma omp single
        nqueens(n, 0, a, &count);
        CHECK(count == expect[n]);
    }

    int n = 1 << 20;
    int* v = malloc(sizeof(int) * (size_t)n);
    int* tmp = malloc(sizeof(int) * (size_t)n);
    unsigned x = 12345;
    long sum = 0;
    for (int i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        v[i] = (int)(x >> 1);
        sum += v[i] % 1000;
    }
#pragma omp parallel
#pragma omp single
    cilksort(v, tmp, n);
    long sum2 = 0;
    int sorted = 1;
    for (int i = 0; i < n; i++) {
        sum2 += v[i] % 1000;
        if (i && v[i - 1] > v[i]) sorted = 0;
    }
    CHECK(sorted && sum == sum2);
    free(v);
    free(tmp);

    int mn = 256;
    double* A = malloc(sizeof(double) * (size_t)(mn * mn));
    double* B = malloc(sizeof(double) * (size_t)(mn * mn));
    double* C = malloc(sizeof(double) * (size_t)(mn * mn));
    double* R = malloc(sizeof(double) * (size_t)(mn * mn));
    for (int i = 0; i < mn * mn; i++) {
        A[i] = (i % 7) - 3;
        B[i] = (i % 5) - 2;
    }
#pragma omp parallel
#pragma omp single
    strassen(mn, A, mn, B, mn, C, mn);
    mmul_plain(mn, A, mn, B, mn, R, mn);
    double err = 0;
    for (int i = 0; i < mn * mn; i++) {
        double d = C[i] - R[i];
        if (d < 0) d = -d;
        if (d > err) err = d;
    }
    CHECK(err < 1e-6);
    free(A); free(B); free(C); free(R);
    if (failures) return 1;
    printf("app_recursive: all passed\n");
    return 0;
}

// Self-verifying dependence applications: tile Cholesky and tile LU (no pivoting,
// diagonally dominant) with depend, each checked against a straightforward serial
// factorisation; a BOTS-style sparse LU (tasks on non-empty blocks, taskwait per
// phase); a wavefront whose cells update a shared accumulator through inoutset; a
// commutative histogram update with mutexinoutset.
// loom-test: threads 4
// loom-test: timeout 120
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

enum { NT = 8, TS = 24, N = NT * TS };

// Tiles stored contiguously: tile (i, j) is T[i][j][TS*TS] row-major.
static double T[NT][NT][TS * TS];
static double full[N * N], ref[N * N];

static void to_tiles(const double* a) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) T[i / TS][j / TS][(i % TS) * TS + (j % TS)] = a[i * N + j];
}
static double tile_err(const double* a, int lower_only) {
    double e = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            if (lower_only && j > i) continue;
            double d = fabs(T[i / TS][j / TS][(i % TS) * TS + (j % TS)] - a[i * N + j]);
            if (d > e) e = d;
        }
    return e;
}

// ---- Cholesky kernels (lower) -----------------------------------------------------------
static void potrf(double* a) {
    for (int k = 0; k < TS; k++) {
        a[k * TS + k] = sqrt(a[k * TS + k]);
        for (int i = k + 1; i < TS; i++) a[i * TS + k] /= a[k * TS + k];
        for (int j = k + 1; j < TS; j++)
            for (int i = j; i < TS; i++) a[i * TS + j] -= a[i * TS + k] * a[j * TS + k];
    }
}
static void trsm(const double* l, double* b) {  // b = b * l^-T
    for (int i = 0; i < TS; i++)
        for (int j = 0; j < TS; j++) {
            double s = b[i * TS + j];
            for (int k = 0; k < j; k++) s -= b[i * TS + k] * l[j * TS + k];
            b[i * TS + j] = s / l[j * TS + j];
        }
}
static void gemm_nt(const double* a, const double* b, double* c) {  // c -= a * b^T
    for (int i = 0; i < TS; i++)
        for (int j = 0; j < TS; j++) {
            double s = 0;
            for (int k = 0; k < TS; k++) s += a[i * TS + k] * b[j * TS + k];
            c[i * TS + j] -= s;
        }
}

static void cholesky_tasks(void) {
#pragma omp parallel
#pragma omp single
    for (int k = 0; k < NT; k++) {
#pragma omp task depend(inout : T[k][k])
        potrf(T[k][k]);
        for (int i = k + 1; i < NT; i++) {
#pragma omp task depend(in : T[k][k]) depend(inout : T[i][k])
            trsm(T[k][k], T[i][k]);
        }
        for (int i = k + 1; i < NT; i++) {
            for (int j = k + 1; j < i; j++) {
#pragma omp task depend(in : T[i][k], T[j][k]) depend(inout : T[i][j])
                gemm_nt(T[i][k], T[j][k], T[i][j]);
            }
#pragma omp task depend(in : T[i][k]) depend(inout : T[i][i])
            gemm_nt(T[i][k], T[i][k], T[i][i]);  // syrk as a gemm on the lower tile
        }
    }
}

static void cholesky_serial(double* a) {
    for (int k = 0; k < N; k++) {
        a[k * N + k] = sqrt(a[k * N + k]);
        for (int i = k + 1; i < N; i++) a[i * N + k] /= a[k * N + k];
        for (int j = k + 1; j < N; j++)
            for (int i = j; i < N; i++) a[i * N + j] -= a[i * N + k] * a[j * N + k];
    }
}

// ---- LU kernels (no pivoting) ------------------------------------------------------------
static void getrf(double* a) {
    for (int k = 0; k < TS; k++)
        for (int i = k + 1; i < TS; i++) {
            a[i * TS + k] /= a[k * TS + k];
            for (int j = k + 1; j < TS; j++) a[i * TS + j] -= a[i * TS + k] * a[k * TS + j];
        }
}
static void trsm_l(const double* lu, double* b) {  // b = L^-1 b (unit lower)
    for (int k = 0; k < TS; k++)
        for (int i = k + 1; i < TS; i++)
            for (int j = 0; j < TS; j++) b[i * TS + j] -= lu[i * TS + k] * b[k * TS + j];
}
static void trsm_u(const double* lu, double* b) {  // b = b U^-1
    for (int j = 0; j < TS; j++)
        for (int i = 0; i < TS; i++) {
            double s = b[i * TS + j];
            for (int k = 0; k < j; k++) s -= b[i * TS + k] * lu[k * TS + j];
            b[i * TS + j] = s / lu[j * TS + j];
        }
}
static void gemm_nn(const double* a, const double* b, double* c) {  // c -= a b
    for (int i = 0; i < TS; i++)
        for (int k = 0; k < TS; k++) {
            double v = a[i * TS + k];
            for (int j = 0; j < TS; j++) c[i * TS + j] -= v * b[k * TS + j];
        }
}

static void lu_tasks(void) {
#pragma omp parallel
#pragma omp single
    for (int k = 0; k < NT; k++) {
#pragma omp task depend(inout : T[k][k])
        getrf(T[k][k]);
        for (int j = k + 1; j < NT; j++) {
#pragma omp task depend(in : T[k][k]) depend(inout : T[k][j])
            trsm_l(T[k][k], T[k][j]);
#pragma omp task depend(in : T[k][k]) depend(inout : T[j][k])
            trsm_u(T[k][k], T[j][k]);
        }
        for (int i = k + 1; i < NT; i++)
            for (int j = k + 1; j < NT; j++) {
#pragma omp task depend(in : T[i][k], T[k][j]) depend(inout : T[i][j])
                gemm_nn(T[i][k], T[k][j], T[i][j]);
            }
    }
}

static void lu_serial(double* a) {
    for (int k = 0; k < N; k++)
        for (int i = k + 1; i < N; i++) {
            a[i * N + k] /= a[k * N + k];
            for (int j = k + 1; j < N; j++) a[i * N + j] -= a[i * N + k] * a[k * N + j];
        }
}

// ---- sparse LU (BOTS style): blocks may be NULL ------------------------------------------
enum { SB = 12, SS = 16 };
static double* SP[SB][SB];
static double* alloc_block(void) { return calloc(SS * SS, sizeof(double)); }
static void sp_init(double* dense) {
    for (int i = 0; i < SB; i++)
        for (int j = 0; j < SB; j++) {
            int empty = (i != j) && ((i * 7 + j * 3) % 4 == 0);
            SP[i][j] = NULL;
            if (!empty) {
                SP[i][j] = alloc_block();
                for (int a = 0; a < SS; a++)
                    for (int b = 0; b < SS; b++) {
                        double v = ((i * SS + a) * 31 + (j * SS + b) * 17) % 23 / 23.0;
                        if (i == j && a == b) v += SB * SS;
                        SP[i][j][a * SS + b] = v;
                    }
            }
            for (int a = 0; a < SS; a++)
                for (int b = 0; b < SS; b++)
                    dense[(i * SS + a) * (SB * SS) + j * SS + b] = SP[i][j] ? SP[i][j][a * SS + b] : 0;
        }
}
static void sp_lu0(double* a) {
    for (int k = 0; k < SS; k++)
        for (int i = k + 1; i < SS; i++) {
            a[i * SS + k] /= a[k * SS + k];
            for (int j = k + 1; j < SS; j++) a[i * SS + j] -= a[i * SS + k] * a[k * SS + j];
        }
}
static void sp_fwd(const double* d, double* c) {
    for (int k = 0; k < SS; k++)
        for (int i = k + 1; i < SS; i++)
            for (int j = 0; j < SS; j++) c[i * SS + j] -= d[i * SS + k] * c[k * SS + j];
}
static void sp_bdiv(const double* d, double* r) {
    for (int j = 0; j < SS; j++)
        for (int i = 0; i < SS; i++) {
            double s = r[i * SS + j];
            for (int k = 0; k < j; k++) s -= r[i * SS + k] * d[k * SS + j];
            r[i * SS + j] = s / d[j * SS + j];
        }
}
static void sp_bmod(const double* r, const double* c, double* x) {
    for (int i = 0; i < SS; i++)
        for (int k = 0; k < SS; k++)
            for (int j = 0; j < SS; j++) x[i * SS + j] -= r[i * SS + k] * c[k * SS + j];
}
static void sparselu(void) {
#pragma omp parallel
#pragma omp single
    for (int k = 0; k < SB; k++) {
        sp_lu0(SP[k][k]);
        for (int j = k + 1; j < SB; j++)
            if (SP[k][j]) {
#pragma omp task firstprivate(k, j)
                sp_fwd(SP[k][k], SP[k][j]);
            }
        for (int i = k + 1; i < SB; i++)
            if (SP[i][k]) {
#pragma omp task firstprivate(k, i)
                sp_bdiv(SP[k][k], SP[i][k]);
            }
#pragma omp taskwait
        for (int i = k + 1; i < SB; i++)
            if (SP[i][k])
                for (int j = k + 1; j < SB; j++)
                    if (SP[k][j]) {
                        if (!SP[i][j]) SP[i][j] = alloc_block();
#pragma omp task firstprivate(k, i, j)
                        sp_bmod(SP[i][k], SP[k][j], SP[i][j]);
                    }
#pragma omp taskwait
    }
}

int main(void) {
    // SPD matrix: A = M M^T + N I.
    for (int i = 0; i < N; i++)
        for (int j = 0; j <= i; j++) {
            double s = 0;
            for (int k = 0; k < N; k++) s += ((i * k) % 13 - 6) * ((j * k) % 13 - 6) / 13.0;
            full[i * N + j] = full[j * N + i] = s / N + (i == j ? N : 0);
        }
    memcpy(ref, full, sizeof full);
    cholesky_serial(ref);
    to_tiles(full);
    cholesky_tasks();
    CHECK(tile_err(ref, 1) < 1e-8);

    memcpy(ref, full, sizeof full);
    lu_serial(ref);
    to_tiles(full);
    lu_tasks();
    CHECK(tile_err(ref, 0) < 1e-8);

    static double dense[SB * SS * SB * SS];
    sp_init(dense);
    sparselu();
    {
        // serial LU of the dense matrix; where a block stayed empty it must be 0.
        int n = SB * SS;
        for (int k = 0; k < n; k++)
            for (int i = k + 1; i < n; i++) {
                if (dense[i * n + k] == 0) continue;
                dense[i * n + k] /= dense[k * n + k];
                for (int j = k + 1; j < n; j++) dense[i * n + j] -= dense[i * n + k] * dense[k * n + j];
            }
        double e = 0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                double* b = SP[i / SS][j / SS];
                double v = b ? b[(i % SS) * SS + j % SS] : 0;
                double d = fabs(v - dense[i * n + j]);
                if (d > e) e = d;
            }
        CHECK(e < 1e-8);
    }

    // Wavefront: cell (i,j) after (i-1,j) and (i,j-1); every cell also adds into
    // one accumulator per anti-diagonal through inoutset (adds of one diagonal may run
    // together; the reader of diagonal d waits for all of them).
    enum { W = 24 };
    static long cell[W][W];
    static long diag[2 * W];
    static long diag_seen[2 * W];
#pragma omp parallel
#pragma omp single
    {
        for (int i = 0; i < W; i++)
            for (int j = 0; j < W; j++) {
#pragma omp task depend(in : cell[i > 0 ? i - 1 : i][j], cell[i][j > 0 ? j - 1 : j]) depend(out : cell[i][j]) depend(inoutset : diag[i + j]) firstprivate(i, j)
                {
                    long up = i > 0 ? cell[i - 1][j] : 0, left = j > 0 ? cell[i][j - 1] : 0;
                    cell[i][j] = (i == 0 || j == 0) ? 1 : up + left;
#pragma omp atomic
                    diag[i + j] += 1;
                }
            }
        for (int d = 0; d < 2 * W - 1; d++) {
#pragma omp task depend(in : diag[d]) firstprivate(d)
            diag_seen[d] = diag[d];
        }
    }
    {
        static long want[W][W];
        int same = 1;
        for (int i = 0; i < W; i++)
            for (int j = 0; j < W; j++) {
                want[i][j] = (i == 0 || j == 0) ? 1 : want[i - 1][j] + want[i][j - 1];
                same &= want[i][j] == cell[i][j];
            }
        CHECK(same && cell[W - 1][W - 1] == 8233430727600L);  // C(46, 23)
    }
    int diag_ok = 1;
    for (int d = 0; d < 2 * W - 1; d++) diag_ok &= diag_seen[d] == (d < W ? d + 1 : 2 * W - 1 - d);
    CHECK(diag_ok);

    // Commutative updates: mutexinoutset on one bin per task, no atomics needed.
    enum { BINS = 16, UPD = 4000 };
    static long hist[BINS];
#pragma omp parallel
#pragma omp single
    for (int u = 0; u < UPD; u++) {
        int b = (u * 7) % BINS;
#pragma omp task depend(mutexinoutset : hist[b]) firstprivate(u, b)
        {
            long v = hist[b];
            for (volatile int k = 0; k < 50; k++) {
            }
            hist[b] = v + u;
        }
    }
    long tot = 0;
    for (int b = 0; b < BINS; b++) tot += hist[b];
    CHECK(tot == (long)UPD * (UPD - 1) / 2);
    if (failures) return 1;
    printf("app_dense_deps: all passed\n");
    return 0;
}

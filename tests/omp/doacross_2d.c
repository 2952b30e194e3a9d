// Doacross loops with two-dimensional sink vectors: ordered(2) wavefronts with
// depend(sink: i-1,j) depend(sink: i,j-1), a diagonal sink (i-1,j-1), an inner loop
// counting down, a collapsed nest, and a serialized region (team of one). Every result is
// checked against a serial run.
// loom-test: threads 4
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

#define R 120
#define C 150
static long m[R][C], ref[R][C];

static long mix(long up, long left, int i, int j) { return (up * 7 + left * 13 + i + j) % 1000003; }

static int compare(const char* what) {
    int bad = 0;
    for (int i = 0; i < R; ++i)
        for (int j = 0; j < C; ++j) bad += m[i][j] != ref[i][j];
    if (bad) printf("%s: %d values differ from the serial run\n", what, bad);
    return bad;
}

static void wavefront(void) {
    memset(m, 0, sizeof m);
#pragma omp parallel
#pragma omp for ordered(2)
    for (int i = 0; i < R; ++i)
        for (int j = 0; j < C; ++j) {
#pragma omp ordered depend(sink : i - 1, j) depend(sink : i, j - 1)
            m[i][j] = mix(i ? m[i - 1][j] : 1, j ? m[i][j - 1] : 2, i, j);
#pragma omp ordered depend(source)
        }
    for (int i = 0; i < R; ++i)
        for (int j = 0; j < C; ++j)
            ref[i][j] = mix(i ? ref[i - 1][j] : 1, j ? ref[i][j - 1] : 2, i, j);
    CHECK(compare("wavefront") == 0);
}

// Three sinks: up, left and the upper-left diagonal. (A sink to (i-1,j+1) would name
// the iteration (i-1,C) at the last column, which clang's dimensions (upper bound = trip
// count) count as inside the space: it would wait forever, on libomp as well.)
static void diagonal_dynamic(void) {
    memset(m, 0, sizeof m);
#pragma omp parallel
#pragma omp for ordered(2) schedule(dynamic)
    for (int i = 0; i < R; ++i)
        for (int j = 0; j < C; ++j) {
#pragma omp ordered depend(sink : i - 1, j) depend(sink : i, j - 1) depend(sink : i - 1, j - 1)
            m[i][j] = mix(i && j ? m[i - 1][j - 1] + m[i - 1][j] : 3, j ? m[i][j - 1] : 4, i, j);
#pragma omp ordered depend(source)
        }
    for (int i = 0; i < R; ++i)
        for (int j = 0; j < C; ++j)
            ref[i][j] = mix(i && j ? ref[i - 1][j - 1] + ref[i - 1][j] : 3, j ? ref[i][j - 1] : 4, i, j);
    CHECK(compare("diagonal") == 0);
}

// The inner loop counts down, so its previous iteration is j+1.
static void inner_down(void) {
    memset(m, 0, sizeof m);
#pragma omp parallel
#pragma omp for ordered(2) schedule(static, 2)
    for (int i = 0; i < R; ++i)
        for (int j = C - 1; j >= 0; --j) {
#pragma omp ordered depend(sink : i - 1, j) depend(sink : i, j + 1)
            m[i][j] = mix(i ? m[i - 1][j] : 5, j + 1 < C ? m[i][j + 1] : 6, i, j);
#pragma omp ordered depend(source)
        }
    for (int i = 0; i < R; ++i)
        for (int j = C - 1; j >= 0; --j)
            ref[i][j] = mix(i ? ref[i - 1][j] : 5, j + 1 < C ? ref[i][j + 1] : 6, i, j);
    CHECK(compare("inner loop counting down") == 0);
}

// collapse(2) ordered(2): the iterations of both loops are shared out.
static void collapsed(void) {
    memset(m, 0, sizeof m);
#pragma omp parallel
#pragma omp for collapse(2) ordered(2) schedule(dynamic, 5)
    for (int i = 0; i < R; ++i)
        for (int j = 0; j < C; ++j) {
#pragma omp ordered depend(sink : i - 1, j) depend(sink : i, j - 1)
            m[i][j] = mix(i ? m[i - 1][j] : 1, j ? m[i][j - 1] : 2, i, j);
#pragma omp ordered depend(source)
        }
    for (int i = 0; i < R; ++i)
        for (int j = 0; j < C; ++j)
            ref[i][j] = mix(i ? ref[i - 1][j] : 1, j ? ref[i][j - 1] : 2, i, j);
    CHECK(compare("collapsed") == 0);
}

static void serialized(void) {
    memset(m, 0, sizeof m);
#pragma omp parallel num_threads(1)
#pragma omp for ordered(2)
    for (int i = 0; i < R; ++i)
        for (int j = 0; j < C; ++j) {
#pragma omp ordered depend(sink : i - 1, j) depend(sink : i, j - 1)
            m[i][j] = mix(i ? m[i - 1][j] : 1, j ? m[i][j - 1] : 2, i, j);
#pragma omp ordered depend(source)
        }
    for (int i = 0; i < R; ++i)
        for (int j = 0; j < C; ++j)
            ref[i][j] = mix(i ? ref[i - 1][j] : 1, j ? ref[i][j - 1] : 2, i, j);
    CHECK(compare("team of one") == 0);
}

int main(void) {
    for (int rep = 0; rep < 5; ++rep) {
        wavefront();
        diagonal_dynamic();
        inner_down();
        collapsed();
        serialized();
    }
    if (failures) return 1;
    printf("doacross_2d: all passed\n");
    return 0;
}

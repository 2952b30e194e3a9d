// taskloop: every iteration once, grainsize / num_tasks (strict), nogroup, if(0),
// final, priority, lastprivate, firstprivate, collapse, reductions, negative strides.
// loom-test: threads 4
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

#define N 10007
static int hit[N];

static int all_once(void) {
    for (int i = 0; i < N; ++i)
        if (hit[i] != 1) return 0;
    return 1;
}

int main(void) {
#pragma omp parallel
#pragma omp single
    {
        memset(hit, 0, sizeof hit);
#pragma omp taskloop
        for (int i = 0; i < N; ++i) hit[i]++;
        CHECK(all_once());

        memset(hit, 0, sizeof hit);
#pragma omp taskloop grainsize(100)
        for (int i = 0; i < N; ++i) hit[i]++;
        CHECK(all_once());

        // strict grainsize: chunks of exactly 64 except the last.
        int chunks[200], nch = 0;
        memset(hit, 0, sizeof hit);
#pragma omp taskloop grainsize(strict : 64) shared(chunks, nch)
        for (int i = 0; i < N; ++i) {
            hit[i]++;
            if (i % 64 == 0) {
                int k;
#pragma omp atomic capture
                k = nch++;
                chunks[k] = i;
            }
        }
        CHECK(all_once() && nch == (N + 63) / 64);

        memset(hit, 0, sizeof hit);
#pragma omp taskloop num_tasks(7)
        for (int i = 0; i < N; ++i) hit[i]++;
        CHECK(all_once());

        memset(hit, 0, sizeof hit);
#pragma omp taskloop num_tasks(strict : 13) nogroup
        for (int i = 0; i < N; ++i) hit[i]++;
#pragma omp taskwait
        CHECK(all_once());

        memset(hit, 0, sizeof hit);
        int cond = 0;
#pragma omp taskloop if (cond) grainsize(10)
        for (int i = 0; i < N; ++i) hit[i]++;
        CHECK(all_once());

        memset(hit, 0, sizeof hit);
#pragma omp taskloop final(1) priority(1)
        for (int i = 0; i < N; ++i) hit[i]++;
        CHECK(all_once());

        int last = -1;
#pragma omp taskloop lastprivate(last) grainsize(33)
        for (int i = 0; i < N; ++i) last = i;
        CHECK(last == N - 1);

        int base = 5;
        long s = 0;
#pragma omp taskloop firstprivate(base) reduction(+ : s)
        for (int i = 0; i < 1000; ++i) s += i + base;
        CHECK(s == 1000L * 999 / 2 + 5000);

        double m = 0;
#pragma omp taskloop reduction(max : m) num_tasks(50)
        for (int i = 0; i < 5000; ++i)
            if (i * 0.5 > m) m = i * 0.5;
        CHECK(m == 4999 * 0.5);

        static int grid[100][100];
#pragma omp taskloop collapse(2)
        for (int i = 0; i < 100; ++i)
            for (int j = 0; j < 100; ++j) grid[i][j] += i * 100 + j;
        int ok = 1;
        for (int i = 0; i < 100; ++i)
            for (int j = 0; j < 100; ++j) ok &= grid[i][j] == i * 100 + j;
        CHECK(ok);

        memset(hit, 0, sizeof hit);
#pragma omp taskloop grainsize(17)
        for (int i = N - 1; i >= 0; i -= 3) hit[i]++;
        int ok2 = 1;
        for (int i = 0; i < N; ++i) ok2 &= hit[i] == ((N - 1 - i) % 3 == 0);
        CHECK(ok2);

        // zero-trip loop
        int z = 0;
#pragma omp taskloop
        for (int i = 0; i < 0; ++i) z++;
        CHECK(z == 0);
    }
    // taskloop from every member.
    long total = 0;
#pragma omp parallel reduction(+ : total)
    {
        long mine = 0;
#pragma omp taskloop reduction(+ : mine)
        for (int i = 0; i < 100; ++i) mine += 1;
        total += mine;
    }
    CHECK(total == 100L * omp_get_max_threads());
    if (failures) return 1;
    printf("taskloop_basic: all passed\n");
    return 0;
}

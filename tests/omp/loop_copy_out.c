// Values copied out of worksharing loops reach the original variable whatever the
// schedule, and nowait loops in a row do not share their bookkeeping.
//
// gcc copies lastprivate and linear variables out in the member whose last chunk ends
// at the loop's end, so a runtime that hands a member a chunk after the one holding the
// last iteration (work stealing under nonmonotonic schedules) loses the copy-out.
// lastprivate(conditional) keeps the highest iteration seen in a block the runtime
// shares per construct (GOMP_loop_start's mem); with nowait a member may be several
// loops ahead of another, so a block reused or republished too early mixes the loops.
// clang learns that a member ran the last iteration from the `last` flag of the chunk
// holding it, which a later chunk to the same member clears: libomp 19's static_steal
// loses the linear copy-out that way (i = 8 in about one round of ten at 4 threads on
// 2 CPUs), and so did loom's stealing shares; this runs on loom and GNU libgomp.
// loom-test: runtimes loom libgomp
// loom-test: threads 4
// loom-test: compilers clang gcc
#include <omp.h>
#include <stdio.h>

#include "check.h"

static int a[512];

static int linear_dynamic(int i) {
#pragma omp parallel for linear(i : 4) schedule(nonmonotonic : dynamic, 3)
    for (int j = 16; j < 64; j++) {
        a[i] = j;
        i += 4;
    }
    return i;
}

static int lastprivate_guided(void) {
    int last = -1;
#pragma omp parallel for lastprivate(last) schedule(nonmonotonic : guided, 2)
    for (int j = 0; j < 300; j++) last = j;
    return last;
}

static int lastprivate_runtime(void) {
    int last = -1;
#pragma omp parallel for lastprivate(last) schedule(runtime)
    for (int j = 0; j < 300; j++) last = j;
    return last;
}

// Four nowait loops in a row: each one's conditional lastprivate is the last iteration
// that assigned it. gcc builds only: clang 19's own code for several conditional
// lastprivate loops in one region gives wrong values on libomp too (u2 = 72, u3 = -1 at
// 4 threads), so the clang build checks the other parts.
#ifndef __clang__
static int u1, u2, u3, u4;

static void conditional_nowait(void) {
#pragma omp parallel
    {
#pragma omp for lastprivate(conditional : u1) nowait
        for (int i = 0; i < 97; i++)
            if (i % 5 == 3) u1 = i;
#pragma omp for lastprivate(conditional : u2) nowait schedule(static, 2)
        for (int i = 0; i < 97; i++)
            if (i % 7 == 2) u2 = i;
#pragma omp for lastprivate(conditional : u3) nowait schedule(dynamic)
        for (int i = 0; i < 97; i++)
            if (i % 11 == 9) u3 = i;
#pragma omp for lastprivate(conditional : u4) nowait schedule(guided, 3)
        for (int i = 0; i < 97; i++)
            if (i % 13 == 5) u4 = i;
    }
}
#endif

int main(void) {
    for (int r = 0; r < 200; r++) {
        int got = linear_dynamic(8);
        CHECK(got == 8 + 48 * 4);
        if (got != 8 + 48 * 4) {
            printf("round %d: linear i = %d, want %d\n", r, got, 8 + 48 * 4);
            break;
        }
    }
    for (int r = 0; r < 200; r++) {
        int g = lastprivate_guided(), rt = lastprivate_runtime();
        CHECK(g == 299 && rt == 299);
        if (g != 299 || rt != 299) {
            printf("round %d: lastprivate %d (guided) %d (runtime), want 299\n", r, g, rt);
            break;
        }
    }
#ifndef __clang__
    for (int r = 0; r < 200; r++) {
        u1 = u2 = u3 = u4 = -1;
        conditional_nowait();
        CHECK(u1 == 93 && u2 == 93 && u3 == 86 && u4 == 96);
        if (u1 != 93 || u2 != 93 || u3 != 86 || u4 != 96) {
            printf("round %d: conditional %d %d %d %d, want 93 93 86 96\n", r, u1, u2, u3, u4);
            break;
        }
    }
#endif
    if (failures == 0) printf("PASS\n");
    return failures != 0;
}

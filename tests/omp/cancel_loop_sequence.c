// A cancelled loop's cancellation ends with it: the loops after it run every iteration.
// A member that leaves a cancellable barrier first may already be in the next loop and
// request that loop's cancellation while a slower member is still leaving the barrier;
// the slower one must act on the request the barrier completed with, not on the new
// one (before, it treated loop 3's `cancel for` as loop 2's, its extra barriers paired
// with the next loop's, and a member skipped its whole chunk of loop 4: libgomp's
// cancel-for-2.c). The pool grows in the first region, which is where members are
// slowest to leave barriers.
// loom-test: threads 4
// loom-test: env OMP_CANCELLATION=true
// loom-test: compilers clang gcc
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

static int run(const int* x, int* who) {
    int v2 = 0, v4 = 0, w = 0;
#pragma omp parallel num_threads(32) shared(v2, v4, w)
    {
        int i;
#pragma omp for
        for (i = 0; i < 1000; ++i) {
#pragma omp cancel for if (x[0])
            abort();
        }
#pragma omp for
        for (i = 0; i < 1000; ++i) {
#pragma omp cancellation point for
#pragma omp atomic
            v2++;
        }
#pragma omp for
        for (i = 0; i < 1000; ++i) {
#pragma omp cancel for if (x[2])
#pragma omp atomic
            w += 8;
        }
#pragma omp for
        for (i = 0; i < 1000; ++i) {
#pragma omp cancellation point for
#pragma omp atomic
            v4++;
#pragma omp atomic
            who[omp_get_thread_num()]++;
        }
    }
    if (v2 != 1000 || v4 != 1000 || w != 0) {
        printf("v2 %d v4 %d (want 1000 each), w %d (want 0)\n", v2, v4, w);
        return 0;
    }
    return 1;
}

int main(void) {
    int x[] = {1, 0, 1};
    if (!omp_get_cancellation()) {
        printf("OMP_CANCELLATION is not in effect\n");
        return 1;
    }
    for (int r = 0; r < 20; r++) {
        int who[32] = {0};
        int ok = run(x, who);
        CHECK(ok);
        if (!ok) {
            for (int t = 0; t < 32; t++)
                if (who[t] == 0) printf("round %d: member %d ran none of loop 4\n", r, t);
            break;
        }
    }
    if (failures == 0) printf("PASS\n");
    return failures != 0;
}

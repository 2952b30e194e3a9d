// Stress: 10^6 tasks from one producer, recursive trees 25 levels deep (2^25 leaves
// would be too many: a chain of depth 25 with fan-out at every level plus a full binary
// tree of depth 18), taskwait in tied tasks, tasks created in single and left for the
// barrier, tasks that block on a lock held by another task.
// loom-test: threads 2
// loom-test: timeout 120
#include <omp.h>
#include <stdio.h>

#include "check.h"

static long tree(int depth) {
    if (depth == 0) return 1;
    long a, b;
#pragma omp task shared(a)
    a = tree(depth - 1);
#pragma omp task shared(b)
    b = tree(depth - 1);
#pragma omp taskwait
    return a + b;
}

static long deep(int depth) {
    if (depth == 0) return 0;
    long r = 0;
#pragma omp task shared(r)
    r = deep(depth - 1) + 1;
#pragma omp task
    {
        volatile int x = depth;
        (void)x;
    }
#pragma omp taskwait
    return r;
}

static void run(int nthreads) {
    long produced = 0;
#pragma omp parallel num_threads(nthreads)
    {
#pragma omp single
        {
            for (long i = 0; i < 1000000; ++i) {
#pragma omp task shared(produced)
                {
#pragma omp atomic
                    produced++;
                }
            }
        }
        // the barrier of single runs them
    }
    CHECK(produced == 1000000);

    long t = 0, d = 0;
#pragma omp parallel num_threads(nthreads)
#pragma omp single
    {
        t = tree(18);
        d = deep(25);
    }
    CHECK(t == (1L << 18));
    CHECK(d == 25);

    // Tasks left by a single for the implicit barrier, from every member.
    int left = 0;
#pragma omp parallel num_threads(nthreads)
    {
#pragma omp single nowait
        for (int i = 0; i < 1000; ++i) {
#pragma omp task shared(left)
            {
#pragma omp atomic
                left++;
            }
        }
#pragma omp barrier
        CHECK(left == 1000);
    }

    // Lock held by one task, wanted by others.
    omp_lock_t lk;
    omp_init_lock(&lk);
    int in = 0, overlap = 0, total = 0;
#pragma omp parallel num_threads(nthreads)
#pragma omp single
    for (int i = 0; i < 200; ++i) {
#pragma omp task shared(lk, in, overlap, total)
        {
            omp_set_lock(&lk);
            if (++in != 1) overlap++;
            volatile int w = 0;
            for (int k = 0; k < 2000; ++k) w += k;
            total++;
            in--;
            omp_unset_lock(&lk);
        }
    }
    omp_destroy_lock(&lk);
    CHECK(total == 200 && overlap == 0);
}

int main(void) {
    run(1);
    run(2);
    if (failures) return 1;
    printf("task_stress: all passed\n");
    return 0;
}

// Hidden helper threads: `target nowait` tasks run on helper threads numbered like
// libomp's (gtids 2..8 with the default of 8 helper gtids), regular threads get gtid 0
// or above 8, even from a team of one; dependences between regular and target tasks
// are kept; taskwait and taskgroup wait for target tasks.
// loom-test: threads 4
#include <omp.h>
#include <stdio.h>

#include "check.h"

int __kmpc_global_thread_num(void*);

static int is_helper(int g) { return g >= 2 && g <= 8; }
static int is_regular(int g) { return g == 0 || g > 8; }

static void round_trip(void) {
    int order[3] = {-1, -1, -1}, gt[3] = {-1, -1, -1}, step = 0, dep = 0;
#pragma omp task shared(order, gt, step) depend(inout : dep)
    {
        gt[0] = __kmpc_global_thread_num(NULL);
        order[0] = __atomic_fetch_add(&step, 1, __ATOMIC_SEQ_CST);
    }
#pragma omp target nowait map(tofrom : order, gt, step) depend(inout : dep)
    {
        gt[1] = __kmpc_global_thread_num(NULL);
        order[1] = __atomic_fetch_add(&step, 1, __ATOMIC_SEQ_CST);
    }
#pragma omp task shared(order, gt, step) depend(inout : dep)
    {
        gt[2] = __kmpc_global_thread_num(NULL);
        order[2] = __atomic_fetch_add(&step, 1, __ATOMIC_SEQ_CST);
    }
#pragma omp taskwait
    CHECK(order[0] == 0 && order[1] == 1 && order[2] == 2);
    CHECK(is_regular(gt[0]) && is_helper(gt[1]) && is_regular(gt[2]));
}

int main(void) {
    CHECK(__kmpc_global_thread_num(NULL) == 0);
#pragma omp parallel
    {
        CHECK(is_regular(__kmpc_global_thread_num(NULL)));
#pragma omp for
        for (int i = 0; i < 64; ++i) round_trip();
    }
    // A team of one defers target tasks to the helpers too.
#pragma omp parallel num_threads(1)
    round_trip();

    int done = 0;
#pragma omp taskgroup
    {
        for (int i = 0; i < 16; ++i) {
#pragma omp target nowait map(tofrom : done)
            __atomic_fetch_add(&done, 1, __ATOMIC_SEQ_CST);
        }
    }
    CHECK(done == 16);
    if (failures) return 1;
    printf("hidden_helper_gtid: all passed\n");
    return 0;
}

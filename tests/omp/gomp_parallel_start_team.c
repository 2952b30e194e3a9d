// GOMP_parallel_start / GOMP_parallel_end (the region form GCC before 4.9 emitted, still
// exported by libgomp and called by old binaries) give the team the requested size,
// above nthreads-var and above the number of CPUs, like GOMP_parallel: libgomp's
// loop-2.c forms a team of 5 under OMP_NUM_THREADS=4. loom forks such a region on a
// stack of its own; the fork there must grow the pool as one on the thread's own stack
// does (before, a team of 4 on 2 CPUs), and nested pairs must still join.
// loom-test: compilers gcc
// loom-test: runtimes loom libgomp
// loom-test: env OMP_NUM_THREADS=4
#include <omp.h>
#include <stdio.h>

#include "check.h"

void GOMP_parallel_start(void (*fn)(void*), void* data, unsigned num_threads);
void GOMP_parallel_end(void);

struct seen {
    int team;
    int members;
};

static void body(void* p) {
    struct seen* s = p;
    if (omp_get_thread_num() == 0) s->team = omp_get_num_threads();
#pragma omp atomic
    s->members++;
}

static void nested_body(void* p) {
    struct seen* s = p;
    struct seen inner = {0, 0};
    GOMP_parallel_start(body, &inner, 2);
    body(&inner);
    GOMP_parallel_end();
    if (omp_get_thread_num() == 0) s->team = inner.team;
#pragma omp atomic
    s->members += inner.members;
}

int main(void) {
    omp_set_max_active_levels(2);
    for (int r = 0; r < 20; r++) {
        struct seen s = {0, 0};
        GOMP_parallel_start(body, &s, 5);
        body(&s);  // the caller runs the body as member 0
        GOMP_parallel_end();
        CHECK(s.team == 5 && s.members == 5);
        if (s.team != 5 || s.members != 5) {
            printf("round %d: team %d, %d members ran (want 5)\n", r, s.team, s.members);
            break;
        }
    }
    struct seen n = {0, 0};
    GOMP_parallel_start(nested_body, &n, 3);
    nested_body(&n);
    GOMP_parallel_end();
    CHECK(n.team == 2 && n.members == 6);
    if (failures == 0) printf("PASS\n");
    return failures != 0;
}

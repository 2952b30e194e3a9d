// With OMP_NUM_THREADS=1 a num_threads clause still gets the team it asks for (OpenMP
// 5.2, 10.1.1: the clause replaces nthreads-var; ThreadsAvailable comes from
// thread-limit-var, not from nthreads-var), while regions without the clause stay one
// thread and omp_get_max_threads() stays 1. loom sized its pool from OMP_NUM_THREADS
// to one worker, which kept the main thread outside the pool, and a thread outside the
// pool never grows it: every `parallel num_threads(4)` got one thread (60 of GCC's
// libgomp tests failed at OMP_NUM_THREADS=1, such as libgomp.c++/ctor-8.C). This is the
// setting of most MPI + OpenMP programs.
// loom-test: env OMP_NUM_THREADS=1
#include <omp.h>

#include "check.h"

int main(void) {
    CHECK(omp_get_max_threads() == 1);
    int plain = -1;
#pragma omp parallel
#pragma omp master
    plain = omp_get_num_threads();
    CHECK(plain == 1);
    for (int round = 0; round < 3; ++round) {
        int seen[4] = {0, 0, 0, 0};
        int size = -1;
#pragma omp parallel num_threads(4)
        {
#pragma omp master
            size = omp_get_num_threads();
            seen[omp_get_thread_num()] = 1;
#pragma omp barrier
        }
        CHECK(size == 4);
        CHECK(seen[0] && seen[1] && seen[2] && seen[3]);
    }
    // The pool the clause needed does not change nthreads-var.
    CHECK(omp_get_max_threads() == 1);
    return failures != 0;
}

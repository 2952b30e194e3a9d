// Task reductions stay exact when the team is smaller than the pool and its members
// stay busy in their own code: a worker outside the team that took one of the team's
// tasks must not run it under a member's identity while that member runs another of
// them (with gcc's layout the private copies are indexed by thread number, so both
// would update one copy and lose increments). Team of 2 on a pool of 4; the members
// spin for 0.2 s without a scheduling point while their tasks wait; each task adds 1 a
// million times to its in_reduction copy, slowly enough for two of them to overlap.
// loom-test: env OMP_NUM_THREADS=4
// loom-test: timeout 120
#include <omp.h>
#include <stdio.h>

static double now(void) { return omp_get_wtime(); }

static void spin_for(double seconds) {
    const double end = now() + seconds;
    while (now() < end) {
    }
}

int main(void) {
    const int tasks = 8;
    const long adds = 1000000;
    int failures = 0;
    for (int round = 0; round < 3; ++round) {
        long sum = 0;
#pragma omp parallel num_threads(2)
        {
#pragma omp single nowait
            {
#pragma omp taskgroup task_reduction(+ : sum)
                {
                    for (int t = 0; t < tasks; ++t) {
#pragma omp task in_reduction(+ : sum)
                        {
                            for (long i = 0; i < adds; ++i) {
                                // A read-modify-write split by a compiler barrier:
                                // two threads on one copy lose increments.
                                long v = sum;
                                __asm__ volatile("" ::: "memory");
                                sum = v + 1;
                            }
                        }
                    }
                    spin_for(0.2);  // no scheduling point: no member lends its worker
                }
            }
            spin_for(0.2);
        }
        if (sum != tasks * adds) {
            fprintf(stderr, "round %d: sum %ld, expected %ld\n", round, sum, tasks * adds);
            failures++;
        }
    }
    if (failures) return 1;
    printf("taskred_no_standin: ok\n");
    return 0;
}

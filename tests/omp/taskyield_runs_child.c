// Taskyields run the child tasks that wait to be run, even when the pool has more
// workers than the team and a worker outside the team took children from the
// creator's queue while the team's other member is busy in a task that waits for the
// creator: the creator's taskyields are the only scheduling points where the children
// can run, so they must run there, on the creator's thread. (LLVM's
// ompt/tasks/taskyield.c checks the same through OMPT events.) Each round spins 2 ms
// before yielding, long enough for an idle worker outside the team to wake and take
// children, then yields until every child ran or 1 s passed (a worker that took a
// child may lose its CPU on a loaded machine before it publishes the child, see
// src/omp/tasking/held_tasks.hpp; without that table nearly every round fails).
// Not on libgomp: its taskyield does nothing (GOMP_taskyield is an empty function), so
// the children run only in the barrier.
// loom-test: threads 4
// loom-test: runtimes loom libomp
#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>

static void spin_for(double seconds) {
    const double end = omp_get_wtime() + seconds;
    while (omp_get_wtime() < end) {
    }
}

enum { children = 4 };

int main(void) {
    const int rounds = 40;
    int failures = 0;
    for (int r = 0; r < rounds; ++r) {
        atomic_int stage = 0;
        int ran_on[children];
        for (int c = 0; c < children; ++c) ran_on[c] = -1;
#pragma omp parallel num_threads(2) shared(stage, ran_on)
        {
#pragma omp master
            {
                // Keeps the other member busy, without a scheduling point, until the
                // creator has yielded.
#pragma omp task shared(stage)
                {
                    atomic_store(&stage, 1);
                    while (atomic_load(&stage) < 2) {
                    }
                }
                while (atomic_load(&stage) < 1) {
                }
                for (int c = 0; c < children; ++c) {
#pragma omp task shared(ran_on) firstprivate(c)
                    ran_on[c] = omp_get_thread_num();
                }
                spin_for(2e-3);
                // The children write ran_on on this thread when a taskyield runs them.
                const double give_up = omp_get_wtime() + 1.0;
                int missing = children;
                while (missing != 0 && omp_get_wtime() < give_up) {
#pragma omp taskyield
                    missing = 0;
                    for (int c = 0; c < children; ++c) missing += ran_on[c] < 0;
                }
                if (missing != 0) {
                    ++failures;
                    printf("round %d: %d of %d children had not run after 1 s of taskyields\n", r, missing,
                           children);
                }
                atomic_store(&stage, 2);
            }
        }
        for (int c = 0; c < children; ++c)
            if (ran_on[c] > 0) {
                ++failures;
                printf("round %d: child %d ran on thread %d, not on its creator's\n", r, c, ran_on[c]);
            }
        if (failures != 0) break;  // a failing round takes 1 s
    }
    if (failures != 0) {
        printf("FAILED\n");
        return 1;
    }
    printf("the taskyields ran the waiting children in all %d rounds\n", rounds);
    return 0;
}

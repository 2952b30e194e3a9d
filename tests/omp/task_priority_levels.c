// priority(p) orders the tasks one thread runs: a thread waiting in taskwait runs its
// queued children highest priority first, for every level the clause allows (not only
// two classes), and priority(0) work after all of them. The other thread stays in its
// own code (no scheduling point) until every task has run, so one thread sees them
// all. Priorities above OMP_MAX_TASK_PRIORITY count as the maximum.
// loom-test: threads 2
// loom-test: env OMP_MAX_TASK_PRIORITY=100
#include <omp.h>
#include <stdio.h>

#include "check.h"

#define N 24

int main(void) {
    // A fixed shuffle of the priorities 1..N-1, and 0 (normal work) in the middle.
    static const int prio[N] = {7, 19, 2, 23, 11, 0, 15, 4, 21, 9, 1, 17,
                                13, 6, 22, 3, 18, 10, 14, 5, 20, 8, 16, 12};
    int order[N], ran = 0;
    CHECK(omp_get_max_task_priority() == 100);
#pragma omp parallel num_threads(2) shared(order, ran)
    {
        if (omp_get_thread_num() == 0) {
            for (int i = 0; i < N; ++i) {
#pragma omp task priority(prio[i]) firstprivate(i) shared(order, ran)
                {
                    int slot;
#pragma omp atomic capture
                    slot = ran++;
                    order[slot] = prio[i];
                }
            }
#pragma omp taskwait
        } else {
            int seen;
            do {
#pragma omp atomic read
                seen = ran;
            } while (seen < N);
        }
    }
    CHECK(ran == N);
    for (int k = 0; k < N; ++k) {
        if (order[k] != N - 1 - k) printf("position %d ran priority %d, expected %d\n", k, order[k], N - 1 - k);
        CHECK(order[k] == N - 1 - k);
    }
    // Beyond the maximum: served as the maximum, still before normal work.
    ran = 0;
#pragma omp parallel num_threads(2) shared(order, ran)
    {
        if (omp_get_thread_num() == 0) {
#pragma omp task priority(0) shared(order, ran)
            {
                int slot;
#pragma omp atomic capture
                slot = ran++;
                order[slot] = 0;
            }
#pragma omp task priority(1000) shared(order, ran)
            {
                int slot;
#pragma omp atomic capture
                slot = ran++;
                order[slot] = 1000;
            }
#pragma omp taskwait
        } else {
            int seen;
            do {
#pragma omp atomic read
                seen = ran;
            } while (seen < 2);
        }
    }
    CHECK(order[0] == 1000 && order[1] == 0);
    if (failures) return 1;
    printf("task_priority_levels: ok\n");
    return 0;
}

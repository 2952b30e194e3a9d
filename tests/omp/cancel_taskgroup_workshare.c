// `cancel taskgroup` and worksharing loops with task reductions (gcc): the taskgroup
// such a loop opens for its reductions is the runtime's, not the program's, so a cancel
// inside it cancels the program's taskgroup around the loop, and the loop's tasks are
// discarded when that taskgroup was cancelled before (libgomp task.c: a workshare
// taskgroup is cancelled with its parent; GCC's cancel-taskgroup-3.c). Before, loom
// cancelled only the loop's own group and ran tasks of an already cancelled taskgroup.
// loom-test: compilers gcc
// loom-test: runtimes loom libgomp
// loom-test: threads 4
// loom-test: env OMP_CANCELLATION=true
#include <omp.h>
#include <stdio.h>

#include "check.h"

int main(void) {
    int ran_after_cancel = 0, a = 0;
#pragma omp parallel shared(ran_after_cancel, a)
#pragma omp taskgroup
    {
        // Every member's taskgroup region is its own: each member cancels its own.
#pragma omp task
        {
#pragma omp cancel taskgroup
        }
#pragma omp taskwait
#pragma omp for reduction(task, + : a)
        for (int i = 0; i < 64; ++i) {
            a++;
#pragma omp task in_reduction(+ : a)
            {
#pragma omp atomic
                ran_after_cancel++;
            }
        }
    }
    CHECK(a == 64);
    CHECK(ran_after_cancel == 0);
    if (ran_after_cancel != 0) printf("%d tasks of a cancelled taskgroup ran\n", ran_after_cancel);

    int ran = 0, later = 0;
    a = 0;
#pragma omp parallel shared(ran, later, a)
#pragma omp taskgroup
    {
#pragma omp for reduction(task, + : a)
        for (int i = 0; i < 64; ++i) {
            a++;
#pragma omp task in_reduction(+ : a)
            {
#pragma omp atomic
                ran++;
#pragma omp cancel taskgroup
            }
        }
        // The loop's barrier completed its tasks: the taskgroup around it is cancelled.
#pragma omp task
        {
#pragma omp atomic
            later++;
        }
    }
    CHECK(a == 64);
    CHECK(ran >= 1);
    CHECK(later == 0);
    if (later != 0) printf("%d tasks ran after the loop's tasks cancelled the taskgroup\n", later);
    if (failures == 0) printf("PASS\n");
    return failures != 0;
}

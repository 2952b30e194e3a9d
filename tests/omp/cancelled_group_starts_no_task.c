// A task construct met after its taskgroup was cancelled starts no task, undeferred
// ones included: GCC's GOMP_task returns at once then (libgomp task.c), so a cancelled
// recursive search stops creating work instead of walking the rest of its subtree
// through if(0) tasks (libgomp.c-c++-common/cancel-taskgroup-1.c: 3x slower on loom).
// A runtime that runs undeferred tasks of a cancelled group computes the same result,
// only later: the test counts the bodies that ran.
// gcc only: clang runs an if(0) task's body itself, between __kmpc_omp_task_begin_if0
// and __kmpc_omp_task_complete_if0, so the runtime cannot skip it (libomp runs it too).
// loom-test: compilers gcc
// loom-test: env OMP_CANCELLATION=true OMP_NUM_THREADS=4
#include <omp.h>
#include <unistd.h>

#include "check.h"

enum { rounds = 20, limit_s = 30 };

static int ran_after_cancel;

static void count_one(void) {
#pragma omp atomic
    ran_after_cancel++;
}

static void create_both_kinds(void) {
#pragma omp task if (0)
    count_one();
#pragma omp task
    count_one();
}

// The task that cancels runs alone (it waits for nothing), so the encountering task's
// taskwait may run it itself; then the encountering task, still in the cancelled
// taskgroup, meets both kinds of task construct.
static void one_round(void) {
#pragma omp taskgroup
    {
#pragma omp task
        {
#pragma omp cancel taskgroup
        }
#pragma omp taskwait
        create_both_kinds();
    }
}

int main(void) {
    alarm(limit_s);  // a hang fails the test instead of stalling the suite
    CHECK(omp_get_cancellation());
    for (int r = 0; r < rounds; r++) {
#pragma omp parallel
#pragma omp single
        one_round();
    }
    CHECK(ran_after_cancel == 0);
    if (failures == 0) printf("cancelled_group_starts_no_task: all passed\n");
    return failures != 0;
}

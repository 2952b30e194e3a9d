// A task construct met after its taskgroup was cancelled starts no task, undeferred
// ones included: GCC's GOMP_task returns at once then (libgomp task.c), so a cancelled
// recursive search stops creating work instead of walking the rest of its subtree
// through if(0) tasks (libgomp.c-c++-common/cancel-taskgroup-1.c: 3x slower on loom).
// A runtime that runs undeferred tasks of a cancelled group computes the same result,
// only later: the test counts the bodies that ran. Both kinds of encountering task:
// the one in the taskgroup region itself, and a task of the group that had started
// before the cancel and goes on after it.
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

static void spin_until(int* flag) {
    while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE)) {
    }
}

static void one_round(void) {
    int started = 0, cancelled = 0, a_done = 0;
#pragma omp taskgroup
    {
        // B: starts, then waits until the group is cancelled, then creates tasks.
#pragma omp task shared(started, cancelled)
        {
            __atomic_store_n(&started, 1, __ATOMIC_RELEASE);
            spin_until(&cancelled);
            create_both_kinds();
        }
        // A: cancels the group once B runs (B is then not discarded as unstarted).
#pragma omp task shared(started, a_done) depend(out : a_done)
        {
            spin_until(&started);
            a_done = 1;
#pragma omp cancel taskgroup
        }
#pragma omp taskwait depend(in : a_done)
        __atomic_store_n(&cancelled, 1, __ATOMIC_RELEASE);
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

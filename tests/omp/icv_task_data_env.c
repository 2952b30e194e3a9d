// Every task has its own ICV data environment, copied from the task that generated it
// (OpenMP 5.2, 2.4: omp_set_num_threads, omp_set_dynamic, omp_set_schedule, ... change
// the ICVs of the current task only). An explicit task that calls a setter, undeferred
// (if(0)), included (final) or deferred, must leave its generating task's ICVs as they
// were; the tasks it generates and the regions it encounters see its values. Before,
// loom's explicit tasks shared their implicit task's ICVs: omp_set_num_threads(5) in a
// `task if(0)` was still in effect in the encountering task afterwards (GCC's
// libgomp.c/icv-1.c, clang build too).
// loom-test: threads 4
#include <omp.h>
#include <stdio.h>

static int failures = 0;
#define CHECK(c)                                                                  \
    do {                                                                          \
        if (!(c)) {                                                               \
            printf("%s:%d: check failed: %s\n", __FILE__, __LINE__, #c);          \
            failures++;                                                           \
        }                                                                         \
    } while (0)

// Changes every settable ICV of the current task, checks them, and checks that a task
// generated now and a region encountered now inherit them.
static void set_and_check(int nthreads) {
    omp_set_num_threads(nthreads);
    omp_set_dynamic(1);
    omp_set_schedule(omp_sched_guided, 7);
    CHECK(omp_get_max_threads() == nthreads);
    CHECK(omp_get_dynamic() == 1);
    omp_sched_t kind;
    int chunk;
    omp_get_schedule(&kind, &chunk);
    CHECK(kind == omp_sched_guided && chunk == 7);
    int inner = 0;
#pragma omp task if (0) shared(inner)
    inner = omp_get_max_threads();
    CHECK(inner == nthreads);
    int in_region = 0;
#pragma omp parallel num_threads(1) shared(in_region)
    in_region = omp_get_max_threads();
    CHECK(in_region == nthreads);
}

// The ICVs of the calling task are the ones it set before (3, not dynamic, static 2).
static void check_unchanged(const char* where) {
    omp_sched_t kind;
    int chunk;
    omp_get_schedule(&kind, &chunk);
    if (omp_get_max_threads() != 3 || omp_get_dynamic() != 0 || kind != omp_sched_static ||
        chunk != 2) {
        printf("ICVs changed after %s: max_threads %d dynamic %d schedule %d,%d\n", where,
               omp_get_max_threads(), omp_get_dynamic(), (int)kind, chunk);
        failures++;
    }
}

static void in_task(void) {
    omp_set_num_threads(3);
    omp_set_dynamic(0);
    omp_set_schedule(omp_sched_static, 2);

#pragma omp task if (0)
    {
        CHECK(omp_get_max_threads() == 3);
        set_and_check(5);
#pragma omp task if (0)
        set_and_check(6);
        CHECK(omp_get_max_threads() == 5);  // the nested task's change ended with it
    }
    check_unchanged("an undeferred task");

#pragma omp task final(1)
    {
        const int before = omp_get_max_threads();
#pragma omp task
        set_and_check(7);  // included: a final task's child
        CHECK(omp_get_max_threads() == before);
        set_and_check(6);
    }
#pragma omp taskwait
    check_unchanged("a final task and its included child");

    for (int i = 0; i < 8; ++i) {
#pragma omp task firstprivate(i)
        set_and_check(2 + i);
    }
#pragma omp taskwait
    check_unchanged("deferred tasks");
}

int main(void) {
    // In the initial task, and in a team's implicit task that runs other members' tasks.
    in_task();
#pragma omp parallel num_threads(2)
    {
        in_task();
#pragma omp barrier
        check_unchanged("the barrier");
    }
    CHECK(omp_get_max_threads() == 3);
    if (failures) {
        printf("FAILED: %d checks\n", failures);
        return 1;
    }
    printf("icv_task_data_env: all passed\n");
    return 0;
}

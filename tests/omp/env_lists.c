// OMP_NUM_THREADS and OMP_PROC_BIND lists, OMP_SCHEDULE with a modifier,
// OMP_MAX_ACTIVE_LEVELS, OMP_DYNAMIC, OMP_THREAD_LIMIT, OMP_PLACES, OMP_STACKSIZE,
// OMP_WAIT_POLICY, KMP_BLOCKTIME, OMP_MAX_TASK_PRIORITY, OMP_DEFAULT_DEVICE.
// loom-test: env OMP_NUM_THREADS=3,2 OMP_PROC_BIND=spread,close OMP_MAX_ACTIVE_LEVELS=2
// loom-test: env OMP_SCHEDULE=monotonic:dynamic,5 OMP_DYNAMIC=false OMP_THREAD_LIMIT=16
// loom-test: env OMP_STACKSIZE=4M OMP_WAIT_POLICY=passive KMP_BLOCKTIME=7 OMP_MAX_TASK_PRIORITY=9
// loom-test: env OMP_DEFAULT_DEVICE=0
// loom-test: setenv OMP_PLACES {0},{1}
#include <omp.h>
#include <stdio.h>

static int failures = 0;
#define CHECK(c)                                                        \
    do {                                                                \
        if (!(c)) {                                                     \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
            failures++;                                                 \
        }                                                               \
    } while (0)

int main(void) {
    CHECK(omp_get_max_threads() == 3);
    CHECK(omp_get_proc_bind() == omp_proc_bind_spread);
    CHECK(omp_get_max_active_levels() == 2);
    CHECK(omp_get_dynamic() == 0);
    CHECK(omp_get_thread_limit() == 16);
    CHECK(omp_get_max_task_priority() == 9);
    CHECK(omp_get_default_device() == 0);
    CHECK(kmp_get_blocktime() == 7 || kmp_get_blocktime() == 0);
    CHECK(kmp_get_stacksize_s() == 4u << 20);
    CHECK(omp_get_num_places() == 2);
    CHECK(omp_get_place_num_procs(0) == 1 && omp_get_place_num_procs(1) == 1);
    int ids[1] = {-1};
    omp_get_place_proc_ids(1, ids);
    CHECK(ids[0] == 1);
    omp_sched_t kind;
    int chunk;
    omp_get_schedule(&kind, &chunk);
    CHECK(kind == (omp_sched_t)(omp_sched_dynamic | omp_sched_monotonic) && chunk == 5);
    int outer = 0;
#pragma omp parallel reduction(+ : outer)
    {
        outer += 1;
        if (omp_get_max_threads() != 2) outer += 1000;
        if (omp_get_proc_bind() != omp_proc_bind_close) outer += 1000;
#pragma omp parallel
        {
#pragma omp single
            if (omp_get_num_threads() != 2 && omp_get_num_threads() != 1) {
#pragma omp atomic
                failures++;
            }
        }
    }
    CHECK(outer == 3);
    if (failures) return 1;
    printf("ok\n");
    return 0;
}

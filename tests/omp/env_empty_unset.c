// An empty variable counts as unset (docs/configuration.md): no warning, the default.
// Before, an empty OMP_NUM_THREADS and most other OMP_* / KMP_* variables warned that ''
// was malformed (the program's stderr must stay empty on loom). The empty values are set
// for the loom run only: libomp 19 aborts on an empty OMP_NUM_THREADS (assertion
// "total > 0", kmp_settings.cpp:1161); its run checks the defaults the program expects.
// loom-test: env-loom OMP_NUM_THREADS= OMP_PROC_BIND= OMP_PLACES= OMP_STACKSIZE= OMP_SCHEDULE=
// loom-test: env-loom OMP_DYNAMIC= OMP_MAX_ACTIVE_LEVELS= OMP_THREAD_LIMIT= OMP_WAIT_POLICY=
// loom-test: env-loom KMP_BLOCKTIME= OMP_NESTED= OMP_DISPLAY_ENV= OMP_TARGET_OFFLOAD=
// loom-test: env-loom OMP_DEFAULT_DEVICE= KMP_HW_SUBSET= OMP_CANCELLATION= KMP_STACKSIZE=
// loom-test: env-loom OMP_NUM_TEAMS= OMP_TEAMS_THREAD_LIMIT= KMP_LIBRARY= KMP_TEAMS_PROC_BIND=
// loom-test: env-loom LOOM_NUM_THREADS= LOOM_PIN= LOOM_STACKSIZE= LOOM_SPIN_US= KMP_AFFINITY=
// loom-test: env-loom KMP_SETTINGS= OMP_AFFINITY_FORMAT= GOMP_CPU_AFFINITY=
#include <omp.h>
#include <stdio.h>

#include "check.h"

int main(void) {
    int team = 0;
#pragma omp parallel
#pragma omp single
    team = omp_get_num_threads();
    CHECK(team == omp_get_num_procs());
    CHECK(omp_get_max_threads() == omp_get_num_procs());
    CHECK(omp_get_proc_bind() == omp_proc_bind_false);
    CHECK(omp_get_dynamic() == 0);
    CHECK(omp_get_cancellation() == 0);
    omp_sched_t kind;
    int chunk;
    omp_get_schedule(&kind, &chunk);
    CHECK((kind & ~omp_sched_monotonic) == omp_sched_static);
    if (failures == 0) printf("env_empty_unset: all passed\n");
    return failures != 0;
}

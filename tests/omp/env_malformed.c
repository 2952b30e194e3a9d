// Malformed environment values: one warning each naming the variable, sane defaults,
// no crash, no hang. (Debian's libomp aborts on some of these, so loom only.)
// loom-test: runtimes loom
// loom-test: env OMP_NUM_THREADS=abc OMP_SCHEDULE=sometimes OMP_DYNAMIC=maybe
// loom-test: env OMP_PROC_BIND=sideways OMP_MAX_ACTIVE_LEVELS=-3 OMP_THREAD_LIMIT=0
// loom-test: env OMP_STACKSIZE=12Q KMP_BLOCKTIME=soon OMP_WAIT_POLICY=lazy
// loom-test: env OMP_CANCELLATION=perhaps GOMP_SPINCOUNT=lots KMP_HOT_TEAMS_MAX_LEVEL=deep
// loom-test: setenv OMP_PLACES {0:x}
// loom-test: env KMP_LIBRARY=fast KMP_AFFINITY=random OMP_DISPLAY_ENV=loud
// loom-test: expect-stderr-loom OMP_NUM_THREADS=.abc.*OMP_SCHEDULE=.sometimes.*OMP_PROC_BIND=.sideways.*KMP_HOT_TEAMS_MAX_LEVEL=.deep.*OMP_STACKSIZE=.12Q
#include <omp.h>
#include <stdio.h>

int main(void) {
    int n = 0;
#pragma omp parallel reduction(+ : n)
    n++;
    if (n < 1 || n != omp_get_max_threads()) return 1;
    omp_sched_t k;
    int c;
    omp_get_schedule(&k, &c);
    if (k != omp_sched_static) return 2;
    if (omp_get_dynamic() != 0 || omp_get_cancellation() != 0) return 3;
    if (omp_get_max_active_levels() != 1) return 4;
    printf("ok %d\n", n);
    return 0;
}

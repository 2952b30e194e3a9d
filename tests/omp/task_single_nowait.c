// Tasks created under `single nowait` while the other members have already reached the
// end of the region: those members must take part in running them (the region's end
// is a task scheduling point), also with KMP_BLOCKTIME=infinite, where a member that
// finished its share waits for the next region without ever giving its thread up.
// Every task must run exactly once, and with 2 threads the second thread must have run
// some of them (each task sleeps, so one thread alone would take 2 x as long).
// loom-test: threads 2
// loom-test: env KMP_BLOCKTIME=infinite
#include <omp.h>
#include <stdio.h>
#include <time.h>

enum { TASKS = 200, REGIONS = 5 };

static void nap_us(long us) {
    struct timespec t = {0, us * 1000L};
    nanosleep(&t, NULL);
}

int main(void) {
    int failures = 0;
    for (int r = 0; r < REGIONS; ++r) {
        int ran[TASKS] = {0};
        int by_others = 0;
#pragma omp parallel num_threads(2)
#pragma omp single nowait
        for (int k = 0; k < TASKS; ++k) {
#pragma omp task firstprivate(k) shared(ran, by_others)
            {
                nap_us(100);
#pragma omp atomic
                ran[k]++;
                if (omp_get_thread_num() != 0) {
#pragma omp atomic
                    by_others++;
                }
            }
        }
        int bad = 0;
        for (int k = 0; k < TASKS; ++k) bad += ran[k] != 1;
        if (bad) {
            printf("region %d: %d tasks did not run exactly once\n", r, bad);
            ++failures;
        }
        if (omp_get_max_threads() > 1 && by_others == 0) {
            printf("region %d: the second thread ran none of the %d tasks\n", r, TASKS);
            ++failures;
        }
    }
    if (failures) return 1;
    printf("task_single_nowait: all passed\n");
    return 0;
}
